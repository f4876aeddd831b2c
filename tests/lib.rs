//! The one integration-test binary (linking once is cheaper than running on two cores).

#![allow(unreachable_pub)] // test helpers are shared between modules of one binary
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test, with its location

mod common;

mod answers;
mod config;
mod consent;
mod events;
mod example;
mod exec;
mod output;
mod payload;
