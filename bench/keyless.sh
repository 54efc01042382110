#!/usr/bin/env bash
# Throughput of `dupcost logs` grouping by fingerprint on a generated keyless log,
# beside the same binary on the keyed CSV log of the same size (grouping by key), so the cost
# of the fingerprints is read off one machine at one moment. BASELINE=/path/to/dupcost runs an
# older binary on the same files too (it reads the keyless log without grouping).
#
#   bash bench/keyless.sh                        # ~510 MB keyless, ~320 MB keyed, 5 rounds
#   INTENTS=300000 ROWS=400000 RUNS=1 bash bench/keyless.sh   # a quick look
set -euo pipefail
cd "$(dirname "$0")/.."

INTENTS=${INTENTS:-2500000}
ROWS=${ROWS:-3000000}
DAYS=${DAYS:-30}
RUNS=${RUNS:-5}

source bench/common.sh
KEYLESS="$OUT/keyless-$INTENTS-${DAYS}d.csv"
KEYED="$OUT/keyed-$ROWS-${DAYS}d.csv"
[ -s "$KEYLESS" ] || "$GEN" --keyless --rows "$INTENTS" --days "$DAYS" --seed 42 --nat-clients 40 \
  --truth "$OUT/keyless-truth.json" > "$KEYLESS"
[ -s "$KEYED" ] || "$GEN" --rows "$ROWS" --days "$DAYS" --seed 42 --truth "$OUT/keyed-truth.json" > "$KEYED"
FLAGS=(--format json --max-unknown 100%)

# Best and median wall time of RUNS runs of one binary on one file (and extra flags), as MB/s,
# and the CPU time (user + system) of the run with the least: on a shared machine the CPU
# time moves less with the load than the wall time does.
run() {
  local bin=$1 file=$2 bytes extra=("${@:3}") lines=()
  bytes=$(stat -L -c %s "$file")
  cat "$file" > /dev/null
  for _ in $(seq "$RUNS"); do
    local TIMEFORMAT='%R %U %S'
    lines+=("$( { time "$bin" logs "$file" "${FLAGS[@]}" "${extra[@]}" > /dev/null; } 2>&1 )")
  done
  local walls cpu
  walls=$(printf '%s\n' "${lines[@]}" | cut -d' ' -f1 | sort -n | tr '\n' ' ')
  cpu=$(printf '%s\n' "${lines[@]}" | awk '{ print $2 + $3 }' | sort -n | head -1)
  echo "$walls" | awk -v b="$bytes" -v bin="$bin" -v f="$(basename "$file") ${extra[*]}" -v cpu="$cpu" '
    { best = $1; med = $(int((NF + 1) / 2));
      printf "%-22s %-44s %6.1f MB  wall best %6.3f s %5.0f MB/s, median %6.3f s %5.0f MB/s  cpu least %6.3f s\n",
        bin, f, b / 1e6, best, b / 1e6 / best, med, b / 1e6 / med, cpu }'
}

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
for bin in "$DUPCOST" ${BASELINE:+"$BASELINE"}; do
  run "$bin" "$KEYED"
  run "$bin" "$KEYLESS"
done
# The same binary on the keyless logs without grouping: what the fingerprints cost. The
# second keyless log has no NAT address (every row a new fingerprint).
run "$DUPCOST" "$KEYLESS" --intents key
NONAT="$OUT/keyless-nonat-$INTENTS-${DAYS}d.csv"
[ -s "$NONAT" ] || "$GEN" --keyless --rows "$INTENTS" --days "$DAYS" --seed 7 > "$NONAT"
run "$DUPCOST" "$NONAT"
run "$DUPCOST" "$NONAT" --intents key
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
