//! A cache prefetch hint: the tree walks and the batch updates are bound by
//! memory latency, not arithmetic, and ask for what they will read next
//! before they read it.

/// Data of more than this many bytes is asked for ahead of time by the
/// loops that visit it out of order (a batch update's records and tree
/// paths, a pair update's queries): less stays in a core's second-level
/// cache, where the requests cost more than they save. Beyond it, even
/// data that fits in the last-level cache gains: that cache answers in
/// tens of nanoseconds.
pub(crate) const CACHED_BYTES: usize = 512 << 10;

/// How many items ahead a loop over records scattered across memory (the
/// pair finders' candidates) asks for the ones it will read: enough to keep
/// several loads in flight.
pub(crate) const PREFETCH_AHEAD: usize = 8;

/// Calls `visit` on each of `items` in order, having first called `fetch`
/// (which asks for what an item will read, by [`prefetch`]) on the item
/// [`PREFETCH_AHEAD`] places further on: the loads of several items
/// overlap, where reading each item's records in turn would wait for each.
#[inline(always)]
pub(crate) fn for_each_fetching_ahead<T: Copy>(items: &[T], fetch: impl Fn(T), mut visit: impl FnMut(T)) {
    for (i, &item) in items.iter().enumerate() {
        if let Some(&ahead) = items.get(i + PREFETCH_AHEAD) {
            fetch(ahead);
        }
        visit(item);
    }
}

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
        if core::mem::align_of::<T>() % LINE == 0 {
            // A value aligned to a line starts one: a fixed number of lines,
            // which the compiler unrolls.
            for line in 0..size.div_ceil(LINE) {
                // SAFETY: a prefetch is a hint: it never faults, reads nothing
                // the program sees and writes nothing, whatever the address.
                unsafe { _mm_prefetch::<_MM_HINT_T0>(first.wrapping_add(line * LINE)) };
            }
            return;
        }
        // One address per line the bytes `first .. first + size` touch,
        // from the start of the first byte's line (wrapping arithmetic: the
        // line may start before `value`).
        let mut line = first.wrapping_sub(first as usize % LINE);
        while (line as usize) < first as usize + size {
            // SAFETY: as above, a prefetch is only a hint.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(line) };
            line = line.wrapping_add(LINE);
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}
