//! Pattern tables on disk: a versioned header, checksums, a keyed digest, then the table
//! data.
//!
//! ```text
//! offset size
//!      0    8  magic "NPZLPDB\n"
//!      8    4  format version (little-endian u32)
//!     12    1  rows
//!     13    1  cols
//!     14    1  pattern tiles k
//!     15    1  entry encoding (1: half the excess over Manhattan, 4 bits)
//!     16   32  goal cells of the pattern, ascending, padded with 0xFF
//!     48    8  entries (u64)
//!     56    8  data bytes (u64)
//!     64    8  capped entries (u64)
//!     72    1  largest distance
//!     73    1  the blank's goal cell
//!     74    2  zero
//!     76    4  CRC-32 of the data
//!     80    4  CRC-32 of bytes 0..80
//!     84   32  keyed BLAKE3 of bytes 0..84 and the data, under the user's DigestKey
//!    116       data
//! ```
//!
//! A file is trusted only if every header field matches the table asked for, both
//! checksums hold, the digest verifies under the reader's [`DigestKey`], and the entries
//! nearest the goal and a random sample of the rest are consistent with the puzzle's moves
//! (see `verify.rs`). The checksums only tell corruption from tampering in messages: anyone
//! who can rewrite the file can recompute them. The digest cannot be recomputed without
//! the key, a secret of the user's kept outside the table directory (see
//! [`DigestKey::default_path`]), so a file altered anywhere, or written by anyone else
//! (another user, another machine, a copy from elsewhere), is not trusted and is rebuilt.
//! The consistency checks stay as a second line: they hold even against a key that leaked.
//! Anything else is reported as the reason the file was not used.
//!
//! The cache directory may be shared or reachable by others, so files are handled warily:
//! only regular files are opened, never through a symbolic link and never blocking (a named
//! pipe in their place would otherwise hang every reader); on Unix a file owned by another
//! user, or writable by others, is not trusted; tables are written to a temporary file with
//! an unpredictable name, created exclusively, then renamed into place; and nothing is
//! written to a directory that other users could tamper with (see [`check_dir`]).

use std::fs;
use std::io::{Read, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use super::build::{keep_going, BuildProgress, Progress};
use super::memory::TableMemory;
use super::table::{PatternTable, TableKey, ENCODING_HALF_EXCESS_OVER_MANHATTAN};
use crate::shape::Shape;

const MAGIC: &[u8; 8] = b"NPZLPDB\n";
/// Bumped whenever the file layout or the meaning of entries changes: older files are then
/// stale and rebuilt. Version 2 added the keyed digest; version 3 stores the entries
/// arrangement first ([`entry_index`](super::index::entry_index)).
pub const FORMAT_VERSION: u32 = 3;
/// Bytes of the header: the fields and checksums (84), then the digest (32).
pub const HEADER: usize = 116;
/// The header's bytes covered by its CRC-32.
const HEADER_CRC_COVERS: usize = 80;
/// The header's bytes covered by the digest (all but the digest itself).
const DIGEST_AT: usize = 84;

/// The file name of a pattern's table: shape, the bit mask of its goal cells and the
/// blank's goal cell, e.g. `4x4-00fe-b0.pdb.bin`, and `-r` after the blank's cell for a
/// table that keeps the blank's region.
pub fn file_name(key: &TableKey) -> String {
    let mask: u64 = key.cells.iter().fold(0, |m, &c| m | 1 << c);
    let digits = key.shape.cells().div_ceil(4);
    let regions = if key.regions { "-r" } else { "" };
    format!(
        "{}-{mask:0digits$x}-b{}{regions}.pdb.bin",
        key.shape, key.blank
    )
}

/// What a table file's header says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileHeader {
    /// The format version written.
    pub version: u32,
    /// What the table is for.
    pub key: TableKey,
    /// Number of entries.
    pub entries: u64,
    /// Bytes of data.
    pub data_bytes: u64,
    /// Entries capped at 15.
    pub capped: u64,
    /// Largest distance.
    pub max_distance: u8,
    data_crc: u32,
}

fn header_bytes(table: &PatternTable, data_crc: u32, digest_key: &DigestKey) -> [u8; HEADER] {
    let mut h = [0u8; HEADER];
    h[0..8].copy_from_slice(MAGIC);
    h[8..12].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
    let key = &table.key;
    h[12] = key.shape.rows() as u8;
    h[13] = key.shape.cols() as u8;
    h[14] = key.cells.len() as u8;
    h[15] = ENCODING_HALF_EXCESS_OVER_MANHATTAN;
    h[16..48].fill(0xFF);
    h[16..16 + key.cells.len()].copy_from_slice(&key.cells);
    h[48..56].copy_from_slice(&table.entries.to_le_bytes());
    h[56..64].copy_from_slice(&(table.data.len() as u64).to_le_bytes());
    h[64..72].copy_from_slice(&table.capped.to_le_bytes());
    h[72] = table.max_distance;
    h[73] = key.blank;
    h[74] = u8::from(key.regions);
    h[76..80].copy_from_slice(&data_crc.to_le_bytes());
    let crc = crc32fast::hash(&h[..HEADER_CRC_COVERS]);
    h[80..84].copy_from_slice(&crc.to_le_bytes());
    let digest = digest_key.digest(&h[..DIGEST_AT], &table.data);
    h[DIGEST_AT..HEADER].copy_from_slice(&digest);
    h
}

/// Writes `table` into `dir` (created if missing) through a temporary file renamed into
/// place, so a reader never sees half a file, with its digest under `digest_key`. Returns
/// the path.
///
/// # Errors
/// The directory or file cannot be written.
pub fn save(table: &PatternTable, dir: &Path, digest_key: &DigestKey) -> std::io::Result<PathBuf> {
    if let Err(e) = fs::create_dir_all(dir) {
        // "File exists (os error 17)" for a file in the way: `check_dir` says which.
        check_dir(dir).map_err(std::io::Error::other)?;
        return Err(e);
    }
    check_dir(dir).map_err(std::io::Error::other)?;
    let path = dir.join(file_name(&table.key));
    // A unique name created with O_EXCL (so no planted file or link is ever opened), removed
    // if anything fails before the rename. Created under `CLOSING`'s lock, so that a program
    // exiting mid-save (`close_saves`) either sees the file and removes it or stops it
    // being made.
    let mut tmp = {
        let closing = CLOSING.lock().unwrap_or_else(|e| e.into_inner());
        if *closing {
            return Err(std::io::Error::other("the program is exiting"));
        }
        tempfile::Builder::new()
            .prefix(&temp_prefix())
            .suffix(TEMP_SUFFIX)
            .tempfile_in(dir)?
    };
    let f = tmp.as_file_mut();
    f.write_all(&header_bytes(
        table,
        crc32fast::hash(&table.data),
        digest_key,
    ))?;
    f.write_all(&table.data)?;
    f.sync_all()?;
    // The rename replaces whatever is at `path` (a link, a pipe) without following it.
    tmp.persist(&path).map_err(|e| e.error)?;
    Ok(path)
}

const TEMP_SUFFIX: &str = ".tmp";

/// The start of the temporary files' names of this process's saves: the process id, so a
/// program about to exit mid-save can find its own (and not another process's); the rest
/// of the name stays random.
fn temp_prefix() -> String {
    format!(".npuzzle-{}-", std::process::id())
}

/// Whether [`close_saves`] has run: no save may start a temporary file after it.
static CLOSING: std::sync::Mutex<bool> = std::sync::Mutex::new(false);

/// For a program about to exit at once in the middle of a save (a second Ctrl-C), where
/// the temporary files' own clean-up does not run: no save of this process starts after
/// this (each fails), and the temporary files of those under way are removed from `dir`.
/// A table file itself is never partial (a save renames a complete, synced file into
/// place), so after this nothing half written is left, even when another thread was just
/// starting a save (it once began one between the removal and the exit).
pub fn close_saves(dir: &Path) {
    let mut closing = CLOSING.lock().unwrap_or_else(|e| e.into_inner());
    *closing = true;
    remove_own_temp_files(dir);
}

/// Removes the temporary files of this process's saves from `dir`.
fn remove_own_temp_files(dir: &Path) {
    let prefix = temp_prefix();
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with(&prefix) && name.ends_with(TEMP_SUFFIX) {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// Whether tables may be written to `dir`. It must be a directory; on Unix it must belong
/// to this user (or to root), and if other users may write to it, it must be sticky (as
/// `/tmp` is: then they cannot remove or rename this user's files, and files they plant
/// are refused by their owner when read).
///
/// # Errors
/// Why the directory is refused, in words.
pub fn check_dir(dir: &Path) -> Result<(), String> {
    let meta = fs::metadata(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    if !meta.is_dir() {
        return Err(format!("{} is not a directory", dir.display()));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let me = rustix::process::geteuid().as_raw();
        if meta.uid() != me && meta.uid() != 0 {
            return Err(format!(
                "{} belongs to another user (uid {}); refusing to use it as a cache directory",
                dir.display(),
                meta.uid()
            ));
        }
        if meta.mode() & 0o022 != 0 && meta.mode() & 0o1000 == 0 {
            return Err(format!(
                "{} is writable by other users and not sticky (mode {:o}); refusing to use it \
                 as a cache directory",
                dir.display(),
                meta.mode() & 0o7777
            ));
        }
    }
    Ok(())
}

/// Opens a table file for reading, warily (see the module docs): a regular file, not a
/// link, opened without blocking, and on Unix owned by this user or root and writable by
/// no one else.
///
/// # Errors
/// Why the file is not opened, in words.
pub fn open(path: &Path) -> Result<fs::File, String> {
    match fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => {
            return Err("is a symbolic link (not followed)".into())
        }
        Ok(m) if m.is_dir() => return Err("is a directory, not a pattern database file".into()),
        Ok(m) if !m.is_file() => {
            return Err("is not a regular file (a pipe, socket or device)".into())
        }
        Ok(_) => {}
        Err(e) => return Err(e.to_string()),
    }
    let mut options = fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // Checked above, but the file could be swapped between the check and the open.
        let flags = rustix::fs::OFlags::NOFOLLOW | rustix::fs::OFlags::NONBLOCK;
        options.custom_flags(flags.bits() as i32);
    }
    let f = options.open(path).map_err(|e| e.to_string())?;
    let meta = f.metadata().map_err(|e| e.to_string())?;
    if !meta.is_file() {
        return Err("is not a regular file".into());
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let me = rustix::process::geteuid().as_raw();
        if meta.uid() != me && meta.uid() != 0 {
            return Err(format!("belongs to another user (uid {})", meta.uid()));
        }
        if meta.mode() & 0o022 != 0 {
            return Err(format!(
                "is writable by other users (mode {:o})",
                meta.mode() & 0o777
            ));
        }
    }
    Ok(f)
}

/// Reads and checks a header.
///
/// # Errors
/// Why the file is not a usable table file, in words.
pub fn read_header(path: &Path) -> Result<FileHeader, String> {
    let mut f = open(path)?;
    let mut h = [0u8; HEADER];
    f.read_exact(&mut h)
        .map_err(|_| "file is too short to be a pattern database".to_string())?;
    let header = parse_header(&h)?;
    // One `stat`: a truncated file is not listed "ok", nor counted as a table at hand.
    check_length(&f, &header)?;
    Ok(header)
}

/// Whether the file holds the header and exactly the data bytes its header says.
fn check_length(f: &fs::File, header: &FileHeader) -> Result<(), String> {
    let file_len = f.metadata().map_err(|e| e.to_string())?.len();
    let expected = HEADER as u64 + header.data_bytes;
    if file_len != expected {
        return Err(format!(
            "file has {file_len} bytes, expected {expected} (truncated or padded)"
        ));
    }
    Ok(())
}

fn parse_header(h: &[u8; HEADER]) -> Result<FileHeader, String> {
    if &h[0..8] != MAGIC {
        return Err("not a pattern database file".into());
    }
    let u32_at = |i: usize| u32::from_le_bytes(h[i..i + 4].try_into().expect("4 bytes"));
    let u64_at = |i: usize| u64::from_le_bytes(h[i..i + 8].try_into().expect("8 bytes"));
    if crc32fast::hash(&h[..HEADER_CRC_COVERS]) != u32_at(80) {
        return Err("header checksum mismatch (corrupt file)".into());
    }
    let version = u32_at(8);
    if version != FORMAT_VERSION {
        return Err(format!(
            "stale format version {version} (this npuzzle writes version {FORMAT_VERSION})"
        ));
    }
    if h[15] != ENCODING_HALF_EXCESS_OVER_MANHATTAN {
        return Err(format!("unknown entry encoding {}", h[15]));
    }
    let shape = Shape::new(usize::from(h[12]), usize::from(h[13]))
        .map_err(|e| format!("bad shape in header: {e}"))?;
    let k = usize::from(h[14]);
    if k == 0 || k > 32 {
        return Err(format!("bad pattern size {k} in header"));
    }
    Ok(FileHeader {
        version,
        key: TableKey {
            shape,
            cells: h[16..16 + k].to_vec(),
            blank: h[73],
            regions: match h[74] {
                0 => false,
                1 => true,
                other => return Err(format!("bad region flag {other} in header")),
            },
        },
        entries: u64_at(48),
        data_bytes: u64_at(56),
        capped: u64_at(64),
        max_distance: h[72],
        data_crc: u32_at(76),
    })
}

/// Loads the table for `key` from `path`, checking everything, its digest under
/// `digest_key` included.
///
/// # Errors
/// Why the file was not trusted: missing, unreadable, another format version, another
/// pattern, a wrong size, a checksum mismatch, a digest that does not verify, or entries
/// inconsistent with the puzzle's moves.
pub fn load(path: &Path, key: &TableKey, digest_key: &DigestKey) -> Result<PatternTable, String> {
    load_checked(path, key, digest_key, LOAD_SAMPLES)
}

/// Why [`load_watched`] gave no table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotLoaded {
    /// `progress` stopped the load (a time limit, Ctrl-C); the file may be sound.
    Stopped,
    /// The file was not trusted, as [`load`] says why.
    Rejected(String),
}

// The checks' messages, as `load` gives them.
impl From<String> for NotLoaded {
    fn from(why: String) -> NotLoaded {
        NotLoaded::Rejected(why)
    }
}

impl From<&str> for NotLoaded {
    fn from(why: &str) -> NotLoaded {
        NotLoaded::Rejected(why.to_string())
    }
}

/// As [`load`], reporting to `progress` as the data is read (bytes read of the bytes to
/// read, `loading` set) and stopping when it says so: a 6-6-6-6 table set takes about half
/// a second to read and check, the 7-tile tables seconds, more than a short time limit.
///
/// # Errors
/// [`NotLoaded::Stopped`] when `progress` stopped it; otherwise as [`load`].
pub fn load_watched(
    path: &Path,
    key: &TableKey,
    digest_key: &DigestKey,
    progress: &mut Progress<'_>,
) -> Result<PatternTable, NotLoaded> {
    read_checked(path, key, digest_key, LOAD_SAMPLES, LOAD_CHUNK, progress)
}

/// Entries whose consistency [`load`] checks: a few milliseconds.
pub const LOAD_SAMPLES: usize = 1 << 13;
/// Entries whose consistency `npuzzle pdb list --verify` checks: about a second a table.
pub const VERIFY_SAMPLES: usize = 1 << 18;

/// As [`load`], checking the consistency of `samples` random entries (every entry of a
/// table that has no more).
///
/// # Errors
/// As [`load`].
pub fn load_checked(
    path: &Path,
    key: &TableKey,
    digest_key: &DigestKey,
    samples: usize,
) -> Result<PatternTable, String> {
    let mut progress = keep_going;
    let read = read_checked(path, key, digest_key, samples, LOAD_CHUNK, &mut progress);
    read.map_err(|e| match e {
        NotLoaded::Rejected(why) => why,
        NotLoaded::Stopped => unreachable!("nothing stops a load that keeps going"),
    })
}

/// Bytes read between two reports to a load's progress (a few milliseconds' worth).
const LOAD_CHUNK: usize = 8 << 20;

/// [`load_checked`] under `progress`, told every `chunk` bytes read.
fn read_checked(
    path: &Path,
    key: &TableKey,
    digest_key: &DigestKey,
    samples: usize,
    chunk: usize,
    progress: &mut Progress<'_>,
) -> Result<PatternTable, NotLoaded> {
    let entries = key.entries();
    let mut f = open(path)?;
    let mut h = [0u8; HEADER];
    f.read_exact(&mut h)
        .map_err(|_| "file is too short to be a pattern database".to_string())?;
    let header = parse_header(&h)?;
    if header.key != *key {
        let regions = |k: &TableKey| {
            if k.regions {
                ", by the blank's region"
            } else {
                ""
            }
        };
        return Err(format!(
            "holds the pattern {:?} (blank on {}{}) of a {} board, not {:?} (blank on {}{}) of a {}",
            header.key.cells,
            header.key.blank,
            regions(&header.key),
            header.key.shape,
            key.cells,
            key.blank,
            regions(key),
            key.shape
        )
        .into());
    }
    let expected_bytes = entries.div_ceil(2);
    if header.entries != entries || header.data_bytes != expected_bytes {
        return Err(format!(
            "header says {} entries in {} bytes, expected {entries} in {expected_bytes}",
            header.entries, header.data_bytes
        )
        .into());
    }
    check_length(&f, &header)?;
    let mut data = TableMemory::zeroed(expected_bytes as usize);
    let mut report = |read: u64| {
        let now = BuildProgress {
            tiles: key.cells.len(),
            depth: 0,
            expanded: read,
            total: expected_bytes,
            loading: true,
        };
        match progress(&now) {
            ControlFlow::Break(()) => Err(NotLoaded::Stopped),
            ControlFlow::Continue(()) => Ok(()),
        }
    };
    let mut crc = crc32fast::Hasher::new();
    let mut read = 0u64;
    for part in data.chunks_mut(chunk) {
        report(read)?;
        f.read_exact(part).map_err(|e| e.to_string())?;
        crc.update(part);
        read += part.len() as u64;
    }
    // The digest reads the whole table again.
    report(read)?;
    if crc.finalize() != header.data_crc {
        return Err("data checksum mismatch (corrupt file)".into());
    }
    if !digest_key.verifies(&h[..DIGEST_AT], &data, &h[DIGEST_AT..HEADER]) {
        return Err(
            "its digest does not verify under your table key (built by another \
                    user or elsewhere, or altered)"
                .into(),
        );
    }
    let table = PatternTable {
        key: key.clone(),
        entries,
        data,
        max_distance: header.max_distance,
        capped: header.capped,
    };
    super::verify::near_goal(&table, super::verify::NEAR_GOAL)?;
    super::verify::sample(&table, samples, rand::random())?;
    Ok(table)
}

/// The secret a table file's digest is keyed with: 32 random bytes of the user's, made on
/// first use and kept outside any table directory (see [`default_path`](Self::default_path)).
///
/// Whoever can write a table directory (another user of a shared or sticky one, a copy
/// from another machine, a backup restored by someone else) can rewrite a file there and
/// recompute its checksums, but not its digest without this key; so the key must not be
/// readable by them, and lives where only its owner can read it (mode 0600 in a directory
/// of the user's own configuration).
#[derive(Clone)]
pub struct DigestKey([u8; 32]);

impl std::fmt::Debug for DigestKey {
    /// Never prints the secret.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("DigestKey(..)")
    }
}

/// The environment variable that names the key file instead of the default place.
pub const KEY_ENV: &str = "NPUZZLE_TABLE_KEY";

impl DigestKey {
    /// A key of these bytes (tests, or a caller that keeps its own secret).
    pub fn from_bytes(bytes: [u8; 32]) -> DigestKey {
        DigestKey(bytes)
    }

    /// A fresh random key, from the operating system's generator (through `rand`'s
    /// thread generator, a CSPRNG seeded from it).
    pub fn generate() -> DigestKey {
        DigestKey(rand::random())
    }

    /// Where the user's key lives: the file named by `NPUZZLE_TABLE_KEY`, else
    /// `table-key` in npuzzle's folder of the user's configuration directory
    /// (`~/.config/npuzzle/table-key` on Linux). Not the cache directory: tables are
    /// cached there by default and `--pdb-dir` may point anywhere, shared included, while
    /// the key must stay where only the user can read it. `None` when the platform has no
    /// configuration directory (no home).
    pub fn default_path() -> Option<PathBuf> {
        match std::env::var_os(KEY_ENV) {
            Some(p) if !p.is_empty() => Some(PathBuf::from(p)),
            _ => dirs::config_dir().map(|d| d.join("npuzzle").join("table-key")),
        }
    }

    /// The user's key, read from [`default_path`](Self::default_path) or made there on
    /// first use.
    ///
    /// # Errors
    /// As [`load_or_create`](Self::load_or_create); no configuration directory.
    pub fn user() -> Result<DigestKey, String> {
        let path = Self::default_path()
            .ok_or_else(|| format!("no place for a table key (set {KEY_ENV})"))?;
        Self::load_or_create(&path)
    }

    /// Reads the key at `path`, or makes a random one there if there is none: the
    /// directories created with mode 0700, the file written to a temporary file of mode
    /// 0600 and linked into place only if no other process made one first (then that one
    /// is read).
    ///
    /// # Errors
    /// The file cannot be read or written; it is not a regular file of 32 bytes; on Unix it
    /// belongs to another user or other users may read or write it (a key others can read
    /// lets them forge digests, so it is refused rather than used).
    pub fn load_or_create(path: &Path) -> Result<DigestKey, String> {
        let shown = path.display();
        match read_key(path) {
            Ok(key) => return Ok(key),
            Err(KeyError::Missing) => {}
            Err(KeyError::Bad(why)) => return Err(format!("table key {shown}: {why}")),
        }
        let parent = path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let mut builder = fs::DirBuilder::new();
        builder.recursive(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::DirBuilderExt;
            builder.mode(0o700);
        }
        builder
            .create(parent)
            .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
        let key = DigestKey::generate();
        // tempfile creates the file exclusively with mode 0600.
        let mut tmp = tempfile::Builder::new()
            .prefix(".table-key-")
            .tempfile_in(parent)
            .map_err(|e| format!("cannot write a table key in {}: {e}", parent.display()))?;
        tmp.write_all(&key.0)
            .and_then(|()| tmp.as_file().sync_all())
            .map_err(|e| format!("cannot write table key {shown}: {e}"))?;
        match tmp.persist_noclobber(path) {
            Ok(_) => Ok(key),
            // Another process made the key first: use that one, as every other will.
            Err(e) if e.error.kind() == std::io::ErrorKind::AlreadyExists => read_key(path)
                .map_err(|e| match e {
                    KeyError::Missing => format!("table key {shown} vanished"),
                    KeyError::Bad(why) => format!("table key {shown}: {why}"),
                }),
            Err(e) => Err(format!("cannot write table key {shown}: {}", e.error)),
        }
    }

    /// The digest of a header's first bytes and the table data: BLAKE3 in keyed mode (a
    /// MAC; Aumasson et al. 2020, section 2.2 of the BLAKE3 paper).
    fn digest(&self, header: &[u8], data: &[u8]) -> [u8; 32] {
        let mut h = blake3::Hasher::new_keyed(&self.0);
        h.update(header);
        h.update(data);
        *h.finalize().as_bytes()
    }

    /// Whether `stored` is the digest of `header` and `data`, compared in constant time
    /// (`blake3::Hash`'s equality) so the comparison leaks nothing of the right digest.
    fn verifies(&self, header: &[u8], data: &[u8], stored: &[u8]) -> bool {
        let Ok(stored) = <[u8; 32]>::try_from(stored) else {
            return false;
        };
        blake3::Hash::from_bytes(self.digest(header, data)) == blake3::Hash::from_bytes(stored)
    }
}

enum KeyError {
    Missing,
    Bad(String),
}

/// Reads a key file warily, as [`open`] reads tables: a regular file, not a link, owned by
/// this user, and on Unix readable and writable by no one else.
fn read_key(path: &Path) -> Result<DigestKey, KeyError> {
    match fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(KeyError::Missing),
        Err(e) => return Err(KeyError::Bad(e.to_string())),
        Ok(m) if !m.is_file() => {
            return Err(KeyError::Bad(
                "is not a regular file (links are not followed)".into(),
            ))
        }
        Ok(_) => {}
    }
    let mut options = fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        let flags = rustix::fs::OFlags::NOFOLLOW | rustix::fs::OFlags::NONBLOCK;
        options.custom_flags(flags.bits() as i32);
    }
    let mut f = options
        .open(path)
        .map_err(|e| KeyError::Bad(e.to_string()))?;
    let meta = f.metadata().map_err(|e| KeyError::Bad(e.to_string()))?;
    if !meta.is_file() {
        return Err(KeyError::Bad("is not a regular file".into()));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let me = rustix::process::geteuid().as_raw();
        if meta.uid() != me {
            return Err(KeyError::Bad(format!(
                "belongs to another user (uid {})",
                meta.uid()
            )));
        }
        if meta.mode() & 0o077 != 0 {
            return Err(KeyError::Bad(format!(
                "other users may read or write it (mode {:o}); a table key must be private \
                 (chmod 600)",
                meta.mode() & 0o777
            )));
        }
    }
    let mut key = [0u8; 32];
    let mut rest = Vec::new();
    f.read_exact(&mut key)
        .and_then(|()| f.take(1).read_to_end(&mut rest))
        .map_err(|_| KeyError::Bad("is not a table key (expected 32 bytes)".into()))?;
    if !rest.is_empty() {
        return Err(KeyError::Bad(
            "is not a table key (expected 32 bytes)".into(),
        ));
    }
    Ok(DigestKey(key))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_made_private_once_and_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config").join("npuzzle").join("table-key");
        let made = DigestKey::load_or_create(&path).unwrap();
        let read = DigestKey::load_or_create(&path).unwrap();
        assert_eq!(made.0, read.0, "the second call reads the first key");
        assert_eq!(fs::read(&path).unwrap(), made.0);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode(&path), 0o600);
            assert_eq!(mode(path.parent().unwrap()), 0o700);
            // A key others may read lets them forge digests: refused, not used.
            fs::set_permissions(&path, fs::Permissions::from_mode(0o644)).unwrap();
            let e = DigestKey::load_or_create(&path).unwrap_err();
            assert!(e.contains("must be private"), "{e}");
            fs::set_permissions(&path, fs::Permissions::from_mode(0o600)).unwrap();
            // Nor is a link to a key.
            let link = dir.path().join("link");
            std::os::unix::fs::symlink(&path, &link).unwrap();
            let e = DigestKey::load_or_create(&link).unwrap_err();
            assert!(e.contains("not a regular file"), "{e}");
        }
        fs::write(&path, b"short").unwrap();
        let e = DigestKey::load_or_create(&path).unwrap_err();
        assert!(e.contains("expected 32 bytes"), "{e}");
        assert_eq!(
            format!("{made:?}"),
            "DigestKey(..)",
            "the secret is never printed"
        );
    }

    /// A load reports the bytes it has read and stops when told, leaving the file sound.
    #[test]
    fn a_region_table_is_saved_under_its_own_name_and_read_back() {
        let classic = TableKey {
            shape: "4x4".parse().unwrap(),
            cells: vec![0, 1, 4, 5],
            blank: 15,
            regions: false,
        };
        let key = TableKey {
            regions: true,
            ..classic.clone()
        };
        assert_eq!(file_name(&key), "4x4-0033-b15-r.pdb.bin");
        assert_eq!(file_name(&classic), "4x4-0033-b15.pdb.bin");
        let table = super::super::build::build(&key, &mut keep_going).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let digest_key = DigestKey::generate();
        let path = save(&table, dir.path(), &digest_key).unwrap();
        assert_eq!(read_header(&path).unwrap().key, key);
        let loaded = load(&path, &key, &digest_key).unwrap();
        assert_eq!(loaded, table);
        // The same pattern's table without regions is another table.
        let e = load(&path, &classic, &digest_key).unwrap_err();
        assert!(e.contains("holds the pattern"), "{e}");
    }

    #[test]
    fn a_load_reports_its_bytes_and_stops_when_told() {
        let key = TableKey {
            shape: "4x4".parse().unwrap(),
            cells: vec![0, 1, 2, 3, 4],
            blank: 15,
            regions: false,
        };
        let table = super::super::build::build(&key, &mut keep_going).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let digest_key = DigestKey::generate();
        let path = save(&table, dir.path(), &digest_key).unwrap();
        let bytes = key.entries().div_ceil(2);
        let chunk = 16 << 10;
        let mut reports = Vec::new();
        let loaded = read_checked(&path, &key, &digest_key, 64, chunk, &mut |p| {
            reports.push(*p);
            ControlFlow::Continue(())
        });
        assert_eq!(loaded.unwrap().data[..], table.data[..]);
        // Once before each chunk, once after the last.
        assert_eq!(reports.len() as u64, bytes.div_ceil(chunk as u64) + 1);
        assert!(reports
            .iter()
            .all(|p| p.loading && p.total == bytes && p.tiles == 5));
        assert!(reports.windows(2).all(|w| w[0].expanded < w[1].expanded));
        assert_eq!(reports.last().unwrap().expanded, bytes);
        for stop_at in [0, 3, reports.len() - 1] {
            let mut told = 0;
            let stopped = read_checked(&path, &key, &digest_key, 64, chunk, &mut |_| {
                told += 1;
                if told > stop_at {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            });
            assert_eq!(
                stopped.err(),
                Some(NotLoaded::Stopped),
                "stopped at {stop_at}"
            );
        }
        let again = load(&path, &key, &digest_key).unwrap();
        assert_eq!(again.data[..], table.data[..]);
    }

    #[test]
    fn two_keys_give_different_digests() {
        let (a, b) = (DigestKey::generate(), DigestKey::generate());
        assert_ne!(a.0, b.0);
        let d = a.digest(b"header", b"data");
        assert!(a.verifies(b"header", b"data", &d));
        assert!(!b.verifies(b"header", b"data", &d));
        assert!(!a.verifies(b"header", b"datb", &d));
        assert!(!a.verifies(b"header", b"data", &d[..31]));
    }
}
