//! Gives the heap's free pages back to the system between the phases of a
//! run.
//!
//! glibc keeps the memory a program frees and returns it only from the top
//! of each heap. A run frees a database's reports while small allocations
//! that outlive them (the heads, the next database's reduced reports) sit
//! between the freed ones, so without help the resident size keeps the
//! high-water mark of every phase. With this and the survey's copies made
//! on the main thread, the 144,000-report fleet peaks at 300 MB instead of
//! 596-763 MB (`docs/performance.md`, round 7).

/// Returns the free pages of every heap (the main one and each thread's)
/// to the system; the memory stays the allocator's to reuse.
pub(crate) fn give_back() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    #[allow(unsafe_code)]
    // SAFETY: `malloc_trim` takes no pointer; it works on the allocator's
    // own state under the allocator's locks, so any thread may call it at
    // any time.
    unsafe {
        libc::malloc_trim(0);
    }
}
