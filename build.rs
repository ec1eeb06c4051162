//! Records the git commit sudolab is built from, for the context of comparison reports.

use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=.git/HEAD");
    println!("cargo:rerun-if-changed=.git/refs/heads");
    let commit = Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .output()
        .ok()
        .filter(|output| output.status.success())
        .and_then(|output| String::from_utf8(output.stdout).ok());
    if let Some(commit) = commit {
        println!("cargo:rustc-env=SUDOLAB_GIT_COMMIT={}", commit.trim());
    }
}
