//! The rows of docs/reproductions.md's table and how one is run, shared by the normal suite
//! (rows that read nothing outside the repository) and the public-corpora step (rows that read
//! `$SUDOLAB_PUBLIC_CORPORA`).

use std::path::{Path, PathBuf};

/// The variable a row's command names when it reads the public corpora.
pub const PUBLIC_CORPORA: &str = "SUDOLAB_PUBLIC_CORPORA";

/// One row: its command (as a shell runs it), the published figure (digits only) and the
/// time the table states.
pub struct Row {
    pub command: String,
    pub published: String,
    pub seconds: f64,
}

impl Row {
    /// Whether the command reads the public corpora.
    pub fn reads_public_corpora(&self) -> bool {
        self.command.contains(PUBLIC_CORPORA)
    }
}

/// Every row of the table; the table's sudolab column must equal the published figure.
pub fn rows(root: &Path) -> Vec<Row> {
    let doc = std::fs::read_to_string(root.join("docs/reproductions.md")).unwrap();
    doc.lines()
        .filter(|line| line.starts_with("| ") && line.contains('`'))
        .map(|line| {
            // Cells split at " | " that is not escaped (a pipe inside a command is "\|").
            let cells: Vec<String> = line
                .replace("\\|", "\u{1}")
                .trim_matches('|')
                .split(" | ")
                .map(|cell| cell.trim().replace('\u{1}', "|"))
                .collect();
            assert_eq!(cells.len(), 6, "{line}");
            let published = cells[3].replace(',', "");
            assert_eq!(cells[4], published, "{line}");
            Row {
                command: cells[2].trim_matches('`').to_string(),
                published,
                seconds: cells[5]
                    .trim_end_matches(" s")
                    .parse()
                    .expect("a time in seconds"),
            }
        })
        .collect()
}

/// Runs `row`'s command from `root` with `bin_dir` first on PATH and `env` set, and asserts
/// that it succeeds and that the last word of its output is the published figure.
pub fn assert_reproduces(row: &Row, root: &Path, bin_dir: &Path, env: &[(&str, PathBuf)]) {
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let output = std::process::Command::new("sh")
        .arg("-c")
        .arg(&row.command)
        .env("PATH", &path)
        .envs(env.iter().map(|(name, value)| (name, value)))
        .current_dir(root)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", row.command);
    let stdout = String::from_utf8(output.stdout).unwrap();
    let last = stdout
        .lines()
        .last()
        .and_then(|line| line.split_whitespace().last());
    assert_eq!(last, Some(row.published.as_str()), "{}", row.command);
}
