//! The one list of report sections: which titles name a section and which
//! slot of the model it fills, for every report format.
//!
//! AWR HTML, AWR text and Statspack print the same sections under titles
//! that vary by release (`Time Model Statistics` / Statspack's `Time Model
//! System Stats`, `IOStat by Function summary` / 11.1's
//! `IO Stat by Function - summary`). Each title is listed here once, with its [`Slot`]; the HTML
//! mapper (`awr_html::instance_table`) and the text mapper
//! (`textreport::sections::fill`) both match on the slot exhaustively, so a
//! new slot does not compile until every format maps it.

/// A part of the report model filled from one section.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Slot {
    LoadProfile,
    TopEvents,
    ForegroundWaits,
    BackgroundWaits,
    /// Statspack 11g+ "Wait Events (fg and bg)".
    AllWaits,
    WaitClasses,
    /// 11.2.0.4+ "Wait Classes by Total Wait Time" (all sessions): used
    /// only when the report prints no other wait class table.
    SummaryWaitClasses,
    Histogram,
    TimeModel,
    OsStats,
    HostCpu,
    InstanceCpu,
    IoProfile,
    ActivityStats,
    IostatFunction,
    IostatFiletype,
    IostatFunctionFiletype,
    TablespaceIo,
    FileIo,
    BufferPoolAdvisory,
    SqlReads,
    SqlUnoptimizedReads,
    Parameters,
    CacheSizes,
    Segments,
}

/// How a title is matched, on its [`key`] (lowercase, blanks collapsed,
/// trailing colon dropped).
#[derive(Debug, Clone, Copy)]
pub enum Title {
    Is(&'static str),
    StartsWith(&'static str),
    Contains(&'static str),
    Test(fn(&str) -> bool),
}

impl Title {
    fn matches(self, key: &str) -> bool {
        match self {
            Title::Is(t) => key == t,
            Title::StartsWith(t) => key.starts_with(t),
            Title::Contains(t) => key.contains(t),
            Title::Test(f) => f(key),
        }
    }
}

/// The registry: each slot with its titles, the preferred one first.
pub const SECTIONS: &[(Slot, &[Title])] = &[
    (Slot::LoadProfile, &[Title::Is("load profile")]),
    (Slot::TopEvents, &[Title::Test(is_top_events)]),
    (
        Slot::ForegroundWaits,
        // Before the foreground split (AWR 10g/11.1, Statspack 8i-10g)
        // "Wait Events" is the main list.
        &[
            Title::Is("foreground wait events"),
            Title::Is("wait events"),
        ],
    ),
    (
        Slot::BackgroundWaits,
        &[Title::Is("background wait events")],
    ),
    (Slot::AllWaits, &[Title::Is("wait events (fg and bg)")]),
    (
        Slot::WaitClasses,
        &[Title::Is("foreground wait class"), Title::Is("wait class")],
    ),
    (
        Slot::SummaryWaitClasses,
        &[Title::Is("wait classes by total wait time")],
    ),
    (
        Slot::Histogram,
        &[Title::StartsWith("wait event histogram")],
    ),
    (
        Slot::TimeModel,
        &[
            Title::Is("time model statistics"),
            Title::Is("time model system stats"),
        ],
    ),
    (
        Slot::OsStats,
        &[
            Title::Is("operating system statistics"),
            Title::Is("os statistics"),
        ],
    ),
    (Slot::HostCpu, &[Title::StartsWith("host cpu")]),
    (Slot::InstanceCpu, &[Title::Is("instance cpu")]),
    (Slot::IoProfile, &[Title::Is("io profile")]),
    (
        Slot::ActivityStats,
        &[Title::Contains("instance activity stats")],
    ),
    (
        Slot::IostatFunction,
        &[
            Title::Is("iostat by function summary"),
            Title::Is("io stat by function - summary"),
        ],
    ),
    (
        Slot::IostatFiletype,
        &[Title::Is("iostat by filetype summary")],
    ),
    (
        Slot::IostatFunctionFiletype,
        &[Title::Is("iostat by function/filetype summary")],
    ),
    (Slot::TablespaceIo, &[Title::Is("tablespace io stats")]),
    (Slot::FileIo, &[Title::Is("file io stats")]),
    (
        Slot::BufferPoolAdvisory,
        &[Title::Is("buffer pool advisory")],
    ),
    (Slot::SqlReads, &[Title::Is("sql ordered by reads")]),
    (
        Slot::SqlUnoptimizedReads,
        &[Title::Is("sql ordered by physical reads (unoptimized)")],
    ),
    (
        Slot::Parameters,
        &[
            Title::Is("init.ora parameters"),
            Title::Is("modified parameters"),
            Title::Is("parameters modified by this container"),
        ],
    ),
    (Slot::CacheSizes, &[Title::StartsWith("cache sizes")]),
    (Slot::Segments, &[Title::StartsWith("segments by ")]),
];

/// A title as the registry compares it.
pub fn key(title: &str) -> String {
    let t = title.trim().trim_end_matches(':').trim();
    // Printable ASCII with single spaces (every title Oracle prints) is
    // already split and joined.
    let mut space_before = false;
    let single = t.bytes().all(|b| {
        let ok = b.is_ascii_graphic() || (b == b' ' && !space_before);
        space_before = b == b' ';
        ok
    });
    if single {
        return t.to_ascii_lowercase();
    }
    let mut out = String::with_capacity(t.len());
    for w in t.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(w);
    }
    out.make_ascii_lowercase();
    out
}

/// The slot a section title fills, if any.
pub fn slot_of(title: &str) -> Option<Slot> {
    slot_of_key(&key(title))
}

/// [`slot_of`] for a title already made a [`key`] (the HTML mapper keys
/// every table's title once).
pub fn slot_of_key(k: &str) -> Option<Slot> {
    // Every registry title has a letter first: the header tables, which
    // have no title of their own, are known without a comparison.
    if k.is_empty() {
        return None;
    }
    SECTIONS
        .iter()
        .find(|(_, titles)| titles.iter().any(|t| t.matches(k)))
        .map(|(s, _)| *s)
}

/// Of `titles` (a report's section titles, in order, each with its
/// [`key`], made once a report), the one to read for `slot`: the first
/// printed under the slot's preferred title, else under the next one.
pub fn pick<'a>(slot: Slot, titles: &[(&'a str, String)]) -> Option<&'a str> {
    let (_, patterns) = SECTIONS.iter().find(|(s, _)| *s == slot)?;
    patterns
        .iter()
        .find_map(|p| titles.iter().find(|(_, k)| p.matches(k)).map(|&(t, _)| t))
}

/// True for the title of a top-events table of any release: `Top 5 Timed
/// Events` (10g/11.1, Statspack), `Top 5 Timed Foreground Events`
/// (11.2.0.1-3), `Top 10 Foreground Events by Total Wait Time` (11.2.0.4+).
pub fn is_top_events(title: &str) -> bool {
    title.starts_with("top ")
        && title.contains("event")
        && (title.contains("timed") || title.contains("foreground events by"))
        && !title.contains("background")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_title_matches_an_empty_key() {
        // What lets `slot_of_key` answer an untitled table at once.
        for (slot, titles) in SECTIONS {
            for t in *titles {
                assert!(!t.matches(""), "{slot:?}: {t:?}");
            }
        }
    }

    #[test]
    fn titles_of_every_release_find_their_slot() {
        assert_eq!(slot_of("Top 5 Timed Events"), Some(Slot::TopEvents));
        assert_eq!(
            slot_of("Top 10 Foreground Events by Total Wait Time"),
            Some(Slot::TopEvents)
        );
        assert_eq!(slot_of("Top 5 Timed Background Events"), None);
        assert_eq!(
            slot_of("IO Stat by Function - summary"),
            Some(Slot::IostatFunction)
        );
        assert_eq!(slot_of("Time Model  System Stats"), Some(Slot::TimeModel));
        assert_eq!(slot_of("Wait Events (fg and bg)"), Some(Slot::AllWaits));
        assert_eq!(slot_of("Segments by Logical Reads"), Some(Slot::Segments));
        assert_eq!(slot_of("Latch Activity"), None);
    }

    #[test]
    fn keys_collapse_blanks_and_drop_the_colon() {
        for (title, want) in [
            ("Load Profile", "load profile"),
            ("  Time Model  System Stats: ", "time model system stats"),
            ("IO\tStat\u{a0}by Function", "io stat by function"),
            ("Wait\u{b}Events", "wait events"),
            ("Caf\u{c9} Stats", "caf\u{c9} stats"),
            ("Cache Sizes ::", "cache sizes"),
            ("", ""),
        ] {
            assert_eq!(key(title), want, "{title:?}");
        }
    }

    #[test]
    fn the_preferred_title_wins_over_document_order() {
        let keyed = |titles: &[&'static str]| -> Vec<(&'static str, String)> {
            titles.iter().map(|t| (*t, key(t))).collect()
        };
        let titles = keyed(&["Wait Events", "Foreground Wait Events"]);
        assert_eq!(
            pick(Slot::ForegroundWaits, &titles),
            Some("Foreground Wait Events")
        );
        assert_eq!(
            pick(Slot::ForegroundWaits, &keyed(&["Wait Events"])),
            Some("Wait Events")
        );
        assert_eq!(pick(Slot::IoProfile, &titles), None);
    }
}
