//! Sweep and prune in the cells of a grid against the O(n²) loop, where the
//! grid is stressed: boxes of every size from a thousandth to a thousand
//! units (so some reach many cells and are swept apart), boxes sharing
//! cells, boxes beyond the grid's last cell, touching and zero-size boxes,
//! and scenes that change scale and spread between calls (a new grid, a
//! new sweep axis).

use collide::math::Vec3;
use collide::{Aabb, ColliderDesc, ColliderKey, Pair, Shape, World};
use proptest::prelude::*;

fn pairwise(world: &World) -> Vec<Pair> {
    let mut pairs = Vec::new();
    world.test_pairwise(|p| pairs.push(p));
    pairs
}

/// Asserts that sweep and prune finds the pairs of the O(n²) loop, and
/// returns them.
fn pairs_checked(world: &mut World) -> Vec<Pair> {
    let reference = pairwise(world);
    assert_eq!(world.pairs_sweep_and_prune(), reference.as_slice());
    reference
}

fn boxed(min: Vec3, size: Vec3) -> ColliderDesc {
    ColliderDesc::new(Shape::Aabb(Aabb::new(min, min + size)))
}

/// A length from 2⁻¹⁰ to 2¹⁰, uniform in its exponent, or zero.
fn length() -> impl Strategy<Value = f32> {
    prop_oneof![
        8 => (-10i32..=10, 0.0f32..1.0).prop_map(|(e, m)| (1.0 + m) * (e as f32).exp2()),
        1 => Just(0.0f32),
    ]
}

/// A box: a corner spread over ±2¹² on each axis, on a grid of halves so
/// that boxes touch exactly now and then, and a size on each axis.
fn any_box() -> impl Strategy<Value = (Vec3, Vec3)> {
    let corner = (-8192i32..8192).prop_map(|v| v as f32 * 0.5);
    ((corner.clone(), corner.clone(), corner), (length(), length(), length()))
        .prop_map(|((x, y, z), (a, b, c))| (Vec3::new(x, y, z), Vec3::new(a, b, c)))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Boxes of every size, then the same boxes moved closer together and
    /// scaled, then a third of them removed and new ones added: after each
    /// step, sweep and prune returns the pairs of the O(n²) loop.
    #[test]
    fn sweep_and_prune_equals_pairwise_at_every_scale(
        boxes in prop::collection::vec(any_box(), 1..160),
        squeeze in prop_oneof![Just(1.0f32 / 64.0), Just(0.25), Just(4.0)],
        added in prop::collection::vec(any_box(), 0..40),
    ) {
        let mut world = World::new();
        let keys = world.extend(boxes.iter().map(|&(min, size)| boxed(min, size))).unwrap();
        let reference = pairwise(&world);
        prop_assert_eq!(world.pairs_sweep_and_prune(), reference.as_slice());

        let updates: Vec<(ColliderKey, Shape)> = keys
            .iter()
            .zip(&boxes)
            .map(|(&key, &(min, size))| (key, Shape::Aabb(Aabb::new(min * squeeze, (min + size) * squeeze))))
            .collect();
        world.set_shapes(&updates).unwrap();
        let reference = pairwise(&world);
        prop_assert_eq!(world.pairs_sweep_and_prune(), reference.as_slice());

        for &key in keys.iter().step_by(3) {
            world.remove(key).unwrap();
        }
        world.extend(added.iter().map(|&(min, size)| boxed(min, size))).unwrap();
        let reference = pairwise(&world);
        prop_assert_eq!(world.pairs_sweep_and_prune(), reference.as_slice());
    }
}

/// A level: a ground under everything, long walls across many cells,
/// crates in rows that touch, and a stack of zero-size boxes at one point.
/// The ground and the walls are swept apart from the crates, and each
/// crate pair that shares two or four cells is reported once.
#[test]
fn a_level_with_a_ground_walls_and_touching_crates() {
    let mut world = World::new();
    let mut descs = vec![boxed(Vec3::new(0.0, -1.0, 0.0), Vec3::new(400.0, 1.0, 400.0))];
    for i in 0..20 {
        let at = i as f32 * 19.0;
        descs.push(boxed(Vec3::new(at, 0.0, 0.0), Vec3::new(0.5, 8.0, 400.0)));
        descs.push(boxed(Vec3::new(0.0, 0.0, at + 3.0), Vec3::new(400.0, 8.0, 0.5)));
    }
    for row in 0..40 {
        for column in 0..40 {
            let corner = Vec3::new(column as f32 * 2.0 + 1.0, 0.0, row as f32 * 2.0 + 1.0);
            descs.push(boxed(corner, Vec3::splat(2.0)));
        }
    }
    for _ in 0..5 {
        descs.push(boxed(Vec3::new(31.0, 1.0, 31.0), Vec3::ZERO));
    }
    world.extend(descs).unwrap();
    let reference = pairs_checked(&mut world);
    assert!(reference.len() > 5_000, "{} pairs", reference.len());
}

/// Boxes far beyond the grid's last cell on both axes across the sweep (the
/// grid holds at most 2¹⁵ cells a side; here a cell fits the unit boxes,
/// and two boxes sit a billion units away, one overlapping the other), with
/// a box spanning the whole range: all clamped into the edge cells, and
/// still every pair found once.
#[test]
fn boxes_beyond_the_last_cell_pair_up() {
    let mut world = World::new();
    let mut descs: Vec<ColliderDesc> = (0..200)
        .map(|i| boxed(Vec3::new(i as f32 * 0.75, (i % 7) as f32, (i % 5) as f32), Vec3::ONE))
        .collect();
    descs.push(boxed(Vec3::new(1.0e9, 1.0e9, 1.0e9), Vec3::ONE));
    descs.push(boxed(Vec3::new(1.0e9 + 0.5, 1.0e9, 1.0e9), Vec3::ONE));
    descs.push(boxed(Vec3::new(-1.0e9, -1.0e9, -1.0e9), Vec3::ONE));
    descs.push(boxed(Vec3::splat(-2.0e9), Vec3::splat(4.0e9)));
    world.extend(descs).unwrap();
    let reference = pairs_checked(&mut world);
    let far = reference
        .iter()
        .filter(|p| world.get(p.a).unwrap().aabb().min.x >= 1.0e9 && world.get(p.b).unwrap().aabb().min.x >= 1.0e9)
        .count();
    assert_eq!(far, 1, "the two far boxes overlap each other");
}

/// Zero-size boxes only (every width zero, so the grid's cell comes from
/// the spread alone), touching at shared points.
#[test]
fn points_only() {
    let mut world = World::new();
    let descs = (0..300).map(|i| boxed(Vec3::new((i % 10) as f32, (i / 10 % 3) as f32, 0.0), Vec3::ZERO));
    world.extend(descs).unwrap();
    let reference = pairs_checked(&mut world);
    assert!(!reference.is_empty());
}

/// Wide boxes of every orientation among small ones: slabs across the
/// whole scene beside it and through it on each axis, walls long on each
/// axis, and a box far out on every axis (the grid leaves it in an edge
/// cell). Each wide box is swept against the cells it reaches, row by row,
/// and passed over where the cells' boxes lie beyond it.
#[test]
fn wide_boxes_of_every_orientation() {
    let mut world = World::new();
    let mut descs: Vec<ColliderDesc> = (0..2000)
        .map(|i| {
            let (x, y, z) = (
                (i % 20) as f32 * 1.5,
                (i / 20 % 10) as f32 * 1.5,
                (i / 200) as f32 * 1.5,
            );
            boxed(Vec3::new(x, y, z), Vec3::splat(1.0))
        })
        .collect();
    for axis in 0..3 {
        let slab = |offset: f32| {
            let mut min = Vec3::splat(-10.0);
            let mut size = Vec3::splat(60.0);
            min[axis] = offset;
            size[axis] = 0.5;
            boxed(min, size)
        };
        descs.extend([-100.0, 100.0, -0.5, 7.0, 14.5, 15.25, 29.5].map(slab));
        for at in [0.5f32, 6.0, 13.5] {
            let mut min = Vec3::splat(at);
            let mut size = Vec3::splat(0.25);
            min[axis] = -5.0;
            size[axis] = 50.0;
            descs.push(boxed(min, size));
        }
    }
    descs.push(boxed(Vec3::splat(5.0e8), Vec3::splat(2.0)));
    descs.push(boxed(Vec3::splat(5.0e8 + 1.0), Vec3::splat(2.0)));
    world.extend(descs).unwrap();
    let reference = pairs_checked(&mut world);
    assert!(reference.len() > 1000, "{} pairs", reference.len());
}

/// Two wide slabs just touching the first and the last of the small boxes
/// on the sweep axis (the boxes spread most along x, so x is swept): a
/// wide box is passed over only when it lies strictly beyond them.
#[test]
fn wide_slabs_touching_the_ends_of_the_sweep() {
    let mut world = World::new();
    let mut descs: Vec<ColliderDesc> = (0..101)
        .map(|i| boxed(Vec3::new(i as f32, (i % 3) as f32, (i % 5) as f32), Vec3::ONE))
        .collect();
    descs.push(boxed(Vec3::new(-1.0, -50.0, -50.0), Vec3::new(1.0, 100.0, 100.0)));
    descs.push(boxed(Vec3::new(101.0, -50.0, -50.0), Vec3::new(1.0, 100.0, 100.0)));
    let keys = world.extend(descs).unwrap();
    let slabs = &keys[keys.len() - 2..];
    let reference = pairs_checked(&mut world);
    let slab_pairs = reference
        .iter()
        .filter(|p| slabs.contains(&p.a) || slabs.contains(&p.b))
        .count();
    assert_eq!(slab_pairs, 2, "each slab touches one end box");
}
