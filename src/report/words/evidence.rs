//! How each finding was measured: the `Display` of the findings' evidence (and, where the
//! JSON contract holds a sentence, its `Serialize` as that text).

use std::fmt::{self, Display, Formatter};

use serde::{Serialize, Serializer};

use crate::findings::MIN_EVIDENCE;
use crate::findings::evidence::{
    Evidence, FingerprintFacts, GivenBy, Grouped, IntentsHow, NoUpstream, Picked, RequestsLog,
    RetriesEvidence, RetriesLog, ScenarioShare, ShareEvidence, ShareLog, Shortfall,
    TimeoutEvidence, TimeoutLog,
};
use crate::findings::{MAX_RETRIES, RetriesObserved};
use crate::logs::{FlagsStyle, PROXY_GIVE_UPS, Role};

use super::*;

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
            Evidence::BodyBytes(b) => b.fmt(f),
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
    let field = style.field;
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
            let thin = crate::findings::evidence::Thin {
                count: log.succeeded,
                of: known,
            };
            write!(f, "; {}", thin_mark(&thin))
        }
    }
}

/// A thin measure's mark: `thin: 10 of 26 (under 30), its 95% interval carried to the
/// duplicates and refunds`.
pub fn thin_mark(t: &crate::findings::evidence::Thin) -> String {
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
