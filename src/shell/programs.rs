//! What a call runs, as bits: the programs and subcommands of its commands, each set kept as a
//! small mask, and which of the fields that a command may leave empty (its paths, redirections,
//! input, ...) any command has, so a rule about other programs, or about a field no command
//! has, is told at once that the call is none of its business (a rule's side is in the rules'
//! `programs`).

use super::Reading;

/// A set of words as bits: each word sets two of 128 (so two sets with no word in common rarely
/// share both bits of one; where they do, the rule is read as before).
pub(crate) type Mask = u128;

/// The fields told this way, each with its own masks.
pub(crate) const FIELDS: [&str; 2] = ["program", "subcommand"];

/// The fields of a command that may have no value (a command always has a program and a
/// line), each a bit of [`Masks`]'s second part, in this order.
pub(crate) const SPARSE: [&str; 9] = [
    "args",
    "flags",
    "subcommand",
    "paths",
    "target",
    "expansions",
    "redirects",
    "input",
    "through",
];

/// What a call runs, or a rule is about: one mask per field of [`FIELDS`] (for a rule, 0 where
/// it names no plain words for that field, so any call has it); and a bit per field of
/// [`SPARSE`]: for a call, that some command has a value for it; for a rule, that a `when`
/// condition reads it (no command without a value can meet it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Masks(pub(crate) [Mask; 2], pub(crate) u16);

/// How long [`Masks`] is in a memo: each mask and the field bits, little-endian.
const MASKS_LEN: usize = 2 * 16 + 2;

/// A memo keeps [`Masks`] as one run of bytes, read back with one copy: a mask is mostly high
/// bits, which postcard's variable-length integers spread over 19 bytes read one by one.
impl serde::Serialize for Masks {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut bytes = [0_u8; MASKS_LEN];
        bytes[..16].copy_from_slice(&self.0[0].to_le_bytes());
        bytes[16..32].copy_from_slice(&self.0[1].to_le_bytes());
        bytes[32..].copy_from_slice(&self.1.to_le_bytes());
        s.serialize_bytes(&bytes)
    }
}

impl<'de> serde::Deserialize<'de> for Masks {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit;
        impl serde::de::Visitor<'_> for Visit {
            type Value = Masks;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "{MASKS_LEN} bytes of program masks")
            }
            fn visit_bytes<E: serde::de::Error>(self, bytes: &[u8]) -> Result<Masks, E> {
                let bytes: &[u8; MASKS_LEN] = bytes
                    .try_into()
                    .map_err(|_| E::invalid_length(bytes.len(), &self))?;
                let mask = |at: usize| {
                    let mut one = [0_u8; 16];
                    one.copy_from_slice(&bytes[at..at + 16]);
                    Mask::from_le_bytes(one)
                };
                Ok(Masks(
                    [mask(0), mask(16)],
                    u16::from_le_bytes([bytes[32], bytes[33]]),
                ))
            }
        }
        d.deserialize_bytes(Visit)
    }
}

/// The bit of a field of [`SPARSE`]; 0 for any other.
pub(crate) fn sparse_bit(field: &str) -> u16 {
    SPARSE
        .iter()
        .position(|sparse| *sparse == field)
        .map_or(0, |at| 1 << at)
}

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
        // In the order of SPARSE.
        let has = [
            !command.args.is_empty(),
            !command.flags.is_empty(),
            command.subcommand.is_some(),
            !command.paths.is_empty(),
            command.target.is_some(),
            !command.expansions.is_empty(),
            !command.redirects.is_empty(),
            command.input.is_some(),
            !command.through.is_empty(),
        ];
        for (at, has) in has.into_iter().enumerate() {
            masks.1 |= u16::from(has) << at;
        }
    }
    Some(masks)
}

#[cfg(test)]
mod tests {
    use super::{MASKS_LEN, Mask, Masks, bits};

    #[test]
    fn masks_come_back_from_a_memo_as_they_went_in_and_short_bytes_do_not_read() {
        let masks = Masks(
            [set(&["rm", "git"]) | (1 << 127), set(&["push"])],
            0b1_0100_0001,
        );
        let bytes = postcard::to_allocvec(&Some(masks)).expect("written");
        assert_eq!(bytes.len(), 1 + 1 + MASKS_LEN);
        let back: Option<Masks> = postcard::from_bytes(&bytes).expect("read");
        assert_eq!(back, Some(masks));
        let short = postcard::to_allocvec(&Some(serde_bytes_of(&[1, 2, 3]))).expect("written");
        assert!(postcard::from_bytes::<Option<Masks>>(&short).is_err());
    }

    /// Bytes written as postcard writes a run of bytes.
    fn serde_bytes_of(bytes: &[u8]) -> impl serde::Serialize + '_ {
        struct Run<'a>(&'a [u8]);
        impl serde::Serialize for Run<'_> {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_bytes(self.0)
            }
        }
        Run(bytes)
    }

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
