//! The real transport: ureq 3, blocking, rustls.
//!
//! Each request gets an agent of its own, and so a connection of its own: the requests of a
//! `concurrent` round do not queue behind one another on a pooled connection. The agent
//! follows no redirect (`max_redirects(0)` returns the 3xx as the answer), treats 4xx and 5xx
//! as answers (`http_status_as_error(false)`), waits at most `--timeout` for the whole
//! exchange, and verifies TLS certificates against the webpki roots unless `--insecure`
//! (`TlsConfig::disable_verification`). A loopback target is never sent through a proxy;
//! any other honours `HTTPS_PROXY`/`HTTP_PROXY`/`ALL_PROXY` and `NO_PROXY`, as curl does.

use std::io::Read;

use ureq::http::{self, HeaderValue, header};
use ureq::tls::TlsConfig;
use ureq::{Agent, Proxy};

use super::{Answer, MAX_BODY, Options, Ready, Request, Transport};

/// Sends the probe's requests over HTTP(S).
pub struct Http {
    request: Request,
    config: ureq::config::Config,
}

impl Http {
    pub fn new(request: &Request, options: &Options) -> Http {
        let proxy = if request.target.is_loopback() {
            None
        } else {
            Proxy::try_from_env()
        };
        let config = Agent::config_builder()
            .http_status_as_error(false)
            .max_redirects(0)
            .timeout_global(Some(options.timeout))
            .user_agent(format!("dupcost-probe/{}", env!("CARGO_PKG_VERSION")))
            .proxy(proxy)
            .tls_config(
                TlsConfig::builder()
                    .disable_verification(options.insecure)
                    .build(),
            )
            .build();
        Http {
            request: request.clone(),
            config,
        }
    }

    fn http_request(
        &self,
        key: Option<&str>,
        body: &[u8],
    ) -> Result<http::Request<Vec<u8>>, String> {
        let mut builder = http::Request::builder()
            .method(self.request.method.clone())
            .uri(self.request.target.uri.clone());
        let mut content_type = false;
        for (name, value) in &self.request.headers {
            content_type |= *name == header::CONTENT_TYPE;
            builder = builder.header(name, value);
        }
        if !content_type
            && !body.is_empty()
            && serde_json::from_slice::<serde_json::Value>(body).is_ok()
        {
            builder = builder.header(header::CONTENT_TYPE, "application/json");
        }
        if let Some(key) = key {
            let value = HeaderValue::from_str(key).map_err(|e| e.to_string())?;
            builder = builder.header(&self.request.key_header, value);
        }
        builder.body(body.to_vec()).map_err(|e| e.to_string())
    }
}

impl Transport for Http {
    fn send(&self, key: Option<&str>, body: &[u8]) -> Answer {
        self.prepare(key, body)()
    }

    /// The request and a fresh agent (its own connection) are built before the call.
    fn prepare<'a>(&'a self, key: Option<&'a str>, body: &'a [u8]) -> Ready<'a> {
        let request = match self.http_request(key, body) {
            Ok(request) => request,
            Err(why) => return Box::new(move || Answer::Failed(why)),
        };
        let agent = Agent::new_with_config(self.config.clone());
        Box::new(move || exchange(&agent, request))
    }
}

/// Sends the request and reads the answer, whatever its status.
fn exchange(agent: &Agent, request: http::Request<Vec<u8>>) -> Answer {
    let mut response = match agent.run(request) {
        Ok(response) => response,
        Err(e) => return Answer::Failed(e.to_string()),
    };
    let status = response.status().as_u16();
    let location = response
        .headers()
        .get(header::LOCATION)
        .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned());
    let mut body = Vec::new();
    let read = response
        .body_mut()
        .as_reader()
        .take(MAX_BODY)
        .read_to_end(&mut body);
    match read {
        Ok(_) => Answer::Response {
            status,
            location,
            body,
        },
        Err(e) => Answer::Failed(format!("reading the {status} answer's body: {e}")),
    }
}
