//! The metrics of a followed log (`dupcost logs FILE --follow --metrics ADDR`): the logs
//! report as Prometheus series, in the Prometheus text format (0.0.4) or OpenMetrics.
//!
//! An [`Exposition`] is built once a tick from the same [`LogsReport`] that `--format json`
//! serializes, so every value is a figure of that report, bit for bit: the table of names
//! and the JSON fields they carry is in `docs/METRICS.md`. Names are a contract: add, never
//! rename or drop. The encoding is prometheus-client's, through a [`Collector`] that reads
//! the finished exposition; nothing here is registered or updated between ticks.

use std::sync::Arc;

use prometheus_client::collector::Collector;
use prometheus_client::encoding::{DescriptorEncoder, EncodeMetric, MetricEncoder};
use prometheus_client::metrics::MetricType;
use prometheus_client::metrics::counter::ConstCounter;
use prometheus_client::metrics::gauge::ConstGauge;
use prometheus_client::registry::Registry;

use super::model::LogsReport;

/// The content type of the Prometheus text format.
pub const TEXT_CONTENT_TYPE: &str = prometheus_client::encoding::prometheus_text::CONTENT_TYPE;
/// The content type of OpenMetrics' text format.
pub const OPENMETRICS_CONTENT_TYPE: &str =
    "application/openmetrics-text; version=1.0.0; charset=utf-8";

/// The label of the endpoints past the top ones, summed (`method="other",route="other"`).
pub const OTHER: &str = "other";

/// Which text format a scraper gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// The Prometheus text format, version 0.0.4.
    Text,
    /// OpenMetrics 1.0 text.
    OpenMetrics,
}

impl Format {
    /// OpenMetrics when the scraper's `Accept` header names it (Prometheus's own scraper
    /// does), else the Prometheus text format.
    pub fn negotiate(accept: Option<&str>) -> Format {
        match accept {
            Some(a) if a.contains("application/openmetrics-text") => Format::OpenMetrics,
            _ => Format::Text,
        }
    }

    pub fn content_type(self) -> &'static str {
        match self {
            Format::Text => TEXT_CONTENT_TYPE,
            Format::OpenMetrics => OPENMETRICS_CONTENT_TYPE,
        }
    }
}

/// What a metric is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Gauge,
    /// Exposed with `_total` after its name.
    Counter,
    /// Exposed with `_info` after its name, the value 1: its labels are the information.
    Info,
}

/// A sample's value: counts stay integers in the exposition.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Value {
    Count(u64),
    Real(f64),
}

impl Value {
    pub fn as_f64(self) -> f64 {
        match self {
            Value::Count(n) => n as f64,
            Value::Real(v) => v,
        }
    }
}

/// One series: its labels and value.
#[derive(Debug, Clone, PartialEq)]
pub struct Sample {
    pub labels: Vec<(&'static str, String)>,
    pub value: Value,
}

/// A metric family: a name, its help, its kind and its series.
#[derive(Debug, Clone, PartialEq)]
pub struct Family {
    /// The name without the suffix the kind adds (`dupcost_rows` for `dupcost_rows_total`).
    pub name: &'static str,
    pub help: &'static str,
    pub kind: Kind,
    pub samples: Vec<Sample>,
}

impl Family {
    /// The name a query uses: with `_total` for a counter, `_info` for an info.
    pub fn series_name(&self) -> String {
        match self.kind {
            Kind::Gauge => self.name.to_string(),
            Kind::Counter => format!("{}_total", self.name),
            Kind::Info => format!("{}_info", self.name),
        }
    }
}

/// The follower's state that a tick adds to the report.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FollowFigures {
    /// Rows read since the follower started (`follow.rows_read`).
    pub rows_read: u64,
    /// `--window`, in seconds.
    pub window_seconds: Option<f64>,
}

/// Every family of one tick, in the order they are exposed.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Exposition {
    pub families: Vec<Family>,
}

fn gauge(name: &'static str, help: &'static str, value: Value) -> Family {
    labelled(name, help, vec![(Vec::new(), value)])
}

fn labelled(
    name: &'static str,
    help: &'static str,
    samples: Vec<(Vec<(&'static str, String)>, Value)>,
) -> Family {
    Family {
        name,
        help,
        kind: Kind::Gauge,
        samples: samples
            .into_iter()
            .map(|(labels, value)| Sample { labels, value })
            .collect(),
    }
}

fn bounds(
    name: &'static str,
    help: &'static str,
    [low, high]: [f64; 2],
    extra: &[(&'static str, String)],
) -> Family {
    let with = |bound: &str| {
        let mut labels = vec![("bound", bound.to_string())];
        labels.extend(extra.iter().cloned());
        labels
    };
    labelled(
        name,
        help,
        vec![
            (with("lower"), Value::Real(low)),
            (with("upper"), Value::Real(high)),
        ],
    )
}

impl Exposition {
    /// The exposition of one tick: the follower's own figures, and the report's when the log
    /// gave one (`report` is `None` while the follower waits for enough of the log).
    pub fn new(report: Option<&LogsReport>, follow: FollowFigures, currency: &str) -> Exposition {
        let mut families = vec![
            Family {
                name: "dupcost_rows",
                help: "Rows read since the follower started (observed.rows of the batch report without --window)",
                kind: Kind::Counter,
                samples: vec![Sample {
                    labels: Vec::new(),
                    value: Value::Count(follow.rows_read),
                }],
            },
            gauge(
                "dupcost_report_waiting",
                "1 while the log cannot give a report yet (no mutating request, a span too short to scale to a day): the report's series are absent until then",
                Value::Count(u64::from(report.is_none())),
            ),
        ];
        if let Some(w) = follow.window_seconds {
            families.push(gauge(
                "dupcost_window_seconds",
                "--window: the log time the report covers, up to the latest line",
                Value::Real(w),
            ));
        }
        if let Some(r) = report {
            families.extend(report_families(r, currency));
        }
        Exposition { families }
    }

    /// The family named `name` (without a counter's `_total`).
    pub fn family(&self, name: &str) -> Option<&Family> {
        self.families.iter().find(|f| f.name == name)
    }

    /// The exposition as `format`'s text.
    pub fn encode(self: &Arc<Self>, format: Format) -> String {
        let mut registry = Registry::default();
        registry.register_collector(Box::new(Collect(Arc::clone(self))));
        let mut out = String::new();
        // Writing into a String cannot fail, and every name and label is valid.
        let _ = match format {
            Format::Text => {
                prometheus_client::encoding::prometheus_text::encode(&mut out, &registry)
            }
            Format::OpenMetrics => prometheus_client::encoding::text::encode(&mut out, &registry),
        };
        out
    }
}

/// The report's families, in the order of the JSON report's fields.
fn report_families(r: &LogsReport, currency: &str) -> Vec<Family> {
    let e = r.estimate;
    let o = r.observed;
    let money = || vec![("currency", currency.to_string())];
    let mut families = vec![
        gauge(
            "dupcost_requests_per_day",
            "Mutating intents a day (inputs.requests_per_day)",
            Value::Real(e.inputs.requests_per_day),
        ),
        gauge(
            "dupcost_timeout_ratio",
            "Share of mutating attempts that timed out (inputs.timeout_rate)",
            Value::Real(e.inputs.timeout_rate),
        ),
        gauge(
            "dupcost_succeeded_share_ratio",
            "Share of timed-out attempts the server had done (inputs.succeeded_share)",
            Value::Real(e.inputs.succeeded_share),
        ),
        gauge(
            "dupcost_retries",
            "Retries a client makes after the first attempt (inputs.retries)",
            Value::Count(u64::from(e.inputs.retries)),
        ),
        gauge(
            "dupcost_key_ttl_seconds",
            "How long an idempotency key is kept (inputs.ttl_seconds)",
            Value::Count(e.inputs.ttl_seconds),
        ),
        gauge(
            "dupcost_duplicates_per_day",
            "Duplicate executions a day without idempotency keys (duplicates.per_day)",
            Value::Real(e.duplicates.per_day),
        ),
        gauge(
            "dupcost_duplicates_per_month",
            "Duplicate executions a month without idempotency keys (duplicates.per_month)",
            Value::Real(e.duplicates.per_month),
        ),
        gauge(
            "dupcost_duplicates_with_key_store_per_day",
            "Duplicates a day left with the key store: late retries past the key TTL (duplicates.with_key_store.per_day)",
            Value::Real(e.duplicates.with_key_store.per_day),
        ),
        labelled(
            "dupcost_refunds_per_month",
            "What refunding a month's duplicates costs (refund_cost.per_month)",
            vec![(money(), Value::Real(e.refund_cost.per_month))],
        ),
        labelled(
            "dupcost_refunds_per_year",
            "What refunding a year's duplicates costs (refund_cost.per_year)",
            vec![(money(), Value::Real(e.refund_cost.per_year))],
        ),
        gauge(
            "dupcost_key_store_bytes",
            "The key store's size, flat per key: live keys x key size (key_store.bytes)",
            Value::Real(e.key_store.bytes),
        ),
        labelled(
            "dupcost_key_store_model_bytes",
            "The key store's size in each backend's byte model (key_store.by_store)",
            vec![
                (
                    vec![("store", "bytes".to_string())],
                    Value::Real(e.key_store.by_store.bytes),
                ),
                (
                    vec![("store", "redis".to_string())],
                    Value::Real(e.key_store.by_store.redis),
                ),
                (
                    vec![("store", "postgres".to_string())],
                    Value::Real(e.key_store.by_store.postgres),
                ),
            ],
        ),
        gauge(
            "dupcost_key_store_live_keys",
            "Keys alive at once in the key store (key_store.live_keys)",
            Value::Real(e.key_store.live_keys),
        ),
        gauge(
            "dupcost_retry_horizon_seconds",
            "How long after the first attempt the last retry can come, worst case (retry_horizon_seconds)",
            Value::Real(e.retry_horizon_seconds),
        ),
        gauge(
            "dupcost_mutating_attempts",
            "Mutating attempts in the report's lines (observed.mutating_attempts)",
            Value::Count(o.mutating_attempts),
        ),
        gauge(
            "dupcost_timed_out_attempts",
            "Mutating attempts that timed out (observed.timed_out)",
            Value::Count(o.timed_out),
        ),
        gauge(
            "dupcost_intents",
            "Intents the attempts were grouped into (observed.intents)",
            Value::Count(o.intents),
        ),
    ];
    if let Some(days) = o.days_covered {
        families.push(gauge(
            "dupcost_days_covered",
            "Days between the first and the last timestamp (observed.days_covered)",
            Value::Real(days),
        ));
    }
    if let Some(k) = &o.key_coverage {
        families.push(gauge(
            "dupcost_keyed_attempts",
            "Mutating attempts that carried an idempotency key (observed.key_coverage.keyed_attempts)",
            Value::Count(k.keyed_attempts),
        ));
    }
    // A name of the contract, so always there: NaN where the report has null (no key column,
    // attempts grouped by fingerprint), which no comparison and no alert takes for a share.
    families.push(gauge(
        "dupcost_key_coverage_ratio",
        "Share of mutating attempts that carried an idempotency key (observed.key_coverage.share; NaN where it is null: no key column)",
        Value::Real(o.key_coverage.as_ref().map_or(f64::NAN, |k| k.share)),
    ));
    families.extend(endpoint_families(r, currency));
    let i = r.intervals;
    families.extend([
        bounds(
            "dupcost_interval_requests_per_day",
            "95% interval of requests a day (intervals.requests_per_day)",
            i.requests_per_day,
            &[],
        ),
        bounds(
            "dupcost_interval_timeout_ratio",
            "95% interval of the timeout rate (intervals.timeout_rate)",
            i.timeout_rate,
            &[],
        ),
        bounds(
            "dupcost_interval_succeeded_share_ratio",
            "95% interval of the succeeded share (intervals.succeeded_share)",
            i.succeeded_share,
            &[],
        ),
        bounds(
            "dupcost_interval_duplicates_per_month",
            "95% interval of duplicates a month (intervals.duplicates_per_month)",
            i.duplicates_per_month,
            &[],
        ),
        bounds(
            "dupcost_interval_refunds_per_month",
            "95% interval of refunds a month (intervals.refund_cost_per_month)",
            i.refund_cost_per_month,
            &money(),
        ),
    ]);
    families.push(Family {
        name: "dupcost_input",
        help: "Where each model input came from: kind measured, given or assumed, and its origin (input_kinds)",
        kind: Kind::Info,
        samples: r
            .inputs
            .iter()
            .map(|row| Sample {
                labels: vec![
                    ("input", row.input.json_name().to_string()),
                    ("kind", json_word(&row.kind.kind)),
                    ("origin", json_word(&row.kind.origin)),
                ],
                value: Value::Count(1),
            })
            .collect(),
    });
    families
}

/// A unit enum as the JSON report writes it (`measured`, `log`).
fn json_word<T: serde::Serialize>(value: &T) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(s)) => s,
        _ => String::new(),
    }
}

/// The endpoints of `observed.per_endpoint` (the top ones by duplicates a month), each with
/// `method` and `route` labels, and the rest summed under `other` where a sum means something
/// (counts and key coverage; a per-endpoint estimate is the model of that endpoint's own
/// inputs, and the rest's estimates are not in the report).
fn endpoint_families(r: &LogsReport, currency: &str) -> Vec<Family> {
    let o = r.observed;
    let top = &o.per_endpoint;
    let labels = |method: &str, route: &str| {
        vec![("method", method.to_string()), ("route", route.to_string())]
    };
    let rest_mutating = o
        .mutating_attempts
        .saturating_sub(top.iter().map(|e| e.mutating).sum());
    let rest_timed_out = o
        .timed_out
        .saturating_sub(top.iter().map(|e| e.timed_out).sum());
    let other = rest_mutating > 0;
    let counts = |f: &dyn Fn(&crate::findings::EndpointRow) -> u64, rest: u64| {
        let mut samples: Vec<_> = top
            .iter()
            .map(|e| (labels(&e.method, &e.route), Value::Count(f(e))))
            .collect();
        if other {
            samples.push((labels(OTHER, OTHER), Value::Count(rest)));
        }
        samples
    };
    let mut families = vec![
        labelled(
            "dupcost_endpoint_mutating_attempts",
            "Mutating attempts of an endpoint (observed.per_endpoint[].mutating; other: the rest)",
            counts(&|e| e.mutating, rest_mutating),
        ),
        labelled(
            "dupcost_endpoint_timed_out_attempts",
            "Timed-out attempts of an endpoint (observed.per_endpoint[].timed_out; other: the rest)",
            counts(&|e| e.timed_out, rest_timed_out),
        ),
        labelled(
            "dupcost_endpoint_duplicates_per_month",
            "Duplicates a month of an endpoint, from its own inputs (observed.per_endpoint[].duplicates_per_month)",
            top.iter()
                .map(|e| {
                    (
                        labels(&e.method, &e.route),
                        Value::Real(e.duplicates_per_month),
                    )
                })
                .collect(),
        ),
        labelled(
            "dupcost_endpoint_refunds_per_month",
            "Refunds a month of an endpoint, from its own inputs (observed.per_endpoint[].refund_per_month)",
            top.iter()
                .map(|e| {
                    let mut l = labels(&e.method, &e.route);
                    l.push(("currency", currency.to_string()));
                    (l, Value::Real(e.refund_per_month))
                })
                .collect(),
        ),
    ];
    if let Some(k) = &o.key_coverage {
        let ratio = |keyed: u64, mutating: u64| keyed as f64 / mutating as f64;
        let mut samples: Vec<_> = top
            .iter()
            .map(|e| {
                (
                    labels(&e.method, &e.route),
                    Value::Real(ratio(e.keyed_attempts, e.mutating)),
                )
            })
            .collect();
        if other {
            let rest_keyed = k
                .keyed_attempts
                .saturating_sub(top.iter().map(|e| e.keyed_attempts).sum());
            samples.push((
                labels(OTHER, OTHER),
                Value::Real(ratio(rest_keyed, rest_mutating)),
            ));
        }
        families.push(labelled(
            "dupcost_endpoint_key_coverage_ratio",
            "Share of an endpoint's mutating attempts that carried a key (observed.key_coverage.per_endpoint[].share, 1 where it is not listed)",
            samples,
        ));
    }
    families
}

/// The encoder's view of an exposition.
#[derive(Debug)]
struct Collect(Arc<Exposition>);

impl Collector for Collect {
    fn encode(&self, mut encoder: DescriptorEncoder) -> Result<(), std::fmt::Error> {
        for family in &self.0.families {
            let metric_type = match family.kind {
                Kind::Gauge => MetricType::Gauge,
                Kind::Counter => MetricType::Counter,
                Kind::Info => MetricType::Info,
            };
            let mut metric =
                encoder.encode_descriptor(family.name, family.help, None, metric_type)?;
            if let [only] = family.samples.as_slice() {
                if only.labels.is_empty() {
                    put(metric, family.kind, only.value)?;
                    continue;
                }
            }
            for sample in &family.samples {
                if family.kind == Kind::Info {
                    metric.encode_info(&sample.labels)?;
                } else {
                    put(
                        metric.encode_family(&sample.labels)?,
                        family.kind,
                        sample.value,
                    )?;
                }
            }
        }
        Ok(())
    }
}

/// One sample's value into its encoder.
fn put(encoder: MetricEncoder, kind: Kind, value: Value) -> Result<(), std::fmt::Error> {
    match (kind, value) {
        (Kind::Counter, Value::Count(n)) => ConstCounter::new(n).encode(encoder),
        (Kind::Counter, Value::Real(v)) => ConstCounter::new(v).encode(encoder),
        (_, Value::Count(n)) => {
            ConstGauge::new(i64::try_from(n).unwrap_or(i64::MAX)).encode(encoder)
        }
        (_, Value::Real(v)) => ConstGauge::new(v).encode(encoder),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openmetrics_only_when_asked_for() {
        assert_eq!(Format::negotiate(None), Format::Text);
        assert_eq!(Format::negotiate(Some("text/plain")), Format::Text);
        assert_eq!(
            Format::negotiate(Some(
                "application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5"
            )),
            Format::OpenMetrics
        );
    }

    #[test]
    fn waiting_exposes_the_follower_only() {
        let e = Exposition::new(
            None,
            FollowFigures {
                rows_read: 7,
                window_seconds: Some(3600.0),
            },
            "$",
        );
        let text = Arc::new(e).encode(Format::Text);
        assert_eq!(
            text.lines()
                .filter(|l| !l.starts_with('#'))
                .collect::<Vec<_>>(),
            [
                "dupcost_rows_total 7",
                "dupcost_report_waiting 1",
                "dupcost_window_seconds 3600.0"
            ]
        );
    }

    proptest::proptest! {
        /// Every finite value reads back as the same double in both formats: the exposition
        /// carries the report's figures to the last bit.
        #[test]
        fn values_read_back_to_the_same_bits(bits in proptest::prelude::any::<u64>()) {
            let v = f64::from_bits(bits);
            proptest::prop_assume!(v.is_finite());
            let e = Arc::new(Exposition {
                families: vec![gauge("dupcost_x", "x", Value::Real(v))],
            });
            for format in [Format::Text, Format::OpenMetrics] {
                let text = e.encode(format);
                let line = text.lines().find(|l| l.starts_with("dupcost_x ")).unwrap();
                let read: f64 = line["dupcost_x ".len()..].parse().unwrap();
                proptest::prop_assert_eq!(read.to_bits(), v.to_bits(), "{}", line);
            }
        }
    }

    #[test]
    fn a_route_label_is_escaped() {
        let e = Exposition {
            families: vec![labelled(
                "dupcost_endpoint_mutating_attempts",
                "help",
                vec![(
                    vec![("method", "POST".into()), ("route", "/a\"b\\c\nd".into())],
                    Value::Count(3),
                )],
            )],
        };
        let text = Arc::new(e).encode(Format::Text);
        assert!(
            text.contains(r#"{method="POST",route="/a\"b\\c\nd"} 3"#),
            "{text}"
        );
    }
}
