//! `--preset NAME`: what a payment API or a webhook sender documents, as a scenario patch.
//!
//! A payment API's preset (`stripe`, `adyen`, ...) gives the key window: how long the provider
//! keeps an idempotency key (the TTL), with the key's longest length as a note. A webhook
//! sender's preset (`svix-webhooks`, `stripe-webhooks`, ...) gives the consumer's side: the
//! sender is the client, its per-attempt timeout is the attempt timeout, and its published
//! retry delays are the schedule (`docs/MODEL.md`, "For webhook consumers").
//!
//! Every value quotes the provider's own page, with its URL and the day it was read
//! ([`READ_ON`] unless the value says otherwise); `docs/PRESETS.md` holds the same quotes. A
//! value dupcost derives rather than reads (a schedule computed from a documented rule, a
//! retry count that fills a documented span) carries its [`Value::inference`]; where two of a
//! provider's pages disagree, the value carries the other page as its
//! [`Value::disagreement`] and says which one it uses. A value no page confirms is left out,
//! and the preset says so: the input then keeps whatever the lower layers give. Precedence,
//! lowest first: defaults < `--scenario FILE` < preset < environment < flags
//! ([`crate::inputs::resolve_with_preset`]).

use serde::Serialize;

use crate::inputs::{Input, ScenarioPatch};
use crate::model::{Delays, Estimate, Scenario};

/// The day the providers' pages were read (stored copies), said once by `dupcost presets`.
/// A value read on another day says its own.
pub const READ_ON: &str = "2026-12-02";

/// The day of an earlier reading, for the pages not read again on [`READ_ON`].
const READ_BEFORE: &str = "2026-12-01";

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
    /// The day the page was read (a stored copy).
    pub read: &'static str,
    /// The page's own date (last modified, updated, posted) when the stored copy shows one.
    pub page_date: Option<&'static str>,
}

const fn page(url: &'static str) -> Citation {
    Citation {
        url,
        read: READ_ON,
        page_date: None,
    }
}

const fn dated(url: &'static str, page_date: &'static str) -> Citation {
    Citation {
        url,
        read: READ_ON,
        page_date: Some(page_date),
    }
}

/// What a value sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// One input, in its flag's form.
    Input(Input),
    /// `--schedule`: the list of delays.
    Schedule,
    /// A documented fact that is no input (a key's longest length, a retry span without
    /// published delays).
    Note(&'static str),
}

/// Another page of the same provider that gives a different figure.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Disagreement {
    /// The other page's figure, in the flag's form.
    pub value: &'static str,
    /// The other page's words.
    pub says: &'static str,
    pub source: Citation,
    /// Which figure the preset uses, and why; how to use the other.
    pub choice: &'static str,
}

/// One documented value of a preset.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Value {
    pub target: Target,
    /// In the flag's form (`24h`, `15s`, `5s,5m`), or the fact for a note.
    pub value: &'static str,
    /// The page's own words.
    pub says: &'static str,
    pub source: Citation,
    /// How dupcost got `value` from `says` when the page does not give it as it stands.
    pub inference: Option<&'static str>,
    /// Another page of the provider with another figure.
    pub disagreement: Option<Disagreement>,
}

const fn quote(target: Target, value: &'static str, says: &'static str, source: Citation) -> Value {
    Value {
        target,
        value,
        says,
        source,
        inference: None,
        disagreement: None,
    }
}

impl Value {
    const fn inferred(self, how: &'static str) -> Value {
        Value {
            inference: Some(how),
            ..self
        }
    }

    const fn disputed(self, other: Disagreement) -> Value {
        Value {
            disagreement: Some(other),
            ..self
        }
    }
}

/// A provider's documented behaviour.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Preset {
    pub name: &'static str,
    pub provider: &'static str,
    pub side: Side,
    pub values: &'static [Value],
    /// What the values mean for the model, where it is not plain.
    pub notes: &'static [&'static str],
    /// What was looked up and not confirmed, and which flag gives it.
    pub left_out: &'static [&'static str],
}

const TTL: Target = Target::Input(Input::Ttl);
const TIMEOUT: Target = Target::Input(Input::AttemptTimeout);
const RETRIES: Target = Target::Input(Input::Retries);
const SCHEDULE: Target = Target::Schedule;
const KEY_MAX: Target = Target::Note("key_max_chars");
const SPAN: Target = Target::Note("retry_span");

const STRIPE_IDEMPOTENCY: Citation = page("https://docs.stripe.com/idempotency");
const ADYEN_IDEMPOTENCY: Citation = Citation {
    read: READ_BEFORE,
    ..page("https://docs.adyen.com/development-resources/api-idempotency")
};
const PAYPAL_ORDERS: Citation = Citation {
    read: READ_BEFORE,
    ..page("https://developer.paypal.com/api/orders/v2/orders-authorize")
};
const CHECKOUT_IDEMPOTENCY: Citation = dated(
    "https://checkout.com/docs/payments/manage-payments/retry-a-payment",
    "2026-01-07",
);
const TRUELAYER_IDEMPOTENCY: Citation = dated(
    "https://docs.truelayer.com/docs/add-idempotency-to-your-payments-requests",
    "2026-06-02",
);
const TRUELAYER_OLDER: Citation = page("https://docs.truelayer.com/docs/idempotency");
const WORLDLINE_IDEMPOTENCY: Citation = page(
    "https://docs.direct.worldline-solutions.com/integration/api-developer-guide/idempotent-requests",
);
const QONTO_IDEMPOTENCY: Citation =
    page("https://docs.qonto.com/get-started/general/idempotent-requests");
const STRIPE_UNDELIVERED: Citation =
    page("https://docs.stripe.com/webhooks/process-undelivered-events");
const SVIX_RETRIES: Citation = page("https://docs.svix.com/retries");
const SHOPIFY_RETRIES: Citation = dated(
    "https://shopify.dev/changelog/updates-to-webhook-retry-mechanism",
    "2024-09-10",
);
const SHOPIFY_STAFF: Citation = page(
    "https://community.shopify.com/c/Shopify-APIs-SDKs/Webhook-on-create-orders-called-twice/m-p/543046",
);
const GITHUB_FAILED: Citation =
    page("https://docs.github.com/en/webhooks/using-webhooks/handling-failed-webhook-deliveries");
const GITHUB_SERVER_FAILED: Citation = page(
    "https://docs.github.com/en/enterprise-server@3.19/webhooks/using-webhooks/handling-failed-webhook-deliveries",
);
const ADYEN_WEBHOOK_QUEUE: Citation = dated(
    "https://docs.adyen.com/development-resources/webhooks/troubleshoot",
    "2026-05-24",
);
const ADYEN_WEBHOOK_HELP: Citation = page(
    "https://help.adyen.com/knowledge/ecommerce-integrations/webhooks/how-do-i-set-up-webhooks",
);
const TWILIO_11205: Citation = page("https://www.twilio.com/docs/errors/11205");
const TWILIO_OVERRIDES: Citation =
    page("https://www.twilio.com/docs/usage/webhooks/webhooks-connection-overrides");
const PLAID_RETRIES: Citation = page(
    "https://support.plaid.com/hc/en-us/articles/40390675922967-Can-Plaid-re-push-failed-or-missed-webhook-events",
);
const BRAINTREE_PARSE: Citation =
    page("https://developer.paypal.com/braintree/docs/guides/webhooks/parse");
const GOCARDLESS_RETRIES: Citation =
    page("https://support.gocardless.com/hc/en-nz/articles/360000989989-Webhook-retries-failures");
/// The source of docs.mollie.com's webhooks guide (reStructuredText), as a fork of Mollie's
/// `api-documentation` repository holds it: the stored copies of the live page are cut
/// before its retry schema.
const MOLLIE_WEBHOOKS: Citation = page(
    "https://github.com/sandervanhooft/api-documentation/blob/230e9c70526b275040bf07a59ec77d34f977dbcd/source/guides/webhooks.rst",
);
const CHARGEBEE_RETRIES: Citation = dated(
    "https://support.chargebee.com/support/solutions/articles/257941-at-which-rate-can-we-expect-the-webhook-calls-in-chargebee-will-there-be-any-performance-disruption",
    "2023-02-16",
);
const RECURLY_RETRIES: Citation =
    page("https://docs.recurly.com/recurly-subscriptions/docs/automatic-retries");
const PADDLE_DELIVERY: Citation =
    page("https://developer.paddle.com/webhooks/about/respond-to-webhooks");
const ZOOM_DELAYS: Citation = page("https://developers.zoom.us/blog/webhook-delays.md");
const SQUARE_SLA: Citation = page("https://developer.squareup.com/docs/webhooks-api/delivery-sla");
const SQUARE_TROUBLESHOOTING: Citation =
    page("https://developer.squareup.com/docs/webhooks/troubleshooting");
const RAZORPAY_PRACTICES: Citation = page("https://razorpay.com/docs/webhooks/best-practices");
const STANDARD_WEBHOOKS: Citation = page(
    "https://github.com/standard-webhooks/standard-webhooks/blob/main/spec/standard-webhooks.md",
);

const SDK_RETRIES_LEFT_OUT: &str = "the official SDKs' default retries: not stated in the stored \
     documentation (give --retries)";

/// Every preset, payment APIs first.
pub const PRESETS: &[Preset] = &[
    Preset {
        name: "stripe",
        provider: "Stripe",
        side: Side::PaymentApi,
        values: &[
            quote(
                TTL,
                "24h",
                "You can remove keys from the system automatically after they're at least 24 \
                 hours old.",
                STRIPE_IDEMPOTENCY,
            ),
            quote(
                KEY_MAX,
                "255",
                "Idempotency keys are up to 255 characters long.",
                STRIPE_IDEMPOTENCY,
            ),
        ],
        notes: &[],
        left_out: &[SDK_RETRIES_LEFT_OUT],
    },
    Preset {
        name: "adyen",
        provider: "Adyen",
        side: Side::PaymentApi,
        values: &[
            quote(
                TTL,
                "31d",
                "keys are valid for a minimum of 31 days after first submission (may be kept \
                 longer)",
                ADYEN_IDEMPOTENCY,
            ),
            quote(
                KEY_MAX,
                "64",
                "the key is a unique identifier of at most 64 characters",
                ADYEN_IDEMPOTENCY,
            ),
        ],
        notes: &[],
        left_out: &[SDK_RETRIES_LEFT_OUT],
    },
    Preset {
        name: "paypal",
        provider: "PayPal (Orders v2, PayPal-Request-Id)",
        side: Side::PaymentApi,
        values: &[
            quote(
                TTL,
                "6h",
                "the server stores keys for 6 hours; up to 72 hours on request to the account \
                 manager",
                PAYPAL_ORDERS,
            ),
            quote(
                KEY_MAX,
                "108",
                "PayPal-Request-Id: 1 to 108 characters",
                PAYPAL_ORDERS,
            ),
        ],
        notes: &[],
        left_out: &[
            "other PayPal APIs keep the id for their own period (see each API's reference)",
            SDK_RETRIES_LEFT_OUT,
        ],
    },
    Preset {
        name: "checkout",
        provider: "Checkout.com (Cko-Idempotency-Key)",
        side: Side::PaymentApi,
        values: &[quote(
            TTL,
            "24h",
            "By default, keys expire after 24 hours for both the sandbox and production \
             environments.",
            CHECKOUT_IDEMPOTENCY,
        )],
        notes: &[
            "\"This key is cached in our system if the request returns a 2xx response code\": a \
             retry of a request that answered 4xx or 5xx is processed again",
        ],
        left_out: &[
            "the key's longest length: not stated in the stored documentation",
            SDK_RETRIES_LEFT_OUT,
        ],
    },
    Preset {
        name: "truelayer",
        provider: "TrueLayer (Payments API v3)",
        side: Side::PaymentApi,
        values: &[quote(
            TTL,
            "30d",
            "Idempotency keys are valid for 30 days from creation.",
            TRUELAYER_IDEMPOTENCY,
        )
        .disputed(Disagreement {
            value: "6h",
            says: "Each idempotency key has a duration of 6 hours.",
            source: TRUELAYER_OLDER,
            choice: "the preset uses 30 days, from the page updated 2026-06-02 (the other shows \
                     no date); a client whose retries may come more than 6 hours after the first \
                     attempt should not rely on the longer window: --ttl 6h models the other page",
        })],
        notes: &[],
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
            quote(
                TTL,
                "24h",
                "Do not use the same key twice within the idempotence period (at least 24 hours).",
                WORLDLINE_IDEMPOTENCY,
            ),
            quote(
                KEY_MAX,
                "40",
                "[the key] Has a maximum length of 40 characters. Should be ASCII compliant and not \
                 support UTF-8.",
                WORLDLINE_IDEMPOTENCY,
            ),
        ],
        notes: &[],
        left_out: &[SDK_RETRIES_LEFT_OUT],
    },
    Preset {
        name: "qonto",
        provider: "Qonto (X-Qonto-Idempotency-Key)",
        side: Side::PaymentApi,
        values: &[quote(
            TTL,
            "30m",
            "Idempotency keys expire after 30 minutes. Sending the same request with the same \
             key after this period creates a new resource.",
            QONTO_IDEMPOTENCY,
        )],
        notes: &[
            "\"the server caches the successful response for that key\": only a success is \
             replayed, so a retry of a request that failed runs again within the 30 minutes too",
        ],
        left_out: &[
            "the key's longest length: not stated (a V4 UUID is recommended)",
            SDK_RETRIES_LEFT_OUT,
        ],
    },
    Preset {
        name: "stripe-webhooks",
        provider: "Stripe webhooks",
        side: Side::WebhookSender,
        values: &[quote(
            SCHEDULE,
            "10h,20h,42h",
            "Stripe automatically resends the undelivered events to your endpoint for up to \
             three days",
            STRIPE_UNDELIVERED,
        )
        .inferred(
            "Stripe publishes the span, not the delays: these three doubling delays are \
             dupcost's fill-in that spans the three days (its horizon is 3 days + 40 s)",
        )],
        notes: &[],
        left_out: &[
            "the individual delays and their number: not published (give --schedule or --retries)",
            "the per-attempt timeout: not stated in the stored documentation (give \
             --attempt-timeout)",
        ],
    },
    Preset {
        name: "svix-webhooks",
        provider: "Svix",
        side: Side::WebhookSender,
        values: &[
            quote(
                TIMEOUT,
                "15s",
                "returning a 2xx (status code 200-299) response to the webhook message within a \
                 reasonable time-frame (15s with Svix)",
                SVIX_RETRIES,
            ),
            quote(
                SCHEDULE,
                "5s,5m,30m,2h,5h,10h,10h",
                "each period is started following the failure of the preceding attempt: \
                 Immediately, 5 seconds, 5 minutes, 30 minutes, 2 hours, 5 hours, 10 hours, 10 \
                 hours (in addition to the previous)",
                SVIX_RETRIES,
            ),
        ],
        notes: &[],
        left_out: &[],
    },
    Preset {
        name: "shopify-webhooks",
        provider: "Shopify webhooks",
        side: Side::WebhookSender,
        values: &[
            quote(
                TIMEOUT,
                "5s",
                "It looks like we're occasionally not receiving a response within 5 seconds when \
                 sending webhooks to your service. It then times out",
                SHOPIFY_STAFF,
            ),
            quote(
                SCHEDULE,
                "1m,2m,4m,8m,16m,32m,64m,113m",
                "Webhooks will now be retried a total of 8 times over 4 hours using an \
                 exponential backoff schedule.",
                SHOPIFY_RETRIES,
            )
            .inferred(
                "Shopify publishes the count and the span, not the delays: these doubling \
                 delays are dupcost's fill-in, 8 of them spanning the 4 hours",
            ),
        ],
        notes: &[],
        left_out: &[
            "the timeout on shopify.dev: its stored HTTPS page says only \"Shopify has a \
             connection timeout of one second\" (accepting the connection); the five seconds \
             to answer come from a Shopify staff reply on Shopify's forum",
        ],
    },
    Preset {
        name: "github-webhooks",
        provider: "GitHub webhooks (github.com)",
        side: Side::WebhookSender,
        values: &[
            quote(
                TIMEOUT,
                "10s",
                "if your server is down or takes longer than 10 seconds to respond, GitHub will \
                 record the delivery as a failure",
                GITHUB_FAILED,
            )
            .disputed(Disagreement {
                value: "30s",
                says: "if your server is down or takes longer than 30 seconds to respond, GitHub \
                       will record the delivery as a failure",
                source: GITHUB_SERVER_FAILED,
                choice: "the preset is github.com's 10 s; the other page is GitHub Enterprise \
                         Server's: give --attempt-timeout 30s for it",
            }),
            quote(
                RETRIES,
                "0",
                "GitHub does not automatically redeliver failed deliveries.",
                GITHUB_FAILED,
            ),
        ],
        notes: &[
            "redeliveries are manual or scripted (the REST API's redeliver endpoints): each one \
             carries the same X-GitHub-Delivery id, so dedupe on it for as long as you might \
             redeliver",
        ],
        left_out: &[],
    },
    Preset {
        name: "adyen-webhooks",
        provider: "Adyen webhooks",
        side: Side::WebhookSender,
        values: &[
            quote(
                TIMEOUT,
                "10s",
                "your endpoint needs to respond: within 10 seconds to our request.",
                ADYEN_WEBHOOK_HELP,
            ),
            quote(
                SCHEDULE,
                "0s,0s,0s,2m,5m,10m,15m,30m,1h,2h,4h,8h",
                "Adyen retries sending the webhook message three times before placing the webhook \
                 into a retry queue. The initial delivery attempts are sent at 9 seconds, 18 \
                 seconds, and again at 27 seconds. [...] After the first three failed retries, \
                 we retry sending the webhook in the following intervals: 2 minutes, 5 minutes, \
                 10 minutes, 15 minutes, 30 minutes, 1 hour, 2 hours, 4 hours, 8 hours",
                ADYEN_WEBHOOK_QUEUE,
            )
            .inferred(
                "the first three are send times 9 s apart, shorter than the 10 s timeout, so \
                 after a timeout each retry leaves at once: delays of 0 s, the model's retries \
                 at 10, 20 and 30 s (at most 3 s after Adyen's 9, 18 and 27 s); the HTML \
                 rendering of the same page says \"three times immediately\", which gives the \
                 same delays",
            )
            .disputed(Disagreement {
                value: "2m,5m,10m,15m,30m,1h,2h,4h",
                says: "The first notification stuck in the queue will be retried following these \
                       time intervals: 2 minutes, 5 minutes, 10 minutes, 15 minutes, 30 minutes, \
                       1 hour, 2 hours, 4 hours",
                source: ADYEN_WEBHOOK_HELP,
                choice: "the preset uses the developer documentation (last modified 2026-05-24), \
                         whose list has the first three retries and ends at 8 hours; the help \
                         centre's ends at 4 hours (--schedule 0s,0s,0s,2m,5m,10m,15m,30m,1h,2h,4h \
                         for it)",
            }),
            quote(
                RETRIES,
                "100",
                "From the queue, we automatically retry sending the webhook for up to 30 days.",
                ADYEN_WEBHOOK_QUEUE,
            )
            .inferred(
                "Adyen lists 12 retries and a 30-day span, and never says what follows the \
                 8-hour interval: dupcost repeats it, and 100 (the model's most) reaches 30 days",
            ),
        ],
        notes: &[],
        left_out: &[],
    },
    Preset {
        name: "twilio-webhooks",
        provider: "Twilio webhooks",
        side: Side::WebhookSender,
        values: &[
            quote(
                TIMEOUT,
                "15s",
                "Twilio will try for 10 seconds to establish a TCP connection to your URL (two \
                 5-second attempts). Twilio will wait for a total of 15 seconds to receive an \
                 HTTP response.",
                TWILIO_11205,
            ),
            quote(
                RETRIES,
                "0",
                "Retry count (rc) Min: 0 Max: 5 Default: 1. The number of retry attempts Twilio \
                 will make if its connection to your webhook fails.",
                TWILIO_OVERRIDES,
            )
            .inferred(
                "the default retry follows a failed connection only (the second 5-second TCP \
                 attempt): a request that never reached your server cannot run twice, so it is \
                 no retry after a timeout, and the model's retries are 0",
            ),
        ],
        notes: &[
            "Twilio's connection retry happens inside the 15 s (\"Total time (tt) ... The total \
             time allowed for all timeouts including retries\"); after a 15 s timeout Twilio \
             fails the request and tries your fallback URL, if one is set: when that URL runs \
             the same handler, it is a second delivery after a timeout and can run twice (give \
             --retries 1)",
        ],
        left_out: &[
            "the default retry policy (rp): the stored copy is cut before it; if your URL sets \
             #rp to retry read timeouts or errors, those retries can run twice: give --retries \
             (up to #rc)",
        ],
    },
    Preset {
        name: "plaid-webhooks",
        provider: "Plaid webhooks",
        side: Side::WebhookSender,
        values: &[
            quote(
                TIMEOUT,
                "10s",
                "if your endpoint returns a non-200 status or doesn't respond within 10 seconds, \
                 Plaid keeps retrying",
                PLAID_RETRIES,
            ),
            quote(
                SCHEDULE,
                "30s,2m,8m,32m,128m,512m",
                "Plaid keeps retrying delivery for up to 24 hours using exponential backoff \
                 (starting at 30 seconds, with each delay 4× the previous)",
                PLAID_RETRIES,
            )
            .inferred(
                "computed from the rule: 30 s, then each delay 4 times the last, while the retry \
                 still starts within 24 hours; a 7th (2048 min) would start past 45 h, so there \
                 are 6",
            ),
        ],
        notes: &[],
        left_out: &[],
    },
    Preset {
        name: "braintree-webhooks",
        provider: "Braintree webhooks (production)",
        side: Side::WebhookSender,
        values: &[
            quote(
                TIMEOUT,
                "30s",
                "If a webhook takes longer than 30 seconds to respond, it is considered a timeout \
                 and will be retried.",
                BRAINTREE_PARSE,
            ),
            quote(
                SCHEDULE,
                "1h",
                "We will resend webhook notifications every hour for up to 3 hours in sandbox, \
                 or up to 24 hours in production",
                BRAINTREE_PARSE,
            ),
            quote(
                RETRIES,
                "24",
                "every hour [...] up to 24 hours in production",
                BRAINTREE_PARSE,
            )
            .inferred(
                "hourly for up to 24 hours read as 24 retries, the last 24 hours after the first \
                 failure; in sandbox, --retries 3",
            ),
        ],
        notes: &[],
        left_out: &[],
    },
    Preset {
        name: "gocardless-webhooks",
        provider: "GoCardless webhooks",
        side: Side::WebhookSender,
        values: &[
            quote(
                TIMEOUT,
                "10s",
                "Timeouts - We didn't receive a 2xx response within 10 seconds of sending the \
                 webhook.",
                GOCARDLESS_RETRIES,
            ),
            quote(
                RETRIES,
                "8",
                "we will retry the webhook up to 8 times at increasing intervals e.g. 1 minute, 2 \
                 minutes, 10 minutes etc.",
                GOCARDLESS_RETRIES,
            ),
        ],
        notes: &[],
        left_out: &[
            "the delays: \"e.g. 1 minute, 2 minutes, 10 minutes etc.\" gives examples, not the \
             schedule, so the 8 retries wait the default backoff and the horizon is not \
             GoCardless's (give --schedule)",
        ],
    },
    Preset {
        name: "chargebee-webhooks",
        provider: "Chargebee webhooks",
        side: Side::WebhookSender,
        values: &[quote(
            SCHEDULE,
            "2m,6m,30m,1h,5h,1d,2d",
            "the calls are retried up to 7 times based on the following schedules: 2 minutes \
             after the failure, 6 minutes after the previous retry, 30 minutes [...], 1 hour \
             [...], 5 hours [...], 1 day [...], 2 days after the previous retry",
            CHARGEBEE_RETRIES,
        )],
        notes: &[],
        left_out: &[
            "the timeouts: Chargebee names a connection, a read and a total webhook timeout \
             without their values (give --attempt-timeout)",
        ],
    },
    Preset {
        name: "recurly-webhooks",
        provider: "Recurly webhooks",
        side: Side::WebhookSender,
        values: &[quote(
            SCHEDULE,
            "10s,74s,266s,778s,2058s,5130s,12298s,28682s,65546s,147466s",
            "Each notification is retried up to 10 times [...] The interval before each retry \
             grows exponentially, approximately following: 10 + x * 2^(x + 5) seconds Where x \
             is the current retry attempt (0-indexed).",
            RECURLY_RETRIES,
        )
        .inferred(
            "computed from the formula for x = 0 to 9 (Recurly says \"approximately\"): 10 \
             delays summing to 262,308 s, about 72.9 h",
        )],
        notes: &[],
        left_out: &["the per-attempt timeout: not stated (give --attempt-timeout)"],
    },
    Preset {
        name: "paddle-webhooks",
        provider: "Paddle webhooks",
        side: Side::WebhookSender,
        values: &[
            quote(
                TIMEOUT,
                "5s",
                "Returns 200 within five seconds of receiving a request",
                PADDLE_DELIVERY,
            ),
            quote(
                SPAN,
                "3d",
                "For live accounts, Paddle retries failed deliveries up to 60 times over 3 days \
                 using exponential backoff",
                PADDLE_DELIVERY,
            ),
        ],
        notes: &[],
        left_out: &[
            "the delays of the 60 retries: not published (the count and span are from the page's \
             summary), so the preset sets neither (give --schedule spanning 3 days)",
        ],
    },
    Preset {
        name: "zoom-webhooks",
        provider: "Zoom webhooks",
        side: Side::WebhookSender,
        values: &[
            quote(
                TIMEOUT,
                "3s",
                "your Event Notification Endpoint URL should respond with either a 200 or a 204 \
                 HTTP status code within three seconds",
                ZOOM_DELAYS,
            ),
            quote(
                SCHEDULE,
                "5m,20m,60m",
                "The first retry will be sent 5 minutes after the initial notification delivery \
                 attempt, second retry will be sent 20 minutes after the first retry attempt and \
                 third retry will be sent 60 minutes after the second retry attempt",
                ZOOM_DELAYS,
            ),
        ],
        notes: &[
            "Zoom counts each delay from the previous attempt's send, the model from its 3 s \
             timeout: the model's horizon is 9 s longer than Zoom's, an upper bound",
        ],
        left_out: &[],
    },
    Preset {
        name: "square-webhooks",
        provider: "Square webhooks",
        side: Side::WebhookSender,
        values: &[
            quote(
                TIMEOUT,
                "10s",
                "Applications must acknowledge the notification by responding within 10 seconds \
                 with an HTTP 2xx response code.",
                SQUARE_SLA,
            ),
            quote(
                SCHEDULE,
                "1m,2m,4m,8m,16m,32m,60m",
                "Retry attempt, time between attempts: 1, 1 minute; 2, 2 minutes; 3, 4 minutes; \
                 4, 8 minutes; 5, 16 minutes; 6, 32 minutes; 7 - 78, 60 minutes",
                SQUARE_SLA,
            ),
            quote(
                RETRIES,
                "78",
                "Unsuccessful deliveries are retried for up to 72 hours after the originating \
                 event. [...] Retry attempt 7 - 78, 60 minutes, time since webhook event 2 - 72 \
                 hours",
                SQUARE_SLA,
            )
            .disputed(Disagreement {
                value: "28",
                says: "Unsuccessful deliveries are retried for up to 24 hours. After 24 hours, \
                       the notification is discarded and not sent again.",
                source: SQUARE_TROUBLESHOOTING,
                choice: "the preset uses the delivery SLA page, the one that lists the schedule \
                         (78 retries, 72 hours): a dedupe TTL that covers it covers 24 hours \
                         too; --retries 28 keeps the retries within the other page's 24 hours",
            }),
        ],
        notes: &[
            "Square's table counts each retry from the previous attempt and rounds its times; \
             the model adds 79 attempt timeouts of 10 s, so its horizon ends about an hour past \
             the 72 hours: a dedupe TTL that covers it covers Square's span",
        ],
        left_out: &[],
    },
    Preset {
        name: "razorpay-webhooks",
        provider: "Razorpay webhooks",
        side: Side::WebhookSender,
        values: &[quote(
            SPAN,
            "24h",
            "If there is a delivery failure, we retry the delivery in exponential backoff policy \
             for 24 hours after event creation timestamp.",
            RAZORPAY_PRACTICES,
        )],
        notes: &[],
        left_out: &[
            "the delays, their number and the per-attempt timeout: not published, so the preset \
             sets no input (give --schedule spanning 24 hours and --attempt-timeout)",
        ],
    },
    Preset {
        name: "mollie-webhooks",
        provider: "Mollie webhooks",
        side: Side::WebhookSender,
        values: &[
            quote(
                TIMEOUT,
                "15s",
                "Our webhook calls time out after 15 seconds. Even if you return a 200 OK HTTP \
                 status after 16 seconds, we will mark the webhook call as failed and try again \
                 later.",
                MOLLIE_WEBHOOKS,
            ),
            quote(
                SCHEDULE,
                "1m,2m,4m,8m,16m,29m,1h,2h,22h",
                "In total we will call your webhook 10 times with an increasing interval. If \
                 after the 10th call we still do not get a 200 OK response (which is after 26 \
                 hours), we will stop trying. [...] 1 minute [...] 2 minutes [...] 4 minutes \
                 [...] 8 minutes [...] 16 minutes [...] 29 minutes [...] 1 hour [...] 2 hours \
                 [...] 22 hours",
                MOLLIE_WEBHOOKS,
            )
            .inferred(
                "Mollie's intervals are between the calls' starts (its table's times after the \
                 status change: 00:01, 00:03, ... 26:00); the model waits each after a 15 s \
                 timeout, so its k-th retry starts k x 15 s after Mollie's (the 9th, 2 min 15 s \
                 after Mollie's 26 hours)",
            ),
        ],
        notes: &[
            "quoted from the source of docs.mollie.com's webhooks guide: the stored copies of the \
             live page are cut before its retry schema, so check the current page before you \
             rely on it",
        ],
        left_out: &[],
    },
    Preset {
        name: "standard-webhooks",
        provider: "Standard Webhooks (specification 1.0.0, its example schedule)",
        side: Side::WebhookSender,
        values: &[
            quote(
                TIMEOUT,
                "30s",
                "A recommended request timeout value for webhooks is somewhere between 15 and 30s.",
                STANDARD_WEBHOOKS,
            )
            .inferred(
                "the specification gives a range: the preset takes its upper end, the longest a \
                 conforming sender waits, so the horizon is the longest this schedule reaches \
                 (--attempt-timeout 15s for the other end)",
            ),
            quote(
                SCHEDULE,
                "5s,5m,30m,2h,5h,10h,14h,20h,24h",
                "Example retry schedule: Immediately, 5 seconds, 5 minutes, 30 minutes, 2 hours, \
                 5 hours, 10 hours, 14 hours, 20 hours, 24 hours (time since start 75:35:05)",
                STANDARD_WEBHOOKS,
            ),
        ],
        notes: &[
            "a specification, not a sender: a sender that follows it may use another schedule",
            "the specification's own dedupe example, \"save the IDs in redis for 5 minutes\", \
             recognises only the first retry of this schedule (35 s after the first attempt); \
             the second comes 6 min 5 s in",
        ],
        left_out: &[],
    },
];

/// Providers looked up whose documentation confirmed nothing a preset could set.
pub const UNCONFIRMED: &[(&str, &str)] = &[
    (
        "braintree",
        "no idempotency-key length or retention found in the stored documentation (its \
         webhooks: braintree-webhooks)",
    ),
    (
        "gocardless",
        "Idempotency-Key is supported on creation endpoints; its retention and length were \
         not found in the stored documentation (its webhooks: gocardless-webhooks)",
    ),
    (
        "square",
        "Square does not publish a retention period for idempotency keys (developer forum, \
         Square staff; its webhooks: square-webhooks)",
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

    /// Where the retries and the horizon of [`Preset::over_defaults`] come from.
    pub fn horizon_basis(&self) -> HorizonBasis {
        let patch = self.patch();
        if patch.get(Input::Retries) == Some(0.0) {
            HorizonBasis::NoRetries
        } else if patch.schedule().is_some() {
            HorizonBasis::Schedule
        } else {
            HorizonBasis::Defaults
        }
    }

    /// The documented span of the retries, when the preset gives one without delays.
    pub fn retry_span(&self) -> Option<&'static Value> {
        self.values
            .iter()
            .find(|v| v.target == Target::Note("retry_span"))
    }

    /// Whether any value the retries or the horizon rest on is dupcost's own inference.
    pub fn horizon_inferred(&self) -> bool {
        self.values.iter().any(|v| {
            v.inference.is_some()
                && matches!(
                    v.target,
                    Target::Schedule | Target::Input(Input::Retries | Input::AttemptTimeout)
                )
        })
    }
}

/// Where a preset's retries and horizon come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum HorizonBasis {
    /// The preset's own delays (see its values for any inference).
    Schedule,
    /// The preset sets no retries after a timeout: the horizon is one attempt timeout.
    NoRetries,
    /// The preset sets no delays: the retries and horizon are the defaults', not the
    /// provider's.
    Defaults,
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
    /// Where `retries` and `retry_horizon_seconds` come from.
    pub horizon_basis: HorizonBasis,
    /// Whether a value they rest on is dupcost's inference (see the values).
    pub horizon_inferred: bool,
    /// The per-attempt timeout over the defaults, in seconds (the horizon's other term).
    pub attempt_timeout_seconds: f64,
    /// What the values mean for the model.
    pub notes: &'static [&'static str],
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
    /// dupcost's own reading, when the page does not give the value as it stands.
    pub inference: Option<&'static str>,
    /// Another page of the provider with another figure, and which one the preset uses.
    pub disagreement: Option<Disagreement>,
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
                    inference: v.inference,
                    disagreement: v.disagreement,
                })
                .collect(),
            retries: scenario.retries,
            retry_horizon_seconds: estimate.retry_horizon_seconds,
            left_out: preset.left_out,
            horizon_basis: preset.horizon_basis(),
            horizon_inferred: preset.horizon_inferred(),
            attempt_timeout_seconds: scenario.attempt_timeout_seconds,
            notes: preset.notes,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_value_parses_and_every_preset_validates() {
        for preset in PRESETS {
            assert!(!preset.values.is_empty(), "{}", preset.name);
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
                let sources =
                    std::iter::once(value.source).chain(value.disagreement.map(|d| d.source));
                for source in sources {
                    assert!(source.url.starts_with("https://"), "{}", preset.name);
                    assert_eq!(source.read.len(), 10, "{}: {}", preset.name, source.read);
                }
                assert!(!value.says.is_empty(), "{}", preset.name);
            }
            preset.over_defaults().validate().unwrap();
        }
    }

    #[test]
    fn names_follow_the_convention_and_are_unique() {
        for (i, preset) in PRESETS.iter().enumerate() {
            let webhook = preset.name.ends_with("-webhooks");
            assert_eq!(
                webhook,
                preset.side == Side::WebhookSender,
                "{}",
                preset.name
            );
            assert!(
                PRESETS[..i].iter().all(|p| p.name != preset.name),
                "{} twice",
                preset.name
            );
            assert!(
                UNCONFIRMED.iter().all(|(n, _)| *n != preset.name),
                "{} both a preset and unconfirmed",
                preset.name
            );
        }
    }

    #[test]
    fn the_basis_of_the_horizon() {
        let basis = |name| find(name).unwrap().horizon_basis();
        assert_eq!(basis("svix-webhooks"), HorizonBasis::Schedule);
        assert_eq!(basis("github-webhooks"), HorizonBasis::NoRetries);
        assert_eq!(basis("twilio-webhooks"), HorizonBasis::NoRetries);
        assert_eq!(basis("gocardless-webhooks"), HorizonBasis::Defaults);
        assert_eq!(basis("stripe"), HorizonBasis::Defaults);
        assert!(find("adyen-webhooks").unwrap().horizon_inferred());
        assert!(!find("svix-webhooks").unwrap().horizon_inferred());
        assert!(find("razorpay-webhooks").unwrap().retry_span().is_some());
    }

    #[test]
    fn unknown_lists_the_known() {
        let err = find("strip").unwrap_err();
        assert!(err.contains("known: stripe, adyen"), "{err}");
        let err = find("square").unwrap_err();
        assert!(err.contains("does not publish a retention period"), "{err}");
        assert!(find("mollie-webhooks").unwrap().horizon_inferred());
        assert_eq!(find("Stripe").unwrap().name, "stripe");
    }
}
