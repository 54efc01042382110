#!/usr/bin/env bash
# Throughput and peak memory of `dupcost logs` against DuckDB and ClickHouse (chDB) doing the
# same work on a generated ~1 GB access log spanning a year (kept in bench/out/, git-ignored).
#
# Tools: wc -l (the floor), dupcost, DuckDB with declared types and count(DISTINCT key),
# chDB with a declared structure and uniqExact, and DuckDB's auto-detecting per-day query (the
# benchmark's comparison before, for continuity). The SQL is in bench/logs_sql.py. Each round
# runs every tool once, on a warm page cache, RUNS rounds; reported per tool: wall time, CPU
# time (user + system), MB/s and peak RSS (GNU time), as the best of RUNS and as the median,
# and for the Python engines also the query alone (without starting Python). The script
# checks that every tool's figures equal dupcost's JSON, and that dupcost's JSON is
# byte-identical to the reference one (written by the first run on a log, or by BASELINE=
# /path/to/an/older/dupcost when given; REFERENCE=FILE to pass another): no optimisation may
# change a result.
#
# SHAPE picks the log's shape (bench/race.sh runs them all and sums them up), each about 1 GB:
#   base     the benchmark's log: ~105-byte rows, six endpoints, 32-character keys (9.5M rows)
#   short    ~85-byte rows: 16-character keys, no user agent (11.5M rows)
#   long     ~255-byte rows: browsers' user agents (quoted, with commas) and query strings (4M)
#   routes   mutating requests spread over 10,000 route templates (9.5M rows)
#   keyless  no keys: intents grouped by fingerprint (client, user agent, method, path, request
#            length) with the retry rule; the engines compute the same with a window function
#            (bench/logs_sql.py), and the script checks no fingerprint was treated as shared
#   json     nginx `log_format ... escape=json` lines (~320 bytes: the generator's nginx-json,
#            2.7M rows, 0.87 GB); DuckDB's read_json and chDB's JSONEachRow are given the
#            columns they read, with their types, and do the same work as on the CSV shapes
# Each shape's summary is also written to bench/out/race-SHAPE.json.
#
#   bash bench/logs.sh                          # 9.5M rows over 365 days (1.0 GB), 5 rounds
#   SHAPE=long RUNS=3 bash bench/logs.sh        # one other shape
#   ROWS=500000 DAYS=20 RUNS=1 bash bench/logs.sh   # a quick look
set -euo pipefail
cd "$(dirname "$0")/.."

SHAPE=${SHAPE:-base}
SCHEMA=keyed
case $SHAPE in
  base) GEN_ARGS=() DEFAULT_ROWS=9500000 ;;
  short) GEN_ARGS=(--short-rows) DEFAULT_ROWS=11500000 ;;
  long) GEN_ARGS=(--long-rows) DEFAULT_ROWS=4000000 ;;
  routes) GEN_ARGS=(--templates 10000) DEFAULT_ROWS=9500000 ;;
  # --rows counts the keyless log's intents; a few percent more rows are written.
  keyless) GEN_ARGS=(--keyless) DEFAULT_ROWS=7500000 SCHEMA=fingerprint ;;
  json) GEN_ARGS=(--format nginx-json) DEFAULT_ROWS=2700000 SCHEMA=json ;;
  *) echo "unknown SHAPE=$SHAPE: base, short, long, routes, keyless or json" >&2; exit 2 ;;
esac
# SCALE=20 divides the shape's rows (bench/race.sh's quick mode).
ROWS=${ROWS:-$((DEFAULT_ROWS / ${SCALE:-1}))}
DAYS=${DAYS:-365}
RUNS=${RUNS:-5}
OUT=bench/out
TARGET=${CARGO_TARGET_DIR:-target}
VENV=$OUT/venv
mkdir -p "$OUT"

if [ ! -x /usr/bin/time ]; then
  echo "installing GNU time" >&2
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq time >/dev/null
fi
if ! "$VENV/bin/python" -c 'import duckdb, chdb' 2>/dev/null; then
  echo "installing duckdb and chdb from PyPI into $VENV" >&2
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q duckdb chdb
fi
PY="$VENV/bin/python"

# The benchmark build (Cargo.toml's `release-lto` profile); PROFILE=profiling reuses the
# profiling build (the same with symbols), PROFILE=release the quicker-built release.
PROFILE=${PROFILE:-release-lto}
cargo build --profile "$PROFILE" --quiet --bin dupcost --example gen-access-log
DUPCOST="$TARGET/$PROFILE/dupcost"
# The base shape keeps its file names from before the shapes.
NAME=$ROWS-${DAYS}d
[ "$SHAPE" = base ] || NAME=$SHAPE-$NAME
EXT=csv
[ "$SCHEMA" = json ] && EXT=jsonl
LOG="$OUT/access-$NAME.$EXT"
if [ ! -s "$LOG" ]; then
  echo "generating $ROWS rows ($SHAPE) over $DAYS days into $LOG" >&2
  "$TARGET/$PROFILE/examples/gen-access-log" --rows "$ROWS" --days "$DAYS" --seed 42 \
    ${GEN_ARGS[@]+"${GEN_ARGS[@]}"} --truth "$OUT/truth-$NAME.json" > "$LOG.tmp"
  mv "$LOG.tmp" "$LOG"
fi
BYTES=$(stat -L -c %s "$LOG")
cat "$LOG" > /dev/null # warm the page cache

# The work is pinned by flags, so it stays the same whatever the defaults become. The
# generated log leaves a quarter of the timed-out attempts' outcomes unknown (upstream 504):
# --max-unknown 100% keeps the succeeded share derived from the known ones, which the engines'
# counts are compared with, instead of refusing it as a real report does.
DUPCOST_FLAGS=(--format json --methods POST,PUT,PATCH,DELETE --timeout-status 408,499,504
  --retry-window 1h --max-unknown 100%)
[ "$SCHEMA" = fingerprint ] && DUPCOST_FLAGS+=(--intents fingerprint)

# No result may change: dupcost's JSON against the reference.
REFERENCE=${REFERENCE:-$OUT/reference-$NAME.json}
"$DUPCOST" logs "$LOG" "${DUPCOST_FLAGS[@]}" > "$OUT/dupcost.json"
if [ ! -s "$REFERENCE" ] && [ -n "${BASELINE:-}" ]; then
  # BASELINE=/path/to/an/older/dupcost writes the reference: the code before a change.
  "$BASELINE" logs "$LOG" "${DUPCOST_FLAGS[@]}" > "$REFERENCE"
  echo "reference JSON written by $BASELINE: $REFERENCE" >&2
fi
if [ ! -s "$REFERENCE" ]; then
  cp "$OUT/dupcost.json" "$REFERENCE"
  echo "reference JSON written: $REFERENCE (delete it when a result is meant to change)" >&2
elif ! cmp -s "$OUT/dupcost.json" "$REFERENCE"; then
  echo "dupcost's JSON differs from the reference $REFERENCE:" >&2
  diff <("$PY" -m json.tool "$REFERENCE") <("$PY" -m json.tool "$OUT/dupcost.json") | head -20 >&2
  exit 1
fi

# DuckDB's auto-detecting per-day query only on the base shape, for continuity.
TOOLS=(wc dupcost duckdb-typed chdb)
[ "$SHAPE" = base ] && TOOLS+=(duckdb-auto)
command_of() {
  case $1 in
    wc) echo wc -l "$LOG" ;;
    dupcost) echo "$DUPCOST" logs "$LOG" "${DUPCOST_FLAGS[@]}" ;;
    *) echo "$PY" bench/logs_sql.py "$1" "$LOG" "$OUT/$1.query" "$SCHEMA" ;;
  esac
}
for tool in "${TOOLS[@]}"; do rm -f "$OUT/$tool.runs" "$OUT/$tool.query"; done

echo "shape $SHAPE, log: $LOG ($BYTES bytes, $ROWS rows over $DAYS days); $(nproc) cores;" \
  "load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "versions: $("$PY" -c 'import duckdb, chdb; print("duckdb", duckdb.__version__, "/ chdb", chdb.__version__)')"
# Rounds, each running every tool once, so a busy moment of a shared machine falls on all.
for round in $(seq "$RUNS"); do
  for tool in "${TOOLS[@]}"; do
    # shellcheck disable=SC2046 # the command's words
    /usr/bin/time -f "%e %M %U %S" -o "$OUT/$tool.time" $(command_of "$tool") > "$OUT/$tool.out"
    cat "$OUT/$tool.time" >> "$OUT/$tool.runs"
  done
  echo "round $round of $RUNS done; load average $(cut -d' ' -f1-3 /proc/loadavg)" >&2
done

"$PY" - "$OUT" "$BYTES" "$SHAPE" "$SCHEMA" "${TOOLS[@]}" <<'PY'
import json, statistics, sys
from datetime import datetime

out, size, shape, schema, tools = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5:]
mb = size / 1e6
runs, query = {}, {}
for t in tools:
    runs[t] = [tuple(float(x) for x in line.split()) for line in open(f"{out}/{t}.runs")]
    try:
        query[t] = [float(x) for x in open(f"{out}/{t}.query")]
    except FileNotFoundError:
        pass

def wall(t): return [r[0] for r in runs[t]]
def cpu(t): return [r[2] + r[3] for r in runs[t]]
def best(t): return min(runs[t], key=lambda r: r[0])
def rate(secs): return mb / max(secs, 0.01)  # GNU time reports 0.00 for a tiny run

print(f"{'':14} {'best of ' + str(len(runs['wc'])):>29} | {'median':>29} |")
print(f"{'tool':14} {'wall s':>9} {'CPU s':>9} {'MB/s':>9} | {'wall s':>9} {'CPU s':>9} {'MB/s':>9} | {'peak RSS MB':>11}")
for t in tools:
    b = best(t)
    mw, mc = statistics.median(wall(t)), statistics.median(cpu(t))
    rss = max(r[1] for r in runs[t]) / 1024
    print(f"{t:14} {b[0]:9.2f} {b[2] + b[3]:9.2f} {rate(b[0]):9.0f} | {mw:9.2f} {mc:9.2f} {rate(mw):9.0f} | {rss:11.1f}")
    if t in query:
        q = query[t]
        print(f"{'  (query)':14} {min(q):9.2f} {'':9} {rate(min(q)):9.0f} | "
              f"{statistics.median(q):9.2f} {'':9} {rate(statistics.median(q)):9.0f} |")

d_best, d_med = min(wall("dupcost")), statistics.median(wall("dupcost"))
d_cpu = statistics.median(cpu("dupcost"))
print()
print("dupcost's throughput against each (best of runs / median; x = times faster):")
for t in tools:
    if t in ("dupcost", "wc"):
        continue
    line = (f"  {t:13} {min(wall(t)) / d_best:5.2f}x / {statistics.median(wall(t)) / d_med:5.2f}x"
            f"   query alone {min(query[t]) / d_best:5.2f}x / {statistics.median(query[t]) / d_med:5.2f}x"
            f"   CPU time 1/{statistics.median(cpu(t)) / d_cpu:.2f}")
    print(line)
faster = min(("duckdb-typed", "chdb"), key=lambda t: statistics.median(wall(t)))
print(f"against the faster of DuckDB-typed and chDB ({faster}), median of {len(runs['wc'])}: "
      f"{statistics.median(wall(faster)) / d_med:.2f}x (its query alone: "
      f"{statistics.median(query[faster]) / d_med:.2f}x); wc -l is {d_med / max(statistics.median(wall('wc')), 0.01):.1f}x faster than dupcost")

# Every tool's figures equal dupcost's.
o = json.load(open(f"{out}/dupcost.json"))["observed"]
micros = lambda s: round(datetime.fromisoformat(s.replace("Z", "+00:00")).timestamp() * 1e6)
ours = {
    "rows": o["rows"], "first_us": micros(o["first_timestamp"]), "last_us": micros(o["last_timestamp"]),
    "mutating": o["mutating_attempts"], "intents": o["intents"], "timed_out": o["timed_out"],
    "timed_out_succeeded": o["timed_out_succeeded"],
}
per_day = [[d["date"], d["mutating"], d["timed_out"], d["timed_out_succeeded"]] for d in o["per_day"]]
ok = True
equal = {}
for t in ("duckdb-typed", "chdb"):
    theirs = json.load(open(f"{out}/{t}.out"))
    same = theirs == ours
    ok &= same
    equal[t] = same
    print(f"{t} figures equal dupcost's: {same}" + ("" if same else f"\n  {theirs}\n  {ours}"))
if "duckdb-auto" in tools:
    auto = json.load(open(f"{out}/duckdb-auto.out"))["per_day"]
    ok &= auto == per_day
    print(f"duckdb-auto per-day figures equal dupcost's ({len(per_day)} days): {auto == per_day}")
if schema == "fingerprint":
    # The engines' window function is dupcost's retry rule without the shared-address rate.
    grouped = o["intent_grouping"] == "fingerprint" and o["shared_addresses"]["fingerprints"] == 0
    ok &= grouped
    print(f"dupcost grouped by fingerprint, no fingerprint treated as shared: {grouped}")
print(f"dupcost: {ours}")

rss = lambda t: max(r[1] for r in runs[t]) / 1024
summary = {
    "shape": shape, "bytes": size, "rows": o["rows"], "bytes_per_row": round(size / o["rows"], 1),
    "runs": len(runs["wc"]), "faster": faster, "ok": ok, "equal": equal,
    "dupcost": {"median_s": d_med, "best_s": d_best, "mb_s": round(mb / d_med), "cpu_s": d_cpu,
                "rss_mb": round(rss("dupcost"), 1)},
}
for t in ("duckdb-typed", "chdb"):
    summary[t] = {"median_s": statistics.median(wall(t)), "rss_mb": round(rss(t), 1),
                  "ratio": round(statistics.median(wall(t)) / d_med, 2),
                  "query_ratio": round(statistics.median(query[t]) / d_med, 2)}
summary["ratio"] = summary[faster]["ratio"]
json.dump(summary, open(f"{out}/race-{shape}.json", "w"))
sys.exit(0 if ok else 1)
PY
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
