//! `--preset NAME`: what a payment API or a webhook sender documents, as a scenario patch.
//!
//! A payment API's preset (`stripe`, `adyen`, ...) gives the key window: how long the provider
//! keeps an idempotency key (the TTL), with the key's longest length as a note. A webhook
//! sender's preset (`svix-webhooks`, `stripe-webhooks`, ...) gives the consumer's side: the
//! sender is the client, its per-attempt timeout is the attempt timeout, and its published
//! retry delays are the schedule (`docs/MODEL.md`, "For webhook consumers").
//!
//! Every value carries the page it comes from and the date it was read. A value the stored
//! documentation does not confirm is left out, and the preset says so: the input then keeps
//! whatever the lower layers give. Precedence, lowest first: defaults < `--scenario FILE` <
//! preset < environment < flags ([`crate::inputs::resolve_with_preset`]).

use serde::Serialize;

use crate::inputs::{Input, ScenarioPatch};
use crate::model::{Delays, Estimate, Scenario};

/// Whose behaviour a preset describes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// A payment API that keeps idempotency keys: the key window.
    PaymentApi,
    /// A webhook sender: the client whose redeliveries the consumer dedupes.
    WebhookSender,
}

impl Side {
    /// For people.
    pub fn label(self) -> &'static str {
        match self {
            Side::PaymentApi => "payment API",
            Side::WebhookSender => "webhook sender",
        }
    }
}

/// Where a value was read: the page cited for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Citation {
    pub url: &'static str,
    /// The page's own date when the stored copy shows one, else the day it was read from a
    /// stored copy.
    pub read: &'static str,
}

/// What a value sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// One input, in its flag's form.
    Input(Input),
    /// `--schedule`: the list of delays.
    Schedule,
    /// A documented fact that is no input (a key's longest length).
    Note(&'static str),
}

/// One documented value of a preset.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Value {
    pub target: Target,
    /// In the flag's form (`24h`, `15s`, `5s,5m`), or the fact for a note.
    pub value: &'static str,
    /// What the documentation says, in short.
    pub says: &'static str,
    pub source: Citation,
}

/// A provider's documented behaviour.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Preset {
    pub name: &'static str,
    pub provider: &'static str,
    pub side: Side,
    pub values: &'static [Value],
    /// What was looked up and not confirmed, and which flag gives it.
    pub left_out: &'static [&'static str],
}

const READ_TODAY: &str = "2026-12-01, read from a stored copy";

const STRIPE_IDEMPOTENCY: Citation = Citation {
    url: "https://docs.stripe.com/idempotency",
    read: READ_TODAY,
};
const ADYEN_IDEMPOTENCY: Citation = Citation {
    url: "https://docs.adyen.com/development-resources/api-idempotency",
    read: READ_TODAY,
};
const PAYPAL_ORDERS: Citation = Citation {
    url: "https://developer.paypal.com/api/orders/v2/orders-authorize",
    read: READ_TODAY,
};
const CHECKOUT_IDEMPOTENCY: Citation = Citation {
    url: "https://checkout.com/docs/payments/manage-payments/retry-a-payment",
    read: "2026-01-07 (the page's last-updated date)",
};
const TRUELAYER_IDEMPOTENCY: Citation = Citation {
    url: "https://docs.truelayer.com/docs/add-idempotency-to-your-payments-requests",
    read: "2026-06-02 (the page's updatedAt)",
};
const WORLDLINE_IDEMPOTENCY: Citation = Citation {
    url: "https://docs.direct.worldline-solutions.com/integration/api-developer-guide/idempotent-requests",
    read: READ_TODAY,
};
const STRIPE_UNDELIVERED: Citation = Citation {
    url: "https://docs.stripe.com/webhooks/process-undelivered-events",
    read: READ_TODAY,
};
const SVIX_RETRIES: Citation = Citation {
    url: "https://docs.svix.com/retries",
    read: READ_TODAY,
};
const SHOPIFY_RETRIES: Citation = Citation {
    url: "https://shopify.dev/changelog/updates-to-webhook-retry-mechanism",
    read: "2024-09-10 (the changelog entry's date)",
};
const SHOPIFY_TIMEOUT: Citation = Citation {
    url: "https://community.shopify.com/c/Shopify-APIs-SDKs/Webhook-on-create-orders-called-twice/m-p/543046",
    read: READ_TODAY,
};
const GITHUB_FAILED: Citation = Citation {
    url: "https://docs.github.com/en/webhooks/using-webhooks/handling-failed-webhook-deliveries",
    read: READ_TODAY,
};
const ADYEN_WEBHOOK_QUEUE: Citation = Citation {
    url: "https://docs.adyen.com/development-resources/webhooks/troubleshoot",
    read: "2026-05-24 (the page's last_modified)",
};
const ADYEN_WEBHOOK_TIMEOUT: Citation = Citation {
    url: "https://docs.adyen.com/japan-sellers-screening/webhooks",
    read: READ_TODAY,
};
const TWILIO_11205: Citation = Citation {
    url: "https://www.twilio.com/docs/errors/11205",
    read: READ_TODAY,
};

const SDK_RETRIES_LEFT_OUT: &str = "the official SDKs' default retries: not stated in the stored \
     documentation (give --retries)";

/// Every preset, payment APIs first.
pub const PRESETS: &[Preset] = &[
    Preset {
        name: "stripe",
        provider: "Stripe",
        side: Side::PaymentApi,
        values: &[
            Value {
                target: Target::Input(Input::Ttl),
                value: "24h",
                says: "keys may be removed once they are at least 24 hours old",
                source: STRIPE_IDEMPOTENCY,
            },
            Value {
                target: Target::Note("key_max_chars"),
                value: "255",
                says: "idempotency keys are up to 255 characters long",
                source: STRIPE_IDEMPOTENCY,
            },
        ],
        left_out: &[SDK_RETRIES_LEFT_OUT],
    },
    Preset {
        name: "adyen",
        provider: "Adyen",
        side: Side::PaymentApi,
        values: &[
            Value {
                target: Target::Input(Input::Ttl),
                value: "31d",
                says: "keys are valid for a minimum of 31 days after first submission (may be \
                       kept longer)",
                source: ADYEN_IDEMPOTENCY,
            },
            Value {
                target: Target::Note("key_max_chars"),
                value: "64",
                says: "the key is a unique identifier of at most 64 characters",
                source: ADYEN_IDEMPOTENCY,
            },
        ],
        left_out: &[SDK_RETRIES_LEFT_OUT],
    },
    Preset {
        name: "paypal",
        provider: "PayPal (Orders v2, PayPal-Request-Id)",
        side: Side::PaymentApi,
        values: &[
            Value {
                target: Target::Input(Input::Ttl),
                value: "6h",
                says: "the server stores keys for 6 hours; up to 72 hours on request to the \
                       account manager",
                source: PAYPAL_ORDERS,
            },
            Value {
                target: Target::Note("key_max_chars"),
                value: "108",
                says: "PayPal-Request-Id: 1 to 108 characters",
                source: PAYPAL_ORDERS,
            },
        ],
        left_out: &[
            "other PayPal APIs keep the id for their own period (see each API's reference)",
            SDK_RETRIES_LEFT_OUT,
        ],
    },
    Preset {
        name: "checkout",
        provider: "Checkout.com (Cko-Idempotency-Key)",
        side: Side::PaymentApi,
        values: &[Value {
            target: Target::Input(Input::Ttl),
            value: "24h",
            says: "by default keys expire after 24 hours, sandbox and production",
            source: CHECKOUT_IDEMPOTENCY,
        }],
        left_out: &[
            "the key's longest length: not stated in the stored documentation",
            SDK_RETRIES_LEFT_OUT,
        ],
    },
    Preset {
        name: "truelayer",
        provider: "TrueLayer (Payments API v3)",
        side: Side::PaymentApi,
        values: &[Value {
            target: Target::Input(Input::Ttl),
            value: "30d",
            says: "idempotency keys are valid for 30 days from creation",
            source: TRUELAYER_IDEMPOTENCY,
        }],
        left_out: &[
            "the key's longest length: not stated in the stored documentation",
            SDK_RETRIES_LEFT_OUT,
        ],
    },
    Preset {
        name: "worldline",
        provider: "Worldline Direct",
        side: Side::PaymentApi,
        values: &[
            Value {
                target: Target::Input(Input::Ttl),
                value: "24h",
                says: "do not reuse a key within the idempotence period (at least 24 hours)",
                source: WORLDLINE_IDEMPOTENCY,
            },
            Value {
                target: Target::Note("key_max_chars"),
                value: "40",
                says: "the key has a maximum length of 40 characters, ASCII",
                source: WORLDLINE_IDEMPOTENCY,
            },
        ],
        left_out: &[SDK_RETRIES_LEFT_OUT],
    },
    Preset {
        name: "stripe-webhooks",
        provider: "Stripe webhooks",
        side: Side::WebhookSender,
        values: &[Value {
            target: Target::Schedule,
            value: "10h,20h,42h",
            says: "undelivered events are resent for up to three days (live mode); Stripe \
                   publishes no delays, so these three doubling delays are dupcost's fill-in \
                   that spans the three days",
            source: STRIPE_UNDELIVERED,
        }],
        left_out: &[
            "the individual delays and their number: not published (the schedule is a fill-in; \
             give --schedule or --retries)",
            "the per-attempt timeout: not stated in the stored documentation (give \
             --attempt-timeout)",
        ],
    },
    Preset {
        name: "svix-webhooks",
        provider: "Svix",
        side: Side::WebhookSender,
        values: &[
            Value {
                target: Target::Input(Input::AttemptTimeout),
                value: "15s",
                says: "a 2xx within a reasonable time-frame (15s with Svix)",
                source: SVIX_RETRIES,
            },
            Value {
                target: Target::Schedule,
                value: "5s,5m,30m,2h,5h,10h,10h",
                says: "attempted immediately, then after 5 seconds, 5 minutes, 30 minutes, 2 \
                       hours, 5 hours, 10 hours and 10 hours, each after the last failure",
                source: SVIX_RETRIES,
            },
        ],
        left_out: &[],
    },
    Preset {
        name: "shopify-webhooks",
        provider: "Shopify webhooks",
        side: Side::WebhookSender,
        values: &[
            Value {
                target: Target::Input(Input::AttemptTimeout),
                value: "5s",
                says: "a Shopify staff reply: a delivery not answered within 5 seconds times out \
                       (the stored shopify.dev page is cut before its figure)",
                source: SHOPIFY_TIMEOUT,
            },
            Value {
                target: Target::Schedule,
                value: "1m,2m,4m,8m,16m,32m,64m,113m",
                says: "retried a total of 8 times over 4 hours with exponential backoff; Shopify \
                       publishes no delays, so these doubling delays are dupcost's fill-in that \
                       spans the 4 hours",
                source: SHOPIFY_RETRIES,
            },
        ],
        left_out: &["the individual delays: not published (the schedule is a fill-in)"],
    },
    Preset {
        name: "github-webhooks",
        provider: "GitHub webhooks",
        side: Side::WebhookSender,
        values: &[
            Value {
                target: Target::Input(Input::AttemptTimeout),
                value: "10s",
                says: "a delivery that takes longer than 10 seconds to answer is recorded as a \
                       failure",
                source: GITHUB_FAILED,
            },
            Value {
                target: Target::Input(Input::Retries),
                value: "0",
                says: "GitHub does not automatically redeliver failed deliveries (a person or a \
                       script redelivers them)",
                source: GITHUB_FAILED,
            },
        ],
        left_out: &[],
    },
    Preset {
        name: "adyen-webhooks",
        provider: "Adyen webhooks",
        side: Side::WebhookSender,
        values: &[
            Value {
                target: Target::Input(Input::AttemptTimeout),
                value: "10s",
                says: "a webhook not acknowledged within 10 seconds is queued and retried",
                source: ADYEN_WEBHOOK_TIMEOUT,
            },
            Value {
                target: Target::Schedule,
                value: "0s,0s,0s,2m,5m,10m,15m,30m,1h,2h,4h,8h",
                says: "three retries at once (about 9 s apart), then the queue after 2, 5, 10, 15 \
                       and 30 minutes, 1, 2, 4 and 8 hours, for up to 30 days",
                source: ADYEN_WEBHOOK_QUEUE,
            },
            Value {
                target: Target::Input(Input::Retries),
                value: "100",
                says: "up to 30 days of retries: the 12 listed, then every 8 hours (the last \
                       delay repeats); 100 is the model's most and reaches 30 days",
                source: ADYEN_WEBHOOK_QUEUE,
            },
        ],
        left_out: &[],
    },
    Preset {
        name: "twilio-webhooks",
        provider: "Twilio webhooks",
        side: Side::WebhookSender,
        values: &[Value {
            target: Target::Input(Input::AttemptTimeout),
            value: "15s",
            says: "Twilio waits a total of 15 seconds for an HTTP response",
            source: TWILIO_11205,
        }],
        left_out: &[
            "retries: Twilio retries a callback only with the #rc= connection override, whose \
             default count the stored documentation does not confirm (give --retries)",
        ],
    },
];

/// Providers looked up whose documentation confirmed nothing a preset could set.
pub const UNCONFIRMED: &[(&str, &str)] = &[
    (
        "braintree",
        "no idempotency-key length or retention found in the stored documentation",
    ),
    (
        "gocardless",
        "Idempotency-Key is supported on creation endpoints; its retention and length were \
         not found in the stored documentation",
    ),
    (
        "square",
        "Square does not publish a retention period for idempotency keys (developer forum, \
         Square staff)",
    ),
];

/// The preset named `name`, or an error that lists every known one.
pub fn find(name: &str) -> Result<&'static Preset, String> {
    let wanted = name.trim().to_ascii_lowercase();
    PRESETS.iter().find(|p| p.name == wanted).ok_or_else(|| {
        let known: Vec<&str> = PRESETS.iter().map(|p| p.name).collect();
        let mut message = format!("unknown preset '{name}' (known: {})", known.join(", "));
        if let Some((_, why)) = UNCONFIRMED.iter().find(|(n, _)| *n == wanted) {
            message.push_str(&format!("; no preset for {wanted}: {why}"));
        }
        message
    })
}

impl Preset {
    /// The values as a scenario patch.
    pub fn patch(&self) -> ScenarioPatch {
        let mut patch = ScenarioPatch::default();
        for value in self.values {
            match value.target {
                Target::Input(input) => {
                    let number = input
                        .parse(value.value)
                        .expect("a preset's value parses (tested)");
                    patch.set(input, number);
                }
                Target::Schedule => patch.set_schedule(
                    value
                        .value
                        .parse::<Delays>()
                        .expect("a preset's schedule parses (tested)"),
                ),
                Target::Note(_) => {}
            }
        }
        patch
    }

    /// Whether the preset gives the retries (as a number or as a schedule's length).
    pub fn sets_retries(&self) -> bool {
        let patch = self.patch();
        patch.get(Input::Retries).is_some() || patch.schedule().is_some()
    }

    /// The sender's per-attempt timeout in seconds, if the preset gives one: the client
    /// timeout a receiver's own log is judged by.
    pub fn attempt_timeout(&self) -> Option<f64> {
        self.patch().get(Input::AttemptTimeout)
    }

    /// The preset over the defaults: what it alone implies (retries, horizon).
    pub fn over_defaults(&self) -> Scenario {
        let mut scenario = Scenario::default();
        self.patch().apply(&mut scenario);
        scenario
    }
}

/// One preset as `dupcost presets --format json` prints it.
#[derive(Debug, Serialize)]
pub struct Listing {
    pub name: &'static str,
    pub provider: &'static str,
    pub side: Side,
    pub values: Vec<ListedValue>,
    /// The retries and the retry horizon the preset implies over the defaults.
    pub retries: u32,
    pub retry_horizon_seconds: f64,
    pub left_out: &'static [&'static str],
}

/// One value of a [`Listing`].
#[derive(Debug, Serialize)]
pub struct ListedValue {
    /// The JSON name of the input it sets (`ttl_seconds`, `schedule_seconds`), or the note's
    /// name.
    pub name: &'static str,
    pub value: &'static str,
    pub says: &'static str,
    pub source: Citation,
}

impl Listing {
    pub fn new(preset: &Preset) -> Listing {
        let scenario = preset.over_defaults();
        let estimate = Estimate::new(scenario);
        Listing {
            name: preset.name,
            provider: preset.provider,
            side: preset.side,
            values: preset
                .values
                .iter()
                .map(|v| ListedValue {
                    name: match v.target {
                        Target::Input(input) => input.json_name(),
                        Target::Schedule => crate::inputs::SCHEDULE_JSON_NAME,
                        Target::Note(name) => name,
                    },
                    value: v.value,
                    says: v.says,
                    source: v.source,
                })
                .collect(),
            retries: scenario.retries,
            retry_horizon_seconds: estimate.retry_horizon_seconds,
            left_out: preset.left_out,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_value_parses_and_every_preset_validates() {
        for preset in PRESETS {
            for value in preset.values {
                match value.target {
                    Target::Input(input) => {
                        input.parse(value.value).unwrap();
                    }
                    Target::Schedule => {
                        value.value.parse::<Delays>().unwrap();
                    }
                    Target::Note(_) => {}
                }
                assert!(value.source.url.starts_with("https://"), "{}", preset.name);
                assert!(!value.source.read.is_empty());
            }
            preset.over_defaults().validate().unwrap();
        }
    }

    #[test]
    fn names_follow_the_convention() {
        for preset in PRESETS {
            let webhook = preset.name.ends_with("-webhooks");
            assert_eq!(
                webhook,
                preset.side == Side::WebhookSender,
                "{}",
                preset.name
            );
        }
    }

    #[test]
    fn unknown_lists_the_known() {
        let err = find("strip").unwrap_err();
        assert!(err.contains("known: stripe, adyen"), "{err}");
        let err = find("square").unwrap_err();
        assert!(err.contains("does not publish a retention period"), "{err}");
        assert_eq!(find("Stripe").unwrap().name, "stripe");
    }
}
