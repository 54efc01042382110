#!/usr/bin/env bash
# What --outcomes costs: the proxy log is read twice (the first time for the
# timed-out attempts' ids, the second with the backend's answers, so intents know which
# attempts executed). Times `dupcost logs` on a generated log with per-attempt request ids,
# alone and with its backend's log, RUNS times each; prints the best and median wall times.
#
#   bash bench/outcomes.sh                      # 2M rows over 30 days, 5 runs
#   ROWS=200000 RUNS=1 bash bench/outcomes.sh   # a quick look
set -euo pipefail
cd "$(dirname "$0")/.."

ROWS=${ROWS:-2000000}
DAYS=${DAYS:-30}
RUNS=${RUNS:-5}

source bench/common.sh
LOG="$OUT/outcomes-$ROWS.csv"
BACKEND="$OUT/outcomes-$ROWS-backend.csv"
if [ ! -s "$LOG" ] || [ ! -s "$BACKEND" ]; then
  "$GEN" --rows "$ROWS" --days "$DAYS" --seed 24 \
    --request-ids --unknown-share 0.3 --never-reached-share 0.3 --outcomes "$BACKEND" \
    > "$LOG" 2>/dev/null
fi
echo "log: $(du -h "$LOG" | cut -f1) ($ROWS rows), backend: $(du -h "$BACKEND" | cut -f1)"

# Wall seconds of one run of dupcost logs ARGS (its JSON kept for the check below).
run() {
  local start end
  start=$(date +%s.%N)
  "$DUPCOST" logs "$@" --max-unknown 100% --format json > "$OUT/outcomes-last.json"
  end=$(date +%s.%N)
  echo "$end - $start" | bc
}

report() {
  local name=$1
  shift
  local times=()
  for _ in $(seq "$RUNS"); do
    times+=("$(run "$@")")
  done
  printf '%s\n' "${times[@]}" | sort -n | awk -v name="$name" '
    { t[NR] = $1 }
    END { printf "%-22s best %.2f s, median %.2f s\n", name, t[1], t[int((NR + 1) / 2)] }'
}

report "logs" "$LOG"
report "logs --outcomes" "$LOG" --outcomes "$BACKEND"
grep -q '"per_intent": true' "$OUT/outcomes-last.json" || { echo "no per-intent join" >&2; exit 1; }
