//! `dupcost presets`: every `--preset`, its values and the documentation each comes from.

use crate::cli::PresetsFormat;
use crate::error::Result;
use crate::presets::{Listing, PRESETS, Side, UNCONFIRMED};
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
    let mut out = String::new();
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
            out.push_str(&format!("{}  {}\n", listing.name, listing.provider));
            let width = listing
                .values
                .iter()
                .map(|v| v.name.len())
                .max()
                .unwrap_or(0);
            for value in &listing.values {
                out.push_str(&format!(
                    "  {:width$}  {}: {}\n  {:width$}  source: {} ({})\n",
                    value.name, value.value, value.says, "", value.source.url, value.source.read
                ));
            }
            if side == Side::WebhookSender {
                out.push_str(&format!(
                    "  implies {} retries, retry horizon {}: a dedupe TTL shorter than that \
                     processes the last redeliveries twice\n",
                    listing.retries,
                    Seconds(listing.retry_horizon_seconds).rounded()
                ));
            }
            for left_out in listing.left_out {
                out.push_str(&format!("  left out: {left_out}\n"));
            }
            out.push('\n');
        }
    }
    out.push_str("No preset (nothing confirmed in the stored documentation)\n\n");
    for (name, why) in UNCONFIRMED {
        out.push_str(&format!("{name}  {why}\n"));
    }
    out
}
