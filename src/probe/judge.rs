//! Whether a request executed, judged from the answers alone (pure).
//!
//! An answer is *accepted* when it says the work was done: a 2xx, or 303 See Other (the
//! POST-redirect-GET pattern). Two accepted answers to one key are one execution when they
//! are alike, two when they differ: a different `Location`, a different value at the
//! `--id` JSON pointer, or, without `--id` (or when it finds nothing in a body), a different
//! body. With `--id` the bodies are not compared, so a replay may carry a time or a request
//! id of its own.

use std::collections::BTreeMap;

use super::Answer;

/// Whether the answer says the work was done (2xx or 303).
pub fn accepted(answer: &Answer) -> bool {
    matches!(answer.status(), Some(s) if (200..300).contains(&s) || s == 303)
}

/// Whether the answer is a redirect the probe does not follow (301, 302, 307, 308).
pub fn redirect(answer: &Answer) -> bool {
    matches!(answer.status(), Some(301 | 302 | 307 | 308))
}

/// What tells the execution behind an accepted answer from another.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Identity {
    location: Option<String>,
    /// The JSON text at the `--id` pointer, when it found one.
    id: Option<String>,
    /// The body, when there is no id to compare.
    body: Option<Vec<u8>>,
}

/// The identity of an accepted answer; `None` for any other.
pub fn identity(answer: &Answer, pointer: Option<&str>) -> Option<Identity> {
    if !accepted(answer) {
        return None;
    }
    let Answer::Response { location, body, .. } = answer else {
        return None;
    };
    let id = pointer.and_then(|p| id_at(body, p));
    Some(Identity {
        location: location.clone(),
        body: if id.is_some() {
            None
        } else {
            Some(body.clone())
        },
        id,
    })
}

/// The JSON text at `pointer` in `body`, if the body is JSON and the pointer finds a value.
pub fn id_at(body: &[u8], pointer: &str) -> Option<String> {
    let value: serde_json::Value = serde_json::from_slice(body).ok()?;
    value
        .pointer(pointer)
        .filter(|v| !v.is_null())
        .map(|v| v.to_string())
}

/// Distinct executions among answers to one key: the distinct identities of the accepted
/// ones, in the order first seen.
pub fn executions(answers: &[Answer], pointer: Option<&str>) -> Vec<Identity> {
    let mut seen: Vec<Identity> = Vec::new();
    for identity in answers.iter().filter_map(|a| identity(a, pointer)) {
        if !seen.contains(&identity) {
            seen.push(identity);
        }
    }
    seen
}

/// The answers counted by status, for a detail: `201 x1, 409 x7, no answer x2`.
pub fn statuses(answers: &[Answer]) -> String {
    let mut counts: BTreeMap<Option<u16>, usize> = BTreeMap::new();
    for answer in answers {
        *counts.entry(answer.status()).or_default() += 1;
    }
    // Statuses first, then the requests that got none.
    let mut parts: Vec<String> = counts
        .iter()
        .filter_map(|(s, n)| s.map(|s| format!("{s} x{n}")))
        .collect();
    if let Some(n) = counts.get(&None) {
        parts.push(format!("no answer x{n}"));
    }
    parts.join(", ")
}

/// The first words of a body, for a one-line message.
pub fn excerpt(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(body);
    let line: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if line.chars().count() > 80 {
        format!("{}...", line.chars().take(80).collect::<String>())
    } else {
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(status: u16, location: Option<&str>, body: &str) -> Answer {
        Answer::Response {
            status,
            location: location.map(str::to_string),
            body: body.as_bytes().to_vec(),
        }
    }

    #[test]
    fn accepted_answers() {
        assert!(accepted(&answer(200, None, "")));
        assert!(accepted(&answer(201, None, "")));
        assert!(accepted(&answer(303, Some("/orders/1"), "")));
        for status in [301, 302, 307, 400, 409, 422, 500] {
            assert!(!accepted(&answer(status, None, "")), "{status}");
        }
        assert!(!accepted(&Answer::Failed("timed out".into())));
        assert!(redirect(&answer(307, Some("http://elsewhere/"), "")));
        assert!(!redirect(&answer(303, Some("/orders/1"), "")));
    }

    #[test]
    fn bodies_locations_and_ids_tell_executions_apart() {
        let replayed = [
            answer(201, Some("/orders/1"), r#"{"id":1}"#),
            answer(201, Some("/orders/1"), r#"{"id":1}"#),
        ];
        assert_eq!(executions(&replayed, None).len(), 1);
        let twice = [
            answer(201, None, r#"{"id":1}"#),
            answer(201, None, r#"{"id":2}"#),
        ];
        assert_eq!(executions(&twice, None).len(), 2);
        let moved = [
            answer(201, Some("/orders/1"), ""),
            answer(201, Some("/orders/2"), ""),
        ];
        assert_eq!(executions(&moved, None).len(), 2);
        // With --id, a replay that stamps its own time is still one execution...
        let stamped = [
            answer(200, None, r#"{"order":{"id":"o1"},"at":"10:00:00"}"#),
            answer(200, None, r#"{"order":{"id":"o1"},"at":"10:00:01"}"#),
        ];
        assert_eq!(executions(&stamped, Some("/order/id")).len(), 1);
        assert_eq!(executions(&stamped, None).len(), 2);
        // ... and 409s, 5xx and failures are no executions.
        let refused = [
            answer(201, None, "a"),
            answer(409, None, "in flight"),
            answer(500, None, "b"),
            Answer::Failed("timed out".into()),
        ];
        assert_eq!(executions(&refused, None).len(), 1);
    }

    #[test]
    fn ids_and_statuses_for_people() {
        assert_eq!(id_at(br#"{"id":"o_1"}"#, "/id").as_deref(), Some("\"o_1\""));
        assert_eq!(id_at(br#"{"id":null}"#, "/id"), None);
        assert_eq!(id_at(b"not json", "/id"), None);
        let answers = [
            answer(409, None, ""),
            Answer::Failed("x".into()),
            answer(201, None, ""),
            answer(409, None, ""),
        ];
        assert_eq!(statuses(&answers), "201 x1, 409 x2, no answer x1");
        assert_eq!(
            excerpt(b"{\n  \"error\": \"unauthorized\"\n}"),
            r#"{ "error": "unauthorized" }"#
        );
    }
}
