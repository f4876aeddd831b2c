//! Where a folder the guard's files live under really is, kept by a long-lived caller (`serve`)
//! while nothing on the way to it changed: every folder from `/` down to it is watched for the
//! next name, so a folder on the way renamed, removed or made a symlink, or the missing name
//! made, is an event in the folder above, and the next call asks the kernel again. Only what
//! that proves is kept: a folder reached through no symlink (it is where it is named), or one
//! that is not there. A folder behind a symlink, one that cannot be looked at, or a way that
//! cannot be watched is asked of the kernel on every call, as `run` does.

use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use super::HookCache;
use super::walk::along;
use super::watch::Token;

/// How many folders are kept; past it, all are dropped.
const FOLDERS_MAX: usize = 64;

/// One folder's place, and the watches that prove it unchanged.
#[derive(Debug)]
pub(super) struct Place {
    /// Where it is (its own name), or why it is not there.
    at: Result<PathBuf, ErrorKind>,
    watched: Vec<Token>,
    moment: u64,
}

impl HookCache {
    /// Where `folder` really is ([`crate::ground::paths::real`]): kept while the way to it is
    /// unchanged since the kernel was last asked. The watch is read where the call's project is
    /// found ([`Self::paths`]), before this is asked.
    pub(crate) fn real_folder(&mut self, folder: &Path) -> std::io::Result<PathBuf> {
        if let Some(place) = self.places.get(folder)
            && !place
                .watched
                .iter()
                .any(|token| self.watch.changed_since(*token, place.moment))
        {
            return place.at.clone().map_err(Into::into);
        }
        let old = self.places.remove(folder);
        // Watched before the kernel is asked: a change from now on is seen at the next call.
        let mut watched = Vec::new();
        let bound = along(&mut self.watch, folder, &mut watched);
        let moment = self.watch.now();
        if let Some(old) = old {
            self.release_all(old.watched);
        }
        let real = crate::ground::paths::real(folder);
        let at = match &real {
            Ok(real) if real == folder => Some(Ok(real.clone())),
            Err(err) if matches!(err.kind(), ErrorKind::NotFound | ErrorKind::NotADirectory) => {
                Some(Err(err.kind()))
            }
            _ => None,
        };
        match at.filter(|_| bound) {
            Some(at) => {
                if self.places.len() >= FOLDERS_MAX {
                    for (_, old) in std::mem::take(&mut self.places) {
                        self.release_all(old.watched);
                    }
                }
                self.places.insert(
                    folder.to_path_buf(),
                    Place {
                        at,
                        watched,
                        moment,
                    },
                );
            }
            None => self.release_all(watched),
        }
        real
    }

    fn release_all(&mut self, tokens: Vec<Token>) {
        for token in tokens {
            self.watch.release(token);
        }
    }
}
