//! The workloads of `shared/bench/WORKLOADS.md`, collide and parry3d side by
//! side: the same scenes, in the same run, with their checksums compared.
//!
//! ```text
//! cargo bench -p collide-vs-parry --bench workloads -- [--scene NAME]... [--workload WORKLOAD]...
//!     [--runs N] [--small] [--max-segments N] [--dir DIR] [--pairs-finder FINDER]
//! cargo bench -p collide-vs-parry --bench workloads -- --memory [--scene NAME]... [--small] [--dir DIR]
//! ```
//!
//! The scenes are generated in memory by the port of `gen_scenes.py`
//! (`benches/scenes.rs`), or loaded from the files the script wrote into
//! `DIR`. Each (scene, workload) prints one row: the median time of each
//! implementation over `--runs` runs (the two alternate, run by run), the
//! ratio parry3d / collide (above 1: collide is faster), and both checksums,
//! which must agree. On full-size data the checksums are also held to the
//! reference table of `WORKLOADS.md` (its copy in `benches/workloads_reference.md`). Any disagreement prints `MISMATCH` and
//! makes the program exit with a failure status at the end. Single thread.
//!
//! What is timed, for both implementations alike:
//!
//! - `build`: from the box records to a structure ready for queries (ms).
//! - `pairs`: one all-pairs query on the built structure (ms per query).
//! - `frames`: per frame, applying the frame's moves (collide: one
//!   `set_transform` per moved collider; parry: `min += d; max += d` in
//!   `f32`, then the new box to its tree) and finding all pairs (ms per
//!   frame, over the scene's frames; the initial build is not timed).
//! - `frames-batch`: the same, collide's moves in one `set_transforms` call
//!   per frame.
//! - `frames-shapes`: the moved boxes (`min += d; max += d` in `f32` on both
//!   sides, the reference's arithmetic) in one `set_shapes` call per frame.
//! - `cast-bullets`, `cast-hitscan`: the closest hit of every segment (ns
//!   per segment); `--max-segments N` casts only the first N segments.
//! - `cast-batch`: the bullets again, all at once on every core: collide's
//!   [`World::segment_cast_batch`] (rayon), parry3d's `cast_ray` over a rayon
//!   parallel iterator. Its time per segment against `cast-bullets`'s is the
//!   multi-core scaling.
//!
//! collide is driven through its public [`World`] API: the boxes are added
//! in one batch with [`World::extend`] (a level load: one SAH build of the
//! tree) and the identity transform (so the world box is the box given),
//! moves go through [`World::set_transform`] (one call per moved collider;
//! [`World::set_transforms`] once per frame in `frames-batch`), casts through
//! [`World::segment_cast`], pairs through the tree's incremental
//! [`World::pairs`] or, with `--pairs-finder sweep-and-prune`,
//! [`World::pairs_sweep_and_prune`].
//!
//! parry3d 0.31 is used through its [`Bvh`], the way its documentation and
//! rapier (its sibling physics engine) use it:
//!
//! - build: [`Bvh::from_leaves`] with the default binned-SAH strategy, the
//!   one-shot build for a known set of boxes. (The PLOC strategy, which parry
//!   recommends for ray casting, cast no faster on these scenes and much
//!   slower on `column-10k`.)
//! - casts: [`Bvh::cast_ray`], parry's best-first ray traversal, with the ray
//!   `start + t·(end − start)` and `max_time_of_impact = 1`, and at the leaves
//!   parry's own ray–box test [`RayCast::cast_local_ray`] with `solid = true`
//!   (a start inside hits at `t = 0`), clipped to the best `t` so far.
//! - pairs: [`Bvh::traverse_bvtt_single_tree`] (the tree against itself,
//!   each overlapping leaf pair once: the traversal of rapier's broad phase)
//!   without change detection; the leaves are the exact boxes, and parry's
//!   box test counts touching boxes, so every pair it reports is a pair.
//! - frames: see [`bench_frames`].
//!
//! With `--memory`, no workload runs: each scene prints the bytes per
//! collider that collide's world holds ([`World::memory_bytes`], capacities)
//! after the level load, after a first [`World::pairs`], after a first
//! [`World::pairs_sweep_and_prune`] too, and after the first frame's moves
//! and pairs (see [`memory_row`]).

#[path = "../../benches/scenes.rs"]
mod scenes;

use std::collections::HashMap;
use std::fmt;
use std::hint::black_box;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use collide::math::Vec3;
use collide::{Aabb, ColliderDesc, ColliderKey, Pair, QueryFilter, Segment, Shape, Threads, Transform, World};
use parry3d::bounding_volume::Aabb as ParryAabb;
use parry3d::math::Vector as ParryVector;
use parry3d::partitioning::{Bvh, BvhBuildStrategy, BvhWorkspace};
use parry3d::query::{Ray, RayCast};

use scenes::{Record, Scene, SCENE_NAMES};

const USAGE: &str = "\
usage: cargo bench -p collide-vs-parry --bench workloads -- [options]

  --scene NAME           a scene to run (repeatable; default: all):
                         uniform-1k uniform-10k uniform-100k level-10k column-10k
  --workload WORKLOAD    a workload to run (repeatable; default: all):
                         build pairs frames frames-batch frames-shapes cast-bullets cast-hitscan cast-batch
  --runs N               runs per measurement; the median is reported (default 5)
  --small                the reduced scenes of `gen_scenes.py --small`
  --max-segments N       cast only the first N segments of each cast workload
  --dir DIR              load the scenes from the files gen_scenes.py wrote into
                         DIR instead of generating them (--small is then ignored)
  --pairs-finder FINDER  collide's pair finder for pairs and frames:
                         tree (World::pairs, default) or sweep-and-prune
                         (World::pairs_sweep_and_prune)
  --memory               print collide's memory per collider for each scene
                         instead of running the workloads";

/// A cast workload estimated to take longer than this (all runs of one
/// implementation) prints a hint to limit it with `--max-segments`.
const SLOW_CAST_WARNING: Duration = Duration::from_secs(60);

/// The number of segments of a full-size cast workload: the size the
/// reference checksums are for.
const FULL_SEGMENTS: usize = 100_000;

/// The number of frames of the full-size frames workload.
const FULL_FRAMES: usize = 100;

/// One workload of `WORKLOADS.md`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Workload {
    Build,
    Pairs,
    /// Each moved collider by its own `set_transform` call.
    Frames,
    /// The frame's moves in one `set_transforms` call.
    FramesBatch,
    /// The frame's moved boxes in one `set_shapes` call (the records' own
    /// arithmetic, checked against the reference).
    FramesShapes,
    CastBullets,
    CastHitscan,
    /// The bullets of `CastBullets`, all at once on every core.
    CastBatch,
}

impl Workload {
    /// Every workload, in the order they run.
    const ALL: [Workload; 8] = [
        Workload::Build,
        Workload::Pairs,
        Workload::Frames,
        Workload::FramesBatch,
        Workload::FramesShapes,
        Workload::CastBullets,
        Workload::CastHitscan,
        Workload::CastBatch,
    ];

    /// The name on the command line and in the table.
    fn name(self) -> &'static str {
        match self {
            Workload::Build => "build",
            Workload::Pairs => "pairs",
            Workload::Frames => "frames",
            Workload::FramesBatch => "frames-batch",
            Workload::FramesShapes => "frames-shapes",
            Workload::CastBullets => "cast-bullets",
            Workload::CastHitscan => "cast-hitscan",
            Workload::CastBatch => "cast-batch",
        }
    }

    /// Whether it is a cast workload, timed per segment.
    fn is_cast(self) -> bool {
        matches!(
            self,
            Workload::CastBullets | Workload::CastHitscan | Workload::CastBatch
        )
    }

    /// The unit its times are printed in.
    fn unit(self) -> &'static str {
        if self.is_cast() {
            "ns"
        } else {
            "ms"
        }
    }
}

/// Which of collide's pair finders the pairs and frames workloads call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PairFinder {
    /// [`World::pairs_sweep_and_prune`].
    SweepAndPrune,
    /// [`World::pairs`], with the tree, incremental between calls.
    Tree,
}

impl PairFinder {
    /// The world's current pairs.
    fn pairs(self, world: &mut World) -> &[Pair] {
        match self {
            PairFinder::SweepAndPrune => world.pairs_sweep_and_prune(),
            PairFinder::Tree => world.pairs(),
        }
    }
}

/// What the command line asks for.
#[derive(Debug)]
struct Options {
    scenes: Vec<String>,
    workloads: Vec<Workload>,
    runs: usize,
    small: bool,
    max_segments: Option<usize>,
    dir: Option<PathBuf>,
    pair_finder: PairFinder,
    memory: bool,
}

impl Options {
    /// Parses the arguments after the program name; `Ok(None)` for `--help`.
    fn parse(mut args: impl Iterator<Item = String>) -> Result<Option<Options>, String> {
        let mut options = Options {
            scenes: Vec::new(),
            workloads: Vec::new(),
            runs: 5,
            small: false,
            max_segments: None,
            dir: None,
            pair_finder: PairFinder::Tree,
            memory: false,
        };
        while let Some(arg) = args.next() {
            let mut value = || args.next().ok_or(format!("{arg} needs a value"));
            match arg.as_str() {
                "--scene" => {
                    let name = value()?;
                    if !SCENE_NAMES.contains(&name.as_str()) {
                        return Err(format!("unknown scene {name:?}"));
                    }
                    options.scenes.push(name);
                }
                "--workload" => {
                    let name = value()?;
                    let workload = Workload::ALL
                        .into_iter()
                        .find(|w| w.name() == name)
                        .ok_or(format!("unknown workload {name:?}"))?;
                    options.workloads.push(workload);
                }
                "--runs" => options.runs = parse_count(&arg, &value()?)?,
                "--max-segments" => options.max_segments = Some(parse_count(&arg, &value()?)?),
                "--small" => options.small = true,
                "--dir" => options.dir = Some(PathBuf::from(value()?)),
                "--pairs-finder" => {
                    options.pair_finder = match value()?.as_str() {
                        "sweep-and-prune" => PairFinder::SweepAndPrune,
                        "tree" => PairFinder::Tree,
                        other => return Err(format!("unknown pair finder {other:?}")),
                    }
                }
                "--memory" => options.memory = true,
                "--help" | "-h" => return Ok(None),
                // `cargo bench` passes `--bench` to every bench binary.
                "--bench" => {}
                _ => return Err(format!("unknown argument {arg:?}")),
            }
        }
        if options.scenes.is_empty() {
            options.scenes = SCENE_NAMES.iter().map(|s| s.to_string()).collect();
        }
        if options.workloads.is_empty() {
            options.workloads = Workload::ALL.to_vec();
        }
        Ok(Some(options))
    }
}

/// A positive integer option value.
fn parse_count(option: &str, value: &str) -> Result<usize, String> {
    match value.parse() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(format!("{option} needs a positive integer, not {value:?}")),
    }
}

/// What a workload computed, to compare implementations with each other and
/// with the reference (`WORKLOADS.md`, "Workloads and checksums").
#[derive(Debug, Clone, Copy, PartialEq)]
enum Checksum {
    /// build: the number of boxes held.
    Boxes(u64),
    /// cast: hits, Σ t (in f64) and Σ id over the hits (the reference
    /// table has no Σ id).
    Cast { hits: u64, sum_t: f64, sum_id: Option<u64> },
    /// pairs: their number and Σ (i·N + j) mod 2^64 over pairs i < j.
    Pairs { count: u64, sum: u64 },
    /// frames: Σ over frames of the pair count.
    Frames { pair_count_sum: u64 },
}

impl Checksum {
    /// The checksum of cast results: `(id, t)` per hit.
    fn of_hits(hits: impl Iterator<Item = (u32, f32)>) -> Checksum {
        let (mut count, mut sum_t, mut sum_id) = (0, 0.0, 0);
        for (id, t) in hits {
            count += 1;
            sum_t += f64::from(t);
            sum_id += u64::from(id);
        }
        Checksum::Cast {
            hits: count,
            sum_t,
            sum_id: Some(sum_id),
        }
    }

    /// The checksum of the pairs `(i, j)` (either order) of a scene of `n` boxes.
    fn of_pairs(n: usize, pairs: impl Iterator<Item = (u32, u32)>) -> Checksum {
        let (mut count, mut sum) = (0, 0u64);
        for (a, b) in pairs {
            let (i, j) = (u64::from(a.min(b)), u64::from(a.max(b)));
            count += 1;
            sum = sum.wrapping_add(i.wrapping_mul(n as u64).wrapping_add(j));
        }
        Checksum::Pairs { count, sum }
    }

    /// Whether `self` and `other` agree by the rules of `WORKLOADS.md`:
    /// exactly, but for Σ t (within 1e-4 relative) and Σ id (not compared:
    /// a tie in t may go to either collider).
    fn agrees_with(&self, other: &Checksum) -> bool {
        match (self, other) {
            (Checksum::Cast { hits, sum_t, .. }, Checksum::Cast { hits: h, sum_t: s, .. }) => {
                hits == h && (sum_t - s).abs() <= 1e-4 * sum_t.abs().max(s.abs())
            }
            _ => self == other,
        }
    }
}

impl fmt::Display for Checksum {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Checksum::Boxes(n) => write!(f, "{n} boxes"),
            Checksum::Cast { hits, sum_t, sum_id } => {
                write!(f, "{hits} hits, Σt {sum_t:.3}")?;
                match sum_id {
                    Some(sum_id) => write!(f, ", Σid {sum_id}"),
                    None => Ok(()),
                }
            }
            Checksum::Pairs { count, sum } => write!(f, "{count} pairs, Σ {sum}"),
            Checksum::Frames { pair_count_sum } => write!(f, "Σ {pair_count_sum} pairs"),
        }
    }
}

/// One scene's row of the reference table of `WORKLOADS.md`.
#[derive(Debug, Clone, PartialEq)]
struct Reference {
    boxes: usize,
    bullets: Checksum,
    hitscan: Checksum,
    pairs: Checksum,
    frames: Checksum,
}

impl Reference {
    /// The table, as `benches/workloads_reference.md` holds it (a copy of
    /// `WORKLOADS.md`'s), and the name its errors give.
    const TABLE: (&'static str, &'static str) =
        ("benches/workloads_reference.md", include_str!("workloads_reference.md"));

    /// The reference rows of `WORKLOADS.md` by scene name: the table rows
    /// whose first cell names a scene, e.g.
    /// `| uniform-1k | 1000 | 48852, 15862.469 | 57175, 5726.889 | 281, 95250673 | 27458 |`.
    fn load((path, text): (&str, &str)) -> Result<HashMap<String, Reference>, String> {
        let mut table = HashMap::new();
        for line in text.lines() {
            let cells: Vec<&str> = line.trim().trim_matches('|').split('|').map(str::trim).collect();
            let [name, boxes, bullets, hitscan, pairs, frames] = cells[..] else {
                continue;
            };
            if !SCENE_NAMES.contains(&name) {
                continue;
            }
            let reference = Self::parse_row(boxes, bullets, hitscan, pairs, frames)
                .ok_or(format!("{path}: cannot read the reference row {line:?}"))?;
            table.insert(name.to_owned(), reference);
        }
        if table.is_empty() {
            return Err(format!("{path}: no reference rows found"));
        }
        Ok(table)
    }

    /// A row's cells after the scene name.
    fn parse_row(boxes: &str, bullets: &str, hitscan: &str, pairs: &str, frames: &str) -> Option<Reference> {
        let two = |cell: &str| -> Option<(String, String)> {
            let (a, b) = cell.split_once(',')?;
            Some((a.trim().to_owned(), b.trim().to_owned()))
        };
        let cast = |cell: &str| -> Option<Checksum> {
            let (hits, sum_t) = two(cell)?;
            Some(Checksum::Cast {
                hits: hits.parse().ok()?,
                sum_t: sum_t.parse().ok()?,
                sum_id: None,
            })
        };
        let (count, sum) = two(pairs)?;
        Some(Reference {
            boxes: boxes.parse().ok()?,
            bullets: cast(bullets)?,
            hitscan: cast(hitscan)?,
            pairs: Checksum::Pairs {
                count: count.parse().ok()?,
                sum: sum.parse().ok()?,
            },
            frames: Checksum::Frames {
                pair_count_sum: frames.parse().ok()?,
            },
        })
    }

    /// The reference checksum of `workload` on `scene` when the data run is
    /// the data the reference is for (the full-size boxes; all segments of a
    /// cast workload, `segments` being the number cast; all frames); `None`
    /// otherwise and for `build`.
    fn checksum(&self, scene: &Scene, workload: Workload, segments: usize) -> Option<Checksum> {
        if scene.boxes.len() != self.boxes {
            return None;
        }
        match workload {
            Workload::Build => None,
            Workload::Pairs => Some(self.pairs),
            // Moving by transforms rounds `box + Σd` once where the records
            // round `min += d` at every move: a few touching pairs differ
            // (6 of 332,176 on uniform-10k), so these rows are checked
            // against parry3d doing the same arithmetic, not the reference.
            Workload::Frames | Workload::FramesBatch => None,
            Workload::FramesShapes => (scene.frames.len() == FULL_FRAMES).then_some(self.frames),
            Workload::CastBullets | Workload::CastBatch => (segments == FULL_SEGMENTS).then_some(self.bullets),
            Workload::CastHitscan => (segments == FULL_SEGMENTS).then_some(self.hitscan),
        }
    }
}

/// One timed run: the duration of its measured part and the checksum of
/// what it computed.
type Run = (Duration, Checksum);

/// An implementation's result: the median duration of its runs and its checksum.
#[derive(Debug, Clone, Copy)]
struct Outcome {
    median: Duration,
    checksum: Checksum,
}

/// Runs collide and parry3d alternately, `runs` times each, so that a busy
/// moment of the (shared) machine slows both. A run whose checksum differs
/// from the first run's is a bug of the benchmark, and panics.
fn race(runs: usize, mut collide: impl FnMut() -> Run, mut parry: impl FnMut() -> Run) -> [Outcome; 2] {
    let mut times = [Vec::with_capacity(runs), Vec::with_capacity(runs)];
    let mut checksums: [Option<Checksum>; 2] = [None, None];
    for _ in 0..runs {
        for (side, run) in [&mut collide as &mut dyn FnMut() -> Run, &mut parry]
            .into_iter()
            .enumerate()
        {
            let (time, checksum) = run();
            assert_eq!(
                *checksums[side].get_or_insert(checksum),
                checksum,
                "a rerun changed its checksum"
            );
            times[side].push(time);
        }
    }
    [0, 1].map(|side| {
        times[side].sort();
        Outcome {
            median: times[side][runs / 2],
            checksum: checksums[side].expect("at least one run"),
        }
    })
}

/// A box record as a collide box.
fn collide_aabb(r: &Record) -> Aabb {
    Aabb::new(Vec3::new(r[0], r[1], r[2]), Vec3::new(r[3], r[4], r[5]))
}

/// A box record as a parry box.
fn parry_aabb(r: &Record) -> ParryAabb {
    ParryAabb::new(ParryVector::new(r[0], r[1], r[2]), ParryVector::new(r[3], r[4], r[5]))
}

/// The parry tree over the box records, leaf `i` holding box `i`.
fn parry_bvh(boxes: &[Record]) -> Bvh {
    let leaves: Vec<ParryAabb> = boxes.iter().map(parry_aabb).collect();
    Bvh::from_leaves(BvhBuildStrategy::Binned, &leaves)
}

/// Applies a frame's moves to the box records and lists the moved boxes in
/// `updates` (cleared first).
fn frame_updates(
    frame: &[scenes::Move],
    boxes: &mut [Record],
    keys: &[ColliderKey],
    updates: &mut Vec<(ColliderKey, Shape)>,
) {
    updates.clear();
    for &(id, d) in frame {
        let b = &mut boxes[id as usize];
        translate(b, d);
        updates.push((keys[id as usize], Shape::Aabb(collide_aabb(b))));
    }
}

/// Moves a box record by `d`: `min += d; max += d`.
fn translate(r: &mut Record, d: [f32; 3]) {
    for axis in 0..3 {
        r[axis] += d[axis];
        r[axis + 3] += d[axis];
    }
}

/// A world holding the boxes, added in one batch with the identity
/// transform (the world box is the box given), and the colliders' keys,
/// `keys[id]`.
fn collide_world(boxes: &[Record]) -> (World, Vec<ColliderKey>) {
    let mut world = World::new();
    // Every row but `cast-batch` is single-threaded on both sides.
    world.set_threads(Threads::CallingThread);
    let keys = world
        .extend(boxes.iter().map(|b| ColliderDesc::new(Shape::Aabb(collide_aabb(b)))))
        .expect("valid boxes");
    (world, keys)
}

/// The map back from a collider's key to its id (its record index).
fn ids_by_key(keys: &[ColliderKey]) -> HashMap<ColliderKey, u32> {
    keys.iter().enumerate().map(|(id, &key)| (key, id as u32)).collect()
}

/// `build`: a world or a tree from the N box records, per run (ms).
fn bench_build(scene: &Scene, runs: usize) -> [Outcome; 2] {
    race(
        runs,
        || {
            let start = Instant::now();
            let (world, _keys) = black_box(collide_world(&scene.boxes));
            let time = start.elapsed();
            (time, Checksum::Boxes(world.len() as u64))
        },
        || {
            let start = Instant::now();
            let bvh = black_box(parry_bvh(&scene.boxes));
            let time = start.elapsed();
            (time, Checksum::Boxes(u64::from(bvh.leaf_count())))
        },
    )
}

/// `pairs`: one all-pairs query on the built world or tree, per run (ms).
/// Each run queries a freshly built world: a second query of an unchanged
/// world would only return [`World::pairs`]'s cached pairs.
fn bench_pairs(scene: &Scene, runs: usize, finder: PairFinder) -> [Outcome; 2] {
    let n = scene.boxes.len();
    let bvh = parry_bvh(&scene.boxes);
    let mut workspace = BvhWorkspace::default();
    let mut parry_pairs = Vec::new();
    race(
        runs,
        || {
            let (mut world, keys) = collide_world(&scene.boxes);
            let ids = ids_by_key(&keys);
            let start = Instant::now();
            let pairs = finder.pairs(&mut world);
            let time = start.elapsed();
            (
                time,
                Checksum::of_pairs(n, pairs.iter().map(|p| (ids[&p.a], ids[&p.b]))),
            )
        },
        || {
            parry_pairs.clear();
            let start = Instant::now();
            bvh.traverse_bvtt_single_tree::<false>(&mut workspace, &mut |a, b| parry_pairs.push((a, b)));
            let time = start.elapsed();
            (time, Checksum::of_pairs(n, parry_pairs.iter().copied()))
        },
    )
}

/// `frames`: every frame's moves and pairs, per run from the initial scene
/// (ms per frame; building the initial world or tree is not timed).
///
/// collide, as README tells a game to drive it: each box is a collider of
/// its initial box with a translation, moved by one
/// [`World::set_transform`] per moved collider (`frames`) or by the frame's
/// moves in one [`World::set_transforms`] call (`frames-batch`), then the
/// pairs. The translation accumulates the moves in `f32` and the world box
/// is `box + translation`, rounded once; the records' `min += d` rounds at
/// every move, so a box may differ from the record by rounding (the pair
/// counts match parry3d's, which moves its boxes the same way: the initial
/// box plus the accumulated translation).
///
/// parry3d: each move rewrites its leaf's box in place
/// ([`Bvh::insert_or_update_partially`] with no margin), one [`Bvh::refit`]
/// per frame restores the tree, and the pairs are the leaf pairs of
/// [`Bvh::traverse_bvtt_single_tree`]: the update-then-refit loop parry's
/// documentation prescribes for moving objects. Rapier's broad-phase scheme
/// (leaves enlarged by a 0.01 change-detection margin,
/// [`Bvh::optimize_incremental`], the traversal with change detection, and a
/// persistent map of pairs, filtered here by the exact boxes) finds the same
/// pairs but measured slower (uniform-100k: 12–14 ms against 7–9 ms per
/// frame): a tenth of the boxes move every frame. `optimize_incremental`
/// every frame slowed the simple loop down too.
fn bench_frames(scene: &Scene, runs: usize, finder: PairFinder, batch: bool) -> [Outcome; 2] {
    let frame_count = scene.frames.len() as u32;
    race(
        runs,
        || {
            let (mut world, keys) = collide_world(&scene.boxes);
            let mut offsets = vec![[0.0f32; 3]; scene.boxes.len()];
            let mut updates: Vec<(ColliderKey, Transform)> = Vec::new();
            let mut pair_count_sum = 0;
            let start = Instant::now();
            for frame in &scene.frames {
                updates.clear();
                for &(id, d) in frame {
                    let t = &mut offsets[id as usize];
                    *t = [t[0] + d[0], t[1] + d[1], t[2] + d[2]];
                    let moved = Transform::from_translation(Vec3::from(*t));
                    if batch {
                        updates.push((keys[id as usize], moved));
                    } else {
                        world.set_transform(keys[id as usize], moved).expect("a live collider");
                    }
                }
                if batch {
                    world.set_transforms(&updates).expect("live colliders");
                }
                pair_count_sum += finder.pairs(&mut world).len() as u64;
            }
            (start.elapsed() / frame_count, Checksum::Frames { pair_count_sum })
        },
        || {
            let mut bvh = parry_bvh(&scene.boxes);
            let mut workspace = BvhWorkspace::default();
            let mut offsets = vec![[0.0f32; 3]; scene.boxes.len()];
            let mut pair_count_sum = 0;
            let start = Instant::now();
            for frame in &scene.frames {
                for &(id, d) in frame {
                    let t = &mut offsets[id as usize];
                    *t = [t[0] + d[0], t[1] + d[1], t[2] + d[2]];
                    let mut b = scene.boxes[id as usize];
                    translate(&mut b, *t);
                    bvh.insert_or_update_partially(parry_aabb(&b), id, 0.0);
                }
                bvh.refit(&mut workspace);
                bvh.traverse_bvtt_single_tree::<false>(&mut workspace, &mut |_, _| pair_count_sum += 1);
            }
            (start.elapsed() / frame_count, Checksum::Frames { pair_count_sum })
        },
    )
}

/// `frames-shapes`: the frames of [`bench_frames`] with collide's moved
/// boxes handed over in one [`World::set_shapes`] call per frame and both
/// sides moving the box records by `min += d; max += d` (the reference's
/// arithmetic, so the checksum is held to it).
fn bench_frames_shapes(scene: &Scene, runs: usize, finder: PairFinder) -> [Outcome; 2] {
    let frame_count = scene.frames.len() as u32;
    race(
        runs,
        || {
            let (mut world, keys) = collide_world(&scene.boxes);
            let mut boxes = scene.boxes.clone();
            let mut updates = Vec::new();
            let mut pair_count_sum = 0;
            let start = Instant::now();
            for frame in &scene.frames {
                frame_updates(frame, &mut boxes, &keys, &mut updates);
                world.set_shapes(&updates).expect("valid boxes");
                pair_count_sum += finder.pairs(&mut world).len() as u64;
            }
            (start.elapsed() / frame_count, Checksum::Frames { pair_count_sum })
        },
        || {
            let mut bvh = parry_bvh(&scene.boxes);
            let mut workspace = BvhWorkspace::default();
            let mut boxes = scene.boxes.clone();
            let mut pair_count_sum = 0;
            let start = Instant::now();
            for frame in &scene.frames {
                for &(id, d) in frame {
                    let b = &mut boxes[id as usize];
                    translate(b, d);
                    bvh.insert_or_update_partially(parry_aabb(b), id, 0.0);
                }
                bvh.refit(&mut workspace);
                bvh.traverse_bvtt_single_tree::<false>(&mut workspace, &mut |_, _| pair_count_sum += 1);
            }
            (start.elapsed() / frame_count, Checksum::Frames { pair_count_sum })
        },
    )
}

/// A cast workload: the closest hit of each segment, per run (ms; the
/// caller divides by the number of segments). Before the runs, a probe of
/// the first thousand segments warms both implementations up and estimates
/// how long the runs will take; a long estimate prints a hint to limit them.
fn bench_cast(scene: &Scene, workload: Workload, segments: &[Record], runs: usize) -> [Outcome; 2] {
    let (mut world, keys) = collide_world(&scene.boxes);
    if workload == Workload::CastBatch {
        world.set_threads(Threads::Rayon);
    }
    let ids = ids_by_key(&keys);
    let collide_segments: Vec<Segment> = segments
        .iter()
        .map(|s| Segment::new(Vec3::new(s[0], s[1], s[2]), Vec3::new(s[3], s[4], s[5])))
        .collect();
    let leaves: Vec<ParryAabb> = scene.boxes.iter().map(parry_aabb).collect();
    let bvh = Bvh::from_leaves(BvhBuildStrategy::Binned, &leaves);
    let rays: Vec<Ray> = segments
        .iter()
        .map(|s| {
            let start = ParryVector::new(s[0], s[1], s[2]);
            Ray::new(start, ParryVector::new(s[3], s[4], s[5]) - start)
        })
        .collect();

    let parallel = workload == Workload::CastBatch;
    let collide_cast = |count: usize| -> Run {
        if parallel {
            let mut hits = vec![None; count];
            let start = Instant::now();
            world
                .segment_cast_batch(&collide_segments[..count], &QueryFilter::ALL, &mut hits)
                .expect("finite segments");
            let time = start.elapsed();
            let hits = hits.into_iter().flatten().map(|hit| (ids[&hit.collider], hit.t));
            return (time, Checksum::of_hits(hits));
        }
        let mut hits = Vec::with_capacity(count);
        let start = Instant::now();
        for segment in &collide_segments[..count] {
            let hit = world
                .segment_cast(segment, &QueryFilter::ALL)
                .expect("a finite segment");
            hits.push(hit.map(|hit| (hit.collider, hit.t)));
        }
        let time = start.elapsed();
        (
            time,
            Checksum::of_hits(hits.into_iter().flatten().map(|(key, t)| (ids[&key], t))),
        )
    };
    let parry_cast = |count: usize| -> Run {
        if parallel {
            use rayon::prelude::*;
            let start = Instant::now();
            let hits: Vec<_> = rays[..count]
                .par_iter()
                .map(|ray| {
                    bvh.cast_ray(ray, 1.0, |leaf, best| {
                        leaves[leaf as usize].cast_local_ray(ray, best, true)
                    })
                })
                .collect();
            let time = start.elapsed();
            return (time, Checksum::of_hits(hits.into_iter().flatten()));
        }
        let mut hits = Vec::with_capacity(count);
        let start = Instant::now();
        for ray in &rays[..count] {
            hits.push(bvh.cast_ray(ray, 1.0, |leaf, best| {
                leaves[leaf as usize].cast_local_ray(ray, best, true)
            }));
        }
        let time = start.elapsed();
        (time, Checksum::of_hits(hits.into_iter().flatten()))
    };

    let probe = segments.len().min(1000);
    for (name, cast) in [
        ("collide", &collide_cast as &dyn Fn(usize) -> Run),
        ("parry3d", &parry_cast),
    ] {
        let estimate = cast(probe).0.mul_f64((segments.len() * runs) as f64 / probe as f64);
        if estimate > SLOW_CAST_WARNING {
            eprintln!(
                "note: {name} {} on {} will take about {:.0} s ({runs} runs of {} segments); \
                 --max-segments N limits it",
                workload.name(),
                scene.name,
                estimate.as_secs_f64(),
                segments.len()
            );
        }
    }
    race(runs, || collide_cast(segments.len()), || parry_cast(segments.len()))
}

/// The CPU's model name, from `/proc/cpuinfo`.
fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find_map(|line| Some(line.strip_prefix("model name")?.split_once(':')?.1.trim().to_owned()))
        })
        .unwrap_or_else(|| "unknown (no model name in /proc/cpuinfo)".to_owned())
}

/// Runs one workload on one scene and prints its row; the failures (the
/// implementations disagree, or one disagrees with the reference) as text.
fn run_row(scene: &Scene, workload: Workload, options: &Options, reference: Option<&Reference>) -> Vec<String> {
    let runs = options.runs;
    let (outcomes, segments) = match workload {
        Workload::Build => (bench_build(scene, runs), 0),
        Workload::Pairs => (bench_pairs(scene, runs, options.pair_finder), 0),
        Workload::Frames => (bench_frames(scene, runs, options.pair_finder, false), 0),
        Workload::FramesBatch => (bench_frames(scene, runs, options.pair_finder, true), 0),
        Workload::FramesShapes => (bench_frames_shapes(scene, runs, options.pair_finder), 0),
        Workload::CastBullets | Workload::CastHitscan | Workload::CastBatch => {
            let all = if workload == Workload::CastHitscan {
                &scene.hitscan
            } else {
                &scene.bullets
            };
            let segments = &all[..all.len().min(options.max_segments.unwrap_or(usize::MAX))];
            (bench_cast(scene, workload, segments, runs), segments.len())
        }
    };
    let [collide, parry] = outcomes;
    let value = |outcome: &Outcome| {
        if workload.is_cast() {
            outcome.median.as_secs_f64() * 1e9 / segments as f64
        } else {
            outcome.median.as_secs_f64() * 1e3
        }
    };

    let mut failures = Vec::new();
    if !collide.checksum.agrees_with(&parry.checksum) {
        failures.push("MISMATCH: collide ≠ parry3d".to_owned());
    }
    let reference = reference.and_then(|r| r.checksum(scene, workload, segments));
    for (who, outcome) in [("collide", &collide), ("parry3d", &parry)] {
        if let Some(reference) = reference.filter(|r| !outcome.checksum.agrees_with(r)) {
            failures.push(format!("MISMATCH: {who} ≠ reference ({reference})"));
        }
    }
    let verdict = match (failures.is_empty(), reference.is_some()) {
        (true, true) => "agree, = reference".to_owned(),
        (true, false) => "agree".to_owned(),
        (false, _) => failures.join("; "),
    };
    let unit = workload.unit();
    println!(
        "{:<13} {:<13} {:>11.3} {unit} {:>11.3} {unit} {:>8.2}  {:<42} {:<42} {verdict}",
        scene.name,
        workload.name(),
        value(&collide),
        value(&parry),
        value(&parry) / value(&collide),
        collide.checksum.to_string(),
        parry.checksum.to_string(),
    );
    failures
        .into_iter()
        .map(|failure| format!("{} {}: {failure}", scene.name, workload.name()))
        .collect()
}

/// The scene `name`, from `--dir`'s files or generated in memory.
fn load_or_generate(options: &Options, name: &str) -> Result<Scene, String> {
    match &options.dir {
        Some(dir) => {
            scenes::load_scene(dir, name).map_err(|e| format!("cannot load {name} from {}: {e}", dir.display()))
        }
        None => Ok(scenes::generate(name, options.small).expect("a known scene name")),
    }
}

/// `--memory`: one Markdown table row of collide's bytes per collider
/// ([`World::memory_bytes`] over the collider count) on `scene`, after the
/// level load, after a first [`World::pairs`], after the first frame's
/// moves (one [`World::set_transform`] per moved collider, as in `frames`)
/// and pairs (the running world), and after a first
/// [`World::pairs_sweep_and_prune`] too.
fn memory_row(scene: &Scene) -> String {
    let (mut world, keys) = collide_world(&scene.boxes);
    let per_collider = |world: &World| world.memory_bytes() as f64 / keys.len() as f64;
    let loaded = per_collider(&world);
    world.pairs();
    let paired = per_collider(&world);
    for &(id, d) in scene.frames.first().into_iter().flatten() {
        let moved = Transform::from_translation(Vec3::from(d));
        world.set_transform(keys[id as usize], moved).expect("a live collider");
    }
    world.pairs();
    let running = per_collider(&world);
    world.pairs_sweep_and_prune();
    let swept = per_collider(&world);
    format!(
        "| {} | {loaded:.0} B | {paired:.0} B | {running:.0} B | {swept:.0} B |",
        scene.name
    )
}

fn main() -> ExitCode {
    let options = match Options::parse(std::env::args().skip(1)) {
        Ok(Some(options)) => options,
        Ok(None) => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(message) => {
            eprintln!("error: {message}\n\n{USAGE}");
            return ExitCode::FAILURE;
        }
    };
    println!("cpu: {}", cpu_model());
    println!("command: {}", std::env::args().collect::<Vec<_>>().join(" "));
    let source = match &options.dir {
        Some(dir) => format!("loaded from {}", dir.display()),
        None if options.small => "generated in memory, small (gen_scenes.py --small)".to_owned(),
        None => "generated in memory, full size".to_owned(),
    };
    if options.memory {
        println!("scenes {source}; collide's World::memory_bytes() / colliders (capacities)\n");
        println!("| scene | after `extend` | after `pairs()` | after one frame's `set_transform`s and `pairs()` | after `pairs_sweep_and_prune()` too |");
        println!("| --- | --- | --- | --- | --- |");
        for name in &options.scenes {
            match load_or_generate(&options, name) {
                Ok(scene) => println!("{}", memory_row(&scene)),
                Err(message) => {
                    eprintln!("error: {message}");
                    return ExitCode::FAILURE;
                }
            }
        }
        return ExitCode::SUCCESS;
    }
    let finder = match options.pair_finder {
        PairFinder::SweepAndPrune => "World::pairs_sweep_and_prune",
        PairFinder::Tree => "World::pairs",
    };
    println!(
        "scenes {source}; median of {} runs; single thread; collide pairs by {finder}",
        options.runs
    );
    let references = match Reference::load(Reference::TABLE) {
        Ok(references) => references,
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::FAILURE;
        }
    };
    println!("times: ms for build, pairs (per query) and frames (per frame); ns per segment for casts");
    println!("parry/co = parry3d time / collide time: above 1, collide is faster\n");
    println!(
        "{:<13} {:<13} {:>14} {:>14} {:>8}  {:<42} {:<42} verdict",
        "scene", "workload", "collide", "parry3d", "parry/co", "collide checksum", "parry3d checksum"
    );

    let mut failures = Vec::new();
    for name in &options.scenes {
        let scene = match load_or_generate(&options, name) {
            Ok(scene) => scene,
            Err(message) => {
                eprintln!("error: {message}");
                return ExitCode::FAILURE;
            }
        };
        for &workload in &options.workloads {
            failures.extend(run_row(&scene, workload, &options, references.get(name)));
        }
    }
    if failures.is_empty() {
        return ExitCode::SUCCESS;
    }
    println!("\n!!! {} MISMATCH(ES) !!!", failures.len());
    for failure in &failures {
        println!("!!! {failure}");
    }
    ExitCode::FAILURE
}
