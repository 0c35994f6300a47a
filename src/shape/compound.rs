//! Compound: one collider made of convex children, each placed by its own
//! pose in the compound's frame (a table of a top and four legs, a car of
//! a body and wheels).

use crate::error::{Error, Result};
use crate::math::{Transform, Vec3};
use crate::shape::{Aabb, Obb, Shape, Support};

/// Convex children placed in one frame, queried as one collider: every
/// query takes the children whose bounds it reaches and answers for the
/// one that decides it (the earliest hit, the deepest contact, the nearest
/// point), naming it by its index — the *sub-shape* of every hit, contact,
/// distance and manifold ([`CastHit::sub_shape`](crate::query::CastHit::sub_shape),
/// [`Contact::sub_shapes`](crate::query::Contact::sub_shapes)).
///
/// Children are convex: any shape but a mesh, a height field or another
/// compound. A box child ([`Shape::Aabb`]) is kept as the oriented box
/// it is ([`Obb`]), so that it turns with its pose and with the collider.
/// A compound is shared behind an `Arc` like a hull
/// ([`Shape::Compound`]); placing it in the world places every child
/// ([`Shape::transformed`]), so moving a compound costs its children.
///
/// ```
/// use collide::{Compound, Obb, Segment, Shape, Sphere, Transform, math::{Quat, Vec3}};
/// // A dumbbell: two balls on a bar.
/// let ball = Shape::Sphere(Sphere::new(Vec3::ZERO, 0.5));
/// let bar = Shape::Obb(Obb::new(Vec3::ZERO, Quat::IDENTITY, Vec3::new(1.0, 0.1, 0.1)));
/// let dumbbell = Compound::new([
///     (ball.clone(), Transform::from_translation(Vec3::new(-1.0, 0.0, 0.0))),
///     (ball, Transform::from_translation(Vec3::new(1.0, 0.0, 0.0))),
///     (bar, Transform::IDENTITY),
/// ])?;
/// let shot = Segment::new(Vec3::new(5.0, 0.0, 0.0), Vec3::new(-5.0, 0.0, 0.0));
/// let hit = Shape::from(dumbbell).cast_segment(&shot).unwrap();
/// assert_eq!((hit.sub_shape, shot.point_at(hit.t)), (1, Vec3::new(1.5, 0.0, 0.0)));
/// # Ok::<(), collide::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Compound {
    /// The children, placed in the compound's frame.
    children: Vec<Shape>,
    /// Each child's bounds, by index.
    bounds: Vec<Aabb>,
    /// The union of `bounds`.
    aabb: Aabb,
}

impl Compound {
    /// The compound of `children`, each a convex shape in its own frame
    /// with the pose that places it in the compound's frame (by
    /// [`Shape::transformed`], rotating: an axis-aligned box child becomes
    /// the oriented box it is first).
    ///
    /// Errors: [`Error::InvalidArgument`] for no child, more than
    /// `u32::MAX` children, or a child that is a mesh, height field or
    /// compound; a child's or pose's own errors ([`Shape::validate`],
    /// [`Transform::validated`], [`Shape::transformed`]).
    pub fn new(children: impl IntoIterator<Item = (Shape, Transform)>) -> Result<Compound> {
        let mut placed = Vec::new();
        for (shape, pose) in children {
            check_convex(&shape)?;
            shape.validate()?;
            let pose = pose.validated()?;
            let shape = match shape {
                Shape::Aabb(b) => Shape::Obb(Obb::from(b)),
                other => other,
            };
            placed.push(placed_child(&shape, &pose)?);
        }
        Compound::of_placed(placed)
    }

    /// The compound of children already placed in its frame and checked
    /// ([`placed_child`]).
    fn of_placed(children: Vec<Shape>) -> Result<Compound> {
        if children.is_empty() {
            return Err(Error::InvalidArgument("a compound needs at least one child"));
        }
        if u32::try_from(children.len()).is_err() {
            return Err(Error::InvalidArgument("a compound has more than u32::MAX children"));
        }
        Ok(Compound::bounded(children))
    }

    /// The compound of at least one placed child, its children's bounds
    /// computed.
    fn bounded(children: Vec<Shape>) -> Compound {
        let bounds: Vec<Aabb> = children.iter().map(Shape::bounding_aabb).collect();
        let aabb = bounds.iter().skip(1).fold(bounds[0], |u, b| u.union(b));
        Compound { children, bounds, aabb }
    }

    /// The children, placed in the compound's frame; a child's index is
    /// its sub-shape id.
    ///
    /// ```
    /// use collide::{Aabb, Compound, Shape, Transform, math::Vec3};
    /// let c = Compound::new([(Shape::Aabb(Aabb::new(Vec3::ZERO, Vec3::ONE)), Transform::from_translation(Vec3::X))])?;
    /// assert_eq!(c.children()[0].bounding_aabb(), Aabb::new(Vec3::X, Vec3::new(2.0, 1.0, 1.0)));
    /// # Ok::<(), collide::Error>(())
    /// ```
    #[must_use]
    pub fn children(&self) -> &[Shape] {
        &self.children
    }

    /// The bounds of the children together.
    ///
    /// ```
    /// use collide::{Aabb, Compound, Shape, Sphere, Transform, math::Vec3};
    /// let ball = Shape::Sphere(Sphere::new(Vec3::ZERO, 1.0));
    /// let pair = Compound::new([(ball.clone(), Transform::IDENTITY), (ball, Transform::from_translation(Vec3::X * 4.0))])?;
    /// assert_eq!(pair.bounding_aabb(), Aabb::new(Vec3::splat(-1.0), Vec3::new(5.0, 1.0, 1.0)));
    /// # Ok::<(), collide::Error>(())
    /// ```
    #[must_use]
    pub fn bounding_aabb(&self) -> Aabb {
        self.aabb
    }

    /// The compound of children already placed in its frame (a snapshot's
    /// [`Compound::children`]), each checked as [`Compound::new`] checks a
    /// placed child.
    pub(crate) fn from_placed(children: Vec<Shape>) -> Result<Compound> {
        children.iter().try_for_each(check_placed)?;
        Compound::of_placed(children)
    }

    /// The compound with every child placed by `transform` (rotating).
    pub(crate) fn transformed(&self, transform: &Transform) -> Result<Compound> {
        let children = self
            .children
            .iter()
            .map(|c| placed_child(c, transform))
            .collect::<Result<Vec<_>>>()?;
        Compound::of_placed(children)
    }

    /// The compound moved by `offset` (every child exactly, its bounds
    /// computed again).
    pub(crate) fn translated(&self, offset: Vec3) -> Compound {
        Compound::bounded(self.children.iter().map(|c| c.translated(offset)).collect())
    }

    /// The children whose bounds overlap `aabb`, with their indices,
    /// ascending.
    pub(crate) fn children_in<'a>(&'a self, aabb: &'a Aabb) -> impl Iterator<Item = (u32, &'a Shape)> + 'a {
        self.children_with_bounds()
            .filter(move |(_, _, b)| b.intersects_aabb(aabb))
            .map(|(i, c, _)| (i, c))
    }

    /// Every child with its index and bounds.
    pub(crate) fn children_with_bounds(&self) -> impl Iterator<Item = (u32, &Shape, &Aabb)> {
        self.children
            .iter()
            .zip(&self.bounds)
            .enumerate()
            .map(|(i, (c, b))| (i as u32, c, b))
    }
}

/// `child` placed by `pose` (rotating), checked ([`check_placed`]).
fn placed_child(child: &Shape, pose: &Transform) -> Result<Shape> {
    let placed = child.transformed(pose, true)?;
    check_placed(&placed)?;
    Ok(placed)
}

/// Checks a placed child: convex, valid, with finite bounds (a placement
/// may overflow, which leaves a number or the bounds not finite).
fn check_placed(child: &Shape) -> Result<()> {
    check_convex(child)?;
    child.validate()?;
    let b = child.bounding_aabb();
    if !b.is_finite() {
        return Err(Error::NonFinite("a compound's child after placement"));
    }
    Ok(())
}

/// Refuses a child that is not convex.
fn check_convex(child: &Shape) -> Result<()> {
    if child.surface().is_some() || matches!(child, Shape::Compound(_)) {
        return Err(Error::InvalidArgument(
            "a compound's child must be convex: not a mesh, height field or compound",
        ));
    }
    Ok(())
}

/// The compound as a shape, behind a new `Arc`.
///
/// ```
/// use collide::{Compound, Shape, Sphere, Transform, math::Vec3};
/// let one = Compound::new([(Shape::Sphere(Sphere::new(Vec3::ZERO, 1.0)), Transform::IDENTITY)])?;
/// assert!(matches!(Shape::from(one), Shape::Compound(_)));
/// # Ok::<(), collide::Error>(())
/// ```
impl From<Compound> for Shape {
    fn from(compound: Compound) -> Shape {
        Shape::Compound(std::sync::Arc::new(compound))
    }
}

/// The support mapping of the children's union (its convex hull): what
/// GJK sees of a compound. The compound's own queries never use it; they
/// take it child by child.
impl Support for Compound {
    #[inline]
    fn center(&self) -> Vec3 {
        self.aabb.center()
    }
    #[inline]
    fn core_support(&self, direction: Vec3) -> Vec3 {
        self.children
            .iter()
            .map(|c| c.support(direction))
            .max_by(|p, q| p.dot(direction).total_cmp(&q.dot(direction)))
            .unwrap_or(self.aabb.center())
    }
    #[inline]
    fn bounding_radius(&self) -> f32 {
        self.aabb.half_extents().length()
    }
}
