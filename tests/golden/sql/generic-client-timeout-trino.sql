-- dupcost sql --engine trino: the figures `dupcost logs` measures, for `dupcost estimate --observed FILE`
-- --client-timeout 30s: the duration column request_time is read in s, from its name (--duration-unit overrides it); a value that writes its unit (1m30s) is read in that
WITH src AS (
  SELECT
    CAST("timestamp" AS VARCHAR) AS ts_text,
    regexp_replace(CAST("status" AS VARCHAR), '^[ \t\n\r\f]+|[ \t\n\r\f]+$', '') AS status_text,
    upper(regexp_replace(CAST("method" AS VARCHAR), '^[ \t\n\r\f]+|[ \t\n\r\f]+$', '')) AS method_text,
    COALESCE(regexp_replace(CAST("path" AS VARCHAR), '^[ \t\n\r\f]+|[ \t\n\r\f]+$', ''), '') AS path_text,
    CAST("upstream_status" AS VARCHAR) AS upstream_text,
    regexp_replace(CAST("idempotency_key" AS VARCHAR), '^[ \t\n\r\f]+|[ \t\n\r\f]+$', '') AS key_text,
    regexp_replace(CAST("bytes" AS VARCHAR), '^[ \t\n\r\f]+|[ \t\n\r\f]+$', '') AS bytes_text,
    CAST(request_time AS VARCHAR) AS duration_text
  FROM logs
),
parsed AS (
  SELECT CASE WHEN regexp_like(ts_text, '^[0-9]{2}/[A-Za-z]{3}/[0-9]{4}:') THEN CAST(round(to_unixtime(try(parse_datetime(ts_text, 'dd/MMM/yyyy:HH:mm:ss Z'))) * 1000000) AS BIGINT) ELSE CAST(round(to_unixtime(try(from_iso8601_timestamp_nanos(replace(CASE WHEN regexp_like(ts_text, '(:[0-9]{2}([.][0-9]+)?)(Z|z|[+-][0-9]{2}(:?[0-9]{2})?)$|[+-]00$|UTC$') THEN ts_text ELSE concat(ts_text, '+00:00') END, ' ', 'T')))) * 1000000) AS BIGINT) END AS ts, CASE WHEN regexp_like(status_text, '^[0-9]{1,3}$') THEN CAST(status_text AS BIGINT) WHEN status_text = '-1' THEN 0 END AS status, method_text, path_text, upstream_text, key_text, bytes_text, duration_text
  FROM src
),
good AS (
  SELECT *, CASE WHEN 1 = 1 THEN 1 ELSE 0 END AS in_range
  FROM parsed
  WHERE ts IS NOT NULL AND status IS NOT NULL
),
mutating AS (
  SELECT ts, method_text AS method, status, upstream_text, key_text, bytes_text, duration_text,
    regexp_extract(CASE WHEN regexp_like(path_text, '^([^/].*?)?://') THEN CASE WHEN regexp_like(regexp_replace(path_text, '^([^/].*?)?://', ''), '/') THEN regexp_replace(regexp_replace(path_text, '^([^/].*?)?://', ''), '^[^/]*', '') ELSE '/' END ELSE path_text END, '^[^?#]*') AS path_only
  FROM good
  WHERE in_range = 1 AND method_text IN ('POST', 'PUT', 'PATCH', 'DELETE')
),
filtered AS (
  SELECT *, 1 AS path_ok FROM mutating
),
attempts AS (
  SELECT ts, CAST(floor(ts / 86400000000.0) AS BIGINT) AS day, method, concat('/', array_join(transform(filter(split(path_only, '/'), seg -> seg <> ''), seg -> CASE WHEN (regexp_like(seg, '[0-9]') AND ((regexp_like(seg, '^[0-9a-fA-F]+$') AND (length(seg) >= 8 OR regexp_like(seg, '^[0-9]+$'))) OR regexp_like(seg, '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$') OR (regexp_like(seg, '^([A-Za-z]{0,8}_)?[A-Za-z0-9]*[A-Za-z][A-Za-z0-9]*$') AND length(regexp_replace(seg, '^[A-Za-z]{0,8}_', '')) >= 16))) THEN '{id}' ELSE seg END), '/')) AS route,
    status, CASE WHEN status IN (0, 408, 460, 499, 504) THEN 1 WHEN regexp_like(duration_text, '^[ \t\n\r\f]*[-+]?([0-9]+([.][0-9]+)?|[.][0-9]+|([0-9]+([.][0-9]*)?|[.][0-9]+)[eE][+-]?[0-9]+)s[ \t\n\r\f]*$') AND ABS(reduce(regexp_split(regexp_replace(duration_text, '[ \t\n\r\fs+]', ''), '[,:]'), CAST(0 AS DOUBLE), (acc, p) -> acc + CAST(p AS DOUBLE), acc -> acc)) <= 1.7976931348623157e308 AND reduce(regexp_split(regexp_replace(duration_text, '[ \t\n\r\fs+]', ''), '[,:]'), CAST(0 AS DOUBLE), (acc, p) -> acc + CAST(p AS DOUBLE), acc -> acc) >= 30.0 THEN 1 WHEN regexp_like(duration_text, '^[ \t\n\r\f]*([-+]?([0-9]+([.][0-9]+)?|[.][0-9]+|([0-9]+([.][0-9]*)?|[.][0-9]+)[eE][+-]?[0-9]+)s|[-+]?([0-9]+([.][0-9]*)?|[.][0-9]+)([eE][+-]?[0-9]+)?)[ \t\n\r\f]*([,:][ \t\n\r\f]*([-+]?([0-9]+([.][0-9]+)?|[.][0-9]+|([0-9]+([.][0-9]*)?|[.][0-9]+)[eE][+-]?[0-9]+)s|[-+]?([0-9]+([.][0-9]*)?|[.][0-9]+)([eE][+-]?[0-9]+)?)[ \t\n\r\f]*)*$') AND NOT regexp_like(duration_text, '^[ \t\n\r\f]*[-+]?([0-9]+([.][0-9]+)?|[.][0-9]+|([0-9]+([.][0-9]*)?|[.][0-9]+)[eE][+-]?[0-9]+)s[ \t\n\r\f]*$') AND ABS(reduce(regexp_split(regexp_replace(duration_text, '[ \t\n\r\fs+]', ''), '[,:]'), CAST(0 AS DOUBLE), (acc, p) -> acc + CAST(p AS DOUBLE), acc -> acc)) <= 1.7976931348623157e308 AND reduce(regexp_split(regexp_replace(duration_text, '[ \t\n\r\fs+]', ''), '[,:]'), CAST(0 AS DOUBLE), (acc, p) -> acc + CAST(p AS DOUBLE), acc -> acc) >= 30.0 THEN 1 WHEN regexp_like(duration_text, '^[ \t\n\r\f]*([0-9]+([.][0-9]+)?h)?([0-9]+([.][0-9]+)?m)?([0-9]+([.][0-9]+)?s)?([0-9]+([.][0-9]+)?ms)?([0-9]+([.][0-9]+)?(us|µs|μs))?([0-9]+([.][0-9]+)?ns)?[ \t\n\r\f]*$') AND regexp_like(duration_text, '[0-9]') AND NOT regexp_like(duration_text, '^[ \t\n\r\f]*([-+]?([0-9]+([.][0-9]+)?|[.][0-9]+|([0-9]+([.][0-9]*)?|[.][0-9]+)[eE][+-]?[0-9]+)s|[-+]?([0-9]+([.][0-9]*)?|[.][0-9]+)([eE][+-]?[0-9]+)?)[ \t\n\r\f]*([,:][ \t\n\r\f]*([-+]?([0-9]+([.][0-9]+)?|[.][0-9]+|([0-9]+([.][0-9]*)?|[.][0-9]+)[eE][+-]?[0-9]+)s|[-+]?([0-9]+([.][0-9]*)?|[.][0-9]+)([eE][+-]?[0-9]+)?)[ \t\n\r\f]*)*$') AND ABS((CASE WHEN regexp_like(duration_text, '[0-9.]+h') THEN CAST(regexp_replace(regexp_extract(duration_text, '[0-9.]+h'), 'h', '') AS DOUBLE) * 3600 ELSE 0 END + CASE WHEN regexp_like(regexp_replace(duration_text, '[0-9.]+ms', ''), '[0-9.]+m') THEN CAST(regexp_replace(regexp_extract(regexp_replace(duration_text, '[0-9.]+ms', ''), '[0-9.]+m'), 'm', '') AS DOUBLE) * 60 ELSE 0 END + CASE WHEN regexp_like(duration_text, '[0-9.]+s') THEN CAST(regexp_replace(regexp_extract(duration_text, '[0-9.]+s'), 's', '') AS DOUBLE) ELSE 0 END + CASE WHEN regexp_like(duration_text, '[0-9.]+ms') THEN CAST(regexp_replace(regexp_extract(duration_text, '[0-9.]+ms'), 'ms', 'e-3') AS DOUBLE) ELSE 0 END + CASE WHEN regexp_like(duration_text, '[0-9.]+(?:us|µs|μs)') THEN CAST(regexp_replace(regexp_extract(duration_text, '[0-9.]+(?:us|µs|μs)'), '(?:us|µs|μs)', 'e-6') AS DOUBLE) ELSE 0 END + CASE WHEN regexp_like(duration_text, '[0-9.]+ns') THEN CAST(regexp_replace(regexp_extract(duration_text, '[0-9.]+ns'), 'ns', 'e-9') AS DOUBLE) ELSE 0 END)) <= 1.7976931348623157e308 AND (CASE WHEN regexp_like(duration_text, '[0-9.]+h') THEN CAST(regexp_replace(regexp_extract(duration_text, '[0-9.]+h'), 'h', '') AS DOUBLE) * 3600 ELSE 0 END + CASE WHEN regexp_like(regexp_replace(duration_text, '[0-9.]+ms', ''), '[0-9.]+m') THEN CAST(regexp_replace(regexp_extract(regexp_replace(duration_text, '[0-9.]+ms', ''), '[0-9.]+m'), 'm', '') AS DOUBLE) * 60 ELSE 0 END + CASE WHEN regexp_like(duration_text, '[0-9.]+s') THEN CAST(regexp_replace(regexp_extract(duration_text, '[0-9.]+s'), 's', '') AS DOUBLE) ELSE 0 END + CASE WHEN regexp_like(duration_text, '[0-9.]+ms') THEN CAST(regexp_replace(regexp_extract(duration_text, '[0-9.]+ms'), 'ms', 'e-3') AS DOUBLE) ELSE 0 END + CASE WHEN regexp_like(duration_text, '[0-9.]+(?:us|µs|μs)') THEN CAST(regexp_replace(regexp_extract(duration_text, '[0-9.]+(?:us|µs|μs)'), '(?:us|µs|μs)', 'e-6') AS DOUBLE) ELSE 0 END + CASE WHEN regexp_like(duration_text, '[0-9.]+ns') THEN CAST(regexp_replace(regexp_extract(duration_text, '[0-9.]+ns'), 'ns', 'e-9') AS DOUBLE) ELSE 0 END) >= 30.0 THEN 1 ELSE 0 END AS timed_out,
    CASE WHEN regexp_like(regexp_replace(regexp_extract(upstream_text, '[^,:]*$'), '^[ \t\n\r\f]+|[ \t\n\r\f]+$', ''), '^[0-9]{1,3}$') THEN CAST(regexp_replace(regexp_extract(upstream_text, '[^,:]*$'), '^[ \t\n\r\f]+|[ \t\n\r\f]+$', '') AS BIGINT) END AS upstream,
    CASE WHEN key_text <> '' AND key_text <> '-' THEN key_text END AS key_text,
    CASE WHEN status BETWEEN 200 AND 299 AND regexp_like(bytes_text, '^[+]?[0-9]{1,18}$') THEN CAST(regexp_replace(bytes_text, '^[+]', '') AS BIGINT) END AS response_bytes
  FROM filtered
  WHERE path_ok = 1
),
outcomes AS (
  SELECT *,
    CASE WHEN timed_out = 1 AND (upstream IS NULL OR upstream IN (0, 408, 460, 499, 502, 504) OR (upstream = status AND status IN (0, 408, 460, 499, 504))) THEN 1 ELSE 0 END AS unknown,
    CASE WHEN timed_out = 1 AND NOT (upstream IS NULL OR upstream IN (0, 408, 460, 499, 502, 504) OR (upstream = status AND status IN (0, 408, 460, 499, 504))) AND upstream BETWEEN 200 AND 299 THEN 1 ELSE 0 END AS succeeded,
    CASE WHEN key_text IS NULL THEN 1
      WHEN LAG(ts) OVER (PARTITION BY key_text, method, route ORDER BY ts) IS NULL THEN 1
      WHEN ts - LAG(ts) OVER (PARTITION BY key_text, method, route ORDER BY ts) > 3600000000 THEN 1
      ELSE 0 END AS starts
  FROM attempts
),
numbered AS (
  SELECT key_text, method, route, timed_out,
    SUM(starts) OVER (PARTITION BY key_text, method, route ORDER BY ts RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS intent
  FROM outcomes
  WHERE key_text IS NOT NULL
),
per_intent AS (
  SELECT COUNT(*) AS attempts, MAX(timed_out) AS timed_out
  FROM numbered GROUP BY key_text, method, route, intent
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
  CAST(NULL AS VARCHAR) AS "day",
  CAST(NULL AS VARCHAR) AS "method",
  CAST(NULL AS VARCHAR) AS "route",
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
  'timestamp,method,path,status,upstream_status,idempotency_key,bytes,duration' AS "roles",
  'POST,PUT,PATCH,DELETE' AS "methods",
  '0,408,460,499,504' AS "timeout_statuses",
  CAST(3600000000 AS BIGINT) AS "retry_window_us",
  CAST(NULL AS BIGINT) AS "attempts",
  p.n_timed_out_intents AS "timed_out_intents",
  CAST(NULL AS BIGINT) AS "matched",
  CAST(NULL AS BIGINT) AS "matched_succeeded",
  CAST(NULL AS BIGINT) AS "never_reached",
  CAST(NULL AS BIGINT) AS "outside_span",
  CAST(NULL AS BIGINT) AS "without_id",
  CAST(NULL AS BIGINT) AS "backend_rows",
  CAST(NULL AS BIGINT) AS "backend_bad_rows",
  CAST(NULL AS BIGINT) AS "backend_first_us",
  CAST(NULL AS BIGINT) AS "backend_last_us",
  CAST(NULL AS BIGINT) AS "duplicates",
  CAST(NULL AS BIGINT) AS "duplicates_upstream_2xx",
  CAST(NULL AS BIGINT) AS "duplicates_outcomes",
  CAST(NULL AS VARCHAR) AS "flags_style",
  'key' AS "grouping",
  CAST(NULL AS BIGINT) AS "fingerprinted_intents",
  CAST(NULL AS BIGINT) AS "fingerprinted_attempts",
  CAST(NULL AS BIGINT) AS "fingerprinted_timed_out_intents",
  CAST(NULL AS BIGINT) AS "shared_fingerprints",
  CAST(NULL AS BIGINT) AS "shared_attempts",
  CAST(NULL AS BIGINT) AS "shared_address_rate",
  CAST(NULL AS BIGINT) AS "conflicts_409_422",
  CAST(30000000 AS BIGINT) AS "client_timeout_us",
  'proxy' AS "log_side",
  CAST(NULL AS BIGINT) AS "processed_twice_intents",
  CAST(NULL AS BIGINT) AS "processed_twice_extra",
  CAST(NULL AS BIGINT) AS "fingerprint_ties"
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
    COUNT(*) AS n_grouped, COALESCE(SUM(attempts), 0) AS n_grouped_attempts
  FROM per_intent
) p
UNION ALL
SELECT
  'day' AS "kind",
  CAST(date_add('day', day, DATE '1970-01-01') AS VARCHAR) AS "day",
  CAST(NULL AS VARCHAR) AS "method",
  CAST(NULL AS VARCHAR) AS "route",
  CAST(NULL AS BIGINT) AS "rows",
  CAST(NULL AS BIGINT) AS "bad_rows",
  CAST(NULL AS BIGINT) AS "out_of_range",
  CAST(NULL AS BIGINT) AS "path_filtered",
  COUNT(*) AS "mutating",
  SUM(timed_out) AS "timed_out",
  SUM(succeeded) AS "timed_out_succeeded",
  SUM(unknown) AS "timed_out_unknown",
  CAST(NULL AS BIGINT) AS "intents",
  CAST(NULL AS BIGINT) AS "keyed_intents",
  COUNT(key_text) AS "keyed_attempts",
  CAST(NULL AS BIGINT) AS "max_attempts",
  CAST(NULL AS BIGINT) AS "first_us",
  CAST(NULL AS BIGINT) AS "last_us",
  CAST(NULL AS BIGINT) AS "response_rows",
  CAST(NULL AS BIGINT) AS "response_bytes",
  CAST(NULL AS VARCHAR) AS "roles",
  CAST(NULL AS VARCHAR) AS "methods",
  CAST(NULL AS VARCHAR) AS "timeout_statuses",
  CAST(NULL AS BIGINT) AS "retry_window_us",
  CAST(NULL AS BIGINT) AS "attempts",
  CAST(NULL AS BIGINT) AS "timed_out_intents",
  CAST(NULL AS BIGINT) AS "matched",
  CAST(NULL AS BIGINT) AS "matched_succeeded",
  CAST(NULL AS BIGINT) AS "never_reached",
  CAST(NULL AS BIGINT) AS "outside_span",
  CAST(NULL AS BIGINT) AS "without_id",
  CAST(NULL AS BIGINT) AS "backend_rows",
  CAST(NULL AS BIGINT) AS "backend_bad_rows",
  CAST(NULL AS BIGINT) AS "backend_first_us",
  CAST(NULL AS BIGINT) AS "backend_last_us",
  CAST(NULL AS BIGINT) AS "duplicates",
  CAST(NULL AS BIGINT) AS "duplicates_upstream_2xx",
  CAST(NULL AS BIGINT) AS "duplicates_outcomes",
  CAST(NULL AS VARCHAR) AS "flags_style",
  CAST(NULL AS VARCHAR) AS "grouping",
  CAST(NULL AS BIGINT) AS "fingerprinted_intents",
  CAST(NULL AS BIGINT) AS "fingerprinted_attempts",
  CAST(NULL AS BIGINT) AS "fingerprinted_timed_out_intents",
  CAST(NULL AS BIGINT) AS "shared_fingerprints",
  CAST(NULL AS BIGINT) AS "shared_attempts",
  CAST(NULL AS BIGINT) AS "shared_address_rate",
  CAST(NULL AS BIGINT) AS "conflicts_409_422",
  CAST(NULL AS BIGINT) AS "client_timeout_us",
  CAST(NULL AS VARCHAR) AS "log_side",
  CAST(NULL AS BIGINT) AS "processed_twice_intents",
  CAST(NULL AS BIGINT) AS "processed_twice_extra",
  CAST(NULL AS BIGINT) AS "fingerprint_ties"
FROM outcomes
GROUP BY day
UNION ALL
SELECT
  'endpoint' AS "kind",
  CAST(NULL AS VARCHAR) AS "day",
  ep_method AS "method",
  ep_route AS "route",
  CAST(NULL AS BIGINT) AS "rows",
  CAST(NULL AS BIGINT) AS "bad_rows",
  CAST(NULL AS BIGINT) AS "out_of_range",
  CAST(NULL AS BIGINT) AS "path_filtered",
  COUNT(*) AS "mutating",
  SUM(timed_out) AS "timed_out",
  SUM(succeeded) AS "timed_out_succeeded",
  SUM(unknown) AS "timed_out_unknown",
  SUM(starts) AS "intents",
  CAST(NULL AS BIGINT) AS "keyed_intents",
  COUNT(key_text) AS "keyed_attempts",
  CAST(NULL AS BIGINT) AS "max_attempts",
  CAST(NULL AS BIGINT) AS "first_us",
  CAST(NULL AS BIGINT) AS "last_us",
  CAST(NULL AS BIGINT) AS "response_rows",
  CAST(NULL AS BIGINT) AS "response_bytes",
  CAST(NULL AS VARCHAR) AS "roles",
  CAST(NULL AS VARCHAR) AS "methods",
  CAST(NULL AS VARCHAR) AS "timeout_statuses",
  CAST(NULL AS BIGINT) AS "retry_window_us",
  CAST(NULL AS BIGINT) AS "attempts",
  CAST(NULL AS BIGINT) AS "timed_out_intents",
  CAST(NULL AS BIGINT) AS "matched",
  CAST(NULL AS BIGINT) AS "matched_succeeded",
  CAST(NULL AS BIGINT) AS "never_reached",
  CAST(NULL AS BIGINT) AS "outside_span",
  CAST(NULL AS BIGINT) AS "without_id",
  CAST(NULL AS BIGINT) AS "backend_rows",
  CAST(NULL AS BIGINT) AS "backend_bad_rows",
  CAST(NULL AS BIGINT) AS "backend_first_us",
  CAST(NULL AS BIGINT) AS "backend_last_us",
  CAST(NULL AS BIGINT) AS "duplicates",
  CAST(NULL AS BIGINT) AS "duplicates_upstream_2xx",
  CAST(NULL AS BIGINT) AS "duplicates_outcomes",
  CAST(NULL AS VARCHAR) AS "flags_style",
  CAST(NULL AS VARCHAR) AS "grouping",
  CAST(NULL AS BIGINT) AS "fingerprinted_intents",
  CAST(NULL AS BIGINT) AS "fingerprinted_attempts",
  CAST(NULL AS BIGINT) AS "fingerprinted_timed_out_intents",
  CAST(NULL AS BIGINT) AS "shared_fingerprints",
  CAST(NULL AS BIGINT) AS "shared_attempts",
  CAST(NULL AS BIGINT) AS "shared_address_rate",
  CAST(NULL AS BIGINT) AS "conflicts_409_422",
  CAST(NULL AS BIGINT) AS "client_timeout_us",
  CAST(NULL AS VARCHAR) AS "log_side",
  CAST(NULL AS BIGINT) AS "processed_twice_intents",
  CAST(NULL AS BIGINT) AS "processed_twice_extra",
  CAST(NULL AS BIGINT) AS "fingerprint_ties"
FROM folded
GROUP BY ep_method, ep_route
UNION ALL
SELECT
  'attempts' AS "kind",
  CAST(NULL AS VARCHAR) AS "day",
  CAST(NULL AS VARCHAR) AS "method",
  CAST(NULL AS VARCHAR) AS "route",
  CAST(NULL AS BIGINT) AS "rows",
  CAST(NULL AS BIGINT) AS "bad_rows",
  CAST(NULL AS BIGINT) AS "out_of_range",
  CAST(NULL AS BIGINT) AS "path_filtered",
  CAST(NULL AS BIGINT) AS "mutating",
  CAST(NULL AS BIGINT) AS "timed_out",
  CAST(NULL AS BIGINT) AS "timed_out_succeeded",
  CAST(NULL AS BIGINT) AS "timed_out_unknown",
  COUNT(*) AS "intents",
  CAST(NULL AS BIGINT) AS "keyed_intents",
  CAST(NULL AS BIGINT) AS "keyed_attempts",
  CAST(NULL AS BIGINT) AS "max_attempts",
  CAST(NULL AS BIGINT) AS "first_us",
  CAST(NULL AS BIGINT) AS "last_us",
  CAST(NULL AS BIGINT) AS "response_rows",
  CAST(NULL AS BIGINT) AS "response_bytes",
  CAST(NULL AS VARCHAR) AS "roles",
  CAST(NULL AS VARCHAR) AS "methods",
  CAST(NULL AS VARCHAR) AS "timeout_statuses",
  CAST(NULL AS BIGINT) AS "retry_window_us",
  CAST(attempts AS BIGINT) AS "attempts",
  CAST(NULL AS BIGINT) AS "timed_out_intents",
  CAST(NULL AS BIGINT) AS "matched",
  CAST(NULL AS BIGINT) AS "matched_succeeded",
  CAST(NULL AS BIGINT) AS "never_reached",
  CAST(NULL AS BIGINT) AS "outside_span",
  CAST(NULL AS BIGINT) AS "without_id",
  CAST(NULL AS BIGINT) AS "backend_rows",
  CAST(NULL AS BIGINT) AS "backend_bad_rows",
  CAST(NULL AS BIGINT) AS "backend_first_us",
  CAST(NULL AS BIGINT) AS "backend_last_us",
  CAST(NULL AS BIGINT) AS "duplicates",
  CAST(NULL AS BIGINT) AS "duplicates_upstream_2xx",
  CAST(NULL AS BIGINT) AS "duplicates_outcomes",
  CAST(NULL AS VARCHAR) AS "flags_style",
  CAST(NULL AS VARCHAR) AS "grouping",
  CAST(NULL AS BIGINT) AS "fingerprinted_intents",
  CAST(NULL AS BIGINT) AS "fingerprinted_attempts",
  CAST(NULL AS BIGINT) AS "fingerprinted_timed_out_intents",
  CAST(NULL AS BIGINT) AS "shared_fingerprints",
  CAST(NULL AS BIGINT) AS "shared_attempts",
  CAST(NULL AS BIGINT) AS "shared_address_rate",
  CAST(NULL AS BIGINT) AS "conflicts_409_422",
  CAST(NULL AS BIGINT) AS "client_timeout_us",
  CAST(NULL AS VARCHAR) AS "log_side",
  CAST(NULL AS BIGINT) AS "processed_twice_intents",
  CAST(NULL AS BIGINT) AS "processed_twice_extra",
  CAST(NULL AS BIGINT) AS "fingerprint_ties"
FROM per_intent
GROUP BY attempts
) result
ORDER BY "kind" DESC, "day", "method", "route", "attempts"
