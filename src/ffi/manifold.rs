//! Contact manifolds over the C ABI: [`PhysManifold`] (up to four points
//! with one normal, a depth and a feature id each) for two colliders
//! (`phys_contact_manifold`), two shapes without a world
//! (`phys_shape_manifold`), and every current pair
//! (`phys_world_contact_manifolds`, into a caller buffer).

use crate::ffi::error::{guard, PhysStatus};
use crate::ffi::query::fill;
use crate::ffi::shape::{check_pair, shape_of, PhysShape};
use crate::ffi::types::{PhysCollider, PhysPair, PhysVec3};
use crate::ffi::world::{world_mut, world_ref, Out, PhysWorld};
use crate::query::{ContactManifold, ManifoldPoint, MAX_MANIFOLD_POINTS};

/// The most points a [`PhysManifold`] holds.
pub const PHYS_MANIFOLD_MAX_POINTS: usize = 4;
const _: () = assert!(PHYS_MANIFOLD_MAX_POINTS == MAX_MANIFOLD_POINTS);

/// One point of a [`PhysManifold`] (32 bytes).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct PhysManifoldPoint {
    /// The point on the first shape's surface.
    pub point_a: PhysVec3,
    /// The point on the second shape's surface: `point_a − depth·normal`.
    pub point_b: PhysVec3,
    /// How far the shapes overlap at this point along the normal, >= 0.
    pub depth: f32,
    /// Which features made the point: the same from one step to the next
    /// while the shapes touch by the same features (for warm starting).
    pub id: u32,
}

/// Up to four contact points of two shapes with their common normal
/// (152 bytes): `points[0..count]` are set.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct PhysManifold {
    /// Unit direction from the first shape to the second.
    pub normal: PhysVec3,
    /// How many of `points` are set, 1 to 4.
    pub count: u32,
    /// The points.
    pub points: [PhysManifoldPoint; PHYS_MANIFOLD_MAX_POINTS],
    /// Which part of each shape decided the answer: a compound's child
    /// index, a mesh's or height field's triangle index; 0 for any other
    /// shape.
    pub sub_shapes: [u32; 2],
}

/// A current pair and its manifold (184 bytes).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct PhysPairManifold {
    /// The pair, as `phys_find_pairs` reports it.
    pub pair: PhysPair,
    /// Its manifold, from `pair.a` to `pair.b`.
    pub manifold: PhysManifold,
}

impl From<ManifoldPoint> for PhysManifoldPoint {
    #[inline]
    fn from(p: ManifoldPoint) -> Self {
        Self {
            point_a: p.point_a.into(),
            point_b: p.point_b.into(),
            depth: p.depth,
            id: p.id,
        }
    }
}

impl From<ContactManifold> for PhysManifold {
    fn from(m: ContactManifold) -> Self {
        let mut out = Self {
            normal: m.normal.into(),
            count: m.points().len() as u32,
            sub_shapes: m.sub_shapes,
            ..Self::default()
        };
        for (slot, p) in out.points.iter_mut().zip(m.points()) {
            *slot = (*p).into();
        }
        out
    }
}

/// Whether colliders `a` and `b` touch (`*out_touching`) and, if so, their
/// contact manifold in `*out` (left alone when they are apart):
/// `World::contact_manifold`. `PHYS_ERROR_STALE_HANDLE` when either handle
/// names no live collider.
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_contact_manifold(
    world: *const PhysWorld,
    a: PhysCollider,
    b: PhysCollider,
    out_touching: *mut bool,
    out: *mut PhysManifold,
) -> PhysStatus {
    guard(|| {
        let out_touching = Out::new(out_touching, "out_touching")?;
        let out = Out::new(out, "out")?;
        let world = world_ref(world)?;
        let manifold = world.world.contact_manifold(world.key_of(a)?, world.key_of(b)?)?;
        out.write_some(out_touching, manifold.map(PhysManifold::from));
        Ok(())
    })
}

/// Whether two shapes (no world) touch (`*out_touching`) and, if so, their
/// contact manifold in `*out`: `Shape::contact_manifold`. Two meshes or
/// height fields are refused (`PHYS_ERROR_INVALID_ARGUMENT`).
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_shape_manifold(
    a: *const PhysShape,
    b: *const PhysShape,
    out_touching: *mut bool,
    out: *mut PhysManifold,
) -> PhysStatus {
    guard(|| {
        let (a, b) = (shape_of(a, "a")?, shape_of(b, "b")?);
        let out_touching = Out::new(out_touching, "out_touching")?;
        let out = Out::new(out, "out")?;
        check_pair(&a, &b)?;
        out.write_some(out_touching, a.contact_manifold(&b).map(PhysManifold::from));
        Ok(())
    })
}

/// The contact manifold of every current pair whose shapes touch
/// (`World::contact_manifolds`: the pairs of `phys_find_pairs`, in their
/// order), into a caller buffer with the `*_into` conventions. Needs
/// exclusive access (it updates the pairs).
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_world_contact_manifolds(
    world: *mut PhysWorld,
    out: *mut PhysPairManifold,
    capacity: usize,
    written: *mut usize,
    total: *mut usize,
) -> PhysStatus {
    guard(|| {
        let mut state = world_mut(world)?;
        let state = &mut *state;
        let salt = state.salt;
        state.world.contact_manifolds(&mut state.manifold_scratch);
        fill(
            &state.manifold_scratch,
            |(pair, manifold)| PhysPairManifold {
                pair: PhysPair::new(pair, salt),
                manifold: manifold.into(),
            },
            out,
            capacity,
            written,
            total,
        )
    })
}
