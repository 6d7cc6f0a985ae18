//! [`SharedStr`]: a string many rows carry, held once: the section title of
//! every row read from a section, the name and wait class of an event that
//! every interval of a database reports.
//!
//! A full 19c AWR report has about 1,800 rows (activity statistics, events,
//! wait histograms, parameters...), each with a [`crate::SourceRef`]; a
//! `String` per row was one allocation, copy and free at parse time and a
//! heap block per row for as long as the report is held. A parser builds a
//! section's name once and clones the handle per row. Deserializing shares
//! too, through a small per-thread cache of the names it gave last
//! ([`SharedStr::shared`]): the rows of one section come one after another,
//! and the run unpacks the intervals of one database on one thread, whose
//! events bear the same few hundred names. Serialized it is a plain string,
//! so the JSON does not change.

use std::borrow::Borrow;
use std::cell::RefCell;
use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;
use std::sync::Arc;

use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A string cheap to clone: clones share one immutable string. The empty
/// string holds no allocation (it is what `SourceRef::default()` carries).
#[derive(Clone, Default)]
pub struct SharedStr(Option<Arc<str>>);

impl SharedStr {
    pub fn new(name: &str) -> Self {
        if name.is_empty() {
            Self(None)
        } else {
            Self(Some(Arc::from(name)))
        }
    }

    pub fn as_str(&self) -> &str {
        self.0.as_deref().unwrap_or("")
    }

    /// `name`, sharing the string of an equal name this function returned
    /// before on this thread when its cache still holds it: rows of one
    /// section come one after another, and the events of a database's
    /// intervals repeat a few hundred names. Deserializing uses it, and so
    /// do parsers that hold a row's section title as text.
    pub fn shared(name: &str) -> Self {
        if name.is_empty() {
            return Self(None);
        }
        let slot = slot_of(name);
        CACHE.with(|cache| {
            let mut cache = cache.borrow_mut();
            match cache.get_mut(slot) {
                Some(held) if held.as_str() == name => held.clone(),
                Some(held) => {
                    *held = SharedStr::new(name);
                    held.clone()
                }
                None => SharedStr::new(name),
            }
        })
    }

    /// Whether `self` and `other` are one shared string (not only equal).
    pub fn shares(&self, other: &SharedStr) -> bool {
        match (&self.0, &other.0) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        }
    }
}

impl Deref for SharedStr {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for SharedStr {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl Borrow<str> for SharedStr {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl fmt::Display for SharedStr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.as_str(), f)
    }
}

/// As a `String` prints, so `{:?}` of a model reads as before.
impl fmt::Debug for SharedStr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl PartialEq for SharedStr {
    fn eq(&self, other: &Self) -> bool {
        self.shares(other) || self.as_str() == other.as_str()
    }
}

impl Eq for SharedStr {}

impl PartialOrd for SharedStr {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for SharedStr {
    fn cmp(&self, other: &Self) -> Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl Hash for SharedStr {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}

impl PartialEq<str> for SharedStr {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for SharedStr {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<String> for SharedStr {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<SharedStr> for str {
    fn eq(&self, other: &SharedStr) -> bool {
        self == other.as_str()
    }
}

impl PartialEq<SharedStr> for &str {
    fn eq(&self, other: &SharedStr) -> bool {
        *self == other.as_str()
    }
}

impl PartialEq<SharedStr> for String {
    fn eq(&self, other: &SharedStr) -> bool {
        self == other.as_str()
    }
}

impl From<&str> for SharedStr {
    fn from(s: &str) -> Self {
        Self::new(s)
    }
}

impl From<&String> for SharedStr {
    fn from(s: &String) -> Self {
        Self::new(s)
    }
}

impl From<String> for SharedStr {
    fn from(s: String) -> Self {
        if s.is_empty() {
            Self(None)
        } else {
            Self(Some(Arc::from(s)))
        }
    }
}

impl From<&SharedStr> for SharedStr {
    fn from(s: &SharedStr) -> Self {
        s.clone()
    }
}

impl From<SharedStr> for String {
    fn from(s: SharedStr) -> Self {
        s.as_str().to_string()
    }
}

impl From<&SharedStr> for String {
    fn from(s: &SharedStr) -> Self {
        s.as_str().to_string()
    }
}

impl Serialize for SharedStr {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

/// Slots of the per-thread cache of [`SharedStr::shared`]: room for the
/// distinct statistic, event, wait class and section names of a report
/// (about 700 in a 19c AWR report) with few collisions. A collision only
/// costs an allocation: with 1,024 slots, one pass over the corpus's AWR
/// HTML reports allocated 7,719 names, with 4,096 (64 KiB a thread) 4,301.
const CACHE_SLOTS: usize = 4096;

thread_local! {
    /// The names [`SharedStr::shared`] gave, by [`slot_of`] their text.
    static CACHE: RefCell<Vec<SharedStr>> = RefCell::new(vec![SharedStr::default(); CACHE_SLOTS]);
}

/// The cache slot of `name`: a multiplicative hash of its length and of
/// its first and last eight bytes. Reading a fixed 16 bytes instead of
/// hashing every byte keeps a lookup cheaper than the allocation it saves;
/// names that share both ends and the length share a slot, which only
/// costs an allocation when they alternate.
fn slot_of(name: &str) -> usize {
    let b = name.as_bytes();
    let (head, tail) = match (b.first_chunk::<8>(), b.last_chunk::<8>()) {
        (Some(h), Some(t)) => (u64::from_le_bytes(*h), u64::from_le_bytes(*t)),
        _ => {
            let mut w = [0u8; 8];
            for (d, s) in w.iter_mut().zip(b) {
                *d = *s;
            }
            (u64::from_le_bytes(w), 0)
        }
    };
    let hash = (head ^ tail.rotate_left(29) ^ b.len() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (hash >> 32) as usize % CACHE_SLOTS
}

struct NameVisitor;

impl Visitor<'_> for NameVisitor {
    type Value = SharedStr;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<SharedStr, E> {
        Ok(SharedStr::shared(v))
    }

    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<SharedStr, E> {
        std::str::from_utf8(v)
            .map(SharedStr::shared)
            .map_err(|_| E::invalid_value(de::Unexpected::Bytes(v), &self))
    }
}

impl<'de> Deserialize<'de> for SharedStr {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_str(NameVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clones_share_one_string_and_compare_as_text() {
        let a = SharedStr::new("Load Profile");
        let b = a.clone();
        assert!(a.shares(&b));
        assert_eq!(a, SharedStr::new("Load Profile"));
        assert!(!a.shares(&SharedStr::new("Load Profile")));
        assert_eq!(a, "Load Profile");
        assert_eq!(format!("{a}|{a:?}"), "Load Profile|\"Load Profile\"");
        assert!(SharedStr::new("A") < SharedStr::new("B"));
        assert!(SharedStr::default() < SharedStr::new("A"));
    }

    #[test]
    fn the_empty_name_equals_an_empty_string() {
        assert_eq!(SharedStr::default(), SharedStr::new(""));
        assert_eq!(SharedStr::from(String::new()), "");
        assert!(SharedStr::default().is_empty());
    }

    #[test]
    fn serializes_as_a_plain_string_and_shares_equal_neighbours_back() {
        let rows = vec![
            SharedStr::new("Foreground Wait Events"),
            SharedStr::new("Foreground Wait Events"),
            SharedStr::new("Wait Event Histogram"),
        ];
        let json = serde_json::to_string(&rows).unwrap();
        assert_eq!(
            json,
            r#"["Foreground Wait Events","Foreground Wait Events","Wait Event Histogram"]"#
        );
        let back: Vec<SharedStr> = serde_json::from_str(&json).unwrap();
        assert_eq!(back, rows);
        assert!(back[0].shares(&back[1]));
        assert!(!back[1].shares(&back[2]));
    }

    /// Names that differ only in their middle, or are shorter than a
    /// word, come back as themselves, and a thousand names spread over most
    /// of the cache's slots (a hash that read fewer bytes, or none, would
    /// put them in a few).
    #[test]
    fn every_name_comes_back_as_itself_and_names_spread_over_the_slots() {
        let mut names: Vec<String> = (0..=20)
            .map(|n| "abcdefghijklmnopqrstu"[..n].to_string())
            .collect();
        names.push("physical read total IO requests".into());
        names.push("physical reax total IO requests".into());
        for _ in 0..3 {
            for n in &names {
                assert_eq!(SharedStr::shared(n), n.as_str());
            }
        }
        let slots: std::collections::BTreeSet<usize> = (0..1000)
            .map(|i| slot_of(&format!("statistic {i}")))
            .collect();
        // Uniform slots would take 885 of the 4,096 on average.
        assert!(slots.len() > 800, "{} slots", slots.len());
        let short: std::collections::BTreeSet<usize> =
            (0..300).map(|i| slot_of(&format!("{i}"))).collect();
        assert!(short.len() > 200, "{} slots", short.len());
    }

    /// The event names of one interval after another: each name comes
    /// back as the string read for the interval before.
    #[test]
    fn names_repeated_further_apart_share_too() {
        let names = [
            "db file sequential read",
            "log file sync",
            "direct path read",
        ];
        let json = serde_json::to_string(&[names, names]).unwrap();
        let back: Vec<Vec<SharedStr>> = serde_json::from_str(&json).unwrap();
        for (a, b) in back[0].iter().zip(&back[1]) {
            assert_eq!(a, b);
            assert!(a.shares(b), "{a}");
        }
        assert_eq!(SharedStr::shared(""), SharedStr::default());
    }
}
