//! `new --rules PACK [--project]`: a shipped rule pack written into a rules file (the user's, or
//! the project's `.agents/rules.yaml`) for review: a new file is made, an existing one gets the
//! pack's rules appended, indented as its own, every byte of it kept (a file that does not read
//! as rules, is not laid out so that rules can be appended safely, or already has a rule of the
//! pack's, is left as it is). Nothing is approved here.

use std::fs;
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result, bail};
use serde::Serialize;

use super::{GlobalArgs, shared};
use crate::config::rules::{self, FILE_NAME};
use crate::config::{Scope, Warning};
use crate::exit::ExitStatus;
use crate::output::{Printer, Screen};
use crate::rules::layout::Layout;
use crate::rules::packs::{self, Pack};

/// The names `--rules` takes.
pub(crate) const PACK_NAMES: [&str; 14] = [
    packs::PACKS[0].name,
    packs::PACKS[1].name,
    packs::PACKS[2].name,
    packs::PACKS[3].name,
    packs::PACKS[4].name,
    packs::PACKS[5].name,
    packs::PACKS[6].name,
    packs::PACKS[7].name,
    packs::PACKS[8].name,
    packs::PACKS[9].name,
    packs::PACKS[10].name,
    packs::PACKS[11].name,
    packs::PACKS[12].name,
    packs::PACKS[13].name,
];

/// `new --rules --json`.
#[derive(Serialize)]
struct Written {
    pack: &'static str,
    scope: &'static str,
    /// The rules file.
    file: String,
    /// Whether the file was made (else the pack was appended to it).
    created: bool,
    /// The rules written, in order.
    rules: Vec<String>,
    /// The commands to run next.
    next: Vec<String>,
}

// `--project [DIR]`: absent, given alone, or given a folder.
#[allow(clippy::option_option)]
pub(crate) fn run(
    global: &GlobalArgs,
    pack: &str,
    project: Option<Option<PathBuf>>,
    json: bool,
    printer: &Printer,
) -> Result<ExitStatus> {
    let pack = packs::find(pack).with_context(|| {
        format!(
            "no rule pack is named '{pack}' (packs: {})",
            PACK_NAMES.join(", ")
        )
    })?;
    let paths = global.paths()?;
    let (file, scope) = match project {
        None => (paths.user_rules.clone(), Scope::User),
        Some(dir) => {
            let root = match dir {
                Some(dir) => dir,
                None => super::new::project_root(&shared::current_dir()?, printer)?,
            };
            (root.join(".agents").join(FILE_NAME), Scope::Project)
        }
    };
    let (created, names) = write(&file, pack, scope)?;
    let shown = file.display().to_string();
    let written = Written {
        pack: pack.name,
        scope: scope.as_str(),
        file: shown.clone(),
        created,
        rules: names,
        next: vec![
            format!("hermes-hooks approve {}", shell_word(&shown)),
            "hermes-hooks install <agent>".to_owned(),
            "hermes-hooks doctor".to_owned(),
        ],
    };
    if json {
        printer.document(&written)?;
    } else {
        printer.show(&human(&written, pack))?;
    }
    Ok(ExitStatus::Success)
}

/// Writes the pack into `file` (made, or appended to); the names of the rules it wrote.
fn write(file: &Path, pack: &Pack, scope: Scope) -> Result<(bool, Vec<String>)> {
    let (header, items) = pack.parts();
    let existing = match crate::limits::read(file, crate::limits::MANIFEST_MAX) {
        Ok(bytes) => Some(
            String::from_utf8(bytes)
                .map_err(|_| anyhow::anyhow!("{} is not UTF-8 text", file.display()))?,
        ),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => None,
        Err(err) => bail!("cannot read {}: {err}", file.display()),
    };
    let before = match &existing {
        Some(text) => read_rules(file, text, scope)
            .with_context(|| format!("{} is left as it is", file.display()))?,
        None => Vec::new(),
    };
    let ours = read_rules(file, pack.text, scope)
        .with_context(|| format!("the {} pack does not read as rules", pack.name))?;
    if let Some(clash) = ours.iter().find(|name| before.contains(name)) {
        bail!(
            "{} already has a rule named {clash}: the {} pack is there already, or a rule of \
             yours has its name; nothing was written",
            file.display(),
            pack.name
        );
    }
    let text = match &existing {
        None => format!(
            "# Rules for hermes-hooks: guards checked without a script. This file is approved as\n\
             # one unit: after any edit, review it again with `hermes-hooks approve`.\n#\n\
             {header}rules:\n{items}"
        ),
        Some(old) => appended(file, old, pack)?,
    };
    // What is written must read as the rules before, then the pack's, and nothing else.
    let after = read_rules(file, &text, scope).with_context(|| {
        format!(
            "the pack cannot be appended to {} as it is written; nothing was written",
            file.display()
        )
    })?;
    if after != [before.as_slice(), ours.as_slice()].concat() {
        bail!(
            "the pack cannot be appended to {}: the file would not read as its rules followed by \
             the pack's; nothing was written",
            file.display()
        );
    }
    let dir = file.parent().unwrap_or_else(|| Path::new("."));
    fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    // A new file gets the mode a file a person writes gets; an old one keeps its own.
    let mode = fs::metadata(file).map_or(0o644, |meta| meta.permissions().mode() & 0o7777);
    crate::statefile::write_atomic(dir, file, ".rules.yaml.", text.as_bytes())
        .with_context(|| format!("cannot write {}", file.display()))?;
    fs::set_permissions(file, fs::Permissions::from_mode(mode))
        .with_context(|| format!("cannot set the mode of {}", file.display()))?;
    Ok((existing.is_none(), ours))
}

/// `old` (the text of `file`) with the pack's rules appended after a line naming it, indented
/// as the file's own rules are and with its line ends; every byte of `old` is kept (but the `[]`
/// of an empty `rules: []`). A file laid out so that this cannot be done safely is refused with
/// the line that stops it.
fn appended(file: &Path, old: &str, pack: &Pack) -> Result<String> {
    let ours = Layout::read(pack.text).map_err(|refusal| {
        anyhow::anyhow!(
            "the {} pack is not a block list of rules (line {}: {})",
            pack.name,
            refusal.line,
            refusal.why
        )
    })?;
    let theirs = Layout::read(old).map_err(|refusal| {
        anyhow::anyhow!(
            "{}:{}: {}; the pack cannot be appended to it safely, and it is left as it is",
            file.display(),
            refusal.line,
            refusal.why
        )
    })?;
    let note = format!(
        "# The {} pack, from `hermes-hooks new --rules {}`.",
        pack.name, pack.name
    );
    Ok(theirs.append(&ours, &note))
}

/// The names of the rules `text` declares, in file order, or why it does not read as a rules file (any rule
/// skipped counts: a file with a mistake is not appended to).
fn read_rules(file: &Path, text: &str, scope: Scope) -> Result<Vec<String>> {
    let scratch = tempfile::Builder::new()
        .prefix(".rules-check.")
        .tempfile()
        .context("cannot make a scratch file")?;
    fs::write(scratch.path(), text).context("cannot write a scratch file")?;
    let mut warnings: Vec<Warning> = Vec::new();
    let mut errors = Vec::new();
    let hooks = rules::load_file(
        scratch.path(),
        scope,
        None,
        rules::Vars::default(),
        &mut warnings,
        &mut errors,
    );
    if let Some(error) = errors.first() {
        let at = error
            .origin
            .line
            .map_or_else(String::new, |line| format!(":{line}"));
        bail!(
            "{}{at}: {}",
            file.display(),
            error
                .message
                .trim_end_matches("; none of its rules are used")
        );
    }
    let mut declared: Vec<(Option<u64>, String)> = hooks
        .into_iter()
        .map(|hook| (hook.origin.line, hook.name))
        .collect();
    declared.sort();
    let mut names: Vec<String> = Vec::new();
    for (_, name) in declared {
        if !names.contains(&name) {
            names.push(name);
        }
    }
    Ok(names)
}

fn shell_word(text: &str) -> String {
    shlex::try_quote(text).map_or_else(|_| text.to_owned(), std::borrow::Cow::into_owned)
}

fn human(written: &Written, pack: &Pack) -> Screen {
    let mut screen = Screen::new(false);
    let how = if written.created {
        "made"
    } else {
        "appended to"
    };
    screen.line(format_args!(
        "The {} pack ({}): {} rules, {how} {}",
        pack.name,
        pack.about,
        written.rules.len(),
        written.file
    ));
    screen.line("Nothing is checked until you review and approve the file:");
    for next in &written.next {
        screen.line(format_args!("  {next}"));
    }
    screen
}
