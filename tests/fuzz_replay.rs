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

/// Seeded random byte strings, a fifth of their bytes turned into the
/// shape tags of the newer kinds (height fields, meshes, hulls, cylinders,
/// cones, triangles, boxes), run without a finding: a deterministic sample
/// of what the fuzzers explore, over the shapes their corpora hold least.
#[test]
fn random_inputs_with_every_shape_kind_run_cleanly() {
    use rand::{RngExt, SeedableRng};
    let mut rng = rand_xorshift::XorShiftRng::seed_from_u64(0x5eed_f022);
    for _ in 0..10_000 {
        let len = rng.random_range(0..600);
        let mut data: Vec<u8> = (0..len).map(|_| rng.random::<u8>()).collect();
        for byte in data.iter_mut().step_by(7) {
            if rng.random_range(0..3) == 0 {
                // 168 + k·9 + 7 is a shape tag drawing a height field;
                // its neighbours draw the other kinds.
                *byte = 168 + 9 * rng.random_range(0..9u8) + rng.random_range(0..9u8);
            }
        }
        fuzz_model::run_world(&data);
        fuzz_model::c_abi::run_c_abi(&data);
    }
}

// ---------------------------------------------------------------------------
// The findings of RELIABILITY.md, each as the seed that found it (replayed
// above with the rest) and as a direct test. Fixed findings (F3, F4, F8)
// have their regression tests beside the code they exercise:
// `world_queries::edges::a_collider_near_f32_max_stays_found_after_an_update` (F3),
// `world_queries::edges::a_world_shape_with_a_nan_is_refused` (F4),
// `world_bad_input::overlap_with_unbounded_bounds_finds_everything` and
// `ffi_queries::c_huge_coordinates_are_accepted_or_refused_never_a_panic` (F8).
// An open one is an `#[ignore]`d test of the behaviour it should have; the
// seed of an open panic goes into a subdirectory (`fuzz/seeds/<target>/open/`),
// which the replay above skips (it replays files only).

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

/// F1: beyond √f32::MAX ≈ 1.8e19 a squared distance overflowed in `f32`
/// and `∞ <= ∞` read as an overlap; the world's finders, which test the
/// bounds first, were right even then, and are now with the exact test too.
#[test]
fn f1_colliders_1e30_apart_make_no_pair() {
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

/// F1, the exact test itself: the squared-distance tests compute in `f64`,
/// where no square of a finite `f32` overflows; fixed.
#[test]
fn f1_exact_tests_do_not_overflow() {
    let big = Shape::Sphere(Sphere::new(Vec3::new(-1e30, -1e30, 1e30), 1e30));
    let point = Shape::Aabb(Aabb::new(Vec3::splat(-20.0), Vec3::splat(-20.0)));
    assert!(!big.intersects(&point) && !point.intersects(&big));
    // The same at the very end of the range: centres f32::MAX apart on
    // every axis, radii summing to just less than the distance.
    let far = Shape::Sphere(Sphere::new(Vec3::splat(f32::MAX), f32::MAX));
    let near = Shape::Sphere(Sphere::new(Vec3::splat(-f32::MAX), f32::MAX));
    assert!(!far.intersects(&near), "2√3·MAX apart, radii 2·MAX");
    let axis = Shape::Capsule(Capsule::new(
        Segment::new(Vec3::splat(-f32::MAX), Vec3::splat(f32::MAX)),
        0.0,
    ));
    assert!(
        axis.intersects(&Shape::Sphere(Sphere::new(Vec3::ZERO, 0.0))),
        "the origin is on the axis"
    );
}

/// F2 (was: a gap below √f32::MIN_POSITIVE ≈ 1e-19 squared to 0 and the
/// exact test read it as touching): in `f64` the square of a subnormal is
/// a normal number, so a gap of 8e-41 is a gap, and a point at a
/// subnormal radius on the surface still touches. The world reported no
/// pair before (the bounds test sees the gap) and still does not.
#[test]
fn f2_subnormal_gaps_are_gaps_in_the_exact_tests() {
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
    assert!(!dot.intersects(&point) && !point.intersects(&dot), "8e-41 apart");
    let smallest = f32::from_bits(1);
    let touching = Shape::Sphere(Sphere::new(Vec3::new(2.0 * smallest, 0.0, 0.0), smallest));
    let on_surface = Shape::Sphere(Sphere::new(Vec3::new(smallest, 0.0, 0.0), 0.0));
    let one_step_out = Shape::Sphere(Sphere::new(Vec3::ZERO, 0.0));
    assert!(touching.intersects(&on_surface), "a point on the surface touches");
    assert!(!touching.intersects(&one_step_out), "one subnormal step out does not");
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

/// F10: the capsule-capsule test depended on the order of its arguments
/// for an axis 1e19 long (the segment-segment closest points lost every
/// digit in `f32`). Fixed: the closest points are computed in `f64`, with
/// the two axes in a canonical order.
#[test]

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

/// F10, as the fuzzer saw it (every finder must now match the model
/// exactly).
#[test]
fn f10_seeds_replay_cleanly() {
    replay_one("world", "f10-capsule-test-asymmetric-at-1e19");
    replay_one("world", "f10-pairs-at-the-end");
    replay_one("world", "f10-tangent-segments-order-dependent");
}

// ---------------------------------------------------------------------------
// Findings of the narrow-phase model (F12–F14).

use collide::{ConvexHull, Error, Transform, Triangle, TriangleMesh};

/// F12: `World::pairs` (the tree's incremental pair finder) panics with
/// an index out of bounds (`src/bvh/pairs.rs`, the leaf-against-node
/// branch indexing node `0xFFFFFFFF`) when a collider that is not a box
/// has bounds reaching `f32::MAX` on all three axes (a point triangle or
/// a radius-0 sphere at `(f32::MAX)³`): its tree box, grown by the
/// rounding of its exact tests (F5), is `+∞` on every axis and overlaps
/// an empty child slot's `(+∞, +∞)` box, as the query did in F8. Fixed in
/// `src/bvh/node.rs`: the walk of the tree against itself skips empty
/// slots, as the query does.
#[test]
fn f12_pairs_survive_a_collider_at_f32_max() {
    let corner = Vec3::splat(f32::MAX);
    for shape in [
        Shape::Triangle(Triangle::new(corner, corner, corner)),
        Shape::Sphere(Sphere::new(corner, 0.0)),
    ] {
        let mut world = World::new();
        world.add(ColliderDesc::new(shape)).unwrap();
        assert!(world.pairs().is_empty(), "one collider: no pair");
    }
    replay_one("world", "f12-pairs-panic-point-at-f32-max");
    replay_one("c_abi", "f12-find-pairs-panic-at-f32-max");
}

/// F13: a hull's vertices were its input points shifted to the centre of
/// their bounds and back, which rounds: a point `(−13.75, −7.5e-30,
/// −13.75)` came back as `(−13.75, 0, −13.75)`, not an input point. Fixed
/// in `src/shape/hull.rs` (`from_faces` keeps the input points).
#[test]
fn f13_hull_vertices_are_input_points_exactly() {
    replay_one("world", "f13-hull-vertex-shifted-back-rounds");
    let points = [
        Vec3::new(-20.0, -20.0, -13.75),
        Vec3::new(-20.0, -13.75, -13.75),
        Vec3::new(-13.75, -13.75, -13.75),
        Vec3::new(-13.75, -13.75, -20.0),
        Vec3::new(-13.75, -20.0, -20.0),
        Vec3::new(-13.75, -7.548316e-30, -13.75),
        Vec3::new(-13.75, -19.25, -20.0),
        Vec3::new(-2.5, -2.5, -2.5),
        Vec3::new(-2.5, -13.75, -13.75),
        Vec3::new(-20.0, -20.0, -20.0),
    ];
    let hull = ConvexHull::from_points(&points).unwrap();
    for v in hull.vertices() {
        assert!(points.contains(v), "{v:?} is not an input point");
    }
    assert!(hull.vertices().contains(&points[5]));
}

/// F14: the hull of a box's corners plus the centre of its top face, the
/// face point first, keeps the face point as a ninth vertex: the first
/// tetrahedron takes the extreme points along each axis, ties to the
/// earlier point, and quickhull never drops a vertex of it. Accepted
/// (documented on `ConvexHull::vertices`): the point lies on the face, so
/// the solid is the box's.
#[test]
fn f14_a_face_point_taken_first_stays_a_vertex() {
    replay_one("c_abi", "f14-hull-keeps-a-face-point");
    let (min, size) = (Vec3::new(-3.25, -3.25, -3.25), Vec3::new(0.75, 1.0, 7.25));
    let face = min + size * Vec3::new(0.5, 0.5, 1.0);
    let corners: Vec<Vec3> = (0..8)
        .map(|i| min + size * Vec3::new((i & 1) as f32, ((i >> 1) & 1) as f32, ((i >> 2) & 1) as f32))
        .collect();
    let mut points = vec![face];
    points.extend(&corners);
    let hull = ConvexHull::from_points(&points).unwrap();
    assert_eq!(hull.vertices().len(), 9);
    assert!(corners.iter().all(|c| hull.vertices().contains(c)) && hull.vertices().contains(&face));
    for plane in hull.planes() {
        assert!(plane.signed_distance(face).abs() <= 1.0e-5 || plane.signed_distance(face) < 0.0);
    }
    assert!(hull.contains_point(face) && !hull.contains_point(face + Vec3::Z * 1.0e-3));
}

/// F15: `World::move_and_slide` worked with the motion's length and
/// direction: beyond |motion| ≈ 1.8e19 the length overflows (∞), the
/// direction is 0 and the travel `∞ − ∞`: the character moved by NaN
/// (a sphere moved by (−3e38, −3e38, −3e38) into a box); below 1e-19
/// the length underflows to 0 and the motion was dropped. Fixed in
/// `src/character.rs`: fractions of the remaining motion instead of
/// lengths, and the clip scaled by a power of two when the motion is huge
/// or tiny.
#[test]
fn f15_move_and_slide_takes_motions_of_any_size() {
    replay_one("world", "f15-move-and-slide-nan-for-a-huge-motion");
    let mut world = World::new();
    world
        .add(ColliderDesc::new(Shape::Aabb(Aabb::new(
            Vec3::new(-1.0, -1.0, 10.0),
            Vec3::new(1.0, 1.0, 11.0),
        ))))
        .unwrap();
    let ball = Shape::Sphere(Sphere::new(Vec3::ZERO, 0.5));
    for z in [1.0e20_f32, 1.0e30, 3.0e38] {
        let moved = world
            .move_and_slide(&ball, Vec3::new(0.0, 0.0, z), &QueryFilter::ALL, 4)
            .unwrap();
        assert!(moved.position_delta.is_finite(), "{z}: {moved:?}");
        assert_eq!(moved.hits.len(), 1, "{z}: the wall blocks");
        assert!((moved.position_delta.z - 9.499).abs() < 1.0e-3, "{z}: {moved:?}");
    }
    let diagonal = world
        .move_and_slide(&ball, Vec3::new(3.0e38, 3.0e38, 3.0e38), &QueryFilter::ALL, 4)
        .unwrap();
    assert!(diagonal.position_delta.is_finite(), "{diagonal:?}");
    let tiny = Vec3::new(1.0e-25, 0.0, 0.0);
    let moved = world.move_and_slide(&ball, tiny, &QueryFilter::ALL, 4).unwrap();
    assert_eq!(moved.position_delta, tiny, "a tiny motion is applied");
}

/// F16: sliding along a surface can turn a motion near `f32::MAX` into one
/// beyond it (projecting (−3e38)³ on a tilted plane makes a component of
/// −3.5e38): the next cast got an infinite motion and the character moved
/// by (−∞, NaN, ∞). Fixed in `src/character.rs`: a slide that would carry
/// the shape beyond `f32` ends the move.
#[test]
fn f16_a_slide_beyond_f32_ends_the_move() {
    replay_one("world", "f16-slide-carries-a-huge-motion-beyond-f32");
    let mut world = World::new();
    world
        .add(ColliderDesc::new(Shape::Cone(collide::Cone::new(
            Vec3::new(11.75, -20.0, -20.0),
            Vec3::new(-14.75, -11.25, -20.0),
            0.0,
        ))))
        .unwrap();
    world
        .add(ColliderDesc::new(Shape::Sphere(Sphere::new(
            Vec3::new(-10.75, -8.75, -14.75),
            5.25,
        ))))
        .unwrap();
    let point = Shape::Sphere(Sphere::new(Vec3::ZERO, 0.0));
    for iterations in 0..8 {
        let moved = world
            .move_and_slide(&point, Vec3::splat(-3.0e38), &QueryFilter::ALL, iterations)
            .unwrap();
        assert!(moved.position_delta.is_finite(), "{iterations}: {moved:?}");
        assert!(
            moved.hits.iter().all(|h| h.point.is_finite()),
            "{iterations}: {moved:?}"
        );
    }
}

/// F17: EPA on shapes smaller than the rounding of their coordinates (a
/// cone of radius 1e-11 at (−8.75)³ against itself) answered a depth of
/// `∞` and a zero normal: after its iteration cap the loop's last face had
/// been expanded and its slot reused by a degenerate face (distance `∞`),
/// and faces of edges 1e-11 long got normals of length 0.8–1.1 (their
/// cross products' squares are subnormal). Fixed in `src/query/epa.rs`:
/// the answer is the polytope's closest face after the loop, and a face's
/// normal is scaled before it is normalised.
#[test]
fn f17_epa_on_tiny_shapes_is_finite_and_unit() {
    replay_one("world", "f17-epa-contact-of-a-tiny-cone-is-infinite");
    let at = Vec3::splat(-8.75);
    let r = 9.842156e-12;
    let shapes = [
        Shape::Cone(collide::Cone::new(at, at, r)),
        Shape::Cylinder(collide::Cylinder::new(Segment::new(at, at), r)),
    ];
    for a in &shapes {
        for b in [a.clone(), Shape::Sphere(Sphere::new(at, 0.0))] {
            let c = a.contact(&b).expect("they overlap");
            assert!(c.depth.is_finite() && c.depth <= 4.0 * r, "{a:?}, {b:?}: {c:?}");
            assert!((c.normal.length() - 1.0).abs() < 1.0e-5, "{a:?}, {b:?}: {c:?}");
        }
    }
}

/// The GJK ray cast (`Segment::cast_convex`: cylinders and cones) reports a
/// hit within its documented tolerance, about 1e-5 of the shape's size: a
/// point 13.9 from a cylinder 6.6e6 long, a segment 1e-4 from a radius-0
/// cylinder 28 long. Not a finding (the world's bounds test keeps such hits
/// out of the tree's casts; the brute force reports them); the model
/// accepts them within twice the tolerance.
#[test]
fn gjk_ray_casts_hit_within_their_tolerance() {
    replay_one("world", "corpus-gjk-ray-cast-long-cylinder");
    replay_one("world", "corpus-gjk-ray-cast-flat-cylinder");
    let long = collide::Cylinder::new(
        Segment::new(
            Vec3::new(1.1920929e-7, -8.75, 1.1920929e-7),
            Vec3::new(-4.75, -8.75, -6645119.5),
        ),
        1.1920929e-7,
    );
    let p = Vec3::new(8.5, -19.75, -20.0);
    let d = Shape::Cylinder(long)
        .distance(&Shape::Sphere(Sphere::new(p, 0.0)))
        .distance;
    assert!((d - 13.9).abs() < 0.01, "{d}");
    if Segment::new(p, p).cast_convex(&long).is_some() {
        assert!(d <= 1.0e-5 * long.half_height() * 2.0, "a hit beyond the tolerance");
    }
}

/// F18: casts answered `t = −0.0` for a segment starting on an entry face
/// (`−(−0)/approach`: a box's slab, a hull's plane), and the world ordered
/// such hits two ways: `segment_cast` compares with `<` (−0.0 and 0.0 tie,
/// the smaller key wins), `segment_cast_all` sorted by `total_cmp` (−0.0
/// first), so its first hit was not `segment_cast`'s. Fixed: the hull and
/// box casts answer 0.0 (`src/shape/hull.rs`, `src/query/cast.rs`), and
/// `segment_cast_all` sorts as `segment_cast` compares (`src/world.rs`).
#[test]
fn f18_segment_cast_all_starts_with_the_closest_hit() {
    replay_one("world", "f18-hull-cast-negative-zero-t");
    let start = Vec3::splat(-16.75);
    let segment = Segment::new(start, Vec3::new(-20.0, -20.0, 12.0));
    let mut world = World::new();
    // The smaller key: a ball around the start, hit at t = 0.0.
    world
        .add(ColliderDesc::new(Shape::Sphere(Sphere::new(start, 1.0))))
        .unwrap();
    // A box whose corner is the start: its slab answers t = −0.0.
    world
        .add(ColliderDesc::new(Shape::Aabb(Aabb::new(Vec3::splat(-20.0), start))))
        .unwrap();
    let closest = world.segment_cast(&segment, &QueryFilter::ALL).unwrap().unwrap();
    let mut all = Vec::new();
    world.segment_cast_all(&segment, &QueryFilter::ALL, &mut all).unwrap();
    assert_eq!(all[0].collider, closest.collider, "{all:?}");
}

/// F21: a sliver tetrahedron (its fourth point a little more than the
/// hull's tolerance `ε` off the plane of the first three, 2.2e6 across)
/// passed the coplanarity test, then merged its faces, within `2ε` of each
/// other, into two opposite planes that bound no solid: every point between
/// them was "inside", and a point 18.75 outside the bounds was hit at
/// `t = 0`. Fixed in `src/shape/hull.rs`: a hull no thicker than `2ε`
/// across one of its faces is refused as coplanar.
#[test]
fn f21_a_sliver_hull_flat_within_tolerance_is_refused() {
    replay_one("world", "f21-sliver-hull-merges-into-two-planes");
    let sliver = [
        Vec3::new(1.0547251e-38, 8.75, -8.75),
        Vec3::new(-8.75, -20.0, -20.0),
        Vec3::new(-18.25, -20.0, 1.1920929e-7),
        Vec3::new(1e-40, -2228223.8, 1.1920929e-7),
    ];
    assert_eq!(
        ConvexHull::from_points(&sliver).map(|_| ()),
        Err(collide::Error::InvalidArgument("hull points are coplanar"))
    );
}

/// F19: the sphere–box contact (closed form) read a centre 1e-40 outside a
/// box as inside (the gap's square underflows to 0 in `f32`) and answered a
/// contact of depth −1e-40, where `Shape::intersects` (in `f64` since F2)
/// says apart. Fixed in `src/query/contact.rs`: the contact's distances
/// are computed scaled (no underflow or overflow), and "inside" is a zero
/// gap vector, not a zero length.
#[test]
fn f19_a_point_1e_40_outside_a_box_has_no_contact() {
    replay_one("world", "f19-sphere-box-contact-negative-depth");
    let point = Shape::Sphere(Sphere::new(Vec3::ZERO, 0.0));
    for min in [
        Vec3::splat(1.0e-40),
        Vec3::new(0.0, 1.1754944e-38, 0.0),
        Vec3::new(2.3509886e-38, 0.0, 0.0),
    ] {
        let b = Shape::Aabb(Aabb::new(min, min * 2.0));
        assert!(!point.intersects(&b), "{min:?}");
        assert_eq!(point.contact(&b), None, "{min:?}");
        assert_eq!(b.contact(&point), None, "{min:?}");
    }
}

/// F20: the closed-form sphere and capsule casts normalised the offset
/// between the closest points directly: for two centres 1e-22 apart its
/// squares are subnormal and the "unit" normal had length 1.003. Fixed in
/// `src/query/shape_cast.rs`: the vector is scaled to a largest component
/// of 1 before it is normalised.
#[test]
fn f20_shape_cast_normals_are_unit_for_tiny_offsets() {
    replay_one("world", "f20-shape-cast-normal-of-an-ulp-offset");
    let still = Sphere::new(Vec3::splat(-8.75), 4.0);
    for offset in [1.0e-22_f32, 2.5742786e-22, 1.0e-30, 1.0e-38] {
        let moving = Sphere::new(Vec3::new(offset, 0.0, 0.0), 6.75);
        let target = Sphere::new(Vec3::ZERO, 4.0);
        let hit = moving
            .cast_sphere(Vec3::new(0.0, 18.25, -8.75), &target, Vec3::ZERO)
            .unwrap();
        assert_eq!(hit.t, 0.0, "overlapping at the start");
        assert!((hit.normal.length() - 1.0).abs() < 1.0e-6, "{offset}: {hit:?}");
    }
    let hit = Sphere::new(Vec3::splat(-8.75), 6.75)
        .cast_sphere(Vec3::new(-2.5742786e-22, 18.25, -8.75), &still, Vec3::ZERO)
        .unwrap();
    assert!((hit.normal.length() - 1.0).abs() < 1.0e-6, "{hit:?}");
}

/// F23: a segment 6.5 beside a radius-0 cone 1e5 long hit it at `t = 0`
/// by GJK ray casting. The segment simplex's weights came from the `f64`
/// parameter `t ≈ 0.99996` rounded to `f32`, and `1 − t` kept two digits of
/// the small weight: the offset to the simplex pointed 2e-4 off the
/// perpendicular, the support plane at the far end of the axis read as
/// not separating, and the stalled walk took the start for inside. Fixed
/// in `src/query/gjk.rs`: both weights are rounded from the `f64`
/// parameter, and the offset is formed from the vertex of larger weight.
#[test]
fn f23_a_segment_beside_a_long_thin_cone_misses_it() {
    replay_one("world", "f23-gjk-ray-cast-long-cone-weights");
    let cone = collide::Cone::new(
        Vec3::new(1.0000001, 1.0000001, -16.25),
        Vec3::new(100000.0, -2.25, 1.0000001),
        0.0,
    );
    let beside = Segment::new(Vec3::new(5.0, -8.75, -8.75), Vec3::new(-3.75, -8.75, -8.75));
    assert_eq!(beside.cast_convex(&cone), None);
    let gap = Shape::Cone(cone)
        .distance(&Shape::Capsule(Capsule::new(beside, 0.0)))
        .distance;
    assert!(gap > 6.0, "{gap}");
}

/// F24: a point (a triangle of three equal corners) cast by a motion of
/// 5.5e23 per axis into a point box 15 away hit it at `t = 1.6e-23` with a
/// normal of length 0.77. In the unit frame of F22 the gap is 1e-23 and
/// its square subnormal, so `v / |v|` in the GJK ray cast was not unit.
/// Fixed in `src/query/gjk.rs` (and the distance and contact beside it):
/// lengths whose square leaves the normal range are taken scaled to a
/// largest component of 1 (`math::length_without_overflow`), and so are
/// the unit vectors made from them (`math::unit_by_length`).
#[test]
fn f24_a_shape_cast_normal_is_unit_when_the_gap_is_tiny_beside_the_motion() {
    replay_one("world", "f24-shape-cast-normal-underflows-in-the-unit-frame");
    let corner = Vec3::splat(-0.0001);
    let point = collide::Triangle::new(corner, corner, corner);
    let target = Aabb::new(Vec3::splat(-8.75), Vec3::splat(-8.75));
    let motion = Vec3::splat(-5.452018e23);
    let hit = collide::query::shape_cast(&point, motion, &target, Vec3::ZERO).expect("a hit on the way");
    assert!((hit.normal.length() - 1.0).abs() < 1e-6, "{hit:?}");
    // From the moving point towards the box.
    assert!(
        (hit.normal + Vec3::splat(1.0 / 3f32.sqrt())).abs().max_element() < 1e-6,
        "{hit:?}"
    );
    assert!((hit.t * 5.452018e23 - 8.7499).abs() < 1e-3, "{hit:?}");
    // Further still: a box of 1e-4 cast by (−3e38)³ past a point 20 away.
    // In the unit frame the gap is 1e-44, its length subnormal, with a
    // tenth of a digit: dividing by it gave a normal of length 1.03.
    replay_one("world", "f24-shape-cast-normal-of-a-subnormal-gap");
    let speck = collide::Obb::new(Vec3::splat(0.0001), collide::math::Quat::IDENTITY, Vec3::splat(0.0001));
    let target = Aabb::new(Vec3::splat(-20.0), Vec3::new(-20.0, -20.0, -19.9999));
    let hit = collide::query::shape_cast(&speck, Vec3::splat(-3.0e38), &target, Vec3::ZERO).expect("a hit on the way");
    assert!((hit.normal.length() - 1.0).abs() < 1e-6, "{hit:?}");
}

/// F25: two overlapping triangles, one a sliver reaching −5.2e20, got a
/// contact (and a shape cast at `t = 0`) with a normal of length 0.9988.
/// In F22's unit frame the small triangle is 1e-20 across: EPA found the
/// cores' difference flat and normalised a direction whose squares are
/// subnormal. Fixed in `src/query/epa.rs`: the setup's directions are
/// normalised scaled (`math::unit_without_overflow`), as its faces' were.
#[test]
fn f25_a_flat_epa_normal_is_unit_for_a_sliver_triangle() {
    replay_one("world", "f25-epa-flat-normal-of-a-sliver-triangle");
    // At unit scale too: a cone of height 0 (a disc of radius 3.25) cast
    // from inside a collider had a normal of length 0.76.
    replay_one("world", "f25-epa-flat-normal-of-a-flat-cone");
    let a = collide::Triangle::new(
        Vec3::new(-3.75, 1.25, 1.25),
        Vec3::new(-4.25, -4.25, -4.25),
        Vec3::new(-1.625, 24.625, 24.625),
    );
    let sliver = collide::Triangle::new(
        Vec3::new(-5.208492e20, -5.208492e20, 0.6792279),
        Vec3::new(4.0, -8.75, -4.25),
        Vec3::new(-4.25, -3.0, 0.84862024),
    );
    let c = collide::query::contact(&a, &sliver).expect("they overlap");
    assert!((c.normal.length() - 1.0).abs() < 1e-6, "{c:?}");
    let hit = collide::query::shape_cast(&a, Vec3::new(-4.25, -4.25, -19.0), &sliver, Vec3::ZERO).expect("at t = 0");
    assert!((hit.normal.length() - 1.0).abs() < 1e-6, "{hit:?}");
}

/// F26: a capsule whose axis is 2.9e-22 long (radius 47) in contact with
/// itself had a normal of length 0.9967. The axes coincide, so the normal
/// is the fallback perpendicular to the axis, and the axis, normalised by
/// `try_normalize` with subnormal squares, was not unit. Fixed in
/// `src/query/contact.rs`: `perpendicular` normalises by
/// `math::unit_without_overflow` (scaled where the square leaves the normal
/// range), as EPA's setup does since F25.
#[test]
fn f26_a_capsule_on_itself_with_a_tiny_axis_has_a_unit_normal() {
    replay_one("world", "f26-capsule-contact-normal-of-a-tiny-axis");
    let capsule = Capsule::new(
        Segment::new(
            Vec3::new(0.0, 3.8096645e-22, 52.5625),
            Vec3::new(0.0, 9.195742e-23, 52.5625),
        ),
        47.125,
    );
    let c = capsule.contact_capsule(&capsule).expect("a capsule overlaps itself");
    assert_eq!(c.depth, 94.25, "{c:?}");
    assert!((c.normal.length() - 1.0).abs() < 1e-6, "{c:?}");
    assert!(c.normal.dot(Vec3::Y).abs() < 1e-6, "perpendicular to the axis: {c:?}");
}

/// F27: a point cast from inside a cone whose apex lies at `f32::MAX` (and
/// whose radius is `f32::MAX`) hit at `t = 0` with a NaN normal and point.
/// The cone's axis was normalised by `normalize_or_zero`, whose square
/// overflows for a half-axis of 1.7e38: the axis read as zero, and the
/// support along `−y` became `−∞`. Fixed in `src/shape/support.rs`: the
/// cone's and the cylinder's axes are normalised by
/// `math::unit_without_overflow`, which now scales only where the square
/// leaves the normal range (bit for bit `try_normalize` within it).
#[test]
fn f27_a_cone_reaching_f32_max_has_finite_supports_and_a_unit_normal() {
    use collide::shape::Support;
    replay_one("world", "f27-cone-axis-normalised-with-an-overflowing-square");
    let (base, apex) = (Vec3::new(-20.0, -8.75, -8.75), Vec3::new(-8.25, f32::MAX, -20.0));
    let cone = collide::Cone::new(base, apex, f32::MAX);
    let cylinder = collide::Cylinder::new(Segment::new(base, apex), f32::MAX);
    for d in [Vec3::X, Vec3::Y, Vec3::NEG_Y, Vec3::Z, Vec3::ONE.normalize()] {
        assert!(cone.support(d).is_finite(), "cone along {d}: {}", cone.support(d));
        assert!(
            cylinder.support(d).is_finite(),
            "cylinder along {d}: {}",
            cylinder.support(d)
        );
    }
    let point = Sphere::new(Vec3::new(13.75, 13.75, -20.0), 0.0);
    let hit = collide::query::shape_cast(&point, Vec3::splat(-20.0), &cone, Vec3::ZERO).expect("it starts inside");
    assert_eq!(hit.t, 0.0, "{hit:?}");
    assert!(
        hit.point.is_finite() && (hit.normal.length() - 1.0).abs() < 1e-6,
        "{hit:?}"
    );
}

/// F28: a shape cast against a cylinder (a point of radius 1.2e-7) at
/// `y = f32::MAX` hit at `t = 0` with a NaN point and normal, where the box
/// never reaches it: the cylinder's centre, the middle of its axis, was
/// `(start + end) / 2`, whose sum overflows, so the problem was solved in
/// place instead of in a unit frame and GJK subtracted infinities. Fixed
/// by a middle that halves before adding where the sum overflows (a
/// segment's, a capsule's, a cylinder's and a cone's centre) and by summing
/// a triangle's corners in `f64`.
#[test]
fn f28_shapes_at_f32_max_have_finite_centres_and_a_cast_misses_cleanly() {
    use collide::shape::Support;
    replay_one("world", "f28-cylinder-centre-overflows-at-f32-max");
    let top = Vec3::new(12.5, f32::MAX, -7.0);
    let segment = Segment::new(top, top);
    let cylinder = collide::Cylinder::new(segment, 1.1920929e-7);
    let cone = collide::Cone::new(top, top - Vec3::Y, 1.0);
    let triangle = Triangle::new(top, top - Vec3::X, top - Vec3::Z);
    for center in [segment.center(), cylinder.center(), cone.center(), triangle.center()] {
        assert!(center.is_finite() && center.y > 3.0e38, "{center}");
    }
    let aabb = Aabb::new(Vec3::new(-8.75, -8.75, -8.75), Vec3::new(-5.0, -6.75, -6.75));
    // Its x and z windows of contact, [0.897, 1.090] and [0, 0.0125], never
    // meet: no hit, for every length of the motion along y.
    for y in [f32::MAX, 1.0e38, 1.0e30] {
        let motion = Vec3::new(19.5, y, -20.0);
        let hit = Shape::Aabb(aabb).cast_shape(motion, &Shape::Cylinder(cylinder));
        assert_eq!(hit, None, "by {motion}");
    }
}

/// F30: a sphere cast into a mesh whose triangles (degenerate, two corners
/// repeated) reach from `x = −f32::MAX` to `x = f32::MAX` hit at `t = 0`
/// with a NaN point and normal: a triangle's support mapping takes its
/// corners relative to its centroid, and one of them lay `4/3·f32::MAX`
/// from it. Such triangles are now refused, alone or in a mesh, placed by a
/// transform or not; one whose corners are `f32::MAX` apart is accepted.
#[test]
fn f30_triangles_with_corners_more_than_f32_max_apart_are_refused() {
    replay_one("world", "f30-triangle-corners-beyond-f32-max-apart");
    let (low, high) = (Vec3::new(-f32::MAX, 1.0, 0.0), Vec3::new(f32::MAX, -4.25, 0.0));
    let mid = Vec3::new(11.75, 0.0, -4.25);
    let wide = Triangle::new(low, high, low);
    assert!(matches!(wide.validate(), Err(Error::NonFinite(_))), "{wide:?}");
    let mut world = World::new();
    let refused = world.add(ColliderDesc::new(Shape::Triangle(wide)));
    assert!(matches!(refused, Err(Error::NonFinite(_))), "{refused:?}");
    let mesh = TriangleMesh::new(vec![low, mid, high], vec![[0, 1, 2]]);
    assert!(matches!(mesh, Err(Error::NonFinite(_))), "{mesh:?}");
    // Half as wide is fine, until a transform doubles it.
    let half = TriangleMesh::new(vec![low * 0.5, mid, high * 0.5], vec![[0, 1, 2]]).expect("f32::MAX apart");
    assert!(Triangle::new(low * 0.5, high * 0.5, mid).validate().is_ok());
    let doubled = Transform {
        scale: Vec3::splat(2.0),
        ..Transform::IDENTITY
    };
    assert!(matches!(half.transformed(&doubled), Err(Error::NonFinite(_))));
    let placed = world.add(ColliderDesc::new(Shape::Mesh(std::sync::Arc::new(half))).with_transform(doubled));
    assert!(matches!(placed, Err(Error::NonFinite(_))), "{placed:?}");
    assert_eq!(world.len(), 0);
}
