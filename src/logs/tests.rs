//! Properties of the pipeline that need its internals: records read in pieces cut anywhere
//! between lines and merged in order give the tally of reading them whole.

#[path = "../../examples/gen-access-log/generator.rs"]
mod generator;

use generator::Config;

use super::formats::ColumnMap;
use super::options::DEFAULT_TIMEOUT_STATUSES;
use super::row::{self, RowRules};
use super::source::Piece;
use super::timestamp::TimestampFormat;
use super::{LogError, Tally};

/// Reads `data` (rows after the header) in the given pieces and merges them in order.
/// A generated log of `rows` rows over 72 minutes with many timeouts and retries, and its
/// truth.
fn retrying_log(rows: u64) -> (Vec<u8>, generator::Truth) {
    let mut plain = Vec::new();
    let cfg = Config {
        rows,
        days: 0.05,
        timeout_rate: 0.3,
        retries: 5,
        ..Config::default()
    };
    let truth = generator::generate(&cfg, &mut plain).unwrap();
    (plain, truth)
}

/// A CSV log's header line and the data after it.
fn header_and_data(plain: &[u8]) -> (&[u8], &[u8]) {
    let header_end = plain.iter().position(|&b| b == b'\n').unwrap();
    (&plain[..header_end], &plain[header_end + 1..])
}

fn tally_in_pieces(header: &[u8], data: &[u8], cuts: &[usize], window: i64) -> Tally {
    let rules = csv_rules(header, window);
    let mut bounds = vec![0];
    bounds.extend_from_slice(cuts);
    bounds.push(data.len());
    let mut total: Option<Tally> = None;
    for w in bounds.windows(2) {
        let piece = Piece {
            first_line: 2,
            start: w[0] as u64,
            stop: None,
            // The first piece as `dupcost logs` reads one input; pieces after it may follow.
            follows: w[0] != 0,
        };
        let scanned = row::scan(&data[w[0]..w[1]], &rules, piece, &|e| LogError::Io {
            path: "t".into(),
            source: e,
        })
        .unwrap();
        match &mut total {
            Some(t) => t.merge(scanned.tally),
            None => total = Some(scanned.tally),
        }
    }
    total.unwrap().finish()
}

/// The rules of a generated CSV log with `header`, keys grouping its intents.
fn csv_rules(header: &[u8], window: i64) -> RowRules {
    let refs: Vec<&[u8]> = header.split(|&b| b == b',').collect();
    let columns = ColumnMap::detect("t", &refs, &[], None).unwrap();
    let mut timeout = Box::new([false; 1000]);
    for s in DEFAULT_TIMEOUT_STATUSES {
        timeout[usize::from(s)] = true;
    }
    RowRules {
        file: "t".into(),
        columns,
        delimiter: b',',
        formats: None,
        envelope: None,
        timestamps: TimestampFormat::Auto,
        methods: ["POST", "PUT", "PATCH", "DELETE"]
            .iter()
            .map(|m| m.as_bytes().to_vec())
            .collect(),
        timeout,
        client_timeout: None,
        client_timeout_secs: None,
        path: None,
        since: None,
        until: None,
        window_micros: window,
        strict: false,
        // The request ids of timed-out attempts merge in order too.
        keep_request_ids: true,
        answers: None,
        grouping: row::Grouping::Key,
        shared_rate: super::tally::DEFAULT_SHARED_RATE,
        server_side: false,
        side: super::SideRead {
            side: super::LogSide::Proxy,
            why: String::new(),
        },
    }
}

#[test]
fn merging_pieces_equals_reading_whole() {
    // Many retries, and windows from shorter than the gap between retries (31-41 s: every
    // attempt its own intent) to longer than the pieces (about 90 s each for 50 pieces): intents
    // straddle the cuts, and keys are retired while reading.
    let (plain, truth) = retrying_log(6_000);
    let (header, data) = header_and_data(&plain);
    let newlines: Vec<usize> = data
        .iter()
        .enumerate()
        .filter(|(_, b)| **b == b'\n')
        .map(|(i, _)| i + 1)
        .collect();
    for window in [3_600_000_000, 20_000_000, 60_000_000, 300_000_000] {
        let whole = tally_in_pieces(header, data, &[], window);
        if window == 3_600_000_000 {
            assert_eq!(whole.intents(), truth.intents);
        }
        let mut rng = generator::Rng::new(window as u64);
        for pieces in [2, 3, 7, 50] {
            let mut cuts: Vec<usize> = (1..pieces)
                .map(|_| newlines[rng.below(newlines.len() as u64) as usize])
                .collect();
            cuts.sort_unstable();
            cuts.dedup();
            let merged = tally_in_pieces(header, data, &cuts, window);
            assert_eq!(merged, whole, "window {window}, cuts {cuts:?}");
            assert_eq!(merged.keyed, whole.keyed);
        }
    }
}

/// `logs --follow`: whole lines fed as they arrive, in any cut, into one running tally give
/// the tally of reading them whole, and a snapshot at any point neither changes it nor differs
/// from finishing a copy. Cut into buckets of log time (`--window`), the buckets merged in order
/// give it too.
#[test]
fn feeding_lines_as_they_arrive_equals_reading_whole() {
    let (plain, _) = retrying_log(4_000);
    let (header, data) = header_and_data(&plain);
    let newlines: Vec<usize> = data
        .iter()
        .enumerate()
        .filter(|(_, b)| **b == b'\n')
        .map(|(i, _)| i + 1)
        .collect();
    for window in [20_000_000, 300_000_000, 3_600_000_000] {
        let whole = tally_in_pieces(header, data, &[], window);
        let rules = csv_rules(header, window);
        let mut rng = generator::Rng::new(window as u64);
        for pieces in [1, 5, 40] {
            let mut cuts: Vec<usize> = (1..pieces)
                .map(|_| newlines[rng.below(newlines.len() as u64) as usize])
                .collect();
            cuts.push(0);
            cuts.push(data.len());
            cuts.sort_unstable();
            cuts.dedup();
            let mut feeder = row::Feeder::new(&rules, false, 2);
            // Buckets of a minute of log time: dozens of them.
            let mut bucketed = row::Feeder::new(&rules, false, 2).with_buckets(60_000_000);
            let mut buckets = Vec::new();
            for w in cuts.windows(2) {
                feeder.feed(&data[w[0]..w[1]]).unwrap();
                let snapshot = feeder.tally().snapshot();
                let copy = feeder.tally().clone().finish();
                assert_eq!(snapshot, copy, "window {window}, cut at {}", w[1]);
                bucketed.feed(&data[w[0]..w[1]]).unwrap();
                buckets.extend(bucketed.closed());
            }
            assert_eq!(
                feeder.tally().snapshot(),
                whole,
                "window {window}, cuts {cuts:?}"
            );
            let mut running = feeder.tally().clone();
            assert_eq!(running.clone().finish(), whole);
            running.settle_queued();
            assert!(buckets.len() >= 30, "{} buckets", buckets.len());
            let mut merged = buckets.remove(0);
            for b in buckets {
                merged.merge(b);
            }
            merged.merge(bucketed.tally().clone());
            assert_eq!(merged.finish(), whole, "window {window}, buckets");
        }
    }
}
