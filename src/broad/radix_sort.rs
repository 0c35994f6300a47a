//! Least-significant-digit radix sort by a `u64` key, for the pair lists
//! the broad phase sorts every frame (stable, O(n) per digit of key).
//!
//! The passes move 16-byte `(key, position)` records, not the items, and
//! the items are gathered once at the end: a pair record is 32 to 48 bytes,
//! and every pass scatters what it moves across memory. Digits are 11 bits
//! (2,048 counters, which stay in the first-level cache) and start only at
//! bits where the keys differ, so a key made of two slot indices below 2¹⁷
//! costs four passes.

/// Bits per digit.
const DIGIT_BITS: u32 = 11;

/// The reused buffers of [`sort_by_u64_key`].
#[derive(Debug, Clone)]
pub struct SortScratch<T> {
    items: Vec<T>,
    records: Vec<(u64, u32)>,
    records_scratch: Vec<(u64, u32)>,
}

impl<T> Default for SortScratch<T> {
    fn default() -> Self {
        Self {
            items: Vec::new(),
            records: Vec::new(),
            records_scratch: Vec::new(),
        }
    }
}

impl<T> SortScratch<T> {
    /// Bytes held by the buffers (capacities).
    pub fn memory_bytes(&self) -> usize {
        self.items.capacity() * core::mem::size_of::<T>()
            + (self.records.capacity() + self.records_scratch.capacity()) * core::mem::size_of::<(u64, u32)>()
    }
}

/// Sorts `items` by `key`, stably, with the buffers of `scratch` (their
/// allocations are reused from call to call).
pub fn sort_by_u64_key<T: Copy>(items: &mut Vec<T>, scratch: &mut SortScratch<T>, key: impl Fn(&T) -> u64) {
    if items.len() < 64 {
        items.sort_by_key(&key);
        return;
    }
    let SortScratch {
        items: gathered,
        records,
        records_scratch,
    } = scratch;
    records.clear();
    records.extend(items.iter().enumerate().map(|(i, item)| (key(item), i as u32)));
    let (all_ones, all_zeros) = records
        .iter()
        .fold((u64::MAX, 0u64), |(and, or), &(k, _)| (and & k, or | k));
    // Bits that differ between keys: the digits cover only those.
    let mut varying = all_ones ^ all_zeros;
    let mut sorted_any = false;
    while varying != 0 {
        let shift = varying.trailing_zeros();
        let mask = (1u64 << DIGIT_BITS) - 1;
        let mut offsets = [0u32; 1 << DIGIT_BITS];
        for &(k, _) in records.iter() {
            offsets[((k >> shift) & mask) as usize] += 1;
        }
        let mut total = 0;
        for slot in offsets.iter_mut() {
            let count = *slot;
            *slot = total;
            total += count;
        }
        records_scratch.clear();
        records_scratch.resize(records.len(), (0, 0));
        for &record in records.iter() {
            let digit = ((record.0 >> shift) & mask) as usize;
            records_scratch[offsets[digit] as usize] = record;
            offsets[digit] += 1;
        }
        core::mem::swap(records, records_scratch);
        sorted_any = true;
        varying &= !(mask << shift);
    }
    if !sorted_any {
        return;
    }
    gathered.clear();
    gathered.extend(records.iter().map(|&(_, i)| items[i as usize]));
    core::mem::swap(items, gathered);
}

#[cfg(test)]
mod tests {
    use super::{sort_by_u64_key, SortScratch};

    /// Agrees with the standard library's stable sort on keys with few and
    /// many varying bits (digits straddling varying and constant bits, the
    /// top digit cut short at bit 63), and keeps equal keys in order.
    #[test]
    fn sorts_like_the_standard_sort() {
        let mut state = 0x1234_5678_9ABC_DEF0u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let cases = [
            (10, u64::MAX),
            (1000, 0xFFFF_0000_FFFF),
            (5000, u64::MAX),
            (3000, 0x3),
            (3000, 0x1_FFFF_0001_FFFF),
            (2000, 0x8000_0000_0000_0001),
            (500, 0),
        ];
        let mut scratch = SortScratch::default();
        for (len, mask) in cases {
            let mut items: Vec<(u64, usize)> = (0..len).map(|i| (next() & mask, i)).collect();
            let mut expected = items.clone();
            expected.sort_by_key(|x| x.0);
            sort_by_u64_key(&mut items, &mut scratch, |x| x.0);
            assert_eq!(items, expected, "{len} keys under mask {mask:#x}");
        }
    }
}
