//! `new --rules PACKS [--project]`: shipped rule packs written into a rules file (the user's, or
//! the project's `.agents/rules.yaml`) for review, or the packs listed when none is named. A new
//! file is made; an existing one gets the packs' rules appended, indented as its own, every byte
//! of it kept. A pack the file holds already is not written again; a file that does not read as
//! rules, is not laid out so that rules can be appended safely, or has only some rules of a pack,
//! is left as it is. Nothing is approved here.

use std::fs;
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result, bail};
use serde::Serialize;

use super::{GlobalArgs, shared};
use crate::config::rules::{self, FILE_NAME};
use crate::config::{Scope, Warning};
use crate::engine::rules::layout::Layout;
use crate::engine::rules::packs::{self, Pack};
use crate::ground::exit::ExitStatus;
use crate::output::{Printer, Screen};

/// What `--rules` takes: `all`, a pack's name, or several names joined by commas; the packs in
/// the order named (each once). Completion offers the names after the last comma.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PackChoice;

impl clap::builder::TypedValueParser for PackChoice {
    type Value = Vec<&'static str>;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<Self::Value, clap::Error> {
        let text = clap::builder::StringValueParser::new().parse_ref(cmd, arg, value)?;
        chosen(&text).map_err(|why| {
            clap::Error::raw(clap::error::ErrorKind::InvalidValue, format!("{why}\n")).with_cmd(cmd)
        })
    }
}

/// The packs `text` names (see [`PackChoice`]), or why it names none.
fn chosen(text: &str) -> Result<Vec<&'static str>, String> {
    if text.trim() == ALL {
        return Ok(packs::PACKS.iter().map(|pack| pack.name).collect());
    }
    let mut names: Vec<&'static str> = Vec::new();
    for word in text.split(',').map(str::trim) {
        let Some(pack) = packs::find(word) else {
            let word = if word.is_empty() { "''" } else { word };
            return Err(format!(
                "no rule pack is named {word}; `--rules` takes {ALL}, a pack's name or several \
                 joined by commas (packs: {}); `new --rules` alone lists them",
                names_joined()
            ));
        };
        if !names.contains(&pack.name) {
            names.push(pack.name);
        }
    }
    Ok(names)
}

/// The word for every pack.
pub(crate) const ALL: &str = "all";

fn names_joined() -> String {
    packs::PACKS
        .iter()
        .map(|pack| pack.name)
        .collect::<Vec<_>>()
        .join(", ")
}

/// `new --rules --json` with packs named.
#[derive(Serialize)]
pub(super) struct Written {
    /// The packs written, in order.
    pub packs: Vec<&'static str>,
    /// The packs named that the file holds already (every rule of each, by name): not written
    /// again.
    pub already: Vec<&'static str>,
    pub scope: &'static str,
    /// The rules file.
    pub file: String,
    /// Whether the file was made (else the packs were appended to it, or it was left as it was).
    pub created: bool,
    /// The rules written, in order.
    pub rules: Vec<String>,
    /// The commands to run next.
    pub next: Vec<String>,
}

/// `new --rules --json` with no pack named: the packs there are.
#[derive(Serialize)]
struct Listed {
    packs: Vec<PackShown>,
}

#[derive(Serialize)]
struct PackShown {
    name: &'static str,
    about: &'static str,
    /// The names of its rules, in order.
    rules: Vec<String>,
}

/// `new --rules [PACKS] [--project [DIR]]`: with no pack named, the packs there are.
// `--project [DIR]`: absent, given alone, or given a folder.
#[allow(clippy::option_option)]
pub(crate) fn run(
    global: &GlobalArgs,
    chosen: Option<&[&'static str]>,
    project: Option<Option<PathBuf>>,
    json: bool,
    printer: &Printer,
) -> Result<ExitStatus> {
    let Some(chosen) = chosen else {
        return list(json, printer);
    };
    let written = write_packs(global, chosen, project, printer)?;
    if json {
        printer.document(&written)?;
    } else {
        printer.show(&human(&written))?;
    }
    Ok(ExitStatus::Success)
}

/// Writes the packs named into the user's rules file, or with `project` the project's, and
/// says what it wrote.
// `--project [DIR]`: absent, given alone, or given a folder.
#[allow(clippy::option_option)]
pub(super) fn write_packs(
    global: &GlobalArgs,
    chosen: &[&'static str],
    project: Option<Option<PathBuf>>,
    printer: &Printer,
) -> Result<Written> {
    let chosen: Vec<&'static Pack> = chosen.iter().filter_map(|name| packs::find(name)).collect();
    let paths = global.paths()?;
    let (file, scope) = match project {
        None => (paths.user_rules.clone(), Scope::User),
        Some(dir) => {
            let root = match dir {
                Some(dir) => dir,
                None => super::shared::project_root(&shared::current_dir()?, printer)?,
            };
            (root.join(".agents").join(FILE_NAME), Scope::Project)
        }
    };
    let wrote = write(&file, &chosen, scope)?;
    let shown = file.display().to_string();
    Ok(Written {
        packs: wrote.packs,
        already: wrote.already,
        scope: scope.as_str(),
        file: shown.clone(),
        created: wrote.created,
        rules: wrote.rules,
        next: vec![
            format!("hermes-hooks approve {}", shell_word(&shown)),
            "hermes-hooks install <agent>".to_owned(),
            "hermes-hooks doctor".to_owned(),
        ],
    })
}

/// The packs there are, one line each (`--json`: with their rules' names).
fn list(json: bool, printer: &Printer) -> Result<ExitStatus> {
    if json {
        let mut shown = Vec::new();
        for pack in &packs::PACKS {
            let rules = read_rules(Path::new(pack.name), pack.text, Scope::User)
                .with_context(|| format!("the {} pack does not read as rules", pack.name))?;
            shown.push(PackShown {
                name: pack.name,
                about: pack.about,
                rules,
            });
        }
        printer.document(&Listed { packs: shown })?;
        return Ok(ExitStatus::Success);
    }
    let width = packs::PACKS
        .iter()
        .map(|pack| pack.name.len())
        .max()
        .unwrap_or(0);
    // On a terminal, each description wraps under itself, never through the names.
    let columns = crate::output::table::terminal_width();
    let room = columns.map(|columns| columns.saturating_sub(width + 2).max(20));
    let mut screen = Screen::new(false);
    for pack in &packs::PACKS {
        for (n, part) in crate::output::screen::wrap_shown(pack.about, room)
            .iter()
            .enumerate()
        {
            let name = if n == 0 { pack.name } else { "" };
            screen.line(format_args!("{name:width$}  {part}"));
        }
    }
    screen.line("");
    for part in crate::output::screen::wrap_shown(
        "Write some for review with `hermes-hooks new --rules NAME[,NAME...]`, or every one with \
         `--rules all`; add --project for the project's rules file.",
        columns,
    ) {
        screen.line(part);
    }
    printer.show(&screen)?;
    Ok(ExitStatus::Success)
}

/// What [`write`] did.
struct Wrote {
    created: bool,
    packs: Vec<&'static str>,
    already: Vec<&'static str>,
    rules: Vec<String>,
}

/// Writes the packs into `file` (made, or appended to), in one write: a pack the file holds
/// already (every rule of it, by name) is left out; one that shares only some rule names with
/// it stops everything, as a file that does not read as rules does.
fn write(file: &Path, chosen: &[&'static Pack], scope: Scope) -> Result<Wrote> {
    let existing = match crate::ground::limits::read(file, crate::ground::limits::MANIFEST_MAX) {
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
    let mut wrote = Wrote {
        created: false,
        packs: Vec::new(),
        already: Vec::new(),
        rules: Vec::new(),
    };
    let mut text = existing.clone();
    for pack in chosen {
        let ours = read_rules(file, pack.text, scope)
            .with_context(|| format!("the {} pack does not read as rules", pack.name))?;
        if ours.iter().all(|name| before.contains(name)) {
            wrote.already.push(pack.name);
            continue;
        }
        if let Some(clash) = ours
            .iter()
            .find(|name| before.contains(name) || wrote.rules.contains(name))
        {
            bail!(
                "{} already has a rule named {clash} but not the whole {} pack: a rule of \
                 yours has its name, or the pack was edited there; nothing was written",
                file.display(),
                pack.name
            );
        }
        text = Some(match text {
            None => {
                let (header, items) = pack.parts();
                format!(
                    "# Rules for hermes-hooks: guards checked without a script. This file is \
                     approved as\n# one unit: after any edit, review it again with `hermes-hooks \
                     approve`.\n#\n{header}rules:\n{items}"
                )
            }
            Some(old) => appended(file, &old, pack)?,
        });
        wrote.packs.push(pack.name);
        wrote.rules.extend(ours);
    }
    let Some(text) = text.filter(|_| !wrote.packs.is_empty()) else {
        return Ok(wrote);
    };
    // What is written must read as the rules before, then the packs', and nothing else.
    let after = read_rules(file, &text, scope).with_context(|| {
        format!(
            "the packs cannot be appended to {} as it is written; nothing was written",
            file.display()
        )
    })?;
    if after != [before.as_slice(), wrote.rules.as_slice()].concat() {
        bail!(
            "the packs cannot be appended to {}: the file would not read as its rules followed \
             by the packs'; nothing was written",
            file.display()
        );
    }
    let dir = file.parent().unwrap_or_else(|| Path::new("."));
    fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    // A new file gets the mode a file a person writes gets; an old one keeps its own.
    let mode = fs::metadata(file).map_or(0o644, |meta| meta.permissions().mode() & 0o7777);
    crate::ground::statefile::write_atomic(dir, file, ".rules.yaml.", text.as_bytes())
        .with_context(|| format!("cannot write {}", file.display()))?;
    fs::set_permissions(file, fs::Permissions::from_mode(mode))
        .with_context(|| format!("cannot set the mode of {}", file.display()))?;
    wrote.created = existing.is_none();
    Ok(wrote)
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
        .map(|hook| (hook.origin.line, hook.name.into()))
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

pub(super) fn human(written: &Written) -> Screen {
    let mut screen = Screen::new(false);
    for name in &written.already {
        screen.line(format_args!(
            "The {name} pack is in {} already: not written again",
            written.file
        ));
    }
    if written.packs.is_empty() {
        return screen;
    }
    let how = if written.created {
        "made"
    } else {
        "appended to"
    };
    for name in &written.packs {
        let about = packs::find(name).map_or("", |pack| pack.about);
        screen.line(format_args!("The {name} pack: {about}"));
    }
    screen.line(format_args!(
        "{} rules, {how} {}",
        written.rules.len(),
        written.file
    ));
    screen.line("Nothing is checked until you review and approve the file:");
    for next in &written.next {
        screen.line(format_args!("  {next}"));
    }
    screen
}
