# Sourced by the bench scripts after `cd` to the repository's root: bench/out, the benchmark
# build of dupcost and of the log generator ($DUPCOST, $GEN: Cargo.toml's `release-lto`
# profile, or `PROFILE=release`, `PROFILE=profiling`), GNU time when asked
# (`need_gnu_time`), and a warning when the disk is nearly full: the logs the benchmarks
# generate take gigabytes, and a disk that fills mid-run leaves half-written logs behind.
TARGET=${CARGO_TARGET_DIR:-target}
OUT=bench/out
mkdir -p "$OUT"

free_gb=$(df -P -BG "$OUT" | awk 'NR == 2 { sub("G", "", $4); print $4 }')
if [ "${free_gb:-0}" -lt 10 ]; then
  echo "warning: only ${free_gb} GB free under $OUT; the generated logs may not fit" >&2
fi

need_gnu_time() {
  if [ ! -x /usr/bin/time ]; then
    echo "installing GNU time" >&2
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq time >/dev/null
  fi
}

PROFILE=${PROFILE:-release-lto}
cargo build --profile "$PROFILE" --quiet --bin dupcost --example gen-access-log
GEN="$TARGET/$PROFILE/examples/gen-access-log"
DUPCOST="$TARGET/$PROFILE/dupcost"
