#!/usr/bin/env bash
# How tightly `dupcost probe` releases a concurrent round: examples/probe-target records
# when each request's head has been read at a loopback server, and prints the spread from a
# round's first arrival to its last. A check-then-insert race narrower than the spread
# can go unseen; wider, and the requests of a round meet it together.
#
#   bash bench/probe.sh                         # --concurrency 2, 8, 16, 32; 15 rounds each
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-15}
TARGET=${CARGO_TARGET_DIR:-target}
# The benchmark build (Cargo.toml's `release-lto` profile), or PROFILE=release, or dev.
PROFILE=${PROFILE:-release-lto}
cargo build --profile "$PROFILE" --quiet --bin dupcost --example probe-target
DIR=$PROFILE
[ "$PROFILE" = dev ] && DIR=debug
BIN="$TARGET/$DIR/dupcost"
SERVER="$TARGET/$DIR/examples/probe-target"
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

for n in 2 8 16 32; do
  # replay 2, concurrent n x ROUNDS, payload_mismatch 2, missing_key 1
  total=$((n * ROUNDS + 5))
  log="$OUT/server-$n"
  "$SERVER" "$total" > "$log" &
  pid=$!
  until grep -q listening "$log" 2>/dev/null; do sleep 0.05; done
  port=$(awk '/listening/ {print $2}' "$log")
  "$BIN" probe "http://127.0.0.1:$port/orders" --data '{"amount":40}' \
    --concurrency "$n" --rounds "$ROUNDS" --format json > "$OUT/report.json" || true
  wait "$pid"
  echo "--concurrency $n: $(grep rounds "$log")"
done
