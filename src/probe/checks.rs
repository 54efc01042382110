//! The four checks: send through a [`Transport`], judge with [`judge`], one [`Check`] each.
//!
//! Every key is a fresh UUID (v4), so no run meets the keys of another. The first request of
//! `replay` is also the probe's test of the request itself: no answer, a redirect (never
//! followed) or an answer that is not accepted stops the run before anything is judged.
//!
//! A pass that rests on two accepted answers being alike (a replay) is only as good as the
//! answers' power to tell executions apart: when the first answers to two *different* keys
//! are alike too (`{"ok":true}`), a replay cannot be told from a second execution, and such
//! a pass becomes a warning that names `--id`.

use std::sync::Barrier;

use super::judge::{self, Identity};
use super::{Answer, Check, Finding, Grade, Options, ProbeError, Request, Transport};

/// The checks, in the order they run.
pub const CHECKS: [&str; 4] = ["replay", "concurrent", "payload_mismatch", "missing_key"];

/// Runs the four checks, and tells whether the answers told executions apart (see the module
/// docs); stops with a one-line error when the first request shows that nothing can be judged.
pub fn run(
    request: &Request,
    options: &Options,
    transport: &dyn Transport,
) -> Result<(Vec<Check>, bool), ProbeError> {
    let mut probe = Prober {
        request,
        options,
        transport,
        first_identities: Vec::new(),
    };
    let mut judged = vec![probe.replay()?];
    judged.push(probe.concurrent());
    judged.push(probe.payload_mismatch());
    judged.push(probe.missing_key());

    let blind = has_alike(&probe.first_identities);
    let why_blind = match &options.id_pointer {
        None => "; but the answers to different keys are alike too, so a replay cannot be told \
                 from a second execution: name the created resource's id with --id (or return it, \
                 or a Location)"
            .to_string(),
        Some(p) => format!(
            "; but the answers to different keys carry the same Location and id at {p} too: \
             the endpoint seems to take one payload for one intent whatever the key, or {p} is \
             not the created resource's id, so a replay cannot be told from a second execution"
        ),
    };
    let checks = judged
        .into_iter()
        .map(|(mut check, compared)| {
            if blind && compared {
                check.detail.push_str(&why_blind);
                match check.finding {
                    Finding::PayloadIgnored { .. } => {
                        check.finding = Finding::PayloadIgnored { executed: None }
                    }
                    _ if check.outcome == Grade::Pass => check.outcome = Grade::Warn,
                    _ => {}
                }
            }
            check
        })
        .collect();
    Ok((checks, !blind))
}

/// Whether two different keys' first accepted answers are alike.
fn has_alike(identities: &[Identity]) -> bool {
    identities
        .iter()
        .enumerate()
        .any(|(i, a)| identities[i + 1..].contains(a))
}

struct Prober<'a> {
    request: &'a Request,
    options: &'a Options,
    transport: &'a dyn Transport,
    /// The first accepted answer's identity for each key (and for no key).
    first_identities: Vec<Identity>,
}

/// A check, and whether its outcome rests on two accepted answers being alike.
type Judged = (Check, bool);

impl Prober<'_> {
    fn pointer(&self) -> Option<&str> {
        self.options.id_pointer.as_deref()
    }

    fn send(&mut self, key: Option<&str>, body: &[u8]) -> Answer {
        self.transport.send(key, body)
    }

    fn remember(&mut self, answers: &[Answer]) {
        if let Some(id) = answers
            .iter()
            .find_map(|a| judge::identity(a, self.pointer()))
        {
            self.first_identities.push(id);
        }
    }

    fn replay(&mut self) -> Result<Judged, ProbeError> {
        let key = new_key();
        let body = self.request.body.clone();
        let first = self.send(Some(&key), &body);
        self.stop_unless_accepted(&first)?;
        let second = self.send(Some(&key), &body);
        let answers = [first, second];
        self.remember(&answers[..1]);
        let executions = judge::executions(&answers, self.pointer()).len();
        let (first_status, second_status) = (status(&answers[0]), status(&answers[1]));
        let mut check = check("replay", 2, executions);
        let mut compared = false;
        if executions > 1 {
            check.outcome = Grade::Fail;
            check.finding = Finding::KeyIgnored;
            check.detail = format!(
                "the same request with the same key ran twice: the second answer differs from \
                 the first ({}){}",
                if first_status == second_status {
                    format!("both {first_status}")
                } else {
                    format!("{first_status}, then {second_status}")
                },
                self.judged_by()
            );
        } else if judge::accepted(&answers[1]) {
            compared = true;
            check.detail = format!(
                "the second answer replayed the first ({first_status}, {})",
                self.alike()
            );
        } else {
            check.outcome = Grade::Warn;
            check.detail = match &answers[1] {
                Answer::Failed(why) => {
                    format!("the second request got no answer ({why}), so nothing was judged")
                }
                _ if answers[1].status() == Some(409) => format!(
                    "the retry, sent after the first was answered ({first_status}), got 409: the \
                     key still reads as in flight, so a client that retries never learns the outcome"
                ),
                _ => format!(
                    "the retry got {second_status}, not the replay of the first answer \
                     ({first_status}): no second execution, but a client that retries never \
                     learns the outcome"
                ),
            };
        }
        Ok((check, compared))
    }

    /// The first request must be answered, not redirected, and accepted.
    fn stop_unless_accepted(&self, first: &Answer) -> Result<(), ProbeError> {
        let target = &self.request.target;
        let method = &self.request.method;
        const NOTHING: &str = "1 request tried, nothing judged";
        match first {
            Answer::Failed(why) => {
                let hint = if why.contains("certificate") {
                    " (a test server's own certificate: --insecure, which also lets anyone on \
                     the path read the requests)"
                } else {
                    ""
                };
                Err(ProbeError::Unreachable(format!(
                    "no answer from {target} ({why}){hint}; {NOTHING}"
                )))
            }
            Answer::Response {
                status, location, ..
            } if judge::redirect(first) => Err(ProbeError::Redirected(format!(
                "{method} {target} was answered {status} to {}; dupcost probe follows no redirect \
                 (and never one to another host): probe the final URL if it is yours; {NOTHING}",
                location.as_deref().unwrap_or("(no Location)")
            ))),
            Answer::Response { status, body, .. } if !judge::accepted(first) => {
                Err(ProbeError::Refused(format!(
                    "the first {method} to {target} was answered {status}, not 2xx ({}): give \
                     the request the endpoint accepts (--data, --header); {NOTHING}",
                    some_or(judge::excerpt(body), "an empty body")
                )))
            }
            Answer::Response { .. } => Ok(()),
        }
    }

    fn concurrent(&mut self) -> Judged {
        let (n, rounds) = (self.options.concurrency, self.options.rounds);
        let body = self.request.body.clone();
        let mut all = Vec::with_capacity(n * rounds);
        let (mut executions, mut extra, mut rounds_over, mut rounds_none) = (0, 0, 0, 0);
        let mut replays = 0;
        for _ in 0..rounds {
            let key = new_key();
            let answers = together(self.transport, n, &key, &body);
            let seen = judge::executions(&answers, self.pointer()).len();
            self.remember(&answers);
            executions += seen;
            extra += seen.saturating_sub(1);
            rounds_over += usize::from(seen > 1);
            rounds_none += usize::from(seen == 0);
            if seen == 1 {
                replays += answers.iter().filter(|a| judge::accepted(a)).count() - 1;
            }
            all.extend(answers);
        }
        let requests = all.len();
        let conflicts = all.iter().filter(|a| a.status() == Some(409)).count();
        let other = requests - conflicts - replays - (rounds - rounds_none);
        let mut check = check("concurrent", requests, executions);
        check.extra_executions = extra;
        let answers = judge::statuses(&all);
        let mut compared = false;
        if extra > 0 {
            check.outcome = Grade::Fail;
            check.finding = Finding::Race {
                extra,
                of: requests - rounds,
            };
            check.detail = format!(
                "{rounds_over} of {rounds} rounds of {n} requests with one key released together \
                 executed more than once: {extra} extra executions among the {} that should have \
                 got 409 or the replay (answers: {answers}){}",
                requests - rounds,
                self.judged_by()
            );
        } else if rounds_none == 0 && other == 0 {
            compared = replays > 0;
            check.detail = format!(
                "each of {rounds} rounds of {n} requests with one key released together executed \
                 once; the other {} got 409 ({conflicts}) or the replay ({replays})",
                requests - rounds
            );
        } else {
            check.outcome = Grade::Warn;
            let mut why = Vec::new();
            if other > 0 {
                why.push(format!(
                    "{other} answers were neither the one execution, a 409 nor the replay (a 5xx \
                     or a timeout can hide an execution)"
                ));
            }
            if rounds_none > 0 {
                why.push(format!(
                    "{rounds_none} of {rounds} rounds had no accepted answer at all"
                ));
            }
            check.detail = format!(
                "no round executed twice, but {} (answers: {answers})",
                why.join(", and ")
            );
        }
        (check, compared)
    }

    fn payload_mismatch(&mut self) -> Judged {
        let changed = match &self.request.changed_body {
            Ok(changed) => changed.clone(),
            Err(why) => {
                let mut check = check("payload_mismatch", 0, 0);
                check.outcome = Grade::Warn;
                check.detail = why.clone();
                return (check, false);
            }
        };
        let key = new_key();
        let body = self.request.body.clone();
        let first = self.send(Some(&key), &body);
        if !judge::accepted(&first) {
            let mut check = check("payload_mismatch", 1, 0);
            check.outcome = Grade::Warn;
            check.detail = format!(
                "the first request got {}, so the changed one was not sent",
                status(&first)
            );
            return (check, false);
        }
        let second = self.send(Some(&key), &changed);
        let answers = [first, second];
        self.remember(&answers[..1]);
        let executions = judge::executions(&answers, self.pointer()).len();
        let mut check = check("payload_mismatch", 2, executions);
        check.extra_executions = executions - 1;
        let second_status = status(&answers[1]);
        let mut compared = false;
        match answers[1].status() {
            Some(422) => {
                check.detail = "the key reused with another payload got 422".to_string();
            }
            Some(s) if (400..500).contains(&s) => {
                check.detail = format!(
                    "the key reused with another payload got {s}, not the draft's 422, but was \
                     refused (unless the changed body itself was)"
                );
            }
            _ if executions > 1 => {
                check.outcome = Grade::Fail;
                check.finding = Finding::PayloadIgnored {
                    executed: Some(true),
                };
                check.detail = format!(
                    "the key reused with another payload ran again ({second_status}, a new \
                     execution): the store does not compare payloads{}",
                    self.judged_by()
                );
            }
            _ if judge::accepted(&answers[1]) => {
                compared = true;
                check.outcome = Grade::Fail;
                check.finding = Finding::PayloadIgnored {
                    executed: Some(false),
                };
                check.detail = format!(
                    "the key reused with another payload got the first answer replayed \
                     ({second_status}, {}): the changed request was dropped without a word, \
                     where the draft says 422",
                    self.alike()
                );
            }
            _ => {
                check.outcome = Grade::Warn;
                check.detail = format!(
                    "the key reused with another payload got {second_status}: neither refused \
                     (4xx) nor accepted, so nothing was judged"
                );
            }
        }
        (check, compared)
    }

    fn missing_key(&mut self) -> Judged {
        let body = self.request.body.clone();
        let answer = self.send(None, &body);
        self.remember(std::slice::from_ref(&answer));
        let accepted = judge::accepted(&answer);
        let mut check = check("missing_key", 1, usize::from(accepted));
        let header = self.request.key_header_label.as_str();
        match answer.status() {
            Some(400) => check.detail = format!("a request without {header} got 400"),
            Some(s) if (400..500).contains(&s) => {
                check.detail = format!(
                    "a request without {header} got {s}, not the draft's 400, but was refused"
                );
            }
            _ if accepted => {
                check.outcome = Grade::Warn;
                check.finding = Finding::KeyOptional;
                check.detail = format!(
                    "a request without {header} was accepted ({}): keys are optional here, and a \
                     client that sends none has no protection",
                    status(&answer)
                );
            }
            _ => {
                check.outcome = Grade::Warn;
                check.detail = format!(
                    "a request without {header} got {}: neither refused (4xx) nor accepted",
                    status(&answer)
                );
            }
        }
        (check, false)
    }

    /// How two answers were compared, for a failure's detail.
    fn judged_by(&self) -> String {
        match self.pointer() {
            Some(p) => format!("; compared by Location and the id at {p}"),
            None => "; compared by Location and body (if bodies differ for another reason, a \
                     time or a request id, name the resource's id with --id)"
                .to_string(),
        }
    }

    /// What "alike" meant, for a pass's detail.
    fn alike(&self) -> String {
        match self.pointer() {
            Some(p) => format!("same Location and id at {p}"),
            None => "same Location and body".to_string(),
        }
    }
}

/// `n` requests with one key, each prepared on its own thread (with [`super::Http`], its
/// own agent and connection), then released together by a barrier.
fn together(transport: &dyn Transport, n: usize, key: &str, body: &[u8]) -> Vec<Answer> {
    let barrier = Barrier::new(n);
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..n)
            .map(|_| {
                scope.spawn(|| {
                    let ready = transport.prepare(Some(key), body);
                    barrier.wait();
                    ready()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Answer::Failed("the sending thread panicked".into()))
            })
            .collect()
    })
}

fn check(name: &'static str, requests: usize, executions_seen: usize) -> Check {
    Check {
        name,
        outcome: Grade::Pass,
        detail: String::new(),
        requests,
        executions_seen,
        extra_executions: executions_seen.saturating_sub(1),
        finding: Finding::None,
    }
}

/// An answer's status for a detail, or "no answer (why)".
fn status(answer: &Answer) -> String {
    match answer {
        Answer::Response { status, .. } => status.to_string(),
        Answer::Failed(why) => format!("no answer: {why}"),
    }
}

fn some_or(text: String, empty: &str) -> String {
    if text.is_empty() {
        empty.to_string()
    } else {
        text
    }
}

fn new_key() -> String {
    uuid::Uuid::new_v4().to_string()
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;
    use std::sync::Mutex;
    use std::time::Duration;

    use proptest::prelude::*;

    use super::*;
    use crate::probe::{Plan, Probe};

    /// An in-memory endpoint: `decide(key, body, executions so far for the key, call number)`
    /// says what to do with each request.
    struct Fake<F> {
        decide: F,
        state: Mutex<FakeState>,
    }

    #[derive(Default)]
    struct FakeState {
        calls: usize,
        executions: HashMap<Option<String>, usize>,
        first: HashMap<String, Answer>,
    }

    enum Act {
        Execute,
        /// Execute, answering what every execution answers.
        ExecuteAlike,
        Replay,
        Status(u16),
        Fail,
    }

    impl<F: Fn(Option<&str>, &[u8], usize, usize) -> Act + Sync> Transport for Fake<F> {
        fn send(&self, key: Option<&str>, body: &[u8]) -> Answer {
            let mut state = self.state.lock().unwrap();
            state.calls += 1;
            let done = key.map_or(0, |k| {
                state
                    .executions
                    .get(&Some(k.to_string()))
                    .copied()
                    .unwrap_or(0)
            });
            match (self.decide)(key, body, done, state.calls) {
                act @ (Act::Execute | Act::ExecuteAlike) => {
                    let n = state.executions.values().sum::<usize>() + 1;
                    *state.executions.entry(key.map(String::from)).or_default() += 1;
                    let body = match act {
                        Act::Execute => format!("{{\"id\":{n}}}"),
                        _ => "{\"ok\":true}".to_string(),
                    };
                    let answer = Answer::Response {
                        status: 201,
                        location: None,
                        body: body.into_bytes(),
                    };
                    if let Some(k) = key {
                        state.first.entry(k.to_string()).or_insert(answer.clone());
                    }
                    answer
                }
                Act::Replay => state.first[key.unwrap()].clone(),
                Act::Status(status) => Answer::Response {
                    status,
                    location: None,
                    body: b"{\"ok\":true}".to_vec(),
                },
                Act::Fail => Answer::Failed("timed out".into()),
            }
        }
    }

    impl<F> Fake<F> {
        fn new(decide: F) -> Self {
            Fake {
                decide,
                state: Mutex::default(),
            }
        }
        fn extra(&self) -> usize {
            let state = self.state.lock().unwrap();
            state
                .executions
                .iter()
                .filter(|(k, _)| k.is_some())
                .map(|(_, n)| n - 1)
                .sum()
        }
    }

    fn request(body: &str) -> Request {
        Request {
            method: ureq::http::Method::POST,
            target: "http://127.0.0.1:1/orders".parse().unwrap(),
            headers: Vec::new(),
            body: body.as_bytes().to_vec(),
            changed_body: crate::probe::changed_body(body.as_bytes(), "changed"),
            key_header: crate::probe::parse_header_name("Idempotency-Key").unwrap(),
            key_header_label: "Idempotency-Key".into(),
        }
    }

    fn options() -> Options {
        Options {
            concurrency: 3,
            rounds: 2,
            timeout: Duration::from_secs(1),
            id_pointer: None,
            insecure: false,
        }
    }

    fn outcomes(checks: &[Check]) -> Vec<(&str, Grade)> {
        checks.iter().map(|c| (c.name, c.outcome)).collect()
    }

    /// The draft's store, sequentially: execute once, replay, 422 for another body.
    fn correct(key: Option<&str>, body: &[u8], done: usize, _: usize) -> Act {
        match key {
            None => Act::Status(400),
            Some(_) if done == 0 => Act::Execute,
            Some(_) if body.windows(7).any(|w| w == b"changed") => Act::Status(422),
            Some(_) => Act::Replay,
        }
    }

    #[test]
    fn a_correct_store_passes() {
        let fake = Fake::new(correct);
        let (checks, told_apart) = run(&request("{}"), &options(), &fake).unwrap();
        assert!(told_apart);
        assert!(
            checks.iter().all(|c| c.outcome == Grade::Pass),
            "{checks:#?}"
        );
        assert_eq!(
            fake.state.lock().unwrap().calls,
            Plan::new(&options(), &request("{}")).total()
        );
    }

    #[test]
    fn answers_alike_for_every_key_turn_a_pass_into_a_warning() {
        // Every execution answers {"ok":true}: a replay and a second execution look the same.
        let fake = Fake::new(|key: Option<&str>, body: &[u8], done, _| {
            match correct(key, body, done, 0) {
                Act::Execute => Act::ExecuteAlike,
                other => other,
            }
        });
        let (checks, told_apart) = run(&request("{}"), &options(), &fake).unwrap();
        assert!(!told_apart);
        assert_eq!(
            outcomes(&checks),
            [
                ("replay", Grade::Warn),
                ("concurrent", Grade::Warn),
                ("payload_mismatch", Grade::Pass),
                ("missing_key", Grade::Pass),
            ]
        );
        assert!(checks[0].detail.contains("--id"));
        let probe = Probe::new(&request("{}"), (checks, told_apart));
        assert_eq!(probe.verdict, Grade::Warn);
    }

    #[test]
    fn the_first_answer_decides_whether_anything_can_be_judged() {
        let refused = Fake::new(|_: Option<&str>, _: &[u8], _, _| Act::Status(401));
        let e = run(&request("{}"), &options(), &refused).unwrap_err();
        assert!(
            matches!(&e, ProbeError::Refused(m) if m.contains("401") && m.contains("--header")),
            "{e}"
        );
        assert_eq!(refused.state.lock().unwrap().calls, 1);
        let failed = Fake::new(|_: Option<&str>, _: &[u8], _, _| Act::Fail);
        let e = run(&request("{}"), &options(), &failed).unwrap_err();
        assert!(
            matches!(&e, ProbeError::Unreachable(m) if m.contains("timed out")),
            "{e}"
        );
        let redirected = Fake::new(|_: Option<&str>, _: &[u8], _, _| Act::Status(308));
        let e = run(&request("{}"), &options(), &redirected).unwrap_err();
        assert!(matches!(e, ProbeError::Redirected(_)));
    }

    #[test]
    fn errors_in_a_round_are_a_warning_not_a_pass() {
        // The round's first request executes; the others time out or get 500.
        let fake = Fake::new(|key: Option<&str>, body: &[u8], done, call| {
            match correct(key, body, done, 0) {
                Act::Replay if (3..=8).contains(&call) => {
                    if call % 2 == 0 {
                        Act::Fail
                    } else {
                        Act::Status(500)
                    }
                }
                other => other,
            }
        });
        let (checks, _) = run(&request("{}"), &options(), &fake).unwrap();
        assert_eq!(checks[1].outcome, Grade::Warn, "{:#?}", checks[1]);
        assert!(
            checks[1].detail.contains("can hide an execution"),
            "{}",
            checks[1].detail
        );
    }

    #[test]
    fn a_body_that_cannot_be_changed_skips_payload_mismatch() {
        let fake = Fake::new(correct);
        let (checks, _) = run(&request("[1, 2]"), &options(), &fake).unwrap();
        assert_eq!(checks[2].outcome, Grade::Warn);
        assert_eq!(checks[2].requests, 0);
        assert!(checks[2].detail.contains("--changed-data"));
    }

    #[test]
    fn a_retry_refused_after_the_answer_is_a_warning() {
        let fake = Fake::new(|key: Option<&str>, body: &[u8], done, call| {
            match correct(key, body, done, 0) {
                Act::Replay if call == 2 => Act::Status(409),
                other => other,
            }
        });
        let (checks, _) = run(&request("{}"), &options(), &fake).unwrap();
        assert_eq!(checks[0].outcome, Grade::Warn);
        assert!(
            checks[0].detail.contains("in flight"),
            "{}",
            checks[0].detail
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        /// Whatever an endpoint does (execute, replay, refuse), as long as each execution's
        /// answer names it, `duplicates_seen` is its own count of extra executions per key.
        #[test]
        fn duplicates_seen_is_the_endpoints_own_count(
            acts in proptest::collection::vec(0u8..4, 64),
            concurrency in 2usize..5,
            rounds in 1usize..4,
        ) {
            let fake = Fake::new(move |key: Option<&str>, body: &[u8], done, call| {
                if call == 1 {
                    return Act::Execute;
                }
                match acts[call % acts.len()] {
                    0 => Act::Execute,
                    1 if done > 0 && key.is_some() => Act::Replay,
                    2 => Act::Status(409),
                    _ => correct(key, body, done, call),
                }
            });
            let options = Options { concurrency, rounds, ..options() };
            let (checks, told_apart) = run(&request("{}"), &options, &fake).unwrap();
            prop_assert!(told_apart);
            let probe = Probe::new(&request("{}"), (checks, told_apart));
            prop_assert_eq!(probe.duplicates_seen, fake.extra());
            prop_assert_eq!(probe.requests, fake.state.lock().unwrap().calls);
            prop_assert_eq!(probe.verdict == Grade::Fail, probe.checks.iter().any(|c| c.outcome == Grade::Fail));
        }
    }
}
