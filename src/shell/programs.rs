//! What a call runs, as bits: the programs and subcommands of its commands, each set kept as a
//! small mask, so a rule about other programs is told at once that the call is none of its
//! business (a rule's side is in the rules' `programs`).

use super::Reading;

/// A set of words as bits: each word sets two of 128 (so two sets with no word in common rarely
/// share both bits of one; where they do, the rule is read as before).
pub(crate) type Mask = u128;

/// The fields told this way, each with its own masks.
pub(crate) const FIELDS: [&str; 2] = ["program", "subcommand"];

/// What a call runs, or a rule is about: one mask per field of [`FIELDS`] (for a rule, 0 where
/// it names no plain words for that field, so any call has it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) struct Masks(pub(crate) [Mask; 2]);

/// The bits of one word (FNV-1a).
pub(crate) fn bits(word: &[u8]) -> Mask {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in word {
        hash ^= u64::from(*byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    (1 << (hash & 127)) | (1 << ((hash >> 7) & 127))
}

/// The bits of a value, also without a final line break (as `$` finds a word before one).
fn value_bits(value: &str) -> Mask {
    let value = value.as_bytes();
    bits(value) | value.strip_suffix(b"\n").map_or(0, bits)
}

/// What a call runs, when all of it is known: the line reads, and no command's program or
/// script is left to when it runs (a program named by a variable could be any).
pub(crate) fn of_reading(reading: &Reading) -> Option<Masks> {
    if reading.undecidable.is_some() {
        return None;
    }
    let mut masks = Masks::default();
    for command in &reading.commands {
        if command.unknown.is_some() {
            return None;
        }
        masks.0[0] |= value_bits(&command.program);
        masks.0[1] |= command.subcommand.as_deref().map_or(0, value_bits);
    }
    Some(masks)
}

#[cfg(test)]
mod tests {
    use super::{Mask, bits};

    fn set(words: &[&str]) -> Mask {
        words.iter().fold(0, |mask, w| mask | bits(w.as_bytes()))
    }

    #[test]
    fn a_word_in_both_sets_always_shares_its_bits() {
        let rule = set(&["rm", "unlink", "srm"]);
        for program in ["rm", "unlink", "srm"] {
            assert_ne!(rule & set(&[program, "ls"]), 0, "{program}");
        }
        assert_eq!(bits(b"rm").count_ones(), 2);
    }

    #[test]
    fn the_packs_programs_seldom_share_bits_with_common_ones() {
        // Not a rule of the method (a shared bit only means the rule is read in full), but a
        // mask that shared bits with everything would save nothing.
        let common = [
            "ls", "cat", "echo", "grep", "cd", "git", "npm", "python3", "make", "cargo",
        ];
        let rule = set(&["docker", "podman", "nerdctl"]);
        let shared = common.iter().filter(|w| rule & set(&[w]) != 0).count();
        assert!(shared <= 2, "{shared}");
    }
}
