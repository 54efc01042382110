//! The arguments clap parsed, resolved into a [`Run`]: the one place that reads the
//! `--scenario` file, decides where each input came from, applies a preset and builds the
//! report's style. Standard input is read at most once a run: two flags that both name it
//! are refused before anything is read.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use crate::cli::{
    EstimateArgs, FilterArgs, FollowArgs, LogArgs, LogReadArgs, ProbeArgs, ScenarioArgs, SqlArgs,
    TuiArgs,
};
use crate::error::{Error, Result};
use crate::findings::{DeriveOptions, Overrides, Warning};
use crate::inputs::{self, Input, Origin, ScenarioPatch, Sources};
use crate::logs::{self, FollowOptions, LogInput, LogOptions};
use crate::model::Scenario;
use crate::report::human::group_thousands;
use crate::report::svg::SweepFigure;
use crate::report::{Output, PresetTrace, Style};

use super::{Explorer, LogSource, Logs, Run};

/// `dupcost estimate`: the scenario, a `--sweep`'s input marked as the sweep's, or with
/// `--observed` the engine's result to measure.
pub fn estimate(args: &EstimateArgs, color: bool) -> Result<Run> {
    let observed_stdin = args.observed.as_deref().is_some_and(is_stdin);
    stdin_once(&[
        ("--scenario -", scenario_from_stdin(&args.scenario)),
        ("--observed -", observed_stdin),
    ])?;
    check_plot(args.plot.as_deref())?;
    let mut run = scenario(&args.scenario, args.output.currency.as_deref(), color)?;
    run.output = Output {
        format: args.output.format,
        plot: args.plot.clone(),
        plot_y: args.plot_y,
        save_scenario: None,
        explain: args.output.explain,
        metrics: None,
    };
    run.sweep = args.sweep.clone();
    match &args.observed {
        Some(path) => {
            run.logs = Some(Logs {
                source: LogSource::SqlResult(path.clone()),
                options: LogOptions::default(),
                derive: DeriveOptions {
                    max_unknown: args.max_unknown,
                    min_span: args.min_span,
                    require_measured: false,
                },
                notes: Vec::new(),
                follow: None,
                names: path.display().to_string(),
            });
        }
        None => {
            if let Some(sweep) = &args.sweep {
                run.sources.set(sweep.input, Origin::Sweep);
            }
            // Without logs, the report marks each input given or assumed by where it
            // came from.
            run.style.sources = Some(run.sources);
        }
    }
    Ok(run)
}

/// `dupcost logs FILE...`, with or without `--follow`.
pub fn logs(args: &LogArgs, color: bool) -> Result<Run> {
    // No FILE reads a log piped in, as grep does; on a terminal there is nothing to read.
    let files = match args.files.as_slice() {
        [] if std::io::stdin().is_terminal() => {
            return Err(Error::Usage(
                "no log to read: name its FILE (- for stdin), or pipe one in: cat access.log | \
                 dupcost logs"
                    .to_string(),
            ));
        }
        [] => vec![PathBuf::from("-")],
        files => files.to_vec(),
    };
    let inputs: Vec<LogInput> = files.iter().cloned().map(LogInput::from).collect();
    stdin_once(&[
        ("--scenario -", scenario_from_stdin(&args.scenario)),
        (
            "the log (FILE - or none)",
            inputs.contains(&LogInput::Stdin),
        ),
        (
            "--outcomes -",
            args.read.outcomes.iter().any(|p| is_stdin(p)),
        ),
    ])?;
    check_plot(args.plot.as_deref())?;
    let mut run = scenario(&args.scenario, args.output.currency.as_deref(), color)?;
    run.output = Output {
        format: args.output.format,
        plot: args.plot.clone(),
        plot_y: SweepFigure::Refunds,
        save_scenario: args.save_scenario.clone(),
        explain: args.output.explain,
        metrics: args.metrics,
    };
    let follow = args.follow.follow.then(|| follow_options(&args.follow));
    run.logs = Some(logs_of(&run, &files, inputs, &args.read, follow));
    Ok(run)
}

/// `dupcost tui`: the starting scenario, and with `--logs` the logs it starts from (and
/// follows, with `--follow`).
pub fn tui(args: &TuiArgs, color: bool) -> Result<Run> {
    let inputs: Vec<LogInput> = args.from_logs.iter().cloned().map(LogInput::from).collect();
    if args.follow.follow && inputs.is_empty() {
        return Err(Error::Usage(
            "--follow follows the logs of --logs FILE: give the log to follow".into(),
        ));
    }
    stdin_once(&[
        ("--scenario -", scenario_from_stdin(&args.scenario)),
        ("--logs -", inputs.contains(&LogInput::Stdin)),
        (
            "--outcomes -",
            args.read.outcomes.iter().any(|p| is_stdin(p)),
        ),
    ])?;
    let mut run = scenario(&args.scenario, args.currency.as_deref(), color)?;
    run.explorer = Some(Explorer {
        save_to: args.save_to.clone(),
        mouse: !args.no_mouse,
    });
    if !inputs.is_empty() {
        let follow = args.follow.follow.then(|| follow_options(&args.follow));
        run.logs = Some(logs_of(&run, &args.from_logs, inputs, &args.read, follow));
    }
    Ok(run)
}

/// `dupcost probe`: the scenario a failure is costed in.
pub fn probe(args: &ProbeArgs, color: bool) -> Result<Run> {
    let data_stdin = [&args.data, &args.changed_data]
        .into_iter()
        .flatten()
        .any(|d| d == "@-");
    stdin_once(&[
        ("--scenario -", scenario_from_stdin(&args.scenario)),
        ("--data @-", data_stdin),
    ])?;
    scenario(&args.scenario, args.currency.as_deref(), color)
}

/// The scenario, its sources and the style: defaults < scenario file < preset <
/// environment < flags, validated, the scenario file read once.
fn scenario(args: &ScenarioArgs, currency: Option<&str>, color: bool) -> Result<Run> {
    let flags = flags_patch(args);
    let style = Style {
        currency: currency_of(currency, args),
        color,
        preset: preset_trace(args, &flags),
        sources: None,
    };
    let mut given = overrides(&flags);
    let file = args
        .scenario
        .as_deref()
        .map(ScenarioPatch::from_file)
        .transpose()
        .map_err(Error::Usage)?;
    let preset = args.preset.map(|p| p.patch());
    let scenario = inputs::resolve_with_preset(
        args.scenario.as_deref().zip(file.as_ref()),
        args.preset.map(|p| p.name).zip(preset.as_ref()),
        &flags,
    )
    .map_err(Error::Usage)?;
    let mut sources = Sources::default()
        .given(
            file.as_ref().unwrap_or(&ScenarioPatch::default()),
            Origin::Scenario,
        )
        .given(&preset.unwrap_or_default(), Origin::Preset)
        .given(&flags, Origin::Flag);
    let env = &args.from_env;
    sources.from_env(&env.inputs, env.schedule, env.preset);
    for warning in implausible(&scenario, &sources) {
        eprintln!("warning: {warning}");
    }
    let retries_from_preset = match (given.retries, args.preset) {
        (None, Some(preset)) if preset.sets_retries() => {
            given.retries = Some(scenario.retries);
            Some(preset.name)
        }
        _ => None,
    };
    Ok(Run {
        scenario,
        sources,
        preset: args.preset,
        given,
        retries_from_preset,
        style,
        sweep: None,
        output: Output::default(),
        logs: None,
        explorer: None,
    })
}

/// The logs to read with `read`'s options, a webhook sender's preset applied to them.
fn logs_of(
    run: &Run,
    paths: &[PathBuf],
    inputs: Vec<LogInput>,
    read: &LogReadArgs,
    follow: Option<FollowOptions>,
) -> Logs {
    let mut options = log_options(read);
    if follow.is_some() {
        // A follower redraws its reports: no progress bar between them.
        options.progress = false;
    }
    let (options, notes) = sender_options(run, options);
    let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    Logs {
        source: LogSource::Files(inputs),
        options,
        derive: DeriveOptions {
            max_unknown: read.max_unknown,
            min_span: read.min_span,
            require_measured: read.require_measured,
        },
        notes,
        follow,
        names: names.join(", "),
    }
}

/// What a webhook sender's schedule says about reading its receiver's log: without
/// `--client-timeout`, a `--preset`'s attempt timeout is the client timeout; with a
/// published schedule (`--schedule` or a preset's) longer than the default retry window,
/// the window widens to the schedule's horizon, so that a day-two redelivery is still the
/// same event. Returns the options and what was changed, for the evidence.
fn sender_options(run: &Run, mut options: LogOptions) -> (LogOptions, Vec<Warning>) {
    let mut notes = Vec::new();
    if let (None, Some(preset)) = (options.client_timeout, run.preset) {
        if let Some(secs) = preset.attempt_timeout() {
            options.client_timeout = Some(std::time::Duration::from_secs_f64(secs));
            notes.push(Warning::ClientTimeoutFromPreset {
                env: run.sources.preset_from_env(),
                secs,
                preset: preset.name,
            });
        }
    }
    let base = &run.scenario;
    if base.schedule_seconds.is_some() && options.retry_window == logs::DEFAULT_RETRY_WINDOW {
        let horizon = base.schedule().horizon(base.retries);
        if horizon > options.retry_window.as_secs_f64() {
            options.retry_window = std::time::Duration::from_secs_f64(horizon.ceil());
            notes.push(Warning::RetryWindowWidened { horizon });
        }
    }
    (options, notes)
}

/// How the logs are read, as `read` says (a progress bar when stderr is a terminal).
pub fn log_options(read: &LogReadArgs) -> LogOptions {
    filtered(
        &read.filters,
        LogOptions {
            input_format: read.input_format,
            envelope: read.envelope,
            log_format: read.log_format.clone(),
            haproxy_captures: read.haproxy_captures.clone(),
            delimiter: read.delimiter,
            columns: read.column.clone(),
            duration_unit: read.duration_unit,
            timestamp_format: read.timestamp_format.clone(),
            client_timeout: read.client_timeout,
            sample_rate: read.sample_rate,
            path: read.path.clone(),
            strict: read.strict,
            progress: true,
            threads: read.threads,
            outcomes: read.outcomes.iter().cloned().map(LogInput::from).collect(),
            outcomes_columns: read.outcomes_column.clone(),
            log_side: read.log_side.parse().unwrap_or_default(),
            infer: !read.no_infer,
            ..LogOptions::default()
        },
    )
}

/// `dupcost sql`'s query; the filters are [`LogOptions`], with their meaning for `logs`.
pub fn sql_options(args: &SqlArgs) -> crate::sql::QueryOptions {
    crate::sql::QueryOptions {
        engine: args.engine,
        table: args.table.clone(),
        preset: args.preset,
        columns: args.column.clone(),
        log: filtered(
            &args.filters,
            LogOptions {
                path: args.path.clone(),
                client_timeout: args.client_timeout,
                duration_unit: args.duration_unit,
                log_side: args.log_side.parse().unwrap_or_default(),
                ..LogOptions::default()
            },
        ),
        outcomes_table: args.outcomes_table.clone(),
        outcomes_columns: args.outcomes_column.clone(),
    }
}

/// `options` with the filters `logs` and `sql` share.
fn filtered(filters: &FilterArgs, options: LogOptions) -> LogOptions {
    LogOptions {
        since: filters.since,
        until: filters.until,
        methods: filters.methods.clone(),
        timeout_statuses: filters.timeout_status.clone(),
        retry_window: filters.retry_window,
        intents: filters.intents.parse().unwrap_or_default(),
        shared_address_rate: filters.shared_address_rate,
        ..options
    }
}

fn follow_options(args: &FollowArgs) -> FollowOptions {
    FollowOptions {
        every: args.every,
        window: args.window,
        ..FollowOptions::default()
    }
}

/// The inputs given by flags or environment variables.
fn flags_patch(args: &ScenarioArgs) -> ScenarioPatch {
    let mut patch = ScenarioPatch::default();
    let given = [
        (Input::RequestsPerDay, args.requests_per_day.map(|v| v.0)),
        (Input::TimeoutRate, args.timeout_rate.map(|v| v.0)),
        (Input::SucceededShare, args.succeeded_share.map(|v| v.0)),
        (Input::OrderValue, args.order_value.as_ref().map(|v| v.0)),
        (Input::Retries, args.retries.map(f64::from)),
        (Input::Ttl, args.ttl.map(|v| v.0 as f64)),
        (Input::KeySize, args.key_size.map(|v| v.0 as f64)),
        (Input::DaysPerMonth, args.days_per_month.map(|v| v.0)),
        (Input::AttemptTimeout, args.attempt_timeout),
        (Input::Backoff, args.backoff),
        (Input::BackoffFactor, args.backoff_factor),
        (Input::BackoffMax, args.backoff_max),
        (Input::Jitter, choice(Input::Jitter, &args.jitter)),
        (Input::Layers, args.layers.map(f64::from)),
        (Input::KeyBytes, args.key_bytes.map(|v| v.0 as f64)),
        (Input::BodyBytes, args.body_bytes.map(|v| v.0 as f64)),
        (Input::Store, choice(Input::Store, &args.store)),
    ];
    for (input, value) in given {
        if let Some(value) = value {
            patch.set(input, value);
        }
    }
    if let Some(delays) = args.schedule {
        patch.set_schedule(delays);
    }
    patch
}

/// A choice flag's name as its input's number (clap has checked the name).
fn choice(input: Input, name: &Option<String>) -> Option<f64> {
    name.as_deref().and_then(|n| input.parse(n).ok())
}

/// The derived inputs given by flag (or environment): they win over the log.
fn overrides(patch: &ScenarioPatch) -> Overrides {
    Overrides {
        requests_per_day: patch.get(Input::RequestsPerDay),
        timeout_rate: patch.get(Input::TimeoutRate),
        succeeded_share: patch.get(Input::SucceededShare),
        retries: patch.get(Input::Retries).map(|r| r as u32),
        body_bytes: patch.get(Input::BodyBytes).map(|b| b as u64),
    }
}

/// The preset's trace for the report: its name and the inputs it set that no flag or
/// environment variable overrode.
fn preset_trace(args: &ScenarioArgs, flags: &ScenarioPatch) -> Option<PresetTrace> {
    let preset = args.preset?;
    let given = preset.patch();
    let inputs = Input::ALL
        .into_iter()
        .filter(|&i| given.get(i).is_some() && flags.get(i).is_none())
        .collect();
    Some(PresetTrace {
        name: preset.name,
        inputs,
        schedule: given.schedule().is_some() && flags.schedule().is_none(),
    })
}

/// The symbol shown before money: `--currency`, else the currency `--order-value` was
/// written with (`€85`, `85 EUR`), else `$`.
fn currency_of(flag: Option<&str>, args: &ScenarioArgs) -> String {
    flag.map(str::to_string)
        .or_else(|| args.order_value.as_ref().and_then(|v| v.1.clone()))
        .unwrap_or_else(|| "$".to_string())
}

/// Image kinds other than SVG, which `--plot` refuses rather than take for a directory's name.
const OTHER_IMAGES: [&str; 12] = [
    "png", "jpg", "jpeg", "gif", "webp", "avif", "bmp", "tif", "tiff", "pdf", "eps", "ps",
];

/// Refuses a `--plot` path that names an image of another kind (`out.png`): charts are SVG
/// only, and such a name would otherwise become a directory of SVG files.
fn check_plot(path: Option<&Path>) -> Result<()> {
    let Some(path) = path else { return Ok(()) };
    match path.extension().and_then(|ext| ext.to_str()) {
        Some(ext) if OTHER_IMAGES.iter().any(|o| ext.eq_ignore_ascii_case(o)) => {
            Err(Error::Usage(format!(
                "--plot {}: charts are written as SVG only; name a .svg file, or a directory \
                 for all of the report's charts",
                path.display()
            )))
        }
        _ => Ok(()),
    }
}

/// Most requests a day a given figure is taken without a warning: more than any single API
/// serves, so more likely a typo or a count of another period.
const PLAUSIBLE_REQUESTS_PER_DAY: f64 = 1e9;

/// Warnings on given inputs that are valid but most likely not what was meant: an order value
/// of 0 (an unquoted `--order-value $40` reaches dupcost as `0`: the shell reads `$4` as an
/// empty variable), and over a billion requests a day.
fn implausible(scenario: &Scenario, sources: &Sources) -> Vec<String> {
    let given = |input: Input| match sources.get(input) {
        Origin::Flag => Some(input.to_string()),
        Origin::Env => Some(input.env_name().to_string()),
        Origin::Scenario => Some(format!("the scenario file's {}", input.json_name())),
        Origin::Preset | Origin::Default | Origin::Log | Origin::Sweep => None,
    };
    let mut warnings = Vec::new();
    if let (0.0, Some(by)) = (scenario.order_value, given(Input::OrderValue)) {
        let trap = match sources.get(Input::OrderValue) {
            Origin::Flag | Origin::Env => {
                ": if you typed $40 unquoted, the shell read $4 as an empty variable; write '$40' \
                 in single quotes, or 40"
            }
            _ => "",
        };
        warnings.push(format!("{by} is 0, so every refund costs nothing{trap}"));
    }
    let n = scenario.requests_per_day;
    if let (true, Some(by)) = (n > PLAUSIBLE_REQUESTS_PER_DAY, given(Input::RequestsPerDay)) {
        warnings.push(format!(
            "{by} {} is over a billion requests a day ({} a second): check it is a day's count",
            group_thousands(&format!("{n:.0}")),
            group_thousands(&format!("{:.0}", n / 86_400.0)),
        ));
    }
    warnings
}

fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}

fn scenario_from_stdin(args: &ScenarioArgs) -> bool {
    args.scenario.as_deref().is_some_and(is_stdin)
}

/// Refuses two readers of standard input: it holds one stream, which the first would empty.
fn stdin_once(readers: &[(&str, bool)]) -> Result<()> {
    let named: Vec<&str> = readers
        .iter()
        .filter(|(_, reads)| *reads)
        .map(|(name, _)| *name)
        .collect();
    match named.as_slice() {
        [first, second, ..] => Err(Error::Usage(format!(
            "stdin ('-') can be read only once: {first} and {second} both name it; give one of \
             them a file"
        ))),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::{Cli, Command};

    fn command(line: &[&str]) -> Command {
        Cli::try_read_from(line)
            .expect("a valid command line")
            .command
    }

    #[test]
    fn the_explorers_flags_are_the_runs() {
        let Command::Tui(args) = command(&["dupcost", "tui", "--save-to", "s.json", "--no-mouse"])
        else {
            panic!("not tui");
        };
        let explorer = tui(&args, false).unwrap().explorer.expect("an explorer");
        assert_eq!(explorer.save_to, PathBuf::from("s.json"));
        assert!(!explorer.mouse);

        let Command::Tui(args) = command(&["dupcost", "tui"]) else {
            panic!("not tui");
        };
        assert!(tui(&args, false).unwrap().explorer.unwrap().mouse);
    }

    #[test]
    fn following_in_the_explorer_needs_its_logs() {
        let Command::Tui(args) = command(&["dupcost", "tui", "--follow"]) else {
            panic!("not tui");
        };
        let err = tui(&args, false).unwrap_err();
        assert!(matches!(err, Error::Usage(_)), "{err}");
        assert!(err.to_string().contains("--logs FILE"), "{err}");
    }

    #[test]
    fn the_metrics_address_is_the_outputs() {
        let line = [
            "dupcost",
            "logs",
            "a.log",
            "--follow",
            "--metrics",
            "127.0.0.1:0",
        ];
        let Command::Logs(args) = command(&line) else {
            panic!("not logs");
        };
        let run = logs(&args, false).unwrap();
        assert_eq!(run.output.metrics, Some("127.0.0.1:0".parse().unwrap()));
        assert!(run.explorer.is_none());
        let Command::Logs(args) = command(&["dupcost", "logs", "a.log"]) else {
            panic!("not logs");
        };
        assert_eq!(logs(&args, false).unwrap().output.metrics, None);
    }
}
