//! AWS API Gateway's CLF, CSV and XML layouts and `$context` layouts on arbitrary bytes: never
//! a panic; what a layout splits has its names' count of fields (see
//! `checks::format_apigateway`).
#![no_main]

#[path = "checks.rs"]
mod checks;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    checks::format_apigateway(data);
});
