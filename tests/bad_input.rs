//! The Rust side of the bad-input table of RELIABILITY.md: every public
//! `World` entry point against every class of bad input (NaN and infinities,
//! inverted boxes, negative radii, non-unit rotations, stale and foreign
//! keys, zero-length segments, huge coordinates, a short `hits` slice, a full
//! world), and the C cells `tests/ffi_status.rs` does not cover (zero-length
//! segments and huge coordinates through `phys_*`).
//!
//! Each refusal is checked for its exact error and for leaving the world
//! unchanged: the same colliders (key, description, world shape, world box)
//! and the same pairs. Each acceptance is checked for its answer.

use std::ptr::null;

use collide::ffi::PhysStatus::*;
use collide::ffi::*;
use collide::math::{Quat, Vec3};
use collide::{
    Aabb, Capsule, Collider, ColliderDesc, ColliderKey, Cone, ConvexHull, Cylinder, Error, Filter, Hit, Obb, Pair,
    QueryFilter, Segment, Shape, Sphere, Transform, Triangle, TriangleMesh, World,
};
use std::sync::Arc;

const NON_FINITE: [f32; 3] = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY];

fn unit_box() -> Shape {
    Shape::Aabb(Aabb::new(Vec3::ZERO, Vec3::ONE))
}

fn ball(radius: f32) -> Shape {
    Shape::Sphere(Sphere::new(Vec3::ZERO, radius))
}

fn pill(radius: f32) -> Shape {
    Shape::Capsule(Capsule::new(Segment::new(Vec3::ZERO, Vec3::Y), radius))
}

fn at(shape: Shape, x: f32) -> ColliderDesc {
    ColliderDesc::new(shape).with_transform(Transform::from_translation(Vec3::new(x, 0.0, 0.0)))
}

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
    colliders: Vec<(ColliderKey, Collider)>,
    pairs: Vec<Pair>,
}

fn snapshot(world: &World) -> Snapshot {
    let mut pairs = Vec::new();
    world.test_pairwise(|p| pairs.push(p));
    Snapshot {
        colliders: world.iter().map(|(k, c)| (k, c.clone())).collect(),
        pairs,
    }
}

/// Every description with one number made non-finite, named.
fn non_finite_descs() -> Vec<(String, ColliderDesc)> {
    let mut out = Vec::new();
    for value in NON_FINITE {
        for axis in 0..3 {
            let mut v = Vec3::ZERO;
            v[axis] = value;
            let name = |what: &str| format!("{what}[{axis}] = {value}");
            out.push((name("box min"), ColliderDesc::new(Shape::Aabb(Aabb::new(v, Vec3::ONE)))));
            let mut max = Vec3::ONE;
            max[axis] = value;
            out.push((
                name("box max"),
                ColliderDesc::new(Shape::Aabb(Aabb::new(Vec3::ZERO, max))),
            ));
            out.push((
                name("sphere centre"),
                ColliderDesc::new(Shape::Sphere(Sphere::new(v, 1.0))),
            ));
            out.push((
                name("capsule start"),
                ColliderDesc::new(Shape::Capsule(Capsule::new(Segment::new(v, Vec3::ONE), 1.0))),
            ));
            out.push((
                name("capsule end"),
                ColliderDesc::new(Shape::Capsule(Capsule::new(Segment::new(Vec3::ONE, v), 1.0))),
            ));
            let mut t = Transform::IDENTITY;
            t.translation = v;
            out.push((name("translation"), ColliderDesc::new(unit_box()).with_transform(t)));
            let mut t = Transform::IDENTITY;
            t.scale[axis] = value;
            out.push((name("scale"), ColliderDesc::new(unit_box()).with_transform(t)));
        }
        for k in 0..4 {
            let mut q = [0.0, 0.0, 0.0, 1.0];
            q[k] = value;
            let t = Transform {
                rotation: Quat::from_array(q),
                ..Transform::IDENTITY
            };
            out.push((
                format!("rotation[{k}] = {value}"),
                ColliderDesc::new(unit_box()).with_transform(t),
            ));
        }
        out.push((format!("sphere radius {value}"), ColliderDesc::new(ball(value))));
        out.push((format!("capsule radius {value}"), ColliderDesc::new(pill(value))));
    }
    out
}

/// Every other malformed description and its error: inverted boxes (each
/// axis), negative radii, rotations off unit length, and finite numbers
/// whose world bounds overflow.
fn malformed_descs() -> Vec<(String, ColliderDesc, Error)> {
    let mut out = Vec::new();
    for (axis, name) in ["x", "y", "z"].into_iter().enumerate() {
        let mut max = Vec3::ONE;
        max[axis] = -1.0;
        out.push((
            format!("box inverted on {name}"),
            ColliderDesc::new(Shape::Aabb(Aabb::new(Vec3::ZERO, max))),
            Error::InvertedBox(name),
        ));
    }
    out.push((
        "negative sphere radius".into(),
        ColliderDesc::new(ball(-0.5)),
        Error::NegativeRadius,
    ));
    out.push((
        "negative capsule radius".into(),
        ColliderDesc::new(pill(-1e-30)),
        Error::NegativeRadius,
    ));
    let rotation = |q: Quat| {
        ColliderDesc::new(unit_box()).with_transform(Transform {
            rotation: q,
            ..Transform::IDENTITY
        })
    };
    for q in [
        Quat::from_xyzw(0.0, 0.0, 0.0, 0.0),
        Quat::from_xyzw(0.0, 0.0, 0.0, 2.0),
        Quat::from_xyzw(0.5, 0.0, 0.0, 0.5),
        Quat::from_xyzw(0.0, 0.0, 0.0, 1.001),
    ] {
        out.push((
            format!("rotation {q:?}"),
            rotation(q),
            Error::InvalidArgument("rotation is not a unit quaternion"),
        ));
    }
    out.push((
        "scale 1e38 × box ±4".into(),
        ColliderDesc::new(Shape::Aabb(Aabb::new(Vec3::splat(-4.0), Vec3::splat(4.0)))).with_transform(Transform::new(
            Vec3::ZERO,
            Quat::IDENTITY,
            1e38,
        )),
        Error::NonFinite("collider bounds after transform"),
    ));
    out.push((
        "translation 3e38 + box 3e38".into(),
        ColliderDesc::new(Shape::Aabb(Aabb::new(Vec3::ZERO, Vec3::splat(3e38))))
            .with_transform(Transform::from_translation(Vec3::splat(3e38))),
        Error::NonFinite("collider bounds after transform"),
    ));
    out.push((
        "sphere radius 3e38 × scale 2".into(),
        ColliderDesc::new(ball(3e38)).with_transform(Transform::new(Vec3::ZERO, Quat::IDENTITY, 2.0)),
        Error::NonFinite("collider bounds after transform"),
    ));
    out
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
        collide::world::MAX_COLLIDERS
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
/// per world to catch this: `ffi_status::stale_null_forged_and_foreign_handles_are_refused_everywhere`);
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

fn segments_with_a_non_finite_number() -> Vec<Segment> {
    let mut out = Vec::new();
    for value in NON_FINITE {
        for axis in 0..3 {
            let mut p = Vec3::ZERO;
            p[axis] = value;
            out.push(Segment::new(p, Vec3::ONE));
            out.push(Segment::new(Vec3::ONE, p));
        }
    }
    // Finite end points whose direction overflows.
    out.push(Segment::new(Vec3::new(-3e38, 0.0, 0.0), Vec3::new(3e38, 0.0, 0.0)));
    out.push(Segment::new(
        Vec3::new(0.0, f32::MAX, 0.0),
        Vec3::new(0.0, -f32::MAX, 0.0),
    ));
    out
}

/// Every cast refuses a NaN or infinite end point, or an overflowing
/// direction, with `NonFinite`, and writes nothing (`segment_cast_all`
/// leaves `hits` as it was; `segment_cast_batch` leaves every slot).
#[test]
fn casts_refuse_non_finite_segments() {
    let (world, _, _) = fixture();
    let sentinel = Hit {
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
        let result = world.overlap(&desc.shape, &QueryFilter::ALL, |_, _| calls += 1);
        assert!(matches!(result, Err(Error::NonFinite(_))), "{name}: {result:?}");
        assert_eq!(calls, 0);
    }
    for (name, desc, error) in malformed_descs() {
        if desc.transform != Transform::IDENTITY {
            continue;
        }
        let mut calls = 0;
        assert_eq!(
            world.overlap(&desc.shape, &QueryFilter::ALL, |_, _| calls += 1),
            Err(error),
            "{name}"
        );
        assert_eq!(calls, 0);
    }
    let mut found = Vec::new();
    let corner = Shape::Aabb(Aabb::new(Vec3::ONE, Vec3::ONE));
    world.overlap(&corner, &QueryFilter::ALL, |k, _| found.push(k)).unwrap();
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
        world.overlap(&shape, &QueryFilter::ALL, |k, _| found.push(k)).unwrap();
        found.sort();
        // The brute force: bounds, then the exact test (as every finder).
        let expected: Vec<ColliderKey> = world
            .iter()
            .filter(|(_, c)| c.aabb().intersects_aabb(&shape.bounding_aabb()) && shape.intersects(c.world_shape()))
            .map(|(k, _)| k)
            .collect();
        assert_eq!(found, expected, "{shape:?}");
    }
    let mut everything = Vec::new();
    world
        .overlap(&reaching_everything, &QueryFilter::ALL, |k, _| everything.push(k))
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
        .overlap(&unit_box(), &QueryFilter::ALL, |_, _| calls += 1)
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
// The C cells tests/ffi_status.rs leaves out.

fn pv(v: Vec3) -> PhysVec3 {
    v.into()
}

/// Through the C ABI, a zero-length segment is the same point test:
/// `phys_segment_cast`, `_any`, `_all` and `_batch` hit the colliders
/// containing the point at t = 0.
#[test]
fn c_zero_length_segments_hit_the_colliders_containing_their_point() {
    let mut world = std::ptr::null_mut();
    // SAFETY: every pointer below points to a live local of its type.
    unsafe {
        assert_eq!(phys_world_create(&mut world), PHYS_OK);
        let cube = PhysAabb {
            min: pv(Vec3::ZERO),
            max: pv(Vec3::ONE),
        };
        let mut a = PhysCollider::default();
        let mut b = PhysCollider::default();
        assert_eq!(phys_add_box(world, &cube, null(), &mut a), PHYS_OK);
        let ball = PhysSphere {
            center: pv(Vec3::splat(1.5)),
            radius: 0.5f32 * 3f32.sqrt(),
        };
        assert_eq!(phys_add_sphere(world, &ball, null(), &mut b), PHYS_OK);
        for (p, expected) in [
            (Vec3::ONE, vec![a]),
            (Vec3::splat(0.5), vec![a]),
            (Vec3::splat(3.0), vec![]),
        ] {
            let s = PhysSegment {
                start: pv(p),
                end: pv(p),
            };
            let mut hit = false;
            let mut out = PhysHit::default();
            assert_eq!(phys_segment_cast(world, &s, null(), &mut hit, &mut out), PHYS_OK);
            assert_eq!(hit, !expected.is_empty(), "at {p}");
            if hit {
                assert_eq!((out.collider, out.t), (expected[0], 0.0));
                let n = out.normal;
                assert!(
                    ((n.x * n.x + n.y * n.y + n.z * n.z).sqrt() - 1.0).abs() < 1e-6,
                    "at {p}: a unit normal"
                );
            }
            assert_eq!(phys_segment_cast_any(world, &s, null(), &mut hit, &mut out), PHYS_OK);
            assert_eq!(hit, !expected.is_empty());
            let mut all = [PhysHit::default(); 4];
            let (mut written, mut total) = (0, 0);
            assert_eq!(
                phys_segment_cast_all(world, &s, null(), all.as_mut_ptr(), 4, &mut written, &mut total),
                PHYS_OK
            );
            let found: Vec<PhysCollider> = all[..written].iter().map(|h| h.collider).collect();
            // The corner (1, 1, 1) is on the box and on the sphere's surface
            // only up to rounding: whichever the exact test says, the cast
            // and the batch must agree with it.
            assert!(expected.iter().all(|k| found.contains(k)), "at {p}: {found:?}");
            let mut batch_hit = [false];
            let mut batch_out = [PhysHit::default()];
            assert_eq!(
                phys_segment_cast_batch(world, &s, 1, null(), batch_hit.as_mut_ptr(), batch_out.as_mut_ptr()),
                PHYS_OK
            );
            assert_eq!(batch_hit[0], hit);
        }
        phys_world_destroy(world);
    }
}

/// Through the C ABI, colliders at 1e30 are accepted and found; a sphere
/// whose bounds overflow is refused (`PHYS_ERROR_NON_FINITE`, nothing
/// written), and an overlap query whose bounds overflow answers instead of
/// panicking (F8).
#[test]
fn c_huge_coordinates_are_accepted_or_refused_never_a_panic() {
    let mut world = std::ptr::null_mut();
    // SAFETY: every pointer below points to a live local of its type.
    unsafe {
        assert_eq!(phys_world_create(&mut world), PHYS_OK);
        let far = PhysAabb {
            min: pv(Vec3::splat(1e30)),
            max: pv(Vec3::splat(2e30)),
        };
        let mut a = PhysCollider::default();
        assert_eq!(phys_add_box(world, &far, null(), &mut a), PHYS_OK);
        let mut refused = PhysCollider { bits: 7 };
        let desc = PhysColliderDesc {
            transform: PhysTransform {
                scale: pv(Vec3::splat(2.0)),
                ..Transform::IDENTITY.into()
            },
            ..PhysColliderDesc::default()
        };
        let big = PhysSphere {
            center: pv(Vec3::ZERO),
            radius: 3e38,
        };
        assert_eq!(phys_add_sphere(world, &big, &desc, &mut refused), PHYS_ERROR_NON_FINITE);
        assert_eq!(refused.bits, 7);
        let mut found = [PhysColliderRef::default(); 2];
        let (mut written, mut total) = (0, 0);
        let status = phys_overlap_sphere(world, &big, null(), found.as_mut_ptr(), 2, &mut written, &mut total);
        assert_eq!((status, written), (PHYS_OK, 1));
        assert_eq!(found[0].collider, a);
        let s = PhysSegment {
            start: pv(Vec3::ZERO),
            end: pv(Vec3::splat(3e30)),
        };
        let (mut hit, mut out) = (false, PhysHit::default());
        assert_eq!(phys_segment_cast(world, &s, null(), &mut hit, &mut out), PHYS_OK);
        assert!(hit && out.collider == a);
        let mut count = 0;
        assert_eq!(phys_world_count(world, &mut count), PHYS_OK);
        assert_eq!(count, 1);
        phys_world_destroy(world);
    }
}

/// A C world for the tests below: a unit box at the origin overlapping a
/// sphere and a capsule (two pairs), with a limit of `limit` colliders.
fn c_world(limit: usize) -> (*mut PhysWorld, [PhysCollider; 3]) {
    let mut world = std::ptr::null_mut();
    let mut handles = [PhysCollider::default(); 3];
    // SAFETY: valid out-pointers and inputs.
    unsafe {
        assert_eq!(phys_world_create_with_limit(limit, &mut world), PHYS_OK);
        let cube = PhysAabb {
            min: pv(Vec3::ZERO),
            max: pv(Vec3::ONE),
        };
        assert_eq!(phys_add_box(world, &cube, null(), &mut handles[0]), PHYS_OK);
        let ball = PhysSphere {
            center: pv(Vec3::splat(1.2)),
            radius: 0.5,
        };
        assert_eq!(phys_add_sphere(world, &ball, null(), &mut handles[1]), PHYS_OK);
        let pill = PhysCapsule {
            segment: PhysSegment {
                start: pv(Vec3::new(-0.5, 0.5, 0.5)),
                end: pv(Vec3::new(-0.5, 0.5, 3.0)),
            },
            radius: 0.5,
        };
        assert_eq!(phys_add_capsule(world, &pill, null(), &mut handles[2]), PHYS_OK);
    }
    (world, handles)
}

/// The world boxes of `handles`, and the count: what a refusal must not change.
fn c_state(world: *mut PhysWorld, handles: &[PhysCollider]) -> (usize, Vec<PhysAabb>) {
    let mut count = 0;
    // SAFETY: a live world and valid out-pointers.
    unsafe {
        assert_eq!(phys_world_count(world, &mut count), PHYS_OK);
        let boxes = handles
            .iter()
            .map(|&h| {
                let mut b = PhysAabb::default();
                assert_eq!(phys_get_world_aabb(world, h, &mut b), PHYS_OK);
                b
            })
            .collect();
        (count, boxes)
    }
}

/// NaN and infinite segments in `phys_segment_cast_any`, `_all` and
/// `_batch` (ffi_status covers `phys_segment_cast`): `PHYS_ERROR_NON_FINITE`,
/// nothing written.
#[test]
fn c_every_cast_refuses_non_finite_segments() {
    let (world, handles) = c_world(usize::MAX);
    let before = c_state(world, &handles);
    for s in segments_with_a_non_finite_number() {
        let seg = PhysSegment {
            start: pv(s.start),
            end: pv(s.end),
        };
        let sentinel = PhysHit {
            t: -1.0,
            ..PhysHit::default()
        };
        // SAFETY: valid pointers to live locals; buffers hold what they claim.
        unsafe {
            let (mut hit, mut out) = (false, sentinel);
            assert_eq!(
                phys_segment_cast_any(world, &seg, null(), &mut hit, &mut out),
                PHYS_ERROR_NON_FINITE
            );
            assert_eq!(out, sentinel);
            let mut buffer = [sentinel; 4];
            let (mut written, mut total) = (usize::MAX, usize::MAX);
            let status = phys_segment_cast_all(world, &seg, null(), buffer.as_mut_ptr(), 4, &mut written, &mut total);
            assert_eq!(
                (status, written, total),
                (PHYS_ERROR_NON_FINITE, usize::MAX, usize::MAX)
            );
            assert_eq!(buffer, [sentinel; 4]);
            let good = PhysSegment {
                start: pv(Vec3::new(-5.0, 0.5, 0.5)),
                end: pv(Vec3::new(5.0, 0.5, 0.5)),
            };
            let segs = [good, seg];
            let mut hits = [false; 2];
            let mut outs = [sentinel; 2];
            let status = phys_segment_cast_batch(world, segs.as_ptr(), 2, null(), hits.as_mut_ptr(), outs.as_mut_ptr());
            assert_eq!(status, PHYS_ERROR_NON_FINITE, "{s:?}");
            assert_eq!((hits, outs), ([false; 2], [sentinel; 2]), "the batch wrote on failure");
        }
    }
    assert_eq!(c_state(world, &handles), before);
    // SAFETY: made above, not used again.
    unsafe { phys_world_destroy(world) };
}

/// `phys_overlap_box/sphere/capsule` refuse NaN, infinities, inverted boxes
/// and negative radii (ffi_status covers the add and set functions), with
/// nothing written.
#[test]
fn c_overlaps_refuse_bad_shapes() {
    let (world, handles) = c_world(usize::MAX);
    let before = c_state(world, &handles);
    let sentinel = PhysColliderRef {
        collider: PhysCollider { bits: 5 },
        user_data: 5,
    };
    let check = |status, buffer: &[PhysColliderRef; 4], written: usize, total: usize, expected, what: &str| {
        assert_eq!(status, expected, "{what}");
        assert_eq!(
            (written, total, *buffer),
            (usize::MAX, usize::MAX, [sentinel; 4]),
            "{what} wrote on failure"
        );
    };
    let mut cases: Vec<(String, Shape, collide::ffi::PhysStatus)> = Vec::new();
    for (name, desc) in non_finite_descs() {
        if desc.transform == Transform::IDENTITY {
            cases.push((name, desc.shape, PHYS_ERROR_NON_FINITE));
        }
    }
    for (name, desc, error) in malformed_descs() {
        if desc.transform == Transform::IDENTITY {
            let status = match error {
                Error::InvertedBox(_) => PHYS_ERROR_INVERTED_BOX,
                Error::NegativeRadius => PHYS_ERROR_NEGATIVE_RADIUS,
                _ => unreachable!("shape errors only"),
            };
            cases.push((name, desc.shape, status));
        }
    }
    for (name, shape, expected) in cases {
        let mut buffer = [sentinel; 4];
        let (mut written, mut total) = (usize::MAX, usize::MAX);
        let (out, w, t) = (
            buffer.as_mut_ptr(),
            &mut written as *mut usize,
            &mut total as *mut usize,
        );
        // SAFETY: valid pointers to live locals; the buffer holds 4 records.
        let status = unsafe {
            match shape {
                Shape::Aabb(b) => phys_overlap_box(world, &PhysAabb::from(b), null(), out, 4, w, t),
                Shape::Sphere(s) => {
                    let s = PhysSphere {
                        center: pv(s.center),
                        radius: s.radius,
                    };
                    phys_overlap_sphere(world, &s, null(), out, 4, w, t)
                }
                Shape::Capsule(c) => {
                    let c = PhysCapsule {
                        segment: PhysSegment {
                            start: pv(c.segment.start),
                            end: pv(c.segment.end),
                        },
                        radius: c.radius,
                    };
                    phys_overlap_capsule(world, &c, null(), out, 4, w, t)
                }
                _ => unreachable!("shapes of the three kinds above"),
            }
        };
        check(status, &buffer, written, total, expected, &name);
    }
    assert_eq!(c_state(world, &handles), before);
    // SAFETY: made above, not used again.
    unsafe { phys_world_destroy(world) };
}

/// `phys_add_boxes` refuses a batch with one bad box (NaN, inverted) or one
/// unknown flag, and a batch that does not fit (`PHYS_ERROR_CAPACITY_EXCEEDED`):
/// none is added, no handle written.
#[test]
fn c_add_boxes_is_all_or_nothing() {
    let (world, handles) = c_world(6);
    let before = c_state(world, &handles);
    let good = |x: f32| PhysAabb {
        min: pv(Vec3::new(x, 0.0, 0.0)),
        max: pv(Vec3::new(x + 1.0, 1.0, 1.0)),
    };
    let inverted = PhysAabb {
        min: pv(Vec3::ONE),
        max: pv(Vec3::ZERO),
    };
    let nan = PhysAabb {
        min: pv(Vec3::new(0.0, f32::NAN, 0.0)),
        max: pv(Vec3::ONE),
    };
    let flagged = PhysColliderDesc {
        flags: 0x8000_0000,
        ..PhysColliderDesc::default()
    };
    let cases = [
        ([good(10.0), inverted, good(12.0)], None, PHYS_ERROR_INVERTED_BOX),
        ([good(10.0), good(11.0), nan], None, PHYS_ERROR_NON_FINITE),
        (
            [good(10.0), good(11.0), good(12.0)],
            Some(flagged),
            PHYS_ERROR_INVALID_ARGUMENT,
        ),
    ];
    for (boxes, desc, expected) in cases {
        let descs = [
            PhysColliderDesc::default(),
            desc.unwrap_or_default(),
            PhysColliderDesc::default(),
        ];
        let mut out = [PhysCollider { bits: 9 }; 3];
        // SAFETY: three records in each array.
        let status = unsafe { phys_add_boxes(world, boxes.as_ptr(), descs.as_ptr(), 3, out.as_mut_ptr()) };
        assert_eq!(status, expected);
        assert_eq!(out, [PhysCollider { bits: 9 }; 3]);
        assert_eq!(c_state(world, &handles), before);
    }
    // Three fit (3 + 3 = 6), four do not.
    let boxes = [good(10.0), good(11.0), good(12.0), good(13.0)];
    let mut out = [PhysCollider { bits: 9 }; 4];
    // SAFETY: four records in each array.
    let status = unsafe { phys_add_boxes(world, boxes.as_ptr(), null(), 4, out.as_mut_ptr()) };
    assert_eq!(
        (status, out),
        (PHYS_ERROR_CAPACITY_EXCEEDED, [PhysCollider { bits: 9 }; 4])
    );
    assert_eq!(c_state(world, &handles), before);
    // SAFETY: three records in each array.
    let status = unsafe { phys_add_boxes(world, boxes.as_ptr(), null(), 3, out.as_mut_ptr()) };
    assert_eq!(status, PHYS_OK);
    assert!(out[..3].iter().all(|h| h.bits != 9 && h.bits != 0));
    // SAFETY: made above, not used again.
    unsafe { phys_world_destroy(world) };
}

/// Every buffer-filling function ffi_status leaves out (`phys_segment_cast_all`,
/// `phys_overlap_*`, `phys_find_pairs_into`, `phys_pair_events_began/ended`)
/// reports a short buffer with `PHYS_ERROR_BUFFER_TOO_SMALL` and only
/// `*total`; with room, writes exactly `*written` records.
#[test]
fn c_every_buffer_reports_its_total_when_short() {
    let (world, _) = c_world(usize::MAX);
    let mut began = 0;
    let mut ended = 0;
    // SAFETY: a live world and valid counters.
    assert_eq!(
        unsafe { phys_update_pair_events(world, &mut began, &mut ended) },
        PHYS_OK
    );
    assert_eq!((began, ended), (2, 0));
    let through = PhysSegment {
        start: pv(Vec3::new(-5.0, 0.5, 0.6)),
        end: pv(Vec3::new(5.0, 0.5, 0.6)),
    };
    let everything = PhysSphere {
        center: pv(Vec3::ZERO),
        radius: 100.0,
    };
    // A caller buffer as C passes it: NULL when it holds no record.
    fn out_ptr<T>(buf: &mut [T]) -> *mut T {
        if buf.is_empty() {
            std::ptr::null_mut()
        } else {
            buf.as_mut_ptr()
        }
    }
    type Fill = Box<dyn Fn(usize, &mut usize, &mut usize) -> (collide::ffi::PhysStatus, usize)>;
    // Each call fills a sentinel buffer of `capacity` records (NULL for 0)
    // and returns its status and how many records changed.
    let calls: Vec<(&str, usize, Fill)> = vec![
        (
            "phys_segment_cast_all",
            2,
            Box::new(move |cap, w, t| {
                let mut buf = vec![
                    PhysHit {
                        t: -1.0,
                        ..PhysHit::default()
                    };
                    cap
                ];
                let out = out_ptr(&mut buf);
                // SAFETY: `buf` holds `cap` records.
                let s = unsafe { phys_segment_cast_all(world, &through, null(), out, cap, w, t) };
                (s, buf.iter().filter(|h| h.t != -1.0).count())
            }),
        ),
        (
            "phys_overlap_sphere",
            3,
            Box::new(move |cap, w, t| {
                let mut buf = vec![PhysColliderRef::default(); cap];
                let out = out_ptr(&mut buf);
                // SAFETY: `buf` holds `cap` records.
                let s = unsafe { phys_overlap_sphere(world, &everything, null(), out, cap, w, t) };
                (s, buf.iter().filter(|r| r.collider.bits != 0).count())
            }),
        ),
        (
            "phys_find_pairs_into",
            2,
            Box::new(move |cap, w, t| {
                let mut buf = vec![PhysPair::default(); cap];
                let out = out_ptr(&mut buf);
                // SAFETY: `buf` holds `cap` records.
                let s = unsafe { phys_find_pairs_into(world, out, cap, w, t) };
                (s, buf.iter().filter(|p| p.a.bits != 0).count())
            }),
        ),
        (
            "phys_pair_events_began",
            2,
            Box::new(move |cap, w, t| {
                let mut buf = vec![PhysPair::default(); cap];
                let out = out_ptr(&mut buf);
                // SAFETY: `buf` holds `cap` records.
                let s = unsafe { phys_pair_events_began(world, out, cap, w, t) };
                (s, buf.iter().filter(|p| p.a.bits != 0).count())
            }),
        ),
    ];
    for (name, needed, call) in &calls {
        for capacity in 0..=needed + 1 {
            let (mut written, mut total) = (usize::MAX, usize::MAX);
            let (status, changed) = call(capacity, &mut written, &mut total);
            if capacity < *needed {
                assert_eq!(status, PHYS_ERROR_BUFFER_TOO_SMALL, "{name} capacity {capacity}");
                assert_eq!(
                    (written, total, changed),
                    (usize::MAX, *needed, 0),
                    "{name} capacity {capacity}"
                );
            } else {
                assert_eq!(status, PHYS_OK, "{name} capacity {capacity}");
                assert_eq!(
                    (written, total, changed),
                    (*needed, *needed, *needed),
                    "{name} capacity {capacity}"
                );
            }
        }
    }
    // No pair ended: an empty buffer is enough, and NULL is fine.
    let (mut written, mut total) = (usize::MAX, usize::MAX);
    // SAFETY: NULL with capacity 0; valid counters.
    let status = unsafe { phys_pair_events_ended(world, std::ptr::null_mut(), 0, &mut written, &mut total) };
    assert_eq!((status, written, total), (PHYS_OK, 0, 0));
    drop(calls);
    // SAFETY: made above, not used again.
    unsafe { phys_world_destroy(world) };
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
            same(world.shape_cast(shape, Vec3::X, all).map(|_| ()), e),
            "shape_cast {name}"
        );
        assert!(same(world.closest(shape, 1.0, all).map(|_| ()), e), "closest {name}");
        assert!(
            same(world.move_and_slide(shape, Vec3::X, all, 4).map(|_| ()), e),
            "move_and_slide {name}"
        );
        let mut calls = 0;
        assert!(same(world.overlap(shape, all, |_, _| calls += 1), e), "overlap {name}");
        assert_eq!(calls, 0);
    }
    for value in NON_FINITE {
        for axis in 0..3 {
            let mut v = Vec3::X;
            v[axis] = value;
            assert!(
                matches!(world.shape_cast(&ok, v, all), Err(Error::NonFinite(_))),
                "motion {v}"
            );
            assert!(
                matches!(world.move_and_slide(&ok, v, all, 4), Err(Error::NonFinite(_))),
                "motion {v}"
            );
            assert!(
                matches!(world.closest_point(v, 1.0, all), Err(Error::NonFinite(_))),
                "point {v}"
            );
        }
        assert!(
            matches!(world.closest(&ok, value, all), Err(Error::NonFinite(_))),
            "max_distance {value}"
        );
        assert!(matches!(
            world.closest_point(Vec3::ZERO, value, all),
            Err(Error::NonFinite(_))
        ));
    }
    assert!(
        matches!(world.closest(&ok, -1.0, all), Err(Error::InvalidArgument(_))),
        "a negative radius"
    );
    assert!(matches!(
        world.closest_point(Vec3::ZERO, -0.5, all),
        Err(Error::InvalidArgument(_))
    ));
    // Finite numbers whose sum overflows: a motion carrying the bounds
    // beyond f32, a search radius growing them beyond it.
    let far = Shape::Sphere(Sphere::new(Vec3::splat(3e38), 1.0));
    assert!(matches!(
        world.shape_cast(&far, Vec3::splat(1e38), all),
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
        world.shape_cast(&ok, Vec3::ZERO, all).unwrap().is_some(),
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
