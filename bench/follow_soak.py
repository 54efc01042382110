"""Runs the soak of bench/follow_soak.sh: generator | dupcost logs - --follow, RSS per report."""

import json
import subprocess
import sys
import time

gen, dupcost, rows, span, retry_window, *extra = sys.argv[1:]
rows = int(rows)
span = int(span)
truth_path = "bench/out/follow-soak-truth.json"
# `span` seconds of log time, whatever the rows: 72M rows over an hour is 20,000 a second.
g = subprocess.Popen(
    [gen, "--rows", str(rows), "--seed", "11", "--days", str(span / 86400), "--truth", truth_path],
    stdout=subprocess.PIPE,
)
d = subprocess.Popen(
    [dupcost, "logs", "-", "--follow", "--every", "1s", "--format", "json",
     "--retry-window", retry_window, "--succeeded-share", "50%", "--min-span", "10m", *extra],
    stdin=g.stdout,
    stdout=subprocess.PIPE,
)
g.stdout.close()


def status(field):
    with open(f"/proc/{d.pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])  # kB
    return 0


start = time.time()
samples = []  # (wall s, rows read, log seconds since the first line, RSS kB)
first_ts = None
last = None
for line in d.stdout:
    report = json.loads(line)
    f = report["follow"]
    try:
        rss = status("VmRSS")
        hwm = status("VmHWM")
    except FileNotFoundError:
        rss = hwm = 0
    t = f.get("last_line_time")
    if t and first_ts is None:
        first_ts = report.get("observed", {}).get("first_timestamp") or t
    log_s = None
    if t and first_ts:
        from datetime import datetime
        parse = lambda s: datetime.fromisoformat(s.replace("Z", "+00:00")).timestamp()
        log_s = parse(t) - parse(first_ts)
    samples.append((time.time() - start, f["rows_read"], log_s, rss, hwm))
    last = report
d.wait()
wall = time.time() - start
truth = json.load(open(truth_path))

print(f"dupcost logs - --follow --every 1s --retry-window {retry_window} --min-span 10m {' '.join(extra)}")
print(f"lines: {rows:,} over {span:,} s of log time ({rows / span:,.0f} a second)")
print(f"wall: {wall:.0f} s ({rows / wall:,.0f} lines/s), reports: {len(samples)}")
print(f"{'log time':>9} {'rows read':>12} {'RSS MiB':>8}")
shown = set()
for wall_s, read, log_s, rss, _ in samples:
    if log_s is None:
        continue
    minute = int(log_s // 300) * 5
    if minute in shown:
        continue
    shown.add(minute)
    print(f"{minute:>6} min {read:>12,} {rss / 1024:>8.1f}")
_, read, log_s, rss, hwm = samples[-1]
print(f"{'end':>9} {read:>12,} {rss / 1024:>8.1f}   (peak RSS {hwm / 1024:.1f} MiB)")
o = last.get("observed", {})
for k in ["rows", "mutating_attempts", "intents", "timed_out"]:
    ok = "ok" if o.get(k) == truth[k] else "DIFFERS"
    print(f"{k:20} {o.get(k)!s:>12} truth {truth[k]:>12} {ok}")
