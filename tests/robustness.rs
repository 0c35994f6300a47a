//! Numerical robustness at the edges (RELIABILITY.md, "Tolerances"): worlds
//! up to 1e5 from the origin, boxes from 1e-4 to 1e5 wide, zero-length
//! segments, segments grazing edges and lying in faces, coincident faces and
//! boxes touching exactly. On every one the tree (`World::segment_cast`,
//! `segment_cast_all`, `segment_cast_any`, `segment_cast_batch`, `pairs`,
//! `pairs_sweep_and_prune`) must give the brute force's answer
//! (`segment_cast_brute_force`, `test_pairwise`), `t` for `t`, and where the
//! geometry has an exact answer in `f32` the answer must be it.

use collide::math::{Quat, Vec3};
use collide::{Aabb, Capsule, ColliderDesc, ColliderKey, Pair, QueryFilter, Segment, Shape, Sphere, Transform, World};

mod common;
use common::random::{seeded, Draw};

/// The world offsets every scene is tried at: up to 1e5 from the origin on
/// every axis (there `f32` has 7.8e-3 between neighbours).
const OFFSETS: [Vec3; 5] = [
    Vec3::ZERO,
    Vec3::new(1.0e3, -1.0e3, 1.0e3),
    Vec3::new(1.0e4, 1.0e4, -1.0e4),
    Vec3::new(1.0e5, 1.0e5, 1.0e5),
    Vec3::new(-1.0e5, 0.0, -1.0e5),
];

/// The next float above `x` (finite, not -0).
fn next_up(x: f32) -> f32 {
    if x >= 0.0 {
        f32::from_bits(x.to_bits() + 1)
    } else {
        f32::from_bits(x.to_bits() - 1)
    }
}

fn aabb(min: Vec3, max: Vec3) -> ColliderDesc {
    ColliderDesc::new(Shape::Aabb(Aabb::new(min, max)))
}

/// Every cast of the world against the brute force, for one segment: the
/// closest hit (`t`, collider, point, normal), any hit, every hit, the batch.
#[track_caller]
fn check_cast(world: &World, segment: &Segment) -> Option<collide::Hit> {
    let filter = QueryFilter::ALL;
    let tree = world.segment_cast(segment, &filter).unwrap();
    let brute = world.segment_cast_brute_force(segment, &filter).unwrap();
    assert_eq!(tree, brute, "segment_cast vs brute force for {segment:?}");
    assert_eq!(
        world.segment_cast_any(segment, &filter).unwrap().is_some(),
        brute.is_some(),
        "segment_cast_any for {segment:?}"
    );
    let mut all = Vec::new();
    world.segment_cast_all(segment, &filter, &mut all).unwrap();
    let mut expected: Vec<(u32, ColliderKey)> = world
        .iter()
        .filter_map(|(k, c)| c.world_shape().cast_segment(segment).map(|h| (h.t.to_bits(), k)))
        .collect();
    expected.sort();
    let got: Vec<(u32, ColliderKey)> = all.iter().map(|h| (h.t.to_bits(), h.collider)).collect();
    assert_eq!(got, expected, "segment_cast_all for {segment:?}");
    let mut batch = [None];
    world.segment_cast_batch(&[*segment], &filter, &mut batch).unwrap();
    assert_eq!(batch[0], brute, "segment_cast_batch for {segment:?}");
    brute
}

/// Every pair finder against `test_pairwise`; returns the pairs.
#[track_caller]
fn check_pairs(world: &mut World) -> Vec<Pair> {
    let mut pairwise = Vec::new();
    world.test_pairwise(|p| pairwise.push(p));
    assert_eq!(world.pairs_sweep_and_prune(), pairwise.as_slice(), "sweep and prune");
    assert_eq!(world.pairs(), pairwise.as_slice(), "tree pairs");
    assert_eq!(world.validate(), Ok(()));
    pairwise
}

/// A 4 × 4 × 4 grid of unit cubes, each touching its neighbours exactly on
/// faces, edges and corners, at `offset`.
fn touching_grid(offset: Vec3, size: f32) -> World {
    let mut world = World::new();
    let descs = (0..64).map(|i| {
        let cell = Vec3::new((i % 4) as f32, (i / 4 % 4) as f32, (i / 16) as f32);
        aabb(offset + cell * size, offset + (cell + 1.0) * size)
    });
    world.extend(descs).unwrap();
    world
}

/// Pairs of an n × n × n grid of touching cubes: every two cells whose
/// indices differ by at most 1 on each axis (26-neighbourhood), once.
fn grid_pairs(n: i64) -> usize {
    let mut count = 0;
    for a in 0..n * n * n {
        for b in a + 1..n * n * n {
            let (ax, ay, az) = (a % n, a / n % n, a / (n * n));
            let (bx, by, bz) = (b % n, b / n % n, b / (n * n));
            if (ax - bx).abs() <= 1 && (ay - by).abs() <= 1 && (az - bz).abs() <= 1 {
                count += 1;
            }
        }
    }
    count
}

/// Cubes touching exactly on faces, edges and corners are pairs at every
/// offset up to 1e5 and every cube size from 1/1024 to 1024 (powers of two,
/// so the corners are exact there): the 26-neighbourhood count, by every
/// finder.
#[test]
fn exactly_touching_boxes_are_pairs_far_from_the_origin() {
    for offset in OFFSETS {
        for size in [1.0 / 1024.0, 0.5, 1.0, 64.0, 1024.0] {
            // Exactly representable: corners are offset + k·size.
            let ulp = offset.abs().max_element().max(1.0) * f32::EPSILON;
            if size < 2.0 * ulp {
                continue;
            }
            let mut world = touching_grid(offset, size);
            let pairs = check_pairs(&mut world);
            assert_eq!(pairs.len(), grid_pairs(4), "offset {offset}, size {size}");
        }
    }
}

/// Coincident faces (two boxes sharing the same face plane and overlapping
/// in it, or identical boxes) are pairs; a box one ulp away is not.
#[test]
fn coincident_faces_touch_and_one_ulp_apart_does_not() {
    for offset in OFFSETS {
        let mut world = World::new();
        let base = offset;
        let a = world.add(aabb(base, base + Vec3::splat(4.0))).unwrap();
        // Same face x = base.x + 4, larger in y and z.
        let b = world
            .add(aabb(base + Vec3::new(4.0, -2.0, -2.0), base + Vec3::new(8.0, 6.0, 6.0)))
            .unwrap();
        // Identical to a.
        let c = world.add(aabb(base, base + Vec3::splat(4.0))).unwrap();
        // One ulp beyond b's far face.
        let far = base.x + 8.0;
        let gap = next_up(far);
        assert!(gap > far);
        let d = world
            .add(aabb(
                Vec3::new(gap, base.y, base.z),
                Vec3::new(gap + 4.0, base.y + 4.0, base.z + 4.0),
            ))
            .unwrap();
        let pairs: Vec<(ColliderKey, ColliderKey)> = check_pairs(&mut world).iter().map(|p| (p.a, p.b)).collect();
        assert_eq!(pairs, [(a, b), (a, c), (b, c)], "offset {offset}");
        assert!(!pairs.iter().any(|&(x, y)| x == d || y == d));
    }
}

/// Spheres and capsules touching boxes and each other exactly (centres and
/// radii exact in f32) are pairs at every offset; the tree agrees.
#[test]
fn round_shapes_touching_exactly_are_pairs() {
    for offset in OFFSETS {
        let mut world = World::new();
        let cube = world.add(aabb(offset, offset + Vec3::splat(2.0))).unwrap();
        // Sphere resting on the top face.
        let ball = world
            .add(ColliderDesc::new(Shape::Sphere(Sphere::new(
                offset + Vec3::new(1.0, 3.0, 1.0),
                1.0,
            ))))
            .unwrap();
        // Sphere touching the ball on top.
        let top = world
            .add(ColliderDesc::new(Shape::Sphere(Sphere::new(
                offset + Vec3::new(1.0, 5.0, 1.0),
                1.0,
            ))))
            .unwrap();
        // Capsule lying against the face x = 0 of the cube.
        let pill = world
            .add(ColliderDesc::new(Shape::Capsule(Capsule::new(
                Segment::new(offset + Vec3::new(-0.5, 0.0, 0.0), offset + Vec3::new(-0.5, 2.0, 2.0)),
                0.5,
            ))))
            .unwrap();
        let pairs: Vec<(ColliderKey, ColliderKey)> = check_pairs(&mut world).iter().map(|p| (p.a, p.b)).collect();
        for pair in [(cube, ball), (ball, top), (cube, pill)] {
            assert!(
                pairs.contains(&pair),
                "offset {offset}: {pair:?} missing from {pairs:?}"
            );
        }
    }
}

/// Zero-length segments at the corners, on the edges and faces, inside and
/// just outside (one ulp) of each box, at every offset: the tree equals the
/// brute force, and a point on the boundary hits at t = 0.
#[test]
fn zero_length_segments_on_corners_edges_and_faces() {
    for offset in OFFSETS {
        let mut world = touching_grid(offset, 1.0);
        world
            .add(aabb(offset + Vec3::splat(10.0), offset + Vec3::splat(10.0)))
            .unwrap(); // a point box
        check_pairs(&mut world);
        for i in 0..=8 {
            for j in 0..=8 {
                for k in 0..=8 {
                    let p = offset + Vec3::new(i as f32, j as f32, k as f32) * 0.5;
                    let hit = check_cast(&world, &Segment::new(p, p));
                    // Every point of [0, 4]³ is in some cube (boundaries included).
                    let hit = hit.expect("inside the grid");
                    assert_eq!((hit.t, hit.point), (0.0, p));
                }
            }
        }
        let corner = offset + Vec3::splat(10.0);
        assert!(
            check_cast(&world, &Segment::new(corner, corner)).is_some(),
            "the point box"
        );
        let beside = Vec3::new(next_up(corner.x), corner.y, corner.z);
        assert!(
            check_cast(&world, &Segment::new(beside, beside)).is_none(),
            "one ulp beside the point box"
        );
    }
}

/// Segments lying in face planes, running along edges, passing exactly
/// through corners and edges, and grazing the grid's outer faces: the tree
/// equals the brute force, and a segment entering a face has the exact `t`.
#[test]
fn segments_grazing_edges_and_lying_in_faces() {
    for offset in OFFSETS {
        let world = touching_grid(offset, 1.0);
        let at = |x: f32, y: f32, z: f32| offset + Vec3::new(x, y, z);
        for a in 0..=8 {
            let u = a as f32 * 0.5;
            for b in 0..=8 {
                let v = b as f32 * 0.5;
                // Along each axis, at every half-grid line: in faces, along edges.
                for s in [
                    Segment::new(at(-2.0, u, v), at(6.0, u, v)),
                    Segment::new(at(u, -2.0, v), at(u, 6.0, v)),
                    Segment::new(at(u, v, -2.0), at(u, v, 6.0)),
                    Segment::new(at(6.0, u, v), at(-2.0, u, v)),
                    // Diagonals through corners and edges.
                    Segment::new(at(-1.0, -1.0 + u, v), at(5.0, 5.0 + u, v)),
                    Segment::new(at(u, -1.0, -1.0 + v), at(u, 5.0, 5.0 + v)),
                ] {
                    if let Some(hit) = check_cast(&world, &s) {
                        assert!((0.0..=1.0).contains(&hit.t));
                    }
                }
            }
        }
        // Outside, one ulp beyond the top face: misses.
        let top = offset.y + 4.0;
        let above = next_up(top);
        let skim = Segment::new(
            Vec3::new(offset.x - 2.0, above, offset.z + 1.0),
            Vec3::new(offset.x + 6.0, above, offset.z + 1.0),
        );
        assert!(
            check_cast(&world, &skim).is_none(),
            "offset {offset}: one ulp above the top face"
        );
        // In the top face: hits at the entry through the side face x = offset.x.
        let in_face = Segment::new(
            Vec3::new(offset.x - 2.0, top, offset.z + 1.0),
            Vec3::new(offset.x + 6.0, top, offset.z + 1.0),
        );
        let hit = check_cast(&world, &in_face).expect("a segment in the top face hits");
        assert_eq!(hit.t, 0.25, "offset {offset}");
    }
}

/// The closest hit of axis-aligned segments through a box is exact: `t` is
/// `(face − start) / (end − start)` rounded once (checked in `f64`), at
/// every offset and for boxes from 1e-4 to 1e5 wide.
#[test]
fn axis_aligned_hits_have_the_exact_t() {
    let mut rng = seeded(7);
    for offset in OFFSETS {
        for width in [1.0e-4, 1.0e-2, 1.0, 1.0e3, 1.0e5] {
            let mut world = World::new();
            let min = offset;
            let max = offset + Vec3::splat(width);
            world.add(aabb(min, max)).unwrap();
            if max.x <= min.x {
                continue; // the width is below the ulp at this offset
            }
            for _ in 0..50 {
                let axis = rng.below(3) as usize;
                let from = min[axis] - width * rng.range(0.1, 10.0);
                let to = max[axis] + width * rng.range(0.1, 10.0);
                let mut start = (min + max) * 0.5;
                start[axis] = from;
                let mut end = start;
                end[axis] = to;
                let s = Segment::new(start, end);
                let hit = check_cast(&world, &s).expect("through the box");
                let exact = (f64::from(min[axis]) - f64::from(from)) / (f64::from(to) - f64::from(from));
                let ulps = (hit.t - exact as f32).abs() / f32::EPSILON;
                // The subtraction `face − start` in f32 rounds once more.
                assert!(ulps <= 2.0, "offset {offset} width {width}: t {} vs {exact}", hit.t);
                let mut normal = Vec3::ZERO;
                normal[axis] = -1.0;
                assert_eq!(hit.normal, normal);
            }
        }
    }
}

/// Random worlds of boxes from 1e-4 to 1e5 wide, spheres and capsules,
/// some rotated, around each offset, and random segments (long, short,
/// zero-length): every cast and pair finder equals the brute force.
#[test]
fn tiny_and_huge_shapes_far_from_the_origin_match_brute_force() {
    let mut rng = seeded(42);
    for offset in OFFSETS {
        let mut world = World::new();
        for _ in 0..200 {
            let center = offset + Vec3::new(rng.range(-50.0, 50.0), rng.range(-50.0, 50.0), rng.range(-50.0, 50.0));
            let width = [1.0e-4, 1.0e-3, 0.5, 3.0, 1.0e5][rng.below(5) as usize];
            let shape = match rng.below(4) {
                0 | 1 => Shape::Aabb(Aabb::from_center_half_extents(Vec3::ZERO, Vec3::splat(width * 0.5))),
                2 => Shape::Sphere(Sphere::new(Vec3::ZERO, width * 0.5)),
                _ => Shape::Capsule(Capsule::new(
                    Segment::new(Vec3::ZERO, Vec3::new(width, 0.0, 0.0)),
                    width * 0.25,
                )),
            };
            let rotation = if rng.below(2) == 0 {
                Quat::IDENTITY
            } else {
                Quat::from_axis_angle(Vec3::new(1.0, 2.0, 3.0).normalize(), rng.range(-3.0, 3.0))
            };
            world
                .add(ColliderDesc::new(shape).with_transform(Transform::new(center, rotation, 1.0)))
                .unwrap();
        }
        check_pairs(&mut world);
        for i in 0..400 {
            let start = offset + Vec3::new(rng.range(-80.0, 80.0), rng.range(-80.0, 80.0), rng.range(-80.0, 80.0));
            let length = [0.0, 1.0e-3, 1.0, 100.0, 1.0e5][i % 5];
            let direction = Vec3::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-1.0, 1.0));
            check_cast(&world, &Segment::new(start, start + direction * length));
        }
        // Move a tenth, then again: the incremental finder still agrees.
        let keys: Vec<ColliderKey> = world.iter().map(|(k, _)| k).collect();
        for frame in 0..3 {
            for &key in keys.iter().skip(frame).step_by(10) {
                let mut t = *world.get(key).unwrap().transform();
                t.translation += Vec3::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-1.0, 1.0));
                world.set_transform(key, t).unwrap();
            }
            check_pairs(&mut world);
        }
    }
}

/// Regression of finding F3: a collider whose bounds reach past ±1.7e38
/// (where the centre `(min + max) / 2` overflows) stays in the tree after
/// an update that re-fattens its leaf: casts and pairs still find it.
#[test]
fn a_collider_near_f32_max_stays_found_after_an_update() {
    let mut world = World::new();
    let p = Vec3::new(1e19, -2.75, f32::MAX);
    let a = world
        .add(ColliderDesc::new(Shape::Sphere(Sphere::new(p, 0.0))))
        .unwrap();
    let b = world
        .add(ColliderDesc::new(Shape::Sphere(Sphere::new(p, 0.0))))
        .unwrap();
    // A new category re-fattens the leaf: its motion is ∞ − ∞ = NaN.
    world
        .set_filter(
            a,
            collide::Filter {
                category: 2,
                mask: u64::MAX,
            },
        )
        .unwrap();
    // Moving by less than an ulp of f32::MAX (2e31) leaves it in place.
    world
        .set_transform(b, Transform::from_translation(Vec3::new(0.0, 0.0, -1e30)))
        .unwrap();
    assert_eq!(world.validate(), Ok(()));
    let s = Segment::new(p, p);
    assert_eq!(
        world.segment_cast(&s, &QueryFilter::ALL).unwrap().map(|h| h.collider),
        Some(a)
    );
    let pairs = check_pairs(&mut world);
    assert_eq!(pairs.len(), 1);
}

/// Regression of finding F4: finite inputs whose world shape has a NaN (a
/// scaled point overflowing to ∞, then rotated: ∞·0) are refused, not
/// stored with finite bounds and never found.
#[test]
fn a_world_shape_with_a_nan_is_refused() {
    let mut world = World::new();
    let capsule = Shape::Capsule(Capsule::new(Segment::new(Vec3::splat(1e30), Vec3::ZERO), 1.0));
    let t = Transform {
        translation: Vec3::ZERO,
        rotation: Quat::from_axis_angle(Vec3::new(1.0, 1.0, 0.0).normalize(), 1.0),
        scale: Vec3::splat(1e10),
    };
    let world_shape = capsule.transformed(&t.validated().unwrap(), true).unwrap();
    let Shape::Capsule(c) = world_shape else { unreachable!() };
    assert!(!c.segment.start.is_finite(), "the scaled point overflows: {c:?}");
    let result = world.add(ColliderDesc::new(capsule.clone()).with_transform(t));
    assert!(matches!(result, Err(collide::Error::NonFinite(_))), "{result:?}");
    assert!(world.is_empty());
}

/// Regression of finding F11: a leaf inserted one by one next to another
/// leaf makes a new pair node; when both leaves are in category 0 the
/// refit stopped at the pair (its box and category looked unchanged) and
/// the ancestors' boxes did not grow to hold the new leaf (`validate`
/// failed). The world of the fuzzer's input, step by step.
#[test]
fn inserting_category_0_leaves_keeps_the_tree_valid() {
    let with = |shape: Shape, user: u64, category: u64, mask: u64, rotate: bool| {
        ColliderDesc::new(shape)
            .with_user_data(user)
            .with_filter(collide::Filter { category, mask })
            .with_should_rotate(rotate)
    };
    let sphere = |c: [f32; 3], r: f32| Shape::Sphere(Sphere::new(Vec3::from(c), r));
    let cube = |min: [f32; 3], max: [f32; 3]| Shape::Aabb(Aabb::new(Vec3::from(min), Vec3::from(max)));
    let all = u64::MAX;
    let mut world = World::new();
    world
        .add(with(sphere([-2.75, -2.75, -8.75], 1.25), 69, all, all, true))
        .unwrap();
    world.add(with(cube([-20.0; 3], [-18.75; 3]), 2, 6, 6, false)).unwrap();
    world.add(with(sphere([-2.75; 3], 1.25), 46, 0, 0, false)).unwrap();
    let capsule = Shape::Capsule(Capsule::new(
        Segment::new(Vec3::splat(-8.5), Vec3::new(-17.0, -4.5, -13.25)),
        1.25,
    ));
    world.extend([with(capsule, 69, 1, all, true)]).unwrap();
    world
        .extend([
            with(sphere([-2.75, -2.75, -4.75], 1.25), 69, 1, all, true),
            with(sphere([-2.75; 3], 1.25), 41, 1, all, true),
            with(cube([0.0, -8.75, -8.75], [0.25, -8.0, -8.0]), 190, all, all, true),
        ])
        .unwrap();
    assert_eq!(world.validate(), Ok(()));
    world
        .extend([
            with(cube([-2.75, -4.75, -4.75], [4.5, -3.5, -3.5]), 69, 1, all, true),
            with(sphere([-2.75; 3], 3.25), 255, 0, 6, true),
            with(sphere([0.0, 0.0, -17.75], 1e-40), 61, 1, all, true),
            with(cube([-2.75, -20.0, -20.0], [-2.75, -20.0, -20.0]), 0, all, all, false),
            with(cube([-20.0; 3], [-20.0; 3]), 0, all, all, false),
            with(cube([-20.0; 3], [-20.0; 3]), 0, all, all, false),
        ])
        .unwrap();
    assert_eq!(world.validate(), Ok(()));
    check_pairs(&mut world);
}
