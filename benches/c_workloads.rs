//! The cast and frames workloads of `shared/bench/WORKLOADS.md` from a C
//! program (`benches/c/workloads.c`, compiled here against the
//! `libcollide.a` cargo built with this bench) beside the same workloads through the Rust API, in
//! alternating rounds.
//!
//! ```text
//! cargo bench --bench c_workloads -- [--scene NAME]... [--runs N] [--rounds N]
//! ```
//!
//! The scenes' files are written once into `target/<profile>/c-workloads/`
//! by the port of `gen_scenes.py` (`benches/scenes.rs`). Each round runs the
//! C program (each workload the median of `--runs` runs, default 5) and
//! then the Rust path, the same number of runs; the table gives the medians
//! over `--rounds` (default 3) and the ratio C / Rust (above 1: the C path
//! is slower). Both paths drive a world the way README tells a game to:
//! one `phys_segment_cast` / `World::segment_cast` per bullet, and per
//! frame one `phys_set_transform` / `World::set_transform` per moved
//! collider (its translation the sum of its moves in `f32`) then
//! `phys_find_pairs_into` / `World::pairs`. Their checksums must agree
//! (the program exits with a failure status if not). Both worlds run on
//! the calling thread alone.

#[path = "scenes.rs"]
mod scenes;

// The C tests' helpers: where cargo put this build's `libcollide.a`, and
// the system libraries the Makefile links it with.
#[path = "../tests/common/c.rs"]
#[allow(dead_code)]
mod c;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Instant;

use collide::math::Vec3;
use collide::{Aabb, ColliderDesc, QueryFilter, Segment, Shape, Threads, Transform, World};

use scenes::Scene;

/// Compiles the C program into `dir`.
fn compile(root: &Path, dir: &Path) -> Result<PathBuf, String> {
    let program = dir.join("workloads");
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".to_owned());
    let status = Command::new(&cc)
        .args([
            "-O2",
            "-std=c11",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-pedantic",
            "-D_POSIX_C_SOURCE=199309L",
        ])
        .arg("-I")
        .arg(root.join("include"))
        .arg(root.join("benches/c/workloads.c"))
        .arg(c::lib_dir().join("libcollide.a"))
        .args(c::makefile_native_libs())
        .arg("-o")
        .arg(&program)
        .status()
        .map_err(|e| format!("{cc}: {e}"))?;
    if status.success() {
        Ok(program)
    } else {
        Err(format!("{cc} failed to compile benches/c/workloads.c"))
    }
}

/// The numbers of one run of a workload: its time and checksum words.
#[derive(Debug, Clone, PartialEq)]
struct Row {
    time: f64,
    checksum: String,
}

/// Runs the C program on one scene: (casts, frames).
fn run_c(program: &Path, dir: &Path, scene: &str, runs: usize) -> Result<(Row, Row), String> {
    let output = Command::new(program)
        .arg(dir)
        .arg(scene)
        .arg(runs.to_string())
        .output()
        .map_err(|e| e.to_string())?;
    if !output.status.success() {
        return Err(String::from_utf8_lossy(&output.stderr).into_owned());
    }
    let text = String::from_utf8_lossy(&output.stdout);
    let row = |name: &str, time_key: &str| -> Result<Row, String> {
        let line = text
            .lines()
            .find(|l| l.starts_with(name))
            .ok_or(format!("no {name} line"))?;
        let mut time = None;
        let mut checksum = Vec::new();
        for word in line.split_whitespace().skip(1) {
            let (key, value) = word.split_once('=').ok_or("a key=value word")?;
            if key == time_key {
                time = value.parse().ok();
            } else {
                checksum.push(word.to_owned());
            }
        }
        Ok(Row {
            time: time.ok_or("no time")?,
            checksum: checksum.join(" "),
        })
    };
    Ok((row("cast-bullets", "ns")?, row("frames", "ms")?))
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn world_of(scene: &Scene) -> (World, Vec<collide::ColliderKey>) {
    let mut world = World::new();
    // One thread, as the C program's world: the rows measure the boundary.
    world.set_threads(Threads::CallingThread);
    let keys = world
        .extend(scene.boxes.iter().map(|b| {
            ColliderDesc::new(Shape::Aabb(Aabb::new(
                Vec3::new(b[0], b[1], b[2]),
                Vec3::new(b[3], b[4], b[5]),
            )))
        }))
        .expect("valid boxes");
    (world, keys)
}

/// The same workloads through the Rust API: (casts, frames).
fn run_rust(scene: &Scene, runs: usize) -> (Row, Row) {
    let (world, _) = world_of(scene);
    let bullets: Vec<Segment> = scene
        .bullets
        .iter()
        .map(|s| Segment::new(Vec3::new(s[0], s[1], s[2]), Vec3::new(s[3], s[4], s[5])))
        .collect();
    let (mut times, mut checksum) = (Vec::new(), String::new());
    for _ in 0..runs {
        let (mut hits, mut sum_t) = (0usize, 0.0f64);
        let start = Instant::now();
        for s in &bullets {
            if let Some(hit) = world.segment_cast(s, &QueryFilter::ALL).expect("a valid segment") {
                hits += 1;
                sum_t += f64::from(hit.t);
            }
        }
        times.push(start.elapsed().as_secs_f64() / bullets.len() as f64 * 1e9);
        checksum = format!("hits={hits} sumt={sum_t:.3}");
    }
    let casts = Row {
        time: median(times),
        checksum,
    };
    let (mut times, mut checksum) = (Vec::new(), String::new());
    for _ in 0..runs {
        let (mut world, keys) = world_of(scene);
        let mut offsets = vec![[0.0f32; 3]; keys.len()];
        let mut pair_sum = 0u64;
        let start = Instant::now();
        for frame in &scene.frames {
            for &(id, d) in frame {
                let t = &mut offsets[id as usize];
                *t = [t[0] + d[0], t[1] + d[1], t[2] + d[2]];
                world
                    .set_transform(keys[id as usize], Transform::from_translation(Vec3::from(*t)))
                    .expect("a live collider");
            }
            pair_sum += world.pairs().len() as u64;
        }
        times.push(start.elapsed().as_secs_f64() / scene.frames.len().max(1) as f64 * 1e3);
        checksum = format!("pairs={pair_sum}");
    }
    let frames = Row {
        time: median(times),
        checksum,
    };
    (casts, frames)
}

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let (mut names, mut runs, mut rounds) = (Vec::new(), 5usize, 3usize);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--scene" => names.extend(args.next()),
            "--runs" => runs = args.next().and_then(|v| v.parse().ok()).unwrap_or(runs).max(1),
            "--rounds" => rounds = args.next().and_then(|v| v.parse().ok()).unwrap_or(rounds).max(1),
            "--bench" => {}
            other => {
                eprintln!("unknown option {other}");
                return ExitCode::FAILURE;
            }
        }
    }
    if names.is_empty() {
        names = scenes::SCENE_NAMES.iter().map(|s| (*s).to_owned()).collect();
    }
    let root = c::manifest_dir();
    let dir = c::profile_dir().join("c-workloads");
    let scene_dir = dir.join("scenes");
    if !scene_dir.join("moves-column-10k.bin").exists() {
        if let Err(e) = scenes::write_scenes(&scene_dir, false) {
            eprintln!("writing the scenes: {e}");
            return ExitCode::FAILURE;
        }
    }
    let program = match compile(root, &dir) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    println!("| scene | workload | Rust | C | C / Rust | checksum |");
    println!("| --- | --- | --- | --- | --- | --- |");
    let mut failed = false;
    for name in &names {
        let scene = scenes::generate(name, false).expect("a known scene");
        let (mut c_rows, mut rust_rows) = (Vec::new(), Vec::new());
        for _ in 0..rounds {
            match run_c(&program, &scene_dir, name, runs) {
                Ok(rows) => c_rows.push(rows),
                Err(e) => {
                    eprintln!("{name}: {e}");
                    return ExitCode::FAILURE;
                }
            }
            rust_rows.push(run_rust(&scene, runs));
        }
        for (workload, unit, pick) in [
            ("cast-bullets", "ns", 0usize),
            ("frames (set_transform each)", "ms", 1usize),
        ] {
            let get = |rows: &[(Row, Row)]| -> Vec<Row> {
                rows.iter()
                    .map(|r| if pick == 0 { r.0.clone() } else { r.1.clone() })
                    .collect()
            };
            let (c, rust) = (get(&c_rows), get(&rust_rows));
            let agree = c.iter().chain(&rust).all(|r| r.checksum == c[0].checksum);
            failed |= !agree;
            let (ct, rt) = (
                median(c.iter().map(|r| r.time).collect()),
                median(rust.iter().map(|r| r.time).collect()),
            );
            println!(
                "| {name} | {workload} | {rt:.3} {unit} | {ct:.3} {unit} | {:.2} | {}{} |",
                ct / rt,
                c[0].checksum,
                if agree { "" } else { " MISMATCH" }
            );
        }
    }
    if failed {
        eprintln!("the C and Rust paths disagree");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
