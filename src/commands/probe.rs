//! `dupcost probe URL`: real requests to an endpoint the user owns, judged check by check.
//!
//! Before anything is sent: the scenario and the flags are checked, the plan is counted
//! against [`MAX_REQUESTS`], and the user is asked on a terminal; without one, a host that
//! is not loopback is refused unless `--yes` is given.

use std::io::{self, BufRead, IsTerminal, Read, Write};

use crate::cli::ProbeArgs;
use crate::error::{Error, Result};
use crate::model::Estimate;
use crate::probe::{self, Budget, Grade, Http, MAX_REQUESTS, Options, Plan, Probe, Request};
use crate::report::{self, Report};

/// A probe's report, and whether a check failed (exit code 1, the report still written).
pub struct Probed {
    pub bytes: Vec<u8>,
    pub failed: bool,
}

/// Checks the flags, asks, sends, judges and renders.
pub fn run(args: &ProbeArgs, color: bool) -> Result<Probed> {
    let run = crate::run::resolve::probe(args, color)?;
    let request = request(args)?;
    let options = Options {
        concurrency: usize::from(args.concurrency),
        rounds: usize::from(args.rounds),
        timeout: args.timeout,
        id_pointer: args.id.clone(),
        insecure: args.insecure,
    };
    if args.timeout.is_zero() {
        return Err(Error::Usage(
            "--timeout 0s would give no request time to be answered: use e.g. 10s".to_string(),
        ));
    }
    let plan = Plan::new(&options, &request);
    if plan.total() > MAX_REQUESTS {
        return Err(Error::Usage(format!(
            "--concurrency {} x --rounds {} makes {} requests with the other checks, over the \
             cap of {MAX_REQUESTS} a run: lower one of them",
            args.concurrency,
            args.rounds,
            plan.total()
        )));
    }
    confirm(args, &request, &plan)?;

    let http = Http::new(&request, &options);
    let budget = Budget::new(&http, plan.total());
    let checks =
        probe::run(&request, &options, &budget).map_err(|e| Error::Failure(e.to_string()))?;
    let probe = Probe::new(&request, checks);
    let estimate = Estimate::new(run.scenario);
    let shown = report::Run::Probe {
        probe: &probe,
        estimate: &estimate,
        sources: &run.sources,
    };
    let report = Report {
        run: shown,
        style: &run.style,
        charts: &[],
        explain: false,
    };
    let bytes = report.render(args.format).map_err(Error::Usage)?;
    Ok(Probed {
        bytes,
        failed: probe.verdict == Grade::Fail,
    })
}

/// The request the flags describe.
fn request(args: &ProbeArgs) -> Result<Request> {
    let body = match &args.data {
        Some(data) => read_data("--data", data)?,
        None => Vec::new(),
    };
    let changed_body = match &args.changed_data {
        Some(data) => {
            let changed = read_data("--changed-data", data)?;
            if changed == body {
                return Err(Error::Usage(
                    "--changed-data is the same as --data: payload_mismatch needs another payload"
                        .to_string(),
                ));
            }
            Ok(changed)
        }
        None => probe::changed_body(&body, &uuid::Uuid::new_v4().simple().to_string()),
    };
    let key_header = probe::parse_header_name(&args.key_header).map_err(Error::Usage)?;
    if args.header.iter().any(|(name, _)| *name == key_header) {
        return Err(Error::Usage(format!(
            "--header names {}, the key header: the probe sets it (a fresh key per check)",
            args.key_header
        )));
    }
    Ok(Request {
        method: args.method.clone(),
        target: args.url.clone(),
        headers: args.header.clone(),
        body,
        changed_body,
        key_header,
        key_header_label: args.key_header.clone(),
    })
}

/// `STRING` as it is, `@FILE` read from the file, `@-` from stdin.
fn read_data(flag: &str, data: &str) -> Result<Vec<u8>> {
    let Some(path) = data.strip_prefix('@') else {
        return Ok(data.as_bytes().to_vec());
    };
    let mut bytes = Vec::new();
    let read = if path == "-" {
        io::stdin().read_to_end(&mut bytes).map(|_| ())
    } else {
        std::fs::read(path).map(|b| bytes = b)
    };
    read.map_err(|e| Error::Usage(format!("{flag} @{path}: {e}")))?;
    Ok(bytes)
}

/// Asks on a terminal; elsewhere refuses a host that is not loopback without `--yes`.
fn confirm(args: &ProbeArgs, request: &Request, plan: &Plan) -> Result<()> {
    if args.yes {
        return Ok(());
    }
    let interactive = io::stdin().is_terminal() && io::stderr().is_terminal();
    if !interactive {
        if request.target.is_loopback() {
            return Ok(());
        }
        return Err(Error::Usage(format!(
            "refusing to send {} {} requests to {}, which is not loopback, with no terminal to \
             ask on: give --yes if the endpoint is yours (nothing was sent)",
            plan.total(),
            request.method,
            request.target.host
        )));
    }
    let mut stderr = io::stderr().lock();
    let _ = write!(stderr, "{}Send them? [y/N] ", describe(request, plan));
    let _ = stderr.flush();
    let mut answer = String::new();
    io::stdin().lock().read_line(&mut answer)?;
    match answer.trim().to_ascii_lowercase().as_str() {
        "y" | "yes" => Ok(()),
        _ => Err(Error::Usage("not confirmed: nothing was sent".to_string())),
    }
}

/// What the run will send, for the question on a terminal.
pub fn describe(request: &Request, plan: &Plan) -> String {
    let where_ = if request.target.is_loopback() {
        "this machine (loopback)"
    } else {
        "a host that is NOT this machine"
    };
    let headers: Vec<String> = request
        .headers
        .iter()
        .map(|(name, value)| {
            let secret = matches!(
                name.as_str(),
                "authorization" | "cookie" | "proxy-authorization"
            ) || name.as_str().contains("api-key")
                || name.as_str().contains("token");
            if secret {
                format!("{name}: (hidden)")
            } else {
                format!("{name}: {}", String::from_utf8_lossy(value.as_bytes()))
            }
        })
        .collect();
    let per_check: Vec<String> = plan
        .per_check
        .iter()
        .filter(|(_, n)| *n > 0)
        .map(|(name, n)| format!("{name} {n}"))
        .collect();
    format!(
        "dupcost probe will send {total} {method} requests to {url}, on {where_}:\n  \
         {per_check}\n  body: {body} bytes; headers: {headers}; a fresh {key} per check and round\n\
         Every accepted request may create a real order, charge or message.\n",
        total = plan.total(),
        method = request.method,
        url = request.target,
        per_check = per_check.join(", "),
        body = request.body.len(),
        headers = if headers.is_empty() {
            "none".to_string()
        } else {
            headers.join(", ")
        },
        key = request.key_header_label,
    )
}
