-- dupcost sql --engine clickhouse: the figures `dupcost logs` measures, for `dupcost estimate --observed FILE`
-- --client-timeout 1.5s: the duration column duration_ms is read in ms, from its name (--duration-unit overrides it); a value that writes its unit (1m30s) is read in that
WITH src AS (
  SELECT
    toString("timestamp") AS ts_text,
    replaceRegexpAll(toString("status"), '^[ \\t\\n\\r\\f]+|[ \\t\\n\\r\\f]+$', '') AS status_text,
    upper(replaceRegexpAll(toString("method"), '^[ \\t\\n\\r\\f]+|[ \\t\\n\\r\\f]+$', '')) AS method_text,
    COALESCE(replaceRegexpAll(toString("path"), '^[ \\t\\n\\r\\f]+|[ \\t\\n\\r\\f]+$', ''), '') AS path_text,
    toString("upstream_status") AS upstream_text,
    CAST(NULL AS Nullable(String)) AS key_text,
    replaceRegexpAll(toString("bytes"), '^[ \\t\\n\\r\\f]+|[ \\t\\n\\r\\f]+$', '') AS bytes_text,
    COALESCE(CAST(NULL AS Nullable(String)), CASE WHEN replaceRegexpAll(toString("client_addr"), '^[ \\t\\n\\r\\f]+|[ \\t\\n\\r\\f]+$', '') <> '' AND replaceRegexpAll(toString("client_addr"), '^[ \\t\\n\\r\\f]+|[ \\t\\n\\r\\f]+$', '') <> '-' THEN replaceRegexpAll(toString("client_addr"), '^[ \\t\\n\\r\\f]+|[ \\t\\n\\r\\f]+$', '') END) AS client_raw,
    COALESCE(replaceRegexpAll(toString("user_agent"), '^[ \\t\\n\\r\\f]+|[ \\t\\n\\r\\f]+$', ''), '') AS ua_text,
    COALESCE(replaceRegexpAll(toString("request_length"), '^[ \\t\\n\\r\\f]+|[ \\t\\n\\r\\f]+$', ''), '') AS len_text,
    toString(duration_ms) AS duration_text
  FROM logs
),
parsed AS (
  SELECT CASE WHEN match(ts_text, '^[0-9]{2}/[A-Za-z]{3}/[0-9]{4}:') THEN toUnixTimestamp64Micro(toDateTime64(parseDateTimeOrNull(ts_text, '%d/%b/%Y:%H:%i:%s %z', 'UTC'), 6, 'UTC')) ELSE toUnixTimestamp64Micro(parseDateTime64BestEffortOrNull(ts_text, 6, 'UTC')) END AS ts, CASE WHEN match(status_text, '^[0-9]{1,3}$') THEN toInt64(status_text) WHEN status_text = '-1' THEN 0 END AS status, method_text, path_text, upstream_text, key_text, bytes_text, client_raw, ua_text, len_text, duration_text
  FROM src
),
good AS (
  SELECT *, CASE WHEN 1 = 1 THEN 1 ELSE 0 END AS in_range
  FROM parsed
  WHERE ts IS NOT NULL AND status IS NOT NULL
),
mutating AS (
  SELECT ts, method_text AS method, status, upstream_text, key_text, bytes_text, client_raw, ua_text, len_text, path_text, duration_text,
    extract(CASE WHEN match(path_text, '^([^/].*?)?://') THEN CASE WHEN match(replaceRegexpAll(path_text, '^([^/].*?)?://', ''), '/') THEN replaceRegexpAll(replaceRegexpAll(path_text, '^([^/].*?)?://', ''), '^[^/]*', '') ELSE '/' END ELSE path_text END, '^[^?#]*') AS path_only
  FROM good
  WHERE in_range = 1 AND method_text IN ('POST', 'PUT', 'PATCH', 'DELETE')
),
filtered AS (
  SELECT *, 1 AS path_ok FROM mutating
),
attempts AS (
  SELECT ts, toInt64(floor(ts / 86400000000.0)) AS day, method, concat('/', arrayStringConcat(arrayMap(seg -> CASE WHEN (match(seg, '[0-9]') AND ((match(seg, '^[0-9a-fA-F]+$') AND (length(seg) >= 8 OR match(seg, '^[0-9]+$'))) OR match(seg, '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$') OR (match(seg, '^([A-Za-z]{0,8}_)?[A-Za-z0-9]*[A-Za-z][A-Za-z0-9]*$') AND length(replaceRegexpAll(seg, '^[A-Za-z]{0,8}_', '')) >= 16))) THEN '{id}' ELSE seg END, arrayFilter(seg -> seg != '', splitByChar('/', path_only))), '/')) AS route,
    status, CASE WHEN status IN (0, 408, 460, 499, 504) THEN 1 WHEN match(duration_text, '^[ \\t\\n\\r\\f]*[-+]?([0-9]+([.][0-9]+)?|[.][0-9]+|([0-9]+([.][0-9]*)?|[.][0-9]+)[eE][+-]?[0-9]+)s[ \\t\\n\\r\\f]*$') AND ABS(arraySum(arrayMap(p -> toFloat64(p), splitByRegexp('[,:]', replaceRegexpAll(duration_text, '[ \\t\\n\\r\\fs+]', ''))))) <= 1.7976931348623157e308 AND arraySum(arrayMap(p -> toFloat64(p), splitByRegexp('[,:]', replaceRegexpAll(duration_text, '[ \\t\\n\\r\\fs+]', '')))) >= 1.5 THEN 1 WHEN match(duration_text, '^[ \\t\\n\\r\\f]*([-+]?([0-9]+([.][0-9]+)?|[.][0-9]+|([0-9]+([.][0-9]*)?|[.][0-9]+)[eE][+-]?[0-9]+)s|[-+]?([0-9]+([.][0-9]*)?|[.][0-9]+)([eE][+-]?[0-9]+)?)[ \\t\\n\\r\\f]*([,:][ \\t\\n\\r\\f]*([-+]?([0-9]+([.][0-9]+)?|[.][0-9]+|([0-9]+([.][0-9]*)?|[.][0-9]+)[eE][+-]?[0-9]+)s|[-+]?([0-9]+([.][0-9]*)?|[.][0-9]+)([eE][+-]?[0-9]+)?)[ \\t\\n\\r\\f]*)*$') AND NOT match(duration_text, '^[ \\t\\n\\r\\f]*[-+]?([0-9]+([.][0-9]+)?|[.][0-9]+|([0-9]+([.][0-9]*)?|[.][0-9]+)[eE][+-]?[0-9]+)s[ \\t\\n\\r\\f]*$') AND ABS(arraySum(arrayMap(p -> toFloat64(p), splitByRegexp('[,:]', replaceRegexpAll(duration_text, '[ \\t\\n\\r\\fs+]', ''))))) <= 1.7976931348623157e308 AND arraySum(arrayMap(p -> toFloat64(p), splitByRegexp('[,:]', replaceRegexpAll(duration_text, '[ \\t\\n\\r\\fs+]', '')))) >= 1500.0 THEN 1 WHEN match(duration_text, '^[ \\t\\n\\r\\f]*([0-9]+([.][0-9]+)?h)?([0-9]+([.][0-9]+)?m)?([0-9]+([.][0-9]+)?s)?([0-9]+([.][0-9]+)?ms)?([0-9]+([.][0-9]+)?(us|µs|μs))?([0-9]+([.][0-9]+)?ns)?[ \\t\\n\\r\\f]*$') AND match(duration_text, '[0-9]') AND NOT match(duration_text, '^[ \\t\\n\\r\\f]*([-+]?([0-9]+([.][0-9]+)?|[.][0-9]+|([0-9]+([.][0-9]*)?|[.][0-9]+)[eE][+-]?[0-9]+)s|[-+]?([0-9]+([.][0-9]*)?|[.][0-9]+)([eE][+-]?[0-9]+)?)[ \\t\\n\\r\\f]*([,:][ \\t\\n\\r\\f]*([-+]?([0-9]+([.][0-9]+)?|[.][0-9]+|([0-9]+([.][0-9]*)?|[.][0-9]+)[eE][+-]?[0-9]+)s|[-+]?([0-9]+([.][0-9]*)?|[.][0-9]+)([eE][+-]?[0-9]+)?)[ \\t\\n\\r\\f]*)*$') AND ABS((CASE WHEN match(duration_text, '[0-9.]+h') THEN toFloat64(replaceRegexpAll(extract(duration_text, '[0-9.]+h'), 'h', '')) * 3600 ELSE 0 END + CASE WHEN match(replaceRegexpAll(duration_text, '[0-9.]+ms', ''), '[0-9.]+m') THEN toFloat64(replaceRegexpAll(extract(replaceRegexpAll(duration_text, '[0-9.]+ms', ''), '[0-9.]+m'), 'm', '')) * 60 ELSE 0 END + CASE WHEN match(duration_text, '[0-9.]+s') THEN toFloat64(replaceRegexpAll(extract(duration_text, '[0-9.]+s'), 's', '')) ELSE 0 END + CASE WHEN match(duration_text, '[0-9.]+ms') THEN toFloat64(replaceRegexpAll(extract(duration_text, '[0-9.]+ms'), 'ms', 'e-3')) ELSE 0 END + CASE WHEN match(duration_text, '[0-9.]+(?:us|µs|μs)') THEN toFloat64(replaceRegexpAll(extract(duration_text, '[0-9.]+(?:us|µs|μs)'), '(?:us|µs|μs)', 'e-6')) ELSE 0 END + CASE WHEN match(duration_text, '[0-9.]+ns') THEN toFloat64(replaceRegexpAll(extract(duration_text, '[0-9.]+ns'), 'ns', 'e-9')) ELSE 0 END)) <= 1.7976931348623157e308 AND (CASE WHEN match(duration_text, '[0-9.]+h') THEN toFloat64(replaceRegexpAll(extract(duration_text, '[0-9.]+h'), 'h', '')) * 3600 ELSE 0 END + CASE WHEN match(replaceRegexpAll(duration_text, '[0-9.]+ms', ''), '[0-9.]+m') THEN toFloat64(replaceRegexpAll(extract(replaceRegexpAll(duration_text, '[0-9.]+ms', ''), '[0-9.]+m'), 'm', '')) * 60 ELSE 0 END + CASE WHEN match(duration_text, '[0-9.]+s') THEN toFloat64(replaceRegexpAll(extract(duration_text, '[0-9.]+s'), 's', '')) ELSE 0 END + CASE WHEN match(duration_text, '[0-9.]+ms') THEN toFloat64(replaceRegexpAll(extract(duration_text, '[0-9.]+ms'), 'ms', 'e-3')) ELSE 0 END + CASE WHEN match(duration_text, '[0-9.]+(?:us|µs|μs)') THEN toFloat64(replaceRegexpAll(extract(duration_text, '[0-9.]+(?:us|µs|μs)'), '(?:us|µs|μs)', 'e-6')) ELSE 0 END + CASE WHEN match(duration_text, '[0-9.]+ns') THEN toFloat64(replaceRegexpAll(extract(duration_text, '[0-9.]+ns'), 'ns', 'e-9')) ELSE 0 END) >= 1.5 THEN 1 ELSE 0 END AS timed_out,
    CASE WHEN match(replaceRegexpAll(extract(upstream_text, '[^,:]*$'), '^[ \\t\\n\\r\\f]+|[ \\t\\n\\r\\f]+$', ''), '^[0-9]{1,3}$') THEN toInt64(replaceRegexpAll(extract(upstream_text, '[^,:]*$'), '^[ \\t\\n\\r\\f]+|[ \\t\\n\\r\\f]+$', '')) END AS upstream,
    CASE WHEN key_text <> '' AND key_text <> '-' THEN key_text END AS key_text,
    CASE WHEN status BETWEEN 200 AND 299 AND match(bytes_text, '^[+]?[0-9]{1,18}$') THEN toInt64(replaceRegexpAll(bytes_text, '^[+]', '')) END AS response_bytes,
    CASE WHEN match(client_raw, '^\\[') THEN replaceRegexpAll(client_raw, '^\\[|\\].*$', '') WHEN match(client_raw, '^[^:]*:[^:]*$') THEN replaceRegexpAll(client_raw, ':[^:]*$', '') ELSE client_raw END AS client_text,
    ua_text, len_text, path_text
  FROM filtered
  WHERE path_ok = 1
),
fp_base AS (
  SELECT *,
    CASE WHEN timed_out = 1 AND (upstream IS NULL OR upstream IN (0, 408, 460, 499, 502, 504) OR (upstream = status AND status IN (0, 408, 460, 499, 504))) THEN 1 ELSE 0 END AS unknown,
    CASE WHEN timed_out = 1 AND NOT (upstream IS NULL OR upstream IN (0, 408, 460, 499, 502, 504) OR (upstream = status AND status IN (0, 408, 460, 499, 504))) AND upstream BETWEEN 200 AND 299 THEN 1 ELSE 0 END AS succeeded,
    CASE WHEN timed_out = 1 THEN (CASE WHEN timed_out = 1 AND NOT (upstream IS NULL OR upstream IN (0, 408, 460, 499, 502, 504) OR (upstream = status AND status IN (0, 408, 460, 499, 504))) AND upstream BETWEEN 200 AND 299 THEN 1 ELSE 0 END)
      WHEN status BETWEEN 200 AND 299 THEN 1 ELSE 0 END AS executed,
    CASE WHEN timed_out = 1 AND NOT (upstream IS NULL OR upstream IN (0, 408, 460, 499, 502, 504) OR (upstream = status AND status IN (0, 408, 460, 499, 504))) AND upstream BETWEEN 200 AND 299 THEN 1 ELSE 0 END AS up_2xx,
    0 AS backend_2xx,
    CASE WHEN timed_out = 1 OR status = 0 OR status >= 500 THEN 1 ELSE 0 END AS failed,
    toInt64(floor(ts / 60000000.0)) AS minute
  FROM attempts
),
fp_lag AS (
  SELECT *,
    ROW_NUMBER() OVER (PARTITION BY client_text, ua_text, method, path_text, len_text ORDER BY ts, status, timed_out, executed, up_2xx, backend_2xx) AS fp_nth,
    LAG(ts) OVER (PARTITION BY client_text, ua_text, method, path_text, len_text ORDER BY ts, status, timed_out, executed, up_2xx, backend_2xx) AS prev_ts,
    LAG(failed) OVER (PARTITION BY client_text, ua_text, method, path_text, len_text ORDER BY ts, status, timed_out, executed, up_2xx, backend_2xx) AS prev_failed
  FROM fp_base
),
fp_segments AS (
  SELECT *,
    SUM(CASE WHEN fp_nth = 1 OR ts - prev_ts > 3600000000 THEN 1 ELSE 0 END) OVER (PARTITION BY client_text, ua_text, method, path_text, len_text ORDER BY ts, status, timed_out, executed, up_2xx, backend_2xx ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS segment
  FROM fp_lag
),
fp_minutes AS (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY client_text, ua_text, method, path_text, len_text, segment, minute ORDER BY ts, status, timed_out, executed, up_2xx, backend_2xx) AS per_minute
  FROM fp_segments
),
fp_shared AS (
  SELECT *,
    MAX(CASE WHEN per_minute > 12 THEN 1 ELSE 0 END) OVER (PARTITION BY client_text, ua_text, method, path_text, len_text, segment ORDER BY ts, status, timed_out, executed, up_2xx, backend_2xx ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS shared
  FROM fp_minutes
),
outcomes AS (
  SELECT *,
    CASE WHEN client_text IS NULL OR fp_nth = 1 OR ts - prev_ts > 3600000000 OR shared = 1 OR prev_failed = 0
      THEN 1 ELSE 0 END AS starts
  FROM fp_shared
),
numbered AS (
  SELECT client_text, ua_text, method, path_text, len_text, segment, shared, timed_out, executed, up_2xx, backend_2xx,
    CASE WHEN starts = 0 AND status IN (409, 422) THEN 1 ELSE 0 END AS later_conflict,
    CASE WHEN fp_nth > 1 AND ts = prev_ts THEN 1 ELSE 0 END AS tie,
    SUM(starts) OVER (PARTITION BY client_text, ua_text, method, path_text, len_text ORDER BY ts, status, timed_out, executed, up_2xx, backend_2xx ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS intent
  FROM outcomes
  WHERE client_text IS NOT NULL
),
per_intent AS (
  SELECT COUNT(*) AS attempts, MAX(timed_out) AS timed_out, SUM(executed) AS executions,
    MAX(up_2xx) AS up_2xx, MAX(backend_2xx) AS backend_2xx, MAX(later_conflict) AS later_conflict
  FROM numbered GROUP BY client_text, ua_text, method, path_text, len_text, intent
),
endpoint_firsts AS (
  SELECT method AS r_method, route AS r_route, MIN(ts) AS r_first FROM attempts GROUP BY method, route
),
endpoint_ranks AS (
  SELECT r_method, r_route, ROW_NUMBER() OVER (ORDER BY r_first, r_method, r_route) AS r_rank
  FROM endpoint_firsts
),
folded AS (
  SELECT o.*,
    CASE WHEN x.r_rank <= 10000 THEN o.method ELSE '*' END AS ep_method,
    CASE WHEN x.r_rank <= 10000 THEN o.route ELSE '(other routes)' END AS ep_route
  FROM outcomes o
  JOIN endpoint_ranks x ON o.method = x.r_method AND o.route = x.r_route
)
SELECT * FROM (
SELECT
  'total' AS "kind",
  CAST(NULL AS Nullable(String)) AS "day",
  CAST(NULL AS Nullable(String)) AS "method",
  CAST(NULL AS Nullable(String)) AS "route",
  r.n_rows AS "rows",
  r.n_bad AS "bad_rows",
  g.n_out AS "out_of_range",
  m.n_path_filtered AS "path_filtered",
  a.n_mutating AS "mutating",
  a.n_timed_out AS "timed_out",
  a.n_succeeded AS "timed_out_succeeded",
  a.n_unknown AS "timed_out_unknown",
  a.n_intents AS "intents",
  a.n_keyed_intents AS "keyed_intents",
  a.n_keyed_attempts AS "keyed_attempts",
  p.n_max_attempts AS "max_attempts",
  g.first_us AS "first_us",
  g.last_us AS "last_us",
  a.n_response_rows AS "response_rows",
  a.n_response_bytes AS "response_bytes",
  'timestamp,method,path,status,upstream_status,idempotency_key,bytes,client_addr,user_agent,request_length,duration' AS "roles",
  'POST,PUT,PATCH,DELETE' AS "methods",
  '0,408,460,499,504' AS "timeout_statuses",
  toInt64(3600000000) AS "retry_window_us",
  CAST(NULL AS Nullable(Int64)) AS "attempts",
  0 AS "timed_out_intents",
  CAST(NULL AS Nullable(Int64)) AS "matched",
  CAST(NULL AS Nullable(Int64)) AS "matched_succeeded",
  CAST(NULL AS Nullable(Int64)) AS "never_reached",
  CAST(NULL AS Nullable(Int64)) AS "outside_span",
  CAST(NULL AS Nullable(Int64)) AS "without_id",
  CAST(NULL AS Nullable(Int64)) AS "backend_rows",
  CAST(NULL AS Nullable(Int64)) AS "backend_bad_rows",
  CAST(NULL AS Nullable(Int64)) AS "backend_first_us",
  CAST(NULL AS Nullable(Int64)) AS "backend_last_us",
  p.n_duplicates AS "duplicates",
  p.n_duplicates_upstream AS "duplicates_upstream_2xx",
  p.n_duplicates_backend AS "duplicates_outcomes",
  CAST(NULL AS Nullable(String)) AS "flags_style",
  'fingerprint' AS "grouping",
  p.n_grouped AS "fingerprinted_intents",
  p.n_grouped_attempts AS "fingerprinted_attempts",
  p.n_timed_out_intents AS "fingerprinted_timed_out_intents",
  sh.n_shared_fingerprints AS "shared_fingerprints",
  sh.n_shared_attempts AS "shared_attempts",
  toInt64(12) AS "shared_address_rate",
  p.n_conflicts AS "conflicts_409_422",
  toInt64(1500000) AS "client_timeout_us",
  'proxy' AS "log_side",
  CAST(NULL AS Nullable(Int64)) AS "processed_twice_intents",
  CAST(NULL AS Nullable(Int64)) AS "processed_twice_extra",
  sh.n_ties AS "fingerprint_ties"
FROM (SELECT COUNT(*) AS n_rows, COALESCE(SUM(CASE WHEN ts IS NULL OR status IS NULL THEN 1 ELSE 0 END), 0) AS n_bad FROM parsed) r
CROSS JOIN (
  SELECT COALESCE(SUM(1 - in_range), 0) AS n_out,
    MIN(CASE WHEN in_range = 1 THEN ts END) AS first_us,
    MAX(CASE WHEN in_range = 1 THEN ts END) AS last_us
  FROM good
) g
CROSS JOIN (SELECT COALESCE(SUM(1 - path_ok), 0) AS n_path_filtered FROM filtered) m
CROSS JOIN (
  SELECT COUNT(*) AS n_mutating, COALESCE(SUM(timed_out), 0) AS n_timed_out,
    COALESCE(SUM(succeeded), 0) AS n_succeeded, COALESCE(SUM(unknown), 0) AS n_unknown,
    COALESCE(SUM(starts), 0) AS n_intents, COALESCE(SUM(CASE WHEN key_text IS NOT NULL THEN starts ELSE 0 END), 0) AS n_keyed_intents,
    COUNT(key_text) AS n_keyed_attempts,
    COUNT(response_bytes) AS n_response_rows, COALESCE(SUM(response_bytes), 0) AS n_response_bytes
  FROM outcomes
) a
CROSS JOIN (
  SELECT COALESCE(MAX(attempts), 0) AS n_max_attempts, COALESCE(SUM(timed_out), 0) AS n_timed_out_intents,
    COUNT(*) AS n_grouped, COALESCE(SUM(attempts), 0) AS n_grouped_attempts,
    COALESCE(SUM(CASE WHEN executions >= 2 THEN 1 ELSE 0 END), 0) AS n_duplicates,
    COALESCE(SUM(CASE WHEN executions >= 2 AND up_2xx = 1 THEN 1 ELSE 0 END), 0) AS n_duplicates_upstream,
    COALESCE(SUM(CASE WHEN executions >= 2 AND up_2xx = 0 AND backend_2xx = 1 THEN 1 ELSE 0 END), 0) AS n_duplicates_backend,
    COALESCE(SUM(later_conflict), 0) AS n_conflicts
  FROM per_intent
) p
CROSS JOIN (
  SELECT COALESCE(SUM(shared), 0) AS n_shared_attempts, COALESCE(SUM(tie), 0) AS n_ties,
    (SELECT COUNT(*) FROM (SELECT segment FROM numbered WHERE shared = 1
      GROUP BY client_text, ua_text, method, path_text, len_text, segment) s) AS n_shared_fingerprints
  FROM numbered
) sh
UNION ALL
SELECT
  'day' AS "kind",
  toString(addDays(toDate('1970-01-01'), day)) AS "day",
  CAST(NULL AS Nullable(String)) AS "method",
  CAST(NULL AS Nullable(String)) AS "route",
  CAST(NULL AS Nullable(Int64)) AS "rows",
  CAST(NULL AS Nullable(Int64)) AS "bad_rows",
  CAST(NULL AS Nullable(Int64)) AS "out_of_range",
  CAST(NULL AS Nullable(Int64)) AS "path_filtered",
  COUNT(*) AS "mutating",
  SUM(timed_out) AS "timed_out",
  SUM(succeeded) AS "timed_out_succeeded",
  SUM(unknown) AS "timed_out_unknown",
  CAST(NULL AS Nullable(Int64)) AS "intents",
  CAST(NULL AS Nullable(Int64)) AS "keyed_intents",
  COUNT(key_text) AS "keyed_attempts",
  CAST(NULL AS Nullable(Int64)) AS "max_attempts",
  CAST(NULL AS Nullable(Int64)) AS "first_us",
  CAST(NULL AS Nullable(Int64)) AS "last_us",
  CAST(NULL AS Nullable(Int64)) AS "response_rows",
  CAST(NULL AS Nullable(Int64)) AS "response_bytes",
  CAST(NULL AS Nullable(String)) AS "roles",
  CAST(NULL AS Nullable(String)) AS "methods",
  CAST(NULL AS Nullable(String)) AS "timeout_statuses",
  CAST(NULL AS Nullable(Int64)) AS "retry_window_us",
  CAST(NULL AS Nullable(Int64)) AS "attempts",
  CAST(NULL AS Nullable(Int64)) AS "timed_out_intents",
  CAST(NULL AS Nullable(Int64)) AS "matched",
  CAST(NULL AS Nullable(Int64)) AS "matched_succeeded",
  CAST(NULL AS Nullable(Int64)) AS "never_reached",
  CAST(NULL AS Nullable(Int64)) AS "outside_span",
  CAST(NULL AS Nullable(Int64)) AS "without_id",
  CAST(NULL AS Nullable(Int64)) AS "backend_rows",
  CAST(NULL AS Nullable(Int64)) AS "backend_bad_rows",
  CAST(NULL AS Nullable(Int64)) AS "backend_first_us",
  CAST(NULL AS Nullable(Int64)) AS "backend_last_us",
  CAST(NULL AS Nullable(Int64)) AS "duplicates",
  CAST(NULL AS Nullable(Int64)) AS "duplicates_upstream_2xx",
  CAST(NULL AS Nullable(Int64)) AS "duplicates_outcomes",
  CAST(NULL AS Nullable(String)) AS "flags_style",
  CAST(NULL AS Nullable(String)) AS "grouping",
  CAST(NULL AS Nullable(Int64)) AS "fingerprinted_intents",
  CAST(NULL AS Nullable(Int64)) AS "fingerprinted_attempts",
  CAST(NULL AS Nullable(Int64)) AS "fingerprinted_timed_out_intents",
  CAST(NULL AS Nullable(Int64)) AS "shared_fingerprints",
  CAST(NULL AS Nullable(Int64)) AS "shared_attempts",
  CAST(NULL AS Nullable(Int64)) AS "shared_address_rate",
  CAST(NULL AS Nullable(Int64)) AS "conflicts_409_422",
  CAST(NULL AS Nullable(Int64)) AS "client_timeout_us",
  CAST(NULL AS Nullable(String)) AS "log_side",
  CAST(NULL AS Nullable(Int64)) AS "processed_twice_intents",
  CAST(NULL AS Nullable(Int64)) AS "processed_twice_extra",
  CAST(NULL AS Nullable(Int64)) AS "fingerprint_ties"
FROM outcomes
GROUP BY day
UNION ALL
SELECT
  'endpoint' AS "kind",
  CAST(NULL AS Nullable(String)) AS "day",
  ep_method AS "method",
  ep_route AS "route",
  CAST(NULL AS Nullable(Int64)) AS "rows",
  CAST(NULL AS Nullable(Int64)) AS "bad_rows",
  CAST(NULL AS Nullable(Int64)) AS "out_of_range",
  CAST(NULL AS Nullable(Int64)) AS "path_filtered",
  COUNT(*) AS "mutating",
  SUM(timed_out) AS "timed_out",
  SUM(succeeded) AS "timed_out_succeeded",
  SUM(unknown) AS "timed_out_unknown",
  SUM(starts) AS "intents",
  CAST(NULL AS Nullable(Int64)) AS "keyed_intents",
  COUNT(key_text) AS "keyed_attempts",
  CAST(NULL AS Nullable(Int64)) AS "max_attempts",
  CAST(NULL AS Nullable(Int64)) AS "first_us",
  CAST(NULL AS Nullable(Int64)) AS "last_us",
  CAST(NULL AS Nullable(Int64)) AS "response_rows",
  CAST(NULL AS Nullable(Int64)) AS "response_bytes",
  CAST(NULL AS Nullable(String)) AS "roles",
  CAST(NULL AS Nullable(String)) AS "methods",
  CAST(NULL AS Nullable(String)) AS "timeout_statuses",
  CAST(NULL AS Nullable(Int64)) AS "retry_window_us",
  CAST(NULL AS Nullable(Int64)) AS "attempts",
  CAST(NULL AS Nullable(Int64)) AS "timed_out_intents",
  CAST(NULL AS Nullable(Int64)) AS "matched",
  CAST(NULL AS Nullable(Int64)) AS "matched_succeeded",
  CAST(NULL AS Nullable(Int64)) AS "never_reached",
  CAST(NULL AS Nullable(Int64)) AS "outside_span",
  CAST(NULL AS Nullable(Int64)) AS "without_id",
  CAST(NULL AS Nullable(Int64)) AS "backend_rows",
  CAST(NULL AS Nullable(Int64)) AS "backend_bad_rows",
  CAST(NULL AS Nullable(Int64)) AS "backend_first_us",
  CAST(NULL AS Nullable(Int64)) AS "backend_last_us",
  CAST(NULL AS Nullable(Int64)) AS "duplicates",
  CAST(NULL AS Nullable(Int64)) AS "duplicates_upstream_2xx",
  CAST(NULL AS Nullable(Int64)) AS "duplicates_outcomes",
  CAST(NULL AS Nullable(String)) AS "flags_style",
  CAST(NULL AS Nullable(String)) AS "grouping",
  CAST(NULL AS Nullable(Int64)) AS "fingerprinted_intents",
  CAST(NULL AS Nullable(Int64)) AS "fingerprinted_attempts",
  CAST(NULL AS Nullable(Int64)) AS "fingerprinted_timed_out_intents",
  CAST(NULL AS Nullable(Int64)) AS "shared_fingerprints",
  CAST(NULL AS Nullable(Int64)) AS "shared_attempts",
  CAST(NULL AS Nullable(Int64)) AS "shared_address_rate",
  CAST(NULL AS Nullable(Int64)) AS "conflicts_409_422",
  CAST(NULL AS Nullable(Int64)) AS "client_timeout_us",
  CAST(NULL AS Nullable(String)) AS "log_side",
  CAST(NULL AS Nullable(Int64)) AS "processed_twice_intents",
  CAST(NULL AS Nullable(Int64)) AS "processed_twice_extra",
  CAST(NULL AS Nullable(Int64)) AS "fingerprint_ties"
FROM folded
GROUP BY ep_method, ep_route
UNION ALL
SELECT
  'attempts' AS "kind",
  CAST(NULL AS Nullable(String)) AS "day",
  CAST(NULL AS Nullable(String)) AS "method",
  CAST(NULL AS Nullable(String)) AS "route",
  CAST(NULL AS Nullable(Int64)) AS "rows",
  CAST(NULL AS Nullable(Int64)) AS "bad_rows",
  CAST(NULL AS Nullable(Int64)) AS "out_of_range",
  CAST(NULL AS Nullable(Int64)) AS "path_filtered",
  CAST(NULL AS Nullable(Int64)) AS "mutating",
  CAST(NULL AS Nullable(Int64)) AS "timed_out",
  CAST(NULL AS Nullable(Int64)) AS "timed_out_succeeded",
  CAST(NULL AS Nullable(Int64)) AS "timed_out_unknown",
  COUNT(*) AS "intents",
  CAST(NULL AS Nullable(Int64)) AS "keyed_intents",
  CAST(NULL AS Nullable(Int64)) AS "keyed_attempts",
  CAST(NULL AS Nullable(Int64)) AS "max_attempts",
  CAST(NULL AS Nullable(Int64)) AS "first_us",
  CAST(NULL AS Nullable(Int64)) AS "last_us",
  CAST(NULL AS Nullable(Int64)) AS "response_rows",
  CAST(NULL AS Nullable(Int64)) AS "response_bytes",
  CAST(NULL AS Nullable(String)) AS "roles",
  CAST(NULL AS Nullable(String)) AS "methods",
  CAST(NULL AS Nullable(String)) AS "timeout_statuses",
  CAST(NULL AS Nullable(Int64)) AS "retry_window_us",
  toInt64(attempts) AS "attempts",
  CAST(NULL AS Nullable(Int64)) AS "timed_out_intents",
  CAST(NULL AS Nullable(Int64)) AS "matched",
  CAST(NULL AS Nullable(Int64)) AS "matched_succeeded",
  CAST(NULL AS Nullable(Int64)) AS "never_reached",
  CAST(NULL AS Nullable(Int64)) AS "outside_span",
  CAST(NULL AS Nullable(Int64)) AS "without_id",
  CAST(NULL AS Nullable(Int64)) AS "backend_rows",
  CAST(NULL AS Nullable(Int64)) AS "backend_bad_rows",
  CAST(NULL AS Nullable(Int64)) AS "backend_first_us",
  CAST(NULL AS Nullable(Int64)) AS "backend_last_us",
  CAST(NULL AS Nullable(Int64)) AS "duplicates",
  CAST(NULL AS Nullable(Int64)) AS "duplicates_upstream_2xx",
  CAST(NULL AS Nullable(Int64)) AS "duplicates_outcomes",
  CAST(NULL AS Nullable(String)) AS "flags_style",
  CAST(NULL AS Nullable(String)) AS "grouping",
  CAST(NULL AS Nullable(Int64)) AS "fingerprinted_intents",
  CAST(NULL AS Nullable(Int64)) AS "fingerprinted_attempts",
  CAST(NULL AS Nullable(Int64)) AS "fingerprinted_timed_out_intents",
  CAST(NULL AS Nullable(Int64)) AS "shared_fingerprints",
  CAST(NULL AS Nullable(Int64)) AS "shared_attempts",
  CAST(NULL AS Nullable(Int64)) AS "shared_address_rate",
  CAST(NULL AS Nullable(Int64)) AS "conflicts_409_422",
  CAST(NULL AS Nullable(Int64)) AS "client_timeout_us",
  CAST(NULL AS Nullable(String)) AS "log_side",
  CAST(NULL AS Nullable(Int64)) AS "processed_twice_intents",
  CAST(NULL AS Nullable(Int64)) AS "processed_twice_extra",
  CAST(NULL AS Nullable(Int64)) AS "fingerprint_ties"
FROM per_intent
GROUP BY attempts
) result
ORDER BY "kind" DESC, "day", "method", "route", "attempts"
