//! The four checks: send through a [`Transport`], judge with [`judge`], one [`Check`] each.
//!
//! Every key is a fresh UUID (v4), so no run meets the keys of another. The first request of
//! `replay` is also the probe's test of the request itself: no answer, a redirect (never
//! followed) or an answer that is not accepted stops the run before anything is judged.
//!
//! A pass that rests on two accepted answers being alike (a replay) is only as good as the
//! answers' power to tell executions apart: when the first answers to two *different* keys
//! are alike too (`{"ok":true}`), a replay cannot be told from a second execution, and such
//! a pass becomes a warning that names `--id`.

use std::sync::Barrier;

use super::judge::{self, Identity};
use super::{Answer, Check, Finding, Options, Outcome, ProbeError, Request, Transport};

/// The checks, in the order they run.
pub const CHECKS: [&str; 4] = ["replay", "concurrent", "payload_mismatch", "missing_key"];

/// Runs the four checks, and tells whether the answers told executions apart (see the module
/// docs); stops with a one-line error when the first request shows that nothing can be judged.
pub fn run(
    request: &Request,
    options: &Options,
    transport: &dyn Transport,
) -> Result<(Vec<Check>, bool), ProbeError> {
    let mut probe = Prober {
        request,
        options,
        transport,
        first_identities: Vec::new(),
    };
    let mut judged = vec![probe.replay()?];
    judged.push(probe.concurrent());
    judged.push(probe.payload_mismatch());
    judged.push(probe.missing_key());

    let blind = has_alike(&probe.first_identities);
    let checks = judged
        .into_iter()
        .map(|(mut check, compared)| {
            if blind && compared {
                check.detail.push_str(
                    "; but the answers to different keys are alike too, so a replay cannot be \
                     told from a second execution: name the created resource's id with --id \
                     (or return it, or a Location)",
                );
                match check.finding {
                    Finding::PayloadIgnored { .. } => {
                        check.finding = Finding::PayloadIgnored { executed: None }
                    }
                    _ if check.outcome == Outcome::Pass => check.outcome = Outcome::Warn,
                    _ => {}
                }
            }
            check
        })
        .collect();
    Ok((checks, !blind))
}

/// Whether two different keys' first accepted answers are alike.
fn has_alike(identities: &[Identity]) -> bool {
    identities
        .iter()
        .enumerate()
        .any(|(i, a)| identities[i + 1..].contains(a))
}

struct Prober<'a> {
    request: &'a Request,
    options: &'a Options,
    transport: &'a dyn Transport,
    /// The first accepted answer's identity for each key (and for no key).
    first_identities: Vec<Identity>,
}

/// A check, and whether its outcome rests on two accepted answers being alike.
type Judged = (Check, bool);

impl Prober<'_> {
    fn pointer(&self) -> Option<&str> {
        self.options.id_pointer.as_deref()
    }

    fn send(&mut self, key: Option<&str>, body: &[u8]) -> Answer {
        self.transport.send(key, body)
    }

    fn remember(&mut self, answers: &[Answer]) {
        if let Some(id) = answers.iter().find_map(|a| judge::identity(a, self.pointer())) {
            self.first_identities.push(id);
        }
    }

    fn replay(&mut self) -> Result<Judged, ProbeError> {
        let key = new_key();
        let body = self.request.body.clone();
        let first = self.send(Some(&key), &body);
        self.stop_unless_accepted(&first)?;
        let second = self.send(Some(&key), &body);
        let answers = [first, second];
        self.remember(&answers[..1]);
        let executions = judge::executions(&answers, self.pointer()).len();
        let (first_status, second_status) = (status(&answers[0]), status(&answers[1]));
        let mut check = check("replay", 2, executions);
        let mut compared = false;
        if executions > 1 {
            check.outcome = Outcome::Fail;
            check.finding = Finding::KeyIgnored;
            check.detail = format!(
                "the same request with the same key ran twice: the second answer differs from \
                 the first ({}){}",
                if first_status == second_status {
                    format!("both {first_status}")
                } else {
                    format!("{first_status}, then {second_status}")
                },
                self.judged_by()
            );
        } else if judge::accepted(&answers[1]) {
            compared = true;
            check.detail = format!(
                "the second answer replayed the first ({first_status}, {})",
                self.alike()
            );
        } else {
            check.outcome = Outcome::Warn;
            check.detail = match &answers[1] {
                Answer::Failed(why) => {
                    format!("the second request got no answer ({why}), so nothing was judged")
                }
                _ if answers[1].status() == Some(409) => format!(
                    "the retry, sent after the first was answered ({first_status}), got 409: the \
                     key still reads as in flight, so a client that retries never learns the outcome"
                ),
                _ => format!(
                    "the retry got {second_status}, not the replay of the first answer \
                     ({first_status}): no second execution, but a client that retries never \
                     learns the outcome"
                ),
            };
        }
        Ok((check, compared))
    }

    /// The first request must be answered, not redirected, and accepted.
    fn stop_unless_accepted(&self, first: &Answer) -> Result<(), ProbeError> {
        let target = &self.request.target;
        let method = &self.request.method;
        const NOTHING: &str = "1 request sent, nothing judged";
        match first {
            Answer::Failed(why) => Err(ProbeError::Unreachable(format!(
                "no answer from {target} ({why}); {NOTHING}"
            ))),
            Answer::Response {
                status, location, ..
            } if judge::redirect(first) => Err(ProbeError::Redirected(format!(
                "{method} {target} was answered {status} to {}; dupcost probe follows no redirect \
                 (and never one to another host): probe the final URL if it is yours; {NOTHING}",
                location.as_deref().unwrap_or("(no Location)")
            ))),
            Answer::Response { status, body, .. } if !judge::accepted(first) => {
                Err(ProbeError::Refused(format!(
                    "the first {method} to {target} was answered {status}, not 2xx ({}): give \
                     the request the endpoint accepts (--data, --header); {NOTHING}",
                    some_or(judge::excerpt(body), "an empty body")
                )))
            }
            Answer::Response { .. } => Ok(()),
        }
    }

    fn concurrent(&mut self) -> Judged {
        let (n, rounds) = (self.options.concurrency, self.options.rounds);
        let body = self.request.body.clone();
        let mut all = Vec::with_capacity(n * rounds);
        let (mut executions, mut extra, mut rounds_over, mut rounds_none) = (0, 0, 0, 0);
        let mut replays = 0;
        for _ in 0..rounds {
            let key = new_key();
            let answers = together(self.transport, n, &key, &body);
            let seen = judge::executions(&answers, self.pointer()).len();
            self.remember(&answers);
            executions += seen;
            extra += seen.saturating_sub(1);
            rounds_over += usize::from(seen > 1);
            rounds_none += usize::from(seen == 0);
            if seen == 1 {
                replays += answers.iter().filter(|a| judge::accepted(a)).count() - 1;
            }
            all.extend(answers);
        }
        let requests = all.len();
        let conflicts = all.iter().filter(|a| a.status() == Some(409)).count();
        let other = requests - conflicts - replays - (rounds - rounds_none);
        let mut check = check("concurrent", requests, executions);
        check.extra_executions = extra;
        let answers = judge::statuses(&all);
        let mut compared = false;
        if extra > 0 {
            check.outcome = Outcome::Fail;
            check.finding = Finding::Race {
                extra,
                of: requests - rounds,
            };
            check.detail = format!(
                "{rounds_over} of {rounds} rounds of {n} requests with one key released together \
                 executed more than once: {extra} extra executions of the {} that should have \
                 got 409 or the replay (answers: {answers}){}",
                requests - rounds,
                self.judged_by()
            );
        } else if rounds_none == 0 && other == 0 {
            compared = replays > 0;
            check.detail = format!(
                "each of {rounds} rounds of {n} requests with one key released together executed \
                 once; the other {} got 409 ({conflicts}) or the replay ({replays})",
                requests - rounds
            );
        } else {
            check.outcome = Outcome::Warn;
            check.detail = format!(
                "no round executed twice, but {other} answers were neither the one execution, a 409 \
                 nor the replay (answers: {answers}): a 5xx or a timeout can hide an execution"
            );
            if rounds_none > 0 {
                check.detail.push_str(&format!(
                    "; {rounds_none} of {rounds} rounds had no accepted answer at all"
                ));
            }
        }
        (check, compared)
    }

    fn payload_mismatch(&mut self) -> Judged {
        let changed = match &self.request.changed_body {
            Ok(changed) => changed.clone(),
            Err(why) => {
                let mut check = check("payload_mismatch", 0, 0);
                check.outcome = Outcome::Warn;
                check.detail = why.clone();
                return (check, false);
            }
        };
        let key = new_key();
        let body = self.request.body.clone();
        let first = self.send(Some(&key), &body);
        if !judge::accepted(&first) {
            let mut check = check(
                "payload_mismatch",
                1,
                usize::from(judge::accepted(&first)),
            );
            check.outcome = Outcome::Warn;
            check.detail = format!(
                "the first request got {}, so the changed one was not sent",
                status(&first)
            );
            return (check, false);
        }
        let second = self.send(Some(&key), &changed);
        let answers = [first, second];
        self.remember(&answers[..1]);
        let executions = judge::executions(&answers, self.pointer()).len();
        let mut check = check("payload_mismatch", 2, executions);
        check.extra_executions = executions - 1;
        let second_status = status(&answers[1]);
        let mut compared = false;
        match answers[1].status() {
            Some(422) => {
                check.detail = "the key reused with another payload got 422".to_string();
            }
            Some(s) if (400..500).contains(&s) => {
                check.detail = format!(
                    "the key reused with another payload got {s}, not the draft's 422, but was \
                     refused (unless the changed body itself was)"
                );
            }
            _ if executions > 1 => {
                check.outcome = Outcome::Fail;
                check.finding = Finding::PayloadIgnored {
                    executed: Some(true),
                };
                check.detail = format!(
                    "the key reused with another payload ran again ({second_status}, a new \
                     execution): the store does not compare payloads{}",
                    self.judged_by()
                );
            }
            _ if judge::accepted(&answers[1]) => {
                compared = true;
                check.outcome = Outcome::Fail;
                check.finding = Finding::PayloadIgnored {
                    executed: Some(false),
                };
                check.detail = format!(
                    "the key reused with another payload got the first answer replayed \
                     ({second_status}, {}): the changed request was dropped without a word, \
                     where the draft says 422",
                    self.alike()
                );
            }
            _ => {
                check.outcome = Outcome::Warn;
                check.detail = format!(
                    "the key reused with another payload got {second_status}: neither refused \
                     (4xx) nor accepted, so nothing was judged"
                );
            }
        }
        (check, compared)
    }

    fn missing_key(&mut self) -> Judged {
        let body = self.request.body.clone();
        let answer = self.send(None, &body);
        self.remember(std::slice::from_ref(&answer));
        let accepted = judge::accepted(&answer);
        let mut check = check("missing_key", 1, usize::from(accepted));
        let header = self.request.key_header_label.as_str();
        match answer.status() {
            Some(400) => check.detail = format!("a request without {header} got 400"),
            Some(s) if (400..500).contains(&s) => {
                check.detail = format!(
                    "a request without {header} got {s}, not the draft's 400, but was refused"
                );
            }
            _ if accepted => {
                check.outcome = Outcome::Warn;
                check.finding = Finding::KeyOptional;
                check.detail = format!(
                    "a request without {header} was accepted ({}): keys are optional here, and a \
                     client that sends none has no protection",
                    status(&answer)
                );
            }
            _ => {
                check.outcome = Outcome::Warn;
                check.detail = format!(
                    "a request without {header} got {}: neither refused (4xx) nor accepted",
                    status(&answer)
                );
            }
        }
        (check, false)
    }

    /// How two answers were compared, for a failure's detail.
    fn judged_by(&self) -> String {
        match self.pointer() {
            Some(p) => format!(" (compared by Location and the id at {p})"),
            None => " (compared by Location and body; if bodies differ for another reason, a \
                     time or a request id, name the resource's id with --id)"
                .to_string(),
        }
    }

    /// What "alike" meant, for a pass's detail.
    fn alike(&self) -> String {
        match self.pointer() {
            Some(p) => format!("same Location and id at {p}"),
            None => "same Location and body".to_string(),
        }
    }
}

/// `n` requests with one key, released together by a barrier, each on its own thread (and,
/// with [`super::Http`], its own connection).
fn together(transport: &dyn Transport, n: usize, key: &str, body: &[u8]) -> Vec<Answer> {
    let barrier = Barrier::new(n);
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..n)
            .map(|_| {
                scope.spawn(|| {
                    barrier.wait();
                    transport.send(Some(key), body)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Answer::Failed("the sending thread panicked".into()))
            })
            .collect()
    })
}

fn check(name: &'static str, requests: usize, executions_seen: usize) -> Check {
    Check {
        name,
        outcome: Outcome::Pass,
        detail: String::new(),
        requests,
        executions_seen,
        extra_executions: executions_seen.saturating_sub(1),
        finding: Finding::None,
    }
}

/// An answer's status for a detail, or "no answer (why)".
fn status(answer: &Answer) -> String {
    match answer {
        Answer::Response { status, .. } => status.to_string(),
        Answer::Failed(why) => format!("no answer: {why}"),
    }
}

fn some_or(text: String, empty: &str) -> String {
    if text.is_empty() {
        empty.to_string()
    } else {
        text
    }
}

fn new_key() -> String {
    uuid::Uuid::new_v4().to_string()
}
