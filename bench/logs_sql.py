"""The SQL side of bench/logs.sh: the figures `dupcost logs` reports, computed by DuckDB and by
ClickHouse's embedded engine (chDB) from the same CSV file.

    python logs_sql.py ENGINE LOG TIMES [SCHEMA]

ENGINE is one of
  duckdb-typed  DuckDB, declared column types, count(DISTINCT hash(key)) over mutating rows
  chdb          chDB, declared structure, uniqExact(cityHash64(key)) over mutating rows
  duckdb-auto   DuckDB, auto-detected types, counts per day only (the query the benchmark
                used before, kept for continuity)

SCHEMA is `keyed` (the default: the generator's CSV, with an idempotency key column),
`fingerprint` (the generator's --keyless CSV: no key, the client's address, X-Forwarded-For,
user agent and request length, which dupcost groups into intents by fingerprint; see below) or
`json` (the generator's nginx-json: nginx `escape=json` lines, read with declared columns by
DuckDB's read_json and chDB's JSONEachRow; see below).

Prints the figures as one JSON object on stdout and appends the seconds of the query alone
(without starting Python and importing the engine) to the file TIMES.

The typed queries are the same work as dupcost: every row is read (the first and last
timestamp over all rows give the span), mutating rows are counted, with the same client
timeout statuses (408, 499, 504) and a 2xx upstream status for "succeeded", and intents are
the distinct idempotency keys of mutating rows plus the mutating rows without one. The keys
are counted by their 64-bit hashes, as dupcost keeps them: measured, that is quicker for both
engines than distinct strings (DuckDB 4.3 s of CPU instead of 4.8 s and 550 MB instead of
860 MB; chDB 4.1 s instead of 6.5 s). Both engines read the file in parallel on every core (their default); the types are declared so
nothing is sniffed; '-' (no upstream) reads as NULL (DuckDB) or the default 0 (ClickHouse), so
no column is read as text and cast. dupcost does more: it groups attempts into intents with
the retry window, counts per day and per route template, and keeps no key beyond the window.
"""

import json
import sys
import time

MUTATING = "('POST', 'PUT', 'PATCH', 'DELETE')"
TIMEOUT = "(408, 499, 504)"

DUCKDB_TYPED = """
SELECT
  count(*) AS rows,
  epoch_us(min("timestamp")) AS first_us,
  epoch_us(max("timestamp")) AS last_us,
  count(*) FILTER (WHERE method IN {m}) AS mutating,
  count(DISTINCT hash(idempotency_key))
    FILTER (WHERE method IN {m} AND idempotency_key IS NOT NULL)
    + count(*) FILTER (WHERE method IN {m} AND idempotency_key IS NULL) AS intents,
  count(*) FILTER (WHERE method IN {m} AND status IN {t}) AS timed_out,
  count(*) FILTER (WHERE method IN {m} AND status IN {t}
                   AND upstream_status BETWEEN 200 AND 299) AS timed_out_succeeded
FROM read_csv(?, header = true, auto_detect = false, delim = ',', quote = '"', escape = '"',
  nullstr = ['-', ''], parallel = true,
  columns = {{
    'timestamp': 'TIMESTAMP', 'method': 'VARCHAR', 'path': 'VARCHAR', 'status': 'USMALLINT',
    'upstream_status': 'USMALLINT', 'duration_ms': 'UINTEGER', 'idempotency_key': 'VARCHAR',
    'bytes': 'UINTEGER', 'user_agent': 'VARCHAR'}})
""".format(m=MUTATING, t=TIMEOUT)

CHDB = """
SELECT
  count() AS rows,
  toUnixTimestamp64Micro(min(timestamp)) AS first_us,
  toUnixTimestamp64Micro(max(timestamp)) AS last_us,
  countIf(method IN {m}) AS mutating,
  uniqExactIf(cityHash64(idempotency_key), method IN {m} AND idempotency_key != '')
    + countIf(method IN {m} AND idempotency_key = '') AS intents,
  countIf(method IN {m} AND status IN {t}) AS timed_out,
  countIf(method IN {m} AND status IN {t}
          AND upstream_status BETWEEN 200 AND 299) AS timed_out_succeeded
FROM file('{{path}}', 'CSVWithNames',
  'timestamp DateTime64(3, \\'UTC\\'), method String, path String, status UInt16,
   upstream_status UInt16, duration_ms UInt32, idempotency_key String, bytes UInt32,
   user_agent String')
SETTINGS format_csv_null_representation = '-', input_format_null_as_default = 1
""".format(m=MUTATING, t=TIMEOUT)

# Keyless logs: intents by fingerprint, as dupcost groups them (docs/MODEL.md, "Logs without
# idempotency keys"). The fingerprint is the client (the first hop of X-Forwarded-For, else the
# remote address without its port), the user agent, the method, the path with its query and
# the request length; an attempt continues its fingerprint's intent when the fingerprint's
# previous attempt failed (timed out, 5xx or 0) and was at most the retry window (1 h) before,
# else it starts one. That is a window function over the attempts of each fingerprint in time
# order: the same work as dupcost's open-intents table. (dupcost also treats a fingerprint
# sending more than 30 attempts a minute as shared; the bench checks none did, so the rule
# above is the whole of it on these logs.)
FP_COLUMNS = {
    "timestamp": "TIMESTAMP", "method": "VARCHAR", "path": "VARCHAR", "status": "USMALLINT",
    "upstream_status": "USMALLINT", "duration_ms": "UINTEGER", "remote_addr": "VARCHAR",
    "x_forwarded_for": "VARCHAR", "user_agent": "VARCHAR", "request_length": "UINTEGER",
}

DUCKDB_FINGERPRINT = """
WITH t AS (
  SELECT epoch_us("timestamp") AS us, method IN {m} AS mut, status, upstream_status,
    hash(coalesce(nullif(trim(split_part(x_forwarded_for, ',', 1)), ''),
                  regexp_replace(remote_addr, ':[0-9]+$', '')),
         user_agent, method, path, request_length) AS fp
  FROM read_csv(?, header = true, auto_detect = false, delim = ',', quote = '"', escape = '"',
    nullstr = ['-', ''], parallel = true, columns = {columns})
), g AS (
  SELECT *, lag(us) OVER w AS prev_us, lag(status) OVER w AS prev_status
  FROM t WINDOW w AS (PARTITION BY mut, fp ORDER BY us)
)
SELECT
  count(*) AS rows, min(us) AS first_us, max(us) AS last_us,
  count(*) FILTER (WHERE mut) AS mutating,
  count(*) FILTER (WHERE mut AND (prev_us IS NULL OR us - prev_us > 3600000000
                   OR NOT (prev_status IN {t} OR prev_status >= 500 OR prev_status = 0))) AS intents,
  count(*) FILTER (WHERE mut AND status IN {t}) AS timed_out,
  count(*) FILTER (WHERE mut AND status IN {t}
                   AND upstream_status BETWEEN 200 AND 299) AS timed_out_succeeded
FROM g
""".format(m=MUTATING, t=TIMEOUT, columns=json.dumps(FP_COLUMNS).replace('"', "'"))

CHDB_FINGERPRINT = """
SELECT
  count() AS rows, min(us) AS first_us, max(us) AS last_us,
  countIf(mut) AS mutating,
  countIf(mut AND NOT (prev_failed AND us - prev_us <= 3600000000)) AS intents,
  countIf(mut AND status IN {t}) AS timed_out,
  countIf(mut AND status IN {t} AND upstream_status BETWEEN 200 AND 299) AS timed_out_succeeded
FROM (
  SELECT us, mut, status, upstream_status,
    lagInFrame(us) OVER w AS prev_us,
    -- the first attempt of a fingerprint has no previous one: 200, which did not fail
    lagInFrame(status IN {t} OR status >= 500 OR status = 0, 1, false) OVER w AS prev_failed
  FROM (
    SELECT toUnixTimestamp64Micro(timestamp) AS us, method IN {m} AS mut, status,
      upstream_status,
      cityHash64(if(x_forwarded_for = '', replaceRegexpOne(remote_addr, ':[0-9]+$', ''),
                    trimBoth(splitByChar(',', x_forwarded_for)[1])),
                 user_agent, method, path, request_length) AS fp
    FROM file('{{path}}', 'CSVWithNames',
      'timestamp DateTime64(6, \\'UTC\\'), method String, path String, status UInt16,
       upstream_status UInt16, duration_ms UInt32, remote_addr String,
       x_forwarded_for String, user_agent String, request_length UInt32')
    SETTINGS format_csv_null_representation = '-', input_format_null_as_default = 1
  )
  WINDOW w AS (PARTITION BY mut, fp ORDER BY us ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)
)
""".format(m=MUTATING, t=TIMEOUT)

# nginx `escape=json` lines: every value a string, `$time_local` for the time, and
# `$upstream_status` a list when nginx tried several upstreams ("502, 200", "504 : 503"): the
# last is the answer, as dupcost reads it. The engines are told the columns the work needs and
# their types (the time parsed by its format as it is read: `$time_local` has whole seconds);
# the other keys are skipped.
DUCKDB_JSON = """
SELECT
  count(*) AS rows,
  epoch_us(min(time_local)) AS first_us,
  epoch_us(max(time_local)) AS last_us,
  count(*) FILTER (WHERE request_method IN {m}) AS mutating,
  count(DISTINCT hash(http_idempotency_key))
    FILTER (WHERE request_method IN {m} AND http_idempotency_key != '')
    + count(*) FILTER (WHERE request_method IN {m} AND http_idempotency_key = '') AS intents,
  count(*) FILTER (WHERE request_method IN {m} AND status IN {t}) AS timed_out,
  count(*) FILTER (WHERE request_method IN {m} AND status IN {t}
    AND TRY_CAST(regexp_extract(upstream_status, '([0-9]+)\s*$', 1) AS USMALLINT)
        BETWEEN 200 AND 299) AS timed_out_succeeded
FROM read_json(?, format = 'newline_delimited', timestampformat = '%d/%b/%Y:%H:%M:%S %z',
  columns = {{
    'time_local': 'TIMESTAMP', 'request_method': 'VARCHAR', 'status': 'USMALLINT',
    'upstream_status': 'VARCHAR', 'http_idempotency_key': 'VARCHAR'}})
""".format(m=MUTATING, t=TIMEOUT)

CHDB_JSON = """
SELECT
  count() AS rows,
  toUnixTimestamp(min(ts)) * 1000000 AS first_us,
  toUnixTimestamp(max(ts)) * 1000000 AS last_us,
  countIf(request_method IN {m}) AS mutating,
  uniqExactIf(cityHash64(http_idempotency_key), request_method IN {m} AND http_idempotency_key != '')
    + countIf(request_method IN {m} AND http_idempotency_key = '') AS intents,
  countIf(request_method IN {m} AND status IN {t}) AS timed_out,
  countIf(request_method IN {m} AND status IN {t}
          AND toUInt16OrZero(extract(upstream_status, '([0-9]+)\\s*$')) BETWEEN 200 AND 299)
    AS timed_out_succeeded
FROM (
  SELECT parseDateTime(time_local, '%d/%b/%Y:%H:%i:%s %z', 'UTC') AS ts, request_method,
    status, upstream_status, http_idempotency_key
  FROM file('{{path}}', 'JSONEachRow',
    'time_local String, request_method String, status UInt16, upstream_status String,
     http_idempotency_key String')
)
SETTINGS input_format_skip_unknown_fields = 1
""".format(m=MUTATING, t=TIMEOUT)

# The benchmark's query before the typed ones (auto-detected types, no intents), unchanged.
DUCKDB_AUTO = """
SELECT CAST(timestamp AS DATE) AS day,
  count(*) FILTER (WHERE method IN ('POST','PUT','PATCH','DELETE')) AS mutating,
  count(*) FILTER (WHERE method IN ('POST','PUT','PATCH','DELETE') AND status IN (408,499,504)) AS timed_out,
  count(*) FILTER (WHERE method IN ('POST','PUT','PATCH','DELETE') AND status IN (408,499,504)
                   AND TRY_CAST(upstream_status AS INTEGER) BETWEEN 200 AND 299) AS succeeded
FROM read_csv(?, header = true)
GROUP BY ALL ORDER BY day
"""

FIELDS = ["rows", "first_us", "last_us", "mutating", "intents", "timed_out", "timed_out_succeeded"]


def main():
    engine, log, times = sys.argv[1:4]
    schema = sys.argv[4] if len(sys.argv) > 4 else "keyed"
    if schema not in ("keyed", "fingerprint", "json"):
        sys.exit(f"unknown schema {schema}: keyed, fingerprint or json")
    fingerprint = schema == "fingerprint"
    queries = {"keyed": (DUCKDB_TYPED, CHDB), "fingerprint": (DUCKDB_FINGERPRINT, CHDB_FINGERPRINT),
               "json": (DUCKDB_JSON, CHDB_JSON)}[schema]
    if engine == "duckdb-typed":
        import duckdb

        start = time.perf_counter()
        row = duckdb.execute(queries[0], [log]).fetchone()
        result = dict(zip(FIELDS, (int(v) for v in row)))
    elif engine == "chdb":
        import chdb

        start = time.perf_counter()
        if "'" in log or "\\" in log:
            sys.exit("chdb: the log's path must not contain quotes or backslashes")
        sql = queries[1]
        text = str(chdb.query(sql.replace("{path}", log), "CSV")).strip()
        result = dict(zip(FIELDS, (int(v) for v in text.split(","))))
    elif engine == "duckdb-auto" and schema == "keyed":
        import duckdb

        start = time.perf_counter()
        rows = duckdb.execute(DUCKDB_AUTO, [log]).fetchall()
        result = {
            "per_day": [[d.isoformat(), int(m), int(t), int(s)] for d, m, t, s in rows],
        }
    else:
        sys.exit(f"unknown engine {engine}")
    seconds = time.perf_counter() - start
    with open(times, "a") as f:
        f.write(f"{seconds:.3f}\n")
    json.dump(result, sys.stdout)
    print()


if __name__ == "__main__":
    main()
