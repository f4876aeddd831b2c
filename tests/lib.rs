//! The one integration-test binary (linking once is cheaper than running on two cores).

#![allow(unreachable_pub)] // test helpers are shared between modules of one binary
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test, with its location
#![allow(clippy::needless_raw_string_hashes)] // snapbox writes its snapshots this way

mod common;

mod agent_claude_code;
mod agent_codex;
mod agent_copilot;
mod agent_cursor;
mod agent_droid;
mod agent_gemini;
mod agent_hooks;
mod agent_hooks_spec;
mod agent_mode;
mod agent_plugins;
mod agent_qwen;
mod answers;
mod approve;
mod ask;
mod audit;
mod completions;
mod config;
mod consent;
mod docs;
mod doctor;
mod events;
mod example;
mod exec;
mod generated;
mod hermes_plugin;
mod hostile_input;
mod hostile_trees;
mod house;
mod install;
mod interrupt;
mod library;
mod list;
mod log;
mod loop_guard;
mod memo;
mod new;
mod newer_events;
mod newest_hermes;
mod output;
mod pager;
mod parity;
mod payload;
mod person;
mod project;
mod protect;
mod python_re;
mod races;
mod revoke;
mod rules;
mod serve;
mod setup;
mod terminal;
mod test_cmd;
mod trust;
mod undecided;
mod vanished;
