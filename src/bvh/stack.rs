//! The traversal stack of the tree walks.

use arrayvec::ArrayVec;

/// Traversal entries kept on the call stack. A walk pushes at most three
/// entries per level and the tree is about `log4 n` deep (12 levels for
/// ten million leaves), so 64 suffice in practice; a deeper walk spills to
/// the heap.
const INLINE_STACK: usize = 64;

/// A depth-first traversal stack on the call stack, spilling to the heap
/// only past [`INLINE_STACK`] entries. The inline part is an `ArrayVec`,
/// which leaves its storage uninitialised: a zeroed array of 64 entries
/// cost every cast a 512-byte `memset`.
pub(super) struct TraversalStack<T: Copy> {
    inline: ArrayVec<T, INLINE_STACK>,
    spill: Vec<T>,
}

impl<T: Copy> TraversalStack<T> {
    #[inline]
    pub(super) fn new() -> Self {
        Self {
            inline: ArrayVec::new(),
            spill: Vec::new(),
        }
    }

    #[inline]
    pub(super) fn push(&mut self, value: T) {
        if let Err(full) = self.inline.try_push(value) {
            self.spill.push(full.element());
        }
    }

    /// The last entry pushed on the call stack, or, once that is empty, one
    /// of the spilled ones: the walk's order only affects its speed, as every
    /// entry popped is tested against the best hit so far.
    #[inline]
    pub(super) fn pop(&mut self) -> Option<T> {
        self.inline.pop().or_else(|| self.spill.pop())
    }
}
