//! The narrow-phase world queries held to brute force and to analytic
//! answers: colliders of every shape (oriented boxes, triangles, cylinders,
//! cones, hulls besides the book's three) through the tree's segment cast
//! and pair finder, `shape_cast`, `closest`, `distance`, `contact` and
//! `move_and_slide`, and their input validation.

use std::sync::Arc;

use collide::math::{Quat, Vec3};
use collide::query::gjk;
use collide::{
    Aabb, Capsule, ColliderDesc, ColliderKey, Cone, ConvexHull, Cylinder, Error, Obb, QueryFilter, Segment, Shape,
    Sphere, Transform, Triangle, World,
};
use proptest::prelude::*;

// ---------------------------------------------------------------------------
// Strategies: every kind of shape, random placements
// ---------------------------------------------------------------------------

/// A multiple of 0.5 in `[-4, 4]`: faces and edges touch exactly often.
fn coord() -> impl Strategy<Value = f32> {
    (-8i32..=8).prop_map(|i| i as f32 * 0.5)
}

fn point() -> impl Strategy<Value = Vec3> {
    (coord(), coord(), coord()).prop_map(|(x, y, z)| Vec3::new(x, y, z))
}

fn radius() -> impl Strategy<Value = f32> {
    (1i32..=4).prop_map(|i| i as f32 * 0.25)
}

fn rotation() -> impl Strategy<Value = Quat> {
    prop_oneof![
        Just(Quat::IDENTITY),
        (point(), -3.0f32..3.0).prop_map(|(axis, angle)| Quat::from_axis_angle(axis.normalize_or(Vec3::X), angle)),
    ]
}

/// A shape of any kind, in object space near the origin.
fn shape() -> impl Strategy<Value = Shape> {
    let half = (1i32..=4, 1i32..=4, 1i32..=4).prop_map(|(x, y, z)| Vec3::new(x as f32, y as f32, z as f32) * 0.25);
    prop_oneof![
        (point(), point()).prop_map(|(a, b)| Shape::Aabb(Aabb::new(a.min(b), a.max(b)))),
        (point(), radius()).prop_map(|(c, r)| Shape::Sphere(Sphere::new(c, r))),
        (point(), point(), radius()).prop_map(|(a, b, r)| Shape::Capsule(Capsule::new(Segment::new(a, b), r))),
        (point(), rotation(), half).prop_map(|(c, q, h)| Shape::Obb(Obb::new(c, q, h))),
        (point(), point(), point()).prop_map(|(a, b, c)| Shape::Triangle(Triangle::new(a, b, c))),
        (point(), point(), radius()).prop_map(|(a, b, r)| Shape::Cylinder(Cylinder::new(Segment::new(a, b), r))),
        (point(), point(), radius()).prop_map(|(a, b, r)| Shape::Cone(Cone::new(a, b, r))),
        proptest::collection::vec(point(), 4..10).prop_filter_map("a hull with volume", |points| {
            ConvexHull::from_points(&points).ok().map(|h| Shape::Hull(Arc::new(h)))
        }),
    ]
}

/// A placement: a translation, a rotation and a positive uniform or
/// non-uniform scale.
fn transform() -> impl Strategy<Value = Transform> {
    let scale = prop_oneof![
        Just(Vec3::ONE),
        (1i32..=4).prop_map(|s| Vec3::splat(s as f32 * 0.5)),
        (1i32..=4, 1i32..=4, 1i32..=4).prop_map(|(x, y, z)| Vec3::new(x as f32, y as f32, z as f32) * 0.5),
    ];
    (point(), rotation(), scale).prop_map(|(translation, rotation, scale)| Transform {
        translation,
        rotation,
        scale,
    })
}

fn world_of(descs: &[(Shape, Transform)]) -> (World, Vec<ColliderKey>) {
    let mut world = World::new();
    let keys = descs
        .iter()
        .enumerate()
        .map(|(i, (shape, t))| {
            world
                .add(
                    ColliderDesc::new(shape.clone())
                        .with_transform(*t)
                        .with_user_data(i as u64),
                )
                .expect("valid collider")
        })
        .collect();
    (world, keys)
}

fn sorted_pairs(mut pairs: Vec<(ColliderKey, ColliderKey)>) -> Vec<(ColliderKey, ColliderKey)> {
    pairs.sort();
    pairs
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// The tree's segment cast equals the O(n) loop, and the tree's pair
    /// finder equals the O(n²) one, for colliders of every shape.
    #[test]
    fn tree_queries_match_brute_force_for_every_shape(
        descs in proptest::collection::vec((shape(), transform()), 1..12),
        a in point(), b in point(),
    ) {
        let (mut world, _) = world_of(&descs);
        let segment = Segment::new(a, b);
        let tree = world.segment_cast(&segment, &QueryFilter::ALL).unwrap();
        let brute = world.segment_cast_brute_force(&segment, &QueryFilter::ALL).unwrap();
        prop_assert_eq!(tree.map(|h| h.t), brute.map(|h| h.t));
        let mut pairwise = Vec::new();
        world.test_pairwise(|p| pairwise.push((p.a, p.b)));
        let found: Vec<_> = world.pairs().iter().map(|p| (p.a, p.b)).collect();
        prop_assert_eq!(sorted_pairs(found), sorted_pairs(pairwise));
    }

    /// `shape_cast` of a sphere equals the earliest closed-form cast over
    /// every collider; `closest` equals the least GJK distance over every
    /// collider within reach; `overlap` equals the exact test over every
    /// collider.
    #[test]
    fn world_queries_match_loops_over_every_collider(
        descs in proptest::collection::vec((shape(), transform()), 1..12),
        center in point(), r in radius(), motion in point(), max_distance in 0.0f32..6.0,
    ) {
        let (world, _) = world_of(&descs);
        let ball = Shape::Sphere(Sphere::new(center, r));

        let hit = world.shape_cast(&ball, motion, &QueryFilter::ALL).unwrap();
        let brute = world
            .iter()
            .filter_map(|(k, c)| ball.cast_shape(motion, c.world_shape()).map(|toi| (toi.t, k)))
            .min_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
        prop_assert_eq!(hit.map(|h| (h.t, h.collider)), brute);

        let near = world.closest_point(center, max_distance, &QueryFilter::ALL).unwrap();
        let point = Shape::Sphere(Sphere::new(center, 0.0));
        let brute = world
            .iter()
            .map(|(k, c)| (gjk::distance(&point, c.world_shape()).distance, k))
            .filter(|(d, _)| *d <= max_distance)
            .min_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
        prop_assert_eq!(near.map(|(k, d)| (d.distance, k)), brute);

        let mut found = Vec::new();
        world.overlap(&ball, &QueryFilter::ALL, |k, _| found.push(k)).unwrap();
        found.sort();
        let brute: Vec<_> = world.iter().filter(|(_, c)| ball.intersects(c.world_shape())).map(|(k, _)| k).collect();
        prop_assert_eq!(found, brute);
    }

    /// A move-and-slide never ends inside a collider, and never moves
    /// farther than asked.
    #[test]
    fn move_and_slide_never_ends_inside(
        descs in proptest::collection::vec((shape(), transform()), 1..10),
        start in point(), motion in point(),
    ) {
        let (world, _) = world_of(&descs);
        let character = Shape::Capsule(Capsule::new(Segment::new(start, start + Vec3::Y * 0.5), 0.25));
        let mut starts_inside = false;
        world.overlap(&character, &QueryFilter::ALL, |_, _| starts_inside = true).unwrap();
        prop_assume!(!starts_inside);
        let moved = world.move_and_slide(&character, motion, &QueryFilter::ALL, 4).unwrap();
        prop_assert!(moved.position_delta.length() <= motion.length() + 1e-4);
        let end = character.translated(moved.position_delta);
        for (_, c) in world.iter() {
            let d = end.distance(c.world_shape());
            prop_assert!(d.distance > 0.0 || !end.intersects(c.world_shape()), "ended inside: {d:?}");
        }
    }
}

// ---------------------------------------------------------------------------
// Analytic cases
// ---------------------------------------------------------------------------

fn wall(world: &mut World, min: Vec3, max: Vec3) -> ColliderKey {
    world.add(ColliderDesc::new(Shape::Aabb(Aabb::new(min, max)))).unwrap()
}

#[test]
fn shape_cast_finds_the_nearest_wall_with_its_normal() {
    let mut world = World::new();
    let far = wall(&mut world, Vec3::new(8.0, -1.0, -1.0), Vec3::new(9.0, 1.0, 1.0));
    let near = wall(&mut world, Vec3::new(4.0, -1.0, -1.0), Vec3::new(5.0, 1.0, 1.0));
    let ball = Shape::Sphere(Sphere::new(Vec3::ZERO, 1.0));
    let hit = world
        .shape_cast(&ball, Vec3::new(10.0, 0.0, 0.0), &QueryFilter::ALL)
        .unwrap()
        .unwrap();
    assert_eq!((hit.collider, hit.t, hit.normal), (near, 0.3, Vec3::NEG_X));
    assert!((hit.point - Vec3::new(4.0, 0.0, 0.0)).length() < 1e-5);
    let hit = world
        .shape_cast(&ball, Vec3::new(10.0, 0.0, 0.0), &QueryFilter::excluding(near))
        .unwrap()
        .unwrap();
    assert_eq!((hit.collider, hit.t), (far, 0.7));
    // A capsule and an oriented box (GJK) agree with the closed form to 1e-5.
    let pill = Shape::Capsule(Capsule::new(Segment::new(Vec3::NEG_Y, Vec3::Y), 1.0));
    let t = world
        .shape_cast(&pill, Vec3::new(10.0, 0.0, 0.0), &QueryFilter::ALL)
        .unwrap()
        .unwrap()
        .t;
    assert!((t - 0.3).abs() < 1e-5, "{t}");
    let crate_ = Shape::Obb(Obb::new(Vec3::ZERO, Quat::from_rotation_y(0.3), Vec3::splat(0.5)));
    let t = world
        .shape_cast(&crate_, Vec3::new(10.0, 0.0, 0.0), &QueryFilter::ALL)
        .unwrap()
        .unwrap()
        .t;
    let reach = 0.5 * (0.3f32.cos() + 0.3f32.sin());
    assert!((t - (4.0 - reach) / 10.0).abs() < 1e-5, "{t}");
    // Moving away: no hit.
    assert!(world
        .shape_cast(&ball, Vec3::new(-10.0, 0.0, 0.0), &QueryFilter::ALL)
        .unwrap()
        .is_none());
}

#[test]
fn distance_and_contact_between_colliders_of_new_shapes() {
    let mut world = World::new();
    let cylinder = world
        .add(ColliderDesc::new(Shape::Cylinder(Cylinder::new(
            Segment::new(Vec3::ZERO, Vec3::Y * 2.0),
            1.0,
        ))))
        .unwrap();
    let cone = world
        .add(
            ColliderDesc::new(Shape::Cone(Cone::new(Vec3::ZERO, Vec3::Y, 1.0)))
                .with_transform(Transform::from_translation(Vec3::new(4.0, 0.0, 0.0))),
        )
        .unwrap();
    let d = world.distance(cylinder, cone).unwrap();
    assert!((d.distance - 2.0).abs() < 1e-4, "{d:?}");
    assert!(world.contact(cylinder, cone).unwrap().is_none());
    let tri = world
        .add(ColliderDesc::new(Shape::Triangle(Triangle::new(
            Vec3::new(0.5, 1.0, -3.0),
            Vec3::new(0.5, 1.0, 3.0),
            Vec3::new(3.0, 1.0, 0.0),
        ))))
        .unwrap();
    let c = world
        .contact(cylinder, tri)
        .unwrap()
        .expect("the triangle cuts the cylinder");
    assert!((c.depth - 0.5).abs() < 1e-4, "{c:?}");
    assert!((c.normal - Vec3::X).length() < 1e-3, "{c:?}");
    // Stale keys.
    world.remove(cone).unwrap();
    assert_eq!(world.distance(cylinder, cone), Err(Error::StaleHandle));
    assert_eq!(world.contact(cone, cylinder), Err(Error::StaleHandle));
}

#[test]
fn closest_aims_at_the_nearest_enemy() {
    let mut world = World::new();
    let enemy = |x: f32, z: f32| {
        ColliderDesc::new(Shape::Capsule(Capsule::new(
            Segment::new(Vec3::ZERO, Vec3::Y * 2.0),
            0.5,
        )))
        .with_transform(Transform::from_translation(Vec3::new(x, 0.0, z)))
    };
    let _far = world.add(enemy(10.0, 0.0)).unwrap();
    let near = world.add(enemy(-3.0, 4.0)).unwrap();
    let (key, d) = world
        .closest_point(Vec3::new(0.0, 1.0, 0.0), 20.0, &QueryFilter::ALL)
        .unwrap()
        .unwrap();
    assert_eq!(key, near);
    assert!((d.distance - 4.5).abs() < 1e-5);
    assert!((d.point_b - Vec3::new(-2.7, 1.0, 3.6)).length() < 1e-5);
    assert!(world.closest_point(Vec3::Y, 4.0, &QueryFilter::ALL).unwrap().is_none());
    assert!(world
        .closest_point(Vec3::Y, 20.0, &QueryFilter::excluding(near))
        .unwrap()
        .is_some());
    // A shape as the query.
    let ball = Shape::Sphere(Sphere::new(Vec3::Y, 1.0));
    let (key, d) = world.closest(&ball, 20.0, &QueryFilter::ALL).unwrap().unwrap();
    assert!((key, (d.distance - 3.5).abs() < 1e-5) == (near, true));
}

#[test]
fn move_and_slide_keeps_the_tangential_motion_and_stops_in_a_corner() {
    let mut world = World::new();
    let east = wall(&mut world, Vec3::new(2.0, -5.0, -5.0), Vec3::new(3.0, 5.0, 5.0));
    let ball = Shape::Sphere(Sphere::new(Vec3::ZERO, 1.0));
    let moved = world
        .move_and_slide(&ball, Vec3::new(3.0, 0.0, 1.0), &QueryFilter::ALL, 4)
        .unwrap();
    assert!(
        (moved.position_delta.x - (1.0 - collide::MOVE_AND_SLIDE_SKIN)).abs() < 1e-4,
        "{moved:?}"
    );
    assert!((moved.position_delta.z - 1.0).abs() < 1e-4, "{moved:?}");
    assert_eq!(moved.hits.iter().map(|h| h.collider).collect::<Vec<_>>(), [east]);
    // Walking along the wall while touching it is not blocked.
    let touching = ball.translated(Vec3::X);
    let moved = world
        .move_and_slide(&touching, Vec3::new(0.0, 0.0, 2.0), &QueryFilter::ALL, 4)
        .unwrap();
    assert_eq!(moved.position_delta, Vec3::new(0.0, 0.0, 2.0));
    // A corner: walls east and north; walking north-east stops there.
    let north = wall(&mut world, Vec3::new(-5.0, -5.0, 2.0), Vec3::new(5.0, 5.0, 3.0));
    let moved = world
        .move_and_slide(&ball, Vec3::new(3.0, 0.0, 3.0), &QueryFilter::ALL, 8)
        .unwrap();
    let p = moved.position_delta;
    assert!(
        p.x <= 1.0 && p.z <= 1.0 && p.x > 0.99 && p.z > 0.99 && p.y.abs() < 1e-5,
        "{moved:?}"
    );
    assert!(moved.hits.iter().any(|h| h.collider == north));
    // Nothing in the way: the whole motion.
    let moved = world
        .move_and_slide(&ball, Vec3::new(-3.0, 0.0, 0.0), &QueryFilter::ALL, 4)
        .unwrap();
    assert_eq!((moved.position_delta, moved.hits.len()), (Vec3::new(-3.0, 0.0, 0.0), 0));
}

#[test]
fn colliders_of_new_shapes_are_placed_exactly() {
    let mut world = World::new();
    let cube: Vec<Vec3> = (0..8)
        .map(|i| Vec3::new((i & 1) as f32, ((i >> 1) & 1) as f32, ((i >> 2) & 1) as f32) - Vec3::splat(0.5))
        .collect();
    let hull = Shape::Hull(Arc::new(ConvexHull::from_points(&cube).unwrap()));
    let turn = Quat::from_rotation_z(std::f32::consts::FRAC_PI_4);
    let place = Transform {
        translation: Vec3::new(10.0, 0.0, 0.0),
        rotation: turn,
        scale: Vec3::new(2.0, 1.0, 1.0),
    };
    let key = world
        .add(ColliderDesc::new(hull.clone()).with_transform(place))
        .unwrap();
    let Shape::Hull(placed) = world.get(key).unwrap().world_shape() else {
        panic!("a hull")
    };
    let tip = place.apply(Vec3::new(0.5, 0.5, 0.5));
    assert!(placed.contains_point(tip + (Vec3::new(10.0, 0.0, 0.0) - tip) * 1e-3));
    assert!(!placed.contains_point(tip + (tip - Vec3::new(10.0, 0.0, 0.0)) * 1e-3));
    // The same box as an oriented box agrees with the hull on a cast.
    let obb = world
        .add(
            ColliderDesc::new(Shape::Obb(Obb::new(
                Vec3::ZERO,
                Quat::IDENTITY,
                Vec3::new(1.0, 0.5, 0.5),
            )))
            .with_transform(Transform {
                translation: Vec3::new(10.0, 5.0, 0.0),
                rotation: turn,
                scale: Vec3::ONE,
            }),
        )
        .unwrap();
    assert!(!world.get(obb).unwrap().is_box());
    let across = |y: f32| Segment::new(Vec3::new(0.0, y, 0.0), Vec3::new(20.0, y, 0.0));
    let t_hull = world.segment_cast(&across(0.0), &QueryFilter::ALL).unwrap().unwrap().t;
    let t_obb = world.segment_cast(&across(5.0), &QueryFilter::ALL).unwrap().unwrap().t;
    assert!((t_hull - t_obb).abs() < 1e-6, "{t_hull} {t_obb}");
    // A flat scale cannot place a hull; the world is unchanged.
    let flat = Transform {
        scale: Vec3::new(1.0, 0.0, 1.0),
        ..Transform::IDENTITY
    };
    let before = world.len();
    assert!(matches!(
        world.add(ColliderDesc::new(hull).with_transform(flat)),
        Err(Error::InvalidArgument(_))
    ));
    assert_eq!(world.len(), before);
}

#[test]
fn bad_input_is_refused_and_changes_nothing() {
    let mut world = World::new();
    wall(&mut world, Vec3::ZERO, Vec3::ONE);
    let ball = Shape::Sphere(Sphere::new(Vec3::ZERO, 1.0));
    let nan = Vec3::new(f32::NAN, 0.0, 0.0);
    let inf = Vec3::new(0.0, f32::INFINITY, 0.0);
    for motion in [nan, inf] {
        assert!(matches!(
            world.shape_cast(&ball, motion, &QueryFilter::ALL),
            Err(Error::NonFinite(_))
        ));
        assert!(matches!(
            world.move_and_slide(&ball, motion, &QueryFilter::ALL, 4),
            Err(Error::NonFinite(_))
        ));
    }
    let negative = Shape::Sphere(Sphere::new(Vec3::ZERO, -1.0));
    assert_eq!(
        world.shape_cast(&negative, Vec3::X, &QueryFilter::ALL),
        Err(Error::NegativeRadius)
    );
    assert_eq!(
        world.closest(&negative, 1.0, &QueryFilter::ALL),
        Err(Error::NegativeRadius)
    );
    assert_eq!(
        world.move_and_slide(&negative, Vec3::X, &QueryFilter::ALL, 1),
        Err(Error::NegativeRadius)
    );
    assert!(matches!(
        world.closest_point(nan, 1.0, &QueryFilter::ALL),
        Err(Error::NonFinite(_))
    ));
    assert!(matches!(
        world.closest_point(Vec3::ZERO, f32::NAN, &QueryFilter::ALL),
        Err(Error::NonFinite(_))
    ));
    assert!(matches!(
        world.closest_point(Vec3::ZERO, -1.0, &QueryFilter::ALL),
        Err(Error::InvalidArgument(_))
    ));
    let bad_obb = Shape::Obb(Obb::new(Vec3::ZERO, Quat::from_xyzw(0.0, 0.0, 0.0, 2.0), Vec3::ONE));
    assert!(matches!(
        world.shape_cast(&bad_obb, Vec3::X, &QueryFilter::ALL),
        Err(Error::InvalidArgument(_))
    ));
    assert_eq!(world.len(), 1);
    world.validate().unwrap();
}
