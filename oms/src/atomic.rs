//! Atomic file replacement: a file is written to a temporary file in the
//! same directory, flushed and fsync'ed, renamed over the target, and the
//! directory is fsync'ed. A write that fails or is interrupted at any point
//! leaves the old file byte-identical (or absent, if there was none); a
//! reader never sees a half-written file.
//!
//! The temporary name is `.<name>.tmp.<pid>.<counter>` next to the target
//! (the name cut to its first 32 characters, so a long but legal target name
//! still leaves room), unique per process and per writer, so two writers — in
//! one process or in two — never write into each other's temporary file (the
//! last rename wins). A replaced file keeps its permissions; a new one gets
//! the default permissions of the process (0666 less the umask, usually
//! 0644). A target that is a symbolic link is written through: the file it
//! points to is replaced and the link stays.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Writers started by this process, for unique temporary names.
static COUNTER: AtomicU64 = AtomicU64::new(0);

/// Replaces `path` with `bytes` atomically (see the module documentation).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut f = AtomicFile::create(path)?;
    f.write_all(bytes)?;
    f.commit()
}

/// A file being written in place of `target`: a temporary file that
/// [`AtomicFile::commit`] renames over the target. Dropped without a
/// commit, it removes the temporary file and the target is untouched.
#[derive(Debug)]
pub struct AtomicFile {
    target: PathBuf,
    temp: PathBuf,
    file: Option<File>,
}

impl AtomicFile {
    /// Starts writing a replacement for `path`: creates the temporary file
    /// next to it, with the target's permissions when the target exists.
    pub fn create(path: &Path) -> io::Result<AtomicFile> {
        let linked = follow_links(path)?;
        let path = linked.as_path();
        let name = path.file_name().ok_or_else(|| {
            io::Error::new(io::ErrorKind::InvalidInput, format!("{} does not name a file", path.display()))
        })?;
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let short: String = name.to_string_lossy().chars().take(32).collect();
        let temp_name = format!(".{short}.tmp.{}.{n}", std::process::id());
        let temp = path.with_file_name(temp_name);
        let file = OpenOptions::new().write(true).create_new(true).open(&temp)?;
        let mut out = AtomicFile { target: path.to_path_buf(), temp, file: Some(file) };
        if let Ok(meta) = std::fs::metadata(path)
            && let Some(f) = &out.file
            && let Err(e) = f.set_permissions(meta.permissions())
        {
            out.discard();
            return Err(e);
        }
        Ok(out)
    }

    /// The temporary file's path (until commit).
    pub fn temp_path(&self) -> &Path {
        &self.temp
    }

    /// Flushes and fsyncs the temporary file, renames it over the target and
    /// fsyncs the directory. On an error before the rename the target is
    /// unchanged (the rename is the single step that replaces it) and the
    /// temporary file is removed; an error syncing the directory comes after
    /// the rename (the new file is in place, its durability not assured).
    pub fn commit(mut self) -> io::Result<()> {
        let Some(mut file) = self.file.take() else {
            return Err(io::Error::other("atomic file already finished"));
        };
        let synced = file.flush().and_then(|()| file.sync_all());
        drop(file);
        if let Err(e) = synced {
            self.discard();
            return Err(e);
        }
        if let Err(e) = std::fs::rename(&self.temp, &self.target) {
            self.discard();
            return Err(e);
        }
        // The rename is done: from here on the temporary name no longer exists.
        self.temp = PathBuf::new();
        sync_dir(&self.target)
    }

    fn discard(&mut self) {
        self.file = None;
        if !self.temp.as_os_str().is_empty() {
            let _ = std::fs::remove_file(&self.temp);
            self.temp = PathBuf::new();
        }
    }

    fn file(&mut self) -> io::Result<&mut File> {
        self.file.as_mut().ok_or_else(|| io::Error::other("atomic file already finished"))
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.file()?.write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.file()?.write_all(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file()?.flush()
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        self.discard();
    }
}

/// Fsyncs the directory holding `path`, so the rename itself is durable.
/// Platforms that cannot open a directory as a file skip this step.
fn sync_dir(path: &Path) -> io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if cfg!(unix) { File::open(dir)?.sync_all() } else { Ok(()) }
}

/// The file a path names once symbolic links are followed (a link's target
/// need not exist yet: writing through a dangling link creates it).
fn follow_links(path: &Path) -> io::Result<PathBuf> {
    let mut current = path.to_path_buf();
    for _ in 0..40 {
        match std::fs::symlink_metadata(&current) {
            Ok(m) if m.file_type().is_symlink() => {
                let target = std::fs::read_link(&current)?;
                current = match current.parent() {
                    Some(dir) if target.is_relative() => dir.join(target),
                    _ => target,
                };
            }
            _ => return Ok(current),
        }
    }
    Err(io::Error::other(format!("{}: too many levels of symbolic links", path.display())))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("oms-atomic-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn entries(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> =
            std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        v.sort();
        v
    }

    #[test]
    fn write_atomic_creates_and_replaces() {
        let dir = scratch("replace");
        let p = dir.join("a.mg");
        write_atomic(&p, b"one").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"one");
        write_atomic(&p, b"two, longer").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"two, longer");
        assert_eq!(entries(&dir), vec!["a.mg"], "no temporary file left behind");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn dropped_uncommitted_leaves_the_old_file_and_no_temporary() {
        let dir = scratch("drop");
        let p = dir.join("keep.mg");
        std::fs::write(&p, b"old contents").unwrap();
        {
            let mut f = AtomicFile::create(&p).unwrap();
            f.write_all(b"half of the new").unwrap();
            assert!(f.temp_path().exists());
        }
        assert_eq!(std::fs::read(&p).unwrap(), b"old contents");
        assert_eq!(entries(&dir), vec!["keep.mg"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn two_writers_use_distinct_temporaries() {
        let dir = scratch("two");
        let p = dir.join("x");
        let mut a = AtomicFile::create(&p).unwrap();
        let mut b = AtomicFile::create(&p).unwrap();
        assert_ne!(a.temp_path(), b.temp_path());
        a.write_all(b"from a").unwrap();
        b.write_all(b"from b").unwrap();
        a.commit().unwrap();
        b.commit().unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"from b", "the last rename wins, whole");
        assert_eq!(entries(&dir), vec!["x"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn permissions_are_kept_on_replace() {
        use std::os::unix::fs::PermissionsExt;
        let dir = scratch("perm");
        let p = dir.join("secret");
        std::fs::write(&p, b"x").unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o600)).unwrap();
        write_atomic(&p, b"y").unwrap();
        assert_eq!(std::fs::metadata(&p).unwrap().permissions().mode() & 0o777, 0o600);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_missing_directory_is_an_error_and_writes_nothing() {
        let dir = scratch("missing");
        let p = dir.join("no/such/dir/f");
        assert!(write_atomic(&p, b"x").is_err());
        assert!(AtomicFile::create(Path::new("/")).is_err(), "a path without a file name");
        std::fs::remove_dir_all(&dir).unwrap();
    }
    #[cfg(unix)]
    #[test]
    fn a_link_is_written_through_even_when_dangling() {
        let dir = scratch("links");
        std::os::unix::fs::symlink("real.mg", dir.join("link.mg")).unwrap();
        write_atomic(&dir.join("link.mg"), b"one").unwrap();
        assert_eq!(std::fs::read(dir.join("real.mg")).unwrap(), b"one");
        assert!(std::fs::symlink_metadata(dir.join("link.mg")).unwrap().file_type().is_symlink());
        write_atomic(&dir.join("link.mg"), b"two").unwrap();
        assert_eq!(std::fs::read(dir.join("real.mg")).unwrap(), b"two");
        std::os::unix::fs::symlink("loop.mg", dir.join("loop.mg")).unwrap();
        assert!(write_atomic(&dir.join("loop.mg"), b"x").is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
