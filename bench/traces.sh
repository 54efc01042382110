#!/usr/bin/env bash
# OTLP/JSON traces against JSON lines of about the same size, by bytes a second: the
# Collector's file exporter's lines (bench/gen_traces.py, 200,000 traces, 384 MB) and Caddy
# JSON lines (the generator's caddy-json, 1,000,000 rows, 379 MB), kept in bench/out/.
#
# The machine is shared, and its load moves wall times by a third from minute to minute, so
# each round reads the JSON lines and then the traces back to back, and the figure is the
# median of the rounds' ratios (each pair read under about the same load), not a ratio of
# medians. Also printed: each file's median wall and CPU time (user + system), and peak RSS.
#
#   bash bench/traces.sh                   # 12 rounds, default threads (one a core, at most 4)
#   RUNS=6 THREADS=1 bash bench/traces.sh  # one thread each
#   PROFILE=profiling bash bench/traces.sh # the build docs/PERFORMANCE.md's figures come from
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/common.sh
need_gnu_time

RUNS=${RUNS:-12}
THREADS=${THREADS:-0}
TRACES="$OUT/traces.jsonl"
CADDY="$OUT/caddy.json"
[ -s "$TRACES" ] || python3 bench/gen_traces.py "$TRACES" 200000
[ -s "$CADDY" ] || "$GEN" --rows 1000000 --days 30 --format caddy-json > "$CADDY"

times=$(mktemp)
trap 'rm -f "$times"' EXIT
for round in $(seq "$RUNS"); do
  for file in "$CADDY" "$TRACES"; do
    /usr/bin/time -o "$times" -a -f "$round $(basename "$file") $(stat -c %s "$file") %e %U %S %M" \
      "$DUPCOST" logs "$file" --threads "$THREADS" --succeeded-share 50% --max-unknown 100% \
      --format json > /dev/null 2>&1
  done
done

python3 - "$times" "$THREADS" <<'EOF'
import collections, statistics, sys

runs = collections.defaultdict(dict)
for line in open(sys.argv[1]):
    round_, name, size, wall, user, system, rss = line.split()
    runs[round_][name] = (int(size), float(wall), float(user) + float(system), int(rss))
pairs = [r for r in runs.values() if len(r) == 2]
ratios = [
    (r["traces.jsonl"][0] / r["traces.jsonl"][1]) / (r["caddy.json"][0] / r["caddy.json"][1])
    for r in pairs
]
print(f"--threads {sys.argv[2]}, {len(pairs)} rounds")
for name in ("traces.jsonl", "caddy.json"):
    size = pairs[0][name][0]
    wall = statistics.median(r[name][1] for r in pairs)
    cpu = statistics.median(r[name][2] for r in pairs)
    rss = max(r[name][3] for r in pairs) / 1024
    print(f"  {name:13} {wall:.3f} s wall, {size / 1e6 / wall:,.0f} MB/s, {cpu:.3f} s CPU, {rss:.0f} MB peak")
print(
    f"  traces' bytes a second against JSON lines': median {statistics.median(ratios):.1%} "
    f"(rounds {min(ratios):.1%}-{max(ratios):.1%})"
)
EOF
