#!/usr/bin/env bash
# Peak memory of `dupcost logs -` on a ~5 GB log streamed through a pipe:
# the generator writes the log on the fly, nothing lands on disk, and `/usr/bin/time -v`
# reports dupcost's maximum resident set size. Prints the bytes streamed, the wall time, the
# throughput and the peak RSS.
#
#   bash bench/memory.sh                 # 47.3M rows, ~5 GB
#   ROWS=1000000 bash bench/memory.sh    # a quick look
set -euo pipefail
cd "$(dirname "$0")/.."

ROWS=${ROWS:-47300000}

source bench/common.sh
need_gnu_time

TIMES="$OUT/memory-time.txt"
COUNT="$OUT/memory-bytes.txt"

# The bytes are counted on the way through (wc -c on a tee'd copy of the stream).
start=$(date +%s.%N)
"$GEN" --rows "$ROWS" --seed 5 --truth "$OUT/memory-truth.json" |
  tee >(wc -c > "$COUNT") |
  /usr/bin/time -v -o "$TIMES" "$DUPCOST" logs - --format json > "$OUT/memory-report.json"
end=$(date +%s.%N)
sleep 1 # let the wc in the process substitution finish
bytes=$(cat "$COUNT")
rss_kb=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$TIMES")
wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$TIMES")
secs=$(echo "$end - $start" | bc -l)
python3 - "$bytes" "$secs" "$rss_kb" "$wall" "$ROWS" <<'PY'
import sys
b, secs, rss, wall, rows = int(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
print(f"rows streamed:   {rows}")
print(f"bytes streamed:  {b} ({b / 1e9:.2f} GB)")
print(f"wall time:       {secs:.1f} s (dupcost alone, /usr/bin/time: {wall})")
print(f"throughput:      {b / 1e6 / secs:.0f} MB/s")
print(f"peak RSS:        {rss} kB ({rss / 1024:.1f} MiB)")
PY
python3 - "$OUT/memory-report.json" "$OUT/memory-truth.json" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))["observed"]
t = json.load(open(sys.argv[2]))
for k in ["rows", "mutating_attempts", "intents", "timed_out", "timed_out_succeeded"]:
    status = "ok" if o[k] == t[k] else "DIFFERS"
    print(f"{k:20} {o[k]:>12} truth {t[k]:>12} {status}")
PY
