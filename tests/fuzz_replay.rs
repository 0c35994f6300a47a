//! Replays the committed seed corpora of the fuzz targets (`fuzz/seeds/world/`,
//! `fuzz/seeds/c_abi/`) through the same step functions the fuzzers run
//! (`tests/fuzz_model/`), without fuzzing: every input the fuzzers found
//! interesting, and every crash they found, stays a test on stable Rust.
//! Each input runs at most `fuzz_model::MAX_STEPS` steps; the corpora are
//! small, so the whole replay takes seconds.

mod fuzz_model;

use std::path::{Path, PathBuf};

/// The files of `fuzz/seeds/<target>/`, sorted.
fn seeds(target: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/seeds").join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("a readable directory entry").path())
        .filter(|path| path.is_file())
        .collect();
    files.sort();
    files
}

/// Runs every seed of `target`, naming the one that fails.
fn replay(target: &str, run: fn(&[u8])) {
    let files = seeds(target);
    assert!(!files.is_empty(), "fuzz/seeds/{target}/ holds no seed");
    for path in files {
        let data = std::fs::read(&path).expect("a readable seed");
        if let Err(panic) = std::panic::catch_unwind(|| run(&data)) {
            let message = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            panic!("seed {} fails: {message}", path.display());
        }
    }
}

#[test]
fn world_seeds_replay_cleanly() {
    replay("world", fuzz_model::run_world);
}

#[test]
fn c_abi_seeds_replay_cleanly() {
    replay("c_abi", fuzz_model::c_abi::run_c_abi);
}

/// Any byte string is a valid input: the empty one, and a few fixed
/// patterns, run without a finding.
#[test]
fn trivial_inputs_run_cleanly() {
    for data in [&[][..], &[0; 64], &[0xff; 64], &[0x80; 300]] {
        fuzz_model::run_world(data);
        fuzz_model::c_abi::run_c_abi(data);
    }
}

// ---------------------------------------------------------------------------
// The findings of RELIABILITY.md, each as the seed that found it (replayed
// above with the rest) and as a direct test. Fixed findings (F3, F4, F8)
// have their regression tests beside the code they exercise:
// `robustness::a_collider_near_f32_max_stays_found_after_an_update` (F3),
// `robustness::a_world_shape_with_a_nan_is_refused` (F4),
// `bad_input::overlap_with_unbounded_bounds_finds_everything` and
// `bad_input::c_huge_coordinates_are_accepted_or_refused_never_a_panic` (F8).
// Open ones are `#[ignore]`d tests of the behaviour they should have.

use collide::math::Vec3;
use collide::{Aabb, Capsule, ColliderDesc, QueryFilter, Segment, Shape, Sphere, World};

/// Runs one named seed of `target`.
fn replay_one(target: &str, name: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/seeds")
        .join(target)
        .join(name);
    let data = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    match target {
        "world" => fuzz_model::run_world(&data),
        _ => fuzz_model::c_abi::run_c_abi(&data),
    }
}

#[test]
fn fixed_findings_replay_cleanly() {
    replay_one("world", "f3-nan-fat-box-near-f32-max");
    replay_one("world", "f4-nan-world-shape-accepted");
    replay_one("c_abi", "f8-overlap-unbounded-query-panic");
}

/// F1: beyond √f32::MAX ≈ 1.8e19 a squared distance overflows and
/// `∞ <= ∞` reads as an overlap; the world's finders test the bounds first
/// and stay right (and agree).
#[test]
fn f1_the_bounds_test_keeps_overflowing_exact_tests_out_of_the_pairs() {
    replay_one("world", "f1-huge-sphere-distance-overflow");
    let big = Shape::Sphere(Sphere::new(Vec3::new(-1e30, -1e30, 1e30), 1e30));
    let point = Shape::Aabb(Aabb::new(Vec3::splat(-20.0), Vec3::splat(-20.0)));
    let mut world = World::new();
    world.add(ColliderDesc::new(big)).unwrap();
    world.add(ColliderDesc::new(point)).unwrap();
    let mut pairwise = Vec::new();
    world.test_pairwise(|p| pairwise.push(p));
    assert!(pairwise.is_empty(), "√3·1e30 apart: no pair");
    assert!(world.pairs().is_empty() && world.pairs_sweep_and_prune().is_empty());
}

/// F1, the exact test itself: open (the squared distances should be
/// computed scaled, or the world should refuse colliders beyond a range).
#[test]
#[ignore = "F1 open: Shape::intersects overflows beyond 1.8e19 (RELIABILITY.md)"]
fn f1_exact_tests_do_not_overflow() {
    let big = Shape::Sphere(Sphere::new(Vec3::new(-1e30, -1e30, 1e30), 1e30));
    let point = Shape::Aabb(Aabb::new(Vec3::splat(-20.0), Vec3::splat(-20.0)));
    assert!(!big.intersects(&point));
}

/// F2: a gap below √f32::MIN_POSITIVE ≈ 1e-19 squares to 0 and the exact
/// test reads it as touching: the documented absolute tolerance of the
/// squared-distance tests. The finders' bounds test (exact comparisons)
/// sees the gap, so the world reports no pair.
#[test]
fn f2_gaps_below_1e_19_touch_in_the_exact_test_only() {
    replay_one("world", "f2-denormal-gap-squares-to-zero");
    replay_one("world", "f2-capsule-denormal-gap");
    let dot = Shape::Capsule(Capsule::new(
        Segment::new(Vec3::new(7.9264e-41, -20.0, -20.0), Vec3::new(7.9264e-41, -20.0, -20.0)),
        0.0,
    ));
    let point = Shape::Aabb(Aabb::new(
        Vec3::new(7.1e-44, -20.0, -20.0),
        Vec3::new(7.1e-44, -20.0, -20.0),
    ));
    assert!(dot.intersects(&point), "the tolerance: a gap of 8e-41 touches");
    let mut world = World::new();
    world.add(ColliderDesc::new(dot)).unwrap();
    world.add(ColliderDesc::new(point)).unwrap();
    assert!(world.pairs().is_empty(), "the bounds are apart");
}

/// F5: where the exact test and the box test disagree by rounding (a
/// point 8e-41 from a radius-0 sphere; a start 2.5e-22 outside a sphere of
/// radius 18.75 read as inside), `segment_cast_brute_force` and the tree
/// differed. Fixed: the tree holds a non-box collider by its bounds grown
/// by the rounding of its exact tests, so it never prunes what they report.
#[test]
fn f5_the_brute_force_equals_the_tree_under_rounding() {
    let mut world = World::new();
    world
        .add(ColliderDesc::new(Shape::Sphere(Sphere::new(
            Vec3::new(1.8219703e-36, -20.0, -20.0),
            0.0,
        ))))
        .unwrap();
    let p = Vec3::new(7.7806e-41, -20.0, -20.0);
    let s = Segment::new(p, p);
    assert_eq!(
        world.segment_cast(&s, &QueryFilter::ALL).unwrap(),
        world.segment_cast_brute_force(&s, &QueryFilter::ALL).unwrap()
    );
}

/// F5, as the fuzzer saw it (the model accepts either answer there).
#[test]
fn f5_seeds_replay_cleanly() {
    replay_one("world", "f5-cast-brute-force-underflow");
    replay_one("world", "f5-tie-at-t0-early-exact-hit");
    replay_one("world", "f9-start-an-ulp-outside-a-sphere");
    replay_one("world", "f6-huge-segment-rounding");
    replay_one("world", "f6-cast-from-1e19");
}

/// F7: a segment moving less than 1e-30 along an axis, starting outside a
/// box on that axis and reaching it, was taken by the tree's slab test as
/// not moving (all or nothing by its start) and missed. Fixed: the slab of
/// such an axis tests the segment's extent.
#[test]
fn f7_a_segment_creeping_onto_a_box_is_found() {
    replay_one("world", "f7-slab-parallel-threshold");
    let mut world = World::new();
    world
        .add(ColliderDesc::new(Shape::Capsule(Capsule::new(
            Segment::new(Vec3::new(-12.0, -20.0, -20.0), Vec3::new(-12.0, -20.0, -20.0)),
            12.0,
        ))))
        .unwrap();
    let s = Segment::new(Vec3::new(3.911647e-37, -20.0, -20.0), Vec3::new(0.0, -20.0, -20.0));
    let brute = world.segment_cast_brute_force(&s, &QueryFilter::ALL).unwrap();
    assert!(brute.is_some());
    assert_eq!(world.segment_cast(&s, &QueryFilter::ALL).unwrap(), brute);
}

/// F10: the capsule-capsule test depends on the order of its arguments
/// for an axis 1e19 long (the segment-segment closest points lose every
/// digit), so finders testing in different orders can disagree. Open.
#[test]
#[ignore = "F10 open: Capsule::intersects_capsule is not symmetric beyond 1e9 (RELIABILITY.md)"]
fn f10_the_capsule_test_is_symmetric() {
    let a = Shape::Capsule(Capsule::new(
        Segment::new(Vec3::new(-5.25, -19.25, -8.75), Vec3::new(-5.25, 15.75, 15.75)),
        7.75,
    ));
    let b = Shape::Capsule(Capsule::new(
        Segment::new(Vec3::new(6.5, 6.5, 11.75), Vec3::new(-1e19, -20.0, 15.75)),
        6.75,
    ));
    assert_eq!(a.intersects(&b), b.intersects(&a));
    assert!(a.intersects(&b), "the axes pass 2 apart, the radii sum to 14.5");
}

/// F10, as the fuzzer saw it (the model accepts either answer for such a
/// pair from the tree and the sweep; `test_pairwise` must match exactly).
#[test]
fn f10_seeds_replay_cleanly() {
    replay_one("world", "f10-capsule-test-asymmetric-at-1e19");
    replay_one("world", "f10-pairs-at-the-end");
    replay_one("world", "f10-tangent-segments-order-dependent");
}
