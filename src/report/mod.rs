//! What one event leaves behind: the answer line `run` and `serve` print
//! ([`line`](mod@line)) and the audit log's line ([`audit`]).

pub(crate) mod audit;
pub(crate) mod line;
