//! Debug drawing, from Rust and from C: every line drawn for a shape lies on
//! that shape's surface (by the f64 oracle), a world draws its shapes, its
//! bounds, a tree whose boxes hold every collider and its pairs' contacts,
//! the C callbacks see what the Rust trait sees, a renderer's own
//! primitives replace the lines, and bad input is a status.

mod common;

use std::ffi::c_void;
use std::ptr::null;
use std::sync::Arc;

use collide::ffi::PhysStatus::*;
use collide::ffi::*;
use collide::math::Vec3;
use collide::shape::{HeightField, TriangleMesh};
use collide::{
    debug_draw_shape, Aabb, ColliderDesc, Color, DebugDraw, DebugDrawOptions, Shape, Sphere, Transform, World,
};
use common::geometry::all_shapes;
use common::oracle::Oracle;

/// Every line, with its color.
#[derive(Default)]
struct Lines(Vec<(Vec3, Vec3, Color)>);

impl DebugDraw for Lines {
    fn line(&mut self, a: Vec3, b: Vec3, color: Color) {
        self.0.push((a, b, color));
    }
}

/// A small mesh and a height field with a hole: the surfaces beside the
/// convex shapes.
fn surfaces() -> Vec<Shape> {
    let quad = vec![
        Vec3::new(-1.0, 0.0, -1.0),
        Vec3::new(1.0, 0.2, -1.0),
        Vec3::new(1.0, 0.0, 1.0),
        Vec3::new(-1.0, -0.1, 1.0),
    ];
    let mesh = TriangleMesh::new(quad, vec![[0, 1, 2], [0, 2, 3]]).unwrap();
    let heights = vec![0.0, 0.3, 0.1, -0.2, 0.4, 0.0, 0.1, 0.0, 0.2];
    let field = HeightField::new(3, 3, heights, Vec3::new(0.5, 1.0, 0.7))
        .unwrap()
        .with_holes(&[false, true, false, false])
        .unwrap();
    vec![Shape::Mesh(Arc::new(mesh)), Shape::HeightField(field)]
}

#[test]
fn every_line_of_a_shape_lies_on_its_surface() {
    for shape in all_shapes().into_iter().chain(surfaces()) {
        let mut lines = Lines::default();
        debug_draw_shape(&mut lines, &shape, Color::SHAPE);
        assert!(lines.0.len() >= 3, "{shape:?}");
        let oracle = Oracle::of(&shape);
        for &(a, b, color) in &lines.0 {
            assert_eq!(color, Color::SHAPE);
            for p in [a, b] {
                let d = oracle.signed_distance(p.as_dvec3());
                assert!(d.abs() < 1e-5, "{shape:?}: {p} is {d:e} from the surface");
            }
        }
    }
}

/// A world of a floor box and two overlapping balls on it.
fn small_world() -> World {
    let mut world = World::new();
    world
        .add(ColliderDesc::new(Shape::Aabb(Aabb::new(
            Vec3::new(-5.0, -1.0, -5.0),
            Vec3::new(5.0, 0.0, 5.0),
        ))))
        .unwrap();
    for x in [0.0, 1.5] {
        world
            .add(
                ColliderDesc::new(Shape::Sphere(Sphere::new(Vec3::ZERO, 1.0)))
                    .with_transform(Transform::from_translation(Vec3::new(x, 0.9, 0.0))),
            )
            .unwrap();
    }
    world
}

#[test]
fn a_world_draws_its_shapes_bounds_tree_and_contacts() {
    let mut world = small_world();
    let count = |world: &World, options: DebugDrawOptions| {
        let mut lines = Lines::default();
        world.debug_draw(&mut lines, &options);
        lines.0
    };
    let shapes = count(&world, DebugDrawOptions::default());
    // A box's 12 edges and two spheres' three circles of 24 segments.
    assert_eq!(shapes.len(), 12 + 2 * 3 * 24);
    let only = |shapes: bool, bounds: bool, tree: bool, contacts: bool| DebugDrawOptions {
        shapes,
        bounds,
        tree,
        contacts,
    };
    let bounds = count(&world, only(false, true, false, false));
    assert_eq!(bounds.len(), 3 * 12);
    assert!(bounds.iter().all(|l| l.2 == Color::BOUNDS));
    // The tree's boxes: each contains some collider, the first ones all.
    let tree = count(&world, only(false, false, true, false));
    assert!(!tree.is_empty() && tree.len() % 12 == 0);
    let corners: Vec<Vec3> = tree.iter().flat_map(|l| [l.0, l.1]).collect();
    let (lo, hi) = corners
        .iter()
        .fold((Vec3::INFINITY, Vec3::NEG_INFINITY), |(lo, hi), p| {
            (lo.min(*p), hi.max(*p))
        });
    for (_, collider) in world.iter() {
        let b = collider.aabb();
        assert!(
            b.min.cmpge(lo).all() && b.max.cmple(hi).all(),
            "the tree {lo} {hi} holds {b:?}"
        );
    }
    // Contacts: none before pairs(); then the touching pairs' points (two
    // crosses of 3 strokes) and normal.
    assert!(count(&world, only(false, false, false, true)).is_empty());
    let pairs = world.pairs().len();
    assert_eq!(pairs, 3, "the balls overlap each other and the floor");
    let contacts = count(&world, only(false, false, false, true));
    assert_eq!(contacts.len(), pairs * 7);
    assert!(contacts.iter().all(|l| l.2 == Color::CONTACT));
}

/// What the C callbacks receive: a line count, and the other primitives'.
#[derive(Default)]
struct Received {
    lines: usize,
    boxes: usize,
    spheres: usize,
}

unsafe extern "C" fn count_line(ctx: *mut c_void, _a: PhysVec3, _b: PhysVec3, _color: u32) {
    // SAFETY: the tests pass a `Received` as the context.
    unsafe { (*ctx.cast::<Received>()).lines += 1 };
}

unsafe extern "C" fn count_box(ctx: *mut c_void, _c: PhysVec3, _r: PhysQuat, _h: PhysVec3, _color: u32) {
    // SAFETY: as `count_line`.
    unsafe { (*ctx.cast::<Received>()).boxes += 1 };
}

unsafe extern "C" fn count_sphere(ctx: *mut c_void, _c: PhysVec3, _r: f32, _color: u32) {
    // SAFETY: as `count_line`.
    unsafe { (*ctx.cast::<Received>()).spheres += 1 };
}

fn drawer(received: &mut Received) -> PhysDebugDraw {
    PhysDebugDraw {
        ctx: (received as *mut Received).cast(),
        line: Some(count_line),
        triangle: None,
        oriented_box: None,
        sphere: None,
        capsule: None,
        point: None,
        text: None,
    }
}

#[test]
fn c_callbacks_see_what_the_trait_sees_and_renderers_draw_their_own_primitives() {
    let world = common::ffi::new_world(None);
    let shapes = [
        PhysShape {
            kind: PHYS_SHAPE_BOX,
            data: PhysShapeData {
                aabb: common::ffi::aabb(common::ffi::v(-5.0, -1.0, -5.0), common::ffi::v(5.0, 0.0, 5.0)),
            },
        },
        PhysShape {
            kind: PHYS_SHAPE_SPHERE,
            data: PhysShapeData {
                sphere: PhysSphere {
                    center: common::ffi::v(0.0, 0.9, 0.0),
                    radius: 1.0,
                },
            },
        },
    ];
    let mut handles = [PhysCollider::default(); 2];
    // SAFETY: arrays of two records.
    assert_eq!(
        unsafe { phys_add_shapes(world, shapes.as_ptr(), null(), 2, handles.as_mut_ptr()) },
        PHYS_OK
    );
    let mut received = Received::default();
    let mut draw = drawer(&mut received);
    // SAFETY: a live world, a valid drawer.
    assert_eq!(
        unsafe { phys_world_debug_draw(world, &draw, PHYS_DEBUG_DRAW_SHAPES) },
        PHYS_OK
    );
    assert_eq!(received.lines, 12 + 3 * 24, "as World::debug_draw draws them");
    // A renderer's own boxes and spheres: no lines for them.
    let mut own = Received::default();
    draw = PhysDebugDraw {
        oriented_box: Some(count_box),
        sphere: Some(count_sphere),
        ..drawer(&mut own)
    };
    // SAFETY: as above.
    assert_eq!(
        unsafe { phys_world_debug_draw(world, &draw, PHYS_DEBUG_DRAW_SHAPES | PHYS_DEBUG_DRAW_BOUNDS) },
        PHYS_OK
    );
    assert_eq!((own.lines, own.boxes, own.spheres), (0, 1 + 2, 1), "shapes and bounds");
    // A hit: a point's three strokes and the normal.
    let mut hit_lines = Received::default();
    let hit = PhysHit {
        collider: handles[0],
        user_data: 0,
        t: 0.5,
        point: common::ffi::v(0.0, 0.0, 0.0),
        normal: common::ffi::v(0.0, 1.0, 0.0),
        sub_shape: 0,
    };
    // SAFETY: valid pointers.
    assert_eq!(unsafe { phys_debug_draw_hit(&hit, &drawer(&mut hit_lines)) }, PHYS_OK);
    assert_eq!(hit_lines.lines, 4);
    // Bad input: no line callback, unknown flags, a non-finite hit.
    let mut nothing = Received::default();
    let no_line = PhysDebugDraw {
        line: None,
        ..drawer(&mut nothing)
    };
    // SAFETY: valid pointers; the statuses are what is tested.
    unsafe {
        assert_eq!(
            phys_world_debug_draw(world, &no_line, PHYS_DEBUG_DRAW_SHAPES),
            PHYS_ERROR_INVALID_ARGUMENT
        );
        assert_eq!(
            phys_world_debug_draw(world, &drawer(&mut nothing), 1 << 9),
            PHYS_ERROR_INVALID_ARGUMENT
        );
        assert_eq!(
            phys_world_debug_draw(world, null(), PHYS_DEBUG_DRAW_SHAPES),
            PHYS_ERROR_NULL_POINTER
        );
        let bad = PhysHit {
            point: common::ffi::v(f32::NAN, 0.0, 0.0),
            ..hit
        };
        assert_eq!(phys_debug_draw_hit(&bad, &drawer(&mut nothing)), PHYS_ERROR_NON_FINITE);
        phys_world_destroy(world);
    }
    assert_eq!(nothing.lines, 0, "a refused call draws nothing");
}
