//! The library's modules form layers, and no module reaches one above it:
//!
//! ```text
//! model < corpus, encode < strategy < check, certify, generate, grids, human, plan < report, trace < experiment
//! ```
//!
//! Modules of one layer do not reach each other either. The test reads every `crate::MODULE`
//! path in the code (comments and doc text aside), so a new arrow upwards fails here, naming the
//! file and line. The crates' layers are held by their manifests: the library depends on no
//! command-line crate, the certificate checker on nothing (CI also asks `cargo tree`).

use std::path::{Path, PathBuf};

/// The layers, lowest first.
const LAYERS: &[&[&str]] = &[
    &["model"],
    &["corpus", "encode"],
    &["strategy"],
    &["check", "certify", "generate", "grids", "human", "plan"],
    &["report", "trace"],
    &["experiment"],
];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|layer| layer.contains(&module))
}

fn rust_files(dir: &Path, files: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a readable source directory") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, files);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            files.push(path);
        }
    }
}

/// The modules a line of code names as `crate::MODULE`.
fn named_modules(line: &str) -> Vec<&str> {
    let code = line.split("//").next().unwrap_or_default();
    code.match_indices("crate::")
        .map(|(at, _)| {
            let rest = &code[at + "crate::".len()..];
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            &rest[..end]
        })
        .collect()
}

#[test]
fn every_module_is_in_a_layer() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let lib = std::fs::read_to_string(src.join("lib.rs")).expect("lib.rs");
    let modules: Vec<&str> = lib
        .lines()
        .filter_map(|line| line.strip_prefix("pub mod "))
        .map(|rest| rest.trim_end_matches(';'))
        .collect();
    assert!(
        modules.contains(&"model"),
        "lib.rs declares its modules as `pub mod NAME;`"
    );
    for module in modules {
        assert!(
            layer_of(module).is_some(),
            "module '{module}' is in no layer: add it to LAYERS and to docs/ARCHITECTURE.md"
        );
    }
}

#[test]
fn no_module_reaches_its_own_layer_or_above() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut arrows = Vec::new();
    for layer in LAYERS {
        for module in *layer {
            let mut files = Vec::new();
            let dir = src.join(module);
            if dir.is_dir() {
                rust_files(&dir, &mut files);
            }
            let file = src.join(format!("{module}.rs"));
            if file.is_file() {
                files.push(file);
            }
            assert!(!files.is_empty(), "no source for module '{module}'");
            let from = layer_of(module).expect("listed");
            for file in files {
                let text = std::fs::read_to_string(&file).expect("a readable source file");
                for (number, line) in text.lines().enumerate() {
                    for named in named_modules(line) {
                        if named == *module {
                            continue;
                        }
                        if layer_of(named).is_some_and(|to| to >= from) {
                            arrows.push(format!(
                                "{}:{}: {module} reaches {named}",
                                file.strip_prefix(&src).unwrap_or(&file).display(),
                                number + 1
                            ));
                        }
                    }
                }
            }
        }
    }
    assert!(
        arrows.is_empty(),
        "arrows against the layers:\n{}",
        arrows.join("\n")
    );
}

#[test]
fn the_scanner_sees_an_arrow() {
    assert_eq!(
        named_modules("use crate::report::{Row}; // crate::experiment"),
        ["report"]
    );
    assert_eq!(
        named_modules("let x = crate::strategy::rng::stream(1, 2);"),
        ["strategy"]
    );
}

/// The names of a manifest's `[dependencies]` table.
fn dependencies(manifest: &str) -> Vec<String> {
    let text = std::fs::read_to_string(manifest).expect("a readable Cargo.toml");
    let mut names = Vec::new();
    let mut inside = false;
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            inside = line == "[dependencies]";
        } else if inside && !line.is_empty() && !line.starts_with('#') {
            names.push(
                line.split(['=', ' '])
                    .next()
                    .unwrap_or_default()
                    .to_string(),
            );
        }
    }
    names
}

#[test]
fn the_library_has_no_command_line_dependency_and_the_checker_none() {
    let library = dependencies(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml"));
    assert!(library.contains(&"varisat".to_string()), "{library:?}");
    for front_end in ["clap", "indicatif", "ctrlc", "mimalloc"] {
        assert!(
            !library.iter().any(|name| name == front_end),
            "the library depends on {front_end}: a front end's choice"
        );
    }
    let checker = dependencies(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../sudolab-certcheck/Cargo.toml"
    ));
    assert!(checker.is_empty(), "the checker depends on {checker:?}");
}
