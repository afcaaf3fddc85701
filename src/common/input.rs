//! Reading protocol lines of any length or byte content without unbounded memory.

use super::output::Output;
use std::io::{self, BufRead};

/// Lines longer than this are rejected as a whole.
pub const MAX_LINE: usize = 1 << 20;

/// One line of input.
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    Text(String),
    TooLong(usize),
}

/// The error line's text for a line of `bytes` bytes over the limit.
pub fn too_long(bytes: usize) -> String {
    format!("input line of {bytes} bytes is longer than the limit of {MAX_LINE}")
}

/// Reads the next line (without its end-of-line); `None` at end of input. Invalid
/// UTF-8 is replaced, never rejected; a line over `MAX_LINE` bytes is skipped to its end.
pub fn read_line(reader: &mut impl BufRead) -> io::Result<Option<Line>> {
    let mut buf: Vec<u8> = Vec::new();
    let mut total = 0usize;
    let mut saw_any = false;
    loop {
        let chunk = match reader.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            if !saw_any {
                return Ok(None);
            }
            break;
        }
        saw_any = true;
        let (piece, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], Some(i + 1)),
            None => (chunk, None),
        };
        total += piece.len();
        if total <= MAX_LINE {
            buf.extend_from_slice(piece);
        } else if !buf.is_empty() {
            buf = Vec::new();
        }
        let consumed = done.unwrap_or(chunk.len());
        reader.consume(consumed);
        if done.is_some() {
            break;
        }
    }
    if total > MAX_LINE {
        return Ok(Some(Line::TooLong(total)));
    }
    if buf.last() == Some(&b'\r') {
        buf.pop();
    }
    Ok(Some(Line::Text(String::from_utf8_lossy(&buf).into_owned())))
}

/// Reads lines until `quit` or the end of input, giving each to `answer` (`false`:
/// stop reading); a line over the limit is answered as an error on `out`.
pub fn read_lines(reader: &mut impl BufRead, out: &Output, mut answer: impl FnMut(&str) -> bool) {
    loop {
        let line = match read_line(reader) {
            Ok(Some(Line::Text(t))) => t,
            Ok(Some(Line::TooLong(n))) => {
                out.error(&too_long(n));
                continue;
            }
            Ok(None) => break,
            Err(e) => {
                log::error!("cannot read stdin: {e}");
                break;
            }
        };
        if !answer(&line) {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_lines_and_handles_bad_bytes() {
        let data: &[u8] = b"uci\r\nis\xffready\n\nlast";
        let mut r = io::BufReader::new(data);
        assert_eq!(read_line(&mut r).unwrap(), Some(Line::Text("uci".into())));
        assert_eq!(
            read_line(&mut r).unwrap(),
            Some(Line::Text("is\u{fffd}ready".into()))
        );
        assert_eq!(read_line(&mut r).unwrap(), Some(Line::Text(String::new())));
        assert_eq!(read_line(&mut r).unwrap(), Some(Line::Text("last".into())));
        assert_eq!(read_line(&mut r).unwrap(), None);
    }

    #[test]
    fn rejects_huge_lines_without_keeping_them() {
        let mut data = vec![b'x'; MAX_LINE + 10];
        data.extend_from_slice(b"\nisready\n");
        let mut r = io::BufReader::with_capacity(4096, &data[..]);
        assert_eq!(
            read_line(&mut r).unwrap(),
            Some(Line::TooLong(MAX_LINE + 10))
        );
        assert_eq!(
            read_line(&mut r).unwrap(),
            Some(Line::Text("isready".into()))
        );
    }
}
