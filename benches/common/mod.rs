//! What the benches that need the public corpora share.

use std::path::{Path, PathBuf};

/// The 17-clue set of the public corpora (`../shared/corpora` beside the clone, or
/// `$SUDOLAB_PUBLIC_CORPORA`); stops with a message when it is missing.
pub fn seventeen_clue() -> PathBuf {
    let dir = std::env::var_os("SUDOLAB_PUBLIC_CORPORA").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpora"),
        PathBuf::from,
    );
    let path = dir.join("tdoku/puzzles2_17_clue.txt");
    assert!(
        path.exists(),
        "{}: missing; set SUDOLAB_PUBLIC_CORPORA to the public corpora",
        path.display()
    );
    path
}
