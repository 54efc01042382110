//! Small HTTP/1.1 servers on loopback for `tests/probe.rs`: one thread a connection, each
//! with an idempotency-key store of a known kind, counting its own executions per key.
//!
//! Every execution creates an order with an id of its own (in the body and the `Location`),
//! as a real endpoint does, so a probe can tell a second execution from a replay.
#![allow(dead_code)]

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};

/// What the server does with keys.
#[derive(Debug, Clone)]
pub enum Kind {
    /// The draft's contract: the key is claimed atomically before the work (409 while in
    /// flight), the answer saved after it (replayed), 422 for another payload, 400 without.
    Correct,
    /// Check, then work, then insert: two requests that both check before either inserts
    /// both execute. The window is widened by a sleep so the race is real on any machine.
    CheckThenInsert,
    /// Reads no key: every request executes.
    IgnoresKeys,
    /// The correct store, but keyed on the key alone: another payload gets the replay.
    PayloadBlind,
    /// Answers every request with this status and `Location` (`{port}` in it becomes the
    /// server's port), executing nothing.
    Redirect(u16, String),
}

/// A running server.
pub struct Server {
    pub url: String,
    pub port: u16,
    state: Arc<State>,
}

struct State {
    kind: Kind,
    store: Mutex<HashMap<String, Entry>>,
    /// Executions per key header (`None`: requests without one).
    executions: Mutex<HashMap<Option<String>, usize>>,
    requests: AtomicUsize,
    connections: AtomicUsize,
    next_id: AtomicUsize,
}

enum Entry {
    InFlight,
    Done { payload: Vec<u8>, answer: Answer },
}

#[derive(Clone)]
struct Answer {
    status: u16,
    location: Option<String>,
    body: String,
}

/// How long an execution takes: long enough for a concurrent round to meet it in flight.
const WORK: Duration = Duration::from_millis(40);
/// The gap between the check and the insert of [`Kind::CheckThenInsert`].
const RACE_WINDOW: Duration = Duration::from_millis(150);

impl Server {
    /// Starts a server of `kind` on 127.0.0.1, at the path `/orders`.
    pub fn start(kind: Kind) -> Server {
        Server::start_with(kind, None)
    }

    /// The same over TLS, with the self-signed certificate of `tests/fixtures/probe`.
    pub fn start_tls(kind: Kind) -> Server {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/probe");
        let certs = CertificateDer::pem_file_iter(dir.join("cert.pem"))
            .unwrap()
            .collect::<Result<Vec<_>, _>>()
            .unwrap();
        let key = PrivateKeyDer::from_pem_file(dir.join("key.pem")).unwrap();
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let config = rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .unwrap()
            .with_no_client_auth()
            .with_single_cert(certs, key)
            .unwrap();
        let mut server = Server::start_with(kind, Some(Arc::new(config)));
        server.url = server.url.replacen("http://", "https://", 1);
        server
    }

    fn start_with(kind: Kind, tls: Option<Arc<rustls::ServerConfig>>) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let kind = match kind {
            Kind::Redirect(status, location) => {
                Kind::Redirect(status, location.replace("{port}", &port.to_string()))
            }
            kind => kind,
        };
        let state = Arc::new(State {
            kind,
            store: Mutex::new(HashMap::new()),
            executions: Mutex::new(HashMap::new()),
            requests: AtomicUsize::new(0),
            connections: AtomicUsize::new(0),
            next_id: AtomicUsize::new(1),
        });
        let shared = Arc::clone(&state);
        thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                shared.connections.fetch_add(1, Ordering::SeqCst);
                let state = Arc::clone(&shared);
                let tls = tls.clone();
                thread::spawn(move || {
                    let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
                    let _ = match tls {
                        None => serve(stream, &state),
                        Some(config) => rustls::ServerConnection::new(config)
                            .map_err(std::io::Error::other)
                            .and_then(|c| serve(rustls::StreamOwned::new(c, stream), &state)),
                    };
                });
            }
        });
        Server {
            url: format!("http://127.0.0.1:{port}/orders"),
            port,
            state,
        }
    }

    /// Requests received (a proxy's CONNECT not counted).
    pub fn requests(&self) -> usize {
        self.state.requests.load(Ordering::SeqCst)
    }

    /// TCP connections accepted.
    pub fn connections(&self) -> usize {
        self.state.connections.load(Ordering::SeqCst)
    }

    /// Executions beyond the first for one key, summed over the keys: the server's own
    /// count of what `duplicates_seen` must equal.
    pub fn extra_executions(&self) -> usize {
        self.state
            .executions
            .lock()
            .unwrap()
            .iter()
            .filter(|(key, _)| key.is_some())
            .map(|(_, n)| n - 1)
            .sum()
    }

    /// Every execution, with a key or without.
    pub fn executions(&self) -> usize {
        self.state.executions.lock().unwrap().values().sum()
    }
}

struct Incoming {
    method: String,
    key: Option<String>,
    body: Vec<u8>,
}

fn serve(stream: impl Read + Write, state: &State) -> std::io::Result<()> {
    let mut reader = BufReader::new(stream);
    let mut incoming = read_request(&mut reader)?;
    if incoming.method == "CONNECT" {
        // A proxy's tunnel: agree, then serve the request inside it.
        reader
            .get_mut()
            .write_all(b"HTTP/1.1 200 Connection established\r\n\r\n")?;
        incoming = read_request(&mut reader)?;
    }
    let writer = reader.get_mut();
    state.requests.fetch_add(1, Ordering::SeqCst);
    let answer = handle(state, incoming);
    let reason = match answer.status {
        200 => "OK",
        201 => "Created",
        307 => "Temporary Redirect",
        400 => "Bad Request",
        409 => "Conflict",
        422 => "Unprocessable Content",
        _ => "Other",
    };
    let mut head = format!(
        "HTTP/1.1 {} {reason}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n",
        answer.status,
        answer.body.len()
    );
    if let Some(location) = &answer.location {
        head.push_str(&format!("Location: {location}\r\n"));
    }
    head.push_str("\r\n");
    writer.write_all(head.as_bytes())?;
    writer.write_all(answer.body.as_bytes())?;
    writer.flush()
}

fn read_request(reader: &mut impl BufRead) -> std::io::Result<Incoming> {
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let method = line.split_whitespace().next().unwrap_or("").to_string();
    let (mut key, mut length) = (None, 0usize);
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header)? == 0 || header.trim().is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':') {
            match name.trim().to_ascii_lowercase().as_str() {
                "idempotency-key" => key = Some(value.trim().to_string()),
                "content-length" => length = value.trim().parse().unwrap_or(0),
                _ => {}
            }
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body)?;
    Ok(Incoming { method, key, body })
}

fn handle(state: &State, request: Incoming) -> Answer {
    let Incoming { key, body, .. } = request;
    match &state.kind {
        Kind::Redirect(status, location) => Answer {
            status: *status,
            location: Some(location.clone()),
            body: String::new(),
        },
        Kind::IgnoresKeys => execute(state, key),
        Kind::Correct | Kind::PayloadBlind => {
            let Some(key) = key else {
                return refuse(400, "Idempotency-Key is required");
            };
            {
                let mut store = state.store.lock().unwrap();
                match store.get(&key) {
                    Some(Entry::InFlight) => {
                        return refuse(409, "a request with this key is in flight");
                    }
                    Some(Entry::Done { payload, answer }) => {
                        let compares = matches!(state.kind, Kind::Correct);
                        if compares && *payload != body {
                            return refuse(422, "this key was used with another payload");
                        }
                        return answer.clone();
                    }
                    None => {
                        store.insert(key.clone(), Entry::InFlight);
                    }
                }
            }
            let answer = execute(state, Some(key.clone()));
            state.store.lock().unwrap().insert(
                key,
                Entry::Done {
                    payload: body,
                    answer: answer.clone(),
                },
            );
            answer
        }
        Kind::CheckThenInsert => {
            let Some(key) = key else {
                return refuse(400, "Idempotency-Key is required");
            };
            if let Some(Entry::Done { payload, answer }) = state.store.lock().unwrap().get(&key) {
                if *payload != body {
                    return refuse(422, "this key was used with another payload");
                }
                return answer.clone();
            }
            thread::sleep(RACE_WINDOW);
            let answer = execute(state, Some(key.clone()));
            state.store.lock().unwrap().insert(
                key,
                Entry::Done {
                    payload: body,
                    answer: answer.clone(),
                },
            );
            answer
        }
    }
}

/// The work: a new order, with an id of its own.
fn execute(state: &State, key: Option<String>) -> Answer {
    thread::sleep(WORK);
    let id = state.next_id.fetch_add(1, Ordering::SeqCst);
    *state.executions.lock().unwrap().entry(key).or_default() += 1;
    Answer {
        status: 201,
        location: Some(format!("/orders/ord_{id}")),
        body: format!("{{\"id\":\"ord_{id}\",\"status\":\"created\"}}"),
    }
}

fn refuse(status: u16, message: &str) -> Answer {
    Answer {
        status,
        location: None,
        body: format!("{{\"error\":\"{message}\"}}"),
    }
}
