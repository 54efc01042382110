//! The saved body (`--body-bytes`): the mean size of the 2xx mutating responses, when the log
//! has a `bytes` column; the body a key store would save. Its evidence, its derivation and its
//! words.

use std::fmt::{self, Display, Formatter};

use crate::inputs::{Input, Sources};
use crate::logs::LogAnalysis;
use crate::words::{count, human};

use super::{Evidence, Measured, Overrides};

/// The mean size of the 2xx mutating responses, and the size a flag gave instead.
#[derive(Debug, Clone, PartialEq)]
pub struct BodyEvidence {
    /// The name a given size came by: `--body-bytes` or `DUPCOST_BODY_BYTES`.
    pub by: &'static str,
    /// `--body-bytes`, which wins over the log.
    pub given: Option<u64>,
    /// The mean size of the 2xx mutating responses, and how many there were.
    pub mean: f64,
    pub rows: u64,
}

/// `--body-bytes`: the mean response of 2xx mutating requests, when the log has sizes.
pub(super) fn body_bytes(
    a: &LogAnalysis,
    given: &Overrides,
    sources: &Sources,
) -> Option<Measured> {
    let t = &a.tally;
    t.response_bytes.mean().map(|mean| {
        let value = given.body_bytes.map_or(mean.round(), |b| b as f64);
        Measured {
            input: "body_bytes",
            flag: "--body-bytes",
            value,
            measured: Some(mean.round()),
            from_flag: given.body_bytes.is_some(),
            evidence: Evidence::BodyBytes(BodyEvidence {
                by: sources.given_by(Input::BodyBytes, "--body-bytes"),
                given: given.body_bytes,
                mean,
                rows: t.response_bytes.rows,
            }),
        }
    })
}

impl Display for BodyEvidence {
    /// `saved body 1.2 kB = mean response size of 660 2xx mutating requests`, or the size
    /// given with the log's beside it.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let BodyEvidence {
            by,
            given,
            mean,
            rows,
        } = self;
        match given {
            Some(b) => write!(
                f,
                "saved body {} from {by} (measured: mean of {} 2xx mutating responses, {})",
                human::size(*b as f64),
                count(*rows),
                human::size(*mean)
            ),
            None => write!(
                f,
                "saved body {} = mean response size of {} 2xx mutating requests",
                human::size(*mean),
                count(*rows)
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_given_size_wins_and_the_log_stands_beside_it() {
        let measured = BodyEvidence {
            by: "--body-bytes",
            given: None,
            mean: 1_234.4,
            rows: 2_000,
        };
        assert_eq!(
            measured.to_string(),
            "saved body 1.23 kB = mean response size of 2,000 2xx mutating requests"
        );
        let given = BodyEvidence {
            by: "DUPCOST_BODY_BYTES",
            given: Some(512),
            ..measured
        };
        assert_eq!(
            given.to_string(),
            "saved body 512 B from DUPCOST_BODY_BYTES (measured: mean of 2,000 2xx mutating responses, 1.23 kB)"
        );
    }
}
