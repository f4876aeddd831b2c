//! What one event has read before any hook runs: the hooks, the payload, the project, the
//! allowlist and the guard's own places. Deciding fills it; the audit record reads it.

use std::path::PathBuf;
use std::rc::Rc;
use std::sync::{Arc, Mutex};

use crate::agents::Agent;
use crate::config::HookSet;
use crate::consent::KeptList;
use crate::engine::payload::Invocation;
use crate::engine::tool_classes::Allowances;

/// Everything read before anything runs.
pub(crate) struct Prepared {
    pub(crate) set: Rc<HookSet>,
    pub(crate) home: PathBuf,
    pub(crate) invocation: Invocation,
    pub(crate) allowlist: PathBuf,
    /// The payload could not be read: the hooks are loaded (from where the program runs), and
    /// none of them can be given it.
    pub(crate) payload_error: Option<anyhow::Error>,
    /// What the calling agent reads beyond the event table.
    pub(crate) allow: Allowances,
    /// The agent that called.
    pub(crate) agent: Agent,
    /// The project root whose hooks were loaded, and what it was found from.
    pub(crate) project: (Option<PathBuf>, crate::ground::paths::ProjectFrom),
    /// Where the source keeps the allowlist between events.
    pub(crate) kept_allowlist: Option<Arc<Mutex<KeptList>>>,
    /// Where the guard's own state lives, kept from the model's calls.
    pub(crate) places: crate::protect::Places,
    /// Where this call's guards are, for those that vanished.
    pub(crate) reach: crate::consent::vanished::Reach,
}
