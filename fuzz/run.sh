#!/usr/bin/env bash
# Fuzzes dupcost's input parsers with cargo-fuzz (libFuzzer).
#
#   bash fuzz/run.sh [SECONDS] [TARGET...]     default: 600 seconds each, every target
#   MAX_LEN=N bash fuzz/run.sh ...             inputs up to N bytes (default: 4096 for the
#                                              parser-level targets, 16384 for the in-memory
#                                              readings, 65536 for the others)
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
  # The parser-level targets call one parser in memory on lines or one document: inputs of
  # 4 KB hold dozens of lines, and each execution's cost grows with the input's bytes (the
  # coverage hooks on every comparison), so the 64 KB of the end-to-end targets, which read
  # a whole file through every stage and its buffers, would cut them to hundreds a second.
  # `traces` and `json_document` read the input in memory from its first lines to the tally:
  # 16 KB hold dozens of spans or records, more than detection's first 20 lines, and the
  # detection of a document's records, which tries every format on each, costs by the byte.
  case "$target" in
    # The catalog's target reads one row's formats on a few lines: 1 KB holds a header and
    # several lines of any format, and keeps it near a thousand executions a second.
    format_catalog) max_len=1024 ;;
    unwrap_* | format_* | frame_* | csv_records | json_scan | non_access | log_format | span_reader) max_len=4096 ;;
    traces | json_document) max_len=16384 ;;
    *) max_len=65536 ;;
  esac
  max_len=${MAX_LEN:-$max_len}
  echo "    -max_len=$max_len, load average $(cut -d' ' -f1-3 /proc/loadavg)"
  cargo fuzz run -O "$target" "corpus/$target" "seeds/$target" -- \
    -max_total_time="$seconds" -max_len="$max_len" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 2>&1 |
    tee "corpus/$target.log" | grep -E '^(stat::|==|SUMMARY|Done)' || true
done
