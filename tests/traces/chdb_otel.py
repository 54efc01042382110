"""Loads OTLP/JSON lines into chDB as the OpenTelemetry Collector's ClickHouse exporter
writes them (its `otel_traces` table), runs a query on it and writes the result as CSV.

    python chdb_otel.py SPANS.jsonl QUERY.sql OUT.csv old|new

`old`: SpanKind and StatusCode as the exporter's older versions write them
(SPAN_KIND_CLIENT, STATUS_CODE_ERROR); `new`: as newer ones do (Client, Error). Attribute
values become strings, as the exporter's attributesToMap makes them (an array: its JSON).
"""

import datetime
import json
import sys
import tempfile

from chdb import session

spans_path, query_path, out_path, mode = sys.argv[1:5]

TABLE = """CREATE TABLE t.otel_traces (
    Timestamp DateTime64(9),
    TraceId String,
    SpanId String,
    ParentSpanId String,
    TraceState String,
    SpanName LowCardinality(String),
    SpanKind LowCardinality(String),
    ServiceName LowCardinality(String),
    ResourceAttributes Map(LowCardinality(String), String),
    SpanAttributes Map(LowCardinality(String), String),
    Duration UInt64,
    StatusCode LowCardinality(String),
    StatusMessage String,
    Events Nested (
        Timestamp DateTime64(9),
        Name LowCardinality(String),
        Attributes Map(LowCardinality(String), String)
    ),
    Links Nested (
        TraceId String,
        SpanId String,
        TraceState String,
        Attributes Map(LowCardinality(String), String)
    )
) ENGINE = MergeTree ORDER BY (ServiceName, SpanName, toDateTime(Timestamp))"""

KINDS = {1: "Internal", 2: "Server", 3: "Client", 4: "Producer", 5: "Consumer"}
STATUSES = {0: "Unset", 1: "Ok", 2: "Error"}


def text(value):
    for k in ("stringValue", "intValue", "doubleValue"):
        if k in value:
            return str(value[k])
    if "boolValue" in value:
        return "true" if value["boolValue"] else "false"
    if "arrayValue" in value:
        return json.dumps([text(v) for v in value["arrayValue"].get("values", [])])
    return ""


def attrs(kvs):
    return {kv["key"]: text(kv.get("value", {})) for kv in kvs or []}


def when(ns):
    t = datetime.datetime.fromtimestamp(int(ns) // 10**9, datetime.timezone.utc)
    return t.strftime("%Y-%m-%d %H:%M:%S") + ".%09d" % (int(ns) % 10**9)


def kind(k):
    name = KINDS.get(k, "Unspecified")
    return name if mode == "new" else "SPAN_KIND_" + name.upper()


def status(code):
    name = STATUSES.get(code, "Unset")
    return name if mode == "new" else "STATUS_CODE_" + name.upper()


rows = []
with open(spans_path) as f:
    for line in f:
        if not line.strip():
            continue
        for rs in json.loads(line).get("resourceSpans", []):
            resource = attrs(rs.get("resource", {}).get("attributes"))
            for ss in rs.get("scopeSpans", []):
                for s in ss.get("spans", []):
                    events = s.get("events", [])
                    start, end = int(s["startTimeUnixNano"]), int(s["endTimeUnixNano"])
                    rows.append({
                        "Timestamp": when(start),
                        "TraceId": s["traceId"],
                        "SpanId": s["spanId"],
                        "ParentSpanId": s.get("parentSpanId", ""),
                        "TraceState": s.get("traceState", ""),
                        "SpanName": s.get("name", ""),
                        "SpanKind": kind(s.get("kind", 0)),
                        "ServiceName": resource.get("service.name", ""),
                        "ResourceAttributes": resource,
                        "SpanAttributes": attrs(s.get("attributes")),
                        "Duration": end - start,
                        "StatusCode": status(s.get("status", {}).get("code", 0)),
                        "StatusMessage": s.get("status", {}).get("message", ""),
                        "Events.Timestamp": [when(e.get("timeUnixNano", start)) for e in events],
                        "Events.Name": [e.get("name", "") for e in events],
                        "Events.Attributes": [attrs(e.get("attributes")) for e in events],
                        "Links.TraceId": [],
                        "Links.SpanId": [],
                        "Links.TraceState": [],
                        "Links.Attributes": [],
                    })

with tempfile.TemporaryDirectory() as path:
    data = f"{path}/spans.jsonl"
    with open(data, "w") as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")
    sess = session.Session(path + "/db")
    sess.query("CREATE DATABASE IF NOT EXISTS t")
    sess.query(TABLE)
    sess.query(
        f"INSERT INTO t.otel_traces SELECT * FROM file('{data}', 'JSONEachRow', "
        "'Timestamp DateTime64(9), TraceId String, SpanId String, ParentSpanId String, "
        "TraceState String, SpanName String, SpanKind String, ServiceName String, "
        "ResourceAttributes Map(String, String), SpanAttributes Map(String, String), "
        "Duration UInt64, StatusCode String, StatusMessage String, "
        "`Events.Timestamp` Array(DateTime64(9)), `Events.Name` Array(String), "
        "`Events.Attributes` Array(Map(String, String)), `Links.TraceId` Array(String), "
        "`Links.SpanId` Array(String), `Links.TraceState` Array(String), "
        "`Links.Attributes` Array(Map(String, String))')"
    )
    query = open(query_path).read()
    result = sess.query(query, "CSVWithNames")
    with open(out_path, "wb") as f:
        f.write(result.bytes())
    sess.close()
print(len(rows))
