//! Records how sudolab is built, for the provenance of its reports: the git commit, whether
//! the tree differed from it (and a hash of the difference), the compiler, the profile, the
//! target and the target CPU. Where there is no git (a crates.io or tarball build), the commit
//! and the dirty flag are left unknown; that is not an error.

use std::path::Path;
use std::process::Command;

#[allow(dead_code)]
#[path = "src/experiment/git.rs"]
mod git;

fn main() {
    let dir = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".to_string());
    let dir = Path::new(&dir);
    let output = |program: &str, args: &[&str]| {
        Command::new(program)
            .args(args)
            .current_dir(dir)
            .env("GIT_OPTIONAL_LOCKS", "0")
            .output()
            .ok()
            .filter(|output| output.status.success())
            .and_then(|output| String::from_utf8(output.stdout).ok())
            .map(|text| text.trim().to_string())
    };
    let state = git::tree_state(dir, "build.rs");
    if let Some(state) = &state {
        println!("cargo:rustc-env=SUDOLAB_GIT_COMMIT={}", state.commit);
        println!("cargo:rustc-env=SUDOLAB_GIT_DIRTY={}", state.dirty);
        if let Some(hash) = &state.diff_hash {
            println!("cargo:rustc-env=SUDOLAB_GIT_DIFF_HASH={hash}");
        }
        // Run again when the commit, the index or any source of a binary that links the
        // library changes, so that a binary built from modified sources never reports the
        // clean state of an earlier build. The git files are asked of git: in a worktree,
        // `.git` is a file, not the directory.
        let mut watched = Vec::new();
        for name in ["HEAD", "index", "packed-refs"] {
            watched.extend(output("git", &["rev-parse", "--git-path", name]));
        }
        if let Some(branch) = output("git", &["symbolic-ref", "-q", "HEAD"]) {
            watched.extend(output("git", &["rev-parse", "--git-path", &branch]));
        }
        if let Some(top) = output("git", &["rev-parse", "--show-toplevel"]) {
            let top = Path::new(&top);
            for source in [
                "Cargo.toml",
                "Cargo.lock",
                "src",
                "crates",
                "python/Cargo.toml",
                "python/src",
            ] {
                watched.push(top.join(source).display().to_string());
            }
        }
        for path in watched {
            let path = dir.join(path);
            if path.exists() {
                println!("cargo:rerun-if-changed={}", path.display());
            }
        }
    } else {
        println!("cargo:rerun-if-changed=build.rs");
    }
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_string());
    if let Some(version) = output(&rustc, &["--version"]) {
        println!("cargo:rustc-env=SUDOLAB_RUSTC_VERSION={version}");
    }
    let env = |name: &str| std::env::var(name).unwrap_or_default();
    println!("cargo:rustc-env=SUDOLAB_BUILD_PROFILE={}", env("PROFILE"));
    println!(
        "cargo:rustc-env=SUDOLAB_BUILD_OPT_LEVEL={}",
        env("OPT_LEVEL")
    );
    println!("cargo:rustc-env=SUDOLAB_BUILD_TARGET={}", env("TARGET"));
    let mut features: Vec<String> = std::env::vars()
        .filter_map(|(name, _)| {
            name.strip_prefix("CARGO_FEATURE_")
                .map(|feature| feature.to_lowercase().replace('_', "-"))
        })
        .collect();
    features.sort();
    println!(
        "cargo:rustc-env=SUDOLAB_BUILD_FEATURES={}",
        features.join(",")
    );
    println!("cargo:rerun-if-env-changed=CARGO_ENCODED_RUSTFLAGS");
    // `-C target-cpu=NAME` among the flags Cargo passes to rustc (RUSTFLAGS, config files).
    let flags = env("CARGO_ENCODED_RUSTFLAGS");
    let flags: Vec<&str> = flags.split('\u{1f}').collect();
    let target_cpu = flags.iter().enumerate().find_map(|(i, flag)| {
        let value = match *flag {
            "-C" | "--codegen" => flags.get(i + 1).copied()?,
            flag => flag.strip_prefix("-C")?,
        };
        value.strip_prefix("target-cpu=").map(str::to_string)
    });
    println!(
        "cargo:rustc-env=SUDOLAB_BUILD_TARGET_CPU={}",
        target_cpu.unwrap_or_default()
    );
}
