-- dupcost sql --engine bigquery: the figures `dupcost logs` measures, for `dupcost estimate --observed FILE`
-- --client-timeout 1.5s: the duration column duration_ms is read in ms, from its name (--duration-unit overrides it); a value that writes its unit (1m30s) is read in that
WITH src AS (
  SELECT
    CAST(`timestamp` AS STRING) AS ts_text,
    REGEXP_REPLACE(CAST(`status` AS STRING), '^[ \\t\\n\\r\\f]+|[ \\t\\n\\r\\f]+$', '') AS status_text,
    upper(REGEXP_REPLACE(CAST(`method` AS STRING), '^[ \\t\\n\\r\\f]+|[ \\t\\n\\r\\f]+$', '')) AS method_text,
    COALESCE(REGEXP_REPLACE(CAST(`path` AS STRING), '^[ \\t\\n\\r\\f]+|[ \\t\\n\\r\\f]+$', ''), '') AS path_text,
    CAST(`upstream_status` AS STRING) AS upstream_text,
    CAST(NULL AS STRING) AS key_text,
    REGEXP_REPLACE(CAST(`bytes` AS STRING), '^[ \\t\\n\\r\\f]+|[ \\t\\n\\r\\f]+$', '') AS bytes_text,
    COALESCE(CAST(NULL AS STRING), CASE WHEN REGEXP_REPLACE(CAST(`client_addr` AS STRING), '^[ \\t\\n\\r\\f]+|[ \\t\\n\\r\\f]+$', '') <> '' AND REGEXP_REPLACE(CAST(`client_addr` AS STRING), '^[ \\t\\n\\r\\f]+|[ \\t\\n\\r\\f]+$', '') <> '-' THEN REGEXP_REPLACE(CAST(`client_addr` AS STRING), '^[ \\t\\n\\r\\f]+|[ \\t\\n\\r\\f]+$', '') END) AS client_raw,
    COALESCE(REGEXP_REPLACE(CAST(`user_agent` AS STRING), '^[ \\t\\n\\r\\f]+|[ \\t\\n\\r\\f]+$', ''), '') AS ua_text,
    COALESCE(REGEXP_REPLACE(CAST(`request_length` AS STRING), '^[ \\t\\n\\r\\f]+|[ \\t\\n\\r\\f]+$', ''), '') AS len_text,
    CAST(duration_ms AS STRING) AS duration_text
  FROM logs
),
parsed AS (
  SELECT CASE WHEN REGEXP_CONTAINS(ts_text, '^[0-9]{2}/[A-Za-z]{3}/[0-9]{4}:') THEN UNIX_MICROS(SAFE.PARSE_TIMESTAMP('%d/%b/%Y:%H:%M:%S %z', ts_text)) ELSE UNIX_MICROS(SAFE_CAST(ts_text AS TIMESTAMP)) END AS ts, CASE WHEN REGEXP_CONTAINS(status_text, '^[0-9]{1,3}$') THEN CAST(status_text AS INT64) WHEN status_text = '-1' THEN 0 END AS status, method_text, path_text, upstream_text, key_text, bytes_text, client_raw, ua_text, len_text, duration_text
  FROM src
),
good AS (
  SELECT *, CASE WHEN 1 = 1 THEN 1 ELSE 0 END AS in_range
  FROM parsed
  WHERE ts IS NOT NULL AND status IS NOT NULL
),
mutating AS (
  SELECT ts, method_text AS method, status, upstream_text, key_text, bytes_text, client_raw, ua_text, len_text, path_text, duration_text,
    REGEXP_EXTRACT(CASE WHEN REGEXP_CONTAINS(path_text, '^([^/].*?)?://') THEN CASE WHEN REGEXP_CONTAINS(REGEXP_REPLACE(path_text, '^([^/].*?)?://', ''), '/') THEN REGEXP_REPLACE(REGEXP_REPLACE(path_text, '^([^/].*?)?://', ''), '^[^/]*', '') ELSE '/' END ELSE path_text END, '^[^?#]*') AS path_only
  FROM good
  WHERE in_range = 1 AND method_text IN ('POST', 'PUT', 'PATCH', 'DELETE')
),
filtered AS (
  SELECT *, 1 AS path_ok FROM mutating
),
attempts AS (
  SELECT ts, CAST(floor(ts / 86400000000.0) AS INT64) AS day, method, concat('/', ARRAY_TO_STRING(ARRAY(SELECT CASE WHEN (REGEXP_CONTAINS(seg, '[0-9]') AND ((REGEXP_CONTAINS(seg, '^[0-9a-fA-F]+$') AND (length(seg) >= 8 OR REGEXP_CONTAINS(seg, '^[0-9]+$'))) OR REGEXP_CONTAINS(seg, '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$') OR (REGEXP_CONTAINS(seg, '^([A-Za-z]{0,8}_)?[A-Za-z0-9]*[A-Za-z][A-Za-z0-9]*$') AND length(REGEXP_REPLACE(seg, '^[A-Za-z]{0,8}_', '')) >= 16))) THEN '{id}' ELSE seg END FROM UNNEST(SPLIT(path_only, '/')) AS seg WITH OFFSET AS o WHERE seg != '' ORDER BY o), '/')) AS route,
    status, CASE WHEN status IN (0, 408, 460, 499, 504) THEN 1 WHEN REGEXP_CONTAINS(duration_text, '^[ \\t\\n\\r\\f]*[-+]?([0-9]+([.][0-9]+)?|[.][0-9]+|([0-9]+([.][0-9]*)?|[.][0-9]+)[eE][+-]?[0-9]+)s[ \\t\\n\\r\\f]*$') AND ABS((SELECT SUM(CAST(p AS FLOAT64)) FROM UNNEST(SPLIT(REPLACE(REGEXP_REPLACE(duration_text, '[ \\t\\n\\r\\fs+]', ''), ':', ','), ',')) AS p)) <= 1.7976931348623157e308 AND (SELECT SUM(CAST(p AS FLOAT64)) FROM UNNEST(SPLIT(REPLACE(REGEXP_REPLACE(duration_text, '[ \\t\\n\\r\\fs+]', ''), ':', ','), ',')) AS p) >= 1.5 THEN 1 WHEN REGEXP_CONTAINS(duration_text, '^[ \\t\\n\\r\\f]*([-+]?([0-9]+([.][0-9]+)?|[.][0-9]+|([0-9]+([.][0-9]*)?|[.][0-9]+)[eE][+-]?[0-9]+)s|[-+]?([0-9]+([.][0-9]*)?|[.][0-9]+)([eE][+-]?[0-9]+)?)[ \\t\\n\\r\\f]*([,:][ \\t\\n\\r\\f]*([-+]?([0-9]+([.][0-9]+)?|[.][0-9]+|([0-9]+([.][0-9]*)?|[.][0-9]+)[eE][+-]?[0-9]+)s|[-+]?([0-9]+([.][0-9]*)?|[.][0-9]+)([eE][+-]?[0-9]+)?)[ \\t\\n\\r\\f]*)*$') AND NOT REGEXP_CONTAINS(duration_text, '^[ \\t\\n\\r\\f]*[-+]?([0-9]+([.][0-9]+)?|[.][0-9]+|([0-9]+([.][0-9]*)?|[.][0-9]+)[eE][+-]?[0-9]+)s[ \\t\\n\\r\\f]*$') AND ABS((SELECT SUM(CAST(p AS FLOAT64)) FROM UNNEST(SPLIT(REPLACE(REGEXP_REPLACE(duration_text, '[ \\t\\n\\r\\fs+]', ''), ':', ','), ',')) AS p)) <= 1.7976931348623157e308 AND (SELECT SUM(CAST(p AS FLOAT64)) FROM UNNEST(SPLIT(REPLACE(REGEXP_REPLACE(duration_text, '[ \\t\\n\\r\\fs+]', ''), ':', ','), ',')) AS p) >= 1500.0 THEN 1 WHEN REGEXP_CONTAINS(duration_text, '^[ \\t\\n\\r\\f]*([0-9]+([.][0-9]+)?h)?([0-9]+([.][0-9]+)?m)?([0-9]+([.][0-9]+)?s)?([0-9]+([.][0-9]+)?ms)?([0-9]+([.][0-9]+)?(us|µs|μs))?([0-9]+([.][0-9]+)?ns)?[ \\t\\n\\r\\f]*$') AND REGEXP_CONTAINS(duration_text, '[0-9]') AND NOT REGEXP_CONTAINS(duration_text, '^[ \\t\\n\\r\\f]*([-+]?([0-9]+([.][0-9]+)?|[.][0-9]+|([0-9]+([.][0-9]*)?|[.][0-9]+)[eE][+-]?[0-9]+)s|[-+]?([0-9]+([.][0-9]*)?|[.][0-9]+)([eE][+-]?[0-9]+)?)[ \\t\\n\\r\\f]*([,:][ \\t\\n\\r\\f]*([-+]?([0-9]+([.][0-9]+)?|[.][0-9]+|([0-9]+([.][0-9]*)?|[.][0-9]+)[eE][+-]?[0-9]+)s|[-+]?([0-9]+([.][0-9]*)?|[.][0-9]+)([eE][+-]?[0-9]+)?)[ \\t\\n\\r\\f]*)*$') AND ABS((CASE WHEN REGEXP_CONTAINS(duration_text, '[0-9.]+h') THEN CAST(REGEXP_REPLACE(REGEXP_EXTRACT(duration_text, '[0-9.]+h'), 'h', '') AS FLOAT64) * 3600 ELSE 0 END + CASE WHEN REGEXP_CONTAINS(REGEXP_REPLACE(duration_text, '[0-9.]+ms', ''), '[0-9.]+m') THEN CAST(REGEXP_REPLACE(REGEXP_EXTRACT(REGEXP_REPLACE(duration_text, '[0-9.]+ms', ''), '[0-9.]+m'), 'm', '') AS FLOAT64) * 60 ELSE 0 END + CASE WHEN REGEXP_CONTAINS(duration_text, '[0-9.]+s') THEN CAST(REGEXP_REPLACE(REGEXP_EXTRACT(duration_text, '[0-9.]+s'), 's', '') AS FLOAT64) ELSE 0 END + CASE WHEN REGEXP_CONTAINS(duration_text, '[0-9.]+ms') THEN CAST(REGEXP_REPLACE(REGEXP_EXTRACT(duration_text, '[0-9.]+ms'), 'ms', 'e-3') AS FLOAT64) ELSE 0 END + CASE WHEN REGEXP_CONTAINS(duration_text, '[0-9.]+(?:us|µs|μs)') THEN CAST(REGEXP_REPLACE(REGEXP_EXTRACT(duration_text, '[0-9.]+(?:us|µs|μs)'), '(?:us|µs|μs)', 'e-6') AS FLOAT64) ELSE 0 END + CASE WHEN REGEXP_CONTAINS(duration_text, '[0-9.]+ns') THEN CAST(REGEXP_REPLACE(REGEXP_EXTRACT(duration_text, '[0-9.]+ns'), 'ns', 'e-9') AS FLOAT64) ELSE 0 END)) <= 1.7976931348623157e308 AND (CASE WHEN REGEXP_CONTAINS(duration_text, '[0-9.]+h') THEN CAST(REGEXP_REPLACE(REGEXP_EXTRACT(duration_text, '[0-9.]+h'), 'h', '') AS FLOAT64) * 3600 ELSE 0 END + CASE WHEN REGEXP_CONTAINS(REGEXP_REPLACE(duration_text, '[0-9.]+ms', ''), '[0-9.]+m') THEN CAST(REGEXP_REPLACE(REGEXP_EXTRACT(REGEXP_REPLACE(duration_text, '[0-9.]+ms', ''), '[0-9.]+m'), 'm', '') AS FLOAT64) * 60 ELSE 0 END + CASE WHEN REGEXP_CONTAINS(duration_text, '[0-9.]+s') THEN CAST(REGEXP_REPLACE(REGEXP_EXTRACT(duration_text, '[0-9.]+s'), 's', '') AS FLOAT64) ELSE 0 END + CASE WHEN REGEXP_CONTAINS(duration_text, '[0-9.]+ms') THEN CAST(REGEXP_REPLACE(REGEXP_EXTRACT(duration_text, '[0-9.]+ms'), 'ms', 'e-3') AS FLOAT64) ELSE 0 END + CASE WHEN REGEXP_CONTAINS(duration_text, '[0-9.]+(?:us|µs|μs)') THEN CAST(REGEXP_REPLACE(REGEXP_EXTRACT(duration_text, '[0-9.]+(?:us|µs|μs)'), '(?:us|µs|μs)', 'e-6') AS FLOAT64) ELSE 0 END + CASE WHEN REGEXP_CONTAINS(duration_text, '[0-9.]+ns') THEN CAST(REGEXP_REPLACE(REGEXP_EXTRACT(duration_text, '[0-9.]+ns'), 'ns', 'e-9') AS FLOAT64) ELSE 0 END) >= 1.5 THEN 1 ELSE 0 END AS timed_out,
    CASE WHEN REGEXP_CONTAINS(REGEXP_REPLACE(REGEXP_EXTRACT(upstream_text, '[^,:]*$'), '^[ \\t\\n\\r\\f]+|[ \\t\\n\\r\\f]+$', ''), '^[0-9]{1,3}$') THEN CAST(REGEXP_REPLACE(REGEXP_EXTRACT(upstream_text, '[^,:]*$'), '^[ \\t\\n\\r\\f]+|[ \\t\\n\\r\\f]+$', '') AS INT64) END AS upstream,
    CASE WHEN key_text <> '' AND key_text <> '-' THEN key_text END AS key_text,
    CASE WHEN status BETWEEN 200 AND 299 AND REGEXP_CONTAINS(bytes_text, '^[+]?[0-9]{1,18}$') THEN CAST(REGEXP_REPLACE(bytes_text, '^[+]', '') AS INT64) END AS response_bytes,
    CASE WHEN REGEXP_CONTAINS(client_raw, '^\\[') THEN REGEXP_REPLACE(client_raw, '^\\[|\\].*$', '') WHEN REGEXP_CONTAINS(client_raw, '^[^:]*:[^:]*$') THEN REGEXP_REPLACE(client_raw, ':[^:]*$', '') ELSE client_raw END AS client_text,
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
    CAST(floor(ts / 60000000.0) AS INT64) AS minute
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
  'total' AS `kind`,
  CAST(NULL AS STRING) AS `day`,
  CAST(NULL AS STRING) AS `method`,
  CAST(NULL AS STRING) AS `route`,
  r.n_rows AS `rows`,
  r.n_bad AS `bad_rows`,
  g.n_out AS `out_of_range`,
  m.n_path_filtered AS `path_filtered`,
  a.n_mutating AS `mutating`,
  a.n_timed_out AS `timed_out`,
  a.n_succeeded AS `timed_out_succeeded`,
  a.n_unknown AS `timed_out_unknown`,
  a.n_intents AS `intents`,
  a.n_keyed_intents AS `keyed_intents`,
  a.n_keyed_attempts AS `keyed_attempts`,
  p.n_max_attempts AS `max_attempts`,
  g.first_us AS `first_us`,
  g.last_us AS `last_us`,
  a.n_response_rows AS `response_rows`,
  a.n_response_bytes AS `response_bytes`,
  'timestamp,method,path,status,upstream_status,idempotency_key,bytes,client_addr,user_agent,request_length,duration' AS `roles`,
  'POST,PUT,PATCH,DELETE' AS `methods`,
  '0,408,460,499,504' AS `timeout_statuses`,
  CAST(3600000000 AS INT64) AS `retry_window_us`,
  CAST(NULL AS INT64) AS `attempts`,
  0 AS `timed_out_intents`,
  CAST(NULL AS INT64) AS `matched`,
  CAST(NULL AS INT64) AS `matched_succeeded`,
  CAST(NULL AS INT64) AS `never_reached`,
  CAST(NULL AS INT64) AS `outside_span`,
  CAST(NULL AS INT64) AS `without_id`,
  CAST(NULL AS INT64) AS `backend_rows`,
  CAST(NULL AS INT64) AS `backend_bad_rows`,
  CAST(NULL AS INT64) AS `backend_first_us`,
  CAST(NULL AS INT64) AS `backend_last_us`,
  p.n_duplicates AS `duplicates`,
  p.n_duplicates_upstream AS `duplicates_upstream_2xx`,
  p.n_duplicates_backend AS `duplicates_outcomes`,
  CAST(NULL AS STRING) AS `flags_style`,
  'fingerprint' AS `grouping`,
  p.n_grouped AS `fingerprinted_intents`,
  p.n_grouped_attempts AS `fingerprinted_attempts`,
  p.n_timed_out_intents AS `fingerprinted_timed_out_intents`,
  sh.n_shared_fingerprints AS `shared_fingerprints`,
  sh.n_shared_attempts AS `shared_attempts`,
  CAST(12 AS INT64) AS `shared_address_rate`,
  p.n_conflicts AS `conflicts_409_422`,
  CAST(1500000 AS INT64) AS `client_timeout_us`,
  'proxy' AS `log_side`,
  CAST(NULL AS INT64) AS `processed_twice_intents`,
  CAST(NULL AS INT64) AS `processed_twice_extra`,
  sh.n_ties AS `fingerprint_ties`
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
  'day' AS `kind`,
  CAST(DATE_ADD(DATE '1970-01-01', INTERVAL day DAY) AS STRING) AS `day`,
  CAST(NULL AS STRING) AS `method`,
  CAST(NULL AS STRING) AS `route`,
  CAST(NULL AS INT64) AS `rows`,
  CAST(NULL AS INT64) AS `bad_rows`,
  CAST(NULL AS INT64) AS `out_of_range`,
  CAST(NULL AS INT64) AS `path_filtered`,
  COUNT(*) AS `mutating`,
  SUM(timed_out) AS `timed_out`,
  SUM(succeeded) AS `timed_out_succeeded`,
  SUM(unknown) AS `timed_out_unknown`,
  CAST(NULL AS INT64) AS `intents`,
  CAST(NULL AS INT64) AS `keyed_intents`,
  COUNT(key_text) AS `keyed_attempts`,
  CAST(NULL AS INT64) AS `max_attempts`,
  CAST(NULL AS INT64) AS `first_us`,
  CAST(NULL AS INT64) AS `last_us`,
  CAST(NULL AS INT64) AS `response_rows`,
  CAST(NULL AS INT64) AS `response_bytes`,
  CAST(NULL AS STRING) AS `roles`,
  CAST(NULL AS STRING) AS `methods`,
  CAST(NULL AS STRING) AS `timeout_statuses`,
  CAST(NULL AS INT64) AS `retry_window_us`,
  CAST(NULL AS INT64) AS `attempts`,
  CAST(NULL AS INT64) AS `timed_out_intents`,
  CAST(NULL AS INT64) AS `matched`,
  CAST(NULL AS INT64) AS `matched_succeeded`,
  CAST(NULL AS INT64) AS `never_reached`,
  CAST(NULL AS INT64) AS `outside_span`,
  CAST(NULL AS INT64) AS `without_id`,
  CAST(NULL AS INT64) AS `backend_rows`,
  CAST(NULL AS INT64) AS `backend_bad_rows`,
  CAST(NULL AS INT64) AS `backend_first_us`,
  CAST(NULL AS INT64) AS `backend_last_us`,
  CAST(NULL AS INT64) AS `duplicates`,
  CAST(NULL AS INT64) AS `duplicates_upstream_2xx`,
  CAST(NULL AS INT64) AS `duplicates_outcomes`,
  CAST(NULL AS STRING) AS `flags_style`,
  CAST(NULL AS STRING) AS `grouping`,
  CAST(NULL AS INT64) AS `fingerprinted_intents`,
  CAST(NULL AS INT64) AS `fingerprinted_attempts`,
  CAST(NULL AS INT64) AS `fingerprinted_timed_out_intents`,
  CAST(NULL AS INT64) AS `shared_fingerprints`,
  CAST(NULL AS INT64) AS `shared_attempts`,
  CAST(NULL AS INT64) AS `shared_address_rate`,
  CAST(NULL AS INT64) AS `conflicts_409_422`,
  CAST(NULL AS INT64) AS `client_timeout_us`,
  CAST(NULL AS STRING) AS `log_side`,
  CAST(NULL AS INT64) AS `processed_twice_intents`,
  CAST(NULL AS INT64) AS `processed_twice_extra`,
  CAST(NULL AS INT64) AS `fingerprint_ties`
FROM outcomes
GROUP BY day
UNION ALL
SELECT
  'endpoint' AS `kind`,
  CAST(NULL AS STRING) AS `day`,
  ep_method AS `method`,
  ep_route AS `route`,
  CAST(NULL AS INT64) AS `rows`,
  CAST(NULL AS INT64) AS `bad_rows`,
  CAST(NULL AS INT64) AS `out_of_range`,
  CAST(NULL AS INT64) AS `path_filtered`,
  COUNT(*) AS `mutating`,
  SUM(timed_out) AS `timed_out`,
  SUM(succeeded) AS `timed_out_succeeded`,
  SUM(unknown) AS `timed_out_unknown`,
  SUM(starts) AS `intents`,
  CAST(NULL AS INT64) AS `keyed_intents`,
  COUNT(key_text) AS `keyed_attempts`,
  CAST(NULL AS INT64) AS `max_attempts`,
  CAST(NULL AS INT64) AS `first_us`,
  CAST(NULL AS INT64) AS `last_us`,
  CAST(NULL AS INT64) AS `response_rows`,
  CAST(NULL AS INT64) AS `response_bytes`,
  CAST(NULL AS STRING) AS `roles`,
  CAST(NULL AS STRING) AS `methods`,
  CAST(NULL AS STRING) AS `timeout_statuses`,
  CAST(NULL AS INT64) AS `retry_window_us`,
  CAST(NULL AS INT64) AS `attempts`,
  CAST(NULL AS INT64) AS `timed_out_intents`,
  CAST(NULL AS INT64) AS `matched`,
  CAST(NULL AS INT64) AS `matched_succeeded`,
  CAST(NULL AS INT64) AS `never_reached`,
  CAST(NULL AS INT64) AS `outside_span`,
  CAST(NULL AS INT64) AS `without_id`,
  CAST(NULL AS INT64) AS `backend_rows`,
  CAST(NULL AS INT64) AS `backend_bad_rows`,
  CAST(NULL AS INT64) AS `backend_first_us`,
  CAST(NULL AS INT64) AS `backend_last_us`,
  CAST(NULL AS INT64) AS `duplicates`,
  CAST(NULL AS INT64) AS `duplicates_upstream_2xx`,
  CAST(NULL AS INT64) AS `duplicates_outcomes`,
  CAST(NULL AS STRING) AS `flags_style`,
  CAST(NULL AS STRING) AS `grouping`,
  CAST(NULL AS INT64) AS `fingerprinted_intents`,
  CAST(NULL AS INT64) AS `fingerprinted_attempts`,
  CAST(NULL AS INT64) AS `fingerprinted_timed_out_intents`,
  CAST(NULL AS INT64) AS `shared_fingerprints`,
  CAST(NULL AS INT64) AS `shared_attempts`,
  CAST(NULL AS INT64) AS `shared_address_rate`,
  CAST(NULL AS INT64) AS `conflicts_409_422`,
  CAST(NULL AS INT64) AS `client_timeout_us`,
  CAST(NULL AS STRING) AS `log_side`,
  CAST(NULL AS INT64) AS `processed_twice_intents`,
  CAST(NULL AS INT64) AS `processed_twice_extra`,
  CAST(NULL AS INT64) AS `fingerprint_ties`
FROM folded
GROUP BY ep_method, ep_route
UNION ALL
SELECT
  'attempts' AS `kind`,
  CAST(NULL AS STRING) AS `day`,
  CAST(NULL AS STRING) AS `method`,
  CAST(NULL AS STRING) AS `route`,
  CAST(NULL AS INT64) AS `rows`,
  CAST(NULL AS INT64) AS `bad_rows`,
  CAST(NULL AS INT64) AS `out_of_range`,
  CAST(NULL AS INT64) AS `path_filtered`,
  CAST(NULL AS INT64) AS `mutating`,
  CAST(NULL AS INT64) AS `timed_out`,
  CAST(NULL AS INT64) AS `timed_out_succeeded`,
  CAST(NULL AS INT64) AS `timed_out_unknown`,
  COUNT(*) AS `intents`,
  CAST(NULL AS INT64) AS `keyed_intents`,
  CAST(NULL AS INT64) AS `keyed_attempts`,
  CAST(NULL AS INT64) AS `max_attempts`,
  CAST(NULL AS INT64) AS `first_us`,
  CAST(NULL AS INT64) AS `last_us`,
  CAST(NULL AS INT64) AS `response_rows`,
  CAST(NULL AS INT64) AS `response_bytes`,
  CAST(NULL AS STRING) AS `roles`,
  CAST(NULL AS STRING) AS `methods`,
  CAST(NULL AS STRING) AS `timeout_statuses`,
  CAST(NULL AS INT64) AS `retry_window_us`,
  CAST(attempts AS INT64) AS `attempts`,
  CAST(NULL AS INT64) AS `timed_out_intents`,
  CAST(NULL AS INT64) AS `matched`,
  CAST(NULL AS INT64) AS `matched_succeeded`,
  CAST(NULL AS INT64) AS `never_reached`,
  CAST(NULL AS INT64) AS `outside_span`,
  CAST(NULL AS INT64) AS `without_id`,
  CAST(NULL AS INT64) AS `backend_rows`,
  CAST(NULL AS INT64) AS `backend_bad_rows`,
  CAST(NULL AS INT64) AS `backend_first_us`,
  CAST(NULL AS INT64) AS `backend_last_us`,
  CAST(NULL AS INT64) AS `duplicates`,
  CAST(NULL AS INT64) AS `duplicates_upstream_2xx`,
  CAST(NULL AS INT64) AS `duplicates_outcomes`,
  CAST(NULL AS STRING) AS `flags_style`,
  CAST(NULL AS STRING) AS `grouping`,
  CAST(NULL AS INT64) AS `fingerprinted_intents`,
  CAST(NULL AS INT64) AS `fingerprinted_attempts`,
  CAST(NULL AS INT64) AS `fingerprinted_timed_out_intents`,
  CAST(NULL AS INT64) AS `shared_fingerprints`,
  CAST(NULL AS INT64) AS `shared_attempts`,
  CAST(NULL AS INT64) AS `shared_address_rate`,
  CAST(NULL AS INT64) AS `conflicts_409_422`,
  CAST(NULL AS INT64) AS `client_timeout_us`,
  CAST(NULL AS STRING) AS `log_side`,
  CAST(NULL AS INT64) AS `processed_twice_intents`,
  CAST(NULL AS INT64) AS `processed_twice_extra`,
  CAST(NULL AS INT64) AS `fingerprint_ties`
FROM per_intent
GROUP BY attempts
) result
ORDER BY `kind` DESC, `day`, `method`, `route`, `attempts`
