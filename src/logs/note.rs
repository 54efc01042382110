//! What the evidence should say about how a file's fields were read, as typed values: the
//! words are `report::words`' (`Display for FormatNote`), so `logs` words nothing.

/// One note on a file's format or reading, for the evidence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FormatNote {
    /// HAProxy's accept_date has no zone, so it is read as UTC.
    UtcAcceptDate,
    /// HAProxy httplog lines with `extra` fields after its request line (`extra_1`, ...),
    /// given no role.
    HaproxyAppended { extra: usize },
    /// An nginx preset (`layout`) followed by `extra` fields (`extra_1`, ...) given no role;
    /// `suggested` is a `--log-format` naming the likely variable of each by its shape, and
    /// `upstream_status` the (1-based) field shaped as an upstream status, if one is.
    NginxAppended {
        layout: String,
        /// The preset's name (`combined`), for a `--log-format` that appends to it.
        preset: &'static str,
        /// Each appended field is quoted.
        quoted: Vec<bool>,
        extra: usize,
        suggested: String,
        upstream_status: Option<usize>,
    },
    /// An nginx preset (`layout`) whose appended fields' variables were read from their
    /// values (`nginx::infer_appended`): each inferred field's (1-based) place and variable,
    /// how many stayed unnamed (`extra_N`), and the `--log-format` that makes them given.
    NginxInferred {
        layout: String,
        fields: Vec<(usize, &'static str)>,
        unnamed: usize,
        log_format: String,
    },
    /// An Envoy preset (`layout`) followed by `extra` fields (`extra_1`, ...) given no role.
    EnvoyAppended { layout: String, extra: usize },
    /// IIS Advanced Logging's date-local and time-local have no zone, so they are read as UTC.
    IisLocalTime,
    /// A W3C extended log (IIS's, CloudFront's) with no `#Fields:` line, read by its
    /// product's documented default fields because its lines' field counts and values fit
    /// them and nothing else: `layout` says which ("IIS's 15 default fields"), `given_by` is
    /// the flag, as typed, that reads the same fields given.
    DefaultLayout { layout: String, given_by: String },
    /// A platform's log with no backend status (Google Cloud's, Cloudflare's without one).
    NoBackendStatus,
    /// API Gateway's give-ups are its 504s (a lower bound); `integration_status`: its layout
    /// logs the integration's status.
    ApiGatewayGiveUps { integration_status: bool },
    /// Azure records of other categories skipped: `total`, and how many of each kind.
    OtherCategories {
        total: u64,
        kinds: Vec<(String, u64)>,
    },
    /// A preset detected with fields after it, not read; `examples` of such fields.
    UnreadFields { examples: &'static str },
    /// The access lines have no time of their own: each takes its envelope's.
    EnvelopeTime,
    /// A `dupcost sql` result: attempts of one fingerprint at the same timestamp as the one
    /// before (a table has no file order).
    FingerprintTies(u64),
}

/// The fields after a layout: `extra_1, extra_2, ...`.
pub fn extra_fields(extra: usize) -> impl Iterator<Item = String> {
    (1..=extra).map(|i| format!("extra_{i}"))
}
