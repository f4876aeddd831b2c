//! The audit log's line for one decided event, and where it goes.

use std::path::PathBuf;

use super::prepared::Prepared;
use super::{Options, Talk};
use crate::config::Event;
use crate::engine::fail_closed::RunnerError;
use crate::engine::response::Status;
use crate::engine::runner::RunReport;
use crate::ground::exit::ExitStatus;
use crate::report::audit::{self, AuditLine};
use crate::report::line::ErrorEntry;

/// The event's line for the audit log, made ready to append: a log named by the person gets
/// every event, the default one (`<hermes home>/hermes-hooks/audit.jsonl`) the events where a
/// hook applied or the runner could not check the call; none with `HERMES_HOOKS_AUDIT_LOG=off`.
/// The caller appends it ([`Pending::append`]) when it likes: `serve` does so once its answer
/// is out.
pub(super) fn audit(
    options: &Options<'_>,
    event: Event,
    prepared: &Prepared,
    report: &RunReport,
    errors: &[RunnerError],
    status: ExitStatus,
) -> Option<Pending> {
    let target = audit::Target::of(options.audit_log, &prepared.home);
    let rotate = matches!(target, audit::Target::Default(_));
    let applied = !errors.is_empty()
        || report
            .hooks
            .iter()
            .any(|hook| hook.status != Status::NotMatched);
    let path = target.path().filter(|_| applied || !rotate)?.to_path_buf();
    let invocation = &prepared.invocation;
    let stamp = audit::Stamp::now();
    let mut line = AuditLine::new(
        &stamp,
        event,
        &prepared.set.hooks,
        report,
        (&invocation.session_id, &invocation.tool_name),
        status.code(),
        // The default log keeps what decided: a hook whose matcher passed over the call (of
        // dozens of rules, say) is not written down on every line.
        !rotate,
    );
    line.errors = ErrorEntry::all(errors);
    line.agent = (!prepared.agent.is_hermes()).then(|| prepared.agent.name());
    line.tool_command = audit::shell_command(invocation);
    line.project = prepared
        .project
        .0
        .as_deref()
        .map(|p| p.display().to_string());
    line.project_from = Some(prepared.project.1.to_string());
    if options.audit_payload() {
        line.payload = Some(invocation.hermes_wire(event, invocation.tool_input.as_ref()));
    }
    Some(Pending {
        line: audit::Ready::of(&mut line).map_err(std::io::Error::other),
        path,
        rotate,
    })
}

/// One event's audit line, not yet appended.
pub(crate) struct Pending {
    path: PathBuf,
    rotate: bool,
    line: std::io::Result<audit::Ready>,
}

impl Pending {
    /// Appends the line; a failure is a warning (the decision stands).
    pub(crate) fn append(self, talk: &impl Talk) {
        let appended = self
            .line
            .and_then(|line| audit::append(&self.path, &line, self.rotate));
        match appended {
            Ok(audit::Appended::Whole) => {}
            Ok(audit::Appended::WithoutPayload) => talk.warn(format!(
                "the audit log {} can be read by others (chmod 600 it): the payload was left out",
                self.path.display()
            )),
            Err(err) => talk.warn(format!(
                "cannot append to the audit log {}: {err}",
                self.path.display()
            )),
        }
    }
}
