//! Casts against Embree: the workloads' bullets and hitscans, one segment
//! at a time on one thread, through collide's `World::segment_cast` and
//! through Embree 3's `rtcIntersect1` on the same boxes, in the same run.
//!
//! ```text
//! apt-get install libembree-dev      # Embree 3 (Debian, Ubuntu)
//! cargo bench -p collide-vs-parry --bench embree -- [--runs N] [--scene NAME]...
//! ```
//!
//! Embree holds the boxes as one user geometry: it builds its BVH over
//! their bounds at its high build quality, robust traversal, and calls
//! the C callback of `embree/box_casts.c` at each box the ray reaches, the
//! workloads' slab test in `f64` on the exact segment (a start inside a box
//! hits at t = 0), so the two answers can be held to each other: every
//! segment's hit and `t` must agree. Each row prints the median over `--runs`
//! runs (the two alternate, run by run) of the time per segment, and
//! collide / Embree (at most 1.5 is the target on level-10k). The scenes
//! are generated in memory as for the workloads bench.
//!
//! Without Embree's headers (see `vs-parry/build.rs`) the bench says what
//! to install and exits with a failure status. The checksums printed are
//! each library's hit count and `Σt`; a segment answered differently
//! prints `MISMATCH` and fails the run.

use std::process::ExitCode;

#[cfg(embree)]
#[path = "../../benches/scenes.rs"]
mod scenes;

#[cfg(embree)]
#[path = "support/tally.rs"]
mod tally;

/// Embree's side, through the C functions of `embree/box_casts.c`.
#[cfg(embree)]
mod embree {
    use core::ffi::{c_int, c_uint, c_void};
    use core::ptr::NonNull;

    use crate::scenes::Record;

    #[link(name = "bench_embree", kind = "static")]
    #[link(name = "embree3")]
    extern "C" {
        fn bench_embree_scene(boxes: *const f32, count: c_uint) -> *mut c_void;
        fn bench_embree_cast(scene: *const c_void, start: *const f32, end: *const f32, t: *mut f32) -> c_int;
        fn bench_embree_free(scene: *mut c_void);
    }

    /// An Embree device and scene holding a copy of the boxes.
    pub struct Scene(NonNull<c_void>);

    impl Scene {
        /// The scene of `boxes` (box `i` is primitive `i`); `None` when
        /// Embree fails to set it up.
        pub fn new(boxes: &[Record]) -> Option<Scene> {
            let count = u32::try_from(boxes.len()).ok()?;
            // SAFETY: `boxes` is `count` records of 6 contiguous `f32`, which
            // the function reads (and copies) before it returns; it answers
            // null unless the scene is built.
            let scene = unsafe { bench_embree_scene(boxes.as_ptr().cast(), count) };
            NonNull::new(scene).map(Scene)
        }

        /// The `t` of segment `s`'s closest hit.
        pub fn cast(&self, s: &Record) -> Option<f32> {
            let mut t = 0.0f32;
            // SAFETY: the scene is live and built (`new` returned it, and it
            // is dropped only with `self`); `start` and `end` are 3 `f32`
            // each within `s`; `t` is valid for a write.
            let hit = unsafe { bench_embree_cast(self.0.as_ptr(), s.as_ptr(), s[3..].as_ptr(), &mut t) };
            (hit != 0).then_some(t)
        }
    }

    impl Drop for Scene {
        fn drop(&mut self) {
            // SAFETY: the pointer came from `bench_embree_scene` and is
            // freed once, here.
            unsafe { bench_embree_free(self.0.as_ptr()) }
        }
    }
}

#[cfg(embree)]
mod run {
    use std::process::ExitCode;

    use collide::math::Vec3;
    use collide::{QueryFilter, Segment, Threads, World};

    use crate::embree;
    use crate::scenes::{self, Record, Scene, SCENE_NAMES};
    use crate::tally::{median_ns_per, time_pass};

    struct Options {
        runs: usize,
        scenes: Vec<String>,
    }

    fn parse() -> Result<Options, String> {
        let mut options = Options {
            runs: 5,
            scenes: Vec::new(),
        };
        let mut args = std::env::args().skip(1);
        while let Some(arg) = args.next() {
            match arg.as_str() {
                "--runs" => {
                    let v = args.next().ok_or("--runs needs a value")?;
                    options.runs = v
                        .parse::<usize>()
                        .map_err(|_| format!("--runs: {v} is not a count"))?
                        .max(1);
                }
                "--scene" => {
                    let name = args.next().ok_or("--scene needs a value")?;
                    if !SCENE_NAMES.contains(&name.as_str()) {
                        return Err(format!("unknown scene {name}; the scenes: {}", SCENE_NAMES.join(", ")));
                    }
                    options.scenes.push(name);
                }
                "--bench" => {}
                other => return Err(format!("unknown option {other}")),
            }
        }
        if options.scenes.is_empty() {
            options.scenes = SCENE_NAMES.iter().map(|s| s.to_string()).collect();
        }
        Ok(options)
    }

    /// One row: the set's medians per segment, their ratio and both
    /// tallies; `false` when a segment's answers differ (its hit, or its
    /// `t`), which an untimed pass before the timed ones checks.
    fn row(scene: &Scene, set: &str, segments: &[Record], world: &World, boxes: &embree::Scene, runs: usize) -> bool {
        let collide_segments: Vec<Segment> = segments
            .iter()
            .map(|s| Segment::new(Vec3::new(s[0], s[1], s[2]), Vec3::new(s[3], s[4], s[5])))
            .collect();
        let collide_cast = |s: &Segment| {
            world
                .segment_cast(s, &QueryFilter::ALL)
                .expect("a finite segment")
                .map(|hit| hit.t)
        };
        let differing = collide_segments
            .iter()
            .zip(segments)
            .filter(|(c, e)| collide_cast(c) != boxes.cast(e))
            .count();
        let (mut collide_times, mut embree_times) = (Vec::new(), Vec::new());
        let (mut c, mut e) = (None, None);
        for _ in 0..runs {
            let (time, tally) = time_pass(&collide_segments, collide_cast);
            collide_times.push(time);
            c = Some(tally);
            let (time, tally) = time_pass(segments, |s| boxes.cast(s));
            embree_times.push(time);
            e = Some(tally);
        }
        let (c, e) = (c.expect("a run"), e.expect("a run"));
        let (tc, te) = (
            median_ns_per(&collide_times, segments.len()),
            median_ns_per(&embree_times, segments.len()),
        );
        let verdict = match differing {
            0 => String::new(),
            n => format!("   MISMATCH ({n} segments)"),
        };
        println!(
            "{:<13} {:<8} {:>10.1} ns {:>10.1} ns {:>8.2}   collide {} {:.3} · Embree {} {:.3}{verdict}",
            scene.name,
            set,
            tc,
            te,
            tc / te,
            c.hits,
            c.sum_t,
            e.hits,
            e.sum_t,
        );
        differing == 0
    }

    pub fn main() -> ExitCode {
        let options = match parse() {
            Ok(o) => o,
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::FAILURE;
            }
        };
        println!(
            "{:<13} {:<8} {:>13} {:>13} {:>8}   checksums (hits, Σt)",
            "scene", "set", "collide", "Embree", "co/Embree"
        );
        let mut agree = true;
        for name in &options.scenes {
            let scene = scenes::generate(name, false).expect("a known scene");
            let mut world = World::new();
            world.set_threads(Threads::CallingThread);
            world.extend(scenes::collider_descs(&scene.boxes)).expect("valid boxes");
            let Some(embree_scene) = embree::Scene::new(&scene.boxes) else {
                eprintln!("Embree could not build the scene {name}");
                return ExitCode::FAILURE;
            };
            for (set, segments) in [("bullets", &scene.bullets), ("hitscan", &scene.hitscan)] {
                agree &= row(&scene, set, segments, &world, &embree_scene, options.runs);
            }
        }
        if agree {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        }
    }
}

#[cfg(embree)]
fn main() -> ExitCode {
    run::main()
}

#[cfg(not(embree))]
fn main() -> ExitCode {
    eprintln!(
        "Embree 3 was not found when this bench was built: install it (Debian, Ubuntu: \
         `apt-get install libembree-dev`; elsewhere set EMBREE_INCLUDE_DIR and EMBREE_LIB_DIR), \
         then `touch vs-parry/build.rs` and build again."
    );
    ExitCode::FAILURE
}
