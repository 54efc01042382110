//! `--preset otel-traces`: the OpenTelemetry Collector's ClickHouse exporter's table
//! (`otel_traces`: Timestamp, TraceId, SpanId, ParentSpanId, TraceState, SpanKind,
//! SpanAttributes Map(String, String), Duration in ns, StatusCode, Events.Name,
//! Events.Attributes, ...) read as the attempts `dupcost logs` reads from traces
//! (src/logs/traces): each CLIENT span with its SERVER spans under it, one row with the
//! columns of the generic table, so the query that follows is the one every table gets.
//!
//! The exporter writes `SpanKind` as `SPAN_KIND_CLIENT` in its older versions and `Client` in
//! newer ones; both are read. Attributes are strings in the map (a captured header's array as
//! its JSON, `["k-1"]`). The rules are those of src/logs/traces/assemble.rs, but two: the
//! server's answer is that of a SERVER span directly under the attempt (not one further
//! down), and an attempt without one is unknown (the file reader tells, in whole traces, the
//! ones that never arrived); intents are the sends of one method and path under one parent
//! span (or the captured key), without `http.request.resend_count`'s first sends, and not
//! split by a 2xx answer or by sends in flight at once.

/// The attempts of the exporter's `table`, as a derived table (ClickHouse SQL).
pub fn attempts(table: &str) -> String {
    let attr = |a: &str, b: &str| {
        format!("if(SpanAttributes['{a}'] != '', SpanAttributes['{a}'], SpanAttributes['{b}'])")
    };
    let status = attr("http.response.status_code", "http.status_code");
    let timeout = "'timeout|timed out|timedout|deadline'";
    let key = attr(
        "http.request.header.idempotency-key",
        "http.request.header.idempotency_key",
    );
    format!(
        "(
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
        upper({method}) AS method,
        {status} AS status,
        multiIf(SpanAttributes['url.path'] != '', SpanAttributes['url.path'],
          SpanAttributes['http.target'] != '', SpanAttributes['http.target'],
          pathFull({url})) AS path,
        match(lower(SpanAttributes['error.type']), {timeout})
          OR arrayExists((n, a) -> n = 'exception' AND match(lower(a['exception.type']), {timeout}),
            Events.Name, Events.Attributes) AS timed_out,
        if(startsWith({key}, '['), JSONExtractString({key}, 1), {key}) AS key
      FROM {table}
      WHERE SpanKind IN ('Client', 'SPAN_KIND_CLIENT')
    ) AS c
    LEFT JOIN (
      SELECT TraceId, ParentSpanId,
        argMax(st, (startsWith(st, '2'), st != '')) AS status
      FROM (
        SELECT TraceId, ParentSpanId, {status} AS st
        FROM {table}
        WHERE SpanKind IN ('Server', 'SPAN_KIND_SERVER')
      )
      GROUP BY TraceId, ParentSpanId
    ) AS s ON s.TraceId = c.TraceId AND s.ParentSpanId = c.SpanId
  ) AS attempts",
        method = attr("http.request.method", "http.method"),
        url = attr("url.full", "http.url"),
    )
}
