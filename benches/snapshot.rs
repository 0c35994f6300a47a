//! The cost of a snapshot: [`World::save`], [`World::load`] and
//! [`World::state_hash`] on the benchmark scenes, beside the
//! [`World::extend`] that builds the same world from its boxes.
//!
//! ```text
//! cargo bench --bench snapshot -- [--scene NAME]... [--runs N]
//! ```
//!
//! For each scene (default all five of `shared/bench/WORKLOADS.md`,
//! generated in memory by `benches/scenes.rs`): the boxes added by one
//! `extend`, then `--runs` rounds (default 9) of the four operations in
//! turn; it prints the snapshot's size and the median time of each. The
//! loaded world must hash as the saved one (checked every round). Last, the
//! price of slot reuses: uniform-1k's world loaded with and without one
//! collider added and removed 2^20 times before the save. Single thread.

#[path = "scenes.rs"]
mod scenes;

use std::hint::black_box;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use collide::World;

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort_unstable();
    times[times.len() / 2]
}

fn ms(d: Duration) -> String {
    format!("{:.3} ms", d.as_secs_f64() * 1e3)
}

fn main() -> ExitCode {
    let mut names: Vec<String> = Vec::new();
    let mut runs = 9;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--scene" => names.extend(args.next()),
            "--runs" => runs = args.next().and_then(|v| v.parse().ok()).unwrap_or(runs).max(1),
            "--bench" => {}
            other => {
                eprintln!("unknown option {other}");
                return ExitCode::FAILURE;
            }
        }
    }
    if names.is_empty() {
        names = scenes::SCENE_NAMES.iter().map(|s| s.to_string()).collect();
    }
    println!("scene         snapshot      extend        save          load          state_hash");
    for name in &names {
        let Some(scene) = scenes::generate(name, false) else {
            eprintln!("unknown scene `{name}`: one of {:?}", scenes::SCENE_NAMES);
            return ExitCode::FAILURE;
        };
        let mut world = World::new();
        world.extend(scenes::collider_descs(&scene.boxes)).expect("valid boxes");
        let mut bytes = Vec::new();
        let (mut extend, mut save, mut load, mut hash) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for _ in 0..runs {
            let start = Instant::now();
            let mut built = World::new();
            built.extend(scenes::collider_descs(&scene.boxes)).expect("valid boxes");
            extend.push(start.elapsed());
            black_box(built);

            let start = Instant::now();
            world.save(&mut bytes);
            save.push(start.elapsed());

            let start = Instant::now();
            let loaded = World::load(black_box(&bytes)).expect("a world's own snapshot");
            load.push(start.elapsed());

            let start = Instant::now();
            let h = black_box(&world).state_hash();
            hash.push(start.elapsed());
            if loaded.state_hash() != h {
                eprintln!("{name}: the loaded world hashes otherwise");
                return ExitCode::FAILURE;
            }
        }
        println!(
            "{name:<13} {:<13} {:<13} {:<13} {:<13} {}",
            format!("{:.2} MB", bytes.len() as f64 / 1e6),
            ms(median(extend)),
            ms(median(save)),
            ms(median(load)),
            ms(median(hash)),
        );
    }
    // The price of slot reuses: uniform-1k's world, then one collider added
    // and removed 2^20 times, loaded against the same world without them.
    let scene = scenes::generate("uniform-1k", false).expect("a known scene");
    let mut plain = World::new();
    plain.extend(scenes::collider_descs(&scene.boxes)).expect("valid boxes");
    let mut churned = plain.clone();
    let reuses = 1u32 << 20;
    for _ in 0..reuses {
        let key = churned
            .add(scenes::collider_descs(&scene.boxes).next().expect("a box"))
            .expect("room");
        churned.remove(key).expect("live");
    }
    let (mut plain_bytes, mut churned_bytes) = (Vec::new(), Vec::new());
    plain.save(&mut plain_bytes);
    churned.save(&mut churned_bytes);
    let (mut plain_load, mut churned_load) = (Vec::new(), Vec::new());
    for _ in 0..runs {
        let start = Instant::now();
        black_box(World::load(black_box(&plain_bytes)).expect("a snapshot"));
        plain_load.push(start.elapsed());
        let start = Instant::now();
        black_box(World::load(black_box(&churned_bytes)).expect("a snapshot"));
        churned_load.push(start.elapsed());
    }
    let (plain_load, churned_load) = (median(plain_load), median(churned_load));
    println!(
        "uniform-1k with 2^20 slot reuses: load {} (without them {}): {:.1} ns per reuse",
        ms(churned_load),
        ms(plain_load),
        (churned_load.as_secs_f64() - plain_load.as_secs_f64()) * 1e9 / f64::from(reuses)
    );
    ExitCode::SUCCESS
}
