#!/usr/bin/env bash
# Peak memory of `dupcost logs -` on a multi-GB CloudWatch `filter-log-events` document:
# one JSON object, `{"events": [ {..., "message": "<nginx line>"}, ... ]}`,
# pretty-printed as the AWS CLI prints it, streamed through a pipe (nothing lands on disk).
# The document is framed one record at a time, so the memory should not follow its size.
# Prints the bytes streamed, the wall time, the throughput, the peak RSS, and checks that
# every line of the generator became a row.
#
#   bash bench/document.sh                 # 8M events, ~2.4 GB
#   ROWS=200000 bash bench/document.sh     # a quick look
set -euo pipefail
cd "$(dirname "$0")/.."

ROWS=${ROWS:-8000000}

source bench/common.sh
need_gnu_time
NGINX_FORMAT='$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent" $request_time $upstream_status "$http_idempotency_key"'

start=$(date +%s.%N)
"$GEN" --rows "$ROWS" --seed 5 --days 365 --format nginx-log --truth "$OUT/document-truth.json" |
  awk 'BEGIN { print "{\n    \"events\": [" }
       { gsub(/\\/, "\\\\"); gsub(/"/, "\\\"")
         printf "%s        {\n            \"logStreamName\": \"web/nginx/0\",\n            \"timestamp\": %.0f,\n            \"message\": \"%s\",\n            \"ingestionTime\": %.0f,\n            \"eventId\": \"%d\"\n        }",
           (NR > 1 ? ",\n" : ""), 1793491200000 + NR, $0, 1793491200500 + NR, NR }
       END { print "\n    ],\n    \"searchedLogStreams\": [\n        {\"logStreamName\": \"web/nginx/0\", \"searchedCompletely\": true}\n    ]\n}" }' |
  tee >(wc -c > "$OUT/document-bytes.txt") |
  /usr/bin/time -f "%e %M" -o "$OUT/document-time.txt" \
    "$DUPCOST" logs - --log-format "$NGINX_FORMAT" --format json --max-unknown 100% \
    --succeeded-share 0.5 > "$OUT/document.json"
end=$(date +%s.%N)
sleep 1 # the byte count's subshell
python3 - "$OUT" "$start" "$end" <<'PY'
import json, sys
out, start, end = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
size = int(open(f"{out}/document-bytes.txt").read())
wall, rss_kb = open(f"{out}/document-time.txt").read().split()[:2]
d = json.load(open(f"{out}/document.json"))["observed"]
t = json.load(open(f"{out}/document-truth.json"))
print(f"{size / 1e9:.2f} GB document, {d['rows']} rows ({d['bad_rows']} bad) as "
      f"{d['files'][0].get('document')} > {d['files'][0].get('envelope')}: "
      f"{float(wall):.1f} s ({size / 1e6 / float(wall):.0f} MB/s, the generator and awk feeding "
      f"the pipe included), peak RSS {int(rss_kb) / 1024:.1f} MiB")
assert d["rows"] == t["rows"] and d["bad_rows"] == 0, "not every event became a row"
PY
