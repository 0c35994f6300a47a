//! Incremental pair finding with the tree: the last call's pairs are kept,
//! minus those of colliders that changed since (Box2D's move buffer), plus
//! the pairs of the changed ones, found by one tree query per changed
//! collider when few changed, or by walking the tree against itself through
//! the subtrees that hold a changed collider when many did. The first call
//! walks the whole tree. Either way the tree yields candidates (pairs of
//! leaves whose boxes in the nodes overlap) without reading a leaf; the
//! leaves are read afterwards, in one loop that fetches ahead.

use crate::broad::radix_sort::{self, SortScratch};
use crate::broad::{Pair, Proxy};
use crate::bvh::{EveryLeaf, Liveness, Marked, PathPrefetch, LEAF_AHEAD};
use core::ops::ControlFlow;

use crate::broad::{overlapping_pair, trim_scratch};
use crate::bvh::Bvh;
use crate::collider::Colliders;
use crate::prefetch::{for_each_fetching_ahead, prefetch, CACHED_BYTES, PREFETCH_AHEAD};
use crate::threads::{on_own_copy, Threads};

/// Below one changed leaf in this many, [`PairCache::update`] queries the
/// tree once per changed leaf; above, it walks the tree against itself.
/// A query costs about a root-to-leaf path; the walk visits every node pair
/// above a changed leaf, which is most of the tree once a tenth of the
/// leaves moved at random.
const QUERY_SHARE: usize = 3;

/// With more than one thread, a pair update is cut into this many shares
/// per thread, handed out one at a time, so that shares of uneven cost
/// (a crowded corner of the tree beside an empty one) still keep every
/// thread busy.
const SHARES_PER_THREAD: usize = 4;

/// How many shares a pair update's work is cut into on `threads`: one on
/// the calling thread alone, else [`SHARES_PER_THREAD`] per thread.
fn wanted_shares(threads: Threads) -> usize {
    match threads.count() {
        1 => 1,
        n => n.saturating_mul(SHARES_PER_THREAD),
    }
}

/// The fewest changed leaves a pair update must query before the queries
/// are shared among threads (in runs of a quarter of them or more, but the
/// last run): below it the queries take less time than waking or spawning
/// the threads (BENCHMARKS.md, "All cores").
const PARALLEL_QUERIES: usize = 2048;

/// The fewest leaves a tree must have before the walk of it against itself
/// is shared among threads (see [`PARALLEL_QUERIES`]).
const PARALLEL_WALK_LEAVES: usize = 16_384;

/// The fewest fresh pairs a pair update must merge into its pair set before
/// the merge is shared among threads (see [`PARALLEL_QUERIES`]).
const PARALLEL_MERGE: usize = 16_384;

/// A shared walk has at most one share per this many leaves of the tree.
const LEAVES_PER_WALK_SHARE: usize = 1024;

/// A pair found by a call: its [`Pair::order_key`] and the proxies of its
/// colliders `a` and `b`. The pair itself is read from the two leaves when
/// it is merged into the pair set, so the sort moves these 16-byte records
/// in place: 32 bytes a pair with the sort's second buffer, where the
/// 40-byte pairs with their proxies, ordered through `(key, position)`
/// records, would take 72 (memory a first call, every pair fresh, touches
/// for the first time).
type FreshPair = (u64, (u32, u32));

/// A flag array is cleared by writing `false` over all of it when more than
/// one flag in this many is listed: a write per listed flag goes to a
/// random place, where the fill writes whole cache lines in order, dozens
/// of flags in the time of one random write.
const FILL_SHARE: usize = 32;

/// Clears the flags `listed` names in `flags` (every flag set is listed):
/// one by one, or, when many are listed, the whole array at once
/// ([`FILL_SHARE`]).
fn clear_flags(flags: &mut [bool], listed: &[u32]) {
    if listed.len().saturating_mul(FILL_SHARE) > flags.len() {
        flags.fill(false);
    } else {
        for &i in listed {
            flags[i as usize] = false;
        }
    }
}

/// Whether `proxy` is flagged in `changed` (proxies past its end never were).
#[inline]
fn is_flagged(changed: &[bool], proxy: u32) -> bool {
    changed.get(proxy as usize).copied().unwrap_or(false)
}

/// The pair set of the last call, and which leaves changed since.
#[derive(Debug, Default, Clone)]
pub struct PairCache {
    /// By proxy id: added, moved, reshaped, refiltered or removed since the
    /// last call.
    changed: Vec<bool>,
    /// The proxies flagged in `changed`, each once.
    changed_list: Vec<u32>,
    /// Reused buffers for sorting `changed_list` into tree order.
    changed_scratch: SortScratch<u32>,
    /// By node: whether a changed leaf lies below (rebuilt per call).
    dirty: Vec<bool>,
    /// The pairs, sorted, with their leaves' proxies alongside.
    pairs: Vec<Pair>,
    proxies: Vec<(u32, u32)>,
    /// Reused buffers of each share of the work (one without threads).
    shares: Vec<Share>,
    /// Reused buffer for the node pairs the walk is shared out by.
    roots: Vec<(u32, u32)>,
    /// Reused buffers for the pairs found by this call, and for their sort.
    fresh: Vec<FreshPair>,
    fresh_scratch: Vec<FreshPair>,
    fresh_counts: Vec<u32>,
}

impl PairCache {
    /// Bytes held by the cache's arrays (capacities).
    pub fn memory_bytes(&self) -> usize {
        use core::mem::size_of;
        self.changed.capacity()
            + self.changed_list.capacity() * 4
            + self.changed_scratch.memory_bytes()
            + self.dirty.capacity()
            + self.pairs.capacity() * size_of::<Pair>()
            + self.proxies.capacity() * 8
            + self.shares.iter().map(Share::memory_bytes).sum::<usize>()
            + self.roots.capacity() * 8
            + (self.fresh.capacity() + self.fresh_scratch.capacity()) * size_of::<FreshPair>()
            + self.fresh_counts.capacity() * 4
    }

    /// Flags a leaf as changed: its pairs are found anew at the next call.
    pub fn mark(&mut self, proxy: u32) {
        let i = proxy as usize;
        if i >= self.changed.len() {
            self.changed.resize(i + 1, false);
        }
        if !self.changed[i] {
            self.changed[i] = true;
            self.changed_list.push(proxy);
        }
    }

    /// The pairs the last [`PairCache::update`] found.
    pub fn last_pairs(&self) -> &[Pair] {
        &self.pairs
    }

    /// Every overlapping pair whose filters interact, `(a, b)` with `a < b`
    /// by key, sorted: the set of
    /// [`naive::for_each_pair`](crate::broad::naive::for_each_pair). The
    /// search for the changed leaves' pairs is shared among `threads`
    /// (each share finds its candidates and reads their leaves), and after
    /// a shared search so is the merge of many fresh pairs into the kept
    /// ones ([`merge_fresh`]); the sort runs on the calling thread. The
    /// answer is the same whatever the threads.
    pub fn update(&mut self, colliders: Colliders<'_>, threads: Threads) -> &[Pair] {
        let bvh = colliders.bvh;
        let changed = &self.changed;
        let is_changed = |proxy: u32| is_flagged(changed, proxy);
        let by_query = self.changed_list.len() * QUERY_SHARE < bvh.len();
        let worth_sharing = if by_query {
            self.changed_list.len() >= PARALLEL_QUERIES
        } else {
            bvh.len() >= PARALLEL_WALK_LEAVES
        };
        let threads = if worth_sharing { threads } else { Threads::CallingThread };
        let wanted = wanted_shares(threads);
        for share in &mut self.shares {
            share.candidates.clear();
        }
        // First the candidates, pairs of leaves whose boxes in the tree
        // overlap, at least one changed, found from the nodes alone; then
        // their leaves, read in one loop that fetches ahead.
        if by_query {
            // Few changed: one tree query per changed leaf (Box2D's move
            // buffer), in tree order so that consecutive queries share
            // their path's nodes. A pair of two changed leaves is taken
            // from the query of the smaller proxy.
            radix_sort::sort_by_u64_key(&mut self.changed_list, &mut self.changed_scratch, |&proxy| {
                u64::from(bvh.leaf(proxy).node())
            });
            let per_share = self.changed_list.len().div_ceil(wanted).max(PARALLEL_QUERIES / 4);
            let parts: Vec<&[u32]> = self.changed_list.chunks(per_share).collect();
            // In a tree beyond the caches, each query's leaf and the nodes
            // just above it, which the query enters, are asked for ahead of
            // its turn: they are misses, where the nodes above them are
            // shared by consecutive queries.
            let fetch_ahead = bvh.memory_bytes() > CACHED_BYTES;
            share_out(&mut self.shares, parts, threads, |share, part| {
                let mut paths = PathPrefetch::new();
                for (i, &pa) in part.iter().enumerate() {
                    if fetch_ahead {
                        paths.advance(bvh, i, part.len(), part.get(i + LEAF_AHEAD).copied());
                    }
                    if !bvh.is_live(pa) {
                        continue;
                    }
                    let la = bvh.leaf(pa);
                    bvh.query_proxies(&la.aabb, la.data.filter.mask, |pb| {
                        if pb != pa && !(is_changed(pb) && pb < pa) {
                            share.candidates.push((pa, pb));
                        }
                        ControlFlow::Continue(())
                    });
                }
                resolve_candidates(colliders, &share.candidates, &mut share.fresh);
            });
        } else {
            // Many changed: the tree against itself, entering only subtrees
            // with a changed leaf (all of them when every leaf changed: a
            // first call, a level load, asks nothing of the walk).
            // Never more shares than the work is worth, whatever the thread
            // count asked for.
            let wanted = wanted.min(bvh.len().div_ceil(LEAVES_PER_WALK_SHARE)).max(1);
            if bvh.is_every_leaf(&self.changed_list) {
                walk_tree(
                    colliders,
                    &EveryLeaf,
                    wanted,
                    threads,
                    &mut self.shares,
                    &mut self.roots,
                );
            } else {
                bvh.mark_dirty(&self.changed_list, &mut self.dirty);
                let live = Marked {
                    dirty: &self.dirty,
                    changed: is_changed,
                };
                walk_tree(colliders, &live, wanted, threads, &mut self.shares, &mut self.roots);
            }
        }
        gather_fresh(&mut self.shares, &mut self.fresh);
        radix_sort::sort_records(&mut self.fresh, &mut self.fresh_scratch, &mut self.fresh_counts);
        merge_fresh(
            &mut self.pairs,
            &mut self.proxies,
            &self.changed,
            &self.fresh,
            bvh,
            threads,
        );

        // The pair set stays; the list of changes and the search's buffers
        // keep room for about what this call needed (the pair cache is
        // sized by its pairs, not by a level load's changes or a first
        // call's search).
        let changes = self.changed_list.len();
        clear_flags(&mut self.changed, &self.changed_list);
        self.changed_list.clear();
        trim_scratch(&mut self.changed_list, changes);
        let used = self.fresh.len();
        trim_scratch(&mut self.fresh, used);
        trim_scratch(&mut self.fresh_scratch, used);
        for share in &mut self.shares {
            let candidates = share.candidates.len();
            trim_scratch(&mut share.candidates, candidates);
            // Gathered into `fresh` (or swapped with it, and then holding
            // the last call's pairs): room for what this call found.
            share.fresh.clear();
            trim_scratch(&mut share.fresh, used);
        }
        &self.pairs
    }
}

/// One share of a pair update's search: its candidates (pairs of leaves
/// whose boxes in the tree overlap) and the pairs found among them.
#[derive(Debug, Default, Clone)]
struct Share {
    candidates: Vec<(u32, u32)>,
    fresh: Vec<FreshPair>,
}

impl Share {
    fn memory_bytes(&self) -> usize {
        self.candidates.capacity() * 8 + self.fresh.capacity() * core::mem::size_of::<FreshPair>()
    }
}

/// The candidates of the walk of the tree against itself through the live
/// subtrees, and the pairs among them, into `shares`: shared out by the node
/// pairs the walk starts from (the leaf pairs met on the way to them go to
/// the first share), about `wanted` of them, over `threads`.
fn walk_tree(
    colliders: Colliders<'_>,
    live: &impl Liveness,
    wanted: usize,
    threads: Threads,
    shares: &mut Vec<Share>,
    roots: &mut Vec<(u32, u32)>,
) {
    let bvh = colliders.bvh;
    if shares.is_empty() {
        shares.push(Share::default());
    }
    let first = &mut shares[0].candidates;
    bvh.overlapping_pair_roots(wanted, live, roots, |pa, pb| first.push((pa, pb)));
    let mut parts: Vec<&[(u32, u32)]> = roots.chunks(roots.len().div_ceil(wanted).max(1)).collect();
    if parts.is_empty() {
        // No node pair left: the first share still has its leaf pairs to read.
        parts.push(&[]);
    }
    share_out(shares, parts, threads, |share, part| {
        bvh.overlapping_pairs_below(part, live, |pa, pb| share.candidates.push((pa, pb)));
        resolve_candidates(colliders, &share.candidates, &mut share.fresh);
    });
}

/// Runs `job` on each part with a share of its own (`shares` fitted to
/// the parts' count; a share's candidates are kept, its fresh pairs
/// replaced), spread over `threads`.
fn share_out<P: Send>(shares: &mut Vec<Share>, parts: Vec<P>, threads: Threads, job: impl Fn(&mut Share, P) + Sync) {
    // As many shares as parts (at least the first, which may hold leaf
    // pairs already): a share left over from a call with more threads
    // would keep its buffers.
    shares.resize_with(parts.len().max(1), Share::default);
    for share in shares.iter_mut() {
        share.fresh.clear();
    }
    let work: Vec<(&mut Share, P)> = shares.iter_mut().zip(parts).collect();
    threads.for_each_share(work, |(share, part)| on_own_copy(share, |share| job(share, part)));
}

/// The shares' fresh pairs, in share order, into `fresh` (when only the
/// first share found any, its buffer is swapped in, not copied).
fn gather_fresh(shares: &mut [Share], fresh: &mut Vec<FreshPair>) {
    match shares {
        [] => fresh.clear(),
        [first, rest @ ..] if rest.iter().all(|share| share.fresh.is_empty()) => {
            core::mem::swap(&mut first.fresh, fresh);
        }
        _ => {
            fresh.clear();
            for share in shares.iter() {
                fresh.extend_from_slice(&share.fresh);
            }
        }
    }
}

/// The pairs among `candidates` (pairs of proxies whose boxes in the tree
/// overlap) whose tight boxes overlap, whose filters interact and whose
/// exact shapes overlap ([`overlapping_pair`]), pushed to `fresh` (cleared
/// first) as their order keys and proxies, in key order within each pair.
/// A candidate's two leaves are asked for ahead of their turn
/// ([`for_each_fetching_ahead`]): the leaves of a pair are mostly not in
/// cache, and this loop, unlike the walk that found the candidates, lets
/// the loads overlap.
fn resolve_candidates(colliders: Colliders<'_>, candidates: &[(u32, u32)], fresh: &mut Vec<FreshPair>) {
    let bvh = colliders.bvh;
    fresh.clear();
    // At most one pair per candidate: one allocation, where growing by
    // doubling copied what was pushed (a first call on level-10k copied
    // 1.5 MB in `realloc`).
    fresh.reserve(candidates.len());
    let fetch = |(pa, pb): (u32, u32)| {
        prefetch(bvh.leaf(pa));
        prefetch(bvh.leaf(pb));
    };
    for_each_fetching_ahead(candidates, fetch, |(pa, pb)| {
        let (la, lb) = (bvh.leaf(pa), bvh.leaf(pb));
        if !la.aabb.intersects_aabb(&lb.aabb) {
            return;
        }
        if let Some((pair, swapped)) = overlapping_pair((la.data.key, la), (lb.data.key, lb), colliders) {
            fresh.push((pair.order_key(), if swapped { (pb, pa) } else { (pa, pb) }));
        }
    });
}

/// The pair of the leaves `pa` and `pb`, as colliders `a` and `b`.
#[inline]
fn pair_of(bvh: &Bvh<Proxy>, (pa, pb): (u32, u32)) -> Pair {
    let (a, b) = (&bvh.leaf(pa).data, &bvh.leaf(pb).data);
    Pair {
        a: a.key,
        b: b.key,
        user_a: a.user_data,
        user_b: b.user_data,
    }
}

/// Replaces the pairs of changed leaves (per `changed`) with the fresh
/// pairs (sorted, each read from its leaves in `bvh`), in place: a forward
/// pass keeps the pairs of two unchanged leaves, packed at the front, then
/// the fresh pairs are merged in ([`merge_from_back`]). A kept pair moves
/// within one array, where copying it into a second generation of arrays
/// would write every pair each call and hold two copies in the cache. The
/// forward pass does not branch on what it reads: it writes every pair and
/// advances its end by whether the pair is kept.
///
/// With [`PARALLEL_MERGE`] fresh pairs or more, the merge is cut into
/// parts shared among `threads`: part `j` takes the fresh pairs from
/// `f[j]` (`j` equal steps through them) and the kept pairs from `k[j]`,
/// the first one ordered after fresh pair `f[j]`, so its pairs end up at
/// `k[j] + f[j]` onward. Each part's kept pairs are first moved to the
/// start of its range, the last part first (a part's range starts no
/// earlier than its kept pairs lie, and ends before where the next part's
/// kept pairs were moved), so that the parts' ranges are disjoint and each
/// part merges within its own.
fn merge_fresh(
    pairs: &mut Vec<Pair>,
    proxies: &mut Vec<(u32, u32)>,
    changed: &[bool],
    fresh: &[FreshPair],
    bvh: &Bvh<Proxy>,
    threads: Threads,
) {
    let is_changed = |proxy: u32| is_flagged(changed, proxy);
    // Both arrays as slices of one length (checked here, once), so the
    // loops below index them without a check per array.
    let len = pairs.len();
    let (kept_pairs, kept_proxies) = (&mut pairs[..len], &mut proxies[..len]);
    let mut kept = 0;
    for i in 0..len {
        let (pa, pb) = kept_proxies[i];
        kept_pairs[kept] = kept_pairs[i];
        kept_proxies[kept] = (pa, pb);
        kept += usize::from(!(is_changed(pa) | is_changed(pb)));
    }
    pairs.truncate(kept);
    proxies.truncate(kept);
    let Some(&(_, first)) = fresh.first() else {
        return;
    };
    let total = kept + fresh.len();
    pairs.resize(total, pair_of(bvh, first));
    proxies.resize(total, first);
    // Parts of a quarter of `PARALLEL_MERGE` fresh pairs or more, whatever
    // the thread count asked for.
    let parts = if fresh.len() >= PARALLEL_MERGE {
        let per_part = fresh.len().div_ceil(wanted_shares(threads)).max(PARALLEL_MERGE / 4);
        fresh.len().div_ceil(per_part)
    } else {
        1
    };
    // Where each part starts in the fresh pairs and in the kept ones, and
    // one past the last part.
    let starts: Vec<(usize, usize)> = (0..=parts)
        .map(|j| {
            let f = fresh.len() * j / parts;
            let k = match fresh.get(f) {
                Some(&(_, leaves)) if j > 0 => {
                    let key = pair_of(bvh, leaves).order_key();
                    pairs[..kept].partition_point(|pair| pair.order_key() < key)
                }
                Some(_) => 0,
                None => kept,
            };
            (f, k)
        })
        .collect();
    for window in starts.windows(2).skip(1).rev() {
        let [(f, k), (_, k_next)] = [window[0], window[1]];
        pairs.copy_within(k..k_next, k + f);
        proxies.copy_within(k..k_next, k + f);
    }
    let mut work = Vec::with_capacity(parts);
    let (mut rest_pairs, mut rest_proxies) = (&mut pairs[..total], &mut proxies[..total]);
    for window in starts.windows(2) {
        let [(f, k), (f_next, k_next)] = [window[0], window[1]];
        let size = (k_next - k) + (f_next - f);
        let (part_pairs, after_pairs) = core::mem::take(&mut rest_pairs).split_at_mut(size);
        let (part_proxies, after_proxies) = core::mem::take(&mut rest_proxies).split_at_mut(size);
        (rest_pairs, rest_proxies) = (after_pairs, after_proxies);
        work.push((part_pairs, part_proxies, k_next - k, &fresh[f..f_next]));
    }
    threads.for_each_share(work, |(pairs, proxies, kept, fresh)| {
        merge_from_back(pairs, proxies, kept, fresh, bvh);
    });
}

/// Merges the fresh pairs (sorted, each read from its leaves in `bvh`) into
/// `pairs` and `proxies`, whose first `kept` entries are kept pairs, sorted,
/// and whose rest has room for the fresh ones: from the end, as a merge
/// into the free tail of an array (Knuth's TAOCP vol. 3, §5.2.4). The loop
/// branches on what it reads only once per fresh pair: a kept pair is moved
/// element by element as it is compared (a run between two fresh pairs is
/// a few pairs long, too short for a call to `memmove`). The leaves of the
/// fresh pair [`PREFETCH_AHEAD`] places on are asked for ahead of their
/// turn, as in [`resolve_candidates`].
fn merge_from_back(pairs: &mut [Pair], proxies: &mut [(u32, u32)], kept: usize, fresh: &[FreshPair], bvh: &Bvh<Proxy>) {
    let total = pairs.len().min(proxies.len());
    debug_assert_eq!(total, kept + fresh.len(), "room for the kept and the fresh pairs");
    let (pairs, proxies) = (&mut pairs[..total], &mut proxies[..total]);
    // `old` kept pairs remain to place, at the front; `out` is the first
    // slot filled from the end. No fresh pair has a kept pair's key (it
    // has a changed leaf), so the order between them is strict.
    let (mut old, mut out) = (kept, total);
    for (i, &(_, leaves)) in fresh.iter().enumerate().rev() {
        if let Some(&(_, (ahead_a, ahead_b))) = i.checked_sub(PREFETCH_AHEAD).map(|ahead| &fresh[ahead]) {
            prefetch(bvh.leaf(ahead_a));
            prefetch(bvh.leaf(ahead_b));
        }
        let pair = pair_of(bvh, leaves);
        let key = pair.order_key();
        while old > 0 && pairs[old - 1].order_key() > key {
            old -= 1;
            out -= 1;
            pairs[out] = pairs[old];
            proxies[out] = proxies[old];
        }
        out -= 1;
        pairs[out] = pair;
        proxies[out] = leaves;
    }
    debug_assert_eq!(old, out, "the kept pairs left in place end where the merge stopped");
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Listed flags are cleared whichever way is taken: one by one (few
    /// listed) or by the fill (many listed).
    #[test]
    fn clear_flags_clears_every_listed_flag_either_way() {
        for count in [0, 1, 3, 4, 40, 100] {
            let listed: Vec<u32> = (0..count).map(|i| (i * 37 % 100) as u32).collect();
            let mut flags = vec![false; 100];
            for &i in &listed {
                flags[i as usize] = true;
            }
            clear_flags(&mut flags, &listed);
            assert!(flags.iter().all(|&flag| !flag), "{count} listed");
        }
    }
}
