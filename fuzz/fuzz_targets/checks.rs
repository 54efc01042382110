//! The properties the fuzz targets check, shared with `tests/fuzz_regressions.rs`, which
//! replays every input that ever failed them.
#![allow(dead_code)]

use dupcost::inputs::Input;
use dupcost::inputs::{ScenarioPatch, resolve};
use dupcost::model::Estimate;
use dupcost::model::Scenario;
use dupcost::sweep::{MAX_STEPS, Sweep};
use dupcost::units::{Count, Duration, Money, Rate, Size};

/// Every units parser on arbitrary text: never a panic; what parses is in range and its
/// `Display` parses back to the same value.
pub fn units(text: &str) {
    if let Ok(rate) = text.parse::<Rate>() {
        assert!((0.0..=1.0).contains(&rate.0), "{text:?} -> {rate:?}");
        let back: Rate = rate.to_string().parse().expect("a displayed rate parses");
        assert_eq!(back, rate, "{text:?}");
    }
    if let Ok(money) = text.parse::<Money>() {
        assert!(
            money.0.is_finite() && money.0 >= 0.0,
            "{text:?} -> {money:?}"
        );
        let back: Money = money.to_string().parse().expect("displayed money parses");
        assert!(
            (back.0 - money.0).abs() <= 1e-9 * money.0.max(1.0),
            "{text:?}"
        );
    }
    if let Ok(count) = text.parse::<Count>() {
        assert!(
            count.0.is_finite() && count.0 >= 0.0,
            "{text:?} -> {count:?}"
        );
    }
    if let Ok(duration) = text.parse::<Duration>() {
        let back: Duration = duration
            .to_string()
            .parse()
            .expect("a displayed duration parses");
        assert_eq!(back, duration, "{text:?}");
    }
    if let Ok(size) = text.parse::<Size>() {
        let back: Size = size.to_string().parse().expect("a displayed size parses");
        assert_eq!(back, size, "{text:?}");
    }
    for input in Input::ALL {
        if let Ok(value) = input.parse(text) {
            let _ = input.display(value);
        }
    }
}

/// `--sweep` on arbitrary text: never a panic, never more than MAX_STEPS values, and every
/// value makes a valid scenario and a finite estimate.
pub fn sweep(text: &str) {
    let Ok(sweep) = text.parse::<Sweep>() else {
        return;
    };
    let values = sweep.values();
    assert!(
        !values.is_empty() && values.len() <= MAX_STEPS,
        "{text:?}: {} values",
        values.len()
    );
    for estimate in sweep.run(&Scenario::default()) {
        estimate
            .inputs
            .validate()
            .expect("swept scenarios are valid");
        assert!(estimate.duplicates.per_day.is_finite() && estimate.duplicates.per_day >= 0.0);
    }
}

/// The `--scenario` loader on arbitrary bytes: never a panic; what it accepts either resolves
/// to a valid scenario with finite figures or is refused with a message.
pub fn scenario_file(text: &str) {
    let Ok(patch) = ScenarioPatch::from_json(text) else {
        return;
    };
    let path = std::path::Path::new("fuzz.json");
    if let Ok(scenario) = resolve(Some((path, &patch)), &ScenarioPatch::default()) {
        let e = Estimate::new(scenario);
        for (name, value) in dupcost::report::fields(&e) {
            assert!(value.is_finite(), "{name} = {value} from {text:?}");
        }
    }
}

/// The log reader on arbitrary bytes as a whole file (header detection, delimiter sniffing,
/// gzip, timestamps, statuses, durations), through the real reading path: the bytes are
/// written to a file under /dev/shm (or the temp dir) and read by `dupcost::logs::analyze`,
/// whole and in pieces. Never a panic; on success every observed figure is consistent and
/// finite, and reading in pieces counts the same attempts as reading whole.
pub fn logs(bytes: &[u8]) {
    logs_in(bytes, dupcost::logs::EnvelopeChoice::Auto);
}

/// The fuzz input as a file (under /dev/shm, or the temp dir), removed when dropped: the
/// readers are run on a real file, as a user's.
struct TempInput(std::path::PathBuf);

impl TempInput {
    fn new(bytes: &[u8], extension: &str) -> TempInput {
        use std::sync::atomic::{AtomicU64, Ordering};
        static SEQ: AtomicU64 = AtomicU64::new(0);
        let dir = if std::path::Path::new("/dev/shm").is_dir() {
            std::path::PathBuf::from("/dev/shm")
        } else {
            std::env::temp_dir()
        };
        let path = dir.join(format!(
            "dupcost-fuzz-{}-{}.{extension}",
            std::process::id(),
            SEQ.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::write(&path, bytes).expect("the fuzz input can be written");
        TempInput(path)
    }

    fn source(&self) -> dupcost::logs::LogInput {
        dupcost::logs::LogInput::Path(self.0.clone())
    }
}

impl Drop for TempInput {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// [`logs`] with `--envelope` set.
pub fn logs_in(bytes: &[u8], envelope: dupcost::logs::EnvelopeChoice) {
    use dupcost::logs::{LogOptions, analyze};

    let file = TempInput::new(bytes, "log");
    let sources = [file.source()];

    let whole_opts = LogOptions {
        threads: 1,
        envelope,
        ..LogOptions::default()
    };
    let whole = analyze(&sources, &whole_opts);
    // The same bytes cut into pieces read by two threads.
    let split_opts = LogOptions {
        threads: 2,
        split_bytes: 1,
        envelope,
        ..LogOptions::default()
    };
    let split = analyze(&sources, &split_opts);
    let analysis = match (whole, split) {
        (Ok(w), Ok(s)) => {
            let (a, b) = (&w.tally, &s.tally);
            assert_eq!(a.rows, b.rows, "rows whole vs split");
            assert_eq!(a.bad_rows, b.bad_rows, "bad rows whole vs split");
            assert_eq!(a.counts, b.counts, "counts whole vs split");
            assert_eq!(a.per_day, b.per_day, "per day whole vs split");
            w
        }
        (Err(_), Err(_)) => return,
        (w, s) => panic!(
            "whole and split disagree: {:?} vs {:?}",
            w.map(|a| a.tally.rows),
            s.map(|a| a.tally.rows)
        ),
    };

    tally_properties(&analysis);
}

/// `logs::analyze_bytes`, which the in-memory targets read with, reads `bytes` as `analyze`
/// reads a file of them (one thread): the same success, rows and counts, or both refuse.
pub fn same_in_memory(bytes: &[u8]) {
    use dupcost::logs::{LogOptions, analyze, analyze_bytes};
    let file = TempInput::new(bytes, "log");
    let opts = LogOptions {
        threads: 1,
        ..LogOptions::default()
    };
    match (
        analyze(&[file.source()], &opts),
        analyze_bytes(bytes, &opts),
    ) {
        (Ok(a), Ok(b)) => {
            let (a, b) = (&a.tally, &b.tally);
            assert_eq!(a.rows, b.rows, "rows from the file vs in memory");
            assert_eq!(
                a.bad_rows, b.bad_rows,
                "bad rows from the file vs in memory"
            );
            assert_eq!(a.counts, b.counts, "counts from the file vs in memory");
            assert_eq!(a.per_day, b.per_day, "per day from the file vs in memory");
        }
        (Err(_), Err(_)) => {}
        (a, b) => panic!(
            "the file and memory disagree: {:?} vs {:?}",
            a.map(|a| a.tally.rows),
            b.map(|b| b.tally.rows)
        ),
    }
}

/// What holds of every successful reading: the tally's counts are consistent, and the
/// observed and derived figures (with and without the overrides) are finite and valid.
pub fn tally_properties(analysis: &dupcost::logs::LogAnalysis) {
    use dupcost::findings::Overrides;

    let t = &analysis.tally;
    assert!(t.rows > 0, "a successful read has rows");
    assert!(
        t.bad_rows <= t.rows,
        "bad_rows {} > rows {}",
        t.bad_rows,
        t.rows
    );
    assert!(t.bad_rows < t.rows, "every row bad yet no error");
    let c = t.counts;
    assert!(
        c.mutating <= t.rows,
        "mutating {} > rows {}",
        c.mutating,
        t.rows
    );
    assert!(c.timed_out <= c.mutating, "{c:?}");
    assert!(c.timed_out_succeeded <= c.timed_out, "{c:?}");
    assert!(t.intents() <= c.mutating, "intents {} > {c:?}", t.intents());
    if let (Some(first), Some(last)) = (t.first_ts, t.last_ts) {
        assert!(first <= last, "first {first} > last {last}");
    }
    let days: u64 = t.per_day.values().map(|d| d.mutating).sum();
    assert!(days <= c.mutating, "per-day {days} > {c:?}");

    // Whatever the log cannot give comes from the overrides, so the observed figures exist.
    let given = Overrides {
        requests_per_day: Some(1000.0),
        timeout_rate: Some(0.01),
        succeeded_share: Some(0.5),
        retries: Some(2),
        body_bytes: Some(500),
    };
    for overrides in [Overrides::default(), given] {
        let Ok(d) = analysis.derive(&Scenario::default(), &overrides) else {
            continue;
        };
        d.scenario.validate().expect("a derived scenario is valid");
        let o = &d.observed;
        assert_eq!(o.rows, t.rows);
        assert!(o.timed_out <= o.mutating_attempts, "{o:?}");
        assert!(o.intents <= o.mutating_attempts, "{o:?}");
        assert!(o.bad_rows <= o.rows, "{o:?}");
        if let Some(s) = o.timed_out_succeeded {
            assert!(s <= o.timed_out, "{o:?}");
        }
        if let Some(days) = o.days_covered {
            assert!(days.is_finite() && days >= 0.0, "{o:?}");
        }
        if let Some(r) = &o.retries_observed {
            // Retries per keyed intent: attempts - 1.
            assert!(
                r.mean.is_finite() && r.mean >= 0.0 && r.mean <= f64::from(r.max),
                "{o:?}"
            );
        }
        for e in &o.per_endpoint {
            assert!(e.timed_out <= e.mutating, "{e:?}");
            assert!(e.duplicates_per_month.is_finite() && e.duplicates_per_month >= 0.0);
            assert!(e.refund_per_month.is_finite() && e.refund_per_month >= 0.0);
        }
        for m in &d.measured {
            assert!(m.value.is_finite(), "{m:?}");
        }
        let e = Estimate::new(d.scenario);
        for (name, value) in dupcost::report::fields(&e) {
            assert!(value.is_finite(), "{name} = {value}");
        }
    }
}

/// One native format's parser on every line of `bytes`: never a panic; a line it splits has
/// exactly its names' count of fields (a blank JSON line: one empty field, no row), back to
/// back; one it refuses says why.
fn native_lines(format: &dyn dupcost::logs::LineFormat, bytes: &[u8]) {
    let names = format.names().len();
    let mut fields = dupcost::logs::Fields::default();
    for line in bytes.split(|&b| b == b'\n') {
        if format.skip(line) {
            continue;
        }
        fields.clear();
        match format.split(line, &mut fields) {
            Ok(()) => {
                let blank = fields.ends.len() == 1 && fields.data.is_empty();
                assert!(
                    blank || fields.ends.len() == names,
                    "{} fields",
                    fields.ends.len()
                );
                assert!(fields.ends.windows(2).all(|w| w[0] <= w[1]));
                assert_eq!(fields.ends.last().copied().unwrap_or(0), fields.data.len());
            }
            Err(why) => assert!(!why.is_empty()),
        }
    }
}

/// A line format's split on arbitrary lines: never a panic; a line it reads gives exactly
/// one field per name, and the fields' ends rise.
pub fn format_lines(format: &dyn dupcost::logs::LineFormat, bytes: &[u8]) {
    let names = format.names();
    let mut fields = dupcost::logs::Fields::default();
    for line in bytes.split(|&b| b == b'\n') {
        fields.clear();
        if format.split(line, &mut fields).is_ok() {
            assert_eq!(
                fields.len(),
                names.len(),
                "{:?}",
                String::from_utf8_lossy(line)
            );
            assert!(fields.ends.windows(2).all(|w| w[0] <= w[1]));
            assert_eq!(fields.ends.last().copied().unwrap_or(0), fields.data.len());
        }
    }
}

/// The first lines of `bytes`, as the sniffing sees them.
fn first_lines(bytes: &[u8]) -> Vec<&[u8]> {
    bytes.split(|&b| b == b'\n').take(8).collect()
}

/// Every row of the formats' catalog on arbitrary lines: its detection's sniff, the format
/// it reads when named (built from the first lines), its candidates for the refusal, and the
/// formats its samples are read with (their `#Fields:` layouts, each JSON platform's keys),
/// each as [`native_lines`] checks; so a new format's row is fuzzed with the rest.
pub fn format_catalog(bytes: &[u8]) {
    for row in 0..dupcost::logs::catalog::CATALOG.len() {
        format_catalog_row(row, bytes);
    }
}

/// One row of the catalog (`row` modulo the rows) on `bytes`, as [`format_catalog`] reads
/// every row: its sniff, its named reading, its refusal candidates and the formats its
/// samples are read with. The fuzz target picks the row by the input's first byte, so one
/// execution reads one row's formats, not the whole catalog's, and mutating that byte moves
/// the input to another row.
pub fn format_catalog_row(row: usize, bytes: &[u8]) {
    use dupcost::logs::catalog::{CATALOG, Reading};
    let index = row % CATALOG.len();
    let entry = &CATALOG[index];
    let first = first_lines(bytes);
    if let Some(detect) = entry.detect {
        if let Some(format) = (detect.sniff)(&first, &[]) {
            native_lines(format.as_ref(), bytes);
        }
    }
    match entry.reading {
        Reading::Built { build, .. } => native_lines(build(&first).as_ref(), bytes),
        Reading::FromLines { read, .. } => {
            if let Some(format) = read(&first, &[]) {
                native_lines(format.as_ref(), bytes);
            }
        }
        Reading::Auto | Reading::Csv { .. } | Reading::Trace { .. } | Reading::Fitting => {}
    }
    match &fixed_candidates()[index] {
        Some(formats) => formats.iter().for_each(|f| native_lines(f.as_ref(), bytes)),
        None => {
            for format in (entry.candidates)(&first) {
                native_lines(format.as_ref(), bytes);
            }
        }
    }
    for (sample_row, sample, built) in sample_formats() {
        if !std::ptr::eq(*sample_row, entry) {
            continue;
        }
        // A format whose lines set its layout (IIS) is built afresh, so an input reads the
        // same whatever ran before it.
        match built {
            Some(format) if format.stateful() => {
                if let Some(format) = entry.read_as(&sample.lines()) {
                    native_lines(format.as_ref(), bytes);
                }
            }
            Some(format) => native_lines(format.as_ref(), bytes),
            None => {}
        }
    }
}

/// Each catalog row's samples, with the format the row reads them with, built once; `None`
/// for a format already read (a fixed refusal candidate, or an earlier sample's: nginx
/// combined is both), so an input is not read twice by the same format.
type SampleFormats = Vec<(
    &'static dupcost::logs::catalog::FormatEntry,
    &'static dupcost::logs::catalog::Sample,
    Option<Box<dyn dupcost::logs::LineFormat>>,
)>;

fn sample_formats() -> &'static SampleFormats {
    use dupcost::logs::catalog::CATALOG;
    use std::sync::OnceLock;
    static BUILT: OnceLock<SampleFormats> = OnceLock::new();
    BUILT.get_or_init(|| {
        let mut seen: Vec<String> = fixed_candidates()
            .iter()
            .flatten()
            .flatten()
            .map(|f| format!("{f:?}"))
            .collect();
        CATALOG
            .iter()
            .flat_map(|row| row.samples.iter().map(move |sample| (row, sample)))
            .map(|(row, sample)| {
                let built = row.read_as(&sample.lines()).filter(|f| {
                    let shown = format!("{f:?}");
                    let new = !seen.contains(&shown);
                    seen.push(shown);
                    new
                });
                (row, sample, built)
            })
            .collect()
    })
}

/// Every catalog row's samples through [`format_catalog`]: the seeds of its fuzz target.
pub fn format_catalog_samples() -> usize {
    let mut samples = 0;
    for (_, sample, _) in sample_formats() {
        format_catalog(sample.lines.as_bytes());
        samples += 1;
    }
    samples
}

/// Line formats, as a catalog row's candidates are.
type Formats = Vec<Box<dyn dupcost::logs::LineFormat>>;

/// Each catalog row's refusal candidates compiled once when they are the same whatever the
/// lines (a family's presets: nginx, Apache, Envoy, API Gateway; HAProxy's, ALB's, ELB's one
/// format), `None` for a row that builds them from the input's first lines (CloudFront's and
/// IIS's `#Fields:`, JSON's keys), which [`format_catalog`] builds again for each input.
///
/// A row's candidates count as the same whatever the lines when they are equal (by `Debug`)
/// built from no lines and from the first lines of every bundled sample and every formats
/// and suites fixture. Compiling every preset of every row at each input had held the target
/// to 158-227 executions a second (CONTRIBUTING.md's fuzzing notes). What a row builds from the
/// lines is still built from each input by its sniff and its named reading.
fn fixed_candidates() -> &'static [Option<Formats>] {
    use dupcost::logs::catalog::CATALOG;
    use std::sync::OnceLock;
    static FIXED: OnceLock<Vec<Option<Formats>>> = OnceLock::new();
    FIXED.get_or_init(|| {
        let probes = sample_files();
        CATALOG
            .iter()
            .map(|row| {
                let formats = (row.candidates)(&first_lines(b""));
                let shown = format!("{formats:?}");
                probes
                    .iter()
                    .all(|probe| format!("{:?}", (row.candidates)(&first_lines(probe))) == shown)
                    .then_some(formats)
            })
            .collect()
    })
}

/// The bundled samples (`samples/`) and the formats and suites fixtures, whole, read from the
/// repository whether the fuzz crate (in `fuzz/`) or the test crate (at the root) runs this.
fn sample_files() -> Vec<Vec<u8>> {
    let here = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let root = if here.join("samples").is_dir() {
        here.to_path_buf()
    } else {
        here.join("..")
    };
    let mut files = Vec::new();
    for folder in ["samples", "tests/fixtures/formats", "tests/fixtures/suites"] {
        let dir = root.join(folder);
        let entries = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e} (the probes of format_catalog)", dir.display()));
        for entry in entries {
            let path = entry.unwrap().path();
            if path.is_file() && path.extension().is_none_or(|e| e != "md") {
                files.push(std::fs::read(&path).unwrap());
            }
        }
    }
    assert!(files.len() >= 20, "{} sample files", files.len());
    files
}

/// JSON lines (the paths of the input's first lines, and some nested paths asked for).
pub fn format_json(bytes: &[u8]) {
    use dupcost::logs::json::{JsonLines, sniff};
    let extra = ["request.headers.Idempotency-Key[0]", "a[2].b", "status"];
    if let Some(format) = sniff(&first_lines(bytes), &extra) {
        native_lines(format.as_ref(), bytes);
    }
    if let Some(format) = JsonLines::from_lines(&first_lines(bytes), &[]) {
        native_lines(&format, bytes);
    }
    let fixed =
        br#"{"status":200,"request":{"headers":{"Idempotency-Key":["k"]}},"a":[1,2,{"b":3}]}"#;
    if let Some(format) = JsonLines::from_lines(&[fixed], &extra) {
        native_lines(&format, bytes);
    }
}

/// API Gateway's text layouts (sniffed; each preset; XML by the input's first line and by
/// the documented tags; the first line as a `$context` layout).
pub fn format_apigateway(bytes: &[u8]) {
    use dupcost::logs::apigateway::{PRESETS, Xml, compile, sniff};
    let first = first_lines(bytes);
    if let Some(format) = sniff(&first) {
        native_lines(format.as_ref(), bytes);
        let _ = format.hints();
    }
    for (name, ..) in PRESETS.iter().chain(&[("apigateway-xml", "", "")]) {
        let format = compile(name).expect("a preset compiles");
        format_lines(format.as_ref(), bytes);
    }
    if let Some(xml) = Xml::from_lines(&first) {
        native_lines(&xml, bytes);
    }
    // A layout written from the input's first line: compiled or refused, never a panic.
    if let Some(text) = first.first().and_then(|l| std::str::from_utf8(l).ok()) {
        if let Ok(format) = compile(text) {
            format_lines(format.as_ref(), bytes);
        }
    }
}

/// HAProxy log-format strings (the preset, a custom one with fetches, captures named).
pub fn format_haproxy_log(bytes: &[u8]) {
    use dupcost::logs::haproxy_format::{compile, with_captures};
    for text in [
        "httplog",
        r"%ci:%cp\ [%tr]\ %ft\ %b/%s\ %TR/%Tw/%Tc/%Tr/%Ta\ %ST\ %B\ %tsc\ %ID\ %[req.hdr(Idempotency-Key)]\ %Ts.%ms\ %hr\ %{+Q}r",
    ] {
        let format = compile(text).expect("a known log-format compiles");
        format_lines(format.as_ref(), bytes);
        let named = with_captures(format.into(), &["Host".into(), "Idempotency-Key".into()])
            .expect("it has a captured block");
        native_lines(named.as_ref(), bytes);
    }
}

/// A `--log-format` string (the first line) and lines it should read (the rest): compiling
/// never panics, and what compiles splits the lines as [`format_lines`] checks.
pub fn log_format(bytes: &[u8]) {
    let (text, lines) = match bytes.iter().position(|&b| b == b'\n') {
        Some(i) => (&bytes[..i], &bytes[i + 1..]),
        None => (bytes, &b""[..]),
    };
    let Ok(text) = std::str::from_utf8(text) else {
        return;
    };
    for input in ["auto", "nginx", "apache", "envoy", "haproxy"] {
        let input: dupcost::logs::InputFormat = input.parse().expect("a known input format");
        if let Ok(format) = dupcost::logs::compile_format(input, text) {
            format_lines(format.as_ref(), lines);
        }
    }
}

/// An envelope (`--envelope NAME`, each name of `names`) on arbitrary lines: [`unwrap`]'s
/// properties, and the whole reading with it named keeps every property [`logs`] checks
/// (whole and split alike: a line in parts across two pieces is read once).
pub fn envelope(names: &[&str], bytes: &[u8]) {
    unwrap(names, bytes);
    for name in names {
        let choice: dupcost::logs::EnvelopeChoice = name.parse().expect("a known envelope");
        logs_in(bytes, choice);
    }
}

/// An envelope's parser alone, in memory, on each line: unwrapping never panics and gives
/// no more text than the line holds (JSON unescaping only shortens), nor a longer time.
pub fn unwrap(names: &[&str], bytes: &[u8]) {
    let mut scratch = Vec::new();
    for name in names {
        let choice: dupcost::logs::EnvelopeChoice = name.parse().expect("a known envelope");
        let dupcost::logs::EnvelopeChoice::Named(envelope) = choice else {
            panic!("{name} names no envelope");
        };
        for line in bytes.split(|&b| b == b'\n') {
            if let Ok(u) = envelope.unwrap(line, &mut scratch) {
                assert!(
                    u.text.len() <= line.len(),
                    "{name}: more text than the line"
                );
                if let Some(time) = u.time {
                    assert!(
                        time.len() <= line.len(),
                        "{name}: a time longer than the line"
                    );
                }
            }
        }
    }
}

/// A JSON document framed as lines: never a panic; when the document is valid JSON (one value
/// or several one after another), each line it gives is one whole JSON value (the framer
/// follows the nesting and strings, not the syntax: a broken record is the next stage's bad
/// row); and the whole reading (detected), in memory as `analyze` reads a file of it, keeps
/// [`logs`]' properties. A document is read as one stream, never in pieces, so the file and
/// its reading in pieces (the `logs` target's) would add their cost and nothing to compare.
/// Returns whether the bytes were read.
pub fn json_document(bytes: &[u8]) -> bool {
    frame_document(bytes);
    let opts = dupcost::logs::LogOptions {
        threads: 1,
        ..dupcost::logs::LogOptions::default()
    };
    let analysis = dupcost::logs::analyze_bytes(bytes, &opts);
    if let Ok(analysis) = &analysis {
        tally_properties(analysis);
    }
    analysis.is_ok()
}

/// The JSON document framer alone, in memory: never a panic, and the lines of a valid
/// document are each one whole JSON value.
pub fn frame_document(bytes: &[u8]) {
    use std::io::Read;
    let valid = serde_json::Deserializer::from_slice(bytes)
        .into_iter::<serde::de::IgnoredAny>()
        .all(|v| v.is_ok());
    let mut out = Vec::new();
    if dupcost::logs::Documents::new(bytes)
        .read_to_end(&mut out)
        .is_ok()
        && valid
    {
        for line in out.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
            serde_json::from_slice::<serde::de::IgnoredAny>(line)
                .expect("a framed record is one whole JSON value");
        }
    }
}

/// The shapes of lines that are not access lines, on every line of `bytes`: never a panic;
/// the same kind with spaces around the line; an NLB TLS record is never read as an ALB
/// request (the ALB reader refuses a line whose type is not ALB's).
pub fn non_access(bytes: &[u8]) {
    use dupcost::logs::LineFormat;
    use dupcost::logs::alb::{AwsLoadBalancer, Balancer};
    let alb = AwsLoadBalancer::new(Balancer::Alb);
    let mut fields = dupcost::logs::Fields::default();
    for line in bytes.split(|&b| b == b'\n') {
        let kind = dupcost::logs::non_access(line);
        let mut padded = b"  ".to_vec();
        padded.extend_from_slice(line);
        padded.extend_from_slice(b" \t");
        assert_eq!(dupcost::logs::non_access(&padded), kind);
        if kind.is_some_and(|k| k.starts_with("NLB")) {
            fields.clear();
            assert!(
                alb.split(line, &mut fields).is_err(),
                "an NLB record read as ALB"
            );
        }
    }
}

/// A duration unit from values (issue 35), one value a line of `bytes`: never a panic; a
/// unit inferred from at least 5 values, the same whatever their order, and one that puts
/// every non-zero plain value between 1 µs and a day.
pub fn duration_unit(bytes: &[u8]) {
    let values: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
    let Some(found) = dupcost::logs::infer_duration_unit(&values) else {
        return;
    };
    assert!(found.values >= 5, "{found:?}");
    let mut reversed = values.clone();
    reversed.reverse();
    let again = dupcost::logs::infer_duration_unit(&reversed).map(|f| f.unit);
    assert_eq!(again, Some(found.unit), "the order changed the unit");
    for v in &values {
        let v = v.trim_ascii();
        let v = v.strip_suffix(b"s").unwrap_or(v);
        if let Some(n) = std::str::from_utf8(v)
            .ok()
            .and_then(|t| t.parse::<f64>().ok())
        {
            let secs = n * found.unit.nanos() / 1e9;
            assert!(
                n == 0.0 || (1e-6..=86_400.0).contains(&secs),
                "{n} as {found:?}"
            );
        }
    }
}

/// The span readers on one document: where OTLP/JSON's scanner reads it, its serde reader
/// reads the same spans (the scanner takes only what serde takes, as serde reads it); Zipkin's
/// and Jaeger's readers read or refuse; none panics.
pub fn span_reader(bytes: &[u8]) {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return;
    };
    let r = dupcost::logs::span_readers(text);
    if let Some(scanned) = &r.scan {
        assert_eq!(Ok(scanned), r.serde.as_ref(), "{text:?}");
    }
}

/// Traces on arbitrary bytes, read in memory as `analyze` reads a file of them (sniffing,
/// envelopes, documents, assembly, rows, tally): as OTLP/JSON with `--sample-rate`, as
/// Zipkin and as Jaeger's JSON (named, the envelope detected; OTLP/JSON's reading takes
/// Zipkin's arrays too, by their first byte), and detected when the first bytes are traces. Never a panic; on success the
/// tally counts what the assembly found (every attempt a mutating row), the evidence adds up,
/// and the derived figures are finite; a detected reading is of the format sniffed and keeps
/// [`logs`]' properties. The file itself (opening it, reading it in pieces) and the bytes
/// read as a log are the `logs` target's. Returns how many of the four readings succeeded.
pub fn traces(bytes: &[u8]) -> usize {
    use dupcost::logs::{InputFormat, LogOptions, analyze_bytes, sniff_traces};
    let mut read_as_traces = 0;
    let sniffed = sniff_traces(bytes);
    let detected = sniffed.map(|_| (InputFormat::Auto, None));
    let readings = [
        Some((InputFormat::Otlp, Some(0.25))),
        Some((InputFormat::Zipkin, None)),
        Some((InputFormat::Jaeger, None)),
        detected,
    ];
    for (input_format, sample_rate) in readings.into_iter().flatten() {
        let opts = LogOptions {
            threads: 1,
            input_format,
            sample_rate,
            ..LogOptions::default()
        };
        let Ok(a) = analyze_bytes(bytes, &opts) else {
            continue;
        };
        let read = a.files[0].traces.clone().expect("read as traces");
        if input_format == InputFormat::Auto {
            // Within 64 KiB (`run.sh`'s inputs), the bytes sniffed are the first lines read.
            assert_eq!(read.format, sniffed, "detected otherwise than sniffed");
        }
        let t = &a.tally;
        let c = t.counts;
        assert_eq!(c.mutating + t.bad_rows, read.attempts, "{read:?}");
        assert_eq!(t.rows, read.attempts, "{read:?}");
        assert!(
            read.attempts <= read.spans && read.traces <= read.spans,
            "{read:?}"
        );
        assert!(read.cut <= read.traces, "{read:?}");
        assert!(
            read.never_reached + read.server_untraced <= c.timed_out,
            "{read:?} {c:?}"
        );
        assert!(c.timed_out <= c.mutating && c.timed_out_succeeded <= c.timed_out);
        assert!(t.intents() <= c.mutating);
        let k = a.sampling_scale();
        assert!(k.is_finite() && k >= 1.0, "scale {k}");
        if let Ok(d) = a.derive(&Scenario::default(), &Default::default()) {
            d.scenario.validate().expect("a derived scenario is valid");
            for m in &d.measured {
                assert!(m.value.is_finite(), "{m:?}");
            }
        }
        if input_format == InputFormat::Auto {
            tally_properties(&a);
        }
        read_as_traces += 1;
    }
    read_as_traces
}

/// The JSON scanner against serde_json on arbitrary bytes: a value the scanner skips whole,
/// serde_json reads, with the same text; and a JSON-lines format's fields, read by the
/// scanner (serde_json for any line it declines), equal serde_json's alone, line by line, for
/// trees from the input's first lines and a fixed one, and so are the fields of any line the
/// first lines' shape takes. Returns how many lines the scanner took.
pub fn json_scan(bytes: &[u8]) -> usize {
    use dupcost::logs::json::{JsonLines, Reader};
    use dupcost::logs::json_scan::Scan;
    if let Ok(text) = std::str::from_utf8(bytes) {
        let mut scan = Scan::new(text);
        if let Ok(raw) = scan.skip().and_then(|raw| scan.end().map(|()| raw)) {
            let theirs: Box<serde_json::value::RawValue> =
                serde_json::from_str(text).expect("what the scanner takes, serde_json takes");
            assert_eq!(raw, theirs.get());
        }
    }
    // The fixed tree is built once: the same each execution.
    static FIXED: std::sync::OnceLock<Option<JsonLines>> = std::sync::OnceLock::new();
    let fixed = FIXED.get_or_init(|| {
        let line = br#"{"status":200,"request":{"headers":{"Idempotency-Key":["k"]}},"a":[1,{"b":3}],"s":"x"}"#;
        let extra = ["request.headers.Idempotency-Key[0]", "a[2].b", "s.t"];
        JsonLines::from_lines(&[line], &extra)
    });
    let own = JsonLines::from_lines(&first_lines(bytes), &[]);
    let formats: Vec<&JsonLines> = own.iter().chain(fixed).collect();
    let read = |format: &JsonLines, line: &[u8], reader| {
        let mut fields = dupcost::logs::Fields::default();
        format.split_by(line, &mut fields, reader).map(|()| fields)
    };
    let mut took = 0;
    for format in formats {
        for line in bytes.split(|&b| b == b'\n') {
            let serde = read(format, line, Reader::Serde);
            assert_eq!(read(format, line, Reader::Auto), serde, "{line:?}");
            if let Ok(fields) = read(format, line, Reader::Scanner) {
                assert_eq!(Ok(fields), serde, "{line:?}");
                took += 1;
            }
            // The shape of the first lines (a line of their layout) reads as serde_json does.
            if let Ok(fields) = read(format, line, Reader::Shape) {
                assert_eq!(Ok(fields), serde, "{line:?}");
            }
        }
    }
    took
}

/// The CSV/TSV record reader on arbitrary bytes, in memory (`logs::csv_records`, the reading
/// of a CSV file: the SIMD splitter, quoted lines, `csv_core`): never a panic; no more
/// records than line ends (`\n`, and `\r`, which `csv_core` takes as one); no record has
/// more fields than a record may, nor more bytes than the input; and an input with no quote
/// and no `\r` reads as its non-empty lines split at the delimiter (the fast path is the
/// plain reading).
///
/// One delimiter a call: each reading zeroes the file reader's buffers (2.25 MB, the record
/// cap and the input buffer), the most of an execution's cost under the sanitizer.
pub fn csv_records(bytes: &[u8], delimiter: u8) {
    let records = dupcost::logs::csv_records(bytes, delimiter);
    // `csv_core` ends a record at a lone `\r` too (the fast path keeps it as data).
    let ends = bytes.iter().filter(|&&b| b == b'\n' || b == b'\r').count() + 1;
    assert!(
        records.len() <= ends,
        "{} records of {ends} line ends",
        records.len()
    );
    for fields in records.iter().flatten() {
        assert!(
            !fields.is_empty() && fields.len() <= 1024,
            "{} fields",
            fields.len()
        );
        let len: usize = fields.iter().map(Vec::len).sum();
        assert!(len <= bytes.len(), "{len} bytes of {}", bytes.len());
    }
    if bytes.iter().any(|&b| b == b'"' || b == b'\r') {
        return;
    }
    let plain: Vec<Vec<Vec<u8>>> = bytes
        .split(|&b| b == b'\n')
        .filter(|line| !line.is_empty())
        .map(|line| {
            line.split(|&b| b == delimiter)
                .map(<[u8]>::to_vec)
                .collect()
        })
        .collect();
    // A line of more fields than the fast path stores goes to `csv_core`, which may
    // take it otherwise: compared only when every line is within.
    if plain
        .iter()
        .all(|fields: &Vec<Vec<u8>>| fields.len() < 1024)
    {
        let read: Vec<Vec<Vec<u8>>> = records
            .into_iter()
            .map(|r| r.expect("a short quote-free line is never a bad record"))
            .collect();
        assert_eq!(read, plain);
    }
}

/// Ambassador's `ACCESS ` prefix reader over each Envoy preset, in memory: never a panic, its
/// lines split as [`format_lines`] checks, and a line reads the same with the prefix and
/// without it.
pub fn ambassador(bytes: &[u8]) {
    use dupcost::logs::LineFormat;
    use dupcost::logs::ambassador::{Ambassador, PREFIX};
    let envoy: dupcost::logs::InputFormat = "envoy".parse().expect("a known input format");
    for preset in ["envoy", "istio"] {
        let inner = dupcost::logs::compile_format(envoy, preset).expect("a preset compiles");
        let format = Ambassador(inner);
        format_lines(&format, bytes);
        let (mut bare, mut prefixed) = (
            dupcost::logs::Fields::default(),
            dupcost::logs::Fields::default(),
        );
        for line in bytes.split(|&b| b == b'\n') {
            if line.starts_with(PREFIX) {
                continue;
            }
            bare.clear();
            prefixed.clear();
            let with: Vec<u8> = [PREFIX, line].concat();
            let a = format.split(line, &mut bare).map(|()| bare.ends.clone());
            let b = format
                .split(&with, &mut prefixed)
                .map(|()| prefixed.ends.clone());
            assert_eq!(a.is_ok(), b.is_ok(), "{:?}", String::from_utf8_lossy(line));
            if a.is_ok() {
                assert_eq!((&a, &bare.data), (&b, &prefixed.data));
            }
        }
    }
}
