//! From a finished [`Tally`](super::Tally) to the model's inputs, each with the rows behind it (MODEL.md,
//! "From access logs").
//!
//! * requests_per_day = intents / days covered (the span between the first and last
//!   timestamp, as a float). Rows sharing an idempotency key are one intent; without a key
//!   column every mutating attempt is an intent.
//! * timeout_rate = timed-out mutating attempts / mutating attempts.
//! * succeeded_share = timed-out attempts whose upstream status is 2xx / timed-out attempts.
//! * retries = the most attempts seen for one keyed intent, minus one, clamped to 0..=100:
//!   the retry budget the clients showed (an intent retried until it gave up shows all of
//!   it). Without keys, retries come from the scenario (flag, file or default).
//! * body_bytes = the mean size of the 2xx mutating responses, when the log has a `bytes`
//!   column: the body a key store would save. Without one, it comes from the scenario.
//!
//! A figure the log cannot give is an error naming the flag that supplies it, unless that
//! flag was given; a given flag always wins over the measured figure.

use serde::Serialize;

use super::LogAnalysis;
use super::error::LogError;
use super::timestamp::{MICROS_PER_DAY, date_string, to_rfc3339};
use crate::model::{Estimate, Scenario};
use crate::units::Rate;

/// Inputs given explicitly (by flag): they win over what the log says.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Overrides {
    pub requests_per_day: Option<f64>,
    pub timeout_rate: Option<f64>,
    pub succeeded_share: Option<f64>,
    pub retries: Option<u32>,
    pub body_bytes: Option<u64>,
}

/// One model input as the logs gave it, with its evidence.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Measured {
    /// The input's JSON name (`timeout_rate`).
    pub input: &'static str,
    /// The flag that overrides it (`--timeout-rate`).
    pub flag: &'static str,
    /// The value used by the model.
    pub value: f64,
    /// The value measured from the log, when it could be.
    pub measured: Option<f64>,
    /// The value came from the flag (or, for retries without keys, the scenario).
    pub from_flag: bool,
    /// How it was obtained, e.g. `timeout rate 1.94% = 662 timed out / 34,094 mutating attempts`.
    pub evidence: String,
}

/// The scenario for the model, its measured inputs, and the observed figures.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Derived {
    pub scenario: Scenario,
    pub measured: Vec<Measured>,
    pub observed: Observed,
}

/// The `observed` object of the JSON report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Observed {
    pub rows: u64,
    pub mutating_attempts: u64,
    pub intents: u64,
    pub timed_out: u64,
    /// `null` when the logs have no upstream status column.
    pub timed_out_succeeded: Option<u64>,
    /// `null` without timestamps.
    pub days_covered: Option<f64>,
    pub first_timestamp: Option<String>,
    pub last_timestamp: Option<String>,
    pub bad_rows: u64,
    pub per_day: Vec<DayRow>,
    /// Retries (attempts - 1) per keyed intent; `null` when no keys were logged.
    pub retries_observed: Option<RetriesObserved>,
    /// The top 10 endpoints by estimated duplicates a month.
    pub per_endpoint: Vec<EndpointRow>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DayRow {
    pub date: String,
    pub mutating: u64,
    pub timed_out: u64,
    pub timed_out_succeeded: Option<u64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct RetriesObserved {
    /// Mean retries per keyed intent (mean attempts - 1).
    pub mean: f64,
    /// Most retries of one keyed intent (most attempts - 1).
    pub max: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EndpointRow {
    pub method: String,
    pub route: String,
    pub mutating: u64,
    pub timed_out: u64,
    pub timed_out_succeeded: Option<u64>,
    pub duplicates_per_month: f64,
    pub refund_per_month: f64,
}

/// The most retries the model accepts (MODEL.md: integer 0..=100).
const MAX_RETRIES: u32 = 100;

/// How many endpoints the report lists.
pub const TOP_ENDPOINTS: usize = 10;

impl LogAnalysis {
    /// Days the log covers (timestamp span), or `None` without timestamps or rows.
    pub fn days_covered(&self) -> Option<f64> {
        if !self.has_timestamps() {
            return None;
        }
        let (first, last) = (self.tally.first_ts?, self.tally.last_ts?);
        Some((last - first) as f64 / MICROS_PER_DAY as f64)
    }

    /// The model's scenario from `base` (the inputs the log cannot give) and the log, with
    /// `given` inputs winning over measured ones.
    pub fn derive(&self, base: &Scenario, given: &Overrides) -> Result<Derived, LogError> {
        let t = &self.tally;
        let c = t.counts;
        let methods = self.options.methods.join(", ");
        let no_mutating = || format!("no mutating ({methods}) requests in the log");
        let days = self.days_covered();

        // requests_per_day
        let intents_text = if t.keyed.intents == 0 {
            format!(
                "{} intents (no idempotency keys: each mutating attempt is an intent)",
                count(t.intents())
            )
        } else if t.unkeyed_intents == 0 {
            format!(
                "{} intents (grouped by idempotency key)",
                count(t.intents())
            )
        } else {
            format!(
                "{} intents ({} keyed + {} attempts without a key)",
                count(t.intents()),
                count(t.keyed.intents),
                count(t.unkeyed_intents)
            )
        };
        let n_measured = match days {
            _ if c.mutating == 0 => Err(no_mutating()),
            None => Err("the log has no timestamp column".to_string()),
            Some(d) if d <= 0.0 => {
                Err("the log's timestamps span no time (first = last)".to_string())
            }
            Some(d) => Ok(t.intents() as f64 / d),
        };
        let n = pick(
            "requests_per_day",
            "--requests-per-day",
            "requests a day",
            given.requests_per_day,
            n_measured,
            |v| {
                format!(
                    "requests a day {} = {intents_text} / {:.2} days",
                    count_f(v),
                    days.unwrap_or(0.0)
                )
            },
            |v| format!("requests a day {}", count_f(v)),
        )?;

        // timeout_rate
        let t_measured = if c.mutating == 0 {
            Err(no_mutating())
        } else {
            Ok(c.timed_out as f64 / c.mutating as f64)
        };
        let statuses: Vec<String> = self
            .options
            .timeout_statuses
            .iter()
            .map(u16::to_string)
            .collect();
        let also = self
            .options
            .client_timeout
            .map(|d| format!(" or took {}s or more", d.as_secs_f64()))
            .unwrap_or_default();
        let to = pick(
            "timeout_rate",
            "--timeout-rate",
            "timeout rate",
            given.timeout_rate,
            t_measured,
            |v| {
                format!(
                    "timeout rate {} = {} timed out (status {}{also}) / {} mutating attempts",
                    Rate(v).rounded(),
                    count(c.timed_out),
                    statuses.join(", "),
                    count(c.mutating)
                )
            },
            |v| format!("timeout rate {}", Rate(v).rounded()),
        )?;

        // succeeded_share
        let s_measured = if !self.has_upstream() {
            let file = self
                .files
                .iter()
                .find(|f| f.columns.upstream_status.is_none())
                .map_or("the log".to_string(), |f| f.name.clone());
            Err(format!(
                "{file} has no upstream status column (map one with --column upstream_status=HEADER)"
            ))
        } else if c.mutating == 0 {
            Err(no_mutating())
        } else if c.timed_out == 0 {
            Err("no timed-out mutating requests in the log".to_string())
        } else {
            Ok(c.timed_out_succeeded as f64 / c.timed_out as f64)
        };
        let s = pick(
            "succeeded_share",
            "--succeeded-share",
            "the succeeded share",
            given.succeeded_share,
            s_measured,
            |v| {
                format!(
                    "succeeded share {} = {} with upstream 2xx / {} timed out",
                    Rate(v).rounded(),
                    count(c.timed_out_succeeded),
                    count(c.timed_out)
                )
            },
            |v| format!("succeeded share {}", Rate(v).rounded()),
        )?;

        // retries
        let retries_observed = (t.keyed.intents > 0).then(|| RetriesObserved {
            mean: t.keyed.attempts as f64 / t.keyed.intents as f64 - 1.0,
            max: t.keyed.max_attempts.saturating_sub(1),
        });
        let r = match (given.retries, retries_observed) {
            (Some(r), obs) => Measured {
                input: "retries",
                flag: "--retries",
                value: f64::from(r),
                measured: obs.map(|o| f64::from(o.max.min(MAX_RETRIES))),
                from_flag: true,
                evidence: format!(
                    "retries {r} from --retries{}",
                    obs.map(|o| format!(" (measured: {})", retries_text(o, t.keyed.intents)))
                        .unwrap_or_default()
                ),
            },
            (None, Some(o)) => {
                let r = o.max.min(MAX_RETRIES);
                Measured {
                    input: "retries",
                    flag: "--retries",
                    value: f64::from(r),
                    measured: Some(f64::from(r)),
                    from_flag: false,
                    evidence: format!(
                        "retries {r} = {}{}",
                        retries_text(o, t.keyed.intents),
                        self.key_caveat(o)
                    ),
                }
            }
            (None, None) => Measured {
                input: "retries",
                flag: "--retries",
                value: f64::from(base.retries),
                measured: None,
                from_flag: true,
                evidence: format!(
                    "retries {} from the scenario (--retries): no idempotency keys in the log, so attempts per intent are not known",
                    base.retries
                ),
            },
        };

        // body_bytes: the mean response of 2xx mutating requests, when the log has sizes.
        let body = t.response_bytes.mean().map(|mean| {
            let text = |v: f64| crate::report::human::size(v);
            let rows = count(t.response_bytes.rows);
            match given.body_bytes {
                Some(b) => Measured {
                    input: "body_bytes",
                    flag: "--body-bytes",
                    value: b as f64,
                    measured: Some(mean.round()),
                    from_flag: true,
                    evidence: format!(
                        "saved body {} from --body-bytes (measured: mean of {rows} 2xx mutating responses, {})",
                        text(b as f64),
                        text(mean)
                    ),
                },
                None => Measured {
                    input: "body_bytes",
                    flag: "--body-bytes",
                    value: mean.round(),
                    measured: Some(mean.round()),
                    from_flag: false,
                    evidence: format!(
                        "saved body {} = mean response size of {rows} 2xx mutating requests",
                        text(mean)
                    ),
                },
            }
        });

        let scenario = Scenario {
            requests_per_day: n.value,
            timeout_rate: to.value,
            succeeded_share: s.value,
            retries: r.value as u32,
            body_bytes: body.as_ref().map_or(base.body_bytes, |b| b.value as u64),
            ..*base
        };
        let observed = self.observed(&scenario, retries_observed);
        let mut measured = vec![n, to, s, r];
        measured.extend(body);
        Ok(Derived {
            scenario,
            measured,
            observed,
        })
    }

    /// The observed figures; per-endpoint estimates use `scenario` for the inputs an
    /// endpoint does not measure itself.
    pub fn observed(
        &self,
        scenario: &Scenario,
        retries_observed: Option<RetriesObserved>,
    ) -> Observed {
        let t = &self.tally;
        let upstream = self.has_upstream();
        let succ = |v: u64| upstream.then_some(v);
        let days = self.days_covered().filter(|d| *d > 0.0);
        let stamps = self.has_timestamps();
        let mut endpoints: Vec<EndpointRow> = t
            .endpoints
            .values()
            .filter(|e| e.counts.mutating > 0)
            .map(|e| {
                let ec = e.counts;
                let n = match days {
                    Some(d) => e.intents as f64 / d,
                    None if t.intents() > 0 => {
                        scenario.requests_per_day * e.intents as f64 / t.intents() as f64
                    }
                    None => 0.0,
                };
                let est = Estimate::new(Scenario {
                    requests_per_day: n,
                    timeout_rate: ec.timed_out as f64 / ec.mutating as f64,
                    succeeded_share: if upstream && ec.timed_out > 0 {
                        ec.timed_out_succeeded as f64 / ec.timed_out as f64
                    } else {
                        scenario.succeeded_share
                    },
                    ..*scenario
                });
                EndpointRow {
                    method: e.method.clone(),
                    route: e.route.clone(),
                    mutating: ec.mutating,
                    timed_out: ec.timed_out,
                    timed_out_succeeded: succ(ec.timed_out_succeeded),
                    duplicates_per_month: est.duplicates.per_month,
                    refund_per_month: est.refund_cost.per_month,
                }
            })
            .collect();
        endpoints.sort_by(|a, b| {
            b.duplicates_per_month
                .total_cmp(&a.duplicates_per_month)
                .then(b.mutating.cmp(&a.mutating))
                .then_with(|| (&a.route, &a.method).cmp(&(&b.route, &b.method)))
        });
        endpoints.truncate(TOP_ENDPOINTS);
        Observed {
            rows: t.rows,
            mutating_attempts: t.counts.mutating,
            intents: t.intents(),
            timed_out: t.counts.timed_out,
            timed_out_succeeded: succ(t.counts.timed_out_succeeded),
            days_covered: self.days_covered(),
            first_timestamp: t.first_ts.filter(|_| stamps).map(to_rfc3339),
            last_timestamp: t.last_ts.filter(|_| stamps).map(to_rfc3339),
            bad_rows: t.bad_rows,
            per_day: if stamps {
                t.per_day
                    .iter()
                    .map(|(day, c)| DayRow {
                        date: date_string(*day),
                        mutating: c.mutating,
                        timed_out: c.timed_out,
                        timed_out_succeeded: succ(c.timed_out_succeeded),
                    })
                    .collect()
            } else {
                Vec::new()
            },
            retries_observed,
            per_endpoint: endpoints,
        }
    }
}

impl LogAnalysis {
    /// A warning when the observed retries may say more about the key column than about the
    /// clients: a per-request id (`request_id`) is new on every attempt, so no retry shows.
    fn key_caveat(&self, o: RetriesObserved) -> String {
        let per_request = self.files.iter().any(|f| {
            f.columns
                .header_of(super::Role::IdempotencyKey)
                .is_some_and(|h| super::columns::normalize(h.as_bytes()).ends_with("requestid"))
        });
        if o.max == 0 && self.tally.counts.timed_out > 0 {
            if per_request {
                "; the key column is a request id, new on every attempt: give --retries".into()
            } else {
                "; no timed-out intent was retried with its key: if clients retry with a new key, give --retries".into()
            }
        } else {
            String::new()
        }
    }
}

fn retries_text(o: RetriesObserved, intents: u64) -> String {
    let clamp = if o.max > MAX_RETRIES {
        format!(", clamped to {MAX_RETRIES}")
    } else {
        String::new()
    };
    format!(
        "most attempts for one intent - 1 (mean {:.3} retries over {} keyed intents{clamp})",
        o.mean,
        count(intents)
    )
}

/// The measured value, or the flag's, or the error naming the flag.
#[allow(clippy::too_many_arguments)]
fn pick(
    input: &'static str,
    flag: &'static str,
    figure: &'static str,
    given: Option<f64>,
    measured: Result<f64, String>,
    evidence: impl Fn(f64) -> String,
    plain: impl Fn(f64) -> String,
) -> Result<Measured, LogError> {
    match (given, measured) {
        (Some(v), m) => Ok(Measured {
            input,
            flag,
            value: v,
            measured: m.as_ref().ok().copied(),
            from_flag: true,
            evidence: match m {
                Ok(m) => format!("{} from {flag} (measured: {})", plain(v), evidence(m)),
                Err(why) => format!("{} from {flag} ({why})", plain(v)),
            },
        }),
        (None, Ok(v)) => Ok(Measured {
            input,
            flag,
            value: v,
            measured: Some(v),
            from_flag: false,
            evidence: evidence(v),
        }),
        (None, Err(reason)) => Err(LogError::Underivable {
            figure,
            reason,
            flag,
        }),
    }
}

/// `34,094`.
pub fn count(n: u64) -> String {
    crate::report::human::group_thousands(&n.to_string())
}

/// A rate a day: whole with separators from 100 up, else 3 significant figures.
fn count_f(v: f64) -> String {
    if v >= 100.0 {
        count(v.round() as u64)
    } else {
        format!("{}", (v * 100.0).round() / 100.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands() {
        assert_eq!(count(0), "0");
        assert_eq!(count(999), "999");
        assert_eq!(count(34_094), "34,094");
        assert_eq!(count(1_234_567), "1,234,567");
    }
}
