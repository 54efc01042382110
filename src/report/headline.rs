//! The answer first: what every human report opens with. The money (duplicates and refunds
//! a month, each with the range the evidence allows), the customers left unanswered at zero
//! retries, the fix, the costliest endpoints of a log, then the inputs in three short groups
//! (measured, given, assumed) and the verdict with the flags it rests on. Everything else a
//! report says is one flag away (`--explain`).

use crate::findings::{InputKind, Kind};
use crate::inputs::Input;
use crate::model::{Estimate, Scenario};
use crate::units::{Duration, Seconds};

use super::Style;
use super::human;
use super::model::{LogsReport, marks};
use super::words::{self, kind_detail, settled_by};

/// The inputs that move the money: an assumed one is named in the headline's inputs; the
/// other defaults are counted in one line.
const MONEY: [Input; 5] = [
    Input::RequestsPerDay,
    Input::TimeoutRate,
    Input::SucceededShare,
    Input::OrderValue,
    Input::Retries,
];

/// One figure of the headline: `duplicate charges`, `601 a month`, and the range the evidence
/// allows (`0 to 1,200 over the succeeded share's 0% to 100%; 95%: 520 to 690`).
#[derive(Debug, Clone, PartialEq)]
pub struct Figure {
    pub label: &'static str,
    pub value: String,
    pub range: Option<String>,
}

/// One input in the headline's groups: `timeout rate`, `8.13%`, and what it came from
/// (measured: the evidence in a few words; given: what gave it; assumed: the flag).
#[derive(Debug, Clone, PartialEq)]
pub struct InputLine {
    pub label: &'static str,
    pub value: String,
    pub from: String,
}

fn is_share(input: Input) -> bool {
    matches!(input, Input::TimeoutRate | Input::SucceededShare)
}

/// The answer-first block of a report.
#[derive(Debug, Clone, PartialEq)]
pub struct Headline {
    pub duplicates: Figure,
    pub refunds: Figure,
    /// Customers left without an answer a day, never retrying.
    pub unanswered: Figure,
    /// The key store's size, and the TTL against the retry horizon.
    pub fix: Figure,
    /// The key TTL against the retry horizon, in words (`key TTL 1d outlasts the 47s retry
    /// horizon`).
    pub ttl: String,
    /// A log's costliest endpoints, at most three: `POST /orders: 320 a month, $12,800`.
    pub endpoints: Vec<String>,
    pub measured: Vec<InputLine>,
    pub given: Vec<InputLine>,
    /// The assumed inputs that move the money.
    pub assumed: Vec<InputLine>,
    /// How many other inputs are left at their defaults.
    pub more_defaults: usize,
    /// The verdict, one sentence.
    pub verdict: String,
    /// What the verdict rests on, where assumed (`Assuming a $40 order (--order-value).`).
    pub rests_on: Option<String>,
}

/// Its kind, value and words of every input `e` uses, in `Input::ALL`'s order.
struct Row {
    input: Input,
    value: String,
    kind: InputKind,
    evidence: Option<String>,
}

impl Headline {
    /// The headline of `dupcost estimate`: no logs, so the only range is the one an assumed
    /// succeeded share allows (0% to 100%).
    pub fn of_estimate(e: &Estimate, style: &Style) -> Headline {
        let c = style.currency.as_str();
        let marks = marks(e, style, None);
        let rows: Vec<Row> = Input::ALL
            .into_iter()
            .filter_map(|input| {
                let mark = marks.iter().find(|m| m.label == input.label())?;
                Some(Row {
                    input,
                    value: mark.value.clone(),
                    kind: mark.kind.clone(),
                    evidence: None,
                })
            })
            .collect();
        let share_assumed = rows
            .iter()
            .any(|r| r.input == Input::SucceededShare && r.kind.kind != Kind::Given);
        let bounds = share_assumed.then(|| share_bounds(&e.inputs, [0.0, 1.0], c));
        let mut h = Headline::common(e, style, &rows);
        if let Some((dup, refunds)) = bounds {
            let over = "over the succeeded share's 0% to 100%";
            h.duplicates.range = Some(format!("{dup} {over}"));
            h.refunds.range = Some(format!("{refunds} {over}"));
        }
        h
    }

    /// The headline of `dupcost logs`: the range an assumed share's bounds allow, and the
    /// 95% intervals of what was measured.
    pub fn of_logs(r: &LogsReport, style: &Style) -> Headline {
        let e = r.estimate;
        let c = style.currency.as_str();
        let rows: Vec<Row> = r
            .shown_inputs()
            .map(|row| Row {
                input: row.input,
                value: row.value.clone(),
                kind: row.kind.clone(),
                evidence: row.evidence.clone(),
            })
            .collect();
        let mut h = Headline::common(e, style, &rows);
        let i = r.intervals;
        let interval = |[lo, hi]: [f64; 2], show: &dyn Fn(f64) -> String| {
            let [lo, hi] = crate::units::round_outward([lo, hi], 3);
            format!("95%: {} to {}", show(lo), show(hi))
        };
        let mut dup = vec![];
        let mut refunds = vec![];
        if let Some((b, _)) = &r.output_bounds {
            let over = format!(
                "over the succeeded share's {} to {}",
                words::pct3(b.succeeded_share[0]),
                words::pct3(b.succeeded_share[1])
            );
            let [lo, hi] = b.duplicates_per_month;
            dup.push(format!(
                "{} to {} {over}",
                human::count(lo),
                human::count(hi)
            ));
            let [lo, hi] = b.refunds_per_month;
            refunds.push(format!(
                "{} to {} {over}",
                human::money(lo, c),
                human::money(hi, c)
            ));
        }
        dup.push(interval(i.duplicates_per_month, &|v| human::count(v)));
        refunds.push(interval(i.refund_cost_per_month, &|v| human::money(v, c)));
        h.duplicates.range = Some(dup.join("; "));
        h.refunds.range = Some(refunds.join("; "));
        let mut endpoints: Vec<&crate::findings::EndpointRow> =
            r.observed.per_endpoint.iter().collect();
        endpoints.sort_by(|a, b| b.refund_per_month.total_cmp(&a.refund_per_month));
        h.endpoints = endpoints
            .iter()
            .filter(|p| p.duplicates_per_month > 0.0)
            .take(3)
            .map(|p| {
                format!(
                    "{} {}: {} a month, {}",
                    p.method,
                    p.route,
                    human::count(p.duplicates_per_month),
                    human::money(p.refund_per_month, c)
                )
            })
            .collect();
        h
    }

    fn common(e: &Estimate, style: &Style, rows: &[Row]) -> Headline {
        let c = style.currency.as_str();
        let preset = style.preset.as_ref().map(|p| p.name);
        let (mut measured, mut given, mut assumed) = (vec![], vec![], vec![]);
        let mut more_defaults = 0;
        let mut rests: Vec<(Input, &InputKind)> = vec![];
        for row in rows {
            let line = |from: String| InputLine {
                label: row.input.label(),
                value: row.value.clone(),
                from,
            };
            match row.kind.kind {
                // A thin figure says so first: its count is what a reader weighs it by.
                Kind::Measured => measured.push(line({
                    let said = match row.kind.thin {
                        Some(t) => {
                            format!("thin: {} of {} (its 95% interval above)", t.count, t.of)
                        }
                        None => row
                            .evidence
                            .as_deref()
                            .map_or_else(|| "the logs".to_string(), gist),
                    };
                    match &row.kind.inferred_field {
                        Some(i) => format!("{said}; {}", super::words::inferred_text(i)),
                        None => said,
                    }
                })),
                Kind::Given => given.push(line(
                    kind_detail(row.input, &row.kind, preset).unwrap_or_default(),
                )),
                Kind::Assumed if MONEY.contains(&row.input) => {
                    rests.push((row.input, &row.kind));
                    // An assumed input the log bounds says its bounds on the first screen: a
                    // reader sees the default stays within what the log allows. A share's
                    // 0% to 100% bounds nothing, and the figures' ranges already say it.
                    let value = match row.kind.bounds {
                        Some([lo, hi]) if !(lo <= 0.0 && hi >= 1.0 && is_share(row.input)) => {
                            format!(
                                "{} (the log allows {})",
                                row.value,
                                words::bounds_of(row.input, lo, hi)
                            )
                        }
                        _ => row.value.clone(),
                    };
                    assumed.push(InputLine {
                        value,
                        ..line(settled_by(&row.kind))
                    });
                }
                Kind::Assumed => more_defaults += 1,
            }
        }
        let s = &e.inputs;
        let ttl = Duration(s.ttl_seconds).to_string();
        let horizon = Seconds(e.retry_horizon_seconds).rounded();
        let against = if e.ttl_shorter_than_horizon() {
            format!("key TTL {ttl} is shorter than the {horizon} retry horizon")
        } else {
            format!("key TTL {ttl} outlasts the {horizon} retry horizon")
        };
        let verdict = words::verdict(e, style);
        let verdict = verdict
            .strip_prefix("Verdict: ")
            .unwrap_or(&verdict)
            .to_string();
        Headline {
            duplicates: Figure {
                label: "duplicate charges",
                value: format!("{} a month", human::count(e.duplicates.per_month)),
                range: None,
            },
            refunds: Figure {
                label: "refunds",
                value: format!("{} a month", human::money(e.refund_cost.per_month, c)),
                range: None,
            },
            unanswered: Figure {
                label: "never retrying",
                value: format!(
                    "{} customers a day left without an answer",
                    human::count(e.unanswered.zero_retries_per_day)
                ),
                range: None,
            },
            fix: Figure {
                label: "the fix",
                value: format!("a {} key store; {against}", human::size(e.store_bytes())),
                range: None,
            },
            ttl: against,
            endpoints: Vec::new(),
            measured,
            given,
            assumed,
            more_defaults,
            verdict,
            rests_on: words::verdict_assumptions(&rests, e, c),
        }
    }
}

/// Duplicates and refunds a month with the succeeded share at each of `bounds`, in words:
/// (`0 to 1,200`, `$0 to $48,096`).
fn share_bounds(s: &Scenario, [low, high]: [f64; 2], c: &str) -> (String, String) {
    let at = |share: f64| {
        Estimate::new(Scenario {
            succeeded_share: share,
            ..*s
        })
    };
    let (lo, hi) = (at(low), at(high));
    (
        format!(
            "{} to {}",
            human::count(lo.duplicates.per_month),
            human::count(hi.duplicates.per_month)
        ),
        format!(
            "{} to {}",
            human::money(lo.refund_cost.per_month, c),
            human::money(hi.refund_cost.per_month, c)
        ),
    )
}

/// A measured input's evidence in a few words: what it was figured from, without the
/// parentheses (`274 intents / 1.92 days` of `requests a day 143 = 274 intents (grouped by
/// ...) / 1.92 days`).
fn gist(evidence: &str) -> String {
    let from = evidence
        .split_once(" = ")
        .map_or(evidence, |(_, rest)| rest);
    let mut out = String::new();
    let mut depth = 0usize;
    for ch in from.chars() {
        match ch {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            _ if depth == 0 => out.push(ch),
            _ => {}
        }
    }
    let words: Vec<&str> = out.split_whitespace().collect();
    let short = words.iter().take(8).copied().collect::<Vec<_>>().join(" ");
    let short = short.split(';').next().unwrap_or("").trim().to_string();
    if words.len() > 8 {
        format!("{short} …")
    } else {
        short
    }
}
