#!/usr/bin/env bash
# Soak of `dupcost logs - --follow`: an hour of log time at 20,000 lines a second
# (72 million lines, CSV with idempotency keys) streamed through a pipe, and the follower's
# resident memory read from /proc at every report (one a second of wall time). Prints RSS
# against log time: it must level off once the retry window's intents are held, and stay flat.
#
# The generator writes the hour faster than real time. That is faithful for memory: what the
# follower holds depends on log time only (intents are retired when the log's clock passes
# their retry window; --window keeps buckets of log time), never on the wall clock, which
# only decides how many lines each report has seen.
#
#   bash bench/follow_soak.sh                          # 72M lines, --retry-window 5m
#   ROWS=18000000 SPAN=900 bash bench/follow_soak.sh   # 15 minutes at the same rate
#   ROWS=2000000 bash bench/follow_soak.sh             # a quick look (555 lines a second)
#   EXTRA="--window 10m" bash bench/follow_soak.sh     # a rolling window as well
set -euo pipefail
cd "$(dirname "$0")/.."

ROWS=${ROWS:-72000000}
SPAN=${SPAN:-3600}
RETRY_WINDOW=${RETRY_WINDOW:-5m}
EXTRA=${EXTRA:-}
TARGET=${CARGO_TARGET_DIR:-target}
mkdir -p bench/out
# The benchmark build (Cargo.toml's `release-lto` profile), or `PROFILE=release`.
PROFILE=${PROFILE:-release-lto}
cargo build --profile "$PROFILE" --quiet --bin dupcost --example gen-access-log
# shellcheck disable=SC2086
python3 bench/follow_soak.py "$TARGET/$PROFILE/examples/gen-access-log" "$TARGET/$PROFILE/dupcost" \
  "$ROWS" "$SPAN" "$RETRY_WINDOW" $EXTRA
