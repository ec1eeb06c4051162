//! The state of the git tree sudolab is built from: its commit, whether the tree differs from
//! it, and a hash of the difference. The build script (`build.rs`) includes this very file, so
//! what a binary reports is what this code computes; it therefore uses std and `sha2` only.

use std::path::Path;
use std::process::Command;

use sha2::{Digest, Sha256};

/// A git tree's state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeState {
    /// The commit checked out (12 hex digits).
    pub commit: String,
    /// Whether the tree differs from the commit: a tracked file changed, added or deleted (in
    /// the index or not), or an untracked file that `.gitignore` does not ignore.
    pub dirty: bool,
    /// When dirty, `sha256:` and the hex SHA-256 of every differing path and its content (see
    /// [`tree_state`]); two trees of one commit with one hash hold the same files.
    pub diff_hash: Option<String>,
}

/// The state of the git repository that holds `dir`, or `None` where there is no git, no
/// repository, or `dir`'s `anchor` file (a path relative to `dir`) is not tracked by it (a
/// crate unpacked inside some other repository is not that repository's build).
///
/// The hash covers the whole repository: the paths `git diff HEAD --name-only` and
/// `git ls-files --others --exclude-standard` list, sorted, each with its content now (a
/// file's bytes, a link's target, or a mark for a deleted path or a directory). It hashes
/// contents rather than the text of `git diff`, whose form depends on the user's git
/// configuration. Git runs with `GIT_OPTIONAL_LOCKS=0` so that it never rewrites the index
/// (the build script watches the index: a write would make every build run it again).
pub fn tree_state(dir: &Path, anchor: &str) -> Option<TreeState> {
    let git = |args: &[&str]| -> Option<Vec<u8>> {
        Command::new("git")
            .arg("-C")
            .arg(dir)
            .args(args)
            .env("GIT_OPTIONAL_LOCKS", "0")
            .output()
            .ok()
            .filter(|output| output.status.success())
            .map(|output| output.stdout)
    };
    let text = |bytes: Vec<u8>| String::from_utf8(bytes).ok().map(|t| t.trim().to_string());
    git(&["ls-files", "--error-unmatch", "--", anchor])?;
    let top = text(git(&["rev-parse", "--show-toplevel"])?)?;
    let commit = text(git(&["rev-parse", "--short=12", "HEAD"])?)?;
    let changed = git(&[
        "diff",
        "HEAD",
        "--name-only",
        "--no-renames",
        "-z",
        "--",
        ":/",
    ])?;
    let untracked = git(&[
        "ls-files",
        "-z",
        "--others",
        "--exclude-standard",
        "--",
        ":/",
    ])?;
    // `ls-files` names paths relative to `dir`, `diff --name-only` relative to the top.
    let prefix = text(git(&["rev-parse", "--show-prefix"])?)?;
    let mut paths: Vec<String> = split_z(&changed)
        .chain(split_z(&untracked).map(|path| normalise(&format!("{prefix}{path}"))))
        .collect();
    paths.sort();
    paths.dedup();
    if paths.is_empty() {
        return Some(TreeState {
            commit,
            dirty: false,
            diff_hash: None,
        });
    }
    let mut hasher = Sha256::new();
    for path in &paths {
        let full = Path::new(&top).join(path);
        hasher.update((path.len() as u64).to_le_bytes());
        hasher.update(path.as_bytes());
        let (mark, content): (u8, Vec<u8>) = match std::fs::symlink_metadata(&full) {
            Err(_) => (b'-', Vec::new()),
            Ok(meta) if meta.file_type().is_symlink() => (
                b'l',
                std::fs::read_link(&full)
                    .map(|target| target.to_string_lossy().into_owned().into_bytes())
                    .unwrap_or_default(),
            ),
            Ok(meta) if meta.is_dir() => (b'd', Vec::new()),
            Ok(_) => (b'f', std::fs::read(&full).unwrap_or_default()),
        };
        hasher.update([mark]);
        hasher.update((content.len() as u64).to_le_bytes());
        hasher.update(&content);
    }
    Some(TreeState {
        commit,
        dirty: true,
        diff_hash: Some(format!("sha256:{}", hex(&hasher.finalize()))),
    })
}

/// The NUL-separated paths of `git -z` output.
fn split_z(bytes: &[u8]) -> impl Iterator<Item = String> + '_ {
    bytes
        .split(|&b| b == 0)
        .filter(|path| !path.is_empty())
        .map(|path| String::from_utf8_lossy(path).into_owned())
}

/// A path with its `dir/../` steps folded (what `ls-files` gives from a subdirectory).
fn normalise(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            ".." => {
                parts.pop();
            }
            "." | "" => {}
            part => parts.push(part),
        }
    }
    parts.join("/")
}

/// Lowercase hex digits of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    bytes.iter().fold(String::new(), |mut out, byte| {
        let _ = write!(out, "{byte:02x}");
        out
    })
}
