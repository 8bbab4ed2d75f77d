//! Reading and writing files safely: the one way the project writes a file, and a bounded read.
//!
//! [`write_atomically`] never leaves a half-written target and never harms the old file when it
//! fails: the bytes go to a temporary file created exclusively (`create_new`, so an existing file
//! or symbolic link of that name is never followed or overwritten) in the target's folder, are
//! synced to disk, and the temporary file is then renamed over the target. A target that exists
//! and is not a regular file (a folder, a FIFO, a device, a socket) is refused, and so is a
//! target whose folder does not exist. A symbolic link as the target is replaced by the file, not
//! followed.
//!
//! [`read_regular`] reads only regular files, and at most a given number of bytes, so a FIFO or
//! `/dev/zero` named as a data file is an error rather than a hang or an exhausted memory.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use thiserror::Error;

/// Why a file could not be read or written.
#[derive(Debug, Error)]
pub enum FileError {
    #[error("cannot write {path}: it exists and is not a regular file")]
    NotRegularTarget { path: PathBuf },
    #[error("cannot read {path}: it is not a regular file")]
    NotRegularSource { path: PathBuf },
    #[error("cannot write {path}: the folder {folder} does not exist")]
    NoFolder { path: PathBuf, folder: PathBuf },
    #[error("cannot read {path}: it is larger than {limit} bytes")]
    TooLarge { path: PathBuf, limit: u64 },
    #[error("cannot {action} {path}: {source}")]
    Io {
        action: &'static str,
        path: PathBuf,
        source: io::Error,
    },
}

impl FileError {
    /// The kind of input/output error this is, for callers that tell a missing file
    /// ([`io::ErrorKind::NotFound`]) from other problems.
    pub fn kind(&self) -> io::ErrorKind {
        match self {
            FileError::Io { source, .. } => source.kind(),
            FileError::NoFolder { .. } => io::ErrorKind::NotFound,
            FileError::TooLarge { .. } => io::ErrorKind::InvalidData,
            FileError::NotRegularTarget { .. } | FileError::NotRegularSource { .. } => {
                io::ErrorKind::InvalidInput
            }
        }
    }

    /// What went wrong, without the path, as an [`io::Error`] of the same [kind](Self::kind):
    /// for error types that already name the file (`cannot read net file PATH: REASON`).
    pub fn into_reason(self) -> io::Error {
        let kind = self.kind();
        match self {
            FileError::Io { source, .. } => source,
            FileError::NotRegularTarget { .. } => {
                io::Error::new(kind, "it exists and is not a regular file")
            }
            FileError::NotRegularSource { .. } => io::Error::new(kind, "it is not a regular file"),
            FileError::NoFolder { folder, .. } => io::Error::new(
                kind,
                format!("the folder {} does not exist", folder.display()),
            ),
            FileError::TooLarge { limit, .. } => {
                io::Error::new(kind, format!("it is larger than {limit} bytes"))
            }
        }
    }
}

/// The whole message (path included) as an [`io::Error`] of the same kind, for functions that
/// return [`io::Result`].
impl From<FileError> for io::Error {
    fn from(error: FileError) -> io::Error {
        io::Error::new(error.kind(), error)
    }
}

fn io_error<'a>(action: &'static str, path: &'a Path) -> impl FnOnce(io::Error) -> FileError + 'a {
    move |source| FileError::Io {
        action,
        path: path.to_path_buf(),
        source,
    }
}

/// Writes `bytes` to `path` atomically (see the [module documentation](self)).
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), FileError> {
    match fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() || meta.is_file() => {}
        Ok(_) => {
            return Err(FileError::NotRegularTarget {
                path: path.to_path_buf(),
            })
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(io_error("write", path)(e)),
    }
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    if !folder.is_dir() {
        return Err(FileError::NoFolder {
            path: path.to_path_buf(),
            folder,
        });
    }
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "file".to_string());
    let (tmp_path, mut tmp) = create_temporary(&folder, &name)?;
    let written = tmp
        .write_all(bytes)
        .and_then(|()| tmp.sync_all())
        .map_err(io_error("write", &tmp_path));
    drop(tmp);
    let result =
        written.and_then(|()| fs::rename(&tmp_path, path).map_err(io_error("write", path)));
    if result.is_err() {
        let _ = fs::remove_file(&tmp_path);
    }
    result
}

/// Creates a new temporary file beside the target, never reusing an existing name.
fn create_temporary(folder: &Path, name: &str) -> Result<(PathBuf, File), FileError> {
    let pid = std::process::id();
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    let mut last = None;
    for attempt in 0..100u32 {
        let tmp_path = folder.join(format!(".{name}.{pid}.{nanos:x}.{attempt}.tmp"));
        match OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp_path)
        {
            Ok(file) => return Ok((tmp_path, file)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(io_error("create a temporary file in", folder)(e)),
        }
    }
    Err(io_error("create a temporary file in", folder)(
        last.unwrap_or_else(|| {
            io::Error::new(
                io::ErrorKind::AlreadyExists,
                "every temporary name is taken",
            )
        }),
    ))
}

/// Reads the regular file `path`, refusing anything else and anything larger than `limit` bytes.
pub fn read_regular(path: &Path, limit: u64) -> Result<Vec<u8>, FileError> {
    let (file, len) = open_regular(path)?;
    if len > limit {
        return Err(FileError::TooLarge {
            path: path.to_path_buf(),
            limit,
        });
    }
    let mut bytes = Vec::with_capacity(len as usize);
    // The file may grow between the check and the read: never read past the limit.
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(io_error("read", path))?;
    if bytes.len() as u64 > limit {
        return Err(FileError::TooLarge {
            path: path.to_path_buf(),
            limit,
        });
    }
    Ok(bytes)
}

/// Opens `path` for reading if it is a regular file. The file is judged by what was opened,
/// not by the name (which may be replaced at any moment), and the open never waits: a FIFO or a
/// device is opened without blocking, found not to be a regular file and closed. Also returns
/// the file's length when opened.
fn open_regular(path: &Path) -> Result<(File, u64), FileError> {
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path).map_err(io_error("read", path))?;
    let meta = file.metadata().map_err(io_error("read", path))?;
    if !meta.is_file() {
        return Err(FileError::NotRegularSource {
            path: path.to_path_buf(),
        });
    }
    Ok((file, meta.len()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use cubeful_testkit::ScratchDir;

    #[test]
    fn writes_and_replaces_a_regular_file() {
        let dir = ScratchDir::new("files-replace");
        let target = dir.join("match.sgf");
        write_atomically(&target, b"first").unwrap();
        write_atomically(&target, b"second").unwrap();
        assert_eq!(fs::read(&target).unwrap(), b"second");
        // No temporary file is left behind.
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 1);
    }

    #[test]
    fn refuses_a_folder_and_a_missing_folder() {
        let dir = ScratchDir::new("files-refuse");
        assert!(matches!(
            write_atomically(&dir, b"x"),
            Err(FileError::NotRegularTarget { .. })
        ));
        let missing = dir.join("no/such/folder/file.sgf");
        let err = write_atomically(&missing, b"x").unwrap_err();
        assert!(matches!(err, FileError::NoFolder { .. }), "{err}");
        assert!(!dir.join("no").exists(), "missing folders are not created");
    }

    #[cfg(unix)]
    #[test]
    fn never_follows_a_planted_temporary_symlink_and_refuses_a_fifo() {
        let dir = ScratchDir::new("files-symlink");
        let victim = dir.join("victim");
        fs::write(&victim, b"precious").unwrap();
        // Plant links at every name a guessing attacker could choose for attempt 0..3.
        for attempt in 0..3 {
            let _ = std::os::unix::fs::symlink(
                &victim,
                dir.join(format!(".x.cbd.{}.{attempt}.tmp", std::process::id())),
            );
        }
        let target = dir.join("x.cbd");
        write_atomically(&target, b"data").unwrap();
        assert_eq!(fs::read(&victim).unwrap(), b"precious");
        assert!(fs::symlink_metadata(&target).unwrap().is_file());

        let fifo = dir.join("fifo");
        let status = std::process::Command::new("mkfifo").arg(&fifo).status();
        if matches!(status, Ok(s) if s.success()) {
            assert!(matches!(
                write_atomically(&fifo, b"x"),
                Err(FileError::NotRegularTarget { .. })
            ));
            assert!(matches!(
                read_regular(&fifo, 10),
                Err(FileError::NotRegularSource { .. })
            ));
            // The name swapped for a FIFO after any check by name: opening it does not wait
            // for a writer (a blocking open would hang this test), and it is refused.
            assert!(matches!(
                open_regular(&fifo),
                Err(FileError::NotRegularSource { .. })
            ));
        }
    }

    #[test]
    fn a_failed_write_keeps_the_old_file() {
        let dir = ScratchDir::new("files-keep");
        let target = dir.join("keep.txt");
        fs::write(&target, b"old").unwrap();
        // Writing into a folder that vanished fails before touching the target.
        let gone = dir.join("gone");
        fs::create_dir(&gone).unwrap();
        let inside = gone.join("f");
        fs::remove_dir(&gone).unwrap();
        assert!(write_atomically(&inside, b"new").is_err());
        assert_eq!(fs::read(&target).unwrap(), b"old");
    }

    #[test]
    fn bounded_reads() {
        let dir = ScratchDir::new("files-bounded");
        let f = dir.join("f");
        fs::write(&f, vec![7u8; 100]).unwrap();
        assert_eq!(read_regular(&f, 100).unwrap().len(), 100);
        assert!(matches!(
            read_regular(&f, 99),
            Err(FileError::TooLarge { limit: 99, .. })
        ));
        #[cfg(unix)]
        assert!(matches!(
            read_regular(Path::new("/dev/zero"), 1 << 20),
            Err(FileError::NotRegularSource { .. })
        ));
    }
}
