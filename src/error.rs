//! The one error type of the safe API.
//!
//! Each variant maps to exactly one `PhysStatus` of the C ABI
//! (`ffi::error`), so a C caller and a Rust caller see the same failure.

/// Why a call was refused. A refused call leaves the world unchanged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// An input coordinate, radius, scale or rotation was NaN or infinite.
    #[error("{0} is not finite (NaN or infinity)")]
    NonFinite(&'static str),
    /// A box had `min > max` on some axis (a zero-size box is allowed).
    #[error("box is inverted: min > max on the {0} axis")]
    InvertedBox(&'static str),
    /// A sphere or capsule radius was negative (zero is allowed).
    #[error("radius is negative")]
    NegativeRadius,
    /// The collider key names no live collider: it was removed, or never
    /// belonged to this world.
    #[error("collider handle is stale or null")]
    StaleHandle,
    /// The input is well-formed numbers but describes nothing usable:
    /// a rotation that is not a unit quaternion, three collinear points,
    /// an empty or non-convex polygon.
    #[error("invalid argument: {0}")]
    InvalidArgument(&'static str),
    /// The world holds as many colliders as its handles can name.
    #[error("the world is full: it holds as many colliders as its limit allows")]
    CapacityExceeded,
    /// A buffer whose size the caller decides (a batch, a hull's points, a
    /// mesh) could not be allocated.
    #[error("out of memory: {0} could not be allocated")]
    OutOfMemory(&'static str),
}

/// `Result` with collide's [`Error`].
pub type Result<T> = core::result::Result<T, Error>;
