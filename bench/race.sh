#!/usr/bin/env bash
# The fair race on several log shapes: bench/logs.sh on each SHAPE in turn, in one
# run, then one table: each shape's dupcost throughput and its ratio against the faster of
# DuckDB-typed and chDB (medians of RUNS rounds), the peak RSS of each, and the minimum ratio
# over the shapes. Every engine's figures must equal dupcost's on every shape, and dupcost's
# JSON must equal each shape's reference (bench/logs.sh); a shape that fails is named and the
# script exits 1.
#
#   bash bench/race.sh                 # six shapes of ~1 GB each (five CSV, one JSON lines), 3 rounds
#   QUICK=1 bash bench/race.sh         # a twentieth of the rows, 1 round: checks the plumbing
#   SHAPES="short long" RUNS=5 bash bench/race.sh
#   BASELINE=/path/to/older/dupcost bash bench/race.sh   # references written by the older code
set -euo pipefail
cd "$(dirname "$0")/.."

SHAPES=${SHAPES:-base short long routes keyless json}
if [ -n "${QUICK:-}" ]; then
  export SCALE=${SCALE:-20} RUNS=${RUNS:-1}
fi
export RUNS=${RUNS:-3}
OUT=bench/out
mkdir -p "$OUT"

failed=()
for shape in $SHAPES; do
  rm -f "$OUT/race-$shape.json"
  echo "=== shape $shape ($(date -u +%H:%M:%S) UTC)"
  SHAPE=$shape bash bench/logs.sh || failed+=("$shape")
done

python3 - "$OUT" $SHAPES <<'PY'
import json, os, sys

out, shapes = sys.argv[1], sys.argv[2:]
print()
print(f"{'shape':9} {'B/row':>6} {'MB':>6} {'dupcost MB/s':>12} {'RSS MB':>7} | "
      f"{'DuckDB-typed':>12} {'RSS MB':>7} | {'chDB':>6} {'RSS MB':>7} | {'vs faster':>9} {'figures':>8}")
ratios = []
for s in shapes:
    path = f"{out}/race-{s}.json"
    if not os.path.exists(path):
        print(f"{s:9} (no result)")
        continue
    r = json.load(open(path))
    d, k, c = r["dupcost"], r["duckdb-typed"], r["chdb"]
    ratios.append((r["ratio"], s))
    print(f"{s:9} {r['bytes_per_row']:6.0f} {r['bytes'] / 1e6:6.0f} {d['mb_s']:12.0f} {d['rss_mb']:7.1f} | "
          f"{k['ratio']:11.2f}x {k['rss_mb']:7.0f} | {c['ratio']:5.2f}x {c['rss_mb']:7.0f} | "
          f"{r['ratio']:8.2f}x {'equal' if r['ok'] else 'DIFFER':>8}")
if ratios:
    low = min(ratios)
    print(f"minimum ratio against the faster of DuckDB-typed and chDB: {low[0]:.2f}x ({low[1]}); "
          f"medians of {json.load(open(f'{out}/race-{low[1]}.json'))['runs']} rounds")
    # Issue 27's targets, read off this run.
    results = [json.load(open(f"{out}/race-{s}.json")) for _, s in sorted(ratios, key=lambda r: r[1])]
    rss = max(r["dupcost"]["rss_mb"] for r in results)
    slowest = min((r["dupcost"]["mb_s"], r["shape"]) for r in results)
    print(f"targets: minimum ratio >= 3x: {'yes' if low[0] >= 3 else 'no'}; "
          f"dupcost peak RSS {rss:.1f} MB < 64 MB: {'yes' if rss < 64 else 'no'}; "
          f"slowest shape {slowest[0]} MB/s ({slowest[1]}) >= 2 GB/s: "
          f"{'yes' if slowest[0] >= 2000 else 'no'}")
PY
if [ ${#failed[@]} -gt 0 ]; then
  echo "failed: ${failed[*]}" >&2
  exit 1
fi
