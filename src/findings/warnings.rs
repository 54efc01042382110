//! What the reader noticed and the figures may suffer from: the warnings of the findings,
//! found from a [`LogAnalysis`] (a duration's unit nothing says, missing days, a clock
//! running backwards, the backend log's gaps, ...), and their words. `derive` and the
//! retries add the ones they find on the way.

use std::fmt::{self, Display, Formatter};

use serde::{Serialize, Serializer};

use crate::logs::{BadRow, LogAnalysis, MICROS_PER_DAY, Role, date_string};
use crate::words::{count_f, duration_text, plural, plural_verb, seconds_text, unit_names};

/// What the reader noticed and the figures may suffer from.
#[derive(Debug, Clone, PartialEq)]
pub enum Warning {
    /// A server's own log without `--client-timeout`.
    ServerLogNoClientTimeout,
    /// No mutating request in a log with timestamps (the methods counted, joined, and the
    /// span in seconds): requests a day is 0 from a span, the scenario's from none or from
    /// a span shorter than `--min-span`.
    NoMutating {
        methods: String,
        span: f64,
        /// The span is shorter than `--min-span`: requests a day is not the log's 0.
        short: bool,
    },
    /// `--client-timeout` compared with a duration whose unit nothing says: the
    /// file, the field and the unit assumed.
    DurationUnitAssumed {
        file: String,
        field: String,
        unit: &'static str,
    },
    /// `--client-timeout` compared with a duration in milliseconds, assumed, though its values
    /// rule milliseconds out and leave two units (or none): the file, the field and what the
    /// values were.
    DurationUnitImpossible {
        file: String,
        field: String,
        doubt: crate::logs::UnitDoubt,
    },
    /// `--client-timeout` compared with a duration whose unit was inferred from its first
    /// values: the file, the field and what the values were.
    DurationUnitInferred {
        file: String,
        field: String,
        inferred: crate::logs::UnitInference,
    },
    /// Traces with no sampling threshold and no `--sample-rate`: taken as every request.
    Unsampled,
    /// Days without mutating requests inside the span (first and last, as dates).
    MissingDays {
        days: u64,
        first: String,
        last: String,
    },
    /// Timestamps running backwards by more than the retry window (both in seconds).
    Backwards {
        by: f64,
        window: f64,
    },
    /// A key column with no key in it.
    KeylessKeyColumn {
        header: String,
        file: String,
    },
    /// A key column whose keys were each seen once, yet attempts timed out.
    KeysPerAttempt {
        header: String,
        keys: u64,
        timed_out: u64,
    },
    /// The backend's log has no timestamps.
    BackendNoTimestamps {
        files: Vec<String>,
    },
    BackendBadRow(BadRow),
    BackendBadRows {
        rows: u64,
    },
    /// `--preset`'s attempt timeout taken as the client timeout.
    ClientTimeoutFromPreset {
        /// `DUPCOST_PRESET` named the preset, not `--preset`.
        env: bool,
        secs: f64,
        preset: &'static str,
    },
    /// The retry window widened to the schedule's horizon (seconds).
    RetryWindowWidened {
        horizon: f64,
    },
    /// `--follow --window`: the window of log time asked, and the span its rows cover
    /// (seconds) from the first to the last timestamp.
    Window {
        window: std::time::Duration,
        span: f64,
        first: Option<String>,
        last: Option<String>,
    },
    /// Measured by `dupcost sql` (the result's name): a clock running backwards is not seen.
    MeasuredBySql {
        result: String,
    },
    /// A note of the reader on how a result was read, as it wrote it.
    Reader(String),
}

/// Warnings about the log itself: missing days, a clock running backwards, the backend
/// log's gaps.
pub(super) fn warnings(a: &LogAnalysis) -> Vec<Warning> {
    let t = &a.tally;
    let mut out = Vec::new();
    if a.options.client_timeout.is_some() {
        // The timeout is compared with durations in a unit that nothing said: assumed, or
        // inferred from their values.
        for f in &a.files {
            let (file, field) = (
                f.name.clone(),
                f.columns
                    .header_of(Role::Duration)
                    .unwrap_or("duration")
                    .to_string(),
            );
            if let (true, Some(doubt)) = (
                f.columns.duration_unit_assumed,
                &f.columns.duration_unit_doubt,
            ) {
                out.push(Warning::DurationUnitImpossible {
                    file,
                    field,
                    doubt: doubt.clone(),
                });
            } else if f.columns.duration_unit_assumed {
                out.push(Warning::DurationUnitAssumed {
                    file,
                    field,
                    unit: f.columns.duration_unit.name(),
                });
            } else if let Some(inferred) = &f.columns.duration_unit_inferred {
                out.push(Warning::DurationUnitInferred {
                    file,
                    field,
                    inferred: inferred.clone(),
                });
            }
        }
    }
    if a.is_server_log() && a.options.client_timeout.is_none() {
        out.push(Warning::ServerLogNoClientTimeout);
    }
    if a.files.iter().any(|f| {
        f.traces
            .as_ref()
            .is_some_and(|r| r.format.is_some() && !r.sampled())
    }) {
        out.push(Warning::Unsampled);
    }
    if a.has_timestamps() {
        if let (Some(first), Some(last)) = (t.first_ts, t.last_ts) {
            let (d0, d1) = (
                first.div_euclid(MICROS_PER_DAY),
                last.div_euclid(MICROS_PER_DAY),
            );
            let missing: Vec<i64> = (d0 + 1..d1)
                .filter(|d| !t.per_day.contains_key(d))
                .collect();
            if let (Some(lo), Some(hi)) = (missing.first(), missing.last()) {
                out.push(Warning::MissingDays {
                    days: missing.len() as u64,
                    first: date_string(*lo),
                    last: date_string(*hi),
                });
            }
        }
        let window = i64::try_from(a.options.retry_window.as_micros()).unwrap_or(i64::MAX);
        if t.most_backwards > window {
            out.push(Warning::Backwards {
                by: t.most_backwards as f64 / 1e6,
                window: a.options.retry_window.as_secs_f64(),
            });
        }
    }
    if let Some(j) = &a.join {
        if j.span.is_none() {
            out.push(Warning::BackendNoTimestamps {
                files: j.files.clone(),
            });
        }
        out.extend(j.bad_samples.iter().cloned().map(Warning::BackendBadRow));
        if j.backend_bad_rows > j.bad_samples.len() as u64 {
            out.push(Warning::BackendBadRows {
                rows: j.backend_bad_rows,
            });
        }
    }
    out
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_mutating_request_says_what_its_span_makes_of_requests_a_day() {
        let said = |span: f64, short: bool| {
            Warning::NoMutating {
                methods: "POST, PUT".to_string(),
                span,
                short,
            }
            .to_string()
        };
        assert!(said(0.0, true).starts_with(
            "no mutating (POST, PUT) requests in the log, whose timestamps span no time: requests a day is the scenario's, assumed;"
        ));
        assert!(said(1_800.0, true).starts_with(
            "no mutating (POST, PUT) requests in the log's 30m, too short to stand for a day:"
        ));
        assert!(said(3.0 * 86_400.0, false).starts_with(
            "no mutating (POST, PUT) requests in the log's 3 days: requests a day from it is 0, and so is every cost;"
        ));
    }
}
