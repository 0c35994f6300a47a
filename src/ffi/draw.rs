//! Debug drawing from C: a struct of function pointers (`PhysDebugDraw`,
//! Box2D's `b2DebugDraw` in shape) that `phys_world_debug_draw` calls with
//! the world's lines; only `line` is required, every other primitive falls
//! back to lines when its pointer is NULL.

use core::ffi::{c_char, c_void};
use std::ffi::CString;

use crate::collider::ColliderKey;
use crate::debug_draw::{debug_draw_hit, Color, DebugDraw, DebugDrawOptions};
use crate::error::Error;
use crate::ffi::error::{guard, PhysStatus};
use crate::ffi::types::*;
use crate::ffi::world::{read_in, world_ref, PhysWorld};
use crate::math::{Quat, Vec3};
use crate::world::Hit;

/// `phys_world_debug_draw` flag: every collider's shape.
pub const PHYS_DEBUG_DRAW_SHAPES: u32 = 1;
/// `phys_world_debug_draw` flag: every collider's bounding box.
pub const PHYS_DEBUG_DRAW_BOUNDS: u32 = 2;
/// `phys_world_debug_draw` flag: the tree's inner nodes.
pub const PHYS_DEBUG_DRAW_TREE: u32 = 4;
/// `phys_world_debug_draw` flag: the contacts of the pairs the last
/// `phys_find_pairs[_into]` found.
pub const PHYS_DEBUG_DRAW_CONTACTS: u32 = 8;
/// Every `PHYS_DEBUG_DRAW_*` flag.
pub const PHYS_DEBUG_DRAW_ALL: u32 =
    PHYS_DEBUG_DRAW_SHAPES | PHYS_DEBUG_DRAW_BOUNDS | PHYS_DEBUG_DRAW_TREE | PHYS_DEBUG_DRAW_CONTACTS;

/// What a game draws with: its context and its primitives, colors as
/// `0xRRGGBBAA`. `line` is required; a NULL primitive is drawn as lines (and
/// NULL `text` draws nothing). The callbacks must not unwind into collide;
/// they may run read-only calls on the world being drawn.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct PhysDebugDraw {
    /// Passed to every callback.
    pub ctx: *mut c_void,
    /// A line from `a` to `b`. Required.
    pub line: Option<unsafe extern "C" fn(ctx: *mut c_void, a: PhysVec3, b: PhysVec3, color: u32)>,
    /// A triangle's outline, or NULL.
    pub triangle: Option<unsafe extern "C" fn(ctx: *mut c_void, a: PhysVec3, b: PhysVec3, c: PhysVec3, color: u32)>,
    /// An oriented box (an axis-aligned one has the identity rotation), or
    /// NULL.
    pub oriented_box: Option<
        unsafe extern "C" fn(
            ctx: *mut c_void,
            center: PhysVec3,
            rotation: PhysQuat,
            half_extents: PhysVec3,
            color: u32,
        ),
    >,
    /// A sphere, or NULL.
    pub sphere: Option<unsafe extern "C" fn(ctx: *mut c_void, center: PhysVec3, radius: f32, color: u32)>,
    /// A capsule around the segment `a`–`b`, or NULL.
    pub capsule: Option<unsafe extern "C" fn(ctx: *mut c_void, a: PhysVec3, b: PhysVec3, radius: f32, color: u32)>,
    /// A point `size` across, or NULL.
    pub point: Option<unsafe extern "C" fn(ctx: *mut c_void, p: PhysVec3, size: f32, color: u32)>,
    /// A label (NUL-terminated, valid during the call), or NULL.
    pub text: Option<unsafe extern "C" fn(ctx: *mut c_void, at: PhysVec3, text: *const c_char, color: u32)>,
}

/// A `PhysDebugDraw` as a [`DebugDraw`]: each primitive through its
/// pointer, or the trait's lines when it is NULL.
struct Callbacks {
    draw: PhysDebugDraw,
    line: unsafe extern "C" fn(*mut c_void, PhysVec3, PhysVec3, u32),
}

// SAFETY (every call below): the pointers come from the caller's
// `PhysDebugDraw`, whose contract (collide.h) is that each non-NULL one is a
// function of that signature, callable with `ctx` for the whole call.
impl DebugDraw for Callbacks {
    fn line(&mut self, a: Vec3, b: Vec3, color: Color) {
        // SAFETY: see above.
        unsafe { (self.line)(self.draw.ctx, a.into(), b.into(), color.0) }
    }

    fn triangle(&mut self, a: Vec3, b: Vec3, c: Vec3, color: Color) {
        match self.draw.triangle {
            // SAFETY: see above.
            Some(f) => unsafe { f(self.draw.ctx, a.into(), b.into(), c.into(), color.0) },
            None => Fallback(self).triangle(a, b, c, color),
        }
    }

    fn oriented_box(&mut self, center: Vec3, rotation: Quat, half_extents: Vec3, color: Color) {
        match self.draw.oriented_box {
            // SAFETY: see above.
            Some(f) => unsafe {
                f(
                    self.draw.ctx,
                    center.into(),
                    rotation.into(),
                    half_extents.into(),
                    color.0,
                )
            },
            None => Fallback(self).oriented_box(center, rotation, half_extents, color),
        }
    }

    fn aabb(&mut self, min: Vec3, max: Vec3, color: Color) {
        match self.draw.oriented_box {
            // SAFETY: see above.
            Some(f) => unsafe {
                let (center, half) = ((min + max) * 0.5, (max - min) * 0.5);
                f(
                    self.draw.ctx,
                    center.into(),
                    Quat::IDENTITY.into(),
                    half.into(),
                    color.0,
                )
            },
            None => Fallback(self).aabb(min, max, color),
        }
    }

    fn sphere(&mut self, center: Vec3, radius: f32, color: Color) {
        match self.draw.sphere {
            // SAFETY: see above.
            Some(f) => unsafe { f(self.draw.ctx, center.into(), radius, color.0) },
            None => Fallback(self).sphere(center, radius, color),
        }
    }

    fn capsule(&mut self, a: Vec3, b: Vec3, radius: f32, color: Color) {
        match self.draw.capsule {
            // SAFETY: see above.
            Some(f) => unsafe { f(self.draw.ctx, a.into(), b.into(), radius, color.0) },
            None => Fallback(self).capsule(a, b, radius, color),
        }
    }

    fn point(&mut self, p: Vec3, size: f32, color: Color) {
        match self.draw.point {
            // SAFETY: see above.
            Some(f) => unsafe { f(self.draw.ctx, p.into(), size, color.0) },
            None => Fallback(self).point(p, size, color),
        }
    }

    fn text(&mut self, at: Vec3, text: &str, color: Color) {
        if let (Some(f), Ok(text)) = (self.draw.text, CString::new(text)) {
            // SAFETY: see above; `text` outlives the call.
            unsafe { f(self.draw.ctx, at.into(), text.as_ptr(), color.0) }
        }
    }
}

/// The trait's own line drawings of the primitives, through `line`.
struct Fallback<'a>(&'a mut Callbacks);

impl DebugDraw for Fallback<'_> {
    fn line(&mut self, a: Vec3, b: Vec3, color: Color) {
        self.0.line(a, b, color);
    }
}

/// Reads a `PhysDebugDraw`, whose `line` must not be NULL.
fn callbacks(draw: *const PhysDebugDraw) -> Result<Callbacks, crate::ffi::error::Failure> {
    let draw = read_in(draw, "draw")?;
    let line = draw.line.ok_or(Error::InvalidArgument("draw->line is NULL"))?;
    Ok(Callbacks { draw, line })
}

/// Draws the world through `draw`: what `flags` (`PHYS_DEBUG_DRAW_*`, or'ed)
/// asks for. Reads the world only.
/// `PHYS_ERROR_INVALID_ARGUMENT` for a NULL `draw->line` or unknown flags.
///
/// # Safety
/// The pointer contract at the top of collide.h; every non-NULL function
/// pointer of `*draw` has its declared signature.
#[no_mangle]
pub unsafe extern "C" fn phys_world_debug_draw(
    world: *const PhysWorld,
    draw: *const PhysDebugDraw,
    flags: u32,
) -> PhysStatus {
    guard(|| {
        let mut callbacks = callbacks(draw)?;
        if flags & !PHYS_DEBUG_DRAW_ALL != 0 {
            return Err(Error::InvalidArgument("unknown debug draw flag bits").into());
        }
        let world = world_ref(world)?;
        let options = DebugDrawOptions {
            shapes: flags & PHYS_DEBUG_DRAW_SHAPES != 0,
            bounds: flags & PHYS_DEBUG_DRAW_BOUNDS != 0,
            tree: flags & PHYS_DEBUG_DRAW_TREE != 0,
            contacts: flags & PHYS_DEBUG_DRAW_CONTACTS != 0,
        };
        world.world.debug_draw(&mut callbacks, &options);
        Ok(())
    })
}

/// Draws a cast's hit through `draw`: its point and its normal.
///
/// # Safety
/// As `phys_world_debug_draw`.
#[no_mangle]
pub unsafe extern "C" fn phys_debug_draw_hit(hit: *const PhysHit, draw: *const PhysDebugDraw) -> PhysStatus {
    guard(|| {
        let mut callbacks = callbacks(draw)?;
        let hit = read_in(hit, "hit")?;
        let (point, normal): (Vec3, Vec3) = (hit.point.into(), hit.normal.into());
        if !(point.is_finite() && normal.is_finite()) {
            return Err(Error::NonFinite("hit").into());
        }
        let hit = Hit {
            collider: ColliderKey::default(),
            user_data: hit.user_data,
            t: hit.t,
            point,
            normal,
            sub_shape: hit.sub_shape,
        };
        debug_draw_hit(&mut callbacks, &hit);
        Ok(())
    })
}
