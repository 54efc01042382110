//! The HTTP endpoint of `dupcost logs FILE --follow --metrics ADDR`: `GET /metrics` on the
//! address given, and nothing else.
//!
//! The follower publishes an [`Exposition`] after each tick ([`MetricsServer::publish`]: one
//! pointer swapped under a lock); the server answers each scrape from the latest one on its
//! own thread, so a slow scraper, or none, never holds up the reading of the log, and a scrape
//! never waits for a tick. tiny_http reads each connection on a thread of its pool: a client
//! that connects and sends nothing holds only that thread.

use std::io;
use std::net::{SocketAddr, TcpListener};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use crate::report::metrics::{Exposition, Format};

/// The path scraped.
pub const PATH: &str = "/metrics";

/// A running metrics endpoint; stopped when dropped.
pub struct MetricsServer {
    latest: Arc<Mutex<Arc<Exposition>>>,
    server: Arc<tiny_http::Server>,
    addr: SocketAddr,
    thread: Option<JoinHandle<()>>,
}

impl MetricsServer {
    /// Listens on `addr` (port 0: a free port, see [`MetricsServer::local_addr`]) and serves
    /// `first` until the first [`MetricsServer::publish`].
    pub fn start(addr: SocketAddr, first: Exposition) -> io::Result<MetricsServer> {
        let listener = TcpListener::bind(addr)?;
        let addr = listener.local_addr()?;
        let server = tiny_http::Server::from_listener(listener, None)
            .map_err(|e| io::Error::other(e.to_string()))?;
        let server = Arc::new(server);
        let latest = Arc::new(Mutex::new(Arc::new(first)));
        let thread = {
            let server = Arc::clone(&server);
            let latest = Arc::clone(&latest);
            std::thread::Builder::new()
                .name("metrics".into())
                .spawn(move || serve(&server, &latest))?
        };
        Ok(MetricsServer {
            latest,
            server,
            addr,
            thread: Some(thread),
        })
    }

    /// The address listened on.
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// The exposition the next scrapes get.
    pub fn publish(&self, exposition: Exposition) {
        let next = Arc::new(exposition);
        // A poisoned lock only means a scrape panicked mid-clone: the pointer is still whole.
        let mut latest = self
            .latest
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        *latest = next;
    }
}

impl Drop for MetricsServer {
    fn drop(&mut self) {
        self.server.unblock();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Answers requests until the server is unblocked.
fn serve(server: &tiny_http::Server, latest: &Mutex<Arc<Exposition>>) {
    for request in server.incoming_requests() {
        let response = answer(&request, latest);
        // A scraper that went away mid-answer is no concern of the follower's.
        let _ = request.respond(response);
    }
}

fn header(name: &str, value: &str) -> tiny_http::Header {
    tiny_http::Header::from_bytes(name.as_bytes(), value.as_bytes())
        .expect("header names and values here are ASCII")
}

fn answer(
    request: &tiny_http::Request,
    latest: &Mutex<Arc<Exposition>>,
) -> tiny_http::Response<io::Cursor<Vec<u8>>> {
    let path = request.url().split('?').next().unwrap_or_default();
    let text = |status: u16, body: &str| {
        tiny_http::Response::from_string(body)
            .with_status_code(status)
            .with_header(header("Content-Type", "text/plain; charset=utf-8"))
    };
    if path != PATH {
        return text(404, "dupcost serves its metrics at /metrics\n");
    }
    if !matches!(
        request.method(),
        tiny_http::Method::Get | tiny_http::Method::Head
    ) {
        return text(405, "/metrics answers GET\n").with_header(header("Allow", "GET, HEAD"));
    }
    let accept = request
        .headers()
        .iter()
        .find(|h| h.field.equiv("Accept"))
        .map(|h| h.value.as_str());
    let format = Format::negotiate(accept);
    let exposition = Arc::clone(
        &latest
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner),
    );
    tiny_http::Response::from_string(exposition.encode(format))
        .with_header(header("Content-Type", format.content_type()))
}
