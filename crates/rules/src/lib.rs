//! awrflash-rules: the advisor (rule catalogue, device profiles, projection).
//!
//! Stage: rules. Input: parsed documents ([`awrflash_model::Document`]).
//! Output: an [`awrflash_model::Analysis`]. Filled in by the advisor work.
