#!/usr/bin/env bash
# Throughput and peak memory of `dupcost logs` on raw server logs, against GoAccess
# reading the same nginx log, on generated logs kept in bench/out/ (git-ignored).
#
# The race: a ~1 GB nginx log, `combined` with `$request_time $upstream_status
# "$http_idempotency_key"` appended (the generator's nginx-log), read by dupcost (through
# --log-format, every line split into its fields and tallied) and by GoAccess (the same
# layout in its own --log-format, every line parsed into its report, written as JSON). Then
# dupcost alone on the generator's ALB log (alb-log) and JSON lines (caddy-json, and nginx
# `escape=json` lines: nginx-json; bench/race.sh's json shape races them), and on the
# platforms (iis-log, cloudflare-json, gcp-json, azure-json, kong-json, and
# haproxy-log read through an HAProxy log-format string), when the generator knows them (a
# format it does not know yet is skipped, said so). And the same nginx lines inside
# Kubernetes' CRI envelope (`<time> stdout F <line>`), detected and unwrapped: the
# cost of the envelope is its time over the bare nginx log's.
#
# Each round runs every tool once, on a warm page cache, RUNS rounds; reported per tool: wall
# time, CPU time (user + system), MB/s and peak RSS (GNU time), best of RUNS and median. The
# load average before and after each round is printed: the machine is shared.
#
#   bash bench/formats.sh                       # nginx 5.5 M lines (~1 GB), 5 rounds
#   ROWS=300000 ALB_ROWS=100000 JSON_ROWS=150000 RUNS=1 bash bench/formats.sh   # a quick look
#   GOACCESS=0 EXTRAS= bash bench/formats.sh    # dupcost alone: bare vs CRI-wrapped nginx
#   PLATFORM_ROWS=1000000 ...                   # rows of each platform's log (default 1 M)
#   TRACES=400000 ...                           # traces of the OTLP/JSON file (0: none)
set -euo pipefail
cd "$(dirname "$0")/.."

ROWS=${ROWS:-5500000}
# About 1 GB each too: an ALB line is about 580 bytes, a Caddy JSON line about 380 (an nginx
# escape=json one about 320: the same rows, 0.87 GB).
ALB_ROWS=${ALB_ROWS:-1700000}
JSON_ROWS=${JSON_ROWS:-2600000}
PLATFORM_ROWS=${PLATFORM_ROWS:-1000000}
DAYS=${DAYS:-365}
RUNS=${RUNS:-5}
THREADS=${THREADS:-2}
GOACCESS=${GOACCESS:-1}
EXTRAS=${EXTRAS-alb-log caddy-json nginx-json iis-log cloudflare-json gcp-json azure-json kong-json haproxy-log}
OUT=bench/out
TARGET=${CARGO_TARGET_DIR:-target}
mkdir -p "$OUT"

need=()
[ -x /usr/bin/time ] || need+=(time)
[ "$GOACCESS" = 0 ] || command -v goaccess >/dev/null || need+=(goaccess)
if [ ${#need[@]} -gt 0 ]; then
  echo "installing ${need[*]} from Debian" >&2
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi

# The benchmark build (Cargo.toml's `release-lto` profile), or `PROFILE=release`.
PROFILE=${PROFILE:-release-lto}
cargo build --profile "$PROFILE" --quiet --bin dupcost --example gen-access-log
DUPCOST="$TARGET/$PROFILE/dupcost"
GEN="$TARGET/$PROFILE/examples/gen-access-log"

# The generator's nginx-log layout, as nginx and as GoAccess write it.
NGINX_FORMAT='$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent" $request_time $upstream_status "$http_idempotency_key"'
GOACCESS_FORMAT='%h %^ %e [%d:%t %^] "%r" %s %b "%R" "%u" %T %^ "%^"'
# The generator's haproxy-log lines as an HAProxy log-format (httplog without captures).
HAPROXY_FORMAT='%ci:%cp [%tr] %ft %b/%s %TR/%Tw/%Tc/%Tr/%Ta %ST %B %CC %CS %tsc %ac/%fc/%bc/%sc/%rc %sq/%bq %{+Q}r'

generate() { # FORMAT ROWS FILE
  if [ ! -s "$3" ]; then
    echo "generating $2 rows of $1 over $DAYS days into $3" >&2
    "$GEN" --rows "$2" --days "$DAYS" --seed 42 --format "$1" \
      --truth "$3.truth.json" > "$3.tmp"
    mv "$3.tmp" "$3"
  fi
}

NGINX_LOG="$OUT/nginx-$ROWS-${DAYS}d.log"
generate nginx-log "$ROWS" "$NGINX_LOG"
# The same lines in the CRI envelope, as containerd writes them.
CRI_LOG="$OUT/nginx-$ROWS-${DAYS}d.cri.log"
if [ ! -s "$CRI_LOG" ]; then
  echo "wrapping $NGINX_LOG in the CRI envelope into $CRI_LOG" >&2
  awk '{ printf "2026-11-01T00:00:00.%09dZ stdout F %s\n", NR % 1000000000, $0 }' \
    "$NGINX_LOG" > "$CRI_LOG.tmp"
  mv "$CRI_LOG.tmp" "$CRI_LOG"
fi
LOGS=("$NGINX_LOG" "$CRI_LOG")
TOOLS=(wc dupcost-nginx dupcost-cri-nginx)
[ "$GOACCESS" = 0 ] || TOOLS+=(goaccess-nginx)
declare -A EXTRA_LOG
for extra in $EXTRAS; do
  if "$GEN" --rows 1 --format "$extra" > /dev/null 2>&1; then
    rows=$PLATFORM_ROWS
    [ "$extra" = alb-log ] && rows=$ALB_ROWS
    case $extra in caddy-json | nginx-json) rows=$JSON_ROWS ;; esac
    EXTRA_LOG[$extra]="$OUT/$extra-$rows-${DAYS}d.log"
    generate "$extra" "$rows" "${EXTRA_LOG[$extra]}"
    LOGS+=("${EXTRA_LOG[$extra]}")
    TOOLS+=("dupcost-$extra")
  else
    echo "skipping $extra: the generator does not know it yet" >&2
  fi
done

# OpenTelemetry traces: OTLP/JSON lines as the Collector's file exporter writes
# them (bench/gen_traces.py: 512 spans a line, 3 to 5 spans a trace; 400,000 traces ~770 MB).
TRACES=${TRACES:-400000}
if [ "$TRACES" -gt 0 ]; then
  EXTRA_LOG[otlp-traces]="$OUT/otlp-traces-$TRACES.jsonl"
  if [ ! -s "${EXTRA_LOG[otlp-traces]}" ]; then
    echo "generating $TRACES traces of OTLP/JSON into ${EXTRA_LOG[otlp-traces]}" >&2
    python3 bench/gen_traces.py "${EXTRA_LOG[otlp-traces]}" "$TRACES"
  fi
  LOGS+=("${EXTRA_LOG[otlp-traces]}")
  TOOLS+=(dupcost-otlp-traces)
fi

# The work is pinned by flags; --max-unknown 100% keeps the share derived (the generated
# nginx log leaves some outcomes unknown, as real ones do).
DUPCOST_FLAGS=(--format json --methods POST,PUT,PATCH,DELETE --timeout-status 408,499,504
  --retry-window 1h --max-unknown 100% --succeeded-share 0.5 --threads "$THREADS")
# GoAccess parses on several threads from 1.8 on (--jobs); Debian bookworm's 1.7 has one.
GOACCESS_JOBS=()
if goaccess --help 2>&1 | grep -q -- '--jobs'; then GOACCESS_JOBS=(--jobs="$THREADS"); fi
log_of() {
  case $1 in
    dupcost-cri-nginx) echo "$CRI_LOG" ;;
    wc | *nginx) echo "$NGINX_LOG" ;;
    dupcost-*) echo "${EXTRA_LOG[${1#dupcost-}]}" ;;
  esac
}
run() { # TOOL: runs it under GNU time, its output to $OUT/TOOL.out
  local tool=$1 log
  log=$(log_of "$tool")
  local time=(/usr/bin/time -f "%e %M %U %S" -o "$OUT/$tool.time")
  case $tool in
    wc) "${time[@]}" wc -l "$log" ;;
    dupcost-nginx | dupcost-cri-nginx)
      "${time[@]}" "$DUPCOST" logs "$log" --log-format "$NGINX_FORMAT" "${DUPCOST_FLAGS[@]}" ;;
    dupcost-haproxy-log) "${time[@]}" "$DUPCOST" logs "$log" --log-format "$HAPROXY_FORMAT" "${DUPCOST_FLAGS[@]}" ;;
    dupcost-*) "${time[@]}" "$DUPCOST" logs "$log" "${DUPCOST_FLAGS[@]}" ;;
    goaccess-nginx)
      "${time[@]}" goaccess "$log" --no-global-config --log-format="$GOACCESS_FORMAT" \
        --date-format=%d/%b/%Y --time-format=%T "${GOACCESS_JOBS[@]}" \
        --output="$OUT/goaccess.json" 2> "$OUT/goaccess.err"
      ;;
  esac > "$OUT/$tool.out"
}
for tool in "${TOOLS[@]}"; do rm -f "$OUT/$tool.runs"; done
for log in "${LOGS[@]}"; do cat "$log" > /dev/null; done # warm the page cache

# Both read every line: dupcost's rows and GoAccess's total requests equal the lines; and the
# CRI-wrapped copy gives the same figures as the bare log.
run dupcost-nginx
run dupcost-cri-nginx
[ "$GOACCESS" = 0 ] || run goaccess-nginx
LINES=$(wc -l < "$NGINX_LOG")
python3 - "$OUT" "$LINES" "$GOACCESS" <<'PY'
import json, sys
out, lines, goaccess = sys.argv[1], int(sys.argv[2]), sys.argv[3] != "0"
d = json.load(open(f"{out}/dupcost-nginx.out"))
c = json.load(open(f"{out}/dupcost-cri-nginx.out"))
print(f"lines {lines}: dupcost read {d['observed']['rows']} rows ({d['observed']['bad_rows']} bad); "
      f"CRI-wrapped: {c['observed']['rows']} rows as {c['observed']['files'][0].get('envelope')}")
assert d["observed"]["rows"] == lines and d["observed"]["bad_rows"] == 0, "dupcost did not read every line"
for j in (d, c):
    j["observed"].pop("files")
assert d == c, "the CRI-wrapped log gives other figures than the bare one"
if goaccess:
    g = json.load(open(f"{out}/goaccess.json"))["general"]
    print(f"GoAccess {g['total_requests']} requests ({g['failed_requests']} failed), "
          f"{g['valid_requests']} valid")
PY
for tool in "${TOOLS[@]}"; do
  case $tool in dupcost-nginx | dupcost-cri-nginx | wc | goaccess-*) continue ;; esac
  run "$tool"
  python3 - "$OUT/$tool.out" "$(wc -l < "$(log_of "$tool")")" "$tool" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))["observed"]
lines = int(sys.argv[2])
print(f"{sys.argv[3]}: {lines} lines, dupcost read {d['rows']} rows ({d['bad_rows']} bad)"
      f" as {(d.get('files') or [{}])[0].get('input_format', '(not said)')}")
assert d["rows"] <= lines and d["bad_rows"] == 0, "dupcost did not read every line"
PY
done

echo "log: $NGINX_LOG ($(stat -L -c %s "$NGINX_LOG") bytes, $LINES lines); $(nproc) cores;" \
  "load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "versions: $("$DUPCOST" --version)$([ "$GOACCESS" = 0 ] || echo ", $(goaccess --version | head -1)")"
for round in $(seq "$RUNS"); do
  for tool in "${TOOLS[@]}"; do
    run "$tool"
    cat "$OUT/$tool.time" >> "$OUT/$tool.runs"
  done
  echo "round $round of $RUNS done; load average $(cut -d' ' -f1-3 /proc/loadavg)" >&2
done

sizes=()
for tool in "${TOOLS[@]}"; do sizes+=("$tool=$(stat -L -c %s "$(log_of "$tool")")"); done
python3 - "$OUT" "${sizes[@]}" <<'PY'
import statistics, sys
out, pairs = sys.argv[1], sys.argv[2:]
print(f"{'':16} {'best':>29} | {'median':>29} |")
print(f"{'tool':16} {'wall s':>9} {'CPU s':>9} {'MB/s':>9} | {'wall s':>9} {'CPU s':>9} {'MB/s':>9} | {'peak RSS MB':>11}")
for pair in pairs:
    tool, size = pair.split("=")
    mb = int(size) / 1e6
    runs = [tuple(float(x) for x in line.split()) for line in open(f"{out}/{tool}.runs")]
    rate = lambda s: mb / max(s, 0.01)
    b = min(runs, key=lambda r: r[0])
    mw = statistics.median(r[0] for r in runs)
    mc = statistics.median(r[2] + r[3] for r in runs)
    rss = max(r[1] for r in runs) / 1024
    print(f"{tool:16} {b[0]:9.2f} {b[2] + b[3]:9.2f} {rate(b[0]):9.0f} | {mw:9.2f} {mc:9.2f} {rate(mw):9.0f} | {rss:11.1f}")
# The envelope's cost: the CRI-wrapped log's time over the bare one's, for the same lines.
med = {}
for tool in ("dupcost-nginx", "dupcost-cri-nginx"):
    runs = [tuple(float(x) for x in line.split()) for line in open(f"{out}/{tool}.runs")]
    med[tool] = (statistics.median(r[0] for r in runs), statistics.median(r[2] + r[3] for r in runs))
(bw, bc), (cw, cc) = med["dupcost-nginx"], med["dupcost-cri-nginx"]
print(f"CRI unwrapping, same lines: median wall {cw:.2f} s vs {bw:.2f} s ({cw / bw - 1:+.0%}), "
      f"CPU {cc:.2f} s vs {bc:.2f} s ({cc / bc - 1:+.0%}); lines a second {bw / cw:.0%} of bare")
PY
