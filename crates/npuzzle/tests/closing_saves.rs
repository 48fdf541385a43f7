//! A program exiting at once mid-save (a second Ctrl-C) closes the table store: the
//! temporary files of saves under way are removed and no save starts after it. In a test
//! binary of its own, since closing is for the whole process.

use npuzzle::heuristic::pdb::build::build;
use npuzzle::heuristic::pdb::store::{self, DigestKey};
use npuzzle::heuristic::pdb::{keep_going, TableKey};

fn temp_files(dir: &std::path::Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect()
}

/// Before the fix a save could start its temporary file after the clean-up had looked,
/// and the program exited with it left in the cache directory.
#[test]
fn after_closing_no_save_starts_and_no_temporary_file_is_left() {
    let dir = tempfile::tempdir().unwrap();
    let key = TableKey {
        shape: "3x3".parse().unwrap(),
        cells: vec![1, 2, 3],
        blank: 0,
        regions: false,
    };
    let table = build(&key, &mut keep_going).unwrap();
    let digest = DigestKey::from_bytes([5; 32]);
    let saved = store::save(&table, dir.path(), &digest).unwrap();
    assert!(saved.exists());
    // A save under way: its temporary file, as `save` names it, is on disk.
    let stray = dir
        .path()
        .join(format!(".npuzzle-{}-abc123.tmp", std::process::id()));
    std::fs::write(&stray, b"half a table").unwrap();
    // Another process's temporary file is not ours to remove.
    let other = dir.path().join(".npuzzle-1-abc123.tmp");
    std::fs::write(&other, b"theirs").unwrap();

    store::close_saves(dir.path());
    assert_eq!(
        temp_files(dir.path()),
        vec![".npuzzle-1-abc123.tmp".to_string()]
    );
    let err = store::save(&table, dir.path(), &digest).unwrap_err();
    assert!(err.to_string().contains("exiting"), "{err}");
    assert_eq!(
        temp_files(dir.path()).len(),
        1,
        "a save began after closing"
    );
    assert!(saved.exists(), "a whole table stays");
}
