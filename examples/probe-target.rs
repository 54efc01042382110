//! A loopback HTTP endpoint that measures how tightly `dupcost probe` releases a concurrent
//! round: for each idempotency key it records when each request's head had been read (the
//! moment a server would check its key store), and after `N` requests prints, over the keys
//! of the concurrent check's rounds, the spread from the first arrival to the last.
//!
//!     cargo run --release --example probe-target -- N     # prints "listening PORT" first
//!
//! Every request executes (keys are ignored) and gets an order id of its own. bench/probe.sh
//! runs it against the probe.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::Instant;

fn main() {
    let total: usize = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .expect("usage: probe-target N (requests to wait for)");
    let listener = TcpListener::bind("127.0.0.1:0").expect("a loopback port");
    println!("listening {}", listener.local_addr().unwrap().port());
    std::io::stdout().flush().unwrap();

    let start = Instant::now();
    let arrivals: Arc<Mutex<HashMap<String, Vec<u128>>>> = Arc::default();
    let next_id = Arc::new(AtomicUsize::new(1));
    let (done, finished) = mpsc::channel();
    let shared = Arc::clone(&arrivals);
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let (arrivals, next_id, done) =
                (Arc::clone(&shared), Arc::clone(&next_id), done.clone());
            std::thread::spawn(move || {
                let mut reader = BufReader::new(stream);
                let (mut key, mut length) = (String::new(), 0usize);
                let mut line = String::new();
                while reader.read_line(&mut line).is_ok_and(|n| n > 0) && !line.trim().is_empty() {
                    if let Some((name, value)) = line.split_once(':') {
                        match name.trim().to_ascii_lowercase().as_str() {
                            "idempotency-key" => key = value.trim().to_string(),
                            "content-length" => length = value.trim().parse().unwrap_or(0),
                            _ => {}
                        }
                    }
                    line.clear();
                }
                let at = start.elapsed().as_micros();
                let mut body = vec![0; length];
                let _ = reader.read_exact(&mut body);
                arrivals.lock().unwrap().entry(key).or_default().push(at);
                let id = next_id.fetch_add(1, Ordering::SeqCst);
                let answer = format!("{{\"id\":\"ord_{id}\"}}");
                let _ = write!(
                    reader.get_mut(),
                    "HTTP/1.1 201 Created\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{answer}",
                    answer.len()
                );
                let _ = done.send(());
            });
        }
    });
    for _ in 0..total {
        finished.recv().unwrap();
    }

    let arrivals = arrivals.lock().unwrap();
    // The probe's keys in the order they came: replay, the rounds, payload_mismatch (the
    // request without a key has none).
    let mut keys: Vec<&Vec<u128>> = arrivals
        .iter()
        .filter(|(key, _)| !key.is_empty())
        .map(|(_, times)| times)
        .collect();
    keys.sort_by_key(|times| times.iter().min().copied());
    let rounds = &keys[1..keys.len() - 1];
    let mut spreads: Vec<u128> = rounds
        .iter()
        .map(|times| times.iter().max().unwrap() - times.iter().min().unwrap())
        .collect();
    spreads.sort_unstable();
    let at = |q: f64| spreads[((spreads.len() - 1) as f64 * q).round() as usize];
    println!(
        "rounds {} | arrival spread of a round, first to last: median {} us, p90 {} us, max {} us",
        spreads.len(),
        at(0.5),
        at(0.9),
        at(1.0)
    );
}
