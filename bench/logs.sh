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
BYTES=$(stat -c %s "$LOG")
cat "$LOG" > /dev/null # warm the page cache

cat > "$OUT/duckdb_query.py" <<'PY'
import sys, duckdb
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
PY

# run NAME CMD...: best wall seconds and max peak RSS (kB) over RUNS runs.
run() {
  local name=$1; shift
  local best="" rss=0
  for _ in $(seq "$RUNS"); do
    /usr/bin/time -f "%e %M" -o "$OUT/$name.time" "$@" > "$OUT/$name.out"
    read -r secs kb < "$OUT/$name.time"
    if [ -z "$best" ] || awk "BEGIN{exit !($secs < $best)}"; then best=$secs; fi
    if [ "$kb" -gt "$rss" ]; then rss=$kb; fi
  done
  echo "$name $best $rss"
}

echo "log: $LOG ($BYTES bytes, $ROWS rows); $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg)"
results=()
results+=("$(run wc wc -l "$LOG")")
results+=("$(run dupcost "$DUPCOST" logs "$LOG" --format json)")
results+=("$(run duckdb python3 "$OUT/duckdb_query.py" "$LOG")")

printf '%-10s %9s %10s %14s\n' tool seconds MB/s "peak RSS MB"
declare -A secs
for r in "${results[@]}"; do
  read -r name s kb <<< "$r"
  secs[$name]=$s
  awk -v n="$name" -v s="$s" -v kb="$kb" -v b="$BYTES" \
    'BEGIN{printf "%-10s %9.2f %10.0f %14.1f\n", n, s, b/1e6/(s>0?s:0.001), kb/1024}'
done
awk -v d="${secs[dupcost]}" -v k="${secs[duckdb]}" -v w="${secs[wc]}" \
  'BEGIN{printf "dupcost throughput = %.2fx DuckDB, %.2fx wc -l\n", k/d, w/d}'

# The two agree on the counts.
python3 - "$OUT/dupcost.out" "$OUT/duckdb.out" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))["observed"]
ours = (o["mutating_attempts"], o["timed_out"], o["timed_out_succeeded"])
theirs = tuple(int(x) for x in open(sys.argv[2]).read().split())
print("counts agree:", ours == theirs, ours, theirs)
PY
