//! One event decided, in the order each file builds on the ones before it: which class a tool
//! is (`tool_classes`), what the payload says (`payload`), what a hook's exit code and stdout
//! mean (`response`), what a rule says of a call (`rules`), the quality-gate loop guard's count
//! (`loop_guard`), the payloads `test` and `doctor` make up (`sample_payloads`), one event's
//! hooks run in order with consent checked right before each start (`runner`), the final answer
//! (`decision`), what the runner could not read and where fail-closed is decided
//! (`fail_closed`), and the guards that stopped guarding, told to a person once
//! (`stopped_guards`).

pub(crate) mod decision;
pub(crate) mod fail_closed;
pub(crate) mod loop_guard;
pub(crate) mod payload;
pub(crate) mod response;
pub(crate) mod rules;
pub(crate) mod runner;
pub(crate) mod sample_payloads;
pub(crate) mod stopped_guards;
pub(crate) mod tool_classes;
