//! Debug drawing: a world's colliders, their bounds, the tree's nodes and the
//! contacts of the pairs as lines (and, where a renderer has them, boxes,
//! spheres, capsules, triangles and points), through a [`DebugDraw`] the
//! game implements (Box2D's `b2DebugDraw` and Jolt's `DebugRenderer` are
//! the model). Only [`DebugDraw::line`] is required: every other primitive
//! falls back to lines.

use core::f32::consts::TAU;

use crate::math::{Quat, Vec3};
use crate::shape::Shape;
use crate::world::{Hit, World};

/// A color, `0xRRGGBBAA`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Color(pub u32);

impl Color {
    /// Colliders' shapes: light grey.
    pub const SHAPE: Color = Color(0xC8C8C8FF);
    /// Colliders' bounding boxes: blue.
    pub const BOUNDS: Color = Color(0x4A90E2FF);
    /// The tree's nodes: purple, fainter with depth.
    pub const TREE: Color = Color(0x9B59B6A0);
    /// Contact points and normals: red.
    pub const CONTACT: Color = Color(0xE74C3CFF);
    /// A query's hit: green.
    pub const HIT: Color = Color(0x2ECC71FF);
}

/// What a game draws with. Only `line` is required; the others are drawn as
/// lines unless overridden by a renderer with its own primitives.
///
/// ```
/// use collide::{Color, DebugDraw, math::Vec3};
/// struct Count(usize);
/// impl DebugDraw for Count {
///     fn line(&mut self, _a: Vec3, _b: Vec3, _color: Color) { self.0 += 1; }
/// }
/// let mut count = Count(0);
/// count.aabb(Vec3::ZERO, Vec3::ONE, Color::SHAPE);
/// assert_eq!(count.0, 12); // a box's edges
/// ```
pub trait DebugDraw {
    /// A line from `a` to `b`.
    fn line(&mut self, a: Vec3, b: Vec3, color: Color);

    /// A triangle's outline.
    fn triangle(&mut self, a: Vec3, b: Vec3, c: Vec3, color: Color) {
        self.line(a, b, color);
        self.line(b, c, color);
        self.line(c, a, color);
    }

    /// An oriented box: `center`, `rotation` and `half_extents`.
    fn oriented_box(&mut self, center: Vec3, rotation: Quat, half_extents: Vec3, color: Color) {
        let corner = |i: usize| {
            let sign = |bit: usize| if i & bit != 0 { 1.0 } else { -1.0 };
            center + rotation * (half_extents * Vec3::new(sign(1), sign(2), sign(4)))
        };
        for (i, j) in BOX_EDGES {
            self.line(corner(i), corner(j), color);
        }
    }

    /// An axis-aligned box from `min` to `max` (its corners exactly).
    fn aabb(&mut self, min: Vec3, max: Vec3, color: Color) {
        let corner = |i: usize| {
            Vec3::new(
                if i & 1 != 0 { max.x } else { min.x },
                if i & 2 != 0 { max.y } else { min.y },
                if i & 4 != 0 { max.z } else { min.z },
            )
        };
        for (i, j) in BOX_EDGES {
            self.line(corner(i), corner(j), color);
        }
    }

    /// A sphere: three great circles.
    fn sphere(&mut self, center: Vec3, radius: f32, color: Color) {
        for axis in [Vec3::X, Vec3::Y, Vec3::Z] {
            circle(self, center, axis, radius, color);
        }
    }

    /// A capsule around the segment `a`–`b`: a ring at each end, four side
    /// lines and the two caps' arcs.
    fn capsule(&mut self, a: Vec3, b: Vec3, radius: f32, color: Color) {
        let (axis, u, v) = tube(self, a, b, radius, color);
        for (end, out) in [(a, -axis), (b, axis)] {
            for side in [u, v] {
                arc(self, end, side, out, radius, color);
            }
        }
    }

    /// A point, `size` across.
    fn point(&mut self, p: Vec3, size: f32, color: Color) {
        let h = size * 0.5;
        for axis in [Vec3::X, Vec3::Y, Vec3::Z] {
            self.line(p - axis * h, p + axis * h, color);
        }
    }

    /// A label; not drawn unless overridden.
    fn text(&mut self, _at: Vec3, _text: &str, _color: Color) {}
}

/// The twelve edges of a box whose corner `i` has bit 1, 2, 4 set for +x,
/// +y, +z.
const BOX_EDGES: [(usize, usize); 12] = [
    (0, 1),
    (2, 3),
    (4, 5),
    (6, 7),
    (0, 2),
    (1, 3),
    (4, 6),
    (5, 7),
    (0, 4),
    (1, 5),
    (2, 6),
    (3, 7),
];

/// Segments of a drawn circle.
const CIRCLE_SEGMENTS: usize = 24;

/// The circle of `radius` about `center` in the plane normal to `axis`.
fn circle<D: DebugDraw + ?Sized>(draw: &mut D, center: Vec3, axis: Vec3, radius: f32, color: Color) {
    let (u, v) = axis.normalize_or(Vec3::Y).any_orthonormal_pair();
    let at = |i: usize| {
        let angle = TAU * i as f32 / CIRCLE_SEGMENTS as f32;
        center + (u * angle.cos() + v * angle.sin()) * radius
    };
    for i in 0..CIRCLE_SEGMENTS {
        draw.line(at(i), at(i + 1), color);
    }
}

/// The tube of `radius` around `a`–`b`: a ring at each end and four side
/// lines (a cylinder, and a capsule before its caps). Returns the unit axis
/// (`Y` for `a = b`) and the two unit directions across it the side lines
/// stand on.
fn tube<D: DebugDraw + ?Sized>(draw: &mut D, a: Vec3, b: Vec3, radius: f32, color: Color) -> (Vec3, Vec3, Vec3) {
    let axis = (b - a).try_normalize().unwrap_or(Vec3::Y);
    let (u, v) = axis.any_orthonormal_pair();
    circle(draw, a, axis, radius, color);
    circle(draw, b, axis, radius, color);
    for side in [u, -u, v, -v] {
        draw.line(a + side * radius, b + side * radius, color);
    }
    (axis, u, v)
}

/// The half circle of `radius` about `center` from `side` through `out` to
/// `−side`.
fn arc<D: DebugDraw + ?Sized>(draw: &mut D, center: Vec3, side: Vec3, out: Vec3, radius: f32, color: Color) {
    let half = CIRCLE_SEGMENTS / 2;
    let at = |i: usize| {
        let angle = core::f32::consts::PI * i as f32 / half as f32;
        center + (side * angle.cos() + out * angle.sin()) * radius
    };
    for i in 0..half {
        draw.line(at(i), at(i + 1), color);
    }
}

/// What [`World::debug_draw`] draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DebugDrawOptions {
    /// Every collider's shape (in world space).
    pub shapes: bool,
    /// Every collider's bounding box.
    pub bounds: bool,
    /// The tree's inner nodes.
    pub tree: bool,
    /// The contact (deepest points and normal) of every pair the last
    /// [`World::pairs`] found.
    pub contacts: bool,
}

impl Default for DebugDrawOptions {
    /// The shapes alone.
    fn default() -> Self {
        Self {
            shapes: true,
            bounds: false,
            tree: false,
            contacts: false,
        }
    }
}

/// Draws `shape` (in world space).
///
/// ```
/// use collide::{debug_draw_shape, Color, DebugDraw, Shape, Sphere, math::Vec3};
/// struct Lines(Vec<(Vec3, Vec3)>);
/// impl DebugDraw for Lines {
///     fn line(&mut self, a: Vec3, b: Vec3, _color: Color) { self.0.push((a, b)); }
/// }
/// let mut lines = Lines(Vec::new());
/// debug_draw_shape(&mut lines, &Shape::Sphere(Sphere::new(Vec3::ZERO, 2.0)), Color::SHAPE);
/// assert!(lines.0.iter().all(|(a, b)| (a.length() - 2.0).abs() < 1e-5 && (b.length() - 2.0).abs() < 1e-5));
/// ```
pub fn debug_draw_shape<D: DebugDraw + ?Sized>(draw: &mut D, shape: &Shape, color: Color) {
    match shape {
        Shape::Aabb(b) => draw.aabb(b.min, b.max, color),
        Shape::Obb(o) => draw.oriented_box(o.center, o.rotation, o.half_extents, color),
        Shape::Sphere(s) => draw.sphere(s.center, s.radius, color),
        Shape::Capsule(c) => draw.capsule(c.segment.start, c.segment.end, c.radius, color),
        Shape::Triangle(t) => draw.triangle(t.a, t.b, t.c, color),
        Shape::Cylinder(c) => {
            tube(draw, c.segment.start, c.segment.end, c.radius, color);
        }
        Shape::Cone(c) => {
            let axis = c.apex - c.base_center;
            circle(draw, c.base_center, axis, c.radius, color);
            let (u, v) = axis.normalize_or(Vec3::Y).any_orthonormal_pair();
            for side in [u, -u, v, -v] {
                draw.line(c.base_center + side * c.radius, c.apex, color);
            }
        }
        Shape::Hull(h) => {
            let v = h.vertices();
            for [i, j] in h.edges() {
                draw.line(v[*i as usize], v[*j as usize], color);
            }
        }
        Shape::Mesh(m) => {
            let v = m.vertices();
            for [i, j, k] in m.indices() {
                draw.triangle(v[*i as usize], v[*j as usize], v[*k as usize], color);
            }
        }
        Shape::HeightField(h) => {
            for (_, t) in h.triangles() {
                draw.triangle(t.a, t.b, t.c, color);
            }
        }
        Shape::Compound(c) => {
            for child in c.children() {
                debug_draw_shape(draw, child, color);
            }
        }
    }
}

/// Draws a cast's hit: its point and, from it, its normal (one unit long).
///
/// ```
/// use collide::{debug_draw_hit, Aabb, Color, ColliderDesc, DebugDraw, QueryFilter, Segment, Shape, World, math::Vec3};
/// struct Lines(usize);
/// impl DebugDraw for Lines {
///     fn line(&mut self, _a: Vec3, _b: Vec3, _color: Color) { self.0 += 1; }
/// }
/// let mut world = World::new();
/// world.add(ColliderDesc::new(Shape::Aabb(Aabb::new(Vec3::new(4.0, -1.0, -1.0), Vec3::new(5.0, 1.0, 1.0)))))?;
/// let hit = world.segment_cast(&Segment::new(Vec3::ZERO, Vec3::new(10.0, 0.0, 0.0)), &QueryFilter::ALL)?.unwrap();
/// let mut lines = Lines(0);
/// debug_draw_hit(&mut lines, &hit);
/// assert_eq!(lines.0, 4); // a point's three strokes and the normal
/// # Ok::<(), collide::Error>(())
/// ```
pub fn debug_draw_hit<D: DebugDraw + ?Sized>(draw: &mut D, hit: &Hit) {
    draw.point(hit.point, 0.25, Color::HIT);
    draw.line(hit.point, hit.point + hit.normal, Color::HIT);
}

impl World {
    /// Draws the world as `options` says: every collider's shape (in world
    /// space), their bounds, the tree's inner nodes (fainter with depth) and
    /// the contacts of the pairs the last [`World::pairs`] found (their
    /// deepest points and normal). Reads the world only.
    ///
    /// ```
    /// use collide::{Aabb, ColliderDesc, Color, DebugDraw, DebugDrawOptions, Shape, World, math::Vec3};
    /// struct Count(usize);
    /// impl DebugDraw for Count {
    ///     fn line(&mut self, _a: Vec3, _b: Vec3, _color: Color) { self.0 += 1; }
    /// }
    /// let mut world = World::new();
    /// world.add(ColliderDesc::new(Shape::Aabb(Aabb::new(Vec3::ZERO, Vec3::ONE))))?;
    /// let mut count = Count(0);
    /// world.debug_draw(&mut count, &DebugDrawOptions::default());
    /// assert_eq!(count.0, 12);
    /// # Ok::<(), collide::Error>(())
    /// ```
    pub fn debug_draw<D: DebugDraw + ?Sized>(&self, draw: &mut D, options: &DebugDrawOptions) {
        for (_, collider) in self.iter() {
            if options.shapes {
                debug_draw_shape(draw, &collider.world_shape(), Color::SHAPE);
            }
            if options.bounds {
                let b = collider.aabb();
                draw.aabb(b.min, b.max, Color::BOUNDS);
            }
        }
        if options.tree {
            self.tree().for_each_node_box(|b, depth| {
                let alpha = (0xA0u32 >> depth.min(4)).max(0x20);
                draw.aabb(b.min, b.max, Color((Color::TREE.0 & !0xFF) | alpha));
            });
        }
        if options.contacts {
            for pair in self.last_pairs() {
                let (Some(a), Some(b)) = (self.get(pair.a), self.get(pair.b)) else {
                    continue;
                };
                if let Some(c) = a.world_shape().contact(&b.world_shape()) {
                    draw.point(c.point_a, 0.1, Color::CONTACT);
                    draw.point(c.point_b, 0.1, Color::CONTACT);
                    draw.line(c.point_b, c.point_b + c.normal, Color::CONTACT);
                }
            }
        }
    }
}
