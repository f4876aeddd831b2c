//! Memos made, read back, refused when changed or foreign, and swept.

use super::*;
use crate::config::yaml::pyyaml;

fn top(yaml: &str) -> Mapping {
    match pyyaml::load(yaml).unwrap().unwrap().value {
        Value::Map(mapping) => mapping,
        other => panic!("not a mapping: {other:?}"),
    }
}

/// The mapping as Debug shows it, without the alias cost only loading counts.
fn shown(mapping: &Mapping) -> String {
    let full = format!("{:?} {:?}", mapping.entries, mapping.repeated);
    let mut out = String::new();
    let mut rest = full.as_str();
    while let Some(at) = rest.find(", size: ") {
        out.push_str(&rest[..at]);
        rest = rest[at + 8..].trim_start_matches(|c: char| c.is_ascii_digit());
    }
    out + rest
}

const CONFIG: &str = "\
model: x
hooks:
  pre_tool_call:
    - command: a.sh
  PreToolUse:
    - command: b.sh
  on_session_start:
    - command: c.sh
  not_an_event: [1]
hooks_auto_accept: yes
hooks: {pre_tool_call: [{command: d.sh}], post_tool_call: [{command: e.sh}]}
display: {x: 1}
";

#[test]
fn a_sweep_removes_old_memos_and_left_temporary_files_and_keeps_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let now = SystemTime::now();
    let aged = |name: &str, age: Duration| {
        let path = dir.path().join(name);
        let file = fs::File::create(&path).unwrap();
        file.set_modified(now - age).unwrap();
        path
    };
    let old = aged("a.body", UNUSED_FOR + Duration::from_secs(60));
    let fresh = aged("b.body", Duration::from_secs(60));
    let left = aged(".memo.x.tmp", Duration::from_secs(2 * 3600));
    let other = aged("notes.txt", UNUSED_FOR * 2);
    sweep(dir.path());
    assert!(!old.exists() && !left.exists());
    assert!(fresh.exists() && other.exists());
}

#[test]
fn a_folder_is_swept_once_an_hour_and_never_through_a_link() {
    let dir = tempfile::tempdir().unwrap();
    assert!(due(dir.path()));
    assert!(!due(dir.path()), "swept a moment ago");
    let marker = dir.path().join(SWEPT_FILE);
    fs::File::options()
        .write(true)
        .open(&marker)
        .unwrap()
        .set_modified(SystemTime::now() - SWEEP_EVERY * 2)
        .unwrap();
    assert!(due(dir.path()), "swept two hours ago");
    let other = tempfile::tempdir().unwrap();
    let target = other.path().join("kept");
    fs::write(&target, b"data").unwrap();
    fs::remove_file(&marker).unwrap();
    std::os::unix::fs::symlink(&target, &marker).unwrap();
    // The link itself two hours old, so only the open stands in the way.
    let then = rustix::fs::Timespec {
        tv_sec: i64::try_from(
            (SystemTime::now() - SWEEP_EVERY * 2)
                .duration_since(SystemTime::UNIX_EPOCH)
                .unwrap()
                .as_secs(),
        )
        .unwrap(),
        tv_nsec: 0,
    };
    rustix::fs::utimensat(
        rustix::fs::CWD,
        &marker,
        &rustix::fs::Timestamps {
            last_access: then,
            last_modification: then,
        },
        rustix::fs::AtFlags::SYMLINK_NOFOLLOW,
    )
    .unwrap();
    assert!(!due(dir.path()));
    assert_eq!(fs::read(&target).unwrap(), b"data");
    // A FIFO there is never opened (a write-only open of one would wait for a reader).
    fs::remove_file(&marker).unwrap();
    rustix::fs::mknodat(
        rustix::fs::CWD,
        &marker,
        rustix::fs::FileType::Fifo,
        rustix::fs::Mode::from_raw_mode(0o600),
        0,
    )
    .unwrap();
    assert!(!due(dir.path()));
}

#[test]
fn keeps_the_two_keys_and_their_repeats() {
    let kept = kept(top(CONFIG), None);
    let keys: Vec<String> = kept
        .entries
        .iter()
        .map(|(k, _)| k.value.key_text())
        .collect();
    assert_eq!(keys, ["hooks", "hooks_auto_accept"]);
    assert_eq!(kept.repeated.len(), 1);
    assert_eq!(kept.repeated[0].key, "hooks");
    assert_eq!((kept.repeated[0].first, kept.repeated[0].last), (2, 11));
    // Every event keeps its lists when all events are read.
    let hooks = kept.get("hooks").unwrap();
    let Value::Map(events) = &hooks.value else {
        panic!("{hooks:?}")
    };
    assert!(
        events
            .entries
            .iter()
            .all(|(_, v)| matches!(v.value, Value::Seq(_)))
    );
}

#[test]
fn for_one_event_the_others_keep_only_their_names() {
    let yaml = "hooks:\n  pre_tool_call: [{command: a.sh}]\n  PreToolUse: [{command: b.sh}]\n  \
                on_session_start: [{command: c.sh}]\n  bogus: [1]\n";
    let kept = kept(
        top(yaml),
        Some(Event::parse("pre_tool_call").unwrap().event),
    );
    let Value::Map(events) = &kept.get("hooks").unwrap().value else {
        panic!()
    };
    let lists: Vec<(String, bool)> = events
        .entries
        .iter()
        .map(|(k, v)| (k.value.key_text(), matches!(v.value, Value::Seq(_))))
        .collect();
    assert_eq!(
        lists,
        [
            ("pre_tool_call".to_owned(), true),
            ("PreToolUse".to_owned(), true), // another name of the same event
            ("on_session_start".to_owned(), false),
            ("bogus".to_owned(), false),
        ]
    );
}

#[test]
fn one_event_of_every_event_is_that_event() {
    // `check_memos` derives each event's memo from the one parse for every event.
    let every = kept(top(CONFIG), None);
    for event in Event::all() {
        let direct = serde_json::to_string(&kept(top(CONFIG), Some(event))).unwrap();
        let derived = serde_json::to_string(&kept(every.clone(), Some(event))).unwrap();
        assert_eq!(derived, direct, "{event}");
    }
}

#[test]
fn a_memo_reads_back_as_it_was_written() {
    let yaml = "hooks:\n  pre_tool_call:\n    - {command: a, timeout: .nan, n: 1e400, m: -.inf}\n    \
                - {when: 2024-01-02, at: 2024-01-02 03:04:05, raw: !!binary aGk=, big: 0x7fffffffffffffffffff}\n    \
                - {s: !!set {a}, o: !!omap [{a: 1}], <<: {k: v}, t: yes, z: ~, f: 1.5}\n\
                hooks_auto_accept: 'on'\n";
    let kept = kept(top(yaml), None);
    let json = serde_json::to_vec(&MemoRef {
        name: "n",
        top: &kept,
    })
    .unwrap();
    let back: Memo = serde_json::from_slice(&json).unwrap();
    assert_eq!(back.name, "n");
    assert_eq!(shown(&back.top), shown(&kept));
}

#[test]
fn an_unknown_value_type_is_not_read() {
    let json = r#"{"name":"n","top":{"e":[[{"v":{"s":"hooks"},"l":1,"c":1},{"v":{"o":["module","x"]},"l":1,"c":8}]]}}"#;
    assert!(serde_json::from_str::<Memo>(json).is_err());
    let fine = json.replace("module", "date");
    assert!(serde_json::from_str::<Memo>(&fine).is_ok());
}
