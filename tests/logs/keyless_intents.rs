//! Logs without idempotency keys (issue 13): attempts grouped into intents by fingerprint,
//! on logs from `examples/gen-access-log --keyless` whose true intents, retries and executed
//! duplicates are known.

use crate::common;
use crate::generator;
use crate::keyless;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::keyless::{KeylessConfig, KeylessTruth, generate_keyless};
use crate::support::{analyze, one_thread, output};
use dupcost::findings::Overrides;
use dupcost::logs::{self, Intents, LogAnalysis, LogOptions};
use dupcost::model::Scenario;
use proptest::prelude::*;

fn write(dir: &Path, name: &str, cfg: &KeylessConfig) -> (PathBuf, KeylessTruth) {
    let path = dir.join(name);
    let truth = generate_keyless(cfg, std::fs::File::create(&path).unwrap()).unwrap();
    (path, truth)
}

/// The histogram of attempts per intent as the tally has it (the unkeyed intents have 1).
fn histogram(a: &LogAnalysis) -> BTreeMap<u32, u64> {
    let t = &a.tally;
    let mut h: BTreeMap<u32, u64> = t.attempts_per_intent.iter().collect();
    if t.unkeyed_intents > 0 {
        *h.entry(1).or_default() += t.unkeyed_intents;
    }
    h
}

/// The generated log's intents, retries, executed duplicates and 409s are recovered exactly,
/// with clients behind a load balancer (X-Forwarded-For) and 40 clients behind one NAT
/// address whose occasional failures a grouping blind to shared addresses would join to the
/// next client's attempt.
#[test]
fn keyless_log_recovers_the_known_retries_and_duplicates() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = KeylessConfig {
        intents: 6_000,
        nat_clients: 40,
        ..KeylessConfig::default()
    };
    let (path, truth) = write(dir.path(), "keyless.csv", &cfg);
    assert!(
        truth.executed_duplicates > 20 && truth.conflicts > 5,
        "{truth:?}"
    );
    assert!(truth.max_attempts() >= 3, "{truth:?}");
    let a = analyze(std::slice::from_ref(&path), &one_thread());
    let t = &a.tally;
    assert_eq!(a.files[0].grouping, logs::Grouping::Fingerprint);
    assert_eq!(t.counts.mutating, truth.mutating_attempts);
    assert_eq!(t.intents(), truth.intents);
    assert_eq!(histogram(&a), truth.attempts_per_intent);
    assert_eq!(t.duplicates.count, truth.executed_duplicates);
    assert_eq!(t.duplicates.upstream_2xx, truth.executed_duplicates);
    assert_eq!(t.duplicates.conflict_409_422, truth.conflicts);
    // The NAT address is one fingerprint; its attempts after the 30th of the first minute
    // (the default rate) are left out of grouping.
    assert_eq!(t.shared.fingerprints, 1);
    assert_eq!(t.shared.attempts, truth.nat_attempts - 30);

    let d = a
        .derive(&Scenario::default(), &Overrides::default())
        .unwrap();
    let o = &d.observed;
    assert_eq!(o.intent_grouping, "fingerprint");
    let dup = o.observed_duplicates.as_ref().unwrap();
    assert_eq!(dup.count, truth.executed_duplicates);
    let days = (truth.last_ts - truth.first_ts) as f64 / 86_400e6;
    assert!(common::close(
        dup.per_day.unwrap(),
        truth.executed_duplicates as f64 / days,
        1e-9
    ));
    assert_eq!(o.key_coverage, None);
    // Retries are measured from the fingerprinted intents, and the evidence says how.
    let r = &d.measured[3];
    assert_eq!(r.input, "retries");
    assert_eq!(r.measured, Some(f64::from(truth.max_attempts() - 1)));
    assert!(
        r.evidence.to_string().contains(&format!(
            "grouped by fingerprint (client, UA, method, path+query, request length): joined {} attempts into {} intents",
            dupcost::report::words::count(t.fingerprinted.attempts),
            dupcost::report::words::count(t.fingerprinted.intents)
        )),
        "{}",
        r.evidence
    );

    // Blind to shared addresses, the NAT's failures are joined to the next client's attempt.
    let blind = analyze(
        &[path],
        &LogOptions {
            shared_address_rate: 255,
            ..one_thread()
        },
    );
    assert_eq!(blind.tally.shared.fingerprints, 0);
    assert!(blind.tally.intents() < truth.intents);
}

/// With a forwarded-for column and addresses with ports, the client is the first hop; the
/// user agent and request length keep two clients' attempts apart. (A hand-written log: a
/// retry after a 504 and one after a 503 join; one after a 201 or a 409 does not; a retry
/// later than the window does not; another user agent on the same address does not.)
#[test]
fn the_retry_rule_by_hand() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("hand.csv");
    std::fs::write(
        &path,
        "\
time,method,path,status,upstream_status,remote_addr,http_x_forwarded_for,http_user_agent
2026-11-01T00:00:00Z,POST,/o?x=1,504,200,172.31.0.5:1000,\"203.0.113.1, 172.31.0.5\",curl
2026-11-01T00:00:40Z,POST,/o?x=1,503,503,172.31.0.5:1001,203.0.113.1,curl
2026-11-01T00:00:50Z,POST,/o?x=1,201,201,172.31.0.5:1002,203.0.113.1,curl
2026-11-01T00:01:00Z,POST,/o?x=1,201,201,172.31.0.5:1003,203.0.113.1,curl
2026-11-01T00:02:00Z,POST,/o?x=1,504,-,[2001:db8::7]:443,-,curl
2026-11-01T00:03:00Z,POST,/o?x=1,409,409,[2001:db8::7]:444,-,curl
2026-11-01T00:03:30Z,POST,/o?x=1,504,-,[2001:db8::7]:445,-,wget
2026-11-01T02:03:30Z,POST,/o?x=1,201,201,[2001:db8::7]:446,-,wget
",
    )
    .unwrap();
    let a = analyze(&[path], &one_thread());
    let t = &a.tally;
    // {504 executed, 503, 201}: a duplicate; {201}; {504, 409}; {504}; {201} (2 h later).
    assert_eq!(t.intents(), 5);
    assert_eq!(histogram(&a), BTreeMap::from([(1, 3), (2, 1), (3, 1)]));
    assert_eq!(t.duplicates.count, 1);
    assert_eq!(t.duplicates.conflict_409_422, 1);
}

/// `--intents key` and `--intents fingerprint` on a log with both find the same intents
/// when every client has its own address.
fn key_and_fingerprint_agree(cfg: &KeylessConfig) -> Result<(), TestCaseError> {
    let dir = tempfile::tempdir().unwrap();
    let (path, truth) = write(dir.path(), "both.csv", cfg);
    let by = |intents| {
        analyze(
            std::slice::from_ref(&path),
            &LogOptions {
                intents,
                ..one_thread()
            },
        )
    };
    let (key, fingerprint) = (by(Intents::Key), by(Intents::Fingerprint));
    prop_assert_eq!(key.tally.keyed.intents, truth.intents);
    prop_assert_eq!(fingerprint.tally.fingerprinted.intents, truth.intents);
    prop_assert_eq!(key.tally.keyed, fingerprint.tally.fingerprinted);
    prop_assert_eq!(histogram(&key), histogram(&fingerprint));
    prop_assert_eq!(histogram(&key), truth.attempts_per_intent.clone());
    let per_endpoint = |a: &LogAnalysis| {
        let mut v: Vec<_> = a
            .tally
            .endpoints
            .values()
            .map(|e| (e.route.clone(), e.intents))
            .collect();
        v.sort();
        v
    };
    prop_assert_eq!(per_endpoint(&key), per_endpoint(&fingerprint));
    Ok(())
}

fn keyless_config() -> impl Strategy<Value = KeylessConfig> {
    (
        50u64..1_500,
        any::<u64>(),
        0.05f64..3.0,
        1u64..400,
        (0.0f64..0.5, 0.0f64..0.1, 0.0f64..=1.0, 0u32..5),
        (0.0f64..=1.0, 0.0f64..=1.0, any::<bool>()),
    )
        .prop_map(
            |(intents, seed, days, clients, (t, e, s, retries), (conflicts, fwd, len))| {
                KeylessConfig {
                    intents,
                    seed,
                    days,
                    clients,
                    timeout_rate: t,
                    error_rate: e,
                    succeeded_share: s,
                    retries,
                    conflict_share: conflicts,
                    forwarded_share: fwd,
                    request_length: len,
                    keys: true,
                    ..KeylessConfig::default()
                }
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn fingerprints_find_the_intents_keys_find(cfg in keyless_config()) {
        key_and_fingerprint_agree(&cfg)?;
    }

    /// A keyless log read whole, in chunks on 2 to 4 threads, or cut into files gives the
    /// same tally (fingerprinted intents cross piece boundaries as keyed ones do).
    #[test]
    fn pieces_give_the_fingerprint_tally_of_the_whole(
        cfg in keyless_config(),
        cuts in prop::collection::vec(0.0f64..1.0, 0..5),
        threads in 2usize..=4,
    ) {
        let cfg = KeylessConfig { keys: false, ..cfg };
        let dir = tempfile::tempdir().unwrap();
        let (path, _) = write(dir.path(), "whole.csv", &cfg);
        let whole = analyze(std::slice::from_ref(&path), &one_thread());
        let chunked = analyze(
            std::slice::from_ref(&path),
            &LogOptions { threads, split_bytes: 1, ..one_thread() },
        );
        prop_assert_eq!(&chunked.tally, &whole.tally);
        let bytes = std::fs::read(&path).unwrap();
        let mut lines: Vec<&[u8]> = bytes.split_inclusive(|&b| b == b'\n').collect();
        let header = lines.remove(0);
        let mut at: Vec<usize> = cuts.iter().map(|c| (c * lines.len() as f64) as usize).collect();
        at.push(0);
        at.push(lines.len());
        at.sort_unstable();
        at.dedup();
        let paths: Vec<PathBuf> = at
            .windows(2)
            .enumerate()
            .map(|(i, w)| {
                let mut piece = header.to_vec();
                lines[w[0]..w[1]].iter().for_each(|l| piece.extend_from_slice(l));
                let p = dir.path().join(format!("piece-{i}.csv"));
                std::fs::write(&p, piece).unwrap();
                p
            })
            .collect();
        let pieces = analyze(&paths, &one_thread());
        prop_assert_eq!(&pieces.tally, &whole.tally);
    }
}

/// The report through the binary: the table's intents section and the JSON's `observed`.
#[test]
fn the_binary_reports_fingerprinted_intents() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = KeylessConfig {
        intents: 3_000,
        nat_clients: 40,
        ..KeylessConfig::default()
    };
    let (path, truth) = write(dir.path(), "k.csv", &cfg);
    let path = path.to_str().unwrap();
    let out = common::succeed(common::dupcost().args(["logs", path]));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("\nIntents (grouped by fingerprint)\n"),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "  seen executed twice: {}, ",
            truth.executed_duplicates
        )),
        "{text}"
    );
    assert!(text.contains("  likely, by the model: "), "{text}");
    assert!(
        text.contains(
            "1 fingerprint sent more than 30 attempts a minute: likely shared addresses (NAT)"
        ),
        "{text}"
    );
    let v = common::json(&["logs", path]);
    let o = &v["observed"];
    assert_eq!(o["intent_grouping"], "fingerprint");
    assert_eq!(o["intents"], truth.intents);
    assert_eq!(o["observed_duplicates"]["count"], truth.executed_duplicates);
    let e = &o["observed_duplicates"]["evidence"];
    assert_eq!(e["upstream_2xx"], truth.executed_duplicates);
    assert_eq!(e["outcomes"], 0);
    assert_eq!(e["conflict_409_422"], truth.conflicts);
    assert_eq!(o["shared_addresses"]["fingerprints"], 1);
    let bars: Vec<(u64, u64)> = o["attempts_per_intent"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            (
                b["attempts"].as_u64().unwrap(),
                b["intents"].as_u64().unwrap(),
            )
        })
        .collect();
    let expected: Vec<(u64, u64)> = truth
        .attempts_per_intent
        .iter()
        .map(|(a, n)| (u64::from(*a), *n))
        .collect();
    assert_eq!(bars, expected);

    // The markdown report: the histogram and the duplicates seen beside the model's.
    let md = String::from_utf8(
        common::succeed(common::dupcost().args(["logs", path, "--format", "markdown"])).stdout,
    )
    .unwrap();
    assert!(
        md.contains("\n## Intents (grouped by fingerprint: "),
        "{md}"
    );
    assert!(
        md.contains(&format!(
            "Duplicates seen in the log: **{}**",
            truth.executed_duplicates
        )),
        "{md}"
    );
    assert!(md.contains("likely shared addresses (NAT)"), "{md}");

    // --intents key on a log without keys: every attempt is an intent.
    let v = common::json(&["logs", path, "--intents", "key"]);
    assert_eq!(v["observed"]["intent_grouping"], "none");
    assert_eq!(v["observed"]["intents"], truth.mutating_attempts);
    assert_eq!(
        v["observed"]["observed_duplicates"],
        serde_json::Value::Null
    );
}

/// Key coverage on a log where half the intents send a key: the share, and the endpoints
/// without keys ranked by the duplicates a month of their unkeyed attempts.
#[test]
fn key_coverage_ranks_where_to_add_keys() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("half.csv");
    let truth = generator::generate(
        &generator::Config {
            rows: 6_000,
            key_share: 0.5,
            timeout_rate: 0.05,
            ..generator::Config::default()
        },
        std::fs::File::create(&path).unwrap(),
    )
    .unwrap();
    let path = path.to_str().unwrap();
    let v = common::json(&["logs", path]);
    let k = &v["observed"]["key_coverage"];
    assert_eq!(k["keyed_attempts"], truth.keyed_attempts);
    let share = truth.keyed_attempts as f64 / truth.mutating_attempts as f64;
    assert!(common::close(k["share"].as_f64().unwrap(), share, 1e-12));
    let rows = k["per_endpoint"].as_array().unwrap();
    assert!(!rows.is_empty() && rows.len() <= 10);
    let dups: Vec<f64> = rows
        .iter()
        .map(|r| r["duplicates_per_month"].as_f64().unwrap())
        .collect();
    assert!(dups.windows(2).all(|w| w[0] >= w[1]), "{dups:?}");
    assert!(rows.iter().all(|r| r["share"].as_f64().unwrap() < 1.0));
    let text = String::from_utf8(
        common::succeed(common::dupcost().args(["logs", path]))
            .stdout
            .clone(),
    )
    .unwrap();
    assert!(
        text.contains("  key coverage: ") && text.contains("\nAdd keys here first ("),
        "{text}"
    );
    // The markdown report has them too: the coverage and the ranking as a table.
    let md = String::from_utf8(
        common::succeed(common::dupcost().args(["logs", path, "--format", "markdown"])).stdout,
    )
    .unwrap();
    assert!(
        md.contains("\n## Intents (grouped by idempotency key)\n"),
        "{md}"
    );
    assert!(md.contains("\nKey coverage: "), "{md}");
    let table = md.split("\n### Add keys here first\n\n").nth(1).unwrap();
    assert!(
        table.starts_with("| endpoint | keyed | duplicates a month | refunds a month |\n"),
        "{md}"
    );
    assert_eq!(
        table.lines().take_while(|l| l.starts_with('|')).count(),
        2 + rows.len(),
        "{md}"
    );
}

/// On a log with keys and client addresses, `auto` groups by key and reports the coverage;
/// `--intents fingerprint` does not read the keys, so it does not report a coverage.
#[test]
fn key_coverage_only_when_grouped_by_key() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = KeylessConfig {
        intents: 800,
        keys: true,
        ..KeylessConfig::default()
    };
    let (path, truth) = write(dir.path(), "both.csv", &cfg);
    let path = path.to_str().unwrap();
    let auto = common::json(&["logs", path]);
    assert_eq!(auto["observed"]["intent_grouping"], "key");
    assert_eq!(auto["observed"]["key_coverage"]["share"], 1.0);
    assert_eq!(
        auto["observed"]["key_coverage"]["keyed_attempts"],
        truth.mutating_attempts
    );
    let by_fingerprint = common::json(&["logs", path, "--intents", "fingerprint"]);
    assert_eq!(by_fingerprint["observed"]["intent_grouping"], "fingerprint");
    assert_eq!(
        by_fingerprint["observed"]["key_coverage"],
        serde_json::Value::Null
    );
    assert_eq!(
        by_fingerprint["observed"]["intents"],
        auto["observed"]["intents"]
    );
}

/// A key column that never holds a key, beside the client's address: `auto` groups by key,
/// so every attempt is an intent, and a warning names `--intents fingerprint`.
#[test]
fn an_empty_key_column_points_at_fingerprints() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("empty-keys.csv");
    let mut text =
        String::from("time,method,path,status,upstream_status,remote_addr,idempotency_key\n");
    for i in 0..120 {
        text.push_str(&format!(
            "2026-11-01T{:02}:{:02}:00Z,POST,/o,504,-,10.0.0.{},-\n",
            i / 60,
            i % 60,
            i % 7
        ));
    }
    std::fs::write(&path, text).unwrap();
    let path = path.to_str().unwrap();
    let v = common::json(&["logs", path, "--succeeded-share", "50%"]);
    assert_eq!(v["observed"]["intent_grouping"], "key");
    assert_eq!(v["observed"]["intents"], 120);
    let warnings = v["observed"]["warnings"].as_array().unwrap();
    assert!(
        warnings.iter().any(|w| w.as_str().unwrap().contains(
            "carried no key: every mutating attempt is an intent; --intents fingerprint"
        )),
        "{warnings:?}"
    );
    let v = common::json(&[
        "logs",
        path,
        "--succeeded-share",
        "50%",
        "--intents",
        "fingerprint",
    ]);
    assert_eq!(v["observed"]["intent_grouping"], "fingerprint");
    // Seven clients, each retrying its timed-out request every 7 minutes: one intent each.
    assert_eq!(v["observed"]["intents"], 7);
}

#[test]
fn bad_grouping_flags_exit_2_with_one_line() {
    let usage = |args: &[&str], needle: &str| {
        let err = common::usage_error(&[&["logs", "samples/access-log.csv"], args].concat());
        assert!(err.contains(needle), "{args:?}: {err}");
    };
    usage(&["--intents", "ip"], "--intents");
    usage(&["--shared-address-rate", "0"], "--shared-address-rate");
    usage(&["--shared-address-rate", "256"], "--shared-address-rate");
    // The sample log has no client address: fingerprints cannot be made.
    usage(
        &["--intents", "fingerprint"],
        "--intents fingerprint needs the client's address",
    );
    usage(&["--intents", "fingerprint"], "--column client_addr=HEADER");
    // A client address without timestamps: no retry window to group by.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("no-time.csv");
    std::fs::write(
        &path,
        "method,path,status,remote_addr\nPOST,/o,504,10.0.0.1\nPOST,/o,201,10.0.0.1\n",
    )
    .unwrap();
    let path = path.to_str().unwrap();
    let err = common::usage_error(&["logs", path, "--intents", "fingerprint"]);
    assert!(
        err.contains("--intents fingerprint needs timestamps")
            && err.contains("--column timestamp=HEADER"),
        "{err}"
    );
    // auto does not fingerprint it: every attempt is an intent.
    let v = common::json(&[
        "logs",
        path,
        "--requests-per-day",
        "100",
        "--succeeded-share",
        "50%",
    ]);
    assert_eq!(v["observed"]["intent_grouping"], "none");
    assert_eq!(v["observed"]["intents"], 2);
}

/// The backend's own log settles which attempts executed (issue 24): on a keyless log whose
/// proxy hides half the timed-out attempts' outcomes (upstream `-`), `--outcomes` gives the
/// intents that executed twice or more within 5% of the truth, for fingerprinted intents and
/// for keyed ones; the proxy log alone gives fewer, a lower bound.
#[test]
fn the_backend_log_settles_duplicates_per_intent() {
    let dir = tempfile::tempdir().unwrap();
    for keys in [false, true] {
        let cfg = KeylessConfig {
            intents: 8_000,
            seed: 24,
            unknown_share: 0.5,
            timeout_rate: 0.08,
            request_ids: true,
            keys,
            ..KeylessConfig::default()
        };
        let path = dir.path().join(format!("proxy-{keys}.csv"));
        let backend = dir.path().join(format!("backend-{keys}.csv"));
        let truth = keyless::generate_keyless_with_backend(
            &cfg,
            std::fs::File::create(&path).unwrap(),
            Some(std::fs::File::create(&backend).unwrap()),
        )
        .unwrap();
        assert!(
            truth.executed_twice > 150 && truth.executed_twice > truth.executed_duplicates + 30,
            "{truth:?}"
        );
        let (p, b) = (path.to_str().unwrap(), backend.to_str().unwrap());
        let grouping = if keys { "key" } else { "fingerprint" };
        let alone = common::json(&["logs", p, "--succeeded-share", "0.5"]);
        assert_eq!(alone["observed"]["intent_grouping"], grouping);
        let d = &alone["observed"]["observed_duplicates"];
        if keys {
            // Without the backend's log, a keyed retry answered 2xx may be a replay.
            assert_eq!(*d, serde_json::Value::Null);
        } else {
            let seen_alone = d["count"].as_u64().unwrap();
            assert_eq!(seen_alone, truth.executed_duplicates);
            assert!(seen_alone < truth.executed_twice * 9 / 10, "{seen_alone}");
        }

        let v = common::json(&["logs", p, "--outcomes", b]);
        let o = &v["observed"];
        assert_eq!(o["intent_grouping"], grouping);
        assert_eq!(o["backend_log"]["per_intent"], true);
        let d = &o["observed_duplicates"];
        let seen = d["count"].as_u64().unwrap();
        assert!(
            common::close(seen as f64, truth.executed_twice as f64, 0.05),
            "{grouping}: seen {seen}, truth {}",
            truth.executed_twice
        );
        // Each is known by the upstream status or by the backend's log.
        let e = &d["evidence"];
        assert_eq!(
            e["upstream_2xx"].as_u64().unwrap() + e["outcomes"].as_u64().unwrap(),
            seen
        );
        assert!(e["outcomes"].as_u64().unwrap() > 0);
        // Read twice, the counts are those of the attempts' join.
        assert_eq!(o["timed_out"], truth.timed_out);
        let (text, _) = output(&[p, "--outcomes", b]);
        assert!(
            text.contains(&format!(
                "  seen executed twice: {}, ",
                dupcost::report::words::count(seen)
            )),
            "{text}"
        );
        assert!(text.contains("  likely, by the model: "), "{text}");
        if keys {
            assert!(d["note"].as_str().unwrap().contains("grouped by key"));
        }
    }
    // From stdin the proxy log cannot be read twice: the attempts' counts move, the
    // duplicates stay those the proxy log shows, and the note says it is a lower bound.
    let path = dir.path().join("proxy-false.csv");
    let backend = dir.path().join("backend-false.csv");
    let out = common::succeed(
        common::dupcost()
            .args(["logs", "-", "--outcomes", backend.to_str().unwrap()])
            .args(["--format", "json"])
            .write_stdin(std::fs::read(&path).unwrap()),
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let o = &v["observed"];
    assert_eq!(o["backend_log"]["per_intent"], false);
    let d = &o["observed_duplicates"];
    assert!(d["note"].as_str().unwrap().contains("a lower bound"), "{d}");
    let read_twice = common::json(&[
        "logs",
        path.to_str().unwrap(),
        "--outcomes",
        backend.to_str().unwrap(),
    ]);
    // The same attempts' outcomes either way.
    assert_eq!(
        o["timed_out_succeeded"],
        read_twice["observed"]["timed_out_succeeded"]
    );
    assert!(d["count"].as_u64() < read_twice["observed"]["observed_duplicates"]["count"].as_u64());
}
