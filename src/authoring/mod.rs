//! Help for people writing hooks: example answers per event and dialect, the payload a hook of
//! each source receives, and the files `new` scaffolds.

pub(crate) mod answers;
pub(crate) mod sample;
pub(crate) mod scaffold;
