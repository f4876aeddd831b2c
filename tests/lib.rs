//! Integration tests (one binary).
