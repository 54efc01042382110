//! The URL probed, and whether it is loopback.
//!
//! Loopback is decided from the URL alone, before anything is sent: an IP literal in
//! 127.0.0.0/8 or `::1` (an IPv4-mapped `::ffff:127.x.y.z` too), or the name `localhost` or
//! a name under `.localhost` (RFC 6761) whose every resolved address is loopback.

use std::fmt;
use std::net::{IpAddr, ToSocketAddrs};
use std::str::FromStr;

use ureq::http::Uri;

/// An `http://` or `https://` URL with a host.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    pub uri: Uri,
    /// The host without IPv6 brackets.
    pub host: String,
    pub port: u16,
    pub https: bool,
}

impl FromStr for Target {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let bad = |why: &str| format!("'{text}' is not a URL to probe: {why}");
        if !text.contains("://") {
            return Err(bad("it has no http:// or https://"));
        }
        let uri: Uri = text
            .trim()
            .parse()
            .map_err(|e| bad(&format!("{e} (e.g. http://127.0.0.1:8080/orders)")))?;
        let https = match uri.scheme_str() {
            Some("https") => true,
            Some("http") => false,
            Some(other) => return Err(bad(&format!("the scheme is {other}, not http or https"))),
            None => return Err(bad("it has no http:// or https://")),
        };
        let host = uri
            .host()
            .filter(|h| !h.is_empty())
            .ok_or_else(|| bad("it has no host"))?;
        let host = host
            .trim_start_matches('[')
            .trim_end_matches(']')
            .to_string();
        let port = uri.port_u16().unwrap_or(if https { 443 } else { 80 });
        Ok(Target {
            uri,
            host,
            port,
            https,
        })
    }
}

impl Target {
    /// Whether the host is this machine's loopback interface (see the module docs).
    pub fn is_loopback(&self) -> bool {
        if let Ok(ip) = self.host.parse::<IpAddr>() {
            return ip.to_canonical().is_loopback();
        }
        let name = self.host.trim_end_matches('.').to_ascii_lowercase();
        if name != "localhost" && !name.ends_with(".localhost") {
            return false;
        }
        match (name.as_str(), self.port).to_socket_addrs() {
            Ok(addrs) => {
                let addrs: Vec<_> = addrs.collect();
                !addrs.is_empty() && addrs.iter().all(|a| a.ip().to_canonical().is_loopback())
            }
            Err(_) => false,
        }
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.uri)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn target(text: &str) -> Target {
        text.parse().unwrap()
    }

    #[test]
    fn loopback_hosts() {
        for url in [
            "http://127.0.0.1:8080/orders",
            "http://127.1.2.3/",
            "http://[::1]:9000/x",
            "http://[::ffff:127.0.0.1]/x",
            "http://localhost:8080/orders",
        ] {
            assert!(target(url).is_loopback(), "{url}");
        }
        for url in [
            "http://example.invalid/orders",
            "https://192.0.2.1/orders",
            "http://10.0.0.1/",
            "http://[2001:db8::1]/",
            "http://localhost.example.invalid/",
            "http://0.0.0.0:8080/",
        ] {
            assert!(!target(url).is_loopback(), "{url}");
        }
    }

    #[test]
    fn hosts_ports_and_schemes() {
        let t = target("https://[::1]/v1");
        assert_eq!((t.host.as_str(), t.port, t.https), ("::1", 443, true));
        let t = target("http://api.example.invalid:8080/v1/orders?x=1");
        assert_eq!((t.host.as_str(), t.port), ("api.example.invalid", 8080));
        assert_eq!(
            t.to_string(),
            "http://api.example.invalid:8080/v1/orders?x=1"
        );
    }

    #[test]
    fn bad_urls_say_why() {
        for (url, why) in [
            ("localhost:8080/orders", "no http://"),
            ("ftp://example.invalid/x", "scheme is ftp"),
            ("/orders", "no http://"),
            ("http://", "URL"),
            ("not a url", "URL"),
        ] {
            let e = url.parse::<Target>().unwrap_err();
            assert!(e.contains(why), "{url}: {e}");
        }
    }
}
