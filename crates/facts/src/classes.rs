//! The wait-event classes the breakdown of DB time is built from. An event
//! belongs to one class at most, so the classes add up to the I/O part of
//! the breakdown without counting an event twice.

/// Events whose time is small random (single-block) reads from storage.
pub const SINGLE_BLOCK: &[&str] = &[
    "db file sequential read",
    "db file parallel read",
    "cell single block physical read",
    "cell list of blocks physical read",
];
/// Multiblock and direct-path scans.
pub const MULTIBLOCK: &[&str] = &[
    "db file scattered read",
    "direct path read",
    "cell multiblock physical read",
    "cell smart table scan",
    "cell smart index scan",
];
pub const TEMP: &[&str] = &["direct path read temp", "direct path write temp"];
pub const WRITE_WAITS: &[&str] = &[
    "free buffer waits",
    "write complete waits",
    "write complete waits: flash cache",
    "direct path write",
];
pub const FLASH_CACHE_READS: &[&str] = &[
    "db flash cache single block physical read",
    "db flash cache multiblock physical read",
    "cell single block physical read: flash cache",
];
