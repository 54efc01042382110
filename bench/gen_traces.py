"""OTLP/JSON lines as the Collector's file exporter writes them, for bench/formats.sh:
one ExportTraceServiceRequest a line, 512 spans a batch, two services (checkout: a root span
and its CLIENT POSTs; orders: the SERVER spans), attributes as the Python SDK writes them
with the stable HTTP names. One intent in ten times out once and is resent.

    python3 bench/gen_traces.py OUT.jsonl TRACES
"""

import json
import random
import sys

out, traces = sys.argv[1], int(sys.argv[2])
rng = random.Random(7)
T0 = 1_764_547_200 * 10**9


def s(k, v):
    return {"key": k, "value": {"stringValue": v}}


def i(k, v):
    return {"key": k, "value": {"intValue": str(v)}}


def resource(service):
    return {"attributes": [s("telemetry.sdk.language", "python"), s("telemetry.sdk.name", "opentelemetry"),
                           s("telemetry.sdk.version", "1.45.2"), s("service.name", service)]}


def span(tid, sid, parent, kind, start, end, attrs, events=None, status=None):
    d = {"traceId": tid, "spanId": sid, "name": "POST" if kind != 1 else "place order", "kind": kind,
         "startTimeUnixNano": str(start), "endTimeUnixNano": str(end), "attributes": attrs, "status": status or {}, "flags": 256}
    if parent:
        d["parentSpanId"] = parent
    if events:
        d["events"] = events
    return d


client, server = [], []
with open(out, "w") as f:
    def flush(force=False):
        for name, batch in (("checkout", client), ("orders", server)):
            if batch and (force or len(batch) >= 512):
                doc = {"resourceSpans": [{"resource": resource(name), "scopeSpans": [
                    {"scope": {"name": "opentelemetry.instrumentation.requests", "version": "0.66b2"}, "spans": batch[:]}]}]}
                f.write(json.dumps(doc, separators=(",", ":")) + "\n")
                batch.clear()

    for n in range(traces):
        tid = "%032x" % rng.getrandbits(128)
        root = "%016x" % rng.getrandbits(64)
        t = T0 + n * 50_000_000
        order = rng.randrange(10**6)
        sends = 2 if rng.random() < 0.1 else 1
        for a in range(sends):
            cid, sid = "%016x" % rng.getrandbits(64), "%016x" % rng.getrandbits(64)
            start = t + a * 300_000_000
            timed_out = a + 1 < sends
            attrs = [s("http.request.method", "POST"), s("url.full", f"http://orders:8080/orders/{order}"),
                     s("server.address", "orders"), i("server.port", 8080), s("user_agent.original", "python-requests/2.34.2")]
            events = None
            if timed_out:
                attrs.append(s("error.type", "requests.exceptions.ReadTimeout"))
                events = [{"timeUnixNano": str(start + 250_000_000), "name": "exception", "attributes": [
                    s("exception.type", "requests.exceptions.ReadTimeout"),
                    s("exception.message", "HTTPConnectionPool(host='orders', port=8080): Read timed out. (read timeout=0.25)"),
                    s("exception.escaped", "False")]}]
            else:
                attrs.append(i("http.response.status_code", 201))
            client.append(span(tid, cid, root, 3, start, start + (250_000_000 if timed_out else 8_000_000), attrs, events,
                               {"code": 2} if timed_out else None))
            server.append(span(tid, sid, cid, 2, start + 1_000_000, start + (450_000_000 if timed_out else 7_000_000),
                               [s("http.request.method", "POST"), s("url.scheme", "http"), s("url.path", f"/orders/{order}"),
                                s("http.route", "/orders/{id}"), s("network.peer.address", "10.0.0.7"), i("network.peer.port", 51234),
                                s("server.address", "orders"), i("server.port", 8080), s("user_agent.original", "python-requests/2.34.2"),
                                i("http.response.status_code", 201)]))
        client.append(span(tid, root, None, 1, t, t + sends * 300_000_000, []))
        flush()
    flush(True)
