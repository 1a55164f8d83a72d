//! How many search threads: the limit both games accept, the number a user
//! or a GUI types, and the default.

/// The most search threads an engine accepts.
pub const MAX_THREADS: usize = 256;

/// A number of search threads typed by a user or a GUI (`threads 2`,
/// `oxello-threads 2`): 1 to [`MAX_THREADS`], else `None`.
pub fn parse_threads(text: &str) -> Option<usize> {
    text.parse::<usize>()
        .ok()
        .filter(|n| (1..=MAX_THREADS).contains(n))
}

/// The default number of search threads: the cores the machine offers.
pub fn default_threads() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .min(MAX_THREADS)
}
