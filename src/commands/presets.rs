//! `dupcost presets`: every `--preset`, its values and the documentation each comes from.

use crate::cli::PresetsFormat;
use crate::error::Result;
use crate::presets::{
    Citation, HorizonBasis, ListedValue, Listing, PRESETS, READ_ON, Side, UNCONFIRMED,
};
use crate::units::Seconds;

/// The listing, as a table for people or JSON.
pub fn run(format: PresetsFormat) -> Result<Vec<u8>> {
    let listings: Vec<Listing> = PRESETS.iter().map(Listing::new).collect();
    let text = match format {
        PresetsFormat::Json => {
            let unconfirmed: Vec<serde_json::Value> = UNCONFIRMED
                .iter()
                .map(|(name, why)| serde_json::json!({"name": name, "why": why}))
                .collect();
            let document = serde_json::json!({
                "presets": listings,
                "unconfirmed": unconfirmed,
                "read_on": READ_ON,
            });
            let mut text =
                serde_json::to_string_pretty(&document).expect("a listing always serializes");
            text.push('\n');
            text
        }
        PresetsFormat::Table => table(&listings),
    };
    Ok(text.into_bytes())
}

fn table(listings: &[Listing]) -> String {
    let mut out = format!(
        "Every value quotes the provider's own page, read on {READ_ON} (a stored copy) unless \
         it says otherwise.\nA value marked \"inference\" is dupcost's own reading of the page; \
         \"another page\" is a page of the same provider that disagrees.\nThe quotes are in \
         docs/PRESETS.md; --format json gives each value's source.\n\n"
    );
    for side in [Side::PaymentApi, Side::WebhookSender] {
        let heading = match side {
            Side::PaymentApi => "Payment APIs (the key window: --ttl)",
            Side::WebhookSender => {
                "Webhook senders (the consumer's side: --attempt-timeout, --schedule, --retries)"
            }
        };
        out.push_str(heading);
        out.push_str("\n\n");
        for listing in listings.iter().filter(|l| l.side == side) {
            block(&mut out, listing);
        }
    }
    out.push_str("No preset (nothing confirmed in the stored documentation)\n\n");
    for (name, why) in UNCONFIRMED {
        out.push_str(&format!("{name}  {why}\n"));
    }
    out
}

/// One preset: its values with their sources, what they mean for the model, what is left out.
fn block(out: &mut String, listing: &Listing) {
    out.push_str(&format!("{}  {}\n", listing.name, listing.provider));
    let width = listing
        .values
        .iter()
        .map(|v| v.name.len())
        .max()
        .unwrap_or(0);
    for value in &listing.values {
        value_lines(out, value, width);
    }
    if let Some(line) = meaning(listing) {
        out.push_str(&format!("  {line}\n"));
    }
    for note in listing.notes {
        out.push_str(&format!("  note: {note}\n"));
    }
    for left_out in listing.left_out {
        out.push_str(&format!("  left out: {left_out}\n"));
    }
    out.push('\n');
}

fn value_lines(out: &mut String, value: &ListedValue, width: usize) {
    let pad = "";
    out.push_str(&format!(
        "  {:width$}  {}: \"{}\"\n  {pad:width$}  source: {}{}\n",
        value.name,
        value.value,
        value.says,
        value.source.url,
        dates(&value.source)
    ));
    if let Some(how) = value.inference {
        out.push_str(&format!("  {pad:width$}  inference: {how}\n"));
    }
    if let Some(other) = &value.disagreement {
        out.push_str(&format!(
            "  {pad:width$}  another page: {}: \"{}\"\n  {pad:width$}  source: {}{}\n  \
             {pad:width$}  uses: {}\n",
            other.value,
            other.says,
            other.source.url,
            dates(&other.source),
            other.choice
        ));
    }
}

/// The dates a source says beyond the listing's read date: its own reading, the page's date.
fn dates(source: &Citation) -> String {
    match (source.read != READ_ON, source.page_date) {
        (false, None) => String::new(),
        (false, Some(page)) => format!(" (page dated {page})"),
        (true, None) => format!(" (read {})", source.read),
        (true, Some(page)) => format!(" (read {}; page dated {page})", source.read),
    }
}

/// What the preset's values mean for the model, in one line: the key window of a payment API,
/// the retries and horizon of a sender (or why it has none).
fn meaning(listing: &Listing) -> Option<String> {
    let mut timeout = Seconds(listing.attempt_timeout_seconds).rounded();
    if !listing
        .values
        .iter()
        .any(|v| v.name == "attempt_timeout_seconds")
    {
        timeout = format!("the default {timeout}");
    }
    match listing.side {
        Side::PaymentApi => {
            let ttl = listing.values.iter().find(|v| v.name == "ttl_seconds")?;
            Some(format!(
                "key window {}: a retry with the same key sent more than {} after the first \
                 request may run as a new one",
                ttl.value, ttl.value
            ))
        }
        Side::WebhookSender => Some(match listing.horizon_basis {
            HorizonBasis::Schedule => {
                let horizon = Seconds(listing.retry_horizon_seconds).rounded();
                format!(
                    "{} retries after a timeout, horizon {horizon} ({} attempt timeouts of \
                     {timeout} plus the delays{}): a dedupe TTL shorter than {horizon} \
                     processes the last redeliveries twice",
                    listing.retries,
                    listing.retries + 1,
                    if listing.horizon_inferred {
                        ", from values marked inference"
                    } else {
                        ""
                    }
                )
            }
            HorizonBasis::NoRetries => format!(
                "no automatic redelivery after a timeout: each event is sent once, and the \
                 horizon is one attempt timeout ({timeout})"
            ),
            HorizonBasis::Defaults => {
                match listing.values.iter().find(|v| v.name == "retry_span") {
                    Some(span) => format!(
                        "no published delays, so the preset sets no schedule: the documented \
                         span is {}, and a dedupe TTL shorter than it may process a late \
                         redelivery twice (give --schedule spanning it)",
                        span.value
                    ),
                    None => format!(
                        "no published delays, so the preset sets no schedule: {} are your \
                         --schedule or the defaults' ({} retries, {}), not the provider's",
                        if listing.values.iter().any(|v| v.name == "retries") {
                            "the delays between its retries and the horizon"
                        } else {
                            "the retries and horizon"
                        },
                        listing.retries,
                        Seconds(listing.retry_horizon_seconds).rounded(),
                    ),
                }
            }
        }),
    }
}
