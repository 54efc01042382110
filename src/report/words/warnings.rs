//! What the figures may suffer from: the warnings and notes of the findings.

use std::fmt::{self, Display, Formatter};

use serde::{Serialize, Serializer};

use crate::findings::evidence::{DuplicatesNote, FewerOutcomes, Gap, Warning};

use super::*;

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
            } => unit_inferred(f, file, field, inferred),
            Warning::DurationUnitImpossible { file, field, doubt } => {
                unit_impossible(f, file, field, doubt)
            }
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
            Warning::NoMutating {
                methods,
                span,
                short,
            } => {
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
                    if *short {
                        format!(
                            "no mutating ({methods}) requests in the log's {span}, too short to stand for a day: requests a day is the scenario's, assumed, within what the log allows"
                        )
                    } else {
                        format!(
                            "no mutating ({methods}) requests in the log's {span}: requests a day from it is 0, and so is every cost"
                        )
                    }
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

/// A duration unit inferred from its values, worded by the rule that read it.
fn unit_inferred(
    f: &mut Formatter<'_>,
    file: &str,
    field: &str,
    inferred: &crate::logs::UnitInference,
) -> fmt::Result {
    if inferred.written_with_s {
        write!(
            f,
            "{file}: its duration field {field} says no unit (neither its name nor a format's documentation): its first {} values ({} to {}) are each written with an s after the number, so they are read as seconds, inferred, when --client-timeout compares with them; if that is wrong, give --duration-unit s, ms, us or ns",
            inferred.values, inferred.min, inferred.max
        )
    } else if let (crate::logs::UnitRule::Span, Some(span)) = (inferred.rule, inferred.span_micros)
    {
        write!(
            f,
            "{file}: its duration field {field} says no unit (neither its name nor a format's documentation): its first {} values ({} to {}, median {}) are whole numbers that fit more than one unit, and in every unit but {} the median request would last longer than the {} its first lines' timestamps span (and a second more), so --client-timeout compares with it as inferred; if that is wrong, give --duration-unit s, ms, us or ns",
            inferred.values,
            inferred.min,
            inferred.max,
            inferred.median,
            inferred.unit.name(),
            duration_text(span as f64 / 1e6)
        )
    } else if inferred.rule == crate::logs::UnitRule::Typical {
        write!(
            f,
            "{file}: its duration field {field} says no unit (neither its name nor a format's documentation): its first {} values ({} to {}, median {}) fit more than one unit, and their typical value reads as {} (fractions with a median under 1, or under 100 written to 6 decimals or more, are seconds; whole numbers with a median up to 100,000 are milliseconds), so --client-timeout compares with it as inferred; if that is wrong, give --duration-unit s, ms, us or ns",
            inferred.values,
            inferred.min,
            inferred.max,
            inferred.median,
            inferred.unit.name()
        )
    } else {
        write!(
            f,
            "{file}: its duration field {field} says no unit (neither its name nor a format's documentation): its first {} values ({} to {}) fit one unit only, {} (a request lasts between 1 µs and a day; µs and ns are written as whole numbers), so --client-timeout compares with it as inferred; if that is wrong, give --duration-unit s, ms, us or ns",
            inferred.values,
            inferred.min,
            inferred.max,
            inferred.unit.name()
        )
    }
}

/// Milliseconds, assumed, that the values rule out: what they would mean, what is left.
fn unit_impossible(
    f: &mut Formatter<'_>,
    file: &str,
    field: &str,
    doubt: &crate::logs::UnitDoubt,
) -> fmt::Result {
    let as_ms = duration_text(doubt.median_as_ms_s as f64);
    let why = match doubt.span_micros {
        Some(span) => format!(
            "the median request would last {as_ms}, longer than the {} its first lines' timestamps span (and a second more)",
            duration_text(span as f64 / 1e6)
        ),
        None => format!(
            "some request would last over a day (the median {as_ms}), and these are whole numbers"
        ),
    };
    let left = match doubt.units.as_slice() {
        [] => "no unit puts the median within that span either".to_string(),
        units => format!(
            "as {} each fits, and nothing tells which",
            unit_names(units).replace("us", "µs")
        ),
    };
    write!(
        f,
        "{file}: its duration field {field} says no unit (neither its name nor a format's documentation), and its first {} values ({} to {}, median {}) cannot be milliseconds: as ms {why}; {left}. They are read as ms, assumed, which they cannot be, and --client-timeout compares with that: give --duration-unit {}",
        doubt.values,
        doubt.min,
        doubt.max,
        doubt.median,
        unit_names(&doubt.units)
    )
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
                seen,
                predicted,
                interval,
                fingerprint,
            } => {
                let mut why = Vec::new();
                // What would show the duplicates the log cannot.
                let mut show = Vec::new();
                if let Some((n, per_day)) = conflicts {
                    why.push(format!(
                        "{} refused by a uniqueness check (409 or 422) did not execute twice ({} a day with them)",
                        plural(*n, "retried intent"),
                        count_f(*per_day)
                    ));
                }
                match outcomes {
                    FewerOutcomes::NoUpstream => {
                        why.push("the log has no upstream status (or --outcomes) to show what a timed-out attempt did".to_string());
                        show.push("an upstream status (--log-format or --column upstream_status=NAME) or the backend's own log (--outcomes FILE) would show which timed-out attempts executed");
                    }
                    FewerOutcomes::Unknown(n) => {
                        why.push(format!(
                            "{} with an unknown outcome cannot count",
                            plural(*n, "timed-out attempt")
                        ));
                        show.push("the backend's own log (--outcomes FILE) would tell the unknown outcomes");
                    }
                    FewerOutcomes::Known => {}
                }
                if *fingerprint {
                    why.push(
                        "without idempotency keys, retries sent from another address or after --retry-window are not grouped"
                            .to_string(),
                    );
                    show.push("a logged idempotency key (--column idempotency_key=NAME) would group retries from any address");
                } else {
                    why.push(
                        "retries sent from another address or after --retry-window are not grouped"
                            .to_string(),
                    );
                }
                show.push("a longer --retry-window would group later retries");
                write!(
                    f,
                    "fewer duplicates are seen ({} a day) than the model predicts ({} a day, 95%: {} to {}) because {}; {}",
                    count_f(*seen),
                    count_f(*predicted),
                    count_f(interval[0]),
                    count_f(interval[1]),
                    why.join("; "),
                    show.join(", and ")
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
