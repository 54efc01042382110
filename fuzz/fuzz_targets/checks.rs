//! The properties the fuzz targets check, shared with `tests/fuzz_regressions.rs`, which
//! replays every input that ever failed them.
#![allow(dead_code)]

use dupcost::inputs::Input;
use dupcost::inputs::{ScenarioPatch, resolve};
use dupcost::model::Estimate;
use dupcost::model::Scenario;
use dupcost::sweep::{MAX_STEPS, Sweep};
use dupcost::units::{Count, Duration, Money, Rate, Size};

/// Every units parser on arbitrary text: never a panic; what parses is in range and its
/// `Display` parses back to the same value.
pub fn units(text: &str) {
    if let Ok(rate) = text.parse::<Rate>() {
        assert!((0.0..=1.0).contains(&rate.0), "{text:?} -> {rate:?}");
        let back: Rate = rate.to_string().parse().expect("a displayed rate parses");
        assert_eq!(back, rate, "{text:?}");
    }
    if let Ok(money) = text.parse::<Money>() {
        assert!(
            money.0.is_finite() && money.0 >= 0.0,
            "{text:?} -> {money:?}"
        );
        let back: Money = money.to_string().parse().expect("displayed money parses");
        assert!(
            (back.0 - money.0).abs() <= 1e-9 * money.0.max(1.0),
            "{text:?}"
        );
    }
    if let Ok(count) = text.parse::<Count>() {
        assert!(
            count.0.is_finite() && count.0 >= 0.0,
            "{text:?} -> {count:?}"
        );
    }
    if let Ok(duration) = text.parse::<Duration>() {
        let back: Duration = duration
            .to_string()
            .parse()
            .expect("a displayed duration parses");
        assert_eq!(back, duration, "{text:?}");
    }
    if let Ok(size) = text.parse::<Size>() {
        let back: Size = size.to_string().parse().expect("a displayed size parses");
        assert_eq!(back, size, "{text:?}");
    }
    for input in Input::ALL {
        if let Ok(value) = input.parse(text) {
            let _ = input.display(value);
        }
    }
}

/// `--sweep` on arbitrary text: never a panic, never more than MAX_STEPS values, and every
/// value makes a valid scenario and a finite estimate.
pub fn sweep(text: &str) {
    let Ok(sweep) = text.parse::<Sweep>() else {
        return;
    };
    let values = sweep.values();
    assert!(
        !values.is_empty() && values.len() <= MAX_STEPS,
        "{text:?}: {} values",
        values.len()
    );
    for estimate in sweep.run(&Scenario::default()) {
        estimate
            .inputs
            .validate()
            .expect("swept scenarios are valid");
        assert!(estimate.duplicates.per_day.is_finite() && estimate.duplicates.per_day >= 0.0);
    }
}

/// The `--scenario` loader on arbitrary bytes: never a panic; what it accepts either resolves
/// to a valid scenario with finite figures or is refused with a message.
pub fn scenario_file(text: &str) {
    let Ok(patch) = ScenarioPatch::from_json(text) else {
        return;
    };
    let path = std::path::Path::new("fuzz.json");
    if let Ok(scenario) = resolve(Some((path, &patch)), &ScenarioPatch::default()) {
        let e = Estimate::new(scenario);
        for (name, value) in dupcost::report::fields(&e) {
            assert!(value.is_finite(), "{name} = {value} from {text:?}");
        }
    }
}
