//! The layouts issue 35 added (Traefik CLF, Nginx Proxy Manager's two, nginx with one ident
//! field, Istio 1.2) on arbitrary lines: never a panic; a line one reads gives one field per
//! name (see `checks::format_peers`).
#![no_main]

#[path = "checks.rs"]
mod checks;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    checks::format_peers(data);
});
