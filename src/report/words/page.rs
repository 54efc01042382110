//! The HTML page's own phrases: its titles (the markdown's), its headings, its columns and
//! the lines around its blocks.

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
pub const CHECK_COLUMNS: [&str; 5] = ["check", "outcome", "requests", "executions seen", "detail"];
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
