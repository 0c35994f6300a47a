//! Compound colliders: every query of a compound equals the same query
//! asked of its children one by one (the earliest, deepest or nearest
//! child, ties to the smaller index) and names that child; a world with a
//! compound answers as a world with each child as its own collider;
//! placement by analytic cases; every reported point certified on the
//! child it names by the f64 oracle; bad input refused; the C ABI.

use std::ptr::null;
use std::sync::Arc;

use collide::ffi::world::*;
use collide::ffi::PhysStatus::{self, *};
use collide::ffi::*;
use collide::math::{Quat, Vec3};
use collide::shape::{HeightField, TriangleMesh};
use collide::{
    Aabb, ColliderDesc, Compound, ConvexHull, Error, Obb, QueryFilter, Segment, Shape, Sphere, Transform, World,
};

mod common;
use common::geometry::random_convex;
use common::oracle::Oracle;
use common::random::{seeded, Draw, TestRng};

/// A compound of two to six random convex children around the origin,
/// each posed by a random rotation and offset (about `size` apart).
fn random_compound(rng: &mut TestRng, size: f32) -> Shape {
    let n = 2 + rng.below(5) as usize;
    let children: Vec<(Shape, Transform)> = (0..n)
        .map(|_| {
            let child = random_convex(rng, Vec3::ZERO, size);
            let pose = Transform::new(rng.vec(-size, size), rng.rotation(), 1.0);
            (child, pose)
        })
        .collect();
    Shape::from(Compound::new(children).unwrap())
}

/// The compound's children, placed.
fn children(shape: &Shape) -> &[Shape] {
    match shape {
        Shape::Compound(c) => c.children(),
        other => panic!("not a compound: {other:?}"),
    }
}

/// A random scene: a compound placed by a random transform (offsets to
/// 1e5 one time in four) and another shape near it — a convex shape, a
/// compound, or terrain.
fn random_scene(rng: &mut TestRng, n: usize) -> (Shape, Shape, Vec3) {
    let offset = if n % 4 == 0 { rng.vec(-1e5, 1e5) } else { Vec3::ZERO };
    let scale = if n % 5 == 0 { rng.range(0.5, 2.0) } else { 1.0 };
    let place = Transform::new(offset, rng.rotation(), scale);
    let compound = random_compound(rng, 1.0).transformed(&place, true).unwrap();
    let near = offset + rng.vec(-2.0, 2.0);
    let other = match n % 7 {
        5 => random_compound(rng, 0.6)
            .transformed(&Transform::from_translation(near), true)
            .unwrap(),
        6 => {
            let heights: Vec<f32> = (0..49).map(|_| rng.range(-0.3, 0.3)).collect();
            let field = HeightField::new(7, 7, heights, Vec3::new(0.7, 1.0, 0.7)).unwrap();
            Shape::HeightField(field).translated(near - Vec3::new(2.1, 0.0, 2.1))
        }
        _ => random_convex(rng, near, if n % 3 == 0 { 0.1 } else { 1.0 }),
    };
    (compound, other, offset)
}

/// The best of `answers` by `better`, ties to the smaller index.
fn best_of<T: Copy>(
    answers: impl Iterator<Item = (u32, Option<T>)>,
    better: impl Fn(&T, &T) -> bool,
) -> Option<(u32, T)> {
    let mut best: Option<(u32, T)> = None;
    for (i, a) in answers {
        if let Some(a) = a {
            if best.as_ref().is_none_or(|(_, b)| better(&a, b)) {
                best = Some((i, a));
            }
        }
    }
    best
}

#[test]
fn every_query_equals_its_children_one_by_one() {
    let mut rng = seeded(2026);
    let (mut touching, mut hits, mut casts) = (0, 0, 0);
    for n in 0..3_000 {
        let (compound, other, offset) = random_scene(&mut rng, n);
        let kids = children(&compound);
        let each = || kids.iter().enumerate().map(|(i, c)| (i as u32, c));
        let what = || format!("#{n}: {compound:?} / {other:?}");

        // Overlap: any child.
        let any = kids.iter().any(|c| c.intersects(&other));
        assert_eq!(compound.intersects(&other), any, "intersects {}", what());
        assert_eq!(other.intersects(&compound), any, "intersects, swapped {}", what());

        // Contact: the deepest child, from both sides.
        let deepest = best_of(each().map(|(i, c)| (i, c.contact(&other))), |a, b| a.depth > b.depth);
        let got = compound.contact(&other);
        assert_eq!(got.map(|c| c.depth), deepest.map(|(_, c)| c.depth), "depth {}", what());
        if let (Some(got), Some((i, c))) = (got, deepest) {
            touching += 1;
            assert_eq!((got.normal, got.point_a, got.point_b), (c.normal, c.point_a, c.point_b));
            assert_eq!(got.sub_shapes, [i, c.sub_shapes[1]], "{}", what());
            // Seen from the other side: the same contact, flipped (its depth
            // to rounding where both are compounds: taken from the other's
            // children first, two pairs of children as deep may swap).
            let seen = other.contact(&compound).unwrap();
            let flipped = got.flipped();
            assert!((seen.depth - flipped.depth).abs() <= 1e-5 * (1.0 + offset.abs().max_element()));
            if !matches!(other, Shape::Compound(_)) {
                assert_eq!(seen, flipped, "{}", what());
            }
        }

        // Distance: the nearest child.
        let nearest = best_of(each().map(|(i, c)| (i, Some(c.distance(&other)))), |a, b| {
            a.distance < b.distance
        })
        .unwrap();
        let d = compound.distance(&other);
        assert_eq!(d.distance, nearest.1.distance, "distance {}", what());
        assert_eq!(d.sub_shapes[0], nearest.0);

        // Segment casts through the compound's region: the earliest child.
        for _ in 0..4 {
            let segment = Segment::new(offset + rng.vec(-4.0, 4.0), offset + rng.vec(-4.0, 4.0));
            let earliest = best_of(each().map(|(i, c)| (i, c.cast_segment(&segment))), |a, b| a.t < b.t);
            let got = compound.cast_segment(&segment);
            assert_eq!(
                got.map(|h| (h.t, h.normal)),
                earliest.map(|(_, h)| (h.t, h.normal)),
                "{segment:?} {}",
                what()
            );
            if let Some(h) = got {
                hits += 1;
                assert_eq!(h.sub_shape, earliest.unwrap().0);
            }
        }

        // Shape casts, the compound moving and fixed: the earliest child.
        let motion = rng.vec(-3.0, 3.0);
        let moving = best_of(each().map(|(i, c)| (i, c.cast_shape(motion, &other))), |a, b| a.t < b.t);
        let got = compound.cast_shape(motion, &other);
        assert_eq!(
            got.map(|h| (h.t, h.normal)),
            moving.map(|(_, h)| (h.t, h.normal)),
            "moving {}",
            what()
        );
        if let Some(h) = got {
            casts += 1;
            assert_eq!(h.sub_shapes[0], moving.unwrap().0);
        }
        // Fixed: where the other is a compound too, it is taken child by
        // child first, so of several children touching at once another
        // may be named — at the same time, with its own answer.
        let fixed = best_of(each().map(|(i, c)| (i, other.cast_shape(motion, c))), |a, b| a.t < b.t);
        let got = other.cast_shape(motion, &compound);
        assert_eq!(got.map(|h| h.t), fixed.map(|(_, h)| h.t), "fixed {}", what());
        if let Some(h) = got {
            let named = other.cast_shape(motion, &kids[h.sub_shapes[1] as usize]).unwrap();
            assert_eq!(
                (named.t, named.normal, named.sub_shapes[0]),
                (h.t, h.normal, h.sub_shapes[0])
            );
            if !matches!(other, Shape::Compound(_)) {
                assert_eq!(h.sub_shapes[1], fixed.unwrap().0);
            }
        }

        // Manifolds: one per touching child, the deepest as the pair's.
        let mut manifolds = Vec::new();
        compound.contact_manifolds(&other, &mut manifolds);
        let expected: Vec<_> = each()
            .flat_map(|(i, c)| {
                let mut per_child = Vec::new();
                c.contact_manifolds(&other, &mut per_child);
                per_child.into_iter().map(move |m| (i, m))
            })
            .collect();
        assert_eq!(manifolds.len(), expected.len(), "{}", what());
        for (m, (i, e)) in manifolds.iter().zip(&expected) {
            assert_eq!((m.normal, m.points()), (e.normal, e.points()));
            assert_eq!(m.sub_shapes, [*i, e.sub_shapes[1]]);
        }
        let single = compound.contact_manifold(&other);
        assert_eq!(single.is_some(), !manifolds.is_empty());
    }
    assert!(
        touching > 600 && hits > 1_500 && casts > 600,
        "{touching} touching, {hits} hits, {casts} casts"
    );
}

#[test]
fn every_reported_point_lies_on_the_child_it_names() {
    let mut rng = seeded(7);
    let mut checked = 0;
    for n in 0..5_000 {
        let (compound, other, offset) = random_scene(&mut rng, n);
        let scale = 1.0 + f64::from(offset.abs().max_element());
        let tol = 2e-5 * scale;
        let on = |shape: &Shape, sub: u32, p: Vec3| -> f64 {
            let oracle = match shape {
                Shape::Compound(c) => Oracle::of(&c.children()[sub as usize]),
                s => Oracle::of(s),
            };
            oracle.signed_distance(p.as_dvec3()).abs()
        };
        if let Some(c) = compound.contact(&other) {
            checked += 1;
            assert!(
                on(&compound, c.sub_shapes[0], c.point_a) <= tol,
                "#{n} contact point_a {c:?}"
            );
            assert!(
                on(&other, c.sub_shapes[1], c.point_b) <= tol,
                "#{n} contact point_b {c:?}"
            );
        }
        let d = compound.distance(&other);
        if d.distance > 0.0 {
            assert!(
                on(&compound, d.sub_shapes[0], d.point_a) <= tol,
                "#{n} distance point_a {d:?}"
            );
            assert!(
                on(&other, d.sub_shapes[1], d.point_b) <= tol,
                "#{n} distance point_b {d:?}"
            );
        }
        let segment = Segment::new(offset + rng.vec(-4.0, 4.0), offset + rng.vec(-4.0, 4.0));
        if let Some(h) = compound.cast_segment(&segment) {
            if h.t > 0.0 {
                let p = segment.point_at(h.t);
                assert!(on(&compound, h.sub_shape, p) <= tol, "#{n} segment hit {h:?}");
            }
        }
        let mut manifolds = Vec::new();
        compound.contact_manifolds(&other, &mut manifolds);
        for m in &manifolds {
            for p in m.points() {
                assert!(on(&compound, m.sub_shapes[0], p.point_a) <= tol, "#{n} manifold {m:?}");
            }
        }
    }
    assert!(checked > 1_000, "{checked} contacts");
}

#[test]
fn placement_follows_the_poses_and_the_collider() {
    // A dumbbell along x: balls of radius 0.5 at x = ±1 on a thin bar.
    let ball = Shape::Sphere(Sphere::new(Vec3::ZERO, 0.5));
    let bar = Shape::Aabb(Aabb::new(Vec3::new(-1.0, -0.1, -0.1), Vec3::new(1.0, 0.1, 0.1)));
    let dumbbell = Shape::from(
        Compound::new([
            (ball.clone(), Transform::from_translation(Vec3::new(-1.0, 0.0, 0.0))),
            (ball, Transform::from_translation(Vec3::new(1.0, 0.0, 0.0))),
            (bar, Transform::IDENTITY),
        ])
        .unwrap(),
    );
    // A box child turns with the body: it is kept as an oriented box.
    assert!(matches!(children(&dumbbell)[2], Shape::Obb(_)));
    // Stood up (x → y), moved to (10, 0, 0), doubled: balls at y = ±2, radius 1.
    let place = Transform::new(
        Vec3::new(10.0, 0.0, 0.0),
        Quat::from_rotation_z(core::f32::consts::FRAC_PI_2),
        2.0,
    );
    let mut world = World::new();
    let key = world
        .add(ColliderDesc::new(dumbbell).with_transform(place).with_user_data(42))
        .unwrap();
    let down = Segment::new(Vec3::new(10.0, 10.0, 0.0), Vec3::new(10.0, -10.0, 0.0));
    let hit = world.segment_cast(&down, &QueryFilter::ALL).unwrap().unwrap();
    assert_eq!((hit.collider, hit.user_data, hit.sub_shape), (key, 42, 1));
    assert!((hit.point - Vec3::new(10.0, 3.0, 0.0)).length() < 1e-5, "{hit:?}");
    assert!((hit.normal - Vec3::Y).length() < 1e-5);
    // From the side at the middle: the bar, 0.2 wide.
    let side = Segment::new(Vec3::new(0.0, 0.0, 0.0), Vec3::new(20.0, 0.0, 0.0));
    let hit = world.segment_cast(&side, &QueryFilter::ALL).unwrap().unwrap();
    assert_eq!(hit.sub_shape, 2);
    assert!((hit.point.x - 9.8).abs() < 1e-5, "{hit:?}");
    // Moving the collider moves every child.
    world
        .set_transform(key, Transform::from_translation(Vec3::new(0.0, 0.0, 5.0)))
        .unwrap();
    let through = Segment::new(Vec3::new(1.0, 0.0, -5.0), Vec3::new(1.0, 0.0, 15.0));
    let hit = world.segment_cast(&through, &QueryFilter::ALL).unwrap().unwrap();
    assert_eq!(hit.sub_shape, 1);
    assert!((hit.point - Vec3::new(1.0, 0.0, 4.5)).length() < 1e-5, "{hit:?}");
}

/// A collider's parts: a compound's children, or its shape alone.
fn parts(shape: &Shape) -> Vec<Shape> {
    match shape {
        Shape::Compound(c) => c.children().to_vec(),
        other => vec![other.clone()],
    }
}

type Part = (collide::ColliderKey, u32);

#[test]
fn a_world_with_compounds_answers_as_its_parts_one_by_one() {
    let mut rng = seeded(11);
    for round in 0..20 {
        let mut world = World::new();
        for _ in 0..30 {
            let at = Transform::new(rng.vec(-8.0, 8.0), rng.rotation(), 1.0);
            let shape = if rng.one_in(2) {
                random_compound(&mut rng, 1.0)
            } else {
                random_convex(&mut rng, Vec3::ZERO, 1.0)
            };
            world.add(ColliderDesc::new(shape).with_transform(at)).unwrap();
        }
        let every: Vec<(collide::ColliderKey, Vec<Shape>)> =
            world.iter().map(|(k, c)| (k, parts(&c.world_shape()))).collect();
        // Casts: the earliest part, ties to the smaller key, then part.
        for _ in 0..200 {
            let segment = Segment::new(rng.vec(-12.0, 12.0), rng.vec(-12.0, 12.0));
            let mut want: Option<(f32, Part)> = None;
            for (key, shapes) in &every {
                for (i, part) in shapes.iter().enumerate() {
                    if let Some(h) = part.cast_segment(&segment) {
                        if want.is_none_or(|(t, _)| h.t < t) {
                            want = Some((h.t, (*key, i as u32)));
                        }
                    }
                }
            }
            let got = world.segment_cast(&segment, &QueryFilter::ALL).unwrap();
            assert_eq!(
                got.map(|h| (h.t, (h.collider, h.sub_shape))),
                want,
                "round {round} {segment:?}"
            );
        }
        // Pairs: two colliders whenever any of their parts overlap.
        let mut want = Vec::new();
        let mut want_manifolds: Vec<(Part, Part)> = Vec::new();
        for (n, (a, pa)) in every.iter().enumerate() {
            for (b, pb) in &every[n + 1..] {
                let mut touching = false;
                for (i, x) in pa.iter().enumerate() {
                    for (j, y) in pb.iter().enumerate() {
                        touching |= x.intersects(y);
                        if x.contact_manifold(y).is_some() {
                            want_manifolds.push(((*a, i as u32), (*b, j as u32)));
                        }
                    }
                }
                if touching {
                    want.push((*a.min(b), *a.max(b)));
                }
            }
        }
        want.sort();
        let mut got: Vec<_> = world.pairs().iter().map(|p| (p.a.min(p.b), p.a.max(p.b))).collect();
        got.sort();
        assert_eq!(got, want, "round {round}");
        // Manifolds: one per touching pair of parts.
        let mut manifolds = Vec::new();
        world.contact_manifolds(&mut manifolds);
        let order = |v: &mut Vec<(Part, Part)>| {
            for (a, b) in v.iter_mut() {
                if b < a {
                    core::mem::swap(a, b);
                }
            }
            v.sort();
        };
        let mut got: Vec<(Part, Part)> = manifolds
            .iter()
            .map(|(p, m)| ((p.a, m.sub_shapes[0]), (p.b, m.sub_shapes[1])))
            .collect();
        order(&mut got);
        order(&mut want_manifolds);
        assert_eq!(got, want_manifolds, "round {round}");
    }
}

#[test]
fn a_table_rests_on_four_legs() {
    let leg = Shape::Obb(Obb::new(Vec3::ZERO, Quat::IDENTITY, Vec3::new(0.1, 0.5, 0.1)));
    let top = Shape::Aabb(Aabb::new(Vec3::new(-1.2, 0.0, -1.2), Vec3::new(1.2, 0.1, 1.2)));
    let at = |x: f32, z: f32| Transform::from_translation(Vec3::new(x, 0.5, z));
    let table = Compound::new([
        (top, Transform::from_translation(Vec3::new(0.0, 1.0, 0.0))),
        (leg.clone(), at(-1.0, -1.0)),
        (leg.clone(), at(1.0, -1.0)),
        (leg.clone(), at(-1.0, 1.0)),
        (leg, at(1.0, 1.0)),
    ])
    .unwrap();
    let mut world = World::new();
    let floor = world
        .add(ColliderDesc::new(Shape::Aabb(Aabb::new(
            Vec3::new(-5.0, -1.0, -5.0),
            Vec3::new(5.0, 0.0, 5.0),
        ))))
        .unwrap();
    let table = world
        .add(
            ColliderDesc::new(Shape::from(table))
                .with_transform(Transform::from_translation(Vec3::new(0.0, -0.01, 0.0))),
        )
        .unwrap();
    let mut manifolds = Vec::new();
    world.contact_manifolds(&mut manifolds);
    assert_eq!(manifolds.len(), 4, "{manifolds:?}");
    for (n, (pair, m)) in manifolds.iter().enumerate() {
        assert_eq!((pair.a, pair.b), (floor, table));
        assert_eq!(m.sub_shapes, [0, n as u32 + 1]);
        assert_eq!(m.points().len(), 4);
        assert!(m.points().iter().all(|p| (p.depth - 0.01).abs() < 1e-5));
    }
    // The single manifold of the pair is the deepest leg's (all equal: the first).
    assert_eq!(
        world.contact_manifold(floor, table).unwrap().unwrap().sub_shapes,
        [0, 1]
    );
    // A ball dropped on the table top lands on it, child 0.
    let ball = Shape::Sphere(Sphere::new(Vec3::new(0.3, 5.0, 0.2), 0.25));
    let hit = world
        .cast_shape(&ball, Vec3::new(0.0, -10.0, 0.0), &QueryFilter::ALL)
        .unwrap()
        .unwrap();
    assert_eq!((hit.collider, hit.sub_shape), (table, 0));
    assert!((hit.point.y - 1.09).abs() < 1e-4, "{hit:?}");
    // A ball rolled under it meets a leg.
    let ball = Shape::Sphere(Sphere::new(Vec3::new(-4.0, 0.3, -1.0), 0.25));
    let hit = world
        .cast_shape(&ball, Vec3::new(8.0, 0.0, 0.0), &QueryFilter::excluding(floor))
        .unwrap()
        .unwrap();
    assert_eq!((hit.collider, hit.sub_shape), (table, 1));
    assert!((hit.point.x + 1.1).abs() < 1e-4, "{hit:?}");
}

#[test]
fn bad_compounds_are_refused_and_leave_the_world_as_it_was() {
    let ball = || Shape::Sphere(Sphere::new(Vec3::ZERO, 0.5));
    let id = Transform::IDENTITY;
    assert!(matches!(Compound::new([]), Err(Error::InvalidArgument(_))));
    let mesh = Shape::Mesh(Arc::new(
        TriangleMesh::new(vec![Vec3::ZERO, Vec3::X, Vec3::Z], vec![[0, 1, 2]]).unwrap(),
    ));
    let field = Shape::HeightField(HeightField::new(2, 2, vec![0.0; 4], Vec3::ONE).unwrap());
    let inner = Shape::from(Compound::new([(ball(), id)]).unwrap());
    for child in [mesh, field, inner] {
        assert!(
            matches!(
                Compound::new([(ball(), id), (child, id)]),
                Err(Error::InvalidArgument(_))
            ),
            "a child that is not convex"
        );
    }
    assert!(matches!(
        Compound::new([(Shape::Sphere(Sphere::new(Vec3::NAN, 1.0)), id)]),
        Err(Error::NonFinite(_))
    ));
    assert!(matches!(
        Compound::new([(ball(), Transform::from_translation(Vec3::new(f32::INFINITY, 0.0, 0.0)))]),
        Err(Error::NonFinite(_))
    ));
    let squashed = Transform::new(Vec3::ZERO, Quat::from_xyzw(0.0, 0.0, 0.0, 2.0), 1.0);
    assert!(matches!(
        Compound::new([(ball(), squashed)]),
        Err(Error::InvalidArgument(_))
    ));
    // A hull child flattened by the collider's scale: refused, the world kept.
    let hull = Shape::Hull(Arc::new(
        ConvexHull::from_points(&[Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z]).unwrap(),
    ));
    let compound = Shape::from(Compound::new([(hull, id), (ball(), id)]).unwrap());
    let mut world = World::new();
    let key = world.add(ColliderDesc::new(compound)).unwrap();
    let before = world.get(key).unwrap().world_shape().into_owned();
    let flat = Transform {
        scale: Vec3::new(1.0, 0.0, 1.0),
        ..Transform::IDENTITY
    };
    assert!(matches!(world.set_transform(key, flat), Err(Error::InvalidArgument(_))));
    assert_eq!(*world.get(key).unwrap().world_shape(), before);
    assert!(world.validate().is_ok());
}

fn check(status: PhysStatus) {
    assert_eq!(status, PHYS_OK);
}

fn sphere(x: f32, radius: f32) -> PhysShape {
    PhysShape {
        kind: PHYS_SHAPE_SPHERE,
        data: PhysShapeData {
            sphere: PhysSphere {
                center: PhysVec3 { x, y: 0.0, z: 0.0 },
                radius,
            },
        },
    }
}

#[test]
fn c_abi_compounds() {
    // SAFETY: every pointer below is to live, initialised stack or heap data
    // of the right type and count.
    unsafe {
        let children = [sphere(0.0, 0.5), sphere(0.0, 0.5)];
        let pose = |x: f32| PhysTransform {
            translation: PhysVec3 { x, y: 0.0, z: 0.0 },
            rotation: PhysQuat {
                x: 0.0,
                y: 0.0,
                z: 0.0,
                w: 1.0,
            },
            scale: PhysVec3 { x: 1.0, y: 1.0, z: 1.0 },
        };
        let poses = [pose(-1.0), pose(1.0)];
        let mut compound = core::ptr::null_mut();
        check(phys_compound_create(
            children.as_ptr(),
            poses.as_ptr(),
            2,
            &mut compound,
        ));
        let mut world = core::ptr::null_mut();
        check(phys_world_create(&mut world));
        let shape = PhysShape {
            kind: PHYS_SHAPE_COMPOUND,
            data: PhysShapeData { compound },
        };
        let mut collider = PhysCollider::default();
        check(phys_add_shape(world, &shape, null(), &mut collider));
        let (mut hit, mut found) = (PhysHit::default(), false);
        let shot = PhysSegment {
            start: PhysVec3 { x: 5.0, y: 0.0, z: 0.0 },
            end: PhysVec3 {
                x: -5.0,
                y: 0.0,
                z: 0.0,
            },
        };
        check(phys_segment_cast(world, &shot, null(), &mut found, &mut hit));
        assert!(found);
        assert_eq!((hit.collider, hit.sub_shape, hit.point.x), (collider, 1, 1.5));
        // World-free: the contact names the child.
        let probe = sphere(-1.8, 0.5);
        let (mut touching, mut contact) = (false, PhysContact::default());
        check(phys_shape_contact(&shape, &probe, &mut touching, &mut contact));
        assert!(touching);
        assert_eq!(contact.sub_shapes, [0, 0]);
        assert!((contact.depth - 0.2).abs() < 1e-6);
        let mut manifold = PhysManifold::default();
        check(phys_shape_manifold(&probe, &shape, &mut touching, &mut manifold));
        assert_eq!(manifold.sub_shapes, [0, 0]);
        // A compound is no child.
        let (nested, mut none) = ([shape], core::ptr::null_mut());
        assert_eq!(
            phys_compound_create(nested.as_ptr(), poses.as_ptr(), 1, &mut none),
            PHYS_ERROR_INVALID_ARGUMENT
        );
        // The world keeps its reference; the shape comes back as a new one.
        phys_compound_destroy(compound);
        let mut back = PhysShape {
            kind: 0,
            data: PhysShapeData { compound: null() },
        };
        check(phys_get_shape(world, collider, &mut back));
        assert_eq!(back.kind, PHYS_SHAPE_COMPOUND);
        phys_compound_destroy(back.data.compound.cast_mut());
        phys_compound_destroy(core::ptr::null_mut());
        // Bad input: an error, nothing made.
        assert_eq!(
            phys_compound_create(children.as_ptr(), poses.as_ptr(), 0, &mut none),
            PHYS_ERROR_INVALID_ARGUMENT
        );
        assert_eq!(
            phys_compound_create(null(), poses.as_ptr(), 2, &mut none),
            PHYS_ERROR_NULL_POINTER
        );
        assert_eq!(
            phys_compound_create(children.as_ptr(), null(), 2, &mut none),
            PHYS_ERROR_NULL_POINTER
        );
        assert_eq!(
            phys_compound_create(children.as_ptr(), poses.as_ptr(), usize::MAX, &mut none),
            PHYS_ERROR_INVALID_ARGUMENT
        );
        let unknown = [PhysShape {
            kind: 99,
            ..sphere(0.0, 1.0)
        }];
        assert_eq!(
            phys_compound_create(unknown.as_ptr(), poses.as_ptr(), 1, &mut none),
            PHYS_ERROR_INVALID_ARGUMENT
        );
        let nan = [sphere(f32::NAN, 1.0)];
        assert_eq!(
            phys_compound_create(nan.as_ptr(), poses.as_ptr(), 1, &mut none),
            PHYS_ERROR_NON_FINITE
        );
        assert!(none.is_null());
        phys_world_destroy(world);
    }
}

#[test]
fn a_compound_is_drawn_child_by_child() {
    use collide::{debug_draw_shape, Color, DebugDraw};
    #[derive(Default)]
    struct Spheres(Vec<(Vec3, f32)>);
    impl DebugDraw for Spheres {
        fn line(&mut self, _a: Vec3, _b: Vec3, _color: Color) {}
        fn sphere(&mut self, center: Vec3, radius: f32, _color: Color) {
            self.0.push((center, radius));
        }
    }
    let ball = Shape::Sphere(Sphere::new(Vec3::ZERO, 0.5));
    let pair = Shape::from(
        Compound::new([
            (ball.clone(), Transform::from_translation(Vec3::X)),
            (ball, Transform::from_translation(-Vec3::X)),
        ])
        .unwrap(),
    );
    let mut drawn = Spheres::default();
    debug_draw_shape(&mut drawn, &pair, Color::SHAPE);
    assert_eq!(drawn.0, vec![(Vec3::X, 0.5), (-Vec3::X, 0.5)]);
}
