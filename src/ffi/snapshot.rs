//! Snapshots from C: `phys_world_save` into a caller buffer,
//! `phys_world_load` into a new world, `phys_world_state_hash`.
//!
//! A C snapshot is the world's snapshot ([`World::save`]) after an 8-byte
//! header: `"CLDC"` and the world's handle salt (little-endian), so that a
//! loaded world accepts the saved world's handles, naming the same
//! colliders.

use crate::error::Error;
use crate::ffi::error::{guard, Failure, PhysStatus};
use crate::ffi::query::fill;
use crate::ffi::world::{copy_in, world_ref, Out, PhysWorld};
use crate::world::World;

/// The first bytes of a C snapshot.
const MAGIC: [u8; 4] = *b"CLDC";

/// Writes the world's snapshot into `out` (`capacity` bytes) with the
/// `*_into` conventions of `phys_overlap_box`: `*written` and `*total` get
/// its size; with `PHYS_ERROR_BUFFER_TOO_SMALL` only `*total` (call with
/// `capacity` 0 and `out` NULL to learn the size). `phys_world_load` makes
/// the same world of the bytes: the same handles, user data and filters,
/// every query answering bit for bit as this world does.
///
/// # Safety
/// The pointer contract at the top of collide.h; `out` holds `capacity`
/// writable bytes.
#[no_mangle]
pub unsafe extern "C" fn phys_world_save(
    world: *const PhysWorld,
    out: *mut u8,
    capacity: usize,
    written: *mut usize,
    total: *mut usize,
) -> PhysStatus {
    guard(|| {
        let world = world_ref(world)?;
        let mut bytes = MAGIC.to_vec();
        bytes.extend_from_slice(&world.salt.to_le_bytes());
        world.world.append_snapshot(&mut bytes);
        fill(&bytes, |b| b, out, capacity, written, total)
    })
}

/// Creates in `*out` the world `phys_world_save` wrote into the `size`
/// bytes at `bytes`; free it with `phys_world_destroy`. The bytes are
/// checked: anything but a whole snapshot (truncated, altered, another
/// format) is `PHYS_ERROR_INVALID_ARGUMENT` (or the error of a collider it
/// describes), nothing created.
///
/// # Safety
/// The pointer contract at the top of collide.h; `bytes` holds `size`
/// readable bytes.
#[no_mangle]
pub unsafe extern "C" fn phys_world_load(bytes: *const u8, size: usize, out: *mut *mut PhysWorld) -> PhysStatus {
    guard(|| {
        let out = Out::new(out, "out")?;
        let bytes = copy_in(bytes, size, "bytes", |b| b)?;
        let not_ours = Error::InvalidArgument("not a collide C snapshot");
        let (header, snapshot) = bytes.split_first_chunk::<8>().ok_or(not_ours)?;
        let salt = u32::from_le_bytes([header[4], header[5], header[6], header[7]]);
        if header[..4] != MAGIC || salt % 2 != 0 {
            return Err(Failure::from(not_ours));
        }
        let world = World::load(snapshot)?;
        out.write(Box::into_raw(Box::new(PhysWorld::with_salt(world, salt))));
        Ok(())
    })
}

/// The world's state hash in `*out` (`World::state_hash`: a 64-bit hash of
/// its snapshot, the same on every machine for equal worlds), for
/// lock-step games to compare worlds.
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_world_state_hash(world: *const PhysWorld, out: *mut u64) -> PhysStatus {
    guard(|| {
        let out = Out::new(out, "out")?;
        let world = world_ref(world)?;
        out.write(world.world.state_hash());
        Ok(())
    })
}
