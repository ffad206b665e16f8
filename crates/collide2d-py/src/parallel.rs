//! Batch rows spread over threads: consecutive chunks of rows, one per thread, answers kept in
//! row order, so a batch gives the same arrays whatever the thread count.

use std::sync::{Arc, Mutex};

use pyo3::prelude::*;

use crate::errors;

/// Fewer rows than this per thread are not worth a thread's start.
const MIN_ROWS_PER_THREAD: usize = 1024;

/// The thread count a batch call uses: `threads` (at least 1), or every core for `None`; never
/// more than the machine's cores.
///
/// The calls default to one thread: on a machine whose cores are busy with other work, extra
/// threads only wait for a core, and a two-core VM under load measured a ray batch 2.5x slower
/// on two threads than on one. More threads than cores are not started: they could only wait,
/// the answers do not depend on the count, and `threads=10**6` would otherwise try to start a
/// million threads.
pub fn thread_count(py: Python<'_>, threads: Option<usize>) -> PyResult<usize> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    match threads {
        Some(0) => Err(errors::invalid(py, "threads must be at least 1")),
        Some(n) => Ok(n.min(cores)),
        None => Ok(cores),
    }
}

/// `row(i)` for every `i` in `0..n`, in order, on up to `threads` threads.
pub fn map_rows<T: Send>(n: usize, threads: usize, row: impl Fn(usize) -> T + Sync) -> Vec<T> {
    let threads = threads.clamp(1, n.div_ceil(MIN_ROWS_PER_THREAD).max(1));
    if threads == 1 {
        return (0..n).map(row).collect();
    }
    let chunk = n.div_ceil(threads);
    let row = &row;
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|t| {
                let rows = (t * chunk).min(n)..((t + 1) * chunk).min(n);
                scope.spawn(move || rows.map(row).collect::<Vec<T>>())
            })
            .collect();
        let mut answers = Vec::with_capacity(n);
        for worker in workers {
            match worker.join() {
                Ok(part) => answers.extend(part),
                // A panic in the library: carried on to the caller (PyO3 raises it as a
                // `PanicException`) rather than hidden.
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        answers
    })
}

/// `chunk(rows)` for consecutive ranges of rows covering `0..n`, one per thread (up to
/// `threads`), the answers in row order.
pub fn map_chunks<T: Send>(
    n: usize,
    threads: usize,
    chunk: impl Fn(std::ops::Range<usize>) -> T + Sync,
) -> Vec<T> {
    let threads = threads.clamp(1, n.div_ceil(MIN_ROWS_PER_THREAD).max(1));
    let size = n.div_ceil(threads).max(1);
    let ranges: Vec<_> = (0..threads)
        .map(|t| (t * size).min(n)..((t + 1) * size).min(n))
        .collect();
    if threads == 1 {
        return ranges.into_iter().map(chunk).collect();
    }
    let chunk = &chunk;
    std::thread::scope(|scope| {
        let workers: Vec<_> = ranges
            .into_iter()
            .map(|rows| scope.spawn(move || chunk(rows)))
            .collect();
        workers
            .into_iter()
            .map(|worker| match worker.join() {
                Ok(part) => part,
                // As in `map_rows`: a library panic reaches the caller.
                Err(panic) => std::panic::resume_unwind(panic),
            })
            .collect()
    })
}

/// The rayon pool of `threads` threads (at most one a core, as in [`thread_count`]) for the
/// library's parallel batches (`None`: the global pool, one thread a core). Pools are built
/// once a thread count and kept, so there are at most as many as cores.
pub fn pool(py: Python<'_>, threads: Option<usize>) -> PyResult<Option<Arc<rayon::ThreadPool>>> {
    static POOLS: Mutex<Vec<(usize, Arc<rayon::ThreadPool>)>> = Mutex::new(Vec::new());
    if threads.is_none() {
        return Ok(None);
    }
    let count = thread_count(py, threads)?;
    let mut pools = POOLS
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some((_, pool)) = pools.iter().find(|(n, _)| *n == count) {
        return Ok(Some(Arc::clone(pool)));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(count)
        .build()
        .map_err(|e| errors::invalid(py, format!("threads: {e}")))?;
    let pool = Arc::new(pool);
    pools.push((count, Arc::clone(&pool)));
    Ok(Some(pool))
}

/// `work()` on `pool`, or on the global pool for `None`.
pub fn install<T: Send>(pool: Option<&rayon::ThreadPool>, work: impl FnOnce() -> T + Send) -> T {
    match pool {
        Some(pool) => pool.install(work),
        None => work(),
    }
}
