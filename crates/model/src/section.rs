//! [`SectionName`]: a section title shared by every row read from it.
//!
//! A full 19c AWR report has about 1,800 rows (activity statistics, events,
//! wait histograms, parameters...), each with a [`crate::SourceRef`]; a
//! `String` per row was one allocation, copy and free at parse time and a
//! heap block per row for as long as the report is held. A parser builds a
//! section's name once and clones the handle per row; deserializing shares
//! too (consecutive equal names, which is how rows of one section come,
//! reuse one allocation). Serialized it is a plain string, so the JSON does
//! not change.

use std::borrow::Borrow;
use std::cell::RefCell;
use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;
use std::sync::Arc;

use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A section title as printed, cheap to clone: clones share one immutable
/// string. The empty name holds no allocation (it is what
/// `SourceRef::default()` carries).
#[derive(Clone, Default)]
pub struct SectionName(Option<Arc<str>>);

impl SectionName {
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

    /// `name`, sharing the string of the name this function returned last
    /// on this thread when it is equal: rows of one section come one after
    /// another, so they share one string. Deserializing uses it, and so do
    /// parsers that hold a row's section title as text.
    pub fn shared(name: &str) -> Self {
        LAST.with(|last| {
            let mut last = last.borrow_mut();
            if last.as_str() != name {
                *last = SectionName::new(name);
            }
            last.clone()
        })
    }

    /// Whether `self` and `other` are one shared string (not only equal).
    pub fn shares(&self, other: &SectionName) -> bool {
        match (&self.0, &other.0) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        }
    }
}

impl Deref for SectionName {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for SectionName {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl Borrow<str> for SectionName {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl fmt::Display for SectionName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.as_str(), f)
    }
}

/// As a `String` prints, so `{:?}` of a model reads as before.
impl fmt::Debug for SectionName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl PartialEq for SectionName {
    fn eq(&self, other: &Self) -> bool {
        self.shares(other) || self.as_str() == other.as_str()
    }
}

impl Eq for SectionName {}

impl PartialOrd for SectionName {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for SectionName {
    fn cmp(&self, other: &Self) -> Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl Hash for SectionName {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}

impl PartialEq<str> for SectionName {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for SectionName {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<String> for SectionName {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<SectionName> for str {
    fn eq(&self, other: &SectionName) -> bool {
        self == other.as_str()
    }
}

impl PartialEq<SectionName> for &str {
    fn eq(&self, other: &SectionName) -> bool {
        *self == other.as_str()
    }
}

impl PartialEq<SectionName> for String {
    fn eq(&self, other: &SectionName) -> bool {
        self == other.as_str()
    }
}

impl From<&str> for SectionName {
    fn from(s: &str) -> Self {
        Self::new(s)
    }
}

impl From<&String> for SectionName {
    fn from(s: &String) -> Self {
        Self::new(s)
    }
}

impl From<String> for SectionName {
    fn from(s: String) -> Self {
        if s.is_empty() {
            Self(None)
        } else {
            Self(Some(Arc::from(s)))
        }
    }
}

impl From<&SectionName> for SectionName {
    fn from(s: &SectionName) -> Self {
        s.clone()
    }
}

impl From<SectionName> for String {
    fn from(s: SectionName) -> Self {
        s.as_str().to_string()
    }
}

impl From<&SectionName> for String {
    fn from(s: &SectionName) -> Self {
        s.as_str().to_string()
    }
}

impl Serialize for SectionName {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

thread_local! {
    /// The name [`SectionName::shared`] returned last on this thread.
    static LAST: RefCell<SectionName> = RefCell::new(SectionName::default());
}

struct NameVisitor;

impl Visitor<'_> for NameVisitor {
    type Value = SectionName;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a section name")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<SectionName, E> {
        Ok(SectionName::shared(v))
    }

    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<SectionName, E> {
        std::str::from_utf8(v)
            .map(SectionName::shared)
            .map_err(|_| E::invalid_value(de::Unexpected::Bytes(v), &self))
    }
}

impl<'de> Deserialize<'de> for SectionName {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_str(NameVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clones_share_one_string_and_compare_as_text() {
        let a = SectionName::new("Load Profile");
        let b = a.clone();
        assert!(a.shares(&b));
        assert_eq!(a, SectionName::new("Load Profile"));
        assert!(!a.shares(&SectionName::new("Load Profile")));
        assert_eq!(a, "Load Profile");
        assert_eq!(format!("{a}|{a:?}"), "Load Profile|\"Load Profile\"");
        assert!(SectionName::new("A") < SectionName::new("B"));
        assert!(SectionName::default() < SectionName::new("A"));
    }

    #[test]
    fn the_empty_name_equals_an_empty_string() {
        assert_eq!(SectionName::default(), SectionName::new(""));
        assert_eq!(SectionName::from(String::new()), "");
        assert!(SectionName::default().is_empty());
    }

    #[test]
    fn serializes_as_a_plain_string_and_shares_equal_neighbours_back() {
        let rows = vec![
            SectionName::new("Foreground Wait Events"),
            SectionName::new("Foreground Wait Events"),
            SectionName::new("Wait Event Histogram"),
        ];
        let json = serde_json::to_string(&rows).unwrap();
        assert_eq!(
            json,
            r#"["Foreground Wait Events","Foreground Wait Events","Wait Event Histogram"]"#
        );
        let back: Vec<SectionName> = serde_json::from_str(&json).unwrap();
        assert_eq!(back, rows);
        assert!(back[0].shares(&back[1]));
        assert!(!back[1].shares(&back[2]));
    }
}
