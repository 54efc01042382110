#!/usr/bin/env bash
# Fuzzes dupcost's input parsers with cargo-fuzz (libFuzzer).
#
#   bash fuzz/run.sh [SECONDS] [TARGET...]     default: 600 seconds each, every target
#
# The machines have one stable toolchain; cargo-fuzz needs nightly-only flags, so this script
# (and only this script) sets RUSTC_BOOTSTRAP=1. The main build and CI stay plain stable.
# Crashes land in fuzz/artifacts/TARGET/; add each as a regression test under tests/.
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-600}
shift || true
command -v cargo-fuzz >/dev/null 2>&1 || cargo install cargo-fuzz
targets=("$@")
[ ${#targets[@]} -gt 0 ] || mapfile -t targets < <(RUSTC_BOOTSTRAP=1 cargo fuzz list)
export RUSTC_BOOTSTRAP=1
for target in "${targets[@]}"; do
  mkdir -p "corpus/$target" "seeds/$target"
  echo "==> $target for ${seconds}s"
  cargo fuzz run -O "$target" "corpus/$target" "seeds/$target" -- \
    -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 2>&1 |
    tee "corpus/$target.log" | grep -E '^(stat::|==|SUMMARY|Done)' || true
done
