//! Every phrase of the reports and every number format: the one place a finding is worded.
//!
//! The findings are data ([`crate::findings::evidence`]); this module says them: the
//! `Display` of each evidence, warning, note and refusal (and, where the JSON contract holds
//! a sentence, its `Serialize` as that text), the labels of the estimate's figures shared by
//! the table, the markdown and the explorer, and the number formats they all use.

use std::fmt::{self, Display, Formatter};

use serde::{Serialize, Serializer};

use crate::findings::MIN_EVIDENCE;
use crate::findings::evidence::{
    DuplicatesNote, Evidence, FewerOutcomes, FingerprintFacts, Gap, GivenBy, Grouped, IntentsHow,
    NoUpstream, Picked, Refusal, RequestsLog, RetriesEvidence, RetriesLog, ScenarioShare,
    ShareEvidence, ShareLog, Shortfall, TimeoutEvidence, TimeoutLog, Warning,
};
use crate::findings::{MAX_RETRIES, RetriesObserved};
use crate::inputs::Input;
use crate::logs::{
    FileInfo, FlagsStyle, FormatNote, FormatRead, Lacking, LogError, PROXY_GIVE_UPS, Role,
    TraceRead, extra_fields,
};
use crate::model::{Estimate, Store};
use crate::units::{Duration, Rate, Seconds};

use super::{PresetTrace, Style, human};

// ---------------------------------------------------------------- number formats

/// `34,094`.
pub fn count(n: u64) -> String {
    super::human::group_thousands(&n.to_string())
}

/// A rate a day: whole with separators from 100 up, else 3 significant figures (so 0.0043
/// is not shown as 0).
pub fn count_f(v: f64) -> String {
    if v >= 100.0 {
        count(v.round() as u64)
    } else if v > 0.0 {
        crate::units::significant(v, 3)
    } else {
        "0".to_string()
    }
}

/// `1 intent`, `2 intents`.
pub fn plural(n: u64, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{} {word}s", count(n))
    }
}

/// `1 attempt timed out`, `3 attempts timed out`; `timed out` alone keeps its count.
pub fn plural_verb(n: u64, phrase: &str) -> String {
    match phrase.split_once(' ') {
        Some((noun, rest)) if noun != "timed" => format!("{} {rest}", plural(n, noun)),
        _ => format!("{} {phrase}", count(n)),
    }
}

/// A share to 3 significant figures: `47.9%`.
pub fn pct3(v: f64) -> String {
    format!("{}%", crate::units::significant(v * 100.0, 3))
}

/// A share as the reports round it: `1.94%`.
pub fn rate(v: f64) -> String {
    Rate(v).rounded()
}

/// Seconds for reading: `800ms`, `1m 14s`, `3h 12m` (whole minutes from an hour up, whole
/// seconds from a second up).
pub fn duration_text(seconds: f64) -> String {
    let millis = if seconds >= 3600.0 {
        (seconds / 60.0).round() as u64 * 60_000
    } else if seconds >= 1.0 {
        seconds.round() as u64 * 1000
    } else {
        (seconds * 1000.0).round() as u64
    };
    humantime::format_duration(std::time::Duration::from_millis(millis)).to_string()
}

/// `1m 5s`: whole seconds.
pub fn seconds_text(seconds: f64) -> String {
    humantime::format_duration(std::time::Duration::from_secs(
        seconds.max(0.0).round() as u64
    ))
    .to_string()
}

// ---------------------------------------------------------------- the estimate's labels

/// The labels of the estimate's figures, as the table, the markdown and the explorer name
/// them: one name for one figure everywhere.
pub mod label {
    /// Customers left without an answer whose request was executed (charged) all the same.
    pub const CHARGED: &str = "charged anyway";
    /// [`CHARGED`] under the figure it is part of.
    pub const CHARGED_ANYWAY: &str = "of whom charged anyway";
    /// The retry schedule's horizon.
    pub const RETRY_HORIZON: &str = "retry horizon (worst case)";
    /// [`RETRY_HORIZON`] when it is longer than the key TTL: the explorer's warning on the
    /// row (the table and markdown say it in their verdict).
    pub const HORIZON_PAST_TTL: &str = "retry horizon > TTL";
}

// ---------------------------------------------------------------- evidence

impl Display for Evidence {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Evidence::RequestsPerDay(p) => picked(
                f,
                p,
                |v| format!("requests a day {}", count_f(v)),
                requests_log,
            ),
            Evidence::RequestsShortSpan {
                log,
                span,
                scenario,
                ..
            } if *span == 0.0 => write!(
                f,
                "requests a day {}: assumed: the log's timestamps span no time (first = last), so no pace scales its {} to a day; using {}{} (--requests-per-day, or a log that spans time, settles it)",
                count_f(log.value.max(scenario.base)),
                plural(log.intents, "intent"),
                scenario.origin.value(&count_f(scenario.base)),
                if log.value > scenario.base {
                    format!(
                        ", raised to the {} the log proves in a day",
                        count_f(log.value)
                    )
                } else {
                    format!(", at least the {} the log proves", count_f(log.value))
                }
            ),
            Evidence::RequestsNoTimestamps {
                intents,
                missing,
                scenario,
            } => write!(
                f,
                "requests a day {}: assumed: {missing}, so nothing says over what time its {} came, a minute or a year; using {} (--requests-per-day, or --column timestamp=HEADER, settles it)",
                count_f(scenario.base),
                plural(*intents, "intent"),
                scenario.origin.value(&count_f(scenario.base)),
            ),
            Evidence::RequestsShortSpan {
                log,
                span,
                min,
                scenario,
            } => {
                let [low, high] = log.short_span_bounds(*span);
                let used = scenario.base.clamp(low, high);
                write!(
                    f,
                    "requests a day {}: assumed: the log's timestamps span only {}, less than --min-span {}, too short to stand for a day ({} at that pace); the log allows {}; using {}{} (--requests-per-day, or a longer log, settles it)",
                    count_f(used),
                    duration_text(*span),
                    duration_text(*min),
                    requests_log(&RequestsLog {
                        days: span / 86_400.0,
                        ..log.clone()
                    })
                    .replacen(
                        &format!(" / {} days", count_f(span / 86_400.0)),
                        &format!(" / {}", duration_text(*span)),
                        1
                    ),
                    bounds_of(crate::inputs::Input::RequestsPerDay, low, high),
                    scenario.origin.value(&count_f(scenario.base)),
                    if used == scenario.base {
                        ", within them".to_string()
                    } else {
                        format!(", moved to the nearest bound, {}", count_f(used))
                    }
                )
            }
            Evidence::TimeoutRate(TimeoutEvidence::Picked(p)) => {
                picked(f, p, |v| format!("timeout rate {}", rate(v)), timeout_log)?;
                thin_text(f, self)
            }
            Evidence::TimeoutRate(TimeoutEvidence::TooFew { base, origin, log })
                if log.mutating == 0 =>
            {
                write!(
                    f,
                    "timeout rate: not measured: no mutating attempts in the log; using {}, assumed (the log allows 0% to 100%)",
                    origin.value(&rate(*base)),
                )
            }
            Evidence::TimeoutRate(TimeoutEvidence::TooFew { base, origin, log }) => write!(
                f,
                "timeout rate: measured {} from {}: too few (needs {MIN_EVIDENCE}); using {} (the log: {})",
                rate(log.value),
                plural(log.mutating, "mutating attempt"),
                origin.value(&rate(*base)),
                timeout_log(log)
            ),
            Evidence::SucceededShare(s, by) => share(f, s, by),
            Evidence::Retries { how, proxy, layers } => {
                retries(f, how)?;
                if let Some(p) = proxy {
                    write!(
                        f,
                        "; beside the client's, the proxy retried {} of {} mutating attempts itself ({} in all, at most {} for one attempt): another layer's retries, measured: {:.3} tries at the backend a client attempt (at most {})",
                        count(p.retried),
                        count(p.attempts),
                        count(p.retries),
                        p.max,
                        p.attempts_per_attempt,
                        p.attempts_max
                    )?;
                }
                if let Some(l) = layers {
                    write!(f, "; {}", proxy_layer(l))?;
                }
                Ok(())
            }
            Evidence::BodyBytes {
                by,
                given,
                mean,
                rows,
            } => {
                let size = super::human::size;
                match given {
                    Some(b) => write!(
                        f,
                        "saved body {} from {by} (measured: mean of {} 2xx mutating responses, {})",
                        size(*b as f64),
                        count(*rows),
                        size(*mean)
                    ),
                    None => write!(
                        f,
                        "saved body {} = mean response size of {} 2xx mutating requests",
                        size(*mean),
                        count(*rows)
                    ),
                }
            }
        }
    }
}

impl Serialize for Evidence {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// A figure measured or given: `X from --flag (measured: ...)`, `X from --flag (why)`.
fn picked<T>(
    f: &mut Formatter<'_>,
    p: &Picked<T>,
    plain: impl Fn(f64) -> String,
    measured: impl Fn(&T) -> String,
) -> fmt::Result {
    match p {
        Picked::Measured(log) => f.write_str(&measured(log)),
        Picked::Given {
            value,
            flag,
            log: Ok(log),
        } => write!(
            f,
            "{} from {flag} (measured: {})",
            plain(*value),
            measured(log)
        ),
        Picked::Given {
            value,
            flag,
            log: Err(why),
        } => write!(f, "{} from {flag} ({why})", plain(*value)),
    }
}

fn requests_log(l: &RequestsLog) -> String {
    let intents = plural(l.intents, "intent");
    let how = match l.how {
        IntentsHow::Fingerprint(fp) => format!("{intents} ({fp})"),
        IntentsHow::NoKeys => {
            format!("{intents} (no idempotency keys: each mutating attempt is an intent)")
        }
        IntentsHow::PerAttempt => format!(
            "{intents} (the key column looks per-attempt: each mutating attempt is an intent)"
        ),
        IntentsHow::Keyed => format!("{intents} (grouped by idempotency key)"),
        IntentsHow::Traced => format!(
            "{intents} (the attempts under one parent span, or with one captured Idempotency-Key)"
        ),
        IntentsHow::Mixed { keyed, unkeyed } => format!(
            "{intents} ({} keyed + {} without a key)",
            count(keyed),
            plural(unkeyed, "attempt")
        ),
    };
    let sampled = l.sampled.map_or(String::new(), |k| {
        format!(
            " x {} (head sampling kept 1 trace in {}: the spans' tracestate ot=th or --sample-rate)",
            count_f(k),
            count_f(k)
        )
    });
    format!(
        "requests a day {} = {how}{sampled} / {} days",
        count_f(l.value),
        count_f(l.days)
    )
}

impl Display for FingerprintFacts {
    /// `grouped by fingerprint (client, UA, method, path+query): joined 1,204 attempts into
    /// 1,100 intents`, with the attempts that had no client address.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let length = if self.request_length {
            ", request length"
        } else {
            ""
        };
        write!(
            f,
            "grouped by fingerprint (client, UA, method, path+query{length}): joined {} into {}",
            plural(self.attempts, "attempt"),
            plural(self.intents, "intent")
        )?;
        if self.unkeyed > 0 {
            write!(
                f,
                "; {} without a client address, each an intent",
                plural(self.unkeyed, "attempt")
            )?;
        }
        Ok(())
    }
}

fn timeout_log(l: &TimeoutLog) -> String {
    // Traces: 0 is a CLIENT span's own "no answer", not a status to list.
    let statuses: Vec<String> = l
        .statuses
        .iter()
        .filter(|&&s| !(l.traced && s == 0))
        .map(u16::to_string)
        .collect();
    let mut also = String::new();
    if let Some(style) = l.flags {
        also.push_str(&flags_give_up(style, &statuses));
    }
    if let Some(secs) = l.client_timeout {
        also.push_str(&format!(" or took {secs}s or more"));
        if let Some((field, unit)) = &l.assumed_unit {
            also.push_str(&format!(", {field} read in {unit}, assumed"));
        } else if let Some((field, i)) = &l.inferred_unit {
            also.push_str(&format!(
                ", {field} read in {}, inferred from its values",
                i.unit.name()
            ));
        }
    }
    let how = if l.traced {
        format!(
            "a CLIENT span with no status whose error.type or exception names a timeout{also}, or status {}",
            statuses.join(", ")
        )
    } else {
        format!("status {}{also}", statuses.join(", "))
    };
    format!(
        "timeout rate {} = {} ({how}) / {}",
        rate(l.value),
        plural_verb(l.timed_out, "timed out"),
        plural(l.mutating, "mutating attempt")
    )
}

/// What a proxy's flags column counts as a give-up, as the evidence says it: its field and
/// its codes (`FlagsStyle::give_ups`), less those already among the give-up `statuses`.
pub fn flags_give_up(style: FlagsStyle, statuses: &[String]) -> String {
    let field = match style {
        FlagsStyle::Envoy => "flags",
        FlagsStyle::Haproxy => "termination state",
        FlagsStyle::Cloudfront => "result type",
        FlagsStyle::Iis => "sc-win32-status",
        FlagsStyle::Cloudflare => "edge status",
        FlagsStyle::GoogleCloud => "statusDetails",
    };
    let codes: Vec<&str> = style
        .give_ups()
        .codes
        .iter()
        .copied()
        .filter(|c| !statuses.iter().any(|s| s == c))
        .collect();
    format!(" or {field} {}", codes.join(", "))
}

impl Display for Shortfall {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Shortfall::NoMutating { methods } => {
                write!(f, "no mutating ({methods}) requests in the log")
            }
            Shortfall::NoTimestamp {
                file: Some((name, headers)),
            } => write!(
                f,
                "{name} has no timestamp column (looked for {}; headers found: {}; map one with --column timestamp=HEADER)",
                Role::Timestamp.aliases().join(", "),
                headers.join(", ")
            ),
            Shortfall::NoTimestamp { file: None } => f.write_str("the log has no timestamp column"),
            Shortfall::ZeroSpan => f.write_str("the log's timestamps span no time (first = last)"),
            Shortfall::TooShort { span, min } => write!(
                f,
                "the log's timestamps span only {}, less than --min-span {}: too short to scale to a day",
                duration_text(*span),
                duration_text(*min)
            ),
            Shortfall::NoUpstream(n) => n.fmt(f),
        }
    }
}

impl Display for NoUpstream {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        // The hint fits the file's kind: a CSV header, or a line format's variable.
        let column = if self.raw {
            "name its field with --column upstream_status=NAME (extra_N for a field after a detected layout) or give the server's format with --log-format"
        } else {
            "map one with --column upstream_status=HEADER"
        };
        write!(
            f,
            "{} has no upstream status column ({column}, join the backend's own log with --outcomes FILE, or give --log-side server if the server that does the work wrote it)",
            self.file
                .as_ref()
                .map_or("the log".to_string(), ToString::to_string)
        )?;
        if self.unread {
            f.write_str("; its lines have fields after the detected layout that are not read: give the server's own format with --log-format to read them")?;
        }
        Ok(())
    }
}

fn share(f: &mut Formatter<'_>, s: &ShareEvidence, by: &str) -> fmt::Result {
    // The share --succeeded-share (or its variable, `by`) gave, with what the log says beside it.
    let given_with = |f: &mut Formatter<'_>, value: f64, note: &dyn Display| {
        write!(f, "succeeded share {} from {by} ({note})", rate(value))
    };
    match s {
        ShareEvidence::NoTimeouts {
            given,
            no_mutating,
            scenario,
            no_effect,
        } => {
            let why = if *no_mutating {
                "no mutating requests"
            } else {
                "no timed-out mutating attempts"
            };
            // It changes no figure only where the timeout rate used is 0.
            let effect = if *no_effect {
                "so it cannot change the result (the timeout rate used is 0; only the 95% intervals' upper ends use it)"
            } else {
                "yet the timeout rate used is not 0, so it changes every figure"
            };
            match given {
                Some(v) => given_with(f, *v, &format_args!("{why} in the log to measure it")),
                None => write!(
                    f,
                    "succeeded share not measured: {why} in the log to tell it, {effect}; using {}, assumed (the log allows 0% to 100%)",
                    scenario.origin.value(&rate(scenario.base))
                ),
            }
        }
        ShareEvidence::NoUpstream {
            given: Some(v),
            why,
            ..
        } => given_with(f, *v, why),
        ShareEvidence::NoUpstream {
            why,
            too_few: None,
            assumed,
            timed_out,
            ..
        } => {
            let using = assumed.map_or(String::new(), |s| s.origin.value(&rate(s.base)));
            write!(
                f,
                "succeeded share: not measured from {}: {why}; using {using}, assumed (the log allows 0% to 100%)",
                plural(*timed_out, "timed-out attempt"),
            )
        }
        ShareEvidence::NoUpstream {
            why,
            too_few,
            timed_out,
            ..
        } => {
            let using = too_few.map_or(String::new(), |s| s.origin.value(&rate(s.base)));
            write!(
                f,
                "succeeded share: not measured from {}: too few (needs {MIN_EVIDENCE}), and {why}; using {using}",
                plural(*timed_out, "timed-out attempt"),
            )
        }
        ShareEvidence::Bounded {
            scenario,
            point,
            log,
        } => write!(
            f,
            "succeeded share: not measured: {} of {} timed-out attempts ({}) have no known outcome, more than --max-unknown allows for a measure; they lie between {} (95%: {}); using {}, assumed",
            count(log.unknown),
            count(log.timed_out),
            pct3(log.unknown as f64 / log.timed_out as f64),
            bounds_text(log),
            {
                let [lo, hi] = log.interval();
                format!("{} to {}", pct3(lo), pct3(hi))
            },
            point_text(scenario, *point),
        ),
        ShareEvidence::TooManyUnknown { given, log } => given_with(
            f,
            *given,
            &format_args!(
                "measured: between {}: {} with an unknown outcome of {} timed out",
                bounds_text(log),
                count(log.unknown),
                count(log.timed_out)
            ),
        ),
        ShareEvidence::Measured {
            given: Some(g),
            value,
            log,
        } => given_with(f, *g, &format_args!("measured: {}", share_log(log, *value))),
        ShareEvidence::Measured {
            given: None,
            value,
            log,
        } => {
            f.write_str(&share_log(log, *value))?;
            let known = log.timed_out - log.unknown;
            if known >= MIN_EVIDENCE {
                return Ok(());
            }
            let thin = crate::findings::kinds::Thin {
                count: log.succeeded,
                of: known,
            };
            write!(f, "; {}", thin_mark(&thin))
        }
    }
}

/// A thin measure's mark: `thin: 10 of 26 (under 30), its 95% interval carried to the
/// duplicates and refunds`.
pub fn thin_mark(t: &crate::findings::kinds::Thin) -> String {
    format!(
        "thin: {} of {} (under {MIN_EVIDENCE}), its 95% interval carried to the duplicates and refunds",
        count(t.count),
        count(t.of)
    )
}

/// `; thin: ...` after an evidence that is thin.
fn thin_text(f: &mut Formatter<'_>, e: &Evidence) -> fmt::Result {
    match e.thin() {
        Some(t) => write!(f, "; {}", thin_mark(&t)),
        None => Ok(()),
    }
}

/// The share used where the log does not measure it: the scenario's (`the default 50%`), or
/// the nearest the log's bounds allow to it.
fn point_text(scenario: &ScenarioShare, point: f64) -> String {
    let theirs = scenario.origin.value(&rate(scenario.base));
    if point == scenario.base {
        theirs
    } else {
        format!(
            "{}, the nearest the log's bounds allow to {theirs}",
            rate(point)
        )
    }
}

/// `47.9% to 52.1%`: the share if every unknown failed, and if every unknown succeeded.
fn bounds_text(log: &ShareLog) -> String {
    let [low, high] = log.bounds();
    format!("{} to {}", pct3(low), pct3(high))
}

/// `succeeded share 48% = 330 answered 2xx by the backend / 688 timed out (...)`.
fn share_log(log: &ShareLog, v: f64) -> String {
    let (succ, unknown, all) = (log.succeeded, log.unknown, log.timed_out);
    let known = all - unknown;
    let unknown_text = if unknown > 0 {
        format!(
            "; {} of {} unknown and left out: counted as all failed or all succeeded, {}",
            count(unknown),
            count(all),
            bounds_text(log)
        )
    } else {
        String::new()
    };
    match &log.join {
        Some(j) if j.outside_span == 0 && j.without_id == 0 => format!(
            "succeeded share {} = {} answered 2xx by the backend / {} timed out ({} never reached it, {} outside the backend log's span{unknown_text})",
            rate(v),
            count(succ),
            count(known),
            count(j.never_reached),
            count(j.outside_span),
        ),
        Some(j) => format!(
            "succeeded share {} = {} succeeded / {} timed out with a known outcome ({} answered 2xx by the backend, {} never reached it; {} outside the backend log's span and {} without a request id as the proxy logged them{unknown_text})",
            rate(v),
            count(succ),
            count(known),
            count(j.matched_succeeded),
            count(j.never_reached),
            count(j.outside_span),
            count(j.without_id),
        ),
        None if log.server && unknown == 0 => format!(
            "succeeded share {} = {} answered 2xx by the server itself after the client gave up / {} timed out (the server's own log: its status is the outcome)",
            rate(v),
            count(succ),
            count(all)
        ),
        None if log.traced && unknown == 0 => format!(
            "succeeded share {} = {} whose SERVER span answered 2xx / {} timed out (the traces see both ends)",
            rate(v),
            count(succ),
            count(all)
        ),
        None if log.traced => format!(
            "succeeded share {} = {} whose SERVER span answered 2xx / {} timed out with a known outcome ({} of {} unknown: no SERVER span from a server that is not traced, counted as all failed or all succeeded, {})",
            rate(v),
            count(succ),
            count(known),
            count(unknown),
            count(all),
            bounds_text(log),
        ),
        None if unknown == 0 => format!(
            "succeeded share {} = {} with upstream 2xx / {} timed out",
            rate(v),
            count(succ),
            count(all)
        ),
        None => format!(
            "succeeded share {} = {} with upstream 2xx / {} timed out with a known outcome ({} of {} unknown, upstream -, 0 or the proxy's own {}: counted as all failed or all succeeded, {})",
            rate(v),
            count(succ),
            count(known),
            count(unknown),
            count(all),
            PROXY_GIVE_UPS.map(|s| s.to_string()).join(", "),
            bounds_text(log),
        ),
    }
}

fn retries(f: &mut Formatter<'_>, how: &RetriesEvidence) -> fmt::Result {
    match how {
        RetriesEvidence::Given { value, by, log } => {
            let by = match by {
                GivenBy::Flag(flag) => flag.to_string(),
                GivenBy::Preset(name) => format!("--preset {name}"),
                GivenBy::PresetEnv(name) => format!("{}={name}", crate::inputs::PRESET_ENV),
            };
            write!(f, "retries {value} from {by}")?;
            if let Some(log) = log {
                write!(f, " (measured: {log})")?;
            }
            Ok(())
        }
        RetriesEvidence::TooFew {
            measured,
            timed_out_intents,
            base,
            origin,
            log,
        } => write!(
            f,
            "retries {}: assumed: at least {} seen from {}, a floor (under {MIN_EVIDENCE}, few timeouts rarely show a client's last retry); using {}{} (the log: {log})",
            (*base).max(*measured),
            if *measured == 1 {
                "1 retry".to_string()
            } else {
                format!("{measured} retries")
            },
            plural(
                *timed_out_intents,
                &format!("timed-out {}", grouped_intent(log.by))
            ),
            origin.value(&base.to_string()),
            if base >= measured {
                ", within it"
            } else {
                ", raised to the floor"
            },
        ),
        RetriesEvidence::Measured {
            value,
            log,
            fingerprint,
        } => {
            write!(f, "retries {value} = {log}")?;
            if let Some(fp) = fingerprint {
                write!(f, "; {fp}")?;
            }
            Ok(())
        }
        RetriesEvidence::NotKnown { base, per_attempt } => write!(
            f,
            "retries {base} from the scenario (--retries): {}, so attempts per intent are not known",
            if *per_attempt {
                "the key column looks per-attempt"
            } else {
                "no idempotency keys in the log"
            }
        ),
    }
}

fn grouped_intent(by: Grouped) -> &'static str {
    match by {
        Grouped::Key => "keyed intent",
        Grouped::Fingerprint => "fingerprinted intent",
    }
}

impl Display for RetriesLog {
    /// `most attempts for one intent - 1 (mean 0.412 retries over 1,100 keyed intents)`.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let RetriesObserved { mean, max } = self.observed;
        let clamp = if max > MAX_RETRIES {
            format!(", clamped to {MAX_RETRIES}")
        } else {
            String::new()
        };
        write!(
            f,
            "most attempts for one intent - 1 (mean {mean:.3} retries over {}{clamp})",
            plural(self.intents, grouped_intent(self.by))
        )
    }
}

// ---------------------------------------------------------------- warnings and notes

impl Display for Warning {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Warning::DurationUnitAssumed { file, field, unit } => write!(
                f,
                "{file}: its duration field {field} says no unit (neither its name nor a format's documentation): read as {unit}, so --client-timeout compares with an assumed unit; give --duration-unit s, ms, us or ns"
            ),
            Warning::DurationUnitInferred {
                file,
                field,
                inferred,
            } if inferred.written_with_s => write!(
                f,
                "{file}: its duration field {field} says no unit (neither its name nor a format's documentation): its first {} values ({} to {}) are each written with an s after the number, so they are read as seconds, inferred, when --client-timeout compares with them; if that is wrong, give --duration-unit s, ms, us or ns",
                inferred.values, inferred.min, inferred.max
            ),
            Warning::DurationUnitInferred {
                file,
                field,
                inferred,
            } => write!(
                f,
                "{file}: its duration field {field} says no unit (neither its name nor a format's documentation): its first {} values ({} to {}) fit one unit only, {} (a request lasts between 1 µs and a day; µs and ns are written as whole numbers), so --client-timeout compares with it as inferred; if that is wrong, give --duration-unit s, ms, us or ns",
                inferred.values,
                inferred.min,
                inferred.max,
                inferred.unit.name()
            ),
            Warning::Unsampled => f.write_str(
                "no sampling threshold in the spans' tracestate (ot=th) and no --sample-rate: \
                 requests a day counts the traces as every request; if they were head-sampled, \
                 give --sample-rate (the rates do not depend on it)",
            ),
            Warning::ServerLogNoClientTimeout => f.write_str(
                "a server's own log does not show when the client gave up: only give-up statuses \
                 count as timeouts; give the client's (or webhook sender's) timeout with \
                 --client-timeout, or its --preset",
            ),
            Warning::NoMutating { methods, span } => {
                let what = if *span <= 0.0 {
                    format!(
                        "no mutating ({methods}) requests in the log, whose timestamps span no time: requests a day is the scenario's, assumed"
                    )
                } else {
                    let span = if *span >= 86_400.0 {
                        format!("{} days", count_f(span / 86_400.0))
                    } else {
                        duration_text(*span)
                    };
                    format!(
                        "no mutating ({methods}) requests in the log's {span}: requests a day from it is 0, and so is every cost"
                    )
                };
                write!(
                    f,
                    "{what}; if this API changes things by other methods, name them with --methods (or map the method column with --column method=HEADER); --requests-per-day gives the traffic instead"
                )
            }
            Warning::MissingDays { days, first, last } => write!(
                f,
                "no mutating requests on {} inside the log's span ({first}{}): are files missing? requests a day counts them as days with none",
                plural(*days, "day"),
                if first == last {
                    String::new()
                } else {
                    format!(" to {last}")
                }
            ),
            Warning::Backwards { by, window } => write!(
                f,
                "timestamps run backwards by up to {} (more than the retry window, {}): files that overlap in time, or a clock set back; intents near the jump may be split or joined wrongly",
                duration_text(*by),
                duration_text(*window)
            ),
            Warning::KeylessKeyColumn { header, file } => write!(
                f,
                "the key column {header} of {file} carried no key: every mutating attempt is an intent; --intents fingerprint groups them by client instead"
            ),
            Warning::KeysPerAttempt {
                header,
                keys,
                timed_out,
            } => write!(
                f,
                "the key column {header} looks per-attempt ({} seen once each, yet {}): it was ignored for intents and retries; map the clients' idempotency key with --column idempotency_key=HEADER, or give --retries",
                plural(*keys, "key"),
                plural_verb(*timed_out, "attempt timed out"),
            ),
            Warning::BackendNoTimestamps { files } => write!(
                f,
                "the backend log ({}) has no timestamp column: timed-out attempts missing from it cannot be told never to have reached it, so the proxy log's outcome stands for them",
                files.join(", ")
            ),
            Warning::BackendBadRow(bad) => write!(f, "skipped bad row of the backend log {bad}"),
            Warning::BackendBadRows { rows } => write!(
                f,
                "{} of the backend log skipped in all",
                plural(*rows, "bad row")
            ),
            Warning::ClientTimeoutFromPreset { env, secs, preset } => write!(
                f,
                "client timeout {secs}s from {} (the sender's per-attempt timeout; \
                 --client-timeout to change)",
                if *env {
                    format!("{}={preset}", crate::inputs::PRESET_ENV)
                } else {
                    format!("--preset {preset}")
                }
            ),
            Warning::RetryWindowWidened { horizon } => write!(
                f,
                "retry window widened to the schedule's retry horizon, {} (--retry-window to \
                 change)",
                crate::units::Seconds(*horizon).rounded()
            ),
            Warning::Window {
                window,
                span,
                first,
                last,
            } => write!(
                f,
                "a window of log time: the last {} asked, these rows span {} ({} to {}); requests a day are scaled from it",
                humantime::format_duration(*window),
                seconds_text(*span),
                first.as_deref().unwrap_or("?"),
                last.as_deref().unwrap_or("?"),
            ),
            Warning::MeasuredBySql { result } => write!(
                f,
                "measured by dupcost sql ({result}): a clock running backwards in the logs cannot be seen \
                 there (each key's or fingerprint's attempts are ordered by time); dupcost logs on the files \
                 warns when one did"
            ),
            Warning::Reader(note) => f.write_str(note),
        }
    }
}

impl Serialize for Warning {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl Display for DuplicatesNote {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let gap = self.gap.as_ref().map(|g| g.to_string());
        let mut parts: Vec<String> = Vec::new();
        if self.lower_bound {
            parts.push(format!(
                "the backend log (--outcomes) is not joined per intent (the proxy log came from stdin and cannot be read twice): these duplicates are only those the proxy log shows, a lower bound{}",
                gap.map(|n| format!("; {n}")).unwrap_or_default()
            ));
        } else if let Some(gap) = gap {
            parts.push(gap);
        }
        if self.by_key {
            parts.push("grouped by key, an attempt is counted as executed when it was answered 2xx or the backend's log answered it 2xx: if the service replays a key's first answer and logs the replay 2xx, those replays are counted too".to_string());
        }
        f.write_str(&parts.join("; "))
    }
}

impl Serialize for DuplicatesNote {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl Display for Gap {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Gap::Fewer {
                conflicts,
                outcomes,
            } => {
                let mut why = Vec::new();
                if let Some((n, per_day)) = conflicts {
                    why.push(format!(
                        "{} refused by a uniqueness check (409 or 422) did not execute twice ({} a day with them)",
                        plural(*n, "retried intent"),
                        count_f(*per_day)
                    ));
                }
                match outcomes {
                    FewerOutcomes::NoUpstream => why.push("the log has no upstream status (or --outcomes) to show what a timed-out attempt did".to_string()),
                    FewerOutcomes::Unknown(n) => why.push(format!(
                        "{} with an unknown outcome cannot count",
                        plural(*n, "timed-out attempt")
                    )),
                    FewerOutcomes::Known => {}
                }
                why.push(
                    "retries sent from another address or after --retry-window are not grouped"
                        .to_string(),
                );
                write!(
                    f,
                    "fewer duplicates are seen than the model predicts: {}",
                    why.join("; ")
                )
            }
            Gap::More { retries } => write!(
                f,
                "more duplicates are seen than the model predicts: clients retry more than {} (the retries input), or distinct intents share a fingerprint (clients behind one address; see --shared-address-rate)",
                plural(u64::from(*retries), "retry")
            ),
        }
    }
}

// ---------------------------------------------------------------- how a file was read

impl Display for FormatNote {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let fields = |extra: usize| extra_fields(extra).collect::<Vec<_>>().join(", ");
        let many = |extra: usize| if extra == 1 { "" } else { "s" };
        match self {
            FormatNote::UtcAcceptDate => f.write_str("accept_date has no zone: read as UTC"),
            FormatNote::HaproxyAppended { extra } => write!(
                f,
                "its lines have fields after httplog's \
                 request line, read as {} and given no role (an unnamed field is never taken \
                 for the idempotency key): name one with --column (idempotency_key=extra_1, \
                 request_id=), or give haproxy.cfg's log-format with --log-format",
                fields(*extra)
            ),
            FormatNote::NginxAppended {
                layout,
                extra,
                suggested,
                upstream_status,
            } => {
                write!(
                    f,
                    "its lines have {extra} field{many} after {layout}'s layout, read as \
                     {list} and given no role (a field is never guessed): if they are what \
                     their shapes suggest, read them with --log-format '{suggested}' (check \
                     it against the server's log_format)",
                    many = many(*extra),
                    list = fields(*extra),
                )?;
                match upstream_status {
                    Some(i) => write!(f, ", or name one with --column (upstream_status=extra_{i})"),
                    None => Ok(()),
                }
            }
            FormatNote::EnvoyAppended { layout, extra } => write!(
                f,
                "its lines have {extra} field{many} after {layout}'s layout, read as {list} and \
                 given no role (an unnamed field is never taken for the idempotency key): \
                 name one with --column (idempotency_key=extra_1, request_id=, \
                 proxy_attempts= for %UPSTREAM_REQUEST_ATTEMPT_COUNT%), or give the whole \
                 format string with --log-format '...'",
                many = many(*extra),
                list = fields(*extra),
            ),
            FormatNote::UnreadFields { examples } => write!(
                f,
                "its lines go on past that layout with fields it does not name, which are not read: \
                 give the server's own format with --log-format to read them ({examples})"
            ),
            FormatNote::IisLocalTime => f.write_str(
                "date-local and time-local have no zone (IIS Advanced Logging's local time): \
                 read as UTC",
            ),
            FormatNote::NoBackendStatus => f.write_str(
                "it logs no backend status: the backend outcome of a timed-out attempt is \
                 unknown from this log alone; the backend's own log (--outcomes) settles it",
            ),
            FormatNote::ApiGatewayGiveUps { integration_status } => {
                f.write_str(
                    "its give-ups are the 504s of an integration that timed out; \
                     API Gateway documents no status for a client that hung up earlier, so \
                     the timeout rate is a lower bound (--client-timeout D on a logged \
                     responseLatency counts attempts that took D as given up)",
                )?;
                if !integration_status {
                    f.write_str(
                        "; its layout logs no integration status: the backend outcome of a \
                         504 is unknown from this log alone; $context.integration.status in \
                         the stage's access log format, or the backend's own log \
                         (--outcomes), settles it",
                    )?;
                }
                Ok(())
            }
            FormatNote::OtherCategories { total, kinds } => {
                let list: Vec<String> = kinds.iter().map(|(k, n)| format!("{k}: {n}")).collect();
                write!(
                    f,
                    "{total} record{} of other categories skipped, not access records ({})",
                    if *total == 1 { "" } else { "s" },
                    list.join(", ")
                )
            }
            FormatNote::EnvelopeTime => f.write_str(
                "its access lines have no time of their own: each takes its envelope's time",
            ),
            FormatNote::FingerprintTies(n) => write!(
                f,
                "{} of one fingerprint at the same timestamp as the one before: a table has no file \
                 order, so the query took them by status (then timed out, executed); dupcost logs \
                 takes them in file order and may group them otherwise",
                plural(*n, "attempt")
            ),
        }
    }
}

/// A file's notes as one line of its evidence (`; ` between them), if it has any.
pub fn format_notes(notes: &[FormatNote]) -> Option<String> {
    (!notes.is_empty()).then(|| {
        notes
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("; ")
    })
}

impl Display for Lacking {
    /// "app.log", or "app.log (its nginx combined lines)" when the file had several formats.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(&self.file)?;
        if let Some(formats) = &self.formats {
            write!(f, " (its {} lines)", formats.join(" and "))?;
        }
        Ok(())
    }
}

/// The evidence on a file read with more than one format: which lines each read, the
/// roles they do not share, and the formats whose lines could not be counted.
pub fn formats_evidence(file: &FileInfo) -> Vec<String> {
    let read: Vec<&FormatRead> = file.formats.iter().filter(|f| f.lines > 0).collect();
    let mut out = Vec::new();
    if read.len() > 1 {
        if file.interleaved {
            let each: Vec<String> = read
                .iter()
                .map(|f| format!("{} {} lines", f.name, count(f.lines)))
                .collect();
            out.push(format!(
                "its lines take turns between {} formats (interleaved): {}",
                read.len(),
                each.join(", ")
            ));
        } else {
            let each: Vec<String> = read
                .iter()
                .map(|f| {
                    format!(
                        "{} (lines {}-{})",
                        f.name,
                        count(f.first_line),
                        count(f.last_line)
                    )
                })
                .collect();
            out.push(format!("its lines change format: {}", each.join(", then ")));
        }
        let differ: Vec<String> = Role::ALL
            .iter()
            .filter_map(|&role| {
                let with: Vec<&str> = read
                    .iter()
                    .filter(|f| {
                        f.columns
                            .as_ref()
                            .is_some_and(|c| c.header_of(role).is_some())
                    })
                    .map(|f| f.name.as_str())
                    .collect();
                (!with.is_empty() && with.len() < read.len())
                    .then(|| format!("{role} only in {}", with.join(" and ")))
            })
            .collect();
        if !differ.is_empty() {
            out.push(format!(
                "its formats do not have the same roles: {}; a figure that needs a role counts only the lines that have it (an attempt without a key or fingerprint is an intent of its own), and one that needs it on every line (the succeeded share from upstream statuses) is not measured",
                differ.join("; ")
            ));
        }
    }
    for f in &file.formats {
        if let Some(why) = &f.refused {
            out.push(format!("lines read as {} are bad rows: {why}", f.name));
        }
    }
    out
}

// ---------------------------------------------------------------- refusals

impl Display for LogError {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            LogError::NotFound { path } => write!(f, "{}: no such file", path.display()),
            LogError::IsDirectory { path } => {
                write!(f, "{}: is a directory, not a log file", path.display())
            }
            LogError::Io { path, source } => write!(f, "{path}: cannot read: {source}"),
            LogError::Gzip { path, source } => {
                write!(f, "{path}: corrupt or truncated gzip data: {source}")
            }
            LogError::Empty { path } => write!(
                f,
                "{path}: the file is empty: expected a header row naming the columns"
            ),
            LogError::HeaderOnly { path } => {
                write!(f, "{path}: the header has no data rows after it")
            }
            LogError::HeaderTooLong { path, limit } => write!(
                f,
                "{path}: the header line is longer than {limit} bytes: is this a log with a header row?"
            ),
            LogError::MissingColumn {
                path,
                role,
                aliases,
                found,
            } => write!(
                f,
                "{path}: no {role} column (looked for {aliases}); headers found: {found}; map one with --column {role}=HEADER"
            ),
            LogError::UnknownColumn {
                path,
                role,
                header,
                found,
            } => write!(
                f,
                "{path}: --column {role}={header}: no such header; headers found: {found}"
            ),
            LogError::StrictBadRow(row) => write!(f, "{row} (--strict makes bad rows fatal)"),
            LogError::NoUsableRows { path, rows, first } => write!(
                f,
                "{path}: none of the {rows} rows could be used (first problem: {first})"
            ),
            LogError::StdinTwice => f.write_str("stdin ('-') can be read only once"),
            LogError::NoSources => f.write_str("no log files given"),
            LogError::Option(text) => f.write_str(text),
            LogError::Internal(text) => write!(f, "internal error: {text}"),
        }
    }
}

impl Display for Refusal {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::Underivable { figure, why, flag } => {
                write!(f, "{why}, so {figure} is unknown: give {flag}")
            }
            Refusal::UnknownOutcomes { log, max_unknown } => {
                let [low, high] = log.bounds();
                write!(
                    f,
                    "{} of {} timed-out attempts ({}, more than --max-unknown {}) have no known outcome (the proxy gave up before the backend answered), so the succeeded share is only known to lie between {} (if every unknown failed) and {} (if every unknown succeeded): give --succeeded-share, or the backend's own log with --outcomes FILE",
                    count(log.unknown),
                    count(log.timed_out),
                    pct3(log.unknown as f64 / log.timed_out as f64),
                    pct3(*max_unknown),
                    pct3(low),
                    pct3(high),
                )
            }
        }
    }
}

impl std::error::Error for Refusal {}

// ---------------------------------------------------------------- kinds of input

/// An input's kind as its line in a report says it: `measured`, `given: --ttl`, `given:
/// --preset stripe`, `assumed: the default; the log allows 0% to 100%; --succeeded-share or
/// --outcomes FILE settles it`. `preset` names the `--preset` the scenario started from.
pub fn kind_text(
    input: crate::inputs::Input,
    k: &crate::findings::InputKind,
    preset: Option<&str>,
) -> String {
    match kind_detail(input, k, preset) {
        Some(detail) => format!("{}: {detail}", kind_name(k.kind)),
        None => kind_name(k.kind).to_string(),
    }
}

/// An input the explorer's user set (its value no longer the one it started with).
pub const KIND_SET_HERE: &str = "given: set here";

/// A kind's one-letter mark after an input's value where room is short (the explorer):
/// `m`, `g`, `a`.
pub fn kind_mark(kind: crate::findings::Kind) -> char {
    kind_name(kind).chars().next().unwrap_or(' ')
}

/// A kind's name: `measured`, `given`, `assumed`.
pub fn kind_name(kind: crate::findings::Kind) -> &'static str {
    use crate::findings::Kind;
    match kind {
        Kind::Measured => "measured",
        Kind::Given => "given",
        Kind::Assumed => "assumed",
    }
}

/// What [`kind_text`] says after the kind's name (`--ttl`, `the default; --ttl settles it`);
/// `None` for a measured input, whose evidence says the rest.
pub fn kind_detail(
    input: crate::inputs::Input,
    k: &crate::findings::InputKind,
    preset: Option<&str>,
) -> Option<String> {
    use crate::findings::{Kind, kinds::Reason};
    Some(match k.kind {
        Kind::Measured => match (&k.duration_unit, &k.thin) {
            (_, Some(t)) => format!(
                "{}{}",
                thin_mark(t),
                k.duration_unit
                    .as_ref()
                    .map_or(String::new(), |mark| format!(
                        "; durations read in {}, {}; {} settles it",
                        mark.unit,
                        unit_kind_text(mark.kind),
                        mark.flag
                    ))
            ),
            (Some(mark), None) => format!(
                "durations read in {}, {}; {} settles it",
                mark.unit,
                unit_kind_text(mark.kind),
                mark.flag
            ),
            (None, None) => return None,
        },
        Kind::Given if k.from_schedule => format!("one per delay of {}", given_by(k, preset)),
        Kind::Given => given_by(k, preset),
        Kind::Assumed => {
            let why = match k.reason {
                Some(Reason::TooFew) => "the scenario's, the log has too few",
                Some(Reason::NoOutcomes) => "no outcome is known",
                Some(Reason::UnknownOutcomes) => "most outcomes are unknown",
                Some(Reason::ShortSpan) => "the scenario's, a short span only bounds it",
                Some(Reason::ZeroSpan) => "the default, the log's timestamps span no time",
                Some(Reason::NoTimestamps) => "the default, the log has no timestamps",
                Some(Reason::NoTimeouts) => "the default, no timed-out attempt in the log",
                Some(Reason::NoEffect) => {
                    "the default, no timed-out attempt in the log; the timeout rate used is 0, so it changes no figure but the intervals"
                }
                Some(Reason::Default) | None => "the default",
            };
            let bounds = k.bounds.map_or(String::new(), |[lo, hi]| {
                format!("; the log allows {}", bounds_of(input, lo, hi))
            });
            format!("{why}{bounds}; {} settles it", settled_by(k))
        }
    })
}

/// How a duration's unit was had: `assumed`, `inferred from their values`.
fn unit_kind_text(kind: crate::findings::kinds::UnitKind) -> &'static str {
    match kind {
        crate::findings::kinds::UnitKind::Assumed => "assumed",
        crate::findings::kinds::UnitKind::Inferred => "inferred from their values",
    }
}

/// What settles an assumed input: its flag (`--ttl`), or its flag or a second log
/// (`--succeeded-share or --outcomes FILE`).
pub fn settled_by(k: &crate::findings::InputKind) -> String {
    if k.outcomes {
        format!("{} or --outcomes FILE", k.flag)
    } else {
        k.flag.to_string()
    }
}

/// What gave a given input: `--ttl`, `DUPCOST_TTL`, `the scenario file`, `--preset stripe`;
/// for the retries a schedule gave, what gave the schedule.
fn given_by(k: &crate::findings::InputKind, preset: Option<&str>) -> String {
    use crate::inputs::Origin;
    match (k.origin, preset) {
        (Origin::Scenario, _) => "the scenario file".to_string(),
        (Origin::Preset, Some(name)) => match k.env {
            Some(env) => format!("{env}={name}"),
            None => format!("--preset {name}"),
        },
        (Origin::Preset, None) => "the preset".to_string(),
        (Origin::Sweep, _) => "--sweep".to_string(),
        _ => match k.env {
            Some(env) => env.to_string(),
            None if k.from_schedule => crate::inputs::SCHEDULE_FLAG.to_string(),
            None => k.flag.clone(),
        },
    }
}

/// The label of the retry delays' line, where a schedule replaces the backoff inputs.
pub const RETRY_DELAYS: &str = "retry delays";

/// The retry delays' kind as their line says it: `given: --schedule`, `given: --preset
/// svix-webhooks`, `given: DUPCOST_SCHEDULE`.
pub fn schedule_kind_text(k: &crate::findings::InputKind, preset: Option<&str>) -> String {
    format!("{}: {}", kind_name(k.kind), schedule_kind_detail(k, preset))
}

/// What [`schedule_kind_text`] says after the kind's name: `--schedule`, `--preset
/// svix-webhooks`.
pub fn schedule_kind_detail(k: &crate::findings::InputKind, preset: Option<&str>) -> String {
    match k.kind {
        crate::findings::Kind::Given => given_by(k, preset),
        _ => format!("the default; {} settles it", k.flag),
    }
}

/// The retry delays as their line shows them: `5s, 5m (svix-webhooks)` when the preset set
/// them.
pub fn schedule_value(delays: &crate::model::Delays, style: &Style) -> String {
    let text = schedule_text(delays);
    match style.preset.as_ref().filter(|t| t.schedule) {
        Some(t) => format!("{text} ({})", t.name),
        None => text,
    }
}

/// `0% to 100%` for a share, `120 to 155` for a count.
fn bounds_of(input: crate::inputs::Input, lo: f64, hi: f64) -> String {
    use crate::inputs::Input;
    match input {
        Input::TimeoutRate | Input::SucceededShare => format!("{} to {}", pct3(lo), pct3(hi)),
        _ if hi.is_infinite() => format!("at least {}", count_f(lo)),
        _ => format!("{} to {}", count_f(lo), count_f(hi)),
    }
}

/// The duplicates and refunds over an assumed share's bounds, as the intervals say them:
/// `duplicates 0 to 1,202 a month, refunds $0 to $48,096, over the succeeded share's 0% to
/// 100% (601, $24,048 at the assumed 50%)`.
pub fn output_bounds_text(
    b: &crate::findings::OutputBounds,
    e: &crate::model::Estimate,
    currency: &str,
) -> String {
    let [dlo, dhi] = b.duplicates_per_month;
    let [rlo, rhi] = b.refunds_per_month;
    let money = |v: f64| super::human::money(v, currency);
    format!(
        "duplicates {} to {} a month, refunds {} to {}, over the succeeded share's bounds {} to {} ({}, {} at the assumed {})",
        super::human::count(dlo),
        super::human::count(dhi),
        money(rlo),
        money(rhi),
        pct3(b.succeeded_share[0]),
        pct3(b.succeeded_share[1]),
        super::human::count(e.duplicates.per_month),
        money(e.refund_cost.per_month),
        rate(e.inputs.succeeded_share),
    )
}

/// What the verdict's money rests on, where assumed: `Assuming a $40 order (--order-value)
/// and a 50% succeeded share (--succeeded-share).`; `None` when nothing it rests on is.
pub fn verdict_assumptions(
    assumed: &[(crate::inputs::Input, &crate::findings::InputKind)],
    e: &crate::model::Estimate,
    currency: &str,
) -> Option<String> {
    use crate::inputs::Input;
    let parts: Vec<String> = assumed
        .iter()
        // A share that changes no figure is no assumption of the verdict's.
        .filter(|(_, k)| k.reason != Some(crate::findings::kinds::Reason::NoEffect))
        .filter_map(|(input, k)| {
            let v = input.get(&e.inputs);
            let what = match input {
                Input::OrderValue => format!("a {} order", super::human::money(v, currency)),
                Input::SucceededShare => format!("a {} succeeded share", rate(v)),
                Input::TimeoutRate => format!("a {} timeout rate", rate(v)),
                Input::RequestsPerDay => format!("{} requests a day", count_f(v)),
                _ => return None,
            };
            Some(format!("{what} ({})", k.flag))
        })
        .collect();
    match parts.as_slice() {
        [] => None,
        [one] => Some(format!("Assuming {one}.")),
        [rest @ .., last] => Some(format!("Assuming {} and {last}.", rest.join(", "))),
    }
}

/// What a file of spans showed and what traces cannot tell, for the evidence.
pub fn traces_evidence(t: &TraceRead) -> Vec<String> {
    if t.format.is_none() {
        return vec![
            "a table of spans read by dupcost sql: CLIENT spans are the attempts, the SERVER spans directly under them their outcomes".to_string(),
        ];
    }
    let mut out = vec![format!(
        "{} in {}; {} (CLIENT spans with a mutating method) in {}",
        plural(t.spans, "span"),
        plural(t.traces, "trace"),
        plural(t.attempts, "attempt"),
        plural(t.intents, "intent"),
    )];
    match (t.sample_rate, t.with_threshold) {
        (Some(rate), _) => out.push(format!(
            "head sampling kept {}% of traces (--sample-rate): counts scaled by {}, rates as read",
            count_f(rate * 100.0),
            count_f(t.scale())
        )),
        (None, 0) => out.push(
            "no sampling threshold in the spans' tracestate (ot=th): counts as read".to_string(),
        ),
        (None, n) => out.push(format!(
            "{} of {} carry a sampling threshold (tracestate ot=th): counts scaled by {}, rates as read",
            count(n),
            plural(t.traces, "trace"),
            count_f(t.scale())
        )),
    }
    if t.cut > 0 {
        out.push(format!(
            "{} not whole in the file (no root span, or a span whose parent is not in it: cut at the file's edges): their attempts without a server span are unknown",
            plural(t.cut, "trace")
        ));
    }
    if t.server_without_client > 0 {
        out.push(format!(
            "{} with no traced CLIENT span above them (an uninstrumented caller, or a cut trace): not attempts",
            plural(t.server_without_client, "SERVER span")
        ));
    }
    if t.server_untraced > 0 {
        out.push(format!(
            "{} timed-out {} no SERVER span and a server not traced (or a cut trace): unknown, not failed",
            count(t.server_untraced),
            if t.server_untraced == 1 { "attempt has" } else { "attempts have" }
        ));
    }
    if t.never_reached > 0 {
        out.push(format!(
            "{} in whole traces with no SERVER span though their server is traced: never arrived (failed)",
            plural(t.never_reached, "timed-out attempt")
        ));
    }
    out
}

// ---------------------------------------------------------------- the logs report's sections

/// The words of the logs report's sections and of a sweep's verdict, as plain sentences: the
/// HTML page says them as they are; the markdown says the same (with its emphasis).
pub mod sections {
    use crate::findings::{
        Intervals, KeyCoverage, MIN_EVIDENCE, Observed, ObservedDuplicates, ProcessedTwice,
        SharedAddresses,
    };
    use crate::inputs::Input;
    use crate::model::Estimate;
    use crate::report::human;
    use crate::units::Rate;

    use super::{count, plural};

    /// The per-day table's columns.
    pub const PER_DAY: [&str; 6] = [
        "date",
        "mutating",
        "timed out",
        "timed out, succeeded",
        "timed out, unknown",
        "timeout rate",
    ];
    /// The per-endpoint table's columns.
    pub const PER_ENDPOINT: [&str; 6] = [
        "endpoint",
        "mutating",
        "timeout rate",
        "succeeded share",
        "duplicates a month",
        "refunds a month",
    ];
    /// The columns of the endpoints whose attempts lack keys.
    pub const KEYS_FIRST: [&str; 4] =
        ["endpoint", "keyed", "duplicates a month", "refunds a month"];
    /// A sweep's columns after the swept input's.
    pub const SWEEP: [&str; 6] = [
        "duplicates a day",
        "duplicates a month",
        "refunds a month",
        "unanswered a day",
        "extra attempts a day",
        "key store",
    ];
    /// `0 to 5`: the swept input's first and last values.
    pub fn sweep_span(
        input: Input,
        estimates: &[crate::model::Estimate],
        currency: &str,
    ) -> String {
        let shown = |e: &crate::model::Estimate| {
            crate::report::words::input_value(input, input.get(&e.inputs), currency)
        };
        match (estimates.first(), estimates.last()) {
            (Some(first), Some(last)) => format!("{} to {}", shown(first), shown(last)),
            _ => String::new(),
        }
    }

    /// `0 to 5 (6 values)`: the swept input's range, as its line of inputs says it.
    pub fn sweep_range(
        input: Input,
        estimates: &[crate::model::Estimate],
        currency: &str,
    ) -> String {
        let span = sweep_span(input, estimates, currency);
        format!("{span} ({} values)", estimates.len())
    }

    /// One input in a sweep's marks: `order value $85 (--order-value)`.
    pub fn mark_item(label: &str, value: &str, detail: Option<&str>) -> String {
        match detail {
            Some(d) => format!("{label} {value} ({d})"),
            None => format!("{label} {value}"),
        }
    }

    /// One kind's paragraph of a sweep's marks: `given: ITEM; ITEM`, or for the defaults
    /// (whose items name only their flags) `assumed, the default, each settled by its flag:
    /// ITEM; ...`.
    pub fn marks_line(kind: crate::findings::Kind, defaults: bool, items: &[String]) -> String {
        let name = super::kind_name(kind);
        if defaults {
            format!(
                "{name}, the default, each settled by its flag: {}",
                items.join("; ")
            )
        } else {
            format!("{name}: {}", items.join("; "))
        }
    }

    pub const PER_DAY_TITLE: &str = "Per day (UTC)";
    pub const PER_ENDPOINT_TITLE: &str = "Top endpoints (by duplicates a month)";
    pub const KEYS_FIRST_TITLE: &str = "Add keys here first";

    /// `Read 3,000 rows from ... to ...: 1,020 mutating attempts, 0 bad rows skipped.`
    pub fn read_summary(o: &Observed) -> String {
        let span = match (&o.first_timestamp, &o.last_timestamp) {
            (Some(a), Some(b)) => format!(" from {a} to {b}"),
            _ => String::new(),
        };
        format!(
            "Read {} rows{span}: {} mutating attempts, {} intents, {} bad rows skipped.",
            count(o.rows),
            count(o.mutating_attempts),
            count(o.intents),
            count(o.bad_rows)
        )
    }

    /// What the inputs' 95% intervals make of the duplicates and the refunds.
    pub fn over_intervals(i: &Intervals, currency: &str) -> String {
        let refunds = crate::units::round_outward(i.refund_cost_per_month, 3);
        format!(
            "Over the inputs' 95% intervals, duplicate charges range from {} to {} a month and \
             refunds from {} to {} a month.",
            human::count(i.duplicates_per_month[0]),
            human::count(i.duplicates_per_month[1]),
            // To 3 significant figures, outward, as the table report's intervals.
            human::money(refunds[0], currency),
            human::money(refunds[1], currency),
        )
    }

    /// The note under the endpoints table when some had too few attempts.
    pub fn few_attempts() -> String {
        format!(
            "Fewer than {MIN_EVIDENCE} mutating attempts: its own timeout rate is thin (still \
             the one its estimate uses), and it is listed after the measured endpoints."
        )
    }

    /// The row that completes a top list of endpoints: `other endpoints (14)`.
    pub fn other_endpoints(n: u64) -> String {
        format!("other endpoints ({})", count(n))
    }

    /// `Intents (grouped by idempotency key)`; `None` when attempts were not grouped.
    pub fn intents_title(grouping: &str) -> Option<String> {
        let by = match grouping {
            "none" => return None,
            "key" => "idempotency key",
            _ => "fingerprint: client, user agent, method, path with query, request length",
        };
        Some(format!("Intents (grouped by {by})"))
    }

    fn per_day(v: Option<f64>) -> String {
        v.map_or(String::new(), |v| format!(" ({} a day)", human::count(v)))
    }

    /// A server's own log: the intents it executed more than once; `strong` marks the
    /// count (markdown's emphasis, or nothing).
    pub fn processed_twice(p: &ProcessedTwice, strong: &dyn Fn(String) -> String) -> String {
        format!(
            "Processed twice: {} executions past the first{}, in {} intents answered 2xx more \
             than once (the server's own log: a 2xx is an execution).",
            strong(count(p.extra_executions)),
            per_day(p.per_day),
            count(p.intents)
        )
    }

    /// The duplicates the log itself shows, beside the model's; `strong` marks the count.
    pub fn duplicates_seen(d: &ObservedDuplicates, strong: &dyn Fn(String) -> String) -> String {
        let [lo, hi] = d.predicted_per_day_interval;
        format!(
            "Duplicates seen in the log: {}{}, intents with two attempts or more known to have \
             executed ({} by a timed-out attempt's upstream 2xx). The model predicts {} a day \
             (95%: {} to {}) for the same inputs.",
            strong(count(d.count)),
            per_day(d.per_day),
            count(d.evidence.upstream_2xx),
            human::count(d.predicted_per_day),
            human::count(lo),
            human::count(hi)
        )
    }

    /// Why the duplicates seen and predicted differ: the note (a clause) as a sentence.
    pub fn duplicates_note(note: &str) -> String {
        let mut chars = note.chars();
        match chars.next() {
            Some(first) => format!("{}{}.", first.to_uppercase(), chars.as_str()),
            None => String::new(),
        }
    }

    /// The retries a uniqueness check refused, when there were some.
    pub fn conflicts(d: &ObservedDuplicates) -> Option<String> {
        (d.evidence.conflict_409_422 > 0).then(|| {
            format!(
                "{} answered 409 or 422 on a retry: a uniqueness check refused the duplicate.",
                plural(d.evidence.conflict_409_422, "intent")
            )
        })
    }

    /// Fingerprints that looked like shared addresses.
    pub fn shared_addresses(sh: &SharedAddresses) -> String {
        format!(
            "{} sent more than {} attempts a minute, likely shared addresses (NAT): their \
             attempts from then on were not grouped (--shared-address-rate).",
            plural(sh.fingerprints, "fingerprint"),
            sh.rate
        )
    }

    /// The share of mutating attempts that carried a key.
    pub fn key_coverage(k: &KeyCoverage) -> String {
        format!(
            "Key coverage: {} of mutating attempts carried an idempotency key ({}).",
            Rate(k.share).rounded(),
            count(k.keyed_attempts)
        )
    }

    /// `low to high`, or one value when they read the same.
    pub fn range(low: String, high: String) -> String {
        if low == high {
            low
        } else {
            format!("{low} to {high}")
        }
    }

    /// A sweep's verdict: the refunds and the key store over the swept values.
    pub fn sweep_verdict(input: Input, estimates: &[Estimate], currency: &str) -> String {
        let (Some(first), Some(last)) = (estimates.first(), estimates.last()) else {
            return String::new();
        };
        let shown = |e: &Estimate| super::input_value(input, input.get(&e.inputs), currency);
        let refunds = estimates.iter().map(|e| e.refund_cost.per_month);
        let low = refunds.clone().fold(f64::INFINITY, f64::min);
        let high = refunds.fold(0.0f64, f64::max);
        let bytes = || estimates.iter().map(|e| e.key_store.bytes);
        format!(
            "with {} from {} to {}, the missing key costs {} a month in refunds; the key store \
             that stops it takes {}.",
            input.label(),
            shown(first),
            shown(last),
            range(human::money(low, currency), human::money(high, currency)),
            range(
                human::size(bytes().fold(f64::INFINITY, f64::min)),
                human::size(bytes().fold(0.0, f64::max))
            ),
        )
    }
}

/// The HTML page's own phrases: its titles (the markdown's), its headings, its columns and
/// the lines around its blocks.
pub mod page {
    use crate::inputs::Input;

    pub const ESTIMATE: &str = "What missing idempotency costs";
    pub const LOGS: &str = "What missing idempotency costs, measured from access logs";
    pub const INPUTS: &str = "Inputs";
    pub const OUTPUTS: &str = "Outputs";
    pub const CHARTS: &str = "Charts";
    pub const SCENARIO: &str = "The scenario";
    pub const WARNINGS: &str = "What the figures may suffer from";
    pub const CHECKS: &str = "Checks";
    pub const COSTS: &str = "What a failure costs";
    pub const KEY_STORE: &str = "key store";
    pub const VALUE: &str = "value";
    pub const SWEPT: &str = "swept (--sweep)";
    pub const INPUT_COLUMNS: [&str; 4] = ["input", "value", "kind", "from"];
    pub const LOGS_INPUTS: [&str; 5] = ["input", "value", "kind", "evidence", "95% interval"];
    pub const CHECK_COLUMNS: [&str; 5] =
        ["check", "outcome", "requests", "executions seen", "detail"];
    pub const COST_COLUMNS: [&str; 2] = ["check", "what it costs"];
    pub const ATTEMPTS_COLUMNS: [&str; 2] = ["attempts", "intents"];
    pub const CHECKS_FAILED: &str = "checks failed";
    pub const REQUESTS_SENT: &str = "requests sent";
    pub const EXTRA_EXECUTIONS: &str = "extra executions for a key";
    pub const AT_STAKE: &str = "refunds a month without a key that holds";
    pub const SCENARIO_AGAIN: &str = "Save this as scenario.json: dupcost estimate --scenario scenario.json gives this report again.";
    pub const SCENARIO_MEASURED: &str = "The scenario measured from the logs. Save it as \
        scenario.json: dupcost estimate --scenario scenario.json gives this estimate again.";
    pub const SCENARIO_PROBE: &str = "The scenario the costs are figured in. Save it as \
        scenario.json: dupcost estimate --scenario scenario.json gives its estimate.";
    pub const FOOTER: &str = "Made by dupcost. Every figure is explained in its docs/MODEL.md.";

    /// A sweep's title.
    pub fn by(input: Input) -> String {
        format!("What missing idempotency costs, by {}", input.label())
    }

    /// The probe's title.
    pub fn probe(method: &str, url: &str) -> String {
        format!("Does idempotency hold? {method} {url}")
    }

    /// The line under a sweep's scenario block.
    pub fn sweep_again(input: Input) -> String {
        format!(
            "The first value's scenario. Save it as scenario.json: dupcost estimate --scenario \
             scenario.json --sweep {}=FROM..TO sweeps it again.",
            input.flag()
        )
    }

    /// A logs report's input the logs did not give (its kind's words say the rest).
    pub const NOT_IN_LOGS: &str = "not in logs";

    /// `Duplicates seen: 0 extra executions for a key (17 requests in all).`
    pub fn duplicates_seen(seen: &str, requests: usize) -> String {
        format!("Duplicates seen: {seen} ({requests} requests in all).")
    }
}

// ---------------------------------------------------------------- the estimate's words
// (the scenario's lines, the verdict, the layers and stores: the table, markdown, HTML and
// the explorer all say them so)

/// The scenario's inputs, one per line, in the order of `docs/MODEL.md`.
pub fn input_lines(e: &Estimate, style: &Style) -> Vec<(&'static str, String)> {
    let mut lines = Vec::with_capacity(Input::ALL.len());
    for input in Input::ALL {
        // A published schedule (`--schedule`) replaces the backoff inputs: its delays take
        // the backoff's line, the factor and the cap are left out (the jitter stays: it
        // randomises the schedule's delays too).
        if crate::findings::kinds::replaced_by(input, &e.inputs).is_some() {
            if let (Input::Backoff, Some(delays)) = (input, e.inputs.schedule_seconds) {
                lines.push((RETRY_DELAYS, schedule_value(&delays, style)));
            }
            continue;
        }
        let value = input_value(input, input.get(&e.inputs), &style.currency);
        lines.push((
            input.label(),
            PresetTrace::mark(style.preset.as_ref(), input, value),
        ));
    }
    lines
}

/// A schedule of delays for reading: `5s, 5m, 30m, 2h`.
pub fn schedule_text(delays: &crate::model::Delays) -> String {
    let parts: Vec<String> = delays
        .as_slice()
        .iter()
        .map(|&d| Seconds(d).rounded())
        .collect();
    parts.join(", ")
}

/// An input's value for reading: `20,000`, `0.2%`, `$40`, `1d`, `1kB`.
pub fn input_value(input: Input, value: f64, currency: &str) -> String {
    match input {
        // Measured from logs it is intents over a fractional number of days (300.7353...):
        // four significant figures, as the rates, but never rounding away whole requests.
        Input::RequestsPerDay => human::number(four_figures(value)),
        Input::DaysPerMonth => human::number(value),
        Input::OrderValue => format!("{currency}{}", input.display(value)),
        // Rates measured from logs have many digits; four significant figures read better.
        Input::TimeoutRate | Input::SucceededShare => Rate(value).rounded(),
        Input::KeyBytes | Input::BodyBytes => human::size(value),
        _ => input.display(value),
    }
}

/// `value` to four significant figures below 1,000, to a whole number above.
fn four_figures(value: f64) -> f64 {
    if value.abs() >= 1000.0 {
        value.round()
    } else {
        crate::units::round_significant(value, 4)
    }
}

/// The one-line verdict: what the fix costs against what the missing key costs, or, first,
/// a key TTL shorter than the client's retry horizon.
pub fn verdict(e: &Estimate, style: &Style) -> String {
    let store = human::size(e.store_bytes());
    let keys = human::count(e.key_store.live_keys);
    let c = &style.currency;
    if e.ttl_shorter_than_horizon() {
        let ttl = Duration(e.inputs.ttl_seconds).to_string();
        let horizon = Seconds(e.retry_horizon_seconds).rounded();
        let left = e.duplicates.with_key_store.per_month;
        let problem = format!(
            "Verdict: the key TTL ({ttl}) is shorter than the client's retry horizon ({horizon}), so keys can expire while the client still retries"
        );
        let consequence = if left > 0.0 {
            format!(
                ": a {store} key store still lets {} of {} duplicate charges a month through ({} of refunds).",
                human::count(left),
                human::count(e.duplicates.per_month),
                human::money(e.keyed_refund_per_month(), c),
            )
        } else {
            "; on this schedule no retry is sent after its key expired, but one the server takes up late can be.".to_string()
        };
        return format!("{problem}{consequence} Keep keys at least {horizon}.");
    }
    if e.duplicates.per_month > 0.0 {
        format!(
            "Verdict: a {store} key store ({keys} live keys) stops {} a month of refunds for {} duplicate charges.",
            human::money(e.refund_cost.per_month, c),
            human::count(e.duplicates.per_month),
        )
    } else if e.inputs.retries == 0 && e.unanswered.zero_retries_per_month > 0.0 {
        format!(
            "Verdict: no duplicates without retries, but {} customers a month get no answer ({} of them charged); \
             retrying safely needs a {store} key store.",
            human::count(e.unanswered.zero_retries_per_month),
            human::count(e.unanswered.charged_zero_retries_per_month),
        )
    } else {
        format!(
            "Verdict: no duplicates in this scenario; a {store} key store ({keys} live keys) would keep it so."
        )
    }
}

/// An attempts multiplier for reading: `4x`, `1.00x`.
pub fn times(value: f64) -> String {
    if value.fract() == 0.0 && value.abs() < 1e15 {
        format!("{}x", human::group_thousands(&format!("{value:.0}")))
    } else {
        format!("{}x", human::count(value))
    }
}

/// What the proxy's measured tries make of the layers figure (`observed.amplification`):
/// `the layers figure with the proxy's layer measured: 1.12x expected, 12x at most at the
/// backend an intent, over 2 layers (the model's 16x if the proxy made the client's tries)`.
pub fn proxy_layer(l: &crate::findings::AmplificationObserved) -> String {
    format!(
        "the layers figure with the proxy's layer measured: {} expected, {} at most at the backend an intent, over {} (the model's {} if the proxy made the client's tries)",
        times(l.expected),
        times(l.worst_case),
        layers(l.layers),
        times(l.modelled_worst_case)
    )
}

/// `1 layer`, `5 layers`.
pub fn layers(n: u32) -> String {
    if n == 1 {
        "1 layer".to_string()
    } else {
        format!("{n} layers")
    }
}

/// The name of a store's size figure: `size in Redis`.
pub fn store_name(store: Store) -> &'static str {
    match store {
        Store::Bytes => "size, flat per key",
        Store::Redis => "size in Redis",
        Store::Postgres => "size in PostgreSQL",
    }
}

/// The label of a store's size row; the chosen store (the headline's) is marked.
pub fn store_label(store: Store, chosen: Store) -> String {
    let name = store_name(store);
    if store == chosen {
        format!("{name} (--store)")
    } else {
        name.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_rates_and_plurals() {
        assert_eq!(count_f(0.0043), "0.0043");
        assert_eq!(count_f(12.345), "12.3");
        assert_eq!(count_f(0.0), "0");
        assert_eq!(count_f(1234.4), "1,234");
        assert_eq!(plural(1, "intent"), "1 intent");
        assert_eq!(plural(0, "bad row"), "0 bad rows");
        assert_eq!(plural(2_000, "row"), "2,000 rows");
        assert_eq!(plural_verb(1, "attempt timed out"), "1 attempt timed out");
        assert_eq!(duration_text(74.0), "1m 14s");
        assert_eq!(duration_text(11_545.0), "3h 12m");
        assert_eq!(duration_text(14.0), "14s");
        assert_eq!(duration_text(3600.0), "1h");
        assert_eq!(duration_text(0.8), "800ms");
    }

    #[test]
    fn thousands() {
        assert_eq!(count(0), "0");
        assert_eq!(count(999), "999");
        assert_eq!(count(34_094), "34,094");
        assert_eq!(count(1_234_567), "1,234,567");
    }
}
