//! An outside check of the certificates: `rate` (crates.io: `cargo install rate`), a DRAT
//! checker that is not sudolab's, checks a sample of the proofs both producers write, through
//! `sudolab check-cert --outside`; and it rejects a proof that is wrong.
//!
//! Built only with `--features outside-proof` (CI installs rate when it is missing and runs
//! it); a missing `rate` is a failure, never a skip.

use std::path::PathBuf;
use std::process::Command;

use sudolab::certcheck::{self, outside::Tool};

struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir =
            std::env::temp_dir().join(format!("sudolab-outside-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn sudolab(args: &[&str]) -> (i32, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_sudolab"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the binary runs");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn rate() -> PathBuf {
    Tool::Rate
        .find()
        .expect("rate is not on PATH: install it with 'cargo install rate'")
}

#[test]
fn rate_verifies_a_sample_of_both_producers_proofs() {
    rate();
    for producer in ["tree", "sat"] {
        let dir = Scratch::new(producer);
        let out = dir.0.to_str().unwrap();
        let (code, _, stderr) = sudolab(&[
            "certify",
            "--producer",
            producer,
            "--out",
            out,
            "corpora/reference.txt",
            "corpora/sizes.txt",
            "corpora/generated/6x6.txt",
            "corpora/generated/9x9-minimal.txt",
            "corpora/generated/12x12.txt",
            "12....3...4.....",
            "................",
        ]);
        assert_eq!(code, 0, "{stderr}");
        let (code, stdout, stderr) = sudolab(&["check-cert", "--outside", "-q", out]);
        assert_eq!(code, 0, "{stdout}{stderr}");
        assert!(
            stderr.contains("FAILED (built-in checker, rate"),
            "{stderr}"
        );
        assert!(stderr.contains(": 141 checked, 0 FAILED"), "{stderr}");
    }
}

#[test]
fn rate_rejects_a_refutation_of_a_satisfiable_formula() {
    let rate = rate();
    // The empty 4x4 board has 288 solutions; a "proof" that it has none is only the empty
    // clause, which unit propagation does not reach.
    let text = format!(
        "{}\nbox 2 2\npuzzle {}\nencoding {}\nverdict none\nproducer hand\nproof lrat 1 8\n\
         449 0 0\nend\n",
        certcheck::MAGIC,
        ["0"; 16].join(" "),
        certcheck::ENCODING
    );
    let bundle = certcheck::parse(&text).unwrap();
    assert!(certcheck::check(&bundle).is_err());
    let err = certcheck::outside::check(Tool::Rate, &rate, &bundle).unwrap_err();
    assert!(err.contains("rate did not verify"), "{err}");
}

#[test]
fn rate_verifies_the_drat_files_of_both_producers() {
    let rate = rate();
    for producer in ["tree", "sat"] {
        let dir = Scratch::new(&format!("drat-{producer}"));
        let out = dir.0.to_str().unwrap();
        let (code, _, stderr) = sudolab(&[
            "certify",
            "--producer",
            producer,
            "--drat",
            "--out",
            out,
            "corpora/reference.txt",
            "corpora/generated/6x6.txt",
            "12....3...4.....",
        ]);
        assert_eq!(code, 0, "{stderr}");
        let mut checked = 0;
        for entry in std::fs::read_dir(&dir.0).unwrap() {
            let cert = entry.unwrap().path();
            if cert.extension().unwrap() != "cert" {
                continue;
            }
            let bundle = certcheck::parse(&std::fs::read_to_string(&cert).unwrap()).unwrap();
            let cnf = cert.with_extension("cnf");
            std::fs::write(&cnf, bundle.formula().to_dimacs()).unwrap();
            let output = Command::new(&rate)
                .arg(&cnf)
                .arg(cert.with_extension("drat"))
                .output()
                .unwrap();
            let stdout = String::from_utf8_lossy(&output.stdout);
            assert!(
                stdout.lines().any(|line| line.trim() == "s VERIFIED"),
                "{producer}, {}: {stdout}",
                cert.display()
            );
            checked += 1;
        }
        assert_eq!(checked, 2 + 20 + 1);
    }
}
