//! `dupcost sql` on real engines: each case's log is loaded into DuckDB, chDB (ClickHouse) and
//! Spark SQL (local mode) as text columns, the query `dupcost sql` prints for that engine is
//! run, its result exported as the engine exports (CSV, JSON lines), and `dupcost estimate
//! --observed` on it must give the report `dupcost logs` gives on the same file: every count
//! exactly, every derived figure to 1e-9. Trino (Athena) and BigQuery run nowhere here: their
//! queries are parsed by sqlglot in their dialect.
//!
//! The engines run in the Python venv `.ci/run` makes (target/sql-venv, or
//! `DUPCOST_SQL_PYTHON`); without it the test is skipped locally but FAILS when `CI` is set.
//! One test, so one Spark session serves every case (its start costs more than the cases).

use crate::common;
use crate::generator;
use crate::keyless;
// Only its generator is used here, not its truth.
#[allow(dead_code)]
use crate::receiver;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::common::{close, dupcost, succeed};
use clap::Parser;
use dupcost::cli::{Cli, Command as Cmd};
use dupcost::logs::{self, LogInput, LogOptions, Tally};
use serde_json::{Value, json};

/// The venv's python, when it has the engines, and Java for Spark.
fn python() -> Option<PathBuf> {
    const TEST: &str = "dupcost sql on real engines (tests/sql/engines.rs)";
    let java = if common::on_path("java") {
        vec![]
    } else {
        vec!["java".to_string()]
    };
    if !common::needs(
        TEST,
        &java,
        "Spark runs on it: apt-get install default-jre-headless",
    ) {
        return None;
    }
    common::venv_python(
        TEST,
        "duckdb, chdb, pyspark, sqlglot",
        "duckdb, chdb, pyspark and sqlglot",
    )
}

/// A log, the `dupcost sql` flags that read it, and the file and flags with which `dupcost
/// logs` reads the same rows the same way.
struct Case {
    name: &'static str,
    log: PathBuf,
    sql_args: Vec<String>,
    logs_file: PathBuf,
    logs_args: Vec<String>,
    /// Scenario flags given to both reports (e.g. --max-unknown).
    report_args: Vec<String>,
    /// More tables the query reads, by name (the backend's log for --outcomes-table).
    tables: Vec<(&'static str, PathBuf)>,
}

fn strings(args: &[&str]) -> Vec<String> {
    args.iter().map(|s| s.to_string()).collect()
}

fn generate(dir: &Path, name: &str, cfg: generator::Config) -> PathBuf {
    let path = dir.join(name);
    generator::generate(&cfg, std::fs::File::create(&path).unwrap()).unwrap();
    path
}

/// The generated log rewritten as AWS's CloudFront table has it (date and time apart, whole
/// seconds, no upstream status, no key; the viewer's address, X-Forwarded-For, user agent,
/// request size and detailed result type, a viewer's give-up now and then), and the same rows
/// as a plain CSV for `dupcost logs`, whose column names map to the same roles.
fn cloudfront(dir: &Path, generated: &Path) -> (PathBuf, PathBuf) {
    let text = std::fs::read_to_string(generated).unwrap();
    let mut cf = String::from(
        "date,time,cs_method,cs_uri_stem,sc_status,sc_bytes,c_ip,x_forwarded_for,cs_user_agent,cs_bytes,x_edge_detailed_result_type\n",
    );
    let mut plain = String::from(
        "timestamp,method,path,status,bytes,c_ip,x_forwarded_for,user_agent,cs_bytes,x_edge_detailed_result_type\n",
    );
    for (n, line) in text.lines().skip(1).enumerate() {
        let f: Vec<&str> = line.split(',').collect();
        // timestamp,method,path,status,upstream_status,duration_ms,idempotency_key,bytes,
        // user_agent: an intent's attempts share its key, so its client comes from the key.
        let (date, time) = (&f[0][..10], &f[0][11..19]);
        let key = if f[6].is_empty() {
            format!("{n:08x}")
        } else {
            f[6].to_string()
        };
        let byte = |i: usize| u8::from_str_radix(&key[i..i + 2], 16).unwrap();
        let client = format!("10.{}.{}.7", byte(0), byte(2) % 16);
        let forwarded = if byte(4) % 5 == 0 {
            format!("198.51.100.{}, 10.0.0.1", byte(6))
        } else {
            "-".to_string()
        };
        let length = 300 + f[2].len();
        let result = if n % 40 == 0 && f[3].starts_with('2') {
            "ClientCommError"
        } else {
            "Miss"
        };
        let tail = format!("{client},\"{forwarded}\",{},{length},{result}", f[8]);
        cf.push_str(&format!(
            "{date},{time},{},{},{},{},{tail}\n",
            f[1], f[2], f[3], f[7]
        ));
        plain.push_str(&format!(
            "{date}T{time}Z,{},{},{},{},{tail}\n",
            f[1], f[2], f[3], f[7]
        ));
    }
    let (cf_path, plain_path) = (dir.join("cloudfront.csv"), dir.join("cloudfront-plain.csv"));
    std::fs::write(&cf_path, cf).unwrap();
    std::fs::write(&plain_path, plain).unwrap();
    (cf_path, plain_path)
}

/// Random paths built from every kind of segment the templating tells apart (numbers, hex
/// around 8 characters, UUIDs with and without digits, base62 tokens around 16 characters
/// with and without a `prefix_`, words, `v1`), as paths, full URLs, with queries and
/// fragments and empty segments; and few keys, attempted at gaps around the retry window.
fn random_paths(dir: &Path) -> PathBuf {
    let mut rng = generator::Rng::new(2026);
    let pick = |items: &[&str], rng: &mut generator::Rng| {
        items[rng.below(items.len() as u64) as usize].to_string()
    };
    let chars = |rng: &mut generator::Rng, alphabet: &[u8], n: u64| -> String {
        (0..n)
            .map(|_| alphabet[rng.below(alphabet.len() as u64) as usize] as char)
            .collect()
    };
    let mut text = String::from("timestamp,method,path,status,upstream_status,idempotency_key\n");
    let mut ts: i64 = 1_793_491_200_000_000;
    for _ in 0..600 {
        let mut path = String::new();
        for _ in 0..1 + rng.below(4) {
            let segment = match rng.below(9) {
                0 => {
                    let n = 1 + rng.below(12);
                    chars(&mut rng, b"0123456789", n)
                }
                1 => {
                    let n = 6 + rng.below(4);
                    chars(&mut rng, b"0123456789abcdefABCDEF", n)
                }
                2 => {
                    let hex = |rng: &mut generator::Rng, n| chars(rng, b"0123456789abcdef", n);
                    let alpha = |rng: &mut generator::Rng, n| chars(rng, b"abcdef", n);
                    let digits = rng.chance(0.7);
                    let part = |rng: &mut generator::Rng, n| {
                        if digits { hex(rng, n) } else { alpha(rng, n) }
                    };
                    let (a, b, c, d, e) = (
                        part(&mut rng, 8),
                        part(&mut rng, 4),
                        part(&mut rng, 4),
                        part(&mut rng, 4),
                        part(&mut rng, 12),
                    );
                    format!("{a}-{b}-{c}-{d}-{e}")
                }
                3 | 4 => {
                    let prefix = pick(&["", "ch_", "pay_", "_", "abcdefghi_", "a1_"], &mut rng);
                    let alphabet: &[u8] = match rng.below(3) {
                        0 => b"0123456789",
                        1 => b"abcdefghijklmnopqrstuvwxyz",
                        _ => b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
                    };
                    let n = 14 + rng.below(5);
                    format!("{prefix}{}", chars(&mut rng, alphabet, n))
                }
                5 => pick(
                    &["orders", "v1", "v2", "capture", "items", "x-y.z", "%41b1"],
                    &mut rng,
                ),
                6 => String::new(),
                7 => {
                    let n = 8 + rng.below(30);
                    chars(&mut rng, b"0123456789abcdef-_.~", n)
                }
                _ => pick(&["deadbeef", "DEADBEEF1", "0a1b", "g1234567"], &mut rng),
            };
            path.push('/');
            path.push_str(&segment);
        }
        let path = match rng.below(6) {
            0 => format!("https://api.example.com:443{path}"),
            1 => format!("{path}?q=1&next=http://x/y"),
            2 => format!("{path}#frag"),
            3 => format!("{path}/"),
            _ => path,
        };
        // Gaps of a few minutes to two hours: some keys' next attempts fall either side of the
        // hour's retry window, a few exactly on it.
        ts += match rng.below(8) {
            0 => 3_600_000_000,
            _ => rng.below(2 * 3_600_000_000) as i64 / 8,
        };
        let key = format!("k{}", rng.below(40));
        let seconds = ts / 1_000_000;
        let micros = ts % 1_000_000;
        let status = pick(&["200", "504", "499", "201"], &mut rng);
        let upstream = pick(&["200", "-", "504", "\"502, 201\"", ""], &mut rng);
        text.push_str(&format!(
            "{}.{micros:06}Z,POST,{path},{status},{upstream},{key}\n",
            jiff::Timestamp::from_second(seconds)
                .unwrap()
                .strftime("%Y-%m-%dT%H:%M:%S")
        ));
    }
    let file = dir.join("random-paths.csv");
    std::fs::write(&file, text).unwrap();
    file
}

/// More routes than `logs` keeps apart (10,000): each new route once, in time order, and the
/// first routes again at the end (they keep their own rows), so the last new ones fold into
/// `(other routes)`.
fn many_routes(dir: &Path) -> PathBuf {
    let mut text = String::from("timestamp,method,path,status,upstream_status,idempotency_key\n");
    let start: i64 = 1_793_491_200;
    let routes = dupcost::logs::MAX_ENDPOINTS as i64 + 150;
    for i in 0..routes + 300 {
        // Words, not ids: every route is its own template.
        let route = if i < routes { i } else { i - routes };
        let status = if i % 7 == 0 { 504 } else { 201 };
        text.push_str(&format!(
            "{},POST,/v1/things/w{route}x/do,{status},-,k{}\n",
            jiff::Timestamp::from_second(start + i).unwrap(),
            i / 3
        ));
    }
    let file = dir.join("many-routes.csv");
    std::fs::write(&file, text).unwrap();
    file
}

/// A keyless log (client addresses, X-Forwarded-For, user agents, request lengths, a NAT
/// address sending more than the shared-address rate) with request ids, and its backend's log.
fn keyless_logs(dir: &Path) -> (PathBuf, PathBuf) {
    let (log, backend) = (dir.join("keyless.csv"), dir.join("keyless-backend.csv"));
    keyless::generate_keyless_with_backend(
        &keyless::KeylessConfig {
            intents: 4_000,
            seed: 9,
            days: 0.5,
            clients: 600,
            timeout_rate: 0.08,
            unknown_share: 0.4,
            nat_clients: 40,
            request_ids: true,
            ..keyless::KeylessConfig::default()
        },
        std::fs::File::create(&log).unwrap(),
        Some(std::fs::File::create(&backend).unwrap()),
    )
    .unwrap();
    (log, backend)
}

/// A webhook receiver's own log (no upstream column; keyed by the sender's event id, slow
/// deliveries past the sender's timeout), with RFC 3339 times for the engines to read,
/// `webhook_id` for a column name every engine takes unquoted, and some durations signed.
fn receiver_log(dir: &Path) -> PathBuf {
    let mut bytes = Vec::new();
    receiver::generate_receiver(
        &receiver::ReceiverConfig {
            events: 3_000,
            seed: 17,
            days: 2.0,
            start: 1_793_491_200.0,
            timeout_rate: 0.1,
            succeeded_share: 0.6,
            sender_timeout: 15.0,
            schedule: vec![5.0, 300.0, 1_800.0, 7_200.0],
            csv: true,
        },
        &mut bytes,
    )
    .unwrap();
    let text = String::from_utf8(bytes).unwrap();
    let mut out = String::from("timestamp,method,path,status,duration_ms,webhook_id\n");
    for (n, line) in text.lines().skip(1).enumerate() {
        let (ts, rest) = line.split_once(',').unwrap();
        let micros = (ts.parse::<f64>().unwrap() * 1e6).round() as i64;
        let stamp = jiff::Timestamp::from_microsecond(micros).unwrap();
        // Every fifth duration with a `+`, which `logs` reads as the number.
        let mut fields: Vec<String> = rest.split(',').map(String::from).collect();
        if n % 5 == 0 {
            fields[3] = format!("+{}", fields[3]);
        }
        out.push_str(&format!("{stamp},{}\n", fields.join(",")));
    }
    let file = dir.join("receiver.csv");
    std::fs::write(&file, out).unwrap();
    file
}

/// A Go `time.Duration`'s `String()` (Go's src/time/time.go): `16.2s`, `1m30s`, `850µs`.
fn go_string(nanos: u64) -> String {
    let fraction = |v: u64, digits: u32| -> String {
        let scale = 10u64.pow(digits);
        let (whole, rest) = (v / scale, v % scale);
        if rest == 0 {
            return whole.to_string();
        }
        let text = format!("{rest:0width$}", width = digits as usize);
        format!("{whole}.{}", text.trim_end_matches('0'))
    };
    match nanos {
        0 => "0s".into(),
        n if n < 1_000 => format!("{n}ns"),
        n if n < 1_000_000 => format!("{}µs", fraction(n, 3)),
        n if n < 1_000_000_000 => format!("{}ms", fraction(n, 6)),
        n => {
            let secs = fraction(n % 60_000_000_000, 9);
            let minutes = n / 60_000_000_000;
            match (minutes / 60, minutes % 60) {
                (0, 0) => format!("{secs}s"),
                (0, m) => format!("{m}m{secs}s"),
                (h, m) => format!("{h}h{m}m{secs}s"),
            }
        }
    }
}

/// The receiver's log with its durations written as a Go service writes a `time.Duration`
/// (`15.234s`, `20.512345ms`, `1m16.2s`, `850µs`, `120ns`), under a name that says no unit;
/// now and then a value that is no duration (`-5ms`).
fn go_durations_log(dir: &Path) -> PathBuf {
    let text = std::fs::read_to_string(receiver_log(dir)).unwrap();
    let mut out = String::from("timestamp,method,path,status,duration,webhook_id\n");
    for (n, line) in text.lines().skip(1).enumerate() {
        let mut fields: Vec<String> = line.split(',').map(String::from).collect();
        let ms: u64 = fields[4].trim_start_matches('+').parse().unwrap();
        let n = n as u64;
        let nanos = match n % 13 {
            // Exactly the timeout, as milliseconds.
            0 => 15_000_000_000,
            1 => ms * 1_000_000 + 60_000_000_000,
            2 => ms * 1_000_000 + n % 7 * 123_457,
            3 => n % 997 * 1_000 + 120,
            4 => n % 997,
            _ => ms * 1_000_000,
        };
        fields[4] = match n % 97 {
            96 => "-5ms".to_string(),
            _ if n % 13 == 0 => "15000ms".to_string(),
            _ if n % 29 == 0 => go_string(nanos).replace('µ', "u"),
            _ => go_string(nanos),
        };
        out.push_str(&fields.join(","));
        out.push('\n');
    }
    let file = dir.join("go-durations.csv");
    std::fs::write(&file, out).unwrap();
    file
}

/// A small keyless log in which one client sent two attempts of the same request at the same
/// microsecond, in the order the query takes them (by status): the figures agree, and the
/// result says that a table cannot tell such attempts' order.
fn fingerprint_ties(dir: &Path) -> PathBuf {
    let mut text = String::from("timestamp,method,path,status,upstream_status,client_addr\n");
    let start: i64 = 1_793_491_200;
    let mut row = |s: i64, path: &str, status: u16, upstream: &str, client: &str| {
        text.push_str(&format!(
            "{},POST,{path},{status},{upstream},{client}\n",
            jiff::Timestamp::from_second(start + s).unwrap()
        ));
    };
    for i in 0..24 {
        let t = i * 300;
        let client = format!("10.0.0.{}", i % 3);
        if i % 4 == 1 {
            row(t, "/v1/orders", 504, "200", &client);
            row(t + 5, "/v1/orders", 201, "201", &client);
        } else {
            row(t, &format!("/v1/orders?n={i}"), 201, "201", &client);
        }
        if i == 10 {
            // The tie: answered, then sent again at once and timed out, then retried.
            row(t + 60, "/v1/refunds", 201, "201", "10.0.0.9");
            row(t + 60, "/v1/refunds", 504, "-", "10.0.0.9");
            row(t + 70, "/v1/refunds", 201, "201", "10.0.0.9");
        }
    }
    let file = dir.join("ties.csv");
    std::fs::write(&file, text).unwrap();
    file
}

fn cases(dir: &Path) -> Vec<Case> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let gen_cfg = generator::Config {
        rows: 20_000,
        seed: 11,
        key_share: 0.7,
        unknown_share: 0.2,
        bad_every: 997,
        ..generator::Config::default()
    };
    let generated = generate(dir, "generated.csv", gen_cfg.clone());
    let alb = generate(
        dir,
        "alb.csv",
        generator::Config {
            format: generator::Format::Alb,
            seed: 12,
            unknown_share: 0.05,
            bad_every: 0,
            ..gen_cfg.clone()
        },
    );
    let (cf, cf_plain) = cloudfront(
        dir,
        &generate(
            dir,
            "for-cloudfront.csv",
            generator::Config {
                seed: 13,
                bad_every: 0,
                unknown_share: 0.0,
                ..gen_cfg
            },
        ),
    );
    let random = random_paths(dir);
    let routes = many_routes(dir);
    let receiver = receiver_log(dir);
    let go_durations = go_durations_log(dir);
    let ties = fingerprint_ties(dir);
    let (keyless_log, keyless_backend) = keyless_logs(dir);
    // The keyless table's columns for the fingerprint (the generic table names them after
    // their roles; this log has the nginx-like names `logs` knows by alias).
    let fingerprint_columns = [
        "--column",
        "client_addr=remote_addr",
        "--column",
        "forwarded_for=x_forwarded_for",
        "--column",
        "idempotency_key=",
        "--column",
        "bytes=",
    ];
    // Give-up flags: Envoy's response flags and HAProxy's termination state (issue 24).
    let envoy = generate(
        dir,
        "envoy.csv",
        generator::Config {
            format: generator::Format::Envoy,
            rows: 8_000,
            seed: 21,
            bad_every: 0,
            ..generator::Config::default()
        },
    );
    let haproxy = generate(
        dir,
        "haproxy.csv",
        generator::Config {
            format: generator::Format::Haproxy,
            rows: 8_000,
            seed: 22,
            bad_every: 0,
            ..generator::Config::default()
        },
    );
    // A keyed log with request ids and the backend's own log (issue 24).
    let (joined, backend) = (dir.join("joined.csv"), dir.join("backend.csv"));
    keyless::generate_keyless_with_backend(
        &keyless::KeylessConfig {
            intents: 6_000,
            seed: 5,
            unknown_share: 0.5,
            timeout_rate: 0.08,
            keys: true,
            request_ids: true,
            ..keyless::KeylessConfig::default()
        },
        std::fs::File::create(&joined).unwrap(),
        Some(std::fs::File::create(&backend).unwrap()),
    )
    .unwrap();
    let all_unknown = strings(&["--max-unknown", "100%"]);
    let filters = [
        "--since",
        "2026-11-02",
        "--until",
        "2026-11-06T12:00:00Z",
        "--path",
        "^/v1/(orders|payments)",
        "--methods",
        "post,PUT",
        "--timeout-status",
        "504,499",
        "--retry-window",
        "10m",
    ];
    let sample_columns = [
        "--column",
        "timestamp=time_local",
        "--column",
        "method=request_method",
        "--column",
        "path=request_uri",
        "--column",
        "idempotency_key=http_idempotency_key",
        "--column",
        "bytes=body_bytes_sent",
    ];
    vec![
        Case {
            name: "generated",
            log: generated.clone(),
            logs_file: generated.clone(),
            sql_args: vec![],
            logs_args: vec![],
            report_args: all_unknown.clone(),
            tables: vec![],
        },
        Case {
            name: "generated, filtered",
            log: generated.clone(),
            logs_file: generated,
            sql_args: strings(&filters),
            logs_args: strings(&filters),
            report_args: all_unknown.clone(),
            tables: vec![],
        },
        Case {
            name: "samples/access-log.csv",
            log: root.join("samples/access-log.csv"),
            logs_file: root.join("samples/access-log.csv"),
            sql_args: strings(&sample_columns),
            logs_args: vec![],
            report_args: vec![],
            tables: vec![],
        },
        Case {
            name: "edge cases",
            log: root.join("tests/fixtures/sql/edge-cases.csv"),
            logs_file: root.join("tests/fixtures/sql/edge-cases.csv"),
            sql_args: vec![],
            logs_args: vec![],
            report_args: all_unknown.clone(),
            tables: vec![],
        },
        Case {
            name: "random paths and keys",
            log: random.clone(),
            logs_file: random,
            // The generic table without a bytes column.
            sql_args: strings(&["--column", "bytes="]),
            logs_args: vec![],
            report_args: strings(&["--max-unknown", "100%"]),
            tables: vec![],
        },
        Case {
            name: "ALB, athena-alb",
            log: alb.clone(),
            logs_file: alb,
            // The generated table has no client columns: grouped by key, as `logs` does.
            sql_args: strings(&[
                "--preset",
                "athena-alb",
                "--column",
                "client_addr=",
                "--column",
                "user_agent=",
                "--column",
                "request_length=",
            ]),
            logs_args: vec![],
            report_args: all_unknown,
            tables: vec![],
        },
        Case {
            name: "CloudFront, athena-cloudfront",
            log: cf,
            logs_file: cf_plain,
            sql_args: strings(&["--preset", "athena-cloudfront"]),
            // No key: both group by fingerprint.
            logs_args: strings(&["--intents", "auto"]),
            report_args: strings(&["--succeeded-share", "40%"]),
            tables: vec![],
        },
        Case {
            name: "Envoy response flags",
            log: envoy.clone(),
            logs_file: envoy,
            sql_args: strings(&[
                "--column",
                "timestamp=start_time",
                "--column",
                "status=response_code",
                "--column",
                "flags=response_flags",
                "--column",
                "bytes=bytes_sent",
                "--column",
                "upstream_status=",
            ]),
            logs_args: vec![],
            report_args: strings(&["--succeeded-share", "40%"]),
            tables: vec![],
        },
        Case {
            name: "HAProxy termination state",
            log: haproxy.clone(),
            logs_file: haproxy,
            sql_args: strings(&[
                "--column",
                "timestamp=accept_date",
                "--column",
                "status=http_status_code",
                "--column",
                "flags=termination_state",
                "--column",
                "method=http_verb",
                "--column",
                "path=http_request",
                "--column",
                "bytes=",
                "--column",
                "upstream_status=",
                "--column",
                "idempotency_key=",
            ]),
            logs_args: vec![],
            report_args: strings(&["--succeeded-share", "40%"]),
            tables: vec![],
        },
        Case {
            name: "the backend's log joined, --outcomes-table",
            log: joined.clone(),
            logs_file: joined,
            sql_args: strings(&["--outcomes-table", "backend", "--column", "bytes="]),
            logs_args: vec!["--outcomes".to_string(), backend.display().to_string()],
            report_args: vec![],
            tables: vec![("backend", backend)],
        },
        Case {
            name: "a webhook receiver's own log, --client-timeout",
            log: receiver.clone(),
            logs_file: receiver,
            sql_args: strings(&[
                "--column",
                "idempotency_key=webhook_id",
                "--column",
                "upstream_status=",
                "--column",
                "bytes=",
                "--column",
                "duration=duration_ms",
                "--client-timeout",
                "15s",
                "--retry-window",
                "3h",
            ]),
            logs_args: strings(&["--client-timeout", "15s", "--retry-window", "3h"]),
            report_args: vec![],
            tables: vec![],
        },
        Case {
            name: "Go durations that write their unit, --client-timeout",
            log: go_durations.clone(),
            logs_file: go_durations,
            sql_args: strings(&[
                "--column",
                "idempotency_key=webhook_id",
                "--column",
                "upstream_status=",
                "--column",
                "bytes=",
                "--column",
                "duration=duration",
                "--client-timeout",
                "15s",
                "--retry-window",
                "3h",
            ]),
            logs_args: strings(&["--client-timeout", "15s", "--retry-window", "3h"]),
            report_args: vec![],
            tables: vec![],
        },
        Case {
            name: "fingerprint ties",
            log: ties.clone(),
            logs_file: ties,
            sql_args: strings(&[
                "--column",
                "idempotency_key=",
                "--column",
                "bytes=",
                "--column",
                "user_agent=",
                "--column",
                "request_length=",
                "--intents",
                "fingerprint",
            ]),
            logs_args: strings(&["--intents", "fingerprint"]),
            report_args: strings(&["--succeeded-share", "50%", "--max-unknown", "100%"]),
            tables: vec![],
        },
        Case {
            name: "10,150 routes folded",
            log: routes.clone(),
            logs_file: routes,
            sql_args: strings(&["--column", "bytes="]),
            logs_args: vec![],
            report_args: vec![],
            tables: vec![],
        },
        Case {
            name: "keyless, --intents fingerprint, shared address, --client-timeout",
            log: keyless_log.clone(),
            logs_file: keyless_log.clone(),
            sql_args: [
                &fingerprint_columns[..],
                &[
                    "--intents",
                    "fingerprint",
                    "--column",
                    "duration=duration_ms",
                    "--client-timeout",
                    "100ms",
                ],
            ]
            .concat()
            .iter()
            .map(|s| s.to_string())
            .collect(),
            logs_args: strings(&["--intents", "fingerprint", "--client-timeout", "100ms"]),
            report_args: strings(&["--max-unknown", "100%"]),
            tables: vec![],
        },
        Case {
            name: "keyless, --intents auto, a shared-address rate of 45",
            log: keyless_log.clone(),
            logs_file: keyless_log.clone(),
            sql_args: [
                &fingerprint_columns[..],
                &[
                    "--column",
                    "user_agent=user_agent",
                    "--column",
                    "request_length=request_length",
                    "--shared-address-rate",
                    "45",
                ],
            ]
            .concat()
            .iter()
            .map(|s| s.to_string())
            .collect(),
            logs_args: strings(&["--intents", "auto", "--shared-address-rate", "45"]),
            report_args: strings(&["--max-unknown", "100%"]),
            tables: vec![],
        },
        Case {
            name: "keyless, fingerprints and the backend's log, --outcomes-table",
            log: keyless_log.clone(),
            logs_file: keyless_log,
            sql_args: [
                &fingerprint_columns[..],
                &["--intents", "fingerprint", "--outcomes-table", "backend"],
            ]
            .concat()
            .iter()
            .map(|s| s.to_string())
            .collect(),
            logs_args: vec![
                "--intents".to_string(),
                "fingerprint".to_string(),
                "--outcomes".to_string(),
                keyless_backend.display().to_string(),
            ],
            report_args: vec![],
            tables: vec![("backend", keyless_backend)],
        },
    ]
}

/// `--intents key` unless the case groups otherwise: the cases' logs without a key have no
/// client address either, or say how they group.
fn intents_args(case: &Case) -> Vec<String> {
    if case.logs_args.iter().any(|a| a == "--intents") {
        vec![]
    } else {
        strings(&["--intents", "key"])
    }
}

/// `dupcost logs` on the case's file, as JSON.
fn logs_report(case: &Case) -> Value {
    let out = succeed(
        dupcost()
            .arg("logs")
            .arg(&case.logs_file)
            .args(intents_args(case))
            .args(&case.logs_args)
            .args(&case.report_args)
            .args(["--format", "json"]),
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// `dupcost estimate --observed` on an engine's result, as JSON.
fn observed_report(case: &Case, result: &Path) -> Value {
    let out = succeed(
        dupcost()
            .args(["estimate", "--observed"])
            .arg(result)
            .args(&case.report_args)
            .args(["--format", "json"]),
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The tally `dupcost logs` makes of the case's file, with the case's flags.
fn logs_tally(case: &Case) -> Tally {
    let mut argv = vec!["dupcost".to_string(), "logs".to_string()];
    argv.push(case.logs_file.display().to_string());
    argv.extend(intents_args(case));
    argv.extend(case.logs_args.iter().cloned());
    let cli = Cli::try_parse_from(argv).unwrap();
    let Cmd::Logs(args) = cli.command else {
        unreachable!("a logs command")
    };
    let options = LogOptions {
        progress: false,
        ..dupcost::run::log_options(&args.read)
    };
    logs::analyze(&[LogInput::Path(case.logs_file.clone())], &options)
        .unwrap()
        .tally
}

/// Every count of the two tallies equal, every endpoint's too (the report shows only the
/// top ten).
fn assert_same_tally(logs: &Tally, sql: &Tally, at: &str) {
    assert_eq!(logs.rows, sql.rows, "{at}: rows");
    assert_eq!(logs.bad_rows, sql.bad_rows, "{at}: bad rows");
    assert_eq!(logs.out_of_range, sql.out_of_range, "{at}: out of range");
    assert_eq!(logs.path_filtered, sql.path_filtered, "{at}: path filtered");
    assert_eq!(logs.counts, sql.counts, "{at}: counts");
    assert_eq!(logs.unkeyed_intents, sql.unkeyed_intents, "{at}: unkeyed");
    assert_eq!(logs.keyed, sql.keyed, "{at}: keyed intents");
    assert_eq!(logs.fingerprinted, sql.fingerprinted, "{at}: fingerprints");
    assert_eq!(logs.shared, sql.shared, "{at}: shared addresses");
    assert_eq!(
        logs.attempts_per_intent, sql.attempts_per_intent,
        "{at}: attempts per intent"
    );
    // Keyed intents executed twice are reported (and measured by the query) on a server's
    // own log only.
    if sql.keyed_executions.intents > 0 {
        assert_eq!(
            logs.keyed_executions, sql.keyed_executions,
            "{at}: executed twice"
        );
    }
    if sql.duplicates != logs::Duplicates::default() {
        assert_eq!(logs.duplicates, sql.duplicates, "{at}: duplicates");
    }
    assert_eq!(
        logs.keyed_attempts, sql.keyed_attempts,
        "{at}: keyed attempts"
    );
    assert_eq!(
        (logs.first_ts, logs.last_ts),
        (sql.first_ts, sql.last_ts),
        "{at}: span"
    );
    assert_eq!(logs.per_day, sql.per_day, "{at}: per day");
    assert_eq!(
        logs.response_bytes.mean(),
        sql.response_bytes.mean(),
        "{at}: response bytes"
    );
    let endpoints = |t: &Tally| {
        let mut all: Vec<_> = t
            .endpoints
            .values()
            .map(|e| {
                (
                    e.method.clone(),
                    e.route.clone(),
                    e.counts,
                    e.intents,
                    e.keyed_attempts,
                )
            })
            .collect();
        all.sort_by(|a, b| (&a.0, &a.1).cmp(&(&b.0, &b.1)));
        all
    };
    assert_eq!(endpoints(logs), endpoints(sql), "{at}: endpoints");
}

/// Every value equal (floats to 1e-9), the warnings and the files read apart: the SQL's
/// warning says what it cannot see, `dupcost logs` may warn of a clock that ran backwards,
/// and one read a log where the other read the engine's result.
fn assert_same(logs: &Value, sql: &Value, at: &str) {
    match (logs, sql) {
        (Value::Object(a), Value::Object(b)) => {
            let keys = |o: &serde_json::Map<String, Value>| o.keys().cloned().collect::<Vec<_>>();
            assert_eq!(keys(a), keys(b), "{at}: the same fields");
            for (k, v) in a {
                if k != "warnings" && k != "files" {
                    assert_same(v, &b[k], &format!("{at}.{k}"));
                }
            }
        }
        (Value::Array(a), Value::Array(b)) => {
            assert_eq!(a.len(), b.len(), "{at}: lengths");
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                assert_same(x, y, &format!("{at}[{i}]"));
            }
        }
        (Value::Number(x), Value::Number(y)) if x.is_f64() || y.is_f64() => {
            let (x, y) = (x.as_f64().unwrap(), y.as_f64().unwrap());
            assert!(close(y, x, 1e-9) || x == y, "{at}: logs {x}, sql {y}");
        }
        _ => assert_eq!(logs, sql, "{at}"),
    }
}

#[test]
fn the_query_on_three_engines_gives_the_report_of_dupcost_logs() {
    let Some(python) = python() else { return };
    let dir = tempfile::tempdir().unwrap();
    let cases = cases(dir.path());
    let engines = [("duckdb", "csv"), ("clickhouse", "json"), ("spark", "csv")];
    let mut jobs = Vec::new();
    let mut results = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        for (engine, format) in engines {
            let query = succeed(
                dupcost()
                    .args(["sql", "--engine", engine, "--table", "logs"])
                    .args(&case.sql_args),
            );
            let out = dir.path().join(format!("result-{i}-{engine}.{format}"));
            let tables: serde_json::Map<String, Value> = case
                .tables
                .iter()
                .map(|(name, path)| (name.to_string(), json!(path)))
                .collect();
            jobs.push(json!({
                "engine": engine,
                "csv": case.log,
                "query": String::from_utf8(query.stdout).unwrap(),
                "out": out,
                "format": format,
                "tables": tables,
            }));
            results.push((case, engine, out));
        }
        for dialect in ["trino", "bigquery"] {
            let query = succeed(
                dupcost()
                    .args(["sql", "--engine", dialect, "--table", "logs"])
                    .args(&case.sql_args),
            );
            jobs.push(json!({
                "engine": "sqlglot",
                "dialect": dialect,
                "query": String::from_utf8(query.stdout).unwrap(),
            }));
        }
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/sql/engines.py");
    let mut child = Command::new(python)
        .arg(script)
        .stdin(Stdio::piped())
        .spawn()
        .unwrap();
    serde_json::to_writer(child.stdin.take().unwrap(), &jobs).unwrap();
    assert!(
        child.wait().unwrap().success(),
        "the engines ran the queries"
    );

    for (case, engine, out) in &results {
        let at = format!("{} on {engine}", case.name);
        let observed = dupcost::sql::read_observed_path(out, &LogOptions::default()).unwrap();
        assert_same_tally(&logs_tally(case), &observed.tally, &at);
        let logs = logs_report(case);
        let sql = observed_report(case, out);
        assert_same(&logs, &sql, &at);
        let observed = &sql["observed"];
        assert!(
            observed["mutating_attempts"].as_u64().unwrap() > 0,
            "{at}: something measured"
        );
        let warned = |text: &str| {
            observed["warnings"]
                .as_array()
                .unwrap()
                .iter()
                .any(|w| w.as_str().unwrap().contains(text))
        };
        assert!(
            warned("measured by dupcost sql"),
            "{at}: says what SQL cannot see"
        );
        assert_eq!(
            warned("1 attempt of one fingerprint at the same timestamp"),
            case.name == "fingerprint ties",
            "{at}: says where the order of ties is not known"
        );
    }
}
