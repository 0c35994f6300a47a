//! The cost of the C boundary: the same bullets cast through the C ABI's
//! `phys_segment_cast` and through the safe Rust [`World::segment_cast`], in
//! one process, run after run, against the same tree.
//!
//! ```text
//! cargo bench --bench boundary -- [--scene NAME]... [--runs N]
//! ```
//!
//! For each scene (default `level-10k` and `uniform-100k` of
//! `shared/bench/WORKLOADS.md`, generated in memory by `benches/scenes.rs`):
//!
//! - the C side builds its world with one `phys_add_boxes` call, the Rust
//!   side with one [`World::extend`]: the same boxes with the same
//!   descriptions (identity transform, user data = the box's index) through
//!   the same bulk SAH build, so both cast against the same tree;
//! - the C path calls `phys_segment_cast` through an `unsafe extern "C" fn`
//!   pointer hidden from the optimiser ([`black_box`]), as a C caller's
//!   indirect call into the library would: every call pays the whole shell
//!   (pointer checks, the panic boundary, the `PhysSegment` and `PhysHit`
//!   conversions, the handle encoding) and none of it is inlined away;
//! - the Rust path calls [`World::segment_cast`] with [`QueryFilter::ALL`];
//! - before timing, both paths cast every bullet once and must agree on every
//!   answer (collider, `t`), and the hit count and Σt are held to the
//!   reference table of `WORKLOADS.md`;
//! - then `--runs` runs (default 15). A run casts every bullet once by each
//!   of three paths: C, Rust, and a control, the Rust path on a second world
//!   built the same way. The paths take turns every 1,000 bullets, in
//!   rotating order, so a burst of load elsewhere on the machine hits them
//!   alike. It prints the median ns per segment of each path, the C path's
//!   overhead (the median of the per-run ratios C / Rust, minus one; the
//!   target is at most +5 %), and the control's (the same for control /
//!   Rust): the noise floor, what two identical worlds differ by (allocation
//!   layout, frequency changes, other processes).
//!
//! Single thread. Exits with a failure status when the paths disagree.

#[path = "scenes.rs"]
mod scenes;

use std::hint::black_box;
use std::mem::MaybeUninit;
use std::process::ExitCode;
use std::ptr;
use std::time::Instant;

use collide::ffi::{
    phys_add_boxes, phys_collider_desc_default, phys_segment_cast, phys_world_create, phys_world_destroy, PhysAabb,
    PhysCollider, PhysHit, PhysQueryFilter, PhysSegment, PhysStatus, PhysVec3, PhysWorld,
};
use collide::math::Vec3;
use collide::{Aabb, ColliderDesc, QueryFilter, Segment, Shape, World};

use scenes::{Record, Scene};

const USAGE: &str = "\
usage: cargo bench --bench boundary -- [options]

  --scene NAME   a scene to run (repeatable; default: level-10k uniform-100k)
  --runs N       timed runs per path; the median is reported (default 15)";

/// Segments per chunk: the paths take turns every CHUNK segments.
const CHUNK: usize = 1000;

/// The scenes run by default.
const DEFAULT_SCENES: [&str; 2] = ["level-10k", "uniform-100k"];

/// `WORKLOADS.md`'s reference for the bullets: (scene, hits, Σt).
const REFERENCE: [(&str, usize, f64); 2] = [("level-10k", 55104, 7833.592), ("uniform-100k", 63514, 22622.305)];

/// `phys_segment_cast`'s type: how C sees it.
type SegmentCastFn = unsafe extern "C" fn(
    *const PhysWorld,
    *const PhysSegment,
    *const PhysQueryFilter,
    *mut bool,
    *mut PhysHit,
) -> PhysStatus;

/// One answer of a cast: the box hit (its index) and `t`'s bits, or `None`.
type Answer = Option<(u64, u32)>;

/// What a pass over the bullets adds up, so no cast is optimised away.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct Checksum {
    hits: usize,
    sum_t: f64,
}

impl Checksum {
    fn add(&mut self, t: f32) {
        self.hits += 1;
        self.sum_t += f64::from(t);
    }
}

/// A world built through the C ABI, destroyed on drop.
struct CWorld(*mut PhysWorld);

impl CWorld {
    /// One `phys_add_boxes` call: box `i` with the default description and
    /// user data `i`.
    fn new(boxes: &[Record]) -> Self {
        let aabbs: Vec<PhysAabb> = boxes
            .iter()
            .map(|b| PhysAabb {
                min: PhysVec3 {
                    x: b[0],
                    y: b[1],
                    z: b[2],
                },
                max: PhysVec3 {
                    x: b[3],
                    y: b[4],
                    z: b[5],
                },
            })
            .collect();
        let descs: Vec<_> = (0..boxes.len())
            .map(|i| {
                let mut desc = phys_collider_desc_default();
                desc.user_data = i as u64;
                desc
            })
            .collect();
        let mut handles = vec![PhysCollider { bits: 0 }; boxes.len()];
        let mut world = ptr::null_mut();
        // SAFETY: every pointer points to a live local of the right type and
        // length, as collide.h's pointer contract asks.
        unsafe {
            assert_eq!(phys_world_create(&mut world), PhysStatus::PHYS_OK);
            let status = phys_add_boxes(world, aabbs.as_ptr(), descs.as_ptr(), boxes.len(), handles.as_mut_ptr());
            assert_eq!(status, PhysStatus::PHYS_OK, "phys_add_boxes");
        }
        Self(world)
    }
}

impl Drop for CWorld {
    fn drop(&mut self) {
        // SAFETY: the world came from phys_world_create and is dropped once.
        unsafe { phys_world_destroy(self.0) }
    }
}

/// The same world through the safe API: one [`World::extend`].
fn rust_world(boxes: &[Record]) -> World {
    let mut world = World::new();
    let descs = boxes.iter().enumerate().map(|(i, b)| {
        let aabb = Aabb::new(Vec3::new(b[0], b[1], b[2]), Vec3::new(b[3], b[4], b[5]));
        ColliderDesc::new(Shape::Aabb(aabb)).with_user_data(i as u64)
    });
    world.extend(descs).expect("the scene's boxes are valid");
    world
}

/// One C-ABI cast: the call a C program makes, through `cast`.
#[inline(always)]
fn cast_c(cast: SegmentCastFn, world: *const PhysWorld, segment: &PhysSegment) -> Option<PhysHit> {
    let mut did_hit = false;
    let mut hit = MaybeUninit::<PhysHit>::uninit();
    // SAFETY: `world` is live and not mutated; the other pointers point to
    // locals; the filter may be NULL.
    let status = unsafe { cast(world, segment, ptr::null(), &mut did_hit, hit.as_mut_ptr()) };
    assert_eq!(status, PhysStatus::PHYS_OK, "phys_segment_cast");
    // SAFETY: written by phys_segment_cast when it reports a hit.
    did_hit.then(|| unsafe { hit.assume_init() })
}

/// One pass of the C path over all bullets.
fn pass_c(cast: SegmentCastFn, world: &CWorld, segments: &[PhysSegment]) -> Checksum {
    let mut sum = Checksum::default();
    for segment in segments {
        if let Some(hit) = cast_c(cast, world.0, segment) {
            sum.add(hit.t);
        }
    }
    sum
}

/// One pass of the Rust path over all bullets.
fn pass_rust(world: &World, segments: &[Segment]) -> Checksum {
    let mut sum = Checksum::default();
    for segment in segments {
        if let Some(hit) = world.segment_cast(segment, &QueryFilter::ALL).expect("a finite bullet") {
            sum.add(hit.t);
        }
    }
    sum
}

/// The median of some numbers (sorted in place).
fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    }
}

/// Runs one scene; returns whether both paths agreed with each other and
/// with the reference.
fn run_scene(scene: &Scene, runs: usize) -> bool {
    let c_world = CWorld::new(&scene.boxes);
    let world = rust_world(&scene.boxes);
    let c_segments: Vec<PhysSegment> = scene
        .bullets
        .iter()
        .map(|s| PhysSegment {
            start: PhysVec3 {
                x: s[0],
                y: s[1],
                z: s[2],
            },
            end: PhysVec3 {
                x: s[3],
                y: s[4],
                z: s[5],
            },
        })
        .collect();
    let segments: Vec<Segment> = scene
        .bullets
        .iter()
        .map(|s| Segment::new(Vec3::new(s[0], s[1], s[2]), Vec3::new(s[3], s[4], s[5])))
        .collect();
    let cast: SegmentCastFn = black_box(phys_segment_cast as SegmentCastFn);

    // Every answer, both ways, before any timing (this also warms the caches).
    let mut ok = true;
    for (i, (c, r)) in c_segments.iter().zip(&segments).enumerate() {
        let through_c: Answer = cast_c(cast, c_world.0, c).map(|h| (h.user_data, h.t.to_bits()));
        let through_rust: Answer = world
            .segment_cast(r, &QueryFilter::ALL)
            .expect("a finite bullet")
            .map(|h| (h.user_data, h.t.to_bits()));
        if through_c != through_rust {
            if ok {
                println!(
                    "MISMATCH {} bullet {i}: C {through_c:?}, Rust {through_rust:?}",
                    scene.name
                );
            }
            ok = false;
        }
    }
    let reference = pass_rust(&world, &segments);
    if let Some(&(_, hits, sum_t)) = REFERENCE.iter().find(|r| r.0 == scene.name) {
        if reference.hits != hits || (reference.sum_t - sum_t).abs() > 1e-2 {
            println!(
                "MISMATCH {}: {} hits, Σt {:.3}; WORKLOADS.md says {hits}, {sum_t:.3}",
                scene.name, reference.hits, reference.sum_t
            );
            ok = false;
        }
    }

    // The control: a second Rust world, built the same way. Its difference
    // from the first is the noise floor (allocation layout, frequency
    // changes, other processes), against which to read the C path's.
    let control = rust_world(&scene.boxes);

    let mut times: [Vec<f64>; 3] = Default::default();
    let mut ratios: [Vec<f64>; 2] = Default::default();
    for run in 0..runs {
        let mut elapsed = [0.0f64; 3];
        let mut sums = [Checksum::default(); 3];
        // Chunk by chunk, the three paths in rotating order, so a burst of
        // load elsewhere on the machine hits them alike.
        for (chunk, (c_chunk, chunk_segments)) in c_segments.chunks(CHUNK).zip(segments.chunks(CHUNK)).enumerate() {
            for k in 0..3 {
                let path = (run + chunk + k) % 3;
                let start = Instant::now();
                let sum = match path {
                    0 => pass_c(cast, &c_world, black_box(c_chunk)),
                    1 => pass_rust(&world, black_box(chunk_segments)),
                    _ => pass_rust(&control, black_box(chunk_segments)),
                };
                elapsed[path] += start.elapsed().as_nanos() as f64;
                let total = &mut sums[path];
                total.hits += black_box(sum).hits;
                total.sum_t += sum.sum_t;
            }
        }
        if sums.iter().any(|sum| sum.hits != reference.hits || *sum != sums[1]) {
            println!("MISMATCH {} run {run}: (C, Rust, control) {sums:?}", scene.name);
            ok = false;
        }
        let n = segments.len() as f64;
        for (path, ns) in elapsed.iter().enumerate() {
            times[path].push(ns / n);
        }
        ratios[0].push(elapsed[0] / elapsed[1]);
        ratios[1].push(elapsed[2] / elapsed[1]);
    }
    let [c_ns, rust_ns, control_ns] = &mut times;
    let [c_ratio, control_ratio] = &mut ratios;
    let overhead = (median(c_ratio) - 1.0) * 100.0;
    println!(
        "{:<14} {:>9} {:>7} {:>12.1} {:>12.1} {:>+9.1}% {:>12.1} {:>+9.1}%  {}",
        scene.name,
        segments.len(),
        reference.hits,
        median(rust_ns),
        median(c_ns),
        overhead,
        median(control_ns),
        (median(control_ratio) - 1.0) * 100.0,
        if overhead <= 5.0 { "within 5 %" } else { "OVER 5 %" }
    );
    ok
}

fn main() -> ExitCode {
    let mut names: Vec<String> = Vec::new();
    let mut runs = 15usize;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--scene" => names.push(args.next().unwrap_or_default()),
            "--runs" => match args.next().and_then(|n| n.parse().ok()) {
                Some(n) if n > 0 => runs = n,
                _ => {
                    eprintln!("--runs takes a positive number\n{USAGE}");
                    return ExitCode::FAILURE;
                }
            },
            // cargo bench passes --bench to harness = false targets.
            "--bench" => {}
            "-h" | "--help" => {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            other => {
                eprintln!("unknown argument `{other}`\n{USAGE}");
                return ExitCode::FAILURE;
            }
        }
    }
    if names.is_empty() {
        names = DEFAULT_SCENES.map(str::to_owned).to_vec();
    }

    println!("phys_segment_cast (C ABI, through an extern \"C\" fn pointer) vs World::segment_cast (Rust)");
    println!("bullets of each scene, one thread, median of {runs} runs, the three paths taking turns");
    println!(
        "{:<14} {:>9} {:>7} {:>12} {:>12} {:>10} {:>12} {:>10}",
        "scene", "segments", "hits", "rust ns/seg", "c ns/seg", "c/rust", "ctrl ns/seg", "ctrl/rust"
    );
    let mut ok = true;
    for name in &names {
        let Some(scene) = scenes::generate(name, false) else {
            eprintln!("unknown scene `{name}`: one of {:?}", scenes::SCENE_NAMES);
            return ExitCode::FAILURE;
        };
        ok &= run_scene(&scene, runs);
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        println!("MISMATCH: the C and Rust paths disagree (see above)");
        ExitCode::FAILURE
    }
}
