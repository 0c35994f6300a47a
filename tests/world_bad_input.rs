//! The Rust side of the bad-input table of RELIABILITY.md: every public
//! `World` entry point against every class of bad input (NaN and infinities,
//! inverted boxes, negative radii, non-unit rotations, stale and foreign
//! keys, zero-length segments, huge coordinates, a short `hits` slice, a full
//! world). The C side is in `ffi_status.rs` (refusals), `ffi_world.rs`
//! (`phys_add_boxes`) and `ffi_queries.rs` (zero-length segments, huge
//! coordinates, short buffers).
//!
//! Each refusal is checked for its exact error and for leaving the world
//! unchanged: the same colliders (key, description, world shape, world box)
//! and the same pairs. Each acceptance is checked for its answer.

mod common;

use collide::math::{Quat, Vec3};
use collide::{
    Aabb, Capsule, ColliderDesc, ColliderKey, Cone, ConvexHull, Cylinder, Error, Filter, Hit, Obb, Pair, QueryFilter,
    Segment, Shape, Sphere, Transform, Triangle, TriangleMesh, World,
};
use common::bad::*;
use std::sync::Arc;

/// A world of a box, a sphere and a capsule overlapping at the origin, one
/// box far away, and one removed collider: `(world, live keys, removed key)`.
fn fixture() -> (World, Vec<ColliderKey>, ColliderKey) {
    let mut world = World::new();
    let keys = vec![
        world.add(at(unit_box(), 0.0).with_user_data(1)).unwrap(),
        world.add(at(ball(0.75), 0.5).with_user_data(2)).unwrap(),
        world.add(at(pill(0.5), -0.25).with_user_data(3)).unwrap(),
        world.add(at(unit_box(), 100.0).with_user_data(4)).unwrap(),
    ];
    let removed = world.add(at(unit_box(), 50.0)).unwrap();
    world.remove(removed).unwrap();
    (world, keys, removed)
}

/// What a refused call must leave as it was.
#[derive(Debug, PartialEq)]
struct Snapshot {
    colliders: Vec<(ColliderKey, ColliderDesc, Shape, Aabb)>,
    pairs: Vec<Pair>,
}

fn snapshot(world: &World) -> Snapshot {
    let mut pairs = Vec::new();
    world.test_pairwise(|p| pairs.push(p));
    Snapshot {
        colliders: world
            .iter()
            .map(|(k, c)| (k, c.desc(), c.world_shape().into_owned(), *c.aabb()))
            .collect(),
        pairs,
    }
}

fn is_non_finite(e: Error) -> bool {
    matches!(e, Error::NonFinite(_))
}

// ---------------------------------------------------------------------------
// Adding: add, extend.

/// `add` refuses every non-finite number of every field with `NonFinite`,
/// and leaves the world as it was.
#[test]
fn add_refuses_non_finite_numbers() {
    let (mut world, _, _) = fixture();
    let before = snapshot(&world);
    for (name, desc) in non_finite_descs() {
        let result = world.add(desc);
        assert!(matches!(result, Err(e) if is_non_finite(e)), "{name}: {result:?}");
        assert_eq!(snapshot(&world), before, "{name} changed the world");
    }
}

/// `add` refuses inverted boxes (naming the axis), negative radii, rotations
/// off unit length and overflowing bounds, and leaves the world as it was.
#[test]
fn add_refuses_malformed_shapes_rotations_and_overflowing_bounds() {
    let (mut world, _, _) = fixture();
    let before = snapshot(&world);
    for (name, desc, error) in malformed_descs() {
        let result = world.add(desc);
        assert_eq!(result.map(|_| ()), Err(error), "{name}");
        assert_eq!(snapshot(&world), before, "{name} changed the world");
    }
}

/// The limits of what `add` accepts: a zero-size box, a zero radius, a
/// rotation within the 1e-3 tolerance (renormalised), a mirroring or zero
/// scale, and coordinates up to the largest finite bounds.
#[test]
fn add_accepts_the_edges_of_valid_input() {
    let mut world = World::new();
    let point_box = world
        .add(ColliderDesc::new(Shape::Aabb(Aabb::new(Vec3::ONE, Vec3::ONE))))
        .unwrap();
    assert_eq!(world.get(point_box).unwrap().aabb(), &Aabb::new(Vec3::ONE, Vec3::ONE));
    world.add(ColliderDesc::new(ball(0.0))).unwrap();
    world.add(ColliderDesc::new(pill(0.0))).unwrap();
    // |q|² = 1.0009: inside the tolerance, stored renormalised.
    let near_unit = Quat::from_xyzw(0.0, 0.0, 0.0, 1.0009f32.sqrt());
    let key = world
        .add(ColliderDesc::new(unit_box()).with_transform(Transform {
            rotation: near_unit,
            ..Transform::IDENTITY
        }))
        .unwrap();
    let stored = world.get(key).unwrap().transform().rotation;
    assert!((stored.length() - 1.0).abs() <= 1e-6, "{stored:?} is renormalised");
    for scale in [Vec3::new(-1.0, 1.0, 1.0), Vec3::ZERO, Vec3::splat(-2.0)] {
        let key = world
            .add(ColliderDesc::new(unit_box()).with_transform(Transform {
                scale,
                ..Transform::IDENTITY
            }))
            .unwrap();
        let aabb = *world.get(key).unwrap().aabb();
        assert!(
            aabb.min.cmple(aabb.max).all(),
            "scale {scale} gives an ordered box {aabb:?}"
        );
    }
    let far = world
        .add(ColliderDesc::new(Shape::Aabb(Aabb::new(
            Vec3::splat(1e38),
            Vec3::splat(3e38),
        ))))
        .unwrap();
    assert_eq!(world.get(far).unwrap().aabb().max, Vec3::splat(3e38));
    assert_eq!(world.validate(), Ok(()));
}

/// `extend` is all or nothing: one bad description anywhere in the batch
/// refuses the whole batch with that description's error.
#[test]
fn extend_refuses_a_batch_with_one_bad_description() {
    let (mut world, _, _) = fixture();
    let before = snapshot(&world);
    let good = |i: usize| at(unit_box(), 10.0 + i as f32);
    let mut bad: Vec<(String, ColliderDesc, Option<Error>)> =
        non_finite_descs().into_iter().map(|(n, d)| (n, d, None)).collect();
    bad.extend(malformed_descs().into_iter().map(|(n, d, e)| (n, d, Some(e))));
    for (i, (name, desc, error)) in bad.into_iter().enumerate() {
        let mut batch: Vec<ColliderDesc> = (0..5).map(good).collect();
        batch.insert(i % 6, desc);
        let result = world.extend(batch);
        match error {
            None => assert!(matches!(result, Err(e) if is_non_finite(e)), "{name}: {result:?}"),
            Some(error) => assert_eq!(result.map(|_| ()), Err(error), "{name}"),
        }
        assert_eq!(snapshot(&world), before, "{name} changed the world");
    }
}

/// A full world: `add` says `CapacityExceeded` before looking at the
/// description (even an invalid one); `extend` validates first, then checks
/// the whole batch fits; a limit of 0 refuses everything. Removing makes room.
#[test]
fn a_full_world_refuses_new_colliders() {
    let mut world = World::with_max_colliders(2);
    assert_eq!(world.max_colliders(), 2);
    let a = world.add(ColliderDesc::new(unit_box())).unwrap();
    let before = snapshot(&world);
    assert_eq!(
        world.extend(vec![ColliderDesc::new(unit_box()); 2]),
        Err(Error::CapacityExceeded)
    );
    assert_eq!(snapshot(&world), before);
    world.add(ColliderDesc::new(unit_box())).unwrap();
    let before = snapshot(&world);
    assert_eq!(world.add(ColliderDesc::new(unit_box())), Err(Error::CapacityExceeded));
    assert_eq!(world.add(ColliderDesc::new(ball(-1.0))), Err(Error::CapacityExceeded));
    assert_eq!(
        world.extend(vec![ColliderDesc::new(ball(-1.0))]),
        Err(Error::NegativeRadius)
    );
    assert_eq!(
        world.extend(vec![ColliderDesc::new(unit_box())]),
        Err(Error::CapacityExceeded)
    );
    assert_eq!(world.extend(Vec::new()), Ok(Vec::new()), "an empty batch always fits");
    assert_eq!(snapshot(&world), before);
    world.remove(a).unwrap();
    world.add(ColliderDesc::new(unit_box())).unwrap();

    let mut none = World::with_max_colliders(0);
    assert_eq!(none.add(ColliderDesc::new(unit_box())), Err(Error::CapacityExceeded));
    assert_eq!(
        none.extend([ColliderDesc::new(unit_box())]),
        Err(Error::CapacityExceeded)
    );
    assert!(none.is_empty());
    assert_eq!(
        World::with_max_colliders(usize::MAX).max_colliders(),
        collide::MAX_COLLIDERS
    );
}

// ---------------------------------------------------------------------------
// Changing: every setter, remove.

/// Every setter and `remove` with a removed key, the null key and a key
/// never handed out: `StaleHandle`, world unchanged; reads say absent.
#[test]
fn stale_keys_are_refused_by_every_setter_and_remove() {
    let (mut world, keys, removed) = fixture();
    let before = snapshot(&world);
    let never = collide::ffi::PhysCollider {
        bits: (7u64 << 32) | 77,
    }
    .decode(0)
    .unwrap();
    for key in [removed, ColliderKey::default(), never] {
        assert!(!world.contains(key) && world.get(key).is_none(), "{key:?}");
        let stale = Err(Error::StaleHandle);
        assert_eq!(world.set_transform(key, Transform::IDENTITY), stale);
        assert_eq!(world.set_shape(key, unit_box()), stale);
        assert_eq!(world.set_should_rotate(key, false), stale);
        assert_eq!(world.set_user_data(key, 9), stale);
        assert_eq!(world.set_filter(key, Filter::DEFAULT), stale);
        assert_eq!(world.remove(key).map(|_| ()), stale);
        // A stale key in a query filter excludes nothing.
        let s = Segment::new(Vec3::new(-5.0, 0.5, 0.5), Vec3::new(5.0, 0.5, 0.5));
        assert_eq!(
            world.segment_cast(&s, &QueryFilter::excluding(key)),
            world.segment_cast(&s, &QueryFilter::ALL)
        );
        assert_eq!(snapshot(&world), before);
    }
    assert!(keys.iter().all(|&k| world.contains(k)));
}

/// Setters validate like `add`: a bad transform (`set_transform`) or shape
/// (`set_shape`) gives the same error and leaves the world unchanged.
#[test]
fn setters_refuse_what_add_refuses() {
    let (mut world, keys, _) = fixture();
    let before = snapshot(&world);
    for key in keys {
        for (name, desc) in non_finite_descs() {
            let result = if desc.transform == Transform::IDENTITY {
                world.set_shape(key, desc.shape)
            } else {
                world.set_transform(key, desc.transform)
            };
            assert!(matches!(result, Err(e) if is_non_finite(e)), "{name}: {result:?}");
        }
        for (name, desc, error) in malformed_descs() {
            let result = if desc.transform == Transform::IDENTITY {
                world.set_shape(key, desc.shape)
            } else {
                // The bounds of a transform depend on the shape: only the
                // rotations are refused whatever the collider is.
                if !matches!(error, Error::InvalidArgument(_)) {
                    continue;
                }
                world.set_transform(key, desc.transform)
            };
            assert_eq!(result, Err(error), "{name}");
        }
        assert_eq!(snapshot(&world), before);
    }
}

/// A transform whose world bounds overflow for this collider's shape is
/// refused by `set_transform` and `set_shape` alike.
#[test]
fn setters_refuse_overflowing_bounds() {
    let (mut world, keys, _) = fixture();
    let before = snapshot(&world);
    let huge = Transform {
        translation: Vec3::splat(3e38),
        rotation: Quat::IDENTITY,
        scale: Vec3::splat(3e38),
    };
    for &key in &keys {
        assert!(
            matches!(world.set_transform(key, huge), Err(Error::NonFinite(_))),
            "{key:?}"
        );
    }
    world
        .set_transform(keys[0], Transform::new(Vec3::ZERO, Quat::IDENTITY, 1e30))
        .unwrap();
    let before_shape = snapshot(&world);
    let big_box = Shape::Aabb(Aabb::new(Vec3::splat(-1e10), Vec3::splat(1e10)));
    assert!(matches!(world.set_shape(keys[0], big_box), Err(Error::NonFinite(_))));
    assert_eq!(snapshot(&world), before_shape);
    assert_ne!(snapshot(&world), before, "the accepted 1e30 scale changed the world");
}

/// A key of another world: slotmap keys carry no world, so the Rust API
/// cannot tell one from its own. A foreign key whose slot and generation
/// name a live collider here names that collider (the C ABI salts handles
/// per world to catch this: `ffi_world::stale_null_forged_and_foreign_handles_are_refused_everywhere`);
/// any other foreign key is stale.
#[test]
fn foreign_keys_alias_or_are_stale() {
    let (mut world, keys, _) = fixture();
    let mut other = World::new();
    let twin = other.add(ColliderDesc::new(ball(1.0))).unwrap();
    assert_eq!(twin, keys[0], "both worlds number their first collider alike");
    assert!(world.contains(twin), "the Rust API takes it for its own");
    for _ in 0..10 {
        other.add(ColliderDesc::new(ball(1.0))).unwrap();
    }
    let foreign = other.iter().last().unwrap().0;
    let before = snapshot(&world);
    assert!(!world.contains(foreign));
    assert_eq!(world.set_user_data(foreign, 1), Err(Error::StaleHandle));
    assert_eq!(world.remove(foreign).map(|_| ()), Err(Error::StaleHandle));
    assert_eq!(snapshot(&world), before);
}

// ---------------------------------------------------------------------------
// Queries.

/// Every cast refuses a NaN or infinite end point, or an overflowing
/// direction, with `NonFinite`, and writes nothing (`segment_cast_all`
/// leaves `hits` as it was; `segment_cast_batch` leaves every slot).
#[test]
fn casts_refuse_non_finite_segments() {
    let (world, _, _) = fixture();
    let sentinel = Hit {
        sub_shape: 0,
        collider: ColliderKey::default(),
        user_data: 99,
        t: -1.0,
        point: Vec3::ZERO,
        normal: Vec3::ZERO,
    };
    let filter = QueryFilter::ALL;
    for s in segments_with_a_non_finite_number() {
        let non_finite = |r: Result<Option<Hit>, Error>| matches!(r, Err(Error::NonFinite(_)));
        assert!(non_finite(world.segment_cast(&s, &filter)), "{s:?}");
        assert!(non_finite(world.segment_cast_any(&s, &filter)), "{s:?}");
        assert!(non_finite(world.segment_cast_brute_force(&s, &filter)), "{s:?}");
        let mut hits = vec![sentinel];
        assert!(matches!(
            world.segment_cast_all(&s, &filter, &mut hits),
            Err(Error::NonFinite(_))
        ));
        assert_eq!(hits, [sentinel], "segment_cast_all wrote on failure");
        let good = Segment::new(Vec3::new(-5.0, 0.5, 0.5), Vec3::new(5.0, 0.5, 0.5));
        let mut slots = [Some(sentinel); 3];
        let result = world.segment_cast_batch(&[good, s, good], &filter, &mut slots);
        assert!(matches!(result, Err(Error::NonFinite(_))), "{s:?}");
        assert_eq!(slots, [Some(sentinel); 3], "segment_cast_batch wrote on failure");
        // A batch long enough to be spread over the cores, the bad segment
        // far from the first chunk: still nothing written.
        let mut batch = vec![good; 1000];
        batch[700] = s;
        let mut slots = vec![Some(sentinel); batch.len()];
        let result = world.segment_cast_batch(&batch, &filter, &mut slots);
        assert!(matches!(result, Err(Error::NonFinite(_))), "{s:?}");
        assert!(
            slots.iter().all(|&slot| slot == Some(sentinel)),
            "segment_cast_batch wrote on failure"
        );
    }
}

/// `segment_cast_batch` needs exactly one slot per segment (the Rust form
/// of a short buffer): `InvalidArgument`, nothing written, checked before
/// the segments.
#[test]
fn batch_needs_one_slot_per_segment() {
    let (world, _, _) = fixture();
    let s = Segment::new(Vec3::new(-5.0, 0.5, 0.5), Vec3::new(5.0, 0.5, 0.5));
    let nan = Segment::new(Vec3::NAN, Vec3::ONE);
    for (segments, slots) in [(vec![s, s], 1), (vec![s], 2), (vec![], 1), (vec![s, nan], 1)] {
        let mut hits = vec![None; slots];
        let result = world.segment_cast_batch(&segments, &QueryFilter::ALL, &mut hits);
        assert!(
            matches!(result, Err(Error::InvalidArgument(_))),
            "{} segments, {slots} slots",
            segments.len()
        );
        assert!(hits.iter().all(Option::is_none));
    }
    assert_eq!(world.segment_cast_batch(&[], &QueryFilter::ALL, &mut []), Ok(()));
}

/// A zero-length segment is a point test in every cast: it hits, at
/// `t = 0` with a zero normal, exactly the colliders containing its point
/// (boundary included), and the tree agrees with the brute force.
#[test]
fn zero_length_segments_hit_the_colliders_containing_their_point() {
    let (world, keys, _) = fixture();
    let cases = [
        (Vec3::new(0.1, 0.5, 0.1), vec![keys[0], keys[1], keys[2]]),
        (Vec3::new(1.0, 1.0, 1.0), vec![keys[0]]),   // the box's corner
        (Vec3::new(100.0, 0.0, 0.0), vec![keys[3]]), // the far box's face
        (Vec3::new(20.0, 20.0, 20.0), vec![]),
    ];
    for (p, inside) in cases {
        let s = Segment::new(p, p);
        let mut all = Vec::new();
        world.segment_cast_all(&s, &QueryFilter::ALL, &mut all).unwrap();
        let mut found: Vec<ColliderKey> = all.iter().map(|h| h.collider).collect();
        found.sort();
        let mut expected = inside.clone();
        expected.sort();
        assert_eq!(found, expected, "at {p}");
        for hit in &all {
            // The normal of the way out: unit, like every normal.
            assert_eq!((hit.t, hit.point), (0.0, p));
            assert!((hit.normal.length() - 1.0).abs() < 1e-6, "at {p}: {}", hit.normal);
        }
        let closest = world.segment_cast(&s, &QueryFilter::ALL).unwrap();
        assert_eq!(closest, world.segment_cast_brute_force(&s, &QueryFilter::ALL).unwrap());
        assert_eq!(
            closest.map(|h| h.collider),
            expected.first().copied(),
            "ties go to the smaller key"
        );
        assert_eq!(
            world.segment_cast_any(&s, &QueryFilter::ALL).unwrap().is_some(),
            !expected.is_empty()
        );
        let mut batch = [None];
        world.segment_cast_batch(&[s], &QueryFilter::ALL, &mut batch).unwrap();
        assert_eq!(batch[0], closest);
    }
}

/// `overlap` refuses what `add` refuses in a shape (NaN, infinity, inverted
/// box, negative radius) and never calls back; a zero-size query touches.
#[test]
fn overlap_refuses_bad_shapes_and_calls_nothing() {
    let (world, keys, _) = fixture();
    for (name, desc) in non_finite_descs() {
        if desc.transform != Transform::IDENTITY {
            continue;
        }
        let mut calls = 0;
        let result = world.intersections_with_shape(&desc.shape, &QueryFilter::ALL, |_, _| calls += 1);
        assert!(matches!(result, Err(Error::NonFinite(_))), "{name}: {result:?}");
        assert_eq!(calls, 0);
    }
    for (name, desc, error) in malformed_descs() {
        if desc.transform != Transform::IDENTITY {
            continue;
        }
        let mut calls = 0;
        assert_eq!(
            world.intersections_with_shape(&desc.shape, &QueryFilter::ALL, |_, _| calls += 1),
            Err(error),
            "{name}"
        );
        assert_eq!(calls, 0);
    }
    let mut found = Vec::new();
    let corner = Shape::Aabb(Aabb::new(Vec3::ONE, Vec3::ONE));
    world
        .intersections_with_shape(&corner, &QueryFilter::ALL, |k, _| found.push(k))
        .unwrap();
    assert!(found.contains(&keys[0]), "a point on the box's corner touches it");
}

/// Queries with finite numbers whose bounds overflow (a sphere of radius
/// 3e38) run and answer: regression of finding F8 (`Bvh::query` took the
/// empty slots' `+∞` boxes for hits and indexed past the nodes: a panic).
#[test]
fn overlap_with_unbounded_bounds_finds_everything() {
    let (world, keys, _) = fixture();
    let reaching_everything = Shape::Capsule(Capsule::new(Segment::new(Vec3::ZERO, Vec3::splat(2e38)), 2e38));
    for shape in [
        Shape::Sphere(Sphere::new(Vec3::splat(2e38), 2e38)),
        reaching_everything.clone(),
    ] {
        assert_eq!(shape.bounding_aabb().max, Vec3::INFINITY, "{shape:?}");
        let mut found = Vec::new();
        world
            .intersections_with_shape(&shape, &QueryFilter::ALL, |k, _| found.push(k))
            .unwrap();
        found.sort();
        // The brute force: bounds, then the exact test (as every finder).
        let expected: Vec<ColliderKey> = world
            .iter()
            .filter(|(_, c)| c.aabb().intersects_aabb(&shape.bounding_aabb()) && shape.intersects(&c.world_shape()))
            .map(|(k, _)| k)
            .collect();
        assert_eq!(found, expected, "{shape:?}");
    }
    let mut everything = Vec::new();
    world
        .intersections_with_shape(&reaching_everything, &QueryFilter::ALL, |k, _| everything.push(k))
        .unwrap();
    everything.sort();
    assert_eq!(everything, keys, "every collider is within 2e38 of the capsule's axis");
}

/// Colliders and queries at 1e30 (finite world bounds): accepted, and every
/// finder agrees with the brute force; the world stays valid.
#[test]
fn huge_coordinates_are_answered_consistently() {
    let mut world = World::new();
    let far = |x: f32| ColliderDesc::new(Shape::Aabb(Aabb::new(Vec3::splat(x), Vec3::splat(x) + 1e29)));
    let a = world.add(far(1e30)).unwrap();
    let b = world.add(far(1.05e30)).unwrap();
    let c = world
        .add(ColliderDesc::new(Shape::Sphere(Sphere::new(Vec3::splat(-1e30), 1e29))))
        .unwrap();
    world.add(ColliderDesc::new(unit_box())).unwrap();
    assert_eq!(world.validate(), Ok(()));
    let mut pairwise = Vec::new();
    world.test_pairwise(|p| pairwise.push((p.a, p.b)));
    assert_eq!(pairwise, [(a, b)]);
    assert_eq!(world.pairs().iter().map(|p| (p.a, p.b)).collect::<Vec<_>>(), pairwise);
    assert_eq!(
        world
            .pairs_sweep_and_prune()
            .iter()
            .map(|p| (p.a, p.b))
            .collect::<Vec<_>>(),
        pairwise
    );
    let s = Segment::new(Vec3::splat(-2e30), Vec3::splat(2e30));
    let hit = world.segment_cast(&s, &QueryFilter::ALL).unwrap();
    assert_eq!(hit, world.segment_cast_brute_force(&s, &QueryFilter::ALL).unwrap());
    // And exact: the sphere cast computes in `f64`, where its products of
    // squares do not overflow (finding F1, fixed), so the bullet stops at
    // the sphere `c`, a radius before its centre (t ≈ 0.236).
    let hit = hit.expect("the sphere is on the segment");
    assert_eq!(hit.collider, c);
    let expected = (1e30 - 1e29 / 3f64.sqrt()) / 4e30;
    assert!((f64::from(hit.t) - expected).abs() < 1e-6, "t = {}", hit.t);
}

/// Queries on an empty world answer "nothing", never an error (but for
/// bad input).
#[test]
fn an_empty_world_answers_nothing() {
    let mut world = World::new();
    let s = Segment::new(Vec3::ZERO, Vec3::ONE);
    assert_eq!(world.segment_cast(&s, &QueryFilter::ALL), Ok(None));
    assert_eq!(world.segment_cast_any(&s, &QueryFilter::ALL), Ok(None));
    let mut hits = vec![];
    assert_eq!(world.segment_cast_all(&s, &QueryFilter::ALL, &mut hits), Ok(()));
    assert!(hits.is_empty());
    let mut calls = 0;
    world
        .intersections_with_shape(&unit_box(), &QueryFilter::ALL, |_, _| calls += 1)
        .unwrap();
    world.test_pairwise(|_| calls += 1);
    world.test_sweep_and_prune(|_| calls += 1);
    assert_eq!(calls, 0);
    assert!(world.pairs().is_empty());
    let events = world.pair_events();
    assert!(events.began.is_empty() && events.ended.is_empty());
    world.optimize();
    assert_eq!(world.validate(), Ok(()));
    assert_eq!(
        world
            .segment_cast(&Segment::new(Vec3::NAN, Vec3::ONE), &QueryFilter::ALL)
            .map(|_| ()),
        Err(Error::NonFinite("a segment end point or its direction"))
    );
}

// ---------------------------------------------------------------------------
// The narrow phase: its shapes, constructors and queries.

/// Every narrow-phase shape with one non-finite number, by name.
fn non_finite_narrow_shapes() -> Vec<(String, Shape)> {
    let mut out = Vec::new();
    for value in NON_FINITE {
        for axis in 0..3 {
            let mut v = Vec3::ZERO;
            v[axis] = value;
            let name = |what: &str| format!("{what}[{axis}] = {value}");
            out.push((name("obb centre"), Shape::Obb(Obb::new(v, Quat::IDENTITY, Vec3::ONE))));
            out.push((
                name("obb half-extents"),
                Shape::Obb(Obb::new(Vec3::ZERO, Quat::IDENTITY, v + Vec3::ONE)),
            ));
            out.push((
                name("triangle corner"),
                Shape::Triangle(Triangle::new(Vec3::X, Vec3::Y, v)),
            ));
            out.push((
                name("cylinder end"),
                Shape::Cylinder(Cylinder::new(Segment::new(Vec3::ZERO, v), 1.0)),
            ));
            out.push((name("cone base"), Shape::Cone(Cone::new(v, Vec3::Y, 1.0))));
            out.push((name("cone apex"), Shape::Cone(Cone::new(Vec3::ZERO, v, 1.0))));
        }
        for k in 0..4 {
            let mut q = [0.0, 0.0, 0.0, 1.0];
            q[k] = value;
            out.push((
                format!("obb rotation[{k}] = {value}"),
                Shape::Obb(Obb::new(Vec3::ZERO, Quat::from_array(q), Vec3::ONE)),
            ));
        }
        out.push((
            format!("cylinder radius {value}"),
            Shape::Cylinder(Cylinder::new(Segment::new(Vec3::ZERO, Vec3::Y), value)),
        ));
        out.push((
            format!("cone radius {value}"),
            Shape::Cone(Cone::new(Vec3::ZERO, Vec3::Y, value)),
        ));
    }
    out
}

/// The free GJK functions (`collide::query`) take unvalidated shapes: a
/// NaN or infinite one gets an answer, whatever it is, and no panic (the
/// test runs in a debug build, where integer overflow panics: the rescaling
/// of F22 once computed an exponent from a NaN size).
#[test]
fn free_gjk_queries_take_non_finite_shapes_without_a_panic() {
    use collide::query::{contact, distance, intersects, shape_cast};
    let unit = unit_box();
    let far = Shape::Sphere(Sphere::new(Vec3::splat(1.0e30), 1.0));
    let shapes = non_finite_narrow_shapes();
    assert!(shapes.len() > 50);
    for (name, shape) in &shapes {
        let every_query = || {
            for other in [&unit, &far] {
                let _ = (intersects(shape, other), distance(shape, other), contact(other, shape));
                let _ = shape_cast(shape, Vec3::X, other, Vec3::ZERO);
                let _ = shape_cast(other, Vec3::new(f32::NAN, 0.0, 0.0), shape, Vec3::ZERO);
            }
            let _ = Segment::new(Vec3::ZERO, Vec3::X).cast_convex(shape);
        };
        assert!(std::panic::catch_unwind(every_query).is_ok(), "a panic for {name}");
    }
}

/// Every other malformed narrow-phase shape and its error.
fn malformed_narrow_shapes() -> Vec<(String, Shape, Error)> {
    let mut out = Vec::new();
    for (axis, name) in ["x", "y", "z"].into_iter().enumerate() {
        let mut half = Vec3::ONE;
        half[axis] = -0.5;
        out.push((
            format!("obb half-extent {name} < 0"),
            Shape::Obb(Obb::new(Vec3::ZERO, Quat::IDENTITY, half)),
            Error::InvertedBox(name),
        ));
    }
    for w in [0.99, 1.01, 0.0, 2.0] {
        out.push((
            format!("obb rotation of length {w}"),
            Shape::Obb(Obb::new(Vec3::ZERO, Quat::from_xyzw(0.0, 0.0, 0.0, w), Vec3::ONE)),
            Error::InvalidArgument("rotation is not a unit quaternion"),
        ));
    }
    out.push((
        "cylinder radius -1".into(),
        Shape::Cylinder(Cylinder::new(Segment::new(Vec3::ZERO, Vec3::Y), -1.0)),
        Error::NegativeRadius,
    ));
    out.push((
        "cone radius -1".into(),
        Shape::Cone(Cone::new(Vec3::ZERO, Vec3::Y, -1.0)),
        Error::NegativeRadius,
    ));
    out
}

fn unit_hull() -> Shape {
    let corners: Vec<Vec3> = (0..8)
        .map(|i| Vec3::new((i & 1) as f32, ((i >> 1) & 1) as f32, ((i >> 2) & 1) as f32))
        .collect();
    Shape::Hull(Arc::new(ConvexHull::from_points(&corners).unwrap()))
}

fn floor_mesh() -> Shape {
    let vertices = vec![
        Vec3::new(-5.0, 0.0, -5.0),
        Vec3::new(5.0, 0.0, -5.0),
        Vec3::new(0.0, 0.0, 5.0),
    ];
    Shape::Mesh(Arc::new(TriangleMesh::new(vertices, vec![[0, 1, 2]]).unwrap()))
}

#[test]
fn narrow_shapes_are_refused_as_documented_by_add_and_set_shape() {
    let (mut world, keys, _) = fixture();
    let before = snapshot(&world);
    for (name, shape) in non_finite_narrow_shapes() {
        let add = world.add(ColliderDesc::new(shape.clone()));
        assert!(matches!(add, Err(Error::NonFinite(_))), "add {name}: {add:?}");
        let set = world.set_shape(keys[0], shape);
        assert!(matches!(set, Err(Error::NonFinite(_))), "set_shape {name}: {set:?}");
    }
    for (name, shape, error) in malformed_narrow_shapes() {
        assert_eq!(world.add(ColliderDesc::new(shape.clone())), Err(error), "add {name}");
        assert_eq!(world.set_shape(keys[0], shape), Err(error), "set_shape {name}");
    }
    assert_eq!(snapshot(&world), before, "refusals change nothing");
    // A full world refuses before it validates.
    let mut full = World::with_max_colliders(0);
    for (_, shape) in non_finite_narrow_shapes().into_iter().take(6) {
        assert_eq!(full.add(ColliderDesc::new(shape)), Err(Error::CapacityExceeded));
    }
    assert_eq!(full.add(ColliderDesc::new(unit_hull())), Err(Error::CapacityExceeded));
    assert_eq!(full.add(ColliderDesc::new(floor_mesh())), Err(Error::CapacityExceeded));
    // The edges: degenerate triangles, radius 0, a flat cone, zero half-extents.
    for shape in [
        Shape::Triangle(Triangle::new(Vec3::ONE, Vec3::ONE, Vec3::ONE)),
        Shape::Triangle(Triangle::new(Vec3::ZERO, Vec3::X, Vec3::X * 2.0)),
        Shape::Cylinder(Cylinder::new(Segment::new(Vec3::ZERO, Vec3::Y), 0.0)),
        Shape::Cylinder(Cylinder::new(Segment::new(Vec3::ZERO, Vec3::ZERO), 1.0)),
        Shape::Cone(Cone::new(Vec3::ZERO, Vec3::ZERO, 1.0)),
        Shape::Obb(Obb::new(Vec3::ZERO, Quat::from_rotation_z(0.5), Vec3::ZERO)),
    ] {
        world
            .add(ColliderDesc::new(shape.clone()))
            .unwrap_or_else(|e| panic!("{shape:?}: {e}"));
    }
}

#[test]
fn hull_and_mesh_constructors_refuse_bad_points_and_indices() {
    let tetra = [Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z];
    for value in NON_FINITE {
        let mut points = tetra.to_vec();
        points[2].z = value;
        assert!(
            matches!(ConvexHull::from_points(&points), Err(Error::NonFinite(_))),
            "hull point {value}"
        );
        assert!(
            matches!(TriangleMesh::new(points, vec![[0, 1, 2]]), Err(Error::NonFinite(_))),
            "mesh vertex {value}"
        );
    }
    let flat = |points: &[Vec3], what: &str| {
        assert!(
            matches!(ConvexHull::from_points(points), Err(Error::InvalidArgument(_))),
            "hull of {what}"
        );
    };
    for n in 0..4 {
        flat(&tetra[..n], &format!("{n} points"));
    }
    flat(&[Vec3::ONE; 6], "one point six times");
    flat(&[Vec3::ZERO, Vec3::X, Vec3::X * 2.0, Vec3::X * 3.0], "collinear points");
    flat(
        &[
            Vec3::ZERO,
            Vec3::X,
            Vec3::Y,
            Vec3::ONE.with_z(0.0),
            Vec3::new(0.5, 0.5, 0.0),
        ],
        "coplanar points",
    );
    let mut doubled = tetra.to_vec();
    doubled.extend_from_slice(&tetra);
    assert_eq!(
        ConvexHull::from_points(&doubled).unwrap().vertices().len(),
        4,
        "duplicates are absorbed"
    );

    let v = tetra.to_vec();
    for (what, indices) in [
        ("no triangle", vec![]),
        ("an index past the end", vec![[0, 1, 4]]),
        ("u32::MAX", vec![[u32::MAX, 0, 1]]),
    ] {
        assert!(
            matches!(TriangleMesh::new(v.clone(), indices), Err(Error::InvalidArgument(_))),
            "mesh with {what}"
        );
    }
    assert!(matches!(
        TriangleMesh::new(vec![], vec![[0, 0, 0]]),
        Err(Error::InvalidArgument(_))
    ));

    // Placed in a world: a hull's scale must have no zero component; a hull
    // or mesh whose image overflows is refused; nothing changes.
    let (mut world, keys, _) = fixture();
    let before = snapshot(&world);
    for axis in 0..3 {
        let mut t = Transform::IDENTITY;
        t.scale[axis] = 0.0;
        assert!(
            matches!(
                world.add(ColliderDesc::new(unit_hull()).with_transform(t)),
                Err(Error::InvalidArgument(_))
            ),
            "a hull flattened on axis {axis}"
        );
    }
    let huge = Transform {
        scale: Vec3::splat(1e38),
        translation: Vec3::splat(3e38),
        ..Transform::IDENTITY
    };
    for shape in [unit_hull(), floor_mesh()] {
        let add = world.add(ColliderDesc::new(shape.clone()).with_transform(huge));
        assert!(matches!(add, Err(Error::NonFinite(_))), "{shape:?} beyond f32: {add:?}");
        // The setters: the hull or mesh in place, then moved beyond f32.
        world.set_shape(keys[0], shape.clone()).unwrap();
        let placed = snapshot(&world);
        let moved = world.set_transform(keys[0], huge);
        assert!(
            matches!(moved, Err(Error::NonFinite(_))),
            "{shape:?} moved beyond f32: {moved:?}"
        );
        assert_eq!(snapshot(&world), placed, "the refused move changes nothing");
        world.set_shape(keys[0], unit_box()).unwrap();
    }
    assert_eq!(snapshot(&world), before, "refusals change nothing");
}

#[test]
fn narrow_queries_refuse_bad_shapes_motions_and_radii() {
    let (mut world, _, _) = fixture();
    world.add(at(floor_mesh(), 0.0)).unwrap();
    let before = snapshot(&world);
    let all = &QueryFilter::ALL;
    let ok = ball(0.5);
    let mut bad: Vec<(String, Shape, Error)> = non_finite_narrow_shapes()
        .into_iter()
        .chain(
            non_finite_descs()
                .into_iter()
                .filter(|(_, d)| d.transform == Transform::IDENTITY)
                .map(|(n, d)| (n, d.shape)),
        )
        .map(|(n, s)| (n, s, Error::NonFinite("")))
        .collect();
    bad.extend(malformed_narrow_shapes());
    bad.push(("a mesh".into(), floor_mesh(), Error::InvalidArgument("")));
    let same = |a: Result<(), Error>, b: Error| match (a, b) {
        (Err(Error::NonFinite(_)), Error::NonFinite(_))
        | (Err(Error::InvalidArgument(_)), Error::InvalidArgument(_)) => true,
        (a, b) => a == Err(b),
    };
    for (name, shape, error) in &bad {
        let e = *error;
        assert!(
            same(world.cast_shape(shape, Vec3::X, all).map(|_| ()), e),
            "shape_cast {name}"
        );
        assert!(same(world.closest(shape, 1.0, all).map(|_| ()), e), "closest {name}");
        assert!(
            same(world.move_and_slide(shape, Vec3::X, all, 4).map(|_| ()), e),
            "move_and_slide {name}"
        );
        let mut calls = 0;
        assert!(
            same(world.intersections_with_shape(shape, all, |_, _| calls += 1), e),
            "overlap {name}"
        );
        assert_eq!(calls, 0);
    }
    for value in NON_FINITE {
        for axis in 0..3 {
            let mut v = Vec3::X;
            v[axis] = value;
            assert!(
                matches!(world.cast_shape(&ok, v, all), Err(Error::NonFinite(_))),
                "motion {v}"
            );
            assert!(
                matches!(world.move_and_slide(&ok, v, all, 4), Err(Error::NonFinite(_))),
                "motion {v}"
            );
            assert!(
                matches!(world.project_point(v, 1.0, all), Err(Error::NonFinite(_))),
                "point {v}"
            );
        }
        assert!(
            matches!(world.closest(&ok, value, all), Err(Error::NonFinite(_))),
            "max_distance {value}"
        );
        assert!(matches!(
            world.project_point(Vec3::ZERO, value, all),
            Err(Error::NonFinite(_))
        ));
    }
    assert!(
        matches!(world.closest(&ok, -1.0, all), Err(Error::InvalidArgument(_))),
        "a negative radius"
    );
    assert!(matches!(
        world.project_point(Vec3::ZERO, -0.5, all),
        Err(Error::InvalidArgument(_))
    ));
    // Finite numbers whose sum overflows: a motion carrying the bounds
    // beyond f32, a search radius growing them beyond it.
    let far = Shape::Sphere(Sphere::new(Vec3::splat(3e38), 1.0));
    assert!(matches!(
        world.cast_shape(&far, Vec3::splat(1e38), all),
        Err(Error::NonFinite(_))
    ));
    assert!(matches!(
        world.move_and_slide(&far, Vec3::splat(1e38), all, 4),
        Err(Error::NonFinite(_))
    ));
    assert!(matches!(world.closest(&far, 1e38, all), Err(Error::NonFinite(_))));
    assert_eq!(snapshot(&world), before, "refusals change nothing");
    // The edges are answered: no motion, no iteration, radius 0.
    assert!(
        world.cast_shape(&ok, Vec3::ZERO, all).unwrap().is_some(),
        "a ball at rest inside the box"
    );
    assert_eq!(
        world.move_and_slide(&ok, Vec3::X, all, 0).unwrap(),
        collide::MoveAndSlide::default()
    );
    assert_eq!(
        world.closest(&ok, 0.0, all).unwrap().map(|(_, d)| d.distance),
        Some(0.0)
    );
}

#[test]
fn distance_and_contact_refuse_stale_keys_and_mesh_pairs() {
    let (mut world, keys, removed) = fixture();
    let floor = world.add(at(floor_mesh(), 0.0)).unwrap();
    let other_floor = world.add(at(floor_mesh(), 0.5)).unwrap();
    let before = snapshot(&world);
    for stale in [removed, ColliderKey::default()] {
        for (a, b) in [(stale, keys[0]), (keys[0], stale), (stale, stale)] {
            assert_eq!(world.distance(a, b), Err(Error::StaleHandle));
            assert_eq!(world.contact(a, b), Err(Error::StaleHandle));
        }
    }
    assert!(
        matches!(world.distance(floor, other_floor), Err(Error::InvalidArgument(_))),
        "two meshes"
    );
    assert_eq!(world.contact(floor, other_floor), Ok(None), "two meshes never touch");
    assert_eq!(snapshot(&world), before);
    // A collider against itself: distance 0, a contact.
    assert_eq!(world.distance(keys[1], keys[1]).unwrap().distance, 0.0);
    assert!(world.contact(keys[1], keys[1]).unwrap().is_some());
    assert!(world.distance(floor, keys[0]).unwrap().distance >= 0.0);
}
