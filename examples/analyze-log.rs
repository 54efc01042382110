//! Reads logs with the library and prints the derived inputs and observed figures as JSON
//! (a development aid; `dupcost logs` is the real command).

fn main() {
    let sources: Vec<dupcost::logs::Source> = std::env::args()
        .skip(1)
        .map(|a| a.as_str().into())
        .collect();
    let opts = dupcost::logs::LogOptions {
        progress: true,
        ..Default::default()
    };
    let result = dupcost::logs::analyze(&sources, &opts)
        .and_then(|a| a.derive(&dupcost::model::Scenario::default(), &Default::default()));
    match result {
        Ok(d) => println!("{}", serde_json::to_string_pretty(&d).unwrap_or_default()),
        Err(e) => {
            eprintln!("Error: {e}");
            std::process::exit(2);
        }
    }
}
