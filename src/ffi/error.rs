//! Status codes, the panic boundary and the per-thread last-error message.

use core::ffi::c_char;
use std::cell::RefCell;
use std::ffi::CString;
use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::error::Error;

/// The result of every fallible `phys_*` function. `PHYS_OK` is 0; every
/// other value names one class of failure, after which the world is
/// unchanged and no output was written.
#[allow(non_camel_case_types)]
#[repr(u32)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PhysStatus {
    /// Success.
    PHYS_OK = 0,
    /// A required pointer was NULL.
    PHYS_ERROR_NULL_POINTER = 1,
    /// A coordinate, radius, scale or rotation was NaN or infinite.
    PHYS_ERROR_NON_FINITE = 2,
    /// A box had min > max on some axis.
    PHYS_ERROR_INVERTED_BOX = 3,
    /// A radius was negative.
    PHYS_ERROR_NEGATIVE_RADIUS = 4,
    /// The collider handle was {0}, removed, or never of this world.
    PHYS_ERROR_STALE_HANDLE = 5,
    /// Anything else malformed: unknown flag bits, a rotation that is not a
    /// unit quaternion, an unknown status code.
    PHYS_ERROR_INVALID_ARGUMENT = 6,
    /// The caller's buffer is too small; `*total` says how many are needed.
    PHYS_ERROR_BUFFER_TOO_SMALL = 7,
    /// The world holds as many colliders as it can.
    PHYS_ERROR_CAPACITY_EXCEEDED = 8,
    /// collide panicked (a bug): the panic was caught at the boundary.
    PHYS_ERROR_PANIC = 9,
    /// A buffer sized by the caller's count could not be allocated; nothing
    /// was read from the caller's arrays.
    PHYS_ERROR_OUT_OF_MEMORY = 10,
    /// Another call was running on the same world: a mutation while any
    /// other call runs (on another thread, or the call whose pair callback
    /// this is), or a read-only call while a mutation runs. The header's
    /// thread rules forbid it; the world is unchanged.
    PHYS_ERROR_WORLD_BUSY = 11,
}

/// Every status, in code order.
pub(crate) const ALL_STATUSES: [PhysStatus; 12] = [
    PhysStatus::PHYS_OK,
    PhysStatus::PHYS_ERROR_NULL_POINTER,
    PhysStatus::PHYS_ERROR_NON_FINITE,
    PhysStatus::PHYS_ERROR_INVERTED_BOX,
    PhysStatus::PHYS_ERROR_NEGATIVE_RADIUS,
    PhysStatus::PHYS_ERROR_STALE_HANDLE,
    PhysStatus::PHYS_ERROR_INVALID_ARGUMENT,
    PhysStatus::PHYS_ERROR_BUFFER_TOO_SMALL,
    PhysStatus::PHYS_ERROR_CAPACITY_EXCEEDED,
    PhysStatus::PHYS_ERROR_PANIC,
    PhysStatus::PHYS_ERROR_OUT_OF_MEMORY,
    PhysStatus::PHYS_ERROR_WORLD_BUSY,
];

impl PhysStatus {
    /// A static, NUL-terminated description.
    #[must_use]
    pub fn description(self) -> &'static core::ffi::CStr {
        match self {
            PhysStatus::PHYS_OK => c"success",
            PhysStatus::PHYS_ERROR_NULL_POINTER => c"a required pointer was NULL",
            PhysStatus::PHYS_ERROR_NON_FINITE => c"an input number was NaN or infinite",
            PhysStatus::PHYS_ERROR_INVERTED_BOX => c"a box had min > max",
            PhysStatus::PHYS_ERROR_NEGATIVE_RADIUS => c"a radius was negative",
            PhysStatus::PHYS_ERROR_STALE_HANDLE => c"the collider handle is null, removed or foreign",
            PhysStatus::PHYS_ERROR_INVALID_ARGUMENT => c"an argument was malformed",
            PhysStatus::PHYS_ERROR_BUFFER_TOO_SMALL => c"the output buffer is too small",
            PhysStatus::PHYS_ERROR_CAPACITY_EXCEEDED => c"the world is full",
            PhysStatus::PHYS_ERROR_PANIC => c"internal error: collide panicked",
            PhysStatus::PHYS_ERROR_OUT_OF_MEMORY => c"out of memory",
            PhysStatus::PHYS_ERROR_WORLD_BUSY => c"another call is running on the world",
        }
    }
}

/// Why an FFI call failed: an error of the safe API, or one only the
/// boundary can have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Failure {
    /// The safe API refused the call.
    Core(Error),
    /// A required pointer argument (named) was NULL.
    NullPointer(&'static str),
    /// The caller's buffer holds fewer than `needed` records.
    BufferTooSmall { needed: usize },
    /// Another call holds the world (see `PhysWorld`'s access count).
    WorldBusy,
}

impl From<Error> for Failure {
    fn from(e: Error) -> Self {
        Failure::Core(e)
    }
}

impl Failure {
    fn status(&self) -> PhysStatus {
        match self {
            Failure::NullPointer(_) => PhysStatus::PHYS_ERROR_NULL_POINTER,
            Failure::BufferTooSmall { .. } => PhysStatus::PHYS_ERROR_BUFFER_TOO_SMALL,
            Failure::WorldBusy => PhysStatus::PHYS_ERROR_WORLD_BUSY,
            Failure::Core(e) => match e {
                Error::NonFinite(_) => PhysStatus::PHYS_ERROR_NON_FINITE,
                Error::InvertedBox(_) => PhysStatus::PHYS_ERROR_INVERTED_BOX,
                Error::NegativeRadius => PhysStatus::PHYS_ERROR_NEGATIVE_RADIUS,
                Error::StaleHandle => PhysStatus::PHYS_ERROR_STALE_HANDLE,
                Error::InvalidArgument(_) => PhysStatus::PHYS_ERROR_INVALID_ARGUMENT,
                Error::CapacityExceeded => PhysStatus::PHYS_ERROR_CAPACITY_EXCEEDED,
                Error::OutOfMemory(_) => PhysStatus::PHYS_ERROR_OUT_OF_MEMORY,
            },
        }
    }

    fn message(&self) -> String {
        match self {
            Failure::Core(e) => e.to_string(),
            Failure::NullPointer(name) => format!("`{name}` is NULL"),
            Failure::BufferTooSmall { needed } => format!("the buffer is too small: {needed} records are needed"),
            Failure::WorldBusy => {
                "the world is busy: another call is running on it (a mutation needs the world alone, \
                 a read-only call needs no mutation running)"
                    .into()
            }
        }
    }
}

thread_local! {
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

fn set_last_error(message: String) {
    let message = CString::new(message.replace('\0', " ")).unwrap_or_default();
    LAST_ERROR.with(|last| *last.borrow_mut() = message);
}

/// The message of the last failure on this thread, valid until the next
/// failing `phys_*` call on this thread.
pub(crate) fn last_error_message() -> *const c_char {
    LAST_ERROR.with(|last| last.borrow().as_ptr())
}

/// Runs an FFI body: maps its error to a status (recording the message for
/// `phys_last_error_message`) and catches any panic, so none crosses into C.
/// Inlined into every `phys_*` shell, with the failure paths kept out of
/// line: the success path of a call made once per bullet stays short.
#[inline(always)]
pub(crate) fn guard(body: impl FnOnce() -> Result<(), Failure>) -> PhysStatus {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => PhysStatus::PHYS_OK,
        Ok(Err(failure)) => report_failure(failure),
        Err(payload) => report_panic(payload),
    }
}

/// Records a refused call's message and returns its status.
#[cold]
#[inline(never)]
fn report_failure(failure: Failure) -> PhysStatus {
    set_last_error(failure.message());
    failure.status()
}

/// Records a caught panic's message and returns `PHYS_ERROR_PANIC`.
#[cold]
#[inline(never)]
fn report_panic(payload: Box<dyn std::any::Any + Send>) -> PhysStatus {
    let what = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_default();
    set_last_error(format!("internal error: collide panicked: {what}"));
    PhysStatus::PHYS_ERROR_PANIC
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The current thread's last-error message.
    fn last_message() -> String {
        // SAFETY: `last_error_message` returns a valid NUL-terminated string
        // that lives until the next failure on this thread.
        unsafe { core::ffi::CStr::from_ptr(last_error_message()) }
            .to_str()
            .expect("messages are UTF-8")
            .to_owned()
    }

    #[test]
    fn guard_turns_a_panic_into_phys_error_panic_with_its_message() {
        // A formatted panic carries a `String` payload...
        assert_eq!(guard(|| panic!("boom {}", 42)), PhysStatus::PHYS_ERROR_PANIC);
        assert_eq!(last_message(), "internal error: collide panicked: boom 42");
        // ...a literal one a `&'static str`...
        assert_eq!(guard(|| panic!("static boom")), PhysStatus::PHYS_ERROR_PANIC);
        assert_eq!(last_message(), "internal error: collide panicked: static boom");
        // ...and any other payload still becomes a status, not an unwind into C.
        assert_eq!(guard(|| std::panic::panic_any(7_u32)), PhysStatus::PHYS_ERROR_PANIC);
        assert_eq!(last_message(), "internal error: collide panicked: ");

        // A success leaves the message alone; the next failure replaces it.
        assert_eq!(guard(|| Ok(())), PhysStatus::PHYS_OK);
        assert_eq!(last_message(), "internal error: collide panicked: ");
        assert_eq!(
            guard(|| Err(Failure::NullPointer("out"))),
            PhysStatus::PHYS_ERROR_NULL_POINTER
        );
        assert_eq!(last_message(), "`out` is NULL");
    }

    #[test]
    fn every_status_has_its_own_description() {
        for (code, status) in ALL_STATUSES.iter().enumerate() {
            assert_eq!(*status as usize, code, "statuses are numbered in order");
            let described = ALL_STATUSES.iter().filter(|s| s.description() == status.description());
            assert_eq!(described.count(), 1, "{status:?}'s description is unique");
        }
    }
}
