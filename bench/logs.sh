#!/usr/bin/env bash
# Throughput and peak memory of `dupcost logs` against DuckDB's read_csv doing the same
# aggregation, and against `wc -l`, on a generated ~1 GB access log (kept in bench/out/,
# git-ignored). Each tool runs RUNS times on a warm page cache; the best wall time and the
# largest peak RSS are reported.
#
#   bash bench/logs.sh              # ~1.1 GB, 11M rows
#   ROWS=2000000 RUNS=1 bash bench/logs.sh
set -euo pipefail
cd "$(dirname "$0")/.."

ROWS=${ROWS:-11000000}
RUNS=${RUNS:-3}
OUT=bench/out
TARGET=${CARGO_TARGET_DIR:-target}
mkdir -p "$OUT"

if [ ! -x /usr/bin/time ]; then
  echo "installing GNU time" >&2
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq time >/dev/null
fi
if ! python3 -c 'import duckdb' 2>/dev/null; then
  echo "installing duckdb from PyPI" >&2
  python3 -m pip install -q duckdb
fi

cargo build --release --quiet --bin dupcost --example gen-access-log
DUPCOST="$TARGET/release/dupcost"
LOG="$OUT/access-$ROWS.csv"
if [ ! -s "$LOG" ]; then
  echo "generating $ROWS rows into $LOG" >&2
  "$TARGET/release/examples/gen-access-log" --rows "$ROWS" --seed 42 --truth "$OUT/truth-$ROWS.json" > "$LOG"
fi
BYTES=$(stat -L -c %s "$LOG")
cat "$LOG" > /dev/null # warm the page cache

cat > "$OUT/duckdb_query.py" <<'PY'
import sys, time
t0 = time.perf_counter()
import duckdb
t1 = time.perf_counter()
# The same aggregation as dupcost: mutating attempts, timed out, timed out with upstream 2xx,
# per day. (dupcost also groups attempts into intents by key and templates routes.)
rows = duckdb.sql(f"""
SELECT CAST(timestamp AS DATE) AS day,
  count(*) FILTER (WHERE method IN ('POST','PUT','PATCH','DELETE')) AS mutating,
  count(*) FILTER (WHERE method IN ('POST','PUT','PATCH','DELETE') AND status IN (408,499,504)) AS timed_out,
  count(*) FILTER (WHERE method IN ('POST','PUT','PATCH','DELETE') AND status IN (408,499,504)
                   AND TRY_CAST(upstream_status AS INTEGER) BETWEEN 200 AND 299) AS succeeded
FROM read_csv('{sys.argv[1]}', header = true)
GROUP BY ALL ORDER BY day
""").fetchall()
print(sum(r[1] for r in rows), sum(r[2] for r in rows), sum(r[3] for r in rows))
# Seconds of the query alone, without starting Python and importing duckdb.
with open(sys.argv[2], "a") as f:
    f.write(f"{time.perf_counter() - t1:.3f}\n")
PY

# run NAME CMD...: best wall seconds, the CPU seconds (user + system) of that run, and the
# largest peak RSS (kB) over RUNS runs.
run() {
  local name=$1; shift
  local best="" cpu="" rss=0
  for _ in $(seq "$RUNS"); do
    /usr/bin/time -f "%e %M %U %S" -o "$OUT/$name.time" "$@" > "$OUT/$name.out"
    read -r secs kb user sys < "$OUT/$name.time"
    if [ -z "$best" ] || awk "BEGIN{exit !($secs < $best)}"; then
      best=$secs
      cpu=$(awk "BEGIN{print $user + $sys}")
    fi
    if [ "$kb" -gt "$rss" ]; then rss=$kb; fi
  done
  echo "$name $best $rss $cpu"
}

echo "log: $LOG ($BYTES bytes, $ROWS rows); $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg)"
results=()
results+=("$(run wc wc -l "$LOG")")
results+=("$(run dupcost "$DUPCOST" logs "$LOG" --format json)")
rm -f "$OUT/duckdb-query.times"
results+=("$(run duckdb python3 "$OUT/duckdb_query.py" "$LOG" "$OUT/duckdb-query.times")")
query=$(sort -n "$OUT/duckdb-query.times" | head -1)

printf '%-10s %9s %10s %9s %14s\n' tool "wall s" MB/s "CPU s" "peak RSS MB"
declare -A secs cpus
for r in "${results[@]}"; do
  read -r name s kb cpu <<< "$r"
  secs[$name]=$s
  cpus[$name]=$cpu
  awk -v n="$name" -v s="$s" -v kb="$kb" -v b="$BYTES" -v c="$cpu" \
    'BEGIN{printf "%-10s %9.2f %10.0f %9.2f %14.1f\n", n, s, b/1e6/(s>0?s:0.001), c, kb/1024}'
done
awk -v b="$BYTES" -v q="$query" 'BEGIN{printf "%-10s %9.2f %10.0f\n", "(query)", q, b/1e6/q}'
awk -v d="${secs[dupcost]}" -v k="${secs[duckdb]}" -v q="$query" -v w="${secs[wc]}" \
  -v dc="${cpus[dupcost]}" -v kc="${cpus[duckdb]}" \
  'BEGIN{printf "dupcost throughput = %.2fx DuckDB (%.2fx its query alone, without starting Python); %.2fx wc -l\n", k/d, q/d, w/d;
         printf "dupcost CPU time = 1/%.2f of DuckDB'"'"'s\n", kc/dc}'
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg) (the machine is shared: compare the ratios of one run)"

# The two agree on the counts.
python3 - "$OUT/dupcost.out" "$OUT/duckdb.out" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))["observed"]
ours = (o["mutating_attempts"], o["timed_out"], o["timed_out_succeeded"])
theirs = tuple(int(x) for x in open(sys.argv[2]).read().split())
print("counts agree:", ours == theirs, ours, theirs)
PY
