//! Route templates as SQL: the rules of `src/logs/row/route.rs` (its bytewise reference, not
//! its SSE2 fast path) as regular expressions every engine's regex library reads alike (RE2,
//! Java, Joni: no lookaround, no backslash classes).

use super::dialect::Engine;

/// The path part of the request target `raw`: a full URL (`https://host/a?b`) loses its
/// scheme and host (`/` when it has no path), then the query and fragment go.
///
/// As `path_only`: a target that starts with `/` is already a path; otherwise the first
/// `://` ends the scheme, and the host runs to the next `/`.
pub fn path_only(e: Engine, raw: &str) -> String {
    let url = "^([^/].*?)?://";
    let after = e.replace_all(raw, url, "");
    let path = format!(
        "CASE WHEN {is_url} THEN CASE WHEN {has_slash} THEN {from_slash} ELSE '/' END ELSE {raw} END",
        is_url = e.matches(raw, url),
        has_slash = e.matches(&after, "/"),
        from_slash = e.replace_all(&after, "^[^/]*", ""),
    );
    e.extract(&path, "^[^?#]*")
}

/// Whether the path segment `s` is an identifier (`is_id`): every kind has a digit; then a
/// number, hex of 8 or more, a UUID, or a base62 token of 16 or more with a letter, after an
/// optional alphabetic `prefix_` of at most 8.
pub fn is_id(e: Engine, s: &str) -> String {
    let hex = "[0-9a-fA-F]";
    let uuid = format!("^{hex}{{8}}-{hex}{{4}}-{hex}{{4}}-{hex}{{4}}-{hex}{{12}}$");
    let hex_only = e.matches(s, &format!("^{hex}+$"));
    let long = format!("{} >= 8", e.length(s));
    let token_len = format!(
        "{} >= 16",
        e.length(&e.replace_all(s, "^[A-Za-z]{0,8}_", ""))
    );
    format!(
        "({digit} AND (({hex_only} AND ({long} OR {number})) OR {uuid} OR ({base62} AND {token_len})))",
        digit = e.matches(s, "[0-9]"),
        number = e.matches(s, "^[0-9]+$"),
        uuid = e.matches(s, &uuid),
        base62 = e.matches(s, "^([A-Za-z]{0,8}_)?[A-Za-z0-9]*[A-Za-z][A-Za-z0-9]*$"),
    )
}

/// The route template of the path `path` (from [`path_only`]): `/v1/orders/{id}`; `/` when
/// it has no segment.
pub fn template(e: Engine, path: &str) -> String {
    let joined = e.map_segments(path, |s| {
        format!("CASE WHEN {} THEN '{{id}}' ELSE {s} END", is_id(e, s))
    });
    format!("concat('/', {joined})")
}
