//! The probe's words, shared by its table, markdown and page.
//!
//! Each report also puts each finding into the user's scenario ("What a
//! failure costs", `docs/MODEL.md`): the figures are the model's duplicates and refunds of
//! [`Estimate`], scaled only by what the probe measured, with their bounds named.

use crate::model::Estimate;
use crate::report::human;
use crate::units::Rate;

use crate::probe::{Finding, Grade, Probe};

/// The one-line verdict.
pub fn verdict(probe: &Probe) -> String {
    let named = |outcome: Grade| {
        probe
            .checks
            .iter()
            .filter(|c| c.outcome == outcome)
            .map(|c| c.name)
            .collect::<Vec<_>>()
            .join(", ")
    };
    match probe.verdict {
        Grade::Pass => "pass: idempotency held in every check.".to_string(),
        Grade::Warn => format!(
            "warn: no check failed, but {} could not be judged or held only in part.",
            named(Grade::Warn)
        ),
        Grade::Fail if probe.duplicates_seen > 0 => format!(
            "fail: idempotency does not hold ({}); {}.",
            named(Grade::Fail),
            duplicates_seen(probe)
        ),
        Grade::Fail => format!("fail: idempotency does not hold ({}).", named(Grade::Fail)),
    }
}

pub fn duplicates_seen(probe: &Probe) -> String {
    let seen = match probe.duplicates_seen {
        1 => "1 extra execution for a key".to_string(),
        n => format!("{n} extra executions for a key"),
    };
    if probe.answers_tell_executions_apart {
        seen
    } else {
        format!(
            "at least {seen}: the answers to different keys are alike, so a second execution \
             may not show (name the resource's id with --id)"
        )
    }
}

/// The scenario the costs are figured in.
pub fn scenario_line(e: &Estimate, currency: &str) -> String {
    let s = &e.inputs;
    format!(
        "Your scenario (the flags of dupcost estimate): {} intents a day, {} timeouts, {} of \
         them executed, {} retries, {} an order; without a key that holds, the model puts \
         duplicates at {} a month, {} of refunds.",
        human::number(s.requests_per_day),
        Rate(s.timeout_rate),
        Rate(s.succeeded_share),
        s.retries,
        human::money(s.order_value, currency),
        human::count(e.duplicates.per_month),
        human::money(e.refund_cost.per_month, currency),
    )
}

/// What each finding costs in the scenario, by check.
pub fn costs(probe: &Probe, e: &Estimate, currency: &str) -> Vec<(&'static str, String)> {
    let d = e.duplicates.per_month;
    let refunds = e.refund_cost.per_month;
    let figure = |share: f64| {
        format!(
            "{} duplicates a month ({} of refunds)",
            human::count(share * d),
            human::money(share * refunds, currency)
        )
    };
    probe
        .checks
        .iter()
        .filter_map(|check| {
            let text = match check.finding {
                Finding::None => return None,
                Finding::KeyIgnored => format!(
                    "a retry with the same key ran again, so the key stops nothing: at your \
                     traffic that is all {}, as with no key at all.",
                    figure(1.0)
                ),
                Finding::Race { extra, of } => {
                    let share = extra as f64 / of as f64;
                    format!(
                        "with this race, {extra} of {of} concurrent retries executed again ({}). \
                         A retry meets the race when it reaches the server while its first \
                         attempt still runs, as a slow attempt that timed out may: if every \
                         timed-out attempt that executed was still running at its retry, that is \
                         about {} at your traffic; if none was, 0. How long your server works on \
                         an attempt, the probe cannot see.",
                        percent(share),
                        figure(share),
                    )
                }
                Finding::PayloadIgnored { executed } => format!(
                    "a client that reuses a key for another request (a key per cart or session, \
                     not per intent) {}; the scenario has no rate of key reuse, so there is no \
                     figure.",
                    match executed {
                        Some(true) => "gets it executed under the first request's key",
                        Some(false) => {
                            "has it dropped while told it succeeded (the first answer replayed)"
                        }
                        None => {
                            "gets an answer like the first one's: the second request was dropped \
                             or executed, and the answers cannot tell which"
                        }
                    }
                ),
                Finding::KeyOptional => format!(
                    "a client that sends no key is not protected: if none did, all {}; each \
                     tenth of your traffic sent without a key, {}.",
                    figure(1.0),
                    figure(0.1)
                ),
            };
            Some((check.name, text))
        })
        .collect()
}

/// A share as a percentage to 3 figures: `34.3%`.
fn percent(share: f64) -> String {
    format!("{}%", human::count(share * 100.0))
}

pub fn outcome_word(outcome: Grade) -> &'static str {
    match outcome {
        Grade::Pass => "pass",
        Grade::Warn => "warn",
        Grade::Fail => "FAIL",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Scenario;
    use crate::probe::Check;
    use crate::report::Style;
    use crate::report::table::probe::table;

    fn probe(findings: &[(&'static str, Grade, Finding)]) -> Probe {
        let checks: Vec<Check> = findings
            .iter()
            .map(|&(name, outcome, finding)| Check {
                name,
                outcome,
                detail: "detail".into(),
                requests: 2,
                executions_seen: 1,
                extra_executions: 0,
                finding,
            })
            .collect();
        Probe {
            url: "http://127.0.0.1:8080/orders".into(),
            method: "POST".into(),
            requests: 2 * checks.len(),
            checks,
            duplicates_seen: 0,
            verdict: Grade::Fail,
            answers_tell_executions_apart: true,
        }
    }

    #[test]
    fn a_race_is_costed_as_its_share_of_the_scenarios_duplicates() {
        let e = Estimate::new(Scenario::default());
        let probe = probe(&[(
            "concurrent",
            Grade::Fail,
            Finding::Race { extra: 12, of: 35 },
        )]);
        let costs = costs(&probe, &e, "$");
        assert_eq!(costs.len(), 1);
        let share = 12.0 / 35.0;
        let expected = format!(
            "about {} duplicates a month ({} of refunds)",
            human::count(share * e.duplicates.per_month),
            human::money(share * e.refund_cost.per_month, "$")
        );
        assert!(
            costs[0]
                .1
                .contains("12 of 35 concurrent retries executed again (34.3%)"),
            "{}",
            costs[0].1
        );
        assert!(costs[0].1.contains(&expected), "{}", costs[0].1);
        assert!(costs[0].1.contains("if none was, 0"), "{}", costs[0].1);
    }

    #[test]
    fn passes_cost_nothing_and_a_key_reuse_has_no_figure() {
        let e = Estimate::new(Scenario::default());
        let passed = probe(&[("replay", Grade::Pass, Finding::None)]);
        assert!(costs(&passed, &e, "$").is_empty());
        let text = String::from_utf8(table(&passed, &e, &Style::default())).unwrap();
        assert!(!text.contains("What a failure costs"), "{text}");
        let reused = probe(&[(
            "payload_mismatch",
            Grade::Fail,
            Finding::PayloadIgnored { executed: None },
        )]);
        let costs = costs(&reused, &e, "$");
        assert!(costs[0].1.contains("no figure") && !costs[0].1.contains("duplicates a month"));
    }
}
