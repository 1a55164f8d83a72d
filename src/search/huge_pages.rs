//! Huge pages for the transposition table.
//!
//! A probe lands on a random bucket of a table of tens or hundreds of MiB.
//! With the usual 4 KiB pages almost every probe also misses the TLB, and
//! the page walk that follows is a second trip to memory. Linux backs a
//! region with 2 MiB pages when the program asks for it (`madvise` with
//! `MADV_HUGEPAGE`; the default policy of most distributions, and of the
//! machines we measure on, is `madvise`): a 64 MiB table is then 32 TLB
//! entries. Elsewhere, or when the kernel declines, nothing changes.

/// Size of a huge page on x86-64 and aarch64 Linux.
const HUGE_PAGE: usize = 2 << 20;

/// Asks the kernel to back the huge-page-aligned part of the `len` bytes at
/// `start` with huge pages. Call it before the memory is first written, so
/// that the pages are faulted in large. Only a hint: failure is ignored.
pub(crate) fn advise(start: *const u8, len: usize) {
    let first = (start as usize).next_multiple_of(HUGE_PAGE);
    let end = (start as usize).saturating_add(len) / HUGE_PAGE * HUGE_PAGE;
    if end <= first {
        return;
    }
    #[cfg(target_os = "linux")]
    {
        use std::ffi::{c_int, c_void};
        unsafe extern "C" {
            fn madvise(addr: *mut c_void, len: usize, advice: c_int) -> c_int;
        }
        /// `MADV_HUGEPAGE` of Linux's `<sys/mman.h>`.
        const MADV_HUGEPAGE: c_int = 14;
        // SAFETY: [first, end) lies inside the caller's allocation and is
        // page-aligned, as madvise requires; MADV_HUGEPAGE changes how the
        // kernel backs the pages, never their contents or validity.
        let result = unsafe { madvise(first as *mut c_void, end - first, MADV_HUGEPAGE) };
        if result != 0 {
            log::debug!(
                "madvise(MADV_HUGEPAGE) refused: {}",
                std::io::Error::last_os_error()
            );
        }
    }
}
