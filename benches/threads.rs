//! Scaling over cores: the world's batch work on the calling thread alone
//! against the same work on every core, by scoped threads
//! ([`Threads::Count`]`(0)`) and by rayon's pool ([`Threads::Rayon`], the
//! default), interleaved run by run.
//!
//! ```text
//! cargo bench --bench threads -- [--scene NAME]... [--runs N] [--million]
//! ```
//!
//! For each scene (default all five of `shared/bench/WORKLOADS.md`,
//! generated in memory by `benches/scenes.rs`; `--million` adds a million
//! boxes scattered as the load test's, a tenth of them moved per frame),
//! the median over `--runs` runs (default 5) of:
//!
//! - `pairs`: a first [`World::pairs`] on a world just built by `extend`;
//! - `update`: one [`World::set_transforms`] with a frame's moves;
//! - `frame`: that update and the [`World::pairs`] after it;
//! - `cast-batch`: [`World::segment_cast_batch`] of the bullets (per
//!   segment).
//!
//! Each ratio is the one-thread time over the all-core time (2 on two
//! cores is perfect scaling). Every setting must give the same pairs and
//! hits: a disagreement prints `MISMATCH` and fails the run.

#[path = "scenes.rs"]
mod scenes;

use std::hint::black_box;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use collide::math::Vec3;
use collide::{ColliderKey, QueryFilter, Segment, Threads, Transform, World};

/// The settings compared: one thread, then all cores two ways.
const SETTINGS: [Threads; 3] = [Threads::CallingThread, Threads::Count(0), Threads::Rayon];

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort_unstable();
    times[times.len() / 2]
}

/// A million boxes of half-extent 0.25 to 1.5 in a cube 800 wide (the
/// load test's density), 2,000 bullets, and three frames each moving a
/// tenth of the boxes by up to a unit.
fn million() -> scenes::Scene {
    let mut rng = scenes::SplitMix64::new(2024);
    let mut v = |lo: f64, hi: f64| rng.uniform(lo, hi) as f32;
    let boxes: Vec<scenes::Record> = (0..1_000_000)
        .map(|_| {
            let c = Vec3::new(v(0.0, 800.0), v(0.0, 800.0), v(0.0, 800.0));
            let h = Vec3::new(v(0.25, 1.5), v(0.25, 1.5), v(0.25, 1.5));
            let (min, max) = (c - h, c + h);
            [min.x, min.y, min.z, max.x, max.y, max.z]
        })
        .collect();
    let bullets = (0..2_000)
        .map(|_| {
            let s = [v(0.0, 800.0), v(0.0, 800.0), v(0.0, 800.0)];
            let d = Vec3::new(v(-1.0, 1.0), v(-1.0, 1.0), v(-1.0, 1.0)).normalize_or(Vec3::X) * 30.0;
            [s[0], s[1], s[2], s[0] + d.x, s[1] + d.y, s[2] + d.z]
        })
        .collect();
    let frames = (0..3u32)
        .map(|f| {
            (0..100_000u32)
                .map(|i| {
                    (
                        (f * 7919 + i * 10) % 1_000_000,
                        [v(-1.0, 1.0), v(-1.0, 1.0), v(-1.0, 1.0)],
                    )
                })
                .collect()
        })
        .collect();
    scenes::Scene {
        name: "million".into(),
        boxes,
        bullets,
        hitscan: Vec::new(),
        frames,
    }
}

/// The timings of one setting on one scene, and what it answered.
#[derive(Default)]
struct Times {
    pairs: Vec<Duration>,
    update: Vec<Duration>,
    frame: Vec<Duration>,
    cast: Vec<Duration>,
    /// Pair counts after the first call and after each frame; hits.
    answers: Vec<u64>,
}

/// One workload's timings in [`Times`].
type Field = fn(&Times) -> &[Duration];

/// One run of every workload with `threads`.
fn run(scene: &scenes::Scene, threads: Threads, times: &mut Times) {
    let mut world = World::new();
    world.set_threads(threads);
    let keys: Vec<ColliderKey> = world.extend(scenes::collider_descs(&scene.boxes)).expect("valid boxes");
    let start = Instant::now();
    let count = black_box(world.pairs()).len();
    times.pairs.push(start.elapsed());
    let mut answers = vec![count as u64];

    let mut offsets = vec![Vec3::ZERO; keys.len()];
    let (mut update, mut frame) = (Duration::ZERO, Duration::ZERO);
    for moves in &scene.frames {
        let transforms: Vec<(ColliderKey, Transform)> = moves
            .iter()
            .map(|&(i, d)| {
                offsets[i as usize] += Vec3::from(d);
                (keys[i as usize], Transform::from_translation(offsets[i as usize]))
            })
            .collect();
        let start = Instant::now();
        world.set_transforms(&transforms).expect("valid moves");
        let moved = start.elapsed();
        let count = black_box(world.pairs()).len();
        frame += start.elapsed();
        update += moved;
        answers.push(count as u64);
    }
    let frames = scene.frames.len().max(1) as u32;
    times.update.push(update / frames);
    times.frame.push(frame / frames);

    let segments: Vec<Segment> = scene
        .bullets
        .iter()
        .map(|s| Segment::new(Vec3::new(s[0], s[1], s[2]), Vec3::new(s[3], s[4], s[5])))
        .collect();
    let mut hits = vec![None; segments.len()];
    let start = Instant::now();
    world
        .segment_cast_batch(&segments, &QueryFilter::ALL, &mut hits)
        .expect("valid segments");
    times.cast.push(start.elapsed() / segments.len().max(1) as u32);
    answers.extend(hits.iter().map(|h| h.map_or(u64::MAX, |h| h.user_data)));
    times.answers = answers;
}

fn main() -> ExitCode {
    let mut names: Vec<String> = Vec::new();
    let mut runs = 5;
    let mut with_million = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--scene" => names.extend(args.next()),
            "--runs" => runs = args.next().and_then(|v| v.parse().ok()).unwrap_or(runs).max(1),
            "--million" => with_million = true,
            "--bench" => {}
            other => {
                eprintln!("unknown option {other}");
                return ExitCode::FAILURE;
            }
        }
    }
    if names.is_empty() && !with_million {
        names = scenes::SCENE_NAMES.iter().map(|s| s.to_string()).collect();
    }
    let mut scenes_to_run = Vec::new();
    for name in &names {
        let Some(scene) = scenes::generate(name, false) else {
            eprintln!("unknown scene `{name}`: one of {:?}", scenes::SCENE_NAMES);
            return ExitCode::FAILURE;
        };
        scenes_to_run.push(scene);
    }
    if with_million {
        scenes_to_run.push(million());
    }
    println!(
        "{} cores; 1 thread against all ({} scoped threads; {} rayon threads), median of {runs}",
        std::thread::available_parallelism().map_or(1, |n| n.get()),
        Threads::Count(0).count(),
        Threads::Rayon.count()
    );
    println!(
        "{:<13} {:<11} {:>12} {:>12} {:>6} {:>12} {:>6}",
        "scene", "workload", "1 thread", "scoped", "ratio", "rayon", "ratio"
    );
    let mut ok = true;
    for scene in &scenes_to_run {
        let mut times: [Times; 3] = Default::default();
        for _ in 0..runs {
            for (setting, t) in SETTINGS.iter().zip(times.iter_mut()) {
                run(scene, *setting, t);
            }
        }
        let rows: [(&str, Field, f64, &str); 4] = [
            ("pairs", |t| &t.pairs, 1e3, "ms"),
            ("update", |t| &t.update, 1e3, "ms"),
            ("frame", |t| &t.frame, 1e3, "ms"),
            ("cast-batch", |t| &t.cast, 1e9, "ns"),
        ];
        for (label, field, scale, unit) in rows {
            let [one, scoped, rayon] = times.each_ref().map(|t| median(field(t).to_vec()).as_secs_f64());
            println!(
                "{:<13} {:<11} {:>9.3} {unit} {:>9.3} {unit} {:>6.2} {:>9.3} {unit} {:>6.2}",
                scene.name,
                label,
                one * scale,
                scoped * scale,
                one / scoped,
                rayon * scale,
                one / rayon
            );
        }
        if times.iter().any(|t| t.answers != times[0].answers) {
            println!("{:<13} MISMATCH: the settings' pairs or hits differ", scene.name);
            ok = false;
        }
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
