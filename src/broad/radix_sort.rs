//! Least-significant-digit radix sort by a `u64` key, for the pair lists
//! the broad phase sorts every frame (stable, O(n) per digit of key).
//!
//! The passes move 16-byte `(key, position)` records, not the items, and
//! the items are gathered once at the end, or read in order by the caller:
//! a pair record is 32 to 40 bytes, and every pass scatters what it moves
//! across memory. Digits cover only the bits where the keys differ, so a
//! key made of two slot indices below 2¹⁸ costs three passes of at most 12
//! bits (4,096 counters, which stay in the first-level cache); a short list
//! takes narrower digits, as many passes as make the least work
//! ([`digit_plan`]).

/// The widest digit: 4,096 counters, 16 KB, which stay in the first-level
/// cache.
const MAX_DIGIT_BITS: u32 = 12;

/// The work of one pass per record (counting it, then moving it), in
/// units of the work per counter (clearing it, then summing it): about 12
/// instructions against 4.
const RECORD_COST: usize = 3;

/// The reused buffers of [`sorted_order`]: `(key, position)` records, and
/// the counters of a digit.
#[derive(Debug, Clone, Default)]
pub struct OrderScratch {
    records: Vec<(u64, u32)>,
    records_scratch: Vec<(u64, u32)>,
    counts: Vec<u32>,
}

impl OrderScratch {
    /// Bytes held by the buffers (capacities).
    pub fn memory_bytes(&self) -> usize {
        (self.records.capacity() + self.records_scratch.capacity()) * core::mem::size_of::<(u64, u32)>()
            + self.counts.capacity() * 4
    }
}

/// The reused buffers of [`sort_by_u64_key`]: those of the order, and the
/// items gathered in it.
#[derive(Debug, Clone)]
pub struct SortScratch<T> {
    order: OrderScratch,
    items: Vec<T>,
}

impl<T> Default for SortScratch<T> {
    fn default() -> Self {
        Self {
            order: OrderScratch::default(),
            items: Vec::new(),
        }
    }
}

impl<T> SortScratch<T> {
    /// Bytes held by the buffers (capacities).
    pub fn memory_bytes(&self) -> usize {
        self.order.memory_bytes() + self.items.capacity() * core::mem::size_of::<T>()
    }
}

/// Sorts `items` by `key`, stably, with the buffers of `scratch` (their
/// allocations are reused from call to call): [`sorted_order`], then the
/// items gathered once in that order.
pub fn sort_by_u64_key<T: Copy>(items: &mut Vec<T>, scratch: &mut SortScratch<T>, key: impl Fn(&T) -> u64) {
    let SortScratch { order, items: gathered } = scratch;
    gathered.clear();
    gathered.extend(sorted_order(items, order, key).map(|i| items[i]));
    core::mem::swap(items, gathered);
}

/// The positions of `items` in increasing order of `key`, stably (equal
/// keys in their order in `items`), computed in the buffers of `scratch`:
/// for a caller that reads the items in that order once, where gathering
/// them would write a sorted copy first.
///
/// Only the bits where keys differ are sorted on. When they lie in two
/// runs (a pair key's two slot indices, each in its own half), the keys are
/// first packed to their varying bits, so two 14-bit indices take three
/// digits of 10 bits rather than four of 11.
pub fn sorted_order<'s, T>(
    items: &[T],
    scratch: &'s mut OrderScratch,
    key: impl Fn(&T) -> u64,
) -> impl DoubleEndedIterator<Item = usize> + ExactSizeIterator + 's {
    let OrderScratch {
        records,
        records_scratch,
        counts,
    } = scratch;
    records.clear();
    records.extend(items.iter().enumerate().map(|(i, item)| (key(item), i as u32)));
    // Ties broken by position: stable.
    sort_records(records, records_scratch, counts);
    records.iter().map(|&(_, i)| i as usize)
}

/// Sorts `(key, payload)` records by key, ties by payload, with the
/// buffers `records_scratch` and `counts` (their allocations reused from
/// call to call): for records that carry what a caller needs, where
/// [`sorted_order`] would sort positions into a second array. The keys are
/// left packed to the bits where they differ: in order, but not their
/// values.
pub fn sort_records<P: Copy + Ord + Default>(
    records: &mut Vec<(u64, P)>,
    records_scratch: &mut Vec<(u64, P)>,
    counts: &mut Vec<u32>,
) {
    if records.len() < 64 {
        records.sort_unstable();
    } else {
        radix_sort_records(records, records_scratch, counts);
    }
}

/// Sorts `(key, payload)` records by key, stably, least significant digit
/// first, on the bits where the keys differ (packed first when they form
/// two runs). The keys are left packed: in order, but not their values.
fn radix_sort_records<P: Copy + Default>(
    records: &mut Vec<(u64, P)>,
    records_scratch: &mut Vec<(u64, P)>,
    counts: &mut Vec<u32>,
) {
    let (all_ones, all_zeros) = records
        .iter()
        .fold((u64::MAX, 0u64), |(and, or), &(k, _)| (and & k, or | k));
    let varying = all_ones ^ all_zeros;
    if varying == 0 {
        return;
    }
    let low = varying.trailing_zeros();
    let low_width = (varying >> low).trailing_ones();
    let low_mask = u64::MAX >> (64 - low_width);
    let rest = varying & !(low_mask << low);
    let (shift, bits) = if rest != 0 && (rest >> rest.trailing_zeros()).trailing_ones() == rest.count_ones() {
        // Two runs: pack the high one down against the low one.
        let high = rest.trailing_zeros();
        let high_mask = rest >> high;
        for record in records.iter_mut() {
            record.0 = (record.0 >> low & low_mask) | (record.0 >> high & high_mask) << low_width;
        }
        (0, varying.count_ones())
    } else {
        // One run, or more: the span from the lowest varying bit to the
        // highest.
        (low, 64 - varying.leading_zeros() - low)
    };
    let (passes, digit_bits) = digit_plan(records.len(), bits);
    let mask = (1u64 << digit_bits) - 1;
    counts.resize(1 << digit_bits, 0);
    let offsets = &mut counts[..1 << digit_bits];
    records_scratch.resize(records.len(), (0, P::default()));
    for pass in 0..passes {
        let shift = shift + pass * digit_bits;
        offsets.fill(0);
        for &(k, _) in records.iter() {
            offsets[((k >> shift) & mask) as usize] += 1;
        }
        let mut total = 0;
        for slot in offsets.iter_mut() {
            let count = *slot;
            *slot = total;
            total += count;
        }
        for &record in records.iter() {
            let digit = ((record.0 >> shift) & mask) as usize;
            records_scratch[offsets[digit] as usize] = record;
            offsets[digit] += 1;
        }
        core::mem::swap(records, records_scratch);
    }
}

/// The passes and the digit width (at most [`MAX_DIGIT_BITS`]) that sort
/// `len` records on `bits` bits (at least one) with the least work: each
/// pass costs its records ([`RECORD_COST`] each) and its `2^digit`
/// counters, so a long list takes the widest digits and a short one more
/// passes of narrower digits (100 records on 20 bits: three passes of 7
/// bits, 128 counters each, rather than two of 10 bits and 1,024).
fn digit_plan(len: usize, bits: u32) -> (u32, u32) {
    let work = |passes: u32| {
        let digit = bits.div_ceil(passes);
        passes as usize * (RECORD_COST * len + (1usize << digit))
    };
    let fewest = bits.div_ceil(MAX_DIGIT_BITS);
    let passes = (fewest..=bits).min_by_key(|&p| work(p)).unwrap_or(fewest);
    (passes, bits.div_ceil(passes))
}

#[cfg(test)]
mod tests {
    use super::{digit_plan, sort_by_u64_key, sorted_order, OrderScratch, SortScratch};
    use crate::math::total_order_bits;

    /// Long lists take the widest digits, short ones narrower digits in
    /// more passes; every plan covers the bits within the widest digit.
    #[test]
    fn digit_plan_trades_passes_for_counters() {
        assert_eq!(digit_plan(1_000_000, 28), (3, 10));
        assert_eq!(digit_plan(100, 20), (3, 7));
        assert_eq!(digit_plan(64, 1), (1, 1));
        for len in [64, 100, 300, 1000, 10_000, 1 << 20] {
            for bits in 1..=64 {
                let (passes, digit) = digit_plan(len, bits);
                assert!(passes * digit >= bits && digit <= super::MAX_DIGIT_BITS, "{len} {bits}");
            }
        }
    }

    /// Integer order of `total_order_bits` is `f32::total_cmp`'s order.
    #[test]
    fn total_order_bits_sort_as_total_cmp() {
        let values = [
            f32::NEG_INFINITY,
            -f32::MAX,
            -1.5,
            -f32::MIN_POSITIVE,
            -0.0,
            0.0,
            f32::from_bits(1),
            1.0,
            f32::MAX,
            f32::INFINITY,
        ];
        for a in values {
            for b in values {
                assert_eq!(
                    total_order_bits(a).cmp(&total_order_bits(b)),
                    a.total_cmp(&b),
                    "{a} {b}"
                );
            }
        }
    }

    /// The order is the positions of the standard library's stable sort,
    /// below and above the length where the radix passes take over, with
    /// many equal keys (ties stay in their order).
    #[test]
    fn order_is_the_stable_sort_of_the_positions() {
        let mut scratch = OrderScratch::default();
        for len in [0, 1, 2, 63, 64, 65, 1000] {
            let keys: Vec<u64> = (0..len as u64).map(|i| (i * 7919 % 61) << 32 | (i * 31 % 5)).collect();
            let mut expected: Vec<usize> = (0..len).collect();
            expected.sort_by_key(|&i| keys[i]);
            let order: Vec<usize> = sorted_order(&keys, &mut scratch, |&k| k).collect();
            assert_eq!(order, expected, "{len} keys");
        }
    }

    /// Agrees with the standard library's stable sort on keys with few and
    /// many varying bits, in one run or several (packed before the passes),
    /// up to bit 63, and keeps equal keys in order.
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
            (3000, 0xFFFF_FFFF_FFFF),
            (3000, 0x0F00_F00F_000F_00F0),
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
