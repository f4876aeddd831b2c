//! Bytes deserialized as one run: serde reads a `Vec<u8>` a byte at a time, and postcard writes
//! a `Vec<u8>` and a run of bytes alike, so either reads back as this.

use serde::de::{Deserialize, Deserializer, Error, SeqAccess, Visitor};

/// The bytes.
pub(crate) struct Bytes(pub Box<[u8]>);

impl<'de> Deserialize<'de> for Bytes {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_bytes(Visit)
    }
}

pub(crate) struct Visit;

impl<'de> Visitor<'de> for Visit {
    type Value = Bytes;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("bytes")
    }

    fn visit_bytes<E: Error>(self, bytes: &[u8]) -> Result<Bytes, E> {
        Ok(Bytes(bytes.into()))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Bytes, A::Error> {
        let mut out = Vec::new();
        while let Some(byte) = seq.next_element::<u8>()? {
            out.push(byte);
        }
        Ok(Bytes(out.into()))
    }
}

#[cfg(test)]
mod tests {
    use super::Bytes;

    #[test]
    fn a_vec_of_bytes_as_postcard_writes_it_reads_back_as_one_run() {
        let kept: Option<Vec<u8>> = Some((0..=255).collect());
        let written = postcard::to_stdvec(&kept).unwrap();
        let back: Option<Bytes> = postcard::from_bytes(&written).unwrap();
        assert_eq!(back.map(|b| b.0.into_vec()), kept);
        let none: Option<Bytes> =
            postcard::from_bytes(&postcard::to_stdvec(&None::<Vec<u8>>).unwrap()).unwrap();
        assert!(none.is_none());
    }
}
