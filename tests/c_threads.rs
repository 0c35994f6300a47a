//! collide's thread rule from C: `examples-c/threads.c` casts 2,000 segments
//! from four POSIX threads at once on one `const PhysWorld*` and compares
//! every answer with the single-threaded one, as it does the answers of
//! `phys_segment_cast_batch` under each `phys_world_set_thread_count`. This test builds it with the
//! Makefile against the `libcollide.a` of this test run, runs it, checks its
//! single-threaded answers against the safe Rust API on the same world, and
//! runs it once more under valgrind's race detector, helgrind, which (unlike
//! ThreadSanitizer, whose instrumentation the Rust static library lacks) sees
//! every memory access, collide's included (`tests/c/helgrind-rust-std.supp`
//! names the one lock of Rust's standard library it cannot model).
//!
//! A missing `make`, C compiler or `valgrind` fails the test (it names the
//! Debian package): the thread rule is part of the C ABI's promise.

mod common;

use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

use collide::math::Vec3;
use collide::{Aabb, ColliderDesc, Filter, QueryFilter, Segment, Shape, Transform, World};
use common::c::{lines_of_kind, make_examples, profile_dir, require_tool, run_ok, stdout_of, the_line, Record};

/// The grid of threads.c: GRID x GRID pillars, SPACING apart, 2 x h x 2.
const GRID: usize = 20;
const SPACING: f32 = 4.0;
const USER_BASE: u64 = 1000;
const THREADS: u64 = 4;
const SEGMENTS: u64 = 2000;
const RANDOM_SEGMENTS: usize = 1200;

/// `threads`, built once per test process.
fn threads_binary() -> &'static PathBuf {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT.get_or_init(|| {
        let dir = profile_dir().join("c-threads");
        make_examples(&dir, &[], ["threads"]);
        dir.join("threads")
    })
}

/// What `threads ROUNDS` prints, and its exit status checked.
fn run_threads(rounds: u32) -> String {
    stdout_of(Command::new(threads_binary()).arg(rounds.to_string()))
}

/// The summary and per-thread lines agree with `rounds` rounds of every
/// segment on every thread, and not one answer differed.
fn assert_every_answer_matched(output: &str, rounds: u64) {
    let threads = lines_of_kind(output, "thread");
    assert_eq!(threads.len(), THREADS as usize, "a line per thread");
    for (id, thread) in threads.iter().enumerate() {
        assert_eq!(thread.num::<usize>("id"), id);
        assert_eq!(
            thread.num::<u64>("casts"),
            rounds * SEGMENTS,
            "thread {id} cast every segment"
        );
        assert_eq!(thread.num::<u64>("mismatches"), 0, "thread {id}");
        assert_eq!(
            thread.num::<u32>("error_status"),
            collide::ffi::PhysStatus::PHYS_ERROR_NON_FINITE as u32,
            "thread {id}: its NaN segment"
        );
    }
    let batches = lines_of_kind(output, "batch");
    let settings: Vec<i32> = batches.iter().map(|b| b.num("threads")).collect();
    assert_eq!(settings, [-1, 1, 2, 3, 0], "a batch per thread setting");
    for batch in &batches {
        assert_eq!(
            batch.num::<u64>("mismatches"),
            0,
            "phys_segment_cast_batch with {} threads",
            batch.num::<i32>("threads")
        );
    }
    let shared = lines_of_kind(output, "shared");
    let settings: Vec<i32> = shared.iter().map(|b| b.num("threads")).collect();
    assert_eq!(settings, [1, 2, 3, 0], "a shared run per thread setting");
    for run in &shared {
        let threads = run.num::<i32>("threads");
        assert_eq!(run.num::<u64>("mismatches"), 0, "pairs with {threads} threads");
        assert!(run.num::<u64>("first") > 1000, "{threads} threads: a world with pairs");
        assert!(
            run.num::<u64>("moved") > 1000,
            "{threads} threads: pairs after the moves"
        );
    }
    let summary = the_line(output, "summary");
    assert_eq!(summary.num::<u64>("threads"), THREADS);
    assert_eq!(summary.num::<u64>("rounds"), rounds);
    assert_eq!(summary.num::<u64>("casts"), THREADS * rounds * SEGMENTS);
    assert_eq!(summary.num::<u64>("mismatches"), 0);
}

#[test]
fn four_threads_casting_on_one_world_get_the_single_threaded_answers() {
    let output = run_threads(25);
    let world = the_line(&output, "world");
    assert_eq!(world.num::<usize>("colliders"), GRID * GRID);
    assert_eq!(world.num::<u64>("segments"), SEGMENTS);
    let expected = the_line(&output, "expected");
    assert_eq!(
        expected.num::<usize>("known_hits"),
        GRID * GRID,
        "every pillar's top is hit"
    );
    assert_eq!(
        expected.num::<usize>("known_misses"),
        GRID * GRID,
        "every gap is missed"
    );
    assert_eq!(expected.num::<usize>("random"), RANDOM_SEGMENTS);
    let random_hits: usize = expected.num("random_hits");
    assert!(
        random_hits > RANDOM_SEGMENTS / 10 && random_hits < RANDOM_SEGMENTS * 9 / 10,
        "the random segments both hit and miss ({random_hits} hits)"
    );
    assert_every_answer_matched(&output, 25);
}

/// threads.c's world through the safe API: the same boxes, placements, user
/// data and categories, added in one batch as `phys_add_boxes` does.
fn rust_world() -> World {
    let mut world = World::new();
    let descs = (0..GRID * GRID).map(|k| {
        let height = 1.0 + (k % 5) as f32;
        let centre = Vec3::new((k % GRID) as f32 * SPACING, 0.0, (k / GRID) as f32 * SPACING);
        ColliderDesc::new(Shape::Aabb(Aabb::new(
            Vec3::new(-1.0, 0.0, -1.0),
            Vec3::new(1.0, height, 1.0),
        )))
        .with_transform(Transform::from_translation(centre))
        .with_user_data(USER_BASE + k as u64)
        .with_filter(Filter {
            category: if k % 2 == 0 { 1 } else { 2 },
            mask: u64::MAX,
        })
    });
    world.extend(descs).expect("the grid is valid");
    world
}

fn vec3(record: &Record, key: &str) -> Vec3 {
    let parts: Vec<f32> = record
        .str(key)
        .split(',')
        .map(|x| x.parse().expect("a coordinate"))
        .collect();
    Vec3::new(parts[0], parts[1], parts[2])
}

#[test]
fn the_c_answers_are_the_rust_api_s_answers() {
    let output = run_threads(1);
    let world = rust_world();
    let random = lines_of_kind(&output, "random");
    assert_eq!(random.len(), RANDOM_SEGMENTS, "a line per random segment");
    let mut hits = 0;
    for line in &random {
        let i: usize = line.num("i");
        let segment = Segment::new(vec3(line, "from"), vec3(line, "to"));
        let filter = match line.num::<u32>("filtered") {
            0 => QueryFilter::ALL,
            _ => QueryFilter::with_bits(u64::MAX, 1),
        };
        let got = (line.num::<u64>("user"), line.num::<f32>("t"));
        let want = world
            .segment_cast(&segment, &filter)
            .expect("a finite segment")
            .map_or((0, 0.0), |hit| (hit.user_data, hit.t));
        assert_eq!(
            got, want,
            "random segment {i}: (user data, t) through C and through Rust"
        );
        hits += usize::from(want.0 != 0);
    }
    assert_eq!(the_line(&output, "expected").num::<usize>("random_hits"), hits);
}

#[test]
fn helgrind_finds_no_race_in_concurrent_casts() {
    require_tool("valgrind", "the race detector helgrind", "valgrind");
    let output = run_ok(
        Command::new("valgrind")
            .args(["--tool=helgrind", "--error-exitcode=1", "--quiet"])
            .arg(format!(
                "--suppressions={}",
                concat!(env!("CARGO_MANIFEST_DIR"), "/tests/c/helgrind-rust-std.supp")
            ))
            .arg(threads_binary())
            .arg("1"),
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        !stderr.contains("Possible data race") && !stderr.contains("lock order"),
        "helgrind reports:\n{stderr}"
    );
    assert_every_answer_matched(&String::from_utf8(output.stdout).expect("UTF-8"), 1);
}
