-- dupcost sql --engine clickhouse: the figures `dupcost logs` measures, for `dupcost estimate --observed FILE`
WITH src AS (
  SELECT
    toString("timestamp") AS ts_text,
    replaceRegexpAll(toString("status"), '^[ \\t\\n\\r\\f]+|[ \\t\\n\\r\\f]+$', '') AS status_text,
    upper(replaceRegexpAll(toString("method"), '^[ \\t\\n\\r\\f]+|[ \\t\\n\\r\\f]+$', '')) AS method_text,
    COALESCE(replaceRegexpAll(toString("path"), '^[ \\t\\n\\r\\f]+|[ \\t\\n\\r\\f]+$', ''), '') AS path_text,
    toString("upstream_status") AS upstream_text,
    replaceRegexpAll(toString("idempotency_key"), '^[ \\t\\n\\r\\f]+|[ \\t\\n\\r\\f]+$', '') AS key_text,
    CAST(NULL AS Nullable(String)) AS bytes_text
  FROM (
    SELECT
      toString(c.Timestamp) AS timestamp,
      c.method AS method,
      c.path AS path,
      multiIf(c.status != '', c.status, c.timed_out, '0', '1') AS status,
      if(s.status = '', '-', s.status) AS upstream_status,
      multiIf(c.key != '', concat('key:', c.key),
        c.ParentSpanId = '', concat(c.TraceId, '-', c.SpanId),
        concat(c.TraceId, '-', c.ParentSpanId, '-', c.method, ' ', c.path)) AS idempotency_key,
      toString(if(c.status = '', c.Duration / 1000000, 0)) AS duration_ms
    FROM (
      SELECT Timestamp, TraceId, SpanId, ParentSpanId, Duration,
        upper(if(SpanAttributes['http.request.method'] != '', SpanAttributes['http.request.method'], SpanAttributes['http.method'])) AS method,
        if(SpanAttributes['http.response.status_code'] != '', SpanAttributes['http.response.status_code'], SpanAttributes['http.status_code']) AS status,
        multiIf(SpanAttributes['url.path'] != '', SpanAttributes['url.path'],
          SpanAttributes['http.target'] != '', SpanAttributes['http.target'],
          pathFull(if(SpanAttributes['url.full'] != '', SpanAttributes['url.full'], SpanAttributes['http.url']))) AS path,
        match(lower(SpanAttributes['error.type']), 'timeout|timed out|timedout|deadline')
          OR arrayExists((n, a) -> n = 'exception' AND match(lower(a['exception.type']), 'timeout|timed out|timedout|deadline'),
            Events.Name, Events.Attributes) AS timed_out,
        if(startsWith(if(SpanAttributes['http.request.header.idempotency-key'] != '', SpanAttributes['http.request.header.idempotency-key'], SpanAttributes['http.request.header.idempotency_key']), '['), JSONExtractString(if(SpanAttributes['http.request.header.idempotency-key'] != '', SpanAttributes['http.request.header.idempotency-key'], SpanAttributes['http.request.header.idempotency_key']), 1), if(SpanAttributes['http.request.header.idempotency-key'] != '', SpanAttributes['http.request.header.idempotency-key'], SpanAttributes['http.request.header.idempotency_key'])) AS key
      FROM logs
      WHERE SpanKind IN ('Client', 'SPAN_KIND_CLIENT')
    ) AS c
    LEFT JOIN (
      SELECT TraceId, ParentSpanId,
        argMax(st, (startsWith(st, '2'), st != '')) AS status
      FROM (
        SELECT TraceId, ParentSpanId, if(SpanAttributes['http.response.status_code'] != '', SpanAttributes['http.response.status_code'], SpanAttributes['http.status_code']) AS st
        FROM logs
        WHERE SpanKind IN ('Server', 'SPAN_KIND_SERVER')
      )
      GROUP BY TraceId, ParentSpanId
    ) AS s ON s.TraceId = c.TraceId AND s.ParentSpanId = c.SpanId
  ) AS attempts
),
parsed AS (
  SELECT CASE WHEN match(ts_text, '^[0-9]{2}/[A-Za-z]{3}/[0-9]{4}:') THEN toUnixTimestamp64Micro(toDateTime64(parseDateTimeOrNull(ts_text, '%d/%b/%Y:%H:%i:%s %z', 'UTC'), 6, 'UTC')) ELSE toUnixTimestamp64Micro(parseDateTime64BestEffortOrNull(ts_text, 6, 'UTC')) END AS ts, CASE WHEN match(status_text, '^[0-9]{1,3}$') THEN toInt64(status_text) WHEN status_text = '-1' THEN 0 END AS status, method_text, path_text, upstream_text, key_text, bytes_text
  FROM src
),
good AS (
  SELECT *, CASE WHEN 1 = 1 THEN 1 ELSE 0 END AS in_range
  FROM parsed
  WHERE ts IS NOT NULL AND status IS NOT NULL
),
mutating AS (
  SELECT ts, method_text AS method, status, upstream_text, key_text, bytes_text,
    extract(CASE WHEN match(path_text, '^([^/].*?)?://') THEN CASE WHEN match(replaceRegexpAll(path_text, '^([^/].*?)?://', ''), '/') THEN replaceRegexpAll(replaceRegexpAll(path_text, '^([^/].*?)?://', ''), '^[^/]*', '') ELSE '/' END ELSE path_text END, '^[^?#]*') AS path_only
  FROM good
  WHERE in_range = 1 AND method_text IN ('POST', 'PUT', 'PATCH', 'DELETE')
),
filtered AS (
  SELECT *, 1 AS path_ok FROM mutating
),
attempts AS (
  SELECT ts, toInt64(floor(ts / 86400000000.0)) AS day, method, concat('/', arrayStringConcat(arrayMap(seg -> CASE WHEN (match(seg, '[0-9]') AND ((match(seg, '^[0-9a-fA-F]+$') AND (length(seg) >= 8 OR match(seg, '^[0-9]+$'))) OR match(seg, '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$') OR (match(seg, '^([A-Za-z]{0,8}_)?[A-Za-z0-9]*[A-Za-z][A-Za-z0-9]*$') AND length(replaceRegexpAll(seg, '^[A-Za-z]{0,8}_', '')) >= 16))) THEN '{id}' ELSE seg END, arrayFilter(seg -> seg != '', splitByChar('/', path_only))), '/')) AS route,
    status, CASE WHEN status IN (0, 408, 460, 499, 504) THEN 1 ELSE 0 END AS timed_out,
    CASE WHEN match(replaceRegexpAll(extract(upstream_text, '[^,:]*$'), '^[ \\t\\n\\r\\f]+|[ \\t\\n\\r\\f]+$', ''), '^[0-9]{1,3}$') THEN toInt64(replaceRegexpAll(extract(upstream_text, '[^,:]*$'), '^[ \\t\\n\\r\\f]+|[ \\t\\n\\r\\f]+$', '')) END AS upstream,
    CASE WHEN key_text <> '' AND key_text <> '-' THEN key_text END AS key_text,
    CASE WHEN status BETWEEN 200 AND 299 AND match(bytes_text, '^[+]?[0-9]{1,18}$') THEN toInt64(replaceRegexpAll(bytes_text, '^[+]', '')) END AS response_bytes
  FROM filtered
  WHERE path_ok = 1
),
outcomes AS (
  SELECT *,
    CASE WHEN timed_out = 1 AND (upstream IS NULL OR upstream IN (0, 408, 460, 499, 502, 504) OR upstream = status) THEN 1 ELSE 0 END AS unknown,
    CASE WHEN timed_out = 1 AND NOT (upstream IS NULL OR upstream IN (0, 408, 460, 499, 502, 504) OR upstream = status) AND upstream BETWEEN 200 AND 299 THEN 1 ELSE 0 END AS succeeded,
    CASE WHEN timed_out = 1 THEN (CASE WHEN timed_out = 1 AND NOT (upstream IS NULL OR upstream IN (0, 408, 460, 499, 502, 504) OR upstream = status) AND upstream BETWEEN 200 AND 299 THEN 1 ELSE 0 END)
      WHEN status BETWEEN 200 AND 299 THEN 1 ELSE 0 END AS executed,
    CASE WHEN timed_out = 1 AND NOT (upstream IS NULL OR upstream IN (0, 408, 460, 499, 502, 504) OR upstream = status) AND upstream BETWEEN 200 AND 299 THEN 1 ELSE 0 END AS up_2xx,
    0 AS backend_2xx,
    CASE WHEN key_text IS NULL THEN 1
      WHEN LAG(ts) OVER (PARTITION BY key_text, method, route ORDER BY ts) IS NULL THEN 1
      WHEN ts - LAG(ts) OVER (PARTITION BY key_text, method, route ORDER BY ts) > 3600000000 THEN 1
      ELSE 0 END AS starts
  FROM attempts
),
numbered AS (
  SELECT key_text, method, route, timed_out, executed, up_2xx, backend_2xx,
    SUM(starts) OVER (PARTITION BY key_text, method, route ORDER BY ts RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS intent
  FROM outcomes
  WHERE key_text IS NOT NULL
),
per_intent AS (
  SELECT COUNT(*) AS attempts, MAX(timed_out) AS timed_out, SUM(executed) AS executions, MAX(up_2xx) AS up_2xx, MAX(backend_2xx) AS backend_2xx
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
  'timestamp,method,path,status,upstream_status,idempotency_key,duration' AS "roles",
  'POST,PUT,PATCH,DELETE' AS "methods",
  '0,408,460,499,504' AS "timeout_statuses",
  toInt64(3600000000) AS "retry_window_us",
  CAST(NULL AS Nullable(Int64)) AS "attempts",
  p.n_timed_out_intents AS "timed_out_intents",
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
  'key' AS "grouping",
  CAST(NULL AS Nullable(Int64)) AS "fingerprinted_intents",
  CAST(NULL AS Nullable(Int64)) AS "fingerprinted_attempts",
  CAST(NULL AS Nullable(Int64)) AS "fingerprinted_timed_out_intents",
  CAST(NULL AS Nullable(Int64)) AS "shared_fingerprints",
  CAST(NULL AS Nullable(Int64)) AS "shared_attempts",
  CAST(NULL AS Nullable(Int64)) AS "shared_address_rate",
  CAST(NULL AS Nullable(Int64)) AS "conflicts_409_422",
  CAST(NULL AS Nullable(Int64)) AS "client_timeout_us",
  'proxy' AS "log_side",
  CAST(NULL AS Nullable(Int64)) AS "processed_twice_intents",
  CAST(NULL AS Nullable(Int64)) AS "processed_twice_extra",
  CAST(NULL AS Nullable(Int64)) AS "fingerprint_ties"
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
    COALESCE(SUM(CASE WHEN executions >= 2 AND up_2xx = 0 AND backend_2xx = 1 THEN 1 ELSE 0 END), 0) AS n_duplicates_backend
  FROM per_intent
) p
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
