//! [`Threads`]: where a world's batch work runs, and the one way that work
//! is shared out over them ([`Threads::for_each_share`]).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

/// The threads a world's batch work runs on: batch casts
/// ([`World::segment_cast_batch`](crate::World::segment_cast_batch)), pair
/// finding ([`World::pairs`](crate::World::pairs)) and batch updates
/// ([`World::set_transforms`](crate::World::set_transforms),
/// [`World::set_shapes`](crate::World::set_shapes)). The answers are the
/// same whatever the setting; only where the work runs changes. Engines
/// with their own job system choose [`Threads::CallingThread`].
///
/// ```
/// use collide::{Threads, World};
/// let mut world = World::new();
/// world.set_threads(Threads::Count(2));
/// assert_eq!(world.threads(), Threads::Count(2));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Threads {
    /// On the calling thread alone.
    CallingThread,
    /// On `n` threads: the calling thread and `n − 1` threads spawned for
    /// the call (scoped) and joined before it returns, so none outlives it.
    /// `Count(0)` means one per core (`std::thread::available_parallelism`);
    /// `Count(1)` is the calling thread alone.
    Count(usize),
    /// On rayon's global pool, whose threads live until the process ends,
    /// with the calling thread working beside them: the default with the
    /// `parallel` feature.
    #[cfg(feature = "parallel")]
    Rayon,
}

impl Default for Threads {
    /// [`Threads::Rayon`] with the `parallel` feature, else
    /// [`Threads::CallingThread`].
    fn default() -> Self {
        #[cfg(feature = "parallel")]
        return Threads::Rayon;
        #[cfg(not(feature = "parallel"))]
        return Threads::CallingThread;
    }
}

/// `std::thread::available_parallelism`, asked once per process: it reads
/// the scheduler's affinity and the cgroup's quota from the system, where a
/// world asks before every batch.
fn cores() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

impl Threads {
    /// How many threads the setting runs work on (1: the calling thread
    /// alone; on [`Threads::Rayon`], the pool's size, which work is cut
    /// for: the calling thread works beside the pool's threads).
    ///
    /// ```
    /// use collide::Threads;
    /// assert_eq!(Threads::CallingThread.count(), 1);
    /// assert_eq!(Threads::Count(3).count(), 3);
    /// assert!(Threads::Count(0).count() >= 1);
    /// ```
    #[must_use]
    pub fn count(self) -> usize {
        match self {
            Threads::CallingThread => 1,
            Threads::Count(0) => cores(),
            Threads::Count(n) => n,
            #[cfg(feature = "parallel")]
            Threads::Rayon => rayon::current_num_threads(),
        }
    }

    /// Whether work shared on this setting starts its threads at each call
    /// ([`Threads::Count`]; rayon's pool keeps its threads).
    pub(crate) fn starts_threads_per_call(self) -> bool {
        matches!(self, Threads::Count(_))
    }

    /// Runs `job` once on each share, spread over the threads, and returns
    /// once every share is done (a job's panic resumes on the calling
    /// thread). Each share waits in a slot of its own; every thread, the
    /// calling one included, draws the next slot's number from a shared
    /// counter and runs its share, until none is left. So shares of uneven
    /// cost, a core busy with other work, or a helper that wakes late leave
    /// no share waiting while a thread idles: the calling thread starts at
    /// once, and a helper that arrives when the counter is spent does
    /// nothing. The helpers are `n − 1` scoped threads started for the call
    /// on [`Threads::Count`], and on [`Threads::Rayon`] one job for each of
    /// the pool's `n` threads: a pool thread left without one would spin
    /// for a while looking for work, taking a core from those that have
    /// some (and a calling thread that only waited for the pool could lose
    /// milliseconds to a sleeping pool thread's wake-up). No two threads
    /// touch the same data but the counter, and the start and join of a
    /// helper. With one thread, or one share, everything runs on the
    /// calling thread in order and nothing starts.
    pub(crate) fn for_each_share<S: Send>(self, shares: Vec<S>, job: impl Fn(S) + Sync) {
        let threads = self.count().min(shares.len());
        if threads <= 1 {
            shares.into_iter().for_each(job);
            return;
        }
        let slots: Vec<Mutex<Option<S>>> = shares.into_iter().map(|share| Mutex::new(Some(share))).collect();
        let next = AtomicUsize::new(0);
        let work = || {
            while let Some(slot) = slots.get(next.fetch_add(1, Ordering::Relaxed)) {
                // Only the thread that drew `slot`'s number locks it (the
                // mutex makes the slots shareable without unsafe code), and
                // the job runs after the lock is released.
                if let Ok(Some(share)) = slot.lock().map(|mut share| share.take()) {
                    job(share);
                }
            }
        };
        #[cfg(feature = "parallel")]
        if self == Threads::Rayon {
            // The scope returns once its jobs are done, and resumes the
            // first panic among them.
            rayon::in_place_scope(|scope| {
                for _ in 0..threads {
                    scope.spawn(|_| work());
                }
                work();
            });
            return;
        }
        std::thread::scope(|scope| {
            // A thread that cannot be spawned leaves its part to the others.
            let spawned: Vec<_> = (1..threads)
                .filter_map(|_| std::thread::Builder::new().spawn_scoped(scope, work).ok())
                .collect();
            work();
            // Joined one by one (pthread_join), so each share's writes are
            // ordered before the return for any observer, race detectors
            // included.
            for handle in spawned {
                if let Err(panic) = handle.join() {
                    std::panic::resume_unwind(panic);
                }
            }
        });
    }
}

/// Runs `job` on `slot`'s value taken out of it, then puts it back: a
/// share's buffers lie beside the other shares', and vectors growing in
/// place from several threads would write their lengths to one cache line.
#[inline]
pub(crate) fn on_own_copy<T: Default>(slot: &mut T, job: impl FnOnce(&mut T)) {
    let mut own = core::mem::take(slot);
    job(&mut own);
    *slot = own;
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn every_share_runs_once_whatever_the_threads() {
        let mut settings = vec![
            Threads::CallingThread,
            Threads::Count(0),
            Threads::Count(1),
            Threads::Count(3),
        ];
        #[cfg(feature = "parallel")]
        settings.push(Threads::Rayon);
        for threads in settings {
            for count in [0, 1, 2, 7, 100] {
                let mut out = vec![0usize; count];
                let calls = AtomicUsize::new(0);
                let shares: Vec<_> = out.iter_mut().enumerate().collect();
                threads.for_each_share(shares, |(i, slot)| {
                    *slot = i + 1;
                    calls.fetch_add(1, Ordering::Relaxed);
                });
                assert_eq!(calls.into_inner(), count, "{threads:?}");
                assert!(out.iter().enumerate().all(|(i, &v)| v == i + 1), "{threads:?}");
            }
        }
    }

    /// Shares on rayon's pool run whoever calls: a job of the pool itself
    /// (an engine running its worlds side by side on the pool) or several
    /// threads outside it at once. Each call runs every share once.
    #[cfg(feature = "parallel")]
    #[test]
    fn rayon_shares_run_from_inside_the_pool_and_from_several_callers() {
        use rayon::prelude::*;
        let run = |offset: usize| {
            let total = AtomicUsize::new(0);
            Threads::Rayon.for_each_share((0..50).collect(), |share: usize| {
                total.fetch_add(share + offset, Ordering::Relaxed);
            });
            total.into_inner()
        };
        let expected = |offset: usize| (0..50).sum::<usize>() + 50 * offset;
        let inside: Vec<usize> = (0..8).into_par_iter().map(run).collect();
        for (offset, total) in inside.into_iter().enumerate() {
            assert_eq!(total, expected(offset), "from the pool's job {offset}");
        }
        std::thread::scope(|scope| {
            let callers: Vec<_> = (0..4).map(|offset| scope.spawn(move || run(offset))).collect();
            for (offset, caller) in callers.into_iter().enumerate() {
                assert_eq!(caller.join().ok(), Some(expected(offset)), "from caller {offset}");
            }
        });
    }

    #[test]
    fn a_jobs_panic_reaches_the_caller() {
        let mut settings = vec![Threads::Count(2)];
        #[cfg(feature = "parallel")]
        settings.push(Threads::Rayon);
        for threads in settings {
            let result = std::panic::catch_unwind(|| {
                threads.for_each_share((0..8).collect(), |i: i32| assert!(i != 5, "share 5"));
            });
            assert!(result.is_err(), "{threads:?}");
        }
    }
}
