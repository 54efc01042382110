//! Properties of the log reader (issue 6) on logs generated from random parameters by
//! `examples/gen-access-log`, whose true figures are known:
//!
//! - a generated log round-trips to the derived inputs computed directly from its rows;
//! - the inputs used lie within the bounds their lines state, and the endpoint rows add up
//!   to the total;
//! - reading it in any number of pieces (separate files in one call, or chunks read by
//!   several threads) gives exactly the tally of reading it whole;
//! - shuffling its rows changes nothing but the order-dependent figures.
//!
//! The cases are few and small so that the file runs in seconds in a debug build.

use crate::common;
use crate::generator;

use std::path::PathBuf;

use crate::common::write_path;
use crate::generator::{Config, Format};
use crate::support::{analyze, generate, one_thread};
use dupcost::findings::{self, DeriveOptions, Overrides};
use dupcost::logs::{Intents, LogInput, LogOptions, Tally};
use dupcost::model::Scenario;
use proptest::prelude::*;

const FORMATS: [Format; 7] = [
    Format::Csv,
    Format::Tsv,
    Format::Nginx,
    Format::Alb,
    Format::Traefik,
    Format::Envoy,
    Format::Haproxy,
];

fn config() -> impl Strategy<Value = Config> {
    (
        (
            30u64..1500,
            any::<u64>(),
            0usize..FORMATS.len(),
            0.2f64..20.0,
        ),
        (0.0f64..0.6, 0.0f64..=1.0, 0u32..5, 0.0f64..0.8),
        (
            prop_oneof![Just(0.0), Just(1.0), 0.0f64..=1.0],
            any::<bool>(),
        ),
        (
            prop_oneof![Just(0.0), 0.0f64..0.4],
            prop_oneof![Just(0.0), 0.0f64..0.5],
            any::<bool>(),
        ),
    )
        .prop_map(
            |(
                (rows, seed, format, days),
                (t, s, retries, gets),
                (keys, crlf),
                (unknown, never, ids),
            )| Config {
                rows,
                seed,
                format: FORMATS[format],
                days,
                timeout_rate: t,
                succeeded_share: s,
                retries,
                get_share: gets,
                key_share: keys,
                crlf,
                unknown_share: unknown,
                never_reached_share: never,
                request_ids: ids,
                ..Config::default()
            },
        )
}

/// Splits a log (without quoted newlines) into its header line and its data lines.
fn lines(bytes: &[u8]) -> (&[u8], Vec<&[u8]>) {
    let mut lines: Vec<&[u8]> = bytes.split_inclusive(|&b| b == b'\n').collect();
    let header = lines.remove(0);
    (header, lines)
}

/// The order-independent figures of a tally: everything but the intents (see
/// `shuffling_changes_only_order_dependent_figures`).
fn order_free(t: &Tally) -> impl PartialEq + std::fmt::Debug {
    let mut endpoints: Vec<_> = t
        .endpoints
        .values()
        .map(|e| (e.method.clone(), e.route.clone(), e.counts))
        .collect();
    endpoints.sort_by(|a, b| (&a.0, &a.1).cmp(&(&b.0, &b.1)));
    (
        (t.rows, t.bad_rows, t.out_of_range, t.path_filtered),
        t.counts,
        (t.first_ts, t.last_ts),
        t.per_day.clone(),
        endpoints,
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// What the reader measures is what the generator wrote: the tally's counts and the
    /// derived inputs equal the figures computed directly from the generated rows.
    #[test]
    fn generated_logs_round_trip(cfg in config()) {
        let dir = tempfile::tempdir().unwrap();
        let (bytes, truth) = generate(&cfg);
        // The generator's truth counts an attempt without a key as an intent: grouping by
        // key (HAProxy's client_ip would group its retries by fingerprint; see logs_keyless).
        let by_key = LogOptions { intents: Intents::Key, ..one_thread() };
        let a = analyze(&[write_path(dir.path(), "g.log", &bytes)], &by_key);
        let t = &a.tally;
        prop_assert_eq!(t.rows, truth.rows);
        prop_assert_eq!(t.bad_rows, 0);
        prop_assert_eq!(t.counts.mutating, truth.mutating_attempts);
        prop_assert_eq!(t.counts.timed_out, truth.timed_out);
        prop_assert_eq!(t.counts.timed_out_succeeded, truth.timed_out_succeeded);
        prop_assert_eq!(t.counts.timed_out_unknown, truth.timed_out_unknown);
        prop_assert_eq!(t.intents(), truth.intents);
        prop_assert_eq!(t.keyed.intents, truth.keyed_intents);
        prop_assert_eq!(t.keyed.attempts, truth.keyed_attempts);
        prop_assert_eq!(t.first_ts, Some(truth.first_ts));
        prop_assert_eq!(t.last_ts, Some(truth.last_ts));
        let days: Vec<(i64, (u64, u64, u64))> = t
            .per_day
            .iter()
            .map(|(d, c)| (*d, (c.mutating, c.timed_out, c.timed_out_succeeded)))
            .collect();
        let want: Vec<(i64, (u64, u64, u64))> =
            truth.per_day.iter().map(|(d, c)| (*d, *c)).collect();
        prop_assert_eq!(days, want);

        // The round trip checks the share over known outcomes whatever their number.
        let options = DeriveOptions { max_unknown: 1.0, require_measured: true, ..DeriveOptions::default() };
        let none = Overrides::default();
        let derived = findings::derive(&a, &options, &Scenario::default(), &none, &findings::given_sources(&none));
        if truth.mutating_attempts == 0 {
            prop_assert!(derived.is_err());
            return Ok(());
        }
        if (truth.last_ts - truth.first_ts) < 3_600_000_000 {
            let e = derived.unwrap_err().to_string();
            prop_assert!(e.contains("--min-span"), "{}", e);
            return Ok(());
        }
        // Below the minimum evidence a rate or share is still the log's, marked thin.
        let min = dupcost::findings::MIN_EVIDENCE;
        let known = truth.timed_out - truth.timed_out_unknown;
        // No outcome known of any timed-out attempt (no evidence at all), scripts asking for
        // a measure are refused.
        if truth.timed_out > 0 && truth.timed_out == truth.timed_out_unknown {
            let e = derived.unwrap_err().to_string();
            prop_assert!(e.contains("--succeeded-share") && e.contains("--outcomes"), "{}", e);
            return Ok(());
        }
        let d = derived.unwrap();
        if truth.timed_out == 0 {
            // Nothing measured the share: assumed, and said to change nothing only where the
            // timeout rate used is 0.
            prop_assert_eq!(d.measured[2].measured, None);
            prop_assert!(d.measured[2].from_flag);
            let text = d.measured[2].evidence.to_string();
            prop_assert!(text.contains("assumed"), "{}", text);
            prop_assert_eq!(text.contains("cannot change the result"), d.scenario.timeout_rate == 0.0, "{}", text);
            return Ok(());
        }
        let s = &d.scenario;
        let base = Scenario::default();
        prop_assert!(common::close(s.requests_per_day, truth.requests_per_day(), 1e-12),
            "requests/day {} vs {}", s.requests_per_day, truth.requests_per_day());
        prop_assert!(common::close(s.timeout_rate, truth.timeout_rate(), 1e-12));
        let kind = |input| findings::kinds::kind(&d, input);
        let thin = kind(dupcost::inputs::Input::TimeoutRate).thin;
        prop_assert_eq!(thin.is_some(), truth.mutating_attempts < min);
        prop_assert!(common::close(s.succeeded_share, truth.succeeded_share(), 1e-12));
        let share = kind(dupcost::inputs::Input::SucceededShare);
        prop_assert_eq!(share.kind, findings::Kind::Measured);
        prop_assert_eq!(share.thin.map(|t| (t.count, t.of)), (known < min).then_some((truth.timed_out_succeeded, known)));
        let timed_out_intents = a.tally.keyed.timed_out_intents;
        prop_assert!(timed_out_intents <= truth.timed_out);
        if truth.keyed_intents > 0 && truth.max_attempts > 1 && timed_out_intents >= min {
            prop_assert_eq!(s.retries, truth.max_attempts - 1);
        } else if truth.keyed_intents > 0 && !a.keys_look_per_attempt() {
            // Thin: the most seen is a floor under the default.
            prop_assert_eq!(s.retries, base.retries.max(truth.max_attempts - 1));
        } else {
            prop_assert_eq!(s.retries, base.retries);
        }
        let o = &d.observed;
        prop_assert_eq!(o.mutating_attempts, truth.mutating_attempts);
        prop_assert_eq!(o.intents, truth.intents);
        prop_assert!(common::close(o.days_covered.unwrap(), truth.days_covered(), 1e-12));
    }

    /// Whatever the log, the inputs used lie within the bounds their own lines state, a thin
    /// rate is the log's own, and the endpoint rows (with "other endpoints" past the top 10)
    /// add up to the report's duplicates and refunds a month.
    #[test]
    fn used_inputs_lie_within_their_bounds_and_endpoints_add_up(
        cfg in config(),
        short in prop_oneof![Just(None), (0.0005f64..0.04).prop_map(Some)],
        templates in prop_oneof![Just(0u32), 4u32..40],
        base_n in 1.0f64..100_000.0,
        base_retries in 0u32..8,
    ) {
        let dir = tempfile::tempdir().unwrap();
        let cfg = Config { days: short.unwrap_or(cfg.days), templates, ..cfg };
        let (bytes, _) = generate(&cfg);
        let a = analyze(&[write_path(dir.path(), "g.log", &bytes)], &one_thread());
        let base = Scenario { requests_per_day: base_n, retries: base_retries, ..Scenario::default() };
        let none = Overrides::default();
        let Ok(d) = findings::derive(&a, &DeriveOptions::default(), &base, &none, &findings::given_sources(&none)) else {
            // Only a log without a mutating request and without a span is refused.
            prop_assert_eq!(a.tally.counts.mutating, 0);
            return Ok(());
        };
        use dupcost::inputs::Input;
        let s = &d.scenario;
        for (input, used) in [
            (Input::RequestsPerDay, s.requests_per_day),
            (Input::TimeoutRate, s.timeout_rate),
            (Input::SucceededShare, s.succeeded_share),
            (Input::Retries, f64::from(s.retries)),
        ] {
            let k = findings::kinds::kind(&d, input);
            if let Some([lo, hi]) = k.bounds {
                prop_assert!(lo <= used && used <= hi, "{input}: {used} outside {lo} to {hi}");
            }
            if k.thin.is_some() {
                prop_assert_eq!(k.kind, findings::Kind::Measured);
            }
        }
        let c = a.tally.counts;
        if c.mutating > 0 {
            prop_assert_eq!(s.timeout_rate, c.timed_out as f64 / c.mutating as f64);
        }
        let e = dupcost::model::Estimate::new(*s);
        let o = &d.observed;
        let other = o.per_endpoint_other.as_ref();
        let listed = a.tally.endpoints.iter().filter(|(_, e)| e.counts.mutating > 0).count();
        prop_assert_eq!(other.map(|r| r.endpoints as usize), listed.checked_sub(findings::TOP_ENDPOINTS).filter(|&n| n > 0));
        let dup: f64 = o.per_endpoint.iter().map(|r| r.duplicates_per_month).sum::<f64>()
            + other.map_or(0.0, |r| r.duplicates_per_month);
        let refunds: f64 = o.per_endpoint.iter().map(|r| r.refund_per_month).sum::<f64>()
            + other.map_or(0.0, |r| r.refund_per_month);
        if c.mutating > 0 {
            prop_assert!(common::close(dup, e.duplicates.per_month, 1e-9) || (dup - e.duplicates.per_month).abs() < 1e-9,
                "endpoints {} against {}", dup, e.duplicates.per_month);
            prop_assert!(common::close(refunds, e.refund_cost.per_month, 1e-9) || (refunds - e.refund_cost.per_month).abs() < 1e-9,
                "endpoints {} against {}", refunds, e.refund_cost.per_month);
        }
    }

    /// A log cut at any line boundaries into pieces, given as separate files to one
    /// `analyze` call (in any order: rotated files merge by time), gives exactly the tally
    /// of the whole; and so does reading the whole file in chunks on 2 to 4 threads.
    #[test]
    fn pieces_give_the_tally_of_the_whole(
        cfg in config(),
        cuts in prop::collection::vec(0.0f64..1.0, 0..6),
        threads in 2usize..=4,
        reverse in any::<bool>(),
    ) {
        let dir = tempfile::tempdir().unwrap();
        // With request ids, the backend's log is joined too: the timed-out attempts' ids kept
        // by each piece, and their outcomes after the join, must be the whole's.
        let mut bytes = Vec::new();
        let mut backend = Vec::new();
        generator::generate_with_backend(&cfg, &mut bytes, cfg.request_ids.then_some(&mut backend))
            .unwrap();
        let whole_path = write_path(dir.path(), "whole.log", &bytes);
        let outcomes = if cfg.request_ids || cfg.format.has_request_id() {
            vec![LogInput::Path(write_path(dir.path(), "backend.csv", &backend))]
        } else {
            Vec::new()
        };
        let joined = !outcomes.is_empty() && !backend.is_empty();
        let one = LogOptions {
            outcomes: if joined { outcomes.clone() } else { Vec::new() },
            ..one_thread()
        };
        let whole = analyze(std::slice::from_ref(&whole_path), &one);

        let chunked = analyze(
            &[whole_path],
            &LogOptions { threads, split_bytes: 1, ..one.clone() },
        );
        prop_assert_eq!(&chunked.tally, &whole.tally);
        prop_assert_eq!(&chunked.join, &whole.join);

        // Cut between lines; a piece holds at least retries + 2 rows so that it starts no
        // later than the first attempt of an intent it contains, which keeps the pieces' time
        // order their file order.
        let (header, rows) = lines(&bytes);
        let min = cfg.retries as usize + 2;
        let mut at: Vec<usize> = cuts.iter().map(|c| (c * rows.len() as f64) as usize).collect();
        at.push(rows.len());
        at.sort_unstable();
        let mut bounds = vec![0];
        for a in at {
            if a >= bounds.last().unwrap() + min && rows.len() - a >= min || a == rows.len() {
                bounds.push(a);
            }
        }
        bounds.dedup();
        let mut paths: Vec<PathBuf> = bounds
            .windows(2)
            .enumerate()
            .map(|(i, w)| {
                let mut piece = header.to_vec();
                rows[w[0]..w[1]].iter().for_each(|r| piece.extend_from_slice(r));
                write_path(dir.path(), &format!("piece-{i}.log"), &piece)
            })
            .collect();
        if reverse {
            paths.reverse();
        }
        let pieces = analyze(&paths, &one);
        prop_assert_eq!(&pieces.tally, &whole.tally, "{} pieces", paths.len());
        prop_assert_eq!(&pieces.join, &whole.join);
    }

    /// Shuffling the rows changes only the order-dependent figures. Order-dependent: the
    /// grouping of keyed attempts into intents (two rows of a key are one intent when they are
    /// consecutive in file order and at most the retry window apart, and a key is forgotten
    /// once the log's clock has moved past it, so out of order rows can split an intent), and
    /// with it the intents, attempts per intent and per-endpoint intents; and the line numbers
    /// of bad rows. Order-free: rows, bad rows, mutating / timed-out / succeeded counts, the
    /// first and last timestamp, the per-day and per-endpoint counts. Without keys (or
    /// fingerprints), intents are attempts and do not depend on order either.
    #[test]
    fn shuffling_changes_only_order_dependent_figures(cfg in config(), seed in any::<u64>()) {
        use rand::SeedableRng;
        use rand::seq::SliceRandom;
        let dir = tempfile::tempdir().unwrap();
        let (bytes, _) = generate(&cfg);
        let (header, mut rows) = lines(&bytes);
        let whole = analyze(&[write_path(dir.path(), "whole.log", &bytes)], &one_thread());
        rows.shuffle(&mut rand_chacha::ChaCha8Rng::seed_from_u64(seed));
        let mut shuffled = header.to_vec();
        for r in &rows {
            shuffled.extend_from_slice(r);
            if !r.ends_with(b"\n") {
                // The last row of the file may lack its newline.
                shuffled.extend_from_slice(if cfg.crlf { b"\r\n" } else { b"\n" });
            }
        }
        let shuffled_path = write_path(dir.path(), "shuffled.log", &shuffled);
        let a = analyze(std::slice::from_ref(&shuffled_path), &one_thread());
        prop_assert_eq!(order_free(&a.tally), order_free(&whole.tally));
        // How far the clock ran backwards is measured the same in pieces on threads.
        let chunked = analyze(
            &[shuffled_path],
            &LogOptions { threads: 3, split_bytes: 1, ..one_thread() },
        );
        prop_assert_eq!(chunked.tally.most_backwards, a.tally.most_backwards);
        // Grouping by fingerprint depends on order as grouping by key does.
        if whole.tally.keyed.intents == 0 && whole.tally.fingerprinted.intents == 0 {
            prop_assert_eq!(a.tally.intents(), whole.tally.intents());
        }
    }
}

/// The same through the binary: the `observed` object of `dupcost logs --format json` for a
/// log given whole equals the one for the log given as three files.
#[test]
fn binary_observed_equals_for_whole_and_pieces() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = Config {
        rows: 3000,
        seed: 11,
        ..Config::default()
    };
    let (bytes, _) = generate(&cfg);
    let whole = write_path(dir.path(), "whole.csv", &bytes);
    let (header, rows) = lines(&bytes);
    let thirds = [0, rows.len() / 3, 2 * rows.len() / 3, rows.len()];
    let mut pieces = Vec::new();
    for (i, w) in thirds.windows(2).enumerate() {
        let mut piece = header.to_vec();
        rows[w[0]..w[1]]
            .iter()
            .for_each(|r| piece.extend_from_slice(r));
        pieces.push(write_path(dir.path(), &format!("p{i}.csv"), &piece));
    }
    let observed = |paths: &[PathBuf]| {
        let mut args = vec!["logs".to_string()];
        args.extend(paths.iter().map(|p| p.to_str().unwrap().to_string()));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let mut observed = common::json(&args)["observed"].clone();
        // Which files were read differs, of course.
        observed["files"] = serde_json::json!([]);
        observed
    };
    assert_eq!(observed(&pieces), observed(&[whole]));
}
