//! The audit log a line at a time, forward from its start or backward from its end, through a
//! buffer of bounded size: a line longer than [`LINE_MAX`] is reported as too long, never held
//! whole, so memory does not grow with the log nor with any one line in it.

use std::fs::File;
use std::io::{self, BufRead as _, BufReader, Read as _};
use std::os::unix::fs::FileExt as _;

/// The longest line read (far above a line with a whole payload in it).
pub(super) const LINE_MAX: usize = 64 * 1024 * 1024;
/// How much is read at a time.
const CHUNK: usize = 64 * 1024;

/// One line, without its newline.
#[derive(Clone, Copy)]
pub(super) enum Line<'a> {
    /// Its bytes.
    Text(&'a [u8]),
    /// Longer than [`LINE_MAX`]: left unread.
    TooLong,
}

/// Lines from the start, numbered from 1.
pub(super) struct Forward {
    reader: BufReader<File>,
    buf: Vec<u8>,
    max: usize,
    /// The number of the line last returned.
    pub number: usize,
}

impl Forward {
    pub(super) fn new(file: File) -> Self {
        Self {
            reader: BufReader::with_capacity(CHUNK, file),
            buf: Vec::new(),
            max: LINE_MAX,
            number: 0,
        }
    }

    /// The next line; `None` at the end of the file.
    pub(super) fn next_line(&mut self) -> io::Result<Option<Line<'_>>> {
        self.buf.clear();
        let mut read_any = false;
        let mut too_long = false;
        loop {
            let available = self.reader.fill_buf()?;
            if available.is_empty() {
                break;
            }
            read_any = true;
            let newline = available.iter().position(|&b| b == b'\n');
            let take = newline.map_or(available.len(), |at| at + 1);
            if !too_long {
                if self.buf.len() + take > self.max + 1 {
                    too_long = true;
                    self.buf = Vec::new();
                } else {
                    self.buf.extend_from_slice(&available[..take]);
                }
            }
            self.reader.consume(take);
            if newline.is_some() {
                break;
            }
        }
        if !read_any {
            return Ok(None);
        }
        self.number += 1;
        if too_long {
            return Ok(Some(Line::TooLong));
        }
        if self.buf.last() == Some(&b'\n') {
            self.buf.pop();
        }
        Ok(Some(Line::Text(&self.buf)))
    }
}

/// Lines from the end, each with the offset where it starts.
pub(super) struct Backward {
    file: File,
    /// Where `buf` starts in the file.
    pos: u64,
    /// The part read and not yet returned, from `pos`.
    buf: Vec<u8>,
    /// The line returned last.
    line: Vec<u8>,
    /// The line being read is too long: `buf` holds none of it.
    too_long: bool,
    done: bool,
    max: usize,
    chunk: usize,
}

impl Backward {
    pub(super) fn new(file: File) -> io::Result<Self> {
        let pos = file.metadata()?.len();
        Ok(Self {
            file,
            pos,
            buf: Vec::new(),
            line: Vec::new(),
            too_long: false,
            done: false,
            max: LINE_MAX,
            chunk: CHUNK,
        })
    }

    /// The line before the one returned last, and its offset; `None` once the first line was
    /// returned. The text after the last newline (usually nothing) is the first line returned.
    pub(super) fn next_line(&mut self) -> io::Result<Option<(u64, Line<'_>)>> {
        loop {
            if let Some(at) = self.buf.iter().rposition(|&b| b == b'\n') {
                let start = self.pos + at as u64 + 1;
                self.line = self.buf.split_off(at + 1);
                self.buf.truncate(at);
                return Ok(Some((start, self.take_line())));
            }
            if self.pos == 0 {
                if self.done {
                    return Ok(None);
                }
                self.done = true;
                self.line = std::mem::take(&mut self.buf);
                return Ok(Some((0, self.take_line())));
            }
            self.read_before()?;
        }
    }

    fn take_line(&mut self) -> Line<'_> {
        if std::mem::take(&mut self.too_long) || self.line.len() > self.max {
            Line::TooLong
        } else {
            Line::Text(&self.line)
        }
    }

    /// Reads the chunk before `pos` in front of `buf`; a line that grows past [`LINE_MAX`] is
    /// dropped from the buffer, only its start still looked for.
    fn read_before(&mut self) -> io::Result<()> {
        let size = usize::try_from(self.pos).map_or(self.chunk, |pos| pos.min(self.chunk));
        self.pos -= size as u64;
        let mut chunk = vec![0; size];
        self.file.read_exact_at(&mut chunk, self.pos)?;
        if self.too_long {
            self.buf = chunk;
            return Ok(());
        }
        chunk.extend_from_slice(&self.buf);
        self.buf = chunk;
        if self.buf.len() > self.max + self.chunk && !self.buf.contains(&b'\n') {
            self.too_long = true;
            self.buf = Vec::new();
        }
        Ok(())
    }
}

/// The line numbers (from 1) of `offsets`, ascending line starts, counting newlines from the
/// start of `file` up to the last of them.
pub(super) fn numbers(file: File, offsets: &[u64]) -> io::Result<Vec<usize>> {
    let mut reader = BufReader::with_capacity(CHUNK, file);
    let mut numbers = Vec::with_capacity(offsets.len());
    let mut at: u64 = 0;
    let mut line = 1;
    let mut chunk = vec![0; CHUNK];
    for &offset in offsets {
        while at < offset {
            let want = usize::try_from(offset - at).map_or(CHUNK, |left| left.min(CHUNK));
            let read = reader.read(&mut chunk[..want])?;
            if read == 0 {
                break;
            }
            #[allow(clippy::naive_bytecount)] // no crate for this one count
            {
                line += chunk[..read].iter().filter(|&&b| b == b'\n').count();
            }
            at += read as u64;
        }
        numbers.push(line);
    }
    Ok(numbers)
}

#[cfg(test)]
mod tests {
    use std::io::{Seek as _, Write as _};

    use super::{Backward, Forward, Line};

    fn owned(line: Line<'_>) -> Option<Vec<u8>> {
        match line {
            Line::Text(bytes) => Some(bytes.to_vec()),
            Line::TooLong => None,
        }
    }

    /// Lines as read: their bytes, `None` for one too long.
    type Read = Vec<Option<Vec<u8>>>;

    /// The lines of `text` read both ways with a cap of `max` bytes and chunks of `chunk`.
    fn both_ways(text: &[u8], max: usize, chunk: usize) -> (Read, Read) {
        let mut file = tempfile::tempfile().unwrap();
        file.write_all(text).unwrap();
        file.rewind().unwrap();
        let mut forward = Forward::new(file.try_clone().unwrap());
        forward.max = max;
        let mut ahead = Vec::new();
        while let Some(line) = forward.next_line().unwrap() {
            ahead.push(owned(line));
        }
        let mut backward = Backward::new(file).unwrap();
        backward.max = max;
        backward.chunk = chunk;
        let mut behind = Vec::new();
        let mut starts = Vec::new();
        while let Some((start, line)) = backward.next_line().unwrap() {
            starts.push(start);
            behind.push(owned(line));
        }
        behind.reverse();
        starts.reverse();
        for (start, line) in starts.iter().zip(&behind) {
            let start = usize::try_from(*start).unwrap();
            assert!(start == 0 || text[start - 1] == b'\n', "{start}");
            if let Some(line) = line {
                assert!(text[start..].starts_with(line));
            }
        }
        (ahead, behind)
    }

    #[test]
    fn both_ways_read_the_same_lines_and_cut_the_same_long_ones() {
        let long = "x".repeat(40);
        for text in [
            String::new(),
            "\n".to_owned(),
            "a".to_owned(),
            "a\nb\n".to_owned(),
            "a\nb".to_owned(),
            "\n\nab\n\n".to_owned(),
            format!("a\n{long}\nb\n"),
            format!("{long}\n{long}"),
            format!("{long}{long}{long}\nshort\n{long}\n"),
        ] {
            for chunk in [1, 3, 7, 64] {
                let (mut ahead, behind) = both_ways(text.as_bytes(), 16, chunk);
                // Forward never makes a line of the text after the last newline when it is
                // empty; backward does (and `log` skips it as blank).
                if text.is_empty() || text.ends_with('\n') {
                    ahead.push(Some(Vec::new()));
                }
                assert_eq!(ahead, behind, "{text:?} by chunks of {chunk}");
                for line in behind.iter().flatten() {
                    assert!(line.len() <= 16, "{text:?}");
                }
                assert_eq!(
                    behind.iter().filter(|line| line.is_none()).count(),
                    text.split('\n').filter(|line| line.len() > 16).count(),
                    "{text:?} by chunks of {chunk}"
                );
            }
        }
    }
}
