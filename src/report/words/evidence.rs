//! How each finding was measured: the `Display` of the findings' evidence (and, where the
//! JSON contract holds a sentence, its `Serialize` as that text).

use std::fmt::{self, Display, Formatter};

use serde::{Serialize, Serializer};

use crate::findings::evidence::{Evidence, FingerprintFacts, IntentsHow, RequestsLog, Shortfall};
use crate::logs::Role;

use super::*;

impl Display for Evidence {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Evidence::RequestsPerDay(p) => p.fmt_with(
                f,
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
            Evidence::TimeoutRate(t) => t.fmt(f),
            Evidence::SucceededShare(s, by) => s.fmt_by(f, by),
            Evidence::Retries { how, proxy, layers } => {
                crate::findings::retries::fmt_evidence(f, how, proxy.as_ref(), layers.as_ref())
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
