//! The observed figures of the findings: per day, per endpoint, intents, key coverage and
//! the proxy's own retries (the duplicates seen are in `duplicates`, the warnings about the
//! log itself in `warnings`).

use crate::logs::{Grouping, LogAnalysis, Role, date_string, to_rfc3339};
use crate::model::{Estimate, Scenario};

use super::intervals::MIN_EVIDENCE;
use super::{
    AmplificationObserved, AttemptsRow, DayRow, DeriveOptions, EndpointRow, EndpointsOther,
    FileRead, FormatLines, InferredField, KeyCoverage, KeyCoverageRow, Observed, ProcessedTwice,
    ProxyRetriesObserved, RetriesObserved, SharedAddresses, SkippedLines, TOP_ENDPOINTS,
};

/// The observed figures; per-endpoint estimates use `scenario` for the inputs an
/// endpoint does not measure itself.
///
/// An endpoint's succeeded share is its own only where the whole log's was measured (a
/// `--succeeded-share` given for the log wins for its endpoints too) and its unknown
/// outcomes are within `--max-unknown`, as for the whole log; else the scenario's.
pub fn observed(
    a: &LogAnalysis,
    options: &DeriveOptions,
    scenario: &Scenario,
    retries_observed: Option<RetriesObserved>,
    share_measured: bool,
) -> Observed {
    let t = &a.tally;
    let days = a.days_covered().filter(|d| *d > 0.0);
    let stamps = a.has_timestamps();
    let outcomes = a.has_outcomes();
    // Counts of outcomes, only where the logs tell them.
    let told = |v: u64| outcomes.then_some(v);
    let mut endpoints = endpoint_rows(a, options, scenario, share_measured);
    let key_coverage = key_coverage(a, &endpoints);
    let per_endpoint_other = (endpoints.len() > TOP_ENDPOINTS).then(|| {
        let rest = &endpoints[TOP_ENDPOINTS..];
        EndpointsOther {
            endpoints: rest.len() as u64,
            mutating: rest.iter().map(|e| e.mutating).sum(),
            timed_out: rest.iter().map(|e| e.timed_out).sum(),
            duplicates_per_month: rest.iter().map(|e| e.duplicates_per_month).sum(),
            refund_per_month: rest.iter().map(|e| e.refund_per_month).sum(),
        }
    });
    endpoints.truncate(TOP_ENDPOINTS);
    let attempts_per_intent = attempts_per_intent(t);
    let files = files_read(a);
    let processed_twice = (a.is_server_log() && t.keyed.intents > 0).then(|| {
        let extra = t.keyed_executions.extra;
        ProcessedTwice {
            intents: t.keyed_executions.intents,
            extra_executions: extra,
            per_day: days.map(|d| extra as f64 / d),
        }
    });
    let fingerprinted = a.intent_grouping() == "fingerprint";
    Observed {
        intent_grouping: a.intent_grouping(),
        attempts_per_intent,
        observed_duplicates: None,
        key_coverage,
        shared_addresses: fingerprinted.then_some(SharedAddresses {
            rate: a.options.shared_address_rate,
            fingerprints: t.shared.fingerprints,
            attempts: t.shared.attempts,
        }),
        files,
        processed_twice,
        rows: t.rows,
        mutating_attempts: t.counts.mutating,
        intents: t.intents(),
        timed_out: t.counts.timed_out,
        timed_out_succeeded: told(t.counts.timed_out_succeeded),
        timed_out_unknown: told(t.counts.timed_out_unknown),
        timed_out_matched: a.join.as_ref().map(|j| j.matched),
        rows_filtered: t.out_of_range + t.path_filtered,
        warnings: Vec::new(),
        backend_log: a.join.clone(),
        days_covered: a.days_covered(),
        first_timestamp: t.first_ts.filter(|_| stamps).map(to_rfc3339),
        last_timestamp: t.last_ts.filter(|_| stamps).map(to_rfc3339),
        bad_rows: t.bad_rows,
        per_day: if stamps {
            t.per_day
                .iter()
                .map(|(day, c)| DayRow {
                    date: date_string(*day),
                    mutating: c.mutating,
                    timed_out: c.timed_out,
                    timed_out_succeeded: told(c.timed_out_succeeded),
                    timed_out_unknown: told(c.timed_out_unknown),
                })
                .collect()
        } else {
            Vec::new()
        },
        retries_observed,
        proxy_retries: proxy_retries(a),
        amplification: proxy_retries(a).map(|p| AmplificationObserved::of(&p, scenario)),
        per_endpoint: endpoints,
        per_endpoint_other,
    }
}

/// Every endpoint with mutating attempts, each with the estimate of its own inputs (its own
/// timeout rate however thin; its own share where measured, else the scenario's), scaled so
/// that the rows add up to the report's duplicates and refunds a month, ranked: those with
/// the minimum evidence first, by duplicates a month.
fn endpoint_rows(
    a: &LogAnalysis,
    options: &DeriveOptions,
    scenario: &Scenario,
    share_measured: bool,
) -> Vec<EndpointRow> {
    let t = &a.tally;
    let days = a.days_covered().filter(|d| *d > 0.0);
    let outcomes = a.has_outcomes();
    let told = |v: u64| outcomes.then_some(v);
    let mut endpoints: Vec<EndpointRow> = t
        .endpoints
        .iter()
        .filter(|(_, e)| e.counts.mutating > 0)
        .map(|(key, e)| {
            let ec = e.counts;
            let n = match days {
                Some(d) => e.intents as f64 / d,
                None if t.intents() > 0 => {
                    scenario.requests_per_day * e.intents as f64 / t.intents() as f64
                }
                None => 0.0,
            };
            let enough_evidence = ec.mutating >= MIN_EVIDENCE;
            let timeout_rate = ec.timed_out as f64 / ec.mutating as f64;
            let known = ec.timed_out - ec.timed_out_unknown;
            let own_share = outcomes
                && share_measured
                && known >= MIN_EVIDENCE
                && ec.timed_out_unknown as f64 <= options.max_unknown * ec.timed_out as f64;
            let succeeded_share = own_share.then(|| ec.timed_out_succeeded as f64 / known as f64);
            let (duplicates_per_month, refund_per_month) =
                endpoint_figures(scenario, n, timeout_rate, succeeded_share);
            EndpointRow {
                method: e.method.clone(),
                route: e.route.clone(),
                mutating: ec.mutating,
                timed_out: ec.timed_out,
                timed_out_succeeded: told(ec.timed_out_succeeded),
                timed_out_unknown: told(ec.timed_out_unknown),
                duplicates_per_month,
                refund_per_month,
                enough_evidence,
                requests_per_day: n,
                timeout_rate,
                succeeded_share,
                keyed_attempts: e.keyed_attempts,
                scale: None,
                proxy_retries: t
                    .proxy_retries_by_endpoint
                    .get(&key)
                    .filter(|p| p.attempts > 0)
                    .map(ProxyRetriesObserved::of),
            }
        })
        .collect();
    share_out(&mut endpoints, scenario);
    // Endpoints with too little evidence are never ranked as if measured: they come last.
    // (Their places are sorted, not the rows: moving thousands of rows through a sort cost
    // more than building them.)
    let mut order: Vec<usize> = (0..endpoints.len()).collect();
    order.sort_by(|&i, &j| {
        let (a, b) = (&endpoints[i], &endpoints[j]);
        b.enough_evidence
            .cmp(&a.enough_evidence)
            .then(b.duplicates_per_month.total_cmp(&a.duplicates_per_month))
            .then(b.mutating.cmp(&a.mutating))
            .then_with(|| (&a.route, &a.method).cmp(&(&b.route, &b.method)))
    });
    let mut rows: Vec<Option<EndpointRow>> = endpoints.into_iter().map(Some).collect();
    order.into_iter().filter_map(|i| rows[i].take()).collect()
}

/// Scales the endpoints' own estimates so that they add up to the scenario's duplicates and
/// refunds a month: each its part of the total in proportion to its own estimate (by its
/// mutating attempts where no endpoint's estimate has a duplicate). The model is not
/// additive (an endpoint's duplicates grow faster than its timeout rate), and the total's
/// inputs may be given, assumed or bounded where the endpoints' are their own counts. Its
/// inputs stay its own: the factor is kept beside them (`EndpointRow::scale`).
fn share_out(endpoints: &mut [EndpointRow], scenario: &Scenario) {
    let (total, refunds) = Estimate::duplicates_and_refunds_per_month(scenario);
    let own: f64 = endpoints.iter().map(|e| e.duplicates_per_month).sum();
    let mutating: u64 = endpoints.iter().map(|e| e.mutating).sum();
    for e in endpoints.iter_mut() {
        if own > 0.0 {
            let k = total / own;
            e.duplicates_per_month *= k;
            e.refund_per_month *= k;
            e.scale = Some(k);
        } else if mutating > 0 {
            let part = e.mutating as f64 / mutating as f64;
            e.duplicates_per_month = total * part;
            e.refund_per_month = refunds * part;
        }
    }
}

/// An endpoint's duplicates and refunds a month on its inputs and the scenario's others: the
/// two figures alone (a whole estimate for each of thousands of endpoints was most of the
/// report's time).
fn endpoint_figures(
    scenario: &Scenario,
    requests_per_day: f64,
    timeout_rate: f64,
    succeeded_share: Option<f64>,
) -> (f64, f64) {
    Estimate::duplicates_and_refunds_per_month(&Scenario {
        requests_per_day,
        timeout_rate,
        succeeded_share: succeeded_share.unwrap_or(scenario.succeeded_share),
        ..*scenario
    })
}

/// How many intents had 1, 2, 3... attempts.
fn attempts_per_intent(t: &crate::logs::Tally) -> Vec<AttemptsRow> {
    let mut attempts_per_intent: Vec<AttemptsRow> = t
        .attempts_per_intent
        .iter()
        .map(|(attempts, intents)| AttemptsRow { attempts, intents })
        .collect();
    // Attempts without a key or fingerprint are intents of one attempt each.
    if t.unkeyed_intents > 0 {
        match attempts_per_intent.first_mut() {
            Some(row) if row.attempts == 1 => row.intents += t.unkeyed_intents,
            _ => attempts_per_intent.insert(
                0,
                AttemptsRow {
                    attempts: 1,
                    intents: t.unkeyed_intents,
                },
            ),
        }
    }
    attempts_per_intent
}

/// The fields of `f` read from their values: an nginx layout's appended fields named, a
/// duration's unit.
fn inferred_fields(f: &crate::logs::FileInfo) -> Vec<InferredField> {
    let mut out: Vec<InferredField> = f
        .format_notes
        .iter()
        .flat_map(|n| match n {
            crate::logs::FormatNote::NginxInferred {
                fields, log_format, ..
            } => fields
                .iter()
                .map(|(i, v)| InferredField {
                    field: v,
                    from: format!("extra_{i}"),
                    read_as: format!("${v}"),
                    given_by: format!("--log-format '{log_format}'"),
                })
                .collect(),
            crate::logs::FormatNote::DefaultLayout { layout, given_by } => vec![InferredField {
                field: "layout",
                from: "no #Fields: line".to_string(),
                read_as: layout.clone(),
                given_by: given_by.clone(),
            }],
            _ => Vec::new(),
        })
        .collect();
    if let Some(i) = &f.columns.duration_unit_inferred {
        out.push(InferredField {
            field: "duration_unit",
            from: f
                .columns
                .header_of(Role::Duration)
                .unwrap_or("duration")
                .to_string(),
            read_as: i.unit.name().to_string(),
            given_by: format!("--duration-unit {}", i.unit.name()),
        });
    }
    out
}

/// How each input was read, for the JSON report.
fn files_read(a: &LogAnalysis) -> Vec<FileRead> {
    a.files
        .iter()
        .map(|f| FileRead {
            name: f.name.clone(),
            input_format: f
                .format
                .clone()
                .unwrap_or_else(|| if f.delimiter == b'\t' { "tsv" } else { "csv" }.to_string()),
            detected: f.format.is_some() && f.detected,
            log_side: f.side.side.name(),
            log_side_why: f.side.why.clone(),
            envelope: f.envelope.clone(),
            document: f.document.clone(),
            skipped: f
                .skipped
                .iter()
                .map(|(stream, kind, lines)| SkippedLines {
                    stream: stream.clone(),
                    kind: kind.clone(),
                    lines: *lines,
                })
                .collect(),
            formats: f
                .formats
                .iter()
                .map(|r| FormatLines {
                    name: r.name.clone(),
                    lines: r.lines,
                    first_line: r.first_line,
                    last_line: r.last_line,
                    roles: r.columns.as_ref().map_or(Vec::new(), |c| {
                        Role::ALL
                            .iter()
                            .filter(|&&role| c.header_of(role).is_some())
                            .map(|role| role.name())
                            .collect()
                    }),
                    refused: r.refused.clone(),
                })
                .collect(),
            formats_interleaved: f.interleaved,
            traces: f.traces.clone(),
            inferred: inferred_fields(f),
        })
        .collect()
}

/// The proxy's own retries, when a file has a proxy-attempts column.
pub fn proxy_retries(a: &LogAnalysis) -> Option<ProxyRetriesObserved> {
    let p = a.tally.proxy_retries;
    let column = a.files.iter().any(|f| f.columns.proxy_attempts.is_some());
    (column && p.attempts > 0).then(|| ProxyRetriesObserved::of(&p))
}

/// Key coverage, when an input was grouped by key: the endpoints' rows must be all of them
/// (before the top 10 are kept), each with the estimate its own inputs give.
pub fn key_coverage(a: &LogAnalysis, endpoints: &[EndpointRow]) -> Option<KeyCoverage> {
    if !a.files.iter().any(|f| f.grouping == Grouping::Key) {
        // Grouped by fingerprint, keys were not read: their coverage is not known.
        return None;
    }
    let t = &a.tally;
    let mut rows: Vec<KeyCoverageRow> = endpoints
        .iter()
        .filter_map(|e| {
            let share = e.keyed_attempts as f64 / e.mutating as f64;
            (share < 1.0).then(|| KeyCoverageRow {
                method: e.method.clone(),
                route: e.route.clone(),
                share,
                duplicates_per_month: e.duplicates_per_month * (1.0 - share),
                refund_per_month: e.refund_per_month * (1.0 - share),
            })
        })
        .collect();
    rows.sort_by(|a, b| {
        b.refund_per_month
            .total_cmp(&a.refund_per_month)
            .then(b.duplicates_per_month.total_cmp(&a.duplicates_per_month))
            .then_with(|| (&a.route, &a.method).cmp(&(&b.route, &b.method)))
    });
    rows.truncate(TOP_ENDPOINTS);
    let mutating = t.counts.mutating;
    Some(KeyCoverage {
        keyed_attempts: t.keyed_attempts,
        share: if mutating == 0 {
            0.0
        } else {
            t.keyed_attempts as f64 / mutating as f64
        },
        per_endpoint: rows,
    })
}
