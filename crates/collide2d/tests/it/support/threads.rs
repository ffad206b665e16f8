//! Running a piece of work on a thread pool of a chosen size, for the tests that compare the
//! world's output across thread counts.

/// Runs `work` on a new rayon pool of `threads` threads (feature `rayon`), so that every
/// parallel part of the library inside it splits over that many; without the feature, runs
/// it on the calling thread.
pub fn on_threads<T: Send>(threads: usize, work: impl FnOnce() -> T + Send) -> T {
    #[cfg(feature = "rayon")]
    {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a thread pool of the asked size")
            .install(work)
    }
    #[cfg(not(feature = "rayon"))]
    {
        let _ = threads;
        work()
    }
}
