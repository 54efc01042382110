"""Real spans for tests/logs/traces.rs: an instrumented client and server on loopback.

The OpenTelemetry Python SDK with its `requests` (client) and WSGI (server) instrumentations;
the server is a threaded wsgiref server on 127.0.0.1. Each intent is one "place order"
span under which the client POSTs /orders/<n> with a read timeout, and sends again after a
timeout (at most 3 attempts): resends share their parent span, as the conventions say. Some
attempts are slow: the client gives up on them, and the server finishes them after it did
(answering 201, or 500 for some). Each service has its own tracer provider, exporting:

* OTLP/HTTP (protobuf) to a receiver here, written as OTLP/JSON the way the Collector's file
  exporter writes it: one ExportTraceServiceRequest a line, hex ids, enums as integers,
  64-bit integers as strings;
* Zipkin v2 JSON (opentelemetry-exporter-zipkin-json) to a receiver here, written as one
  JSON array of spans.

The figures the server and the client counted themselves go to truth.json.

    python spans.py OUT_DIR [old|new]

`old`: the instrumentations' default (older) attribute names (http.method, http.status_code,
http.url, the exception event); `new`: OTEL_SEMCONV_STABILITY_OPT_IN=http (the stable names,
error.type).
"""

import base64
import json
import os
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from socketserver import ThreadingMixIn
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

OUT = sys.argv[1]
MODE = sys.argv[2] if len(sys.argv) > 2 else "old"
if MODE == "new":
    os.environ["OTEL_SEMCONV_STABILITY_OPT_IN"] = "http"

# Imported after the opt-in is set: the instrumentations read it when they start.
import requests  # noqa: E402
from google.protobuf.json_format import MessageToDict  # noqa: E402
from opentelemetry import trace  # noqa: E402
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter  # noqa: E402
from opentelemetry.exporter.zipkin.json import ZipkinExporter  # noqa: E402
from opentelemetry.instrumentation.requests import RequestsInstrumentor  # noqa: E402
from opentelemetry.instrumentation.wsgi import OpenTelemetryMiddleware  # noqa: E402
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (  # noqa: E402
    ExportTraceServiceRequest,
)
from opentelemetry.sdk.resources import Resource  # noqa: E402
from opentelemetry.sdk.trace import TracerProvider  # noqa: E402
from opentelemetry.sdk.trace.export import BatchSpanProcessor  # noqa: E402

INTENTS = 90
CLIENT_TIMEOUT = 0.25
SLOW = 0.45
MAX_ATTEMPTS = 3


def plan(i):
    """(delay, status) of each attempt of intent i, as the server will answer it."""
    if i % 6 == 0:
        return [(SLOW, 201), (0, 201)]
    if i % 6 == 1:
        return [(SLOW, 201), (SLOW, 201), (0, 201)]
    if i % 6 == 2:
        return [(SLOW, 500), (0, 201)]
    if i % 9 == 4:
        return [(SLOW, 201), (SLOW, 201), (SLOW, 201)]
    return [(0, 201)]


# --- the receivers: OTLP/HTTP and Zipkin, on loopback ---------------------------------------

otlp_lines = []
zipkin_spans = []
received = threading.Lock()


def hex_ids(node):
    """The protobuf JSON mapping writes bytes as base64; OTLP/JSON wants ids in hex."""
    if isinstance(node, dict):
        for k, v in node.items():
            if k in ("traceId", "spanId", "parentSpanId") and isinstance(v, str):
                node[k] = base64.b64decode(v).hex()
            else:
                hex_ids(v)
    elif isinstance(node, list):
        for v in node:
            hex_ids(v)


class Receiver(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        if self.path == "/v1/traces":
            req = ExportTraceServiceRequest()
            req.ParseFromString(body)
            doc = MessageToDict(req, use_integers_for_enums=True)
            hex_ids(doc)
            with received:
                otlp_lines.append(json.dumps(doc, separators=(",", ":")))
        elif self.path == "/api/v2/spans":
            with received:
                zipkin_spans.extend(json.loads(body))
        self.send_response(200 if self.path == "/v1/traces" else 202)
        self.send_header("Content-Length", "0")
        self.end_headers()


receiver = ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
threading.Thread(target=receiver.serve_forever, daemon=True).start()
base = f"http://127.0.0.1:{receiver.server_address[1]}"


def provider(service):
    p = TracerProvider(resource=Resource.create({"service.name": service}))
    p.add_span_processor(
        BatchSpanProcessor(OTLPSpanExporter(endpoint=f"{base}/v1/traces"), schedule_delay_millis=200)
    )
    p.add_span_processor(
        BatchSpanProcessor(ZipkinExporter(endpoint=f"{base}/api/v2/spans"), schedule_delay_millis=200)
    )
    return p


client_provider = provider("checkout")
server_provider = provider("orders")

# --- the server: counts what it did --------------------------------------------------------

done = []  # (order, attempt, status) for every request the server finished
done_lock = threading.Lock()


def app(environ, start_response):
    order = int(environ["PATH_INFO"].rsplit("/", 1)[1])
    attempt = int(environ.get("HTTP_X_ATTEMPT", "0"))
    delay, status = plan(order)[attempt]
    environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0))
    if delay:
        time.sleep(delay)
    with done_lock:
        done.append((order, attempt, status))
    start_response(f"{status} {'Created' if status == 201 else 'Error'}", [("Content-Length", "2")])
    return [b"{}"]


class Quiet(WSGIRequestHandler):
    def log_message(self, *args):
        pass


class ThreadedWSGI(ThreadingMixIn, WSGIServer):
    daemon_threads = True


server = make_server(
    "127.0.0.1",
    0,
    OpenTelemetryMiddleware(app, tracer_provider=server_provider),
    server_class=ThreadedWSGI,
    handler_class=Quiet,
)
threading.Thread(target=server.serve_forever, daemon=True).start()
url = f"http://127.0.0.1:{server.server_address[1]}"

# --- the client: retries after a timeout, under one parent span per intent -----------------

RequestsInstrumentor().instrument(tracer_provider=client_provider)
tracer = client_provider.get_tracer("checkout")
sent = []  # (order, attempt, timed_out)
sent_lock = threading.Lock()


def place(order):
    with tracer.start_as_current_span("place order"):
        for attempt in range(min(MAX_ATTEMPTS, len(plan(order)))):
            try:
                requests.post(
                    f"{url}/orders/{order}",
                    json={"order": order},
                    headers={"X-Attempt": str(attempt)},
                    timeout=CLIENT_TIMEOUT,
                )
                with sent_lock:
                    sent.append((order, attempt, False))
                return
            except requests.exceptions.Timeout:
                with sent_lock:
                    sent.append((order, attempt, True))


with ThreadPoolExecutor(6) as pool:
    list(pool.map(place, range(INTENTS)))
# Wait for the server to finish what the client gave up on.
deadline = time.time() + 10
while len(done) < len(sent) and time.time() < deadline:
    time.sleep(0.05)
time.sleep(0.2)
client_provider.force_flush()
server_provider.force_flush()
client_provider.shutdown()
server_provider.shutdown()
receiver.shutdown()

with open(os.path.join(OUT, "otlp.jsonl"), "w") as f:
    for line in otlp_lines:
        f.write(line + "\n")
with open(os.path.join(OUT, "zipkin.json"), "w") as f:
    json.dump(zipkin_spans, f)

answered = {(o, a): s for o, a, s in done}
timed_out = [(o, a) for o, a, t in sent if t]
ran = {}
for o, a, s in done:
    if 200 <= s < 300:
        ran[o] = ran.get(o, 0) + 1
attempts_per_intent = {}
for o, a, t in sent:
    attempts_per_intent[o] = attempts_per_intent.get(o, 0) + 1
truth = {
    "mode": MODE,
    "intents": INTENTS,
    "attempts": len(sent),
    "server_requests": len(done),
    "timed_out": len(timed_out),
    "timed_out_succeeded": sum(1 for k in timed_out if 200 <= answered.get(k, 0) < 300),
    "ran_twice": sum(1 for n in ran.values() if n >= 2),
    "max_retries": max(attempts_per_intent.values()) - 1,
    "otlp_lines": len(otlp_lines),
    "zipkin_spans": len(zipkin_spans),
}
with open(os.path.join(OUT, "truth.json"), "w") as f:
    json.dump(truth, f, indent=1)
print(json.dumps(truth))
