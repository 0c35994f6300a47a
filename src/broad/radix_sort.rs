//! Least-significant-digit radix sort by a `u64` key, for the pair lists
//! the broad phase sorts every frame (stable, O(n) per byte of key).

/// Sorts `items` by `key`, stably, using `scratch` as the second buffer
/// (its allocation is reused). Byte positions on which every key agrees are
/// skipped, so keys made of small slot indices cost a few passes.
pub fn sort_by_u64_key<T: Copy>(items: &mut Vec<T>, scratch: &mut Vec<T>, key: impl Fn(&T) -> u64) {
    if items.len() < 64 {
        items.sort_by_key(&key);
        return;
    }
    let (all_ones, all_zeros) = items
        .iter()
        .fold((u64::MAX, 0u64), |(and, or), item| (and & key(item), or | key(item)));
    // Bits that differ between keys; a byte with none needs no pass.
    let varying = all_ones ^ all_zeros;
    for byte in 0..8 {
        let shift = byte * 8;
        if (varying >> shift) & 0xFF == 0 {
            continue;
        }
        let mut offsets = [0usize; 256];
        for item in items.iter() {
            offsets[((key(item) >> shift) & 0xFF) as usize] += 1;
        }
        let mut total = 0;
        for slot in offsets.iter_mut() {
            let count = *slot;
            *slot = total;
            total += count;
        }
        scratch.clear();
        scratch.resize(items.len(), items[0]);
        for item in items.iter() {
            let digit = ((key(item) >> shift) & 0xFF) as usize;
            scratch[offsets[digit]] = *item;
            offsets[digit] += 1;
        }
        core::mem::swap(items, scratch);
    }
}

#[cfg(test)]
mod tests {
    use super::sort_by_u64_key;

    /// Agrees with the standard library's stable sort on keys with few and
    /// many varying bytes, and keeps equal keys in order.
    #[test]
    fn sorts_like_the_standard_sort() {
        let mut state = 0x1234_5678_9ABC_DEF0u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for (len, mask) in [(10, u64::MAX), (1000, 0xFFFF_0000_FFFF), (5000, u64::MAX), (3000, 0x3)] {
            let mut items: Vec<(u64, usize)> = (0..len).map(|i| (next() & mask, i)).collect();
            let mut expected = items.clone();
            expected.sort_by_key(|x| x.0);
            let mut scratch = Vec::new();
            sort_by_u64_key(&mut items, &mut scratch, |x| x.0);
            assert_eq!(items, expected);
        }
    }
}
