//! The small utilities every floor stands on, each named for what it answers: every
//! environment variable read (`env`), the clock as Hermes writes times (`clock`), exit codes
//! (`exit`), faults injected in unit tests (`fault`), reading files others supply (`limits`),
//! JSON as Python reads and writes it (`pyjson`, `python_int`), text made safe for a terminal
//! (`sanitize`), which word of a hook command is its script (`hook_script`), what stands for a
//! file's bytes until they change (`stamp`), sha256 in hex (`digest`), words and lines
//! (`text`), the Hermes profile (`profile`), who owns a folder (`owner`), where every file is
//! (`paths`), locked atomic writes (`statefile`), whether this process runs inside an
//! agent's tool call (`in_tool_call`), a terminating signal while hooks run (`interrupt`)
//! and a signal's name (`signal`).

pub(crate) mod bytes;
pub(crate) mod clock;
pub(crate) mod digest;
pub(crate) mod env;
pub(crate) mod exit;
pub(crate) mod fault;
pub(crate) mod hook_script;
pub(crate) mod in_tool_call;
pub(crate) mod interrupt;
pub(crate) mod limits;
pub(crate) mod owner;
pub(crate) mod paths;
pub(crate) mod profile;
pub(crate) mod pyjson;
pub(crate) mod python_int;
pub(crate) mod sanitize;
pub(crate) mod signal;
pub(crate) mod stamp;
pub(crate) mod statefile;
pub(crate) mod text;
