//! How each finding was measured: the `Display` of the findings' evidence (and, where the
//! JSON contract holds a sentence, its `Serialize` as that text).

use std::fmt::{self, Display, Formatter};

use serde::{Serialize, Serializer};

use crate::findings::evidence::{Evidence, FingerprintFacts, Shortfall};
use crate::logs::Role;

use super::*;

impl Display for Evidence {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Evidence::RequestsPerDay(r) => r.fmt(f),
            Evidence::TimeoutRate(t) => t.fmt(f),
            Evidence::SucceededShare(s, by) => s.fmt_by(f, by),
            Evidence::Retries { how, proxy, layers } => {
                crate::findings::retries::fmt_evidence(f, how, proxy.as_ref(), layers.as_ref())
            }
            Evidence::BodyBytes(b) => b.fmt(f),
        }
    }
}

impl Serialize for Evidence {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl Display for FingerprintFacts {
    /// `grouped by fingerprint (client, UA, method, path+query): joined 1,204 attempts into
    /// 1,100 intents`, with the attempts that had no client address.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let length = if self.request_length {
            ", request length"
        } else {
            ""
        };
        write!(
            f,
            "grouped by fingerprint (client, UA, method, path+query{length}): joined {} into {}",
            plural(self.attempts, "attempt"),
            plural(self.intents, "intent")
        )?;
        if self.unkeyed > 0 {
            write!(
                f,
                "; {} without a client address, each an intent",
                plural(self.unkeyed, "attempt")
            )?;
        }
        Ok(())
    }
}

impl Display for Shortfall {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Shortfall::NoMutating { methods } => {
                write!(f, "no mutating ({methods}) requests in the log")
            }
            Shortfall::NoTimestamp {
                file: Some((name, headers)),
            } => write!(
                f,
                "{name} has no timestamp column (looked for {}; headers found: {}; map one with --column timestamp=HEADER)",
                Role::Timestamp.aliases().join(", "),
                headers.join(", ")
            ),
            Shortfall::NoTimestamp { file: None } => f.write_str("the log has no timestamp column"),
            Shortfall::ZeroSpan => f.write_str("the log's timestamps span no time (first = last)"),
            Shortfall::TooShort { span, min } => write!(
                f,
                "the log's timestamps span only {}, less than --min-span {}: too short to scale to a day",
                duration_text(*span),
                duration_text(*min)
            ),
            Shortfall::NoUpstream(n) => n.fmt(f),
        }
    }
}
