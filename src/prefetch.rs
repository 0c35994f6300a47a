//! A cache prefetch hint: the tree walks and the batch updates are bound by
//! memory latency, not arithmetic, and ask for what they will read next
//! before they read it.

/// Asks the CPU to start loading every cache line of `value`, so that it is
/// in cache when it is used. A hint only: it reads nothing, has no effect on
/// results, and compiles to nothing off x86-64.
#[inline(always)]
pub(crate) fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        const LINE: usize = 64;
        let first = (value as *const T).cast::<i8>();
        let size = core::mem::size_of::<T>();
        // Every line the bytes `first .. first + size` touch: one address
        // per 64 bytes from the first byte, and the last byte's.
        let mut offset = 0;
        while offset < size {
            // SAFETY: a prefetch never faults and reads nothing; `offset` is
            // below `size`, so `first + offset` lies inside `value`, a live
            // reference.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(first.add(offset)) };
            offset += LINE;
        }
        if size > 0 {
            // SAFETY: as above; `size − 1` is the last byte of `value`.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(first.add(size - 1)) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}
