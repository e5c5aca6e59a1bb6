//! Wire framing (OMS §11.6): each grain as a big-endian u32 length followed
//! by its bytes, a zero length ending the stream. Never written to disk.

use std::io::{Read, Write};

use super::container;
use crate::error::{CorruptReason, OmsError, Result};

/// Largest frame a [`FrameReader`] accepts unless told otherwise (16 MiB,
/// well above the 1 MB Extended-profile blob limit of §18.1).
pub const DEFAULT_MAX_FRAME: usize = 16 << 20;

/// Writes one frame. Empty entries cannot be framed (they would read as the
/// end-of-stream sentinel).
pub fn write_frame<W: Write>(w: &mut W, entry: &[u8]) -> Result<()> {
    if entry.is_empty() {
        return Err(container("an empty grain cannot be framed"));
    }
    let len = u32::try_from(entry.len()).map_err(|_| container("grain longer than 4 GiB"))?;
    w.write_all(&len.to_be_bytes())?;
    w.write_all(entry)?;
    Ok(())
}

/// Writes the zero-length end-of-stream sentinel.
pub fn write_end<W: Write>(w: &mut W) -> Result<()> {
    w.write_all(&[0, 0, 0, 0])?;
    Ok(())
}

/// Frames a sequence of grains, sentinel included.
pub fn encode_frames<'a>(entries: impl IntoIterator<Item = &'a [u8]>) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    for e in entries {
        write_frame(&mut out, e)?;
    }
    write_end(&mut out)?;
    Ok(out)
}

/// Reads frames until the sentinel. A stream that ends without a sentinel
/// is truncated (`ERR_CORRUPT`); a frame larger than the limit is refused
/// before anything is allocated for it.
pub struct FrameReader<R> {
    inner: R,
    max_frame: usize,
    done: bool,
}

impl<R: Read> FrameReader<R> {
    /// A reader with the default frame limit.
    pub fn new(inner: R) -> Self {
        Self::with_limit(inner, DEFAULT_MAX_FRAME)
    }

    /// A reader with an explicit frame limit.
    pub fn with_limit(inner: R, max_frame: usize) -> Self {
        FrameReader { inner, max_frame, done: false }
    }

    fn next_frame(&mut self) -> Result<Option<Vec<u8>>> {
        let mut len = [0u8; 4];
        self.inner.read_exact(&mut len)?;
        let n = u32::from_be_bytes(len) as usize;
        if n == 0 {
            return Ok(None);
        }
        if n > self.max_frame {
            return Err(container(format!("frame of {n} bytes exceeds the {} byte limit", self.max_frame)));
        }
        let mut buf = vec![0u8; n];
        self.inner.read_exact(&mut buf)?;
        Ok(Some(buf))
    }
}

impl<R: Read> Iterator for FrameReader<R> {
    type Item = Result<Vec<u8>>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        match self.next_frame() {
            Ok(Some(f)) => Some(Ok(f)),
            Ok(None) => {
                self.done = true;
                None
            }
            Err(e) => {
                self.done = true;
                Some(Err(e))
            }
        }
    }
}

/// Decodes a complete framed stream held in memory; bytes after the
/// sentinel are an error.
pub fn decode_frames(bytes: &[u8]) -> Result<Vec<Vec<u8>>> {
    let mut cursor = std::io::Cursor::new(bytes);
    let frames = FrameReader::new(&mut cursor).collect::<Result<Vec<_>>>()?;
    if (cursor.position() as usize) < bytes.len() {
        return Err(OmsError::corrupt(CorruptReason::TrailingBytes));
    }
    Ok(frames)
}
