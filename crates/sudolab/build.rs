//! Records the git commit sudolab is built from and the compiler's version, for the context of
//! comparison reports.

use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=../../.git/HEAD");
    println!("cargo:rerun-if-changed=../../.git/refs/heads");
    let output = |program: &str, args: &[&str]| {
        Command::new(program)
            .args(args)
            .output()
            .ok()
            .filter(|output| output.status.success())
            .and_then(|output| String::from_utf8(output.stdout).ok())
            .map(|text| text.trim().to_string())
    };
    if let Some(commit) = output("git", &["rev-parse", "--short=12", "HEAD"]) {
        println!("cargo:rustc-env=SUDOLAB_GIT_COMMIT={commit}");
    }
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_string());
    if let Some(version) = output(&rustc, &["--version"]) {
        println!("cargo:rustc-env=SUDOLAB_RUSTC_VERSION={version}");
    }
}
