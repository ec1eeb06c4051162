//! Outside proof checkers, run when found on PATH: `rate` and `drat-trim` (DRAT, the LRAT proof
//! with its hints dropped) and `cake_lpr` (the formally verified LRAT checker of CakeML). Each
//! gets the formula this module's encoder derived, written to a temporary file.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};

use super::{Bundle, lrat_to_drat};

/// An outside checker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    /// `rate` (crates.io): a DRAT checker.
    Rate,
    /// `drat-trim`: the reference DRAT checker.
    DratTrim,
    /// `cake_lpr`: a verified LRAT checker.
    CakeLpr,
}

impl Tool {
    /// Every tool, in the order they run.
    pub const ALL: [Tool; 3] = [Tool::Rate, Tool::DratTrim, Tool::CakeLpr];

    /// The program's name.
    pub fn program(self) -> &'static str {
        match self {
            Tool::Rate => "rate",
            Tool::DratTrim => "drat-trim",
            Tool::CakeLpr => "cake_lpr",
        }
    }

    /// The program, when it is on PATH.
    pub fn find(self) -> Option<PathBuf> {
        let path = std::env::var_os("PATH")?;
        std::env::split_paths(&path)
            .map(|dir| dir.join(self.program()))
            .find(|candidate| candidate.is_file())
    }
}

/// The tools found on PATH, each with its path.
pub fn available() -> Vec<(Tool, PathBuf)> {
    Tool::ALL
        .into_iter()
        .filter_map(|tool| tool.find().map(|path| (tool, path)))
        .collect()
}

/// A temporary directory removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new() -> std::io::Result<TempDir> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let dir = std::env::temp_dir().join(format!(
            "sudolab-check-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir)?;
        Ok(TempDir(dir))
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs `tool` (at `program`) on the bundle's formula and proof; `Ok` when it says VERIFIED.
/// A bundle without a proof (verdict multiple) has nothing to check.
pub fn check(tool: Tool, program: &Path, bundle: &Bundle) -> Result<(), String> {
    let Some(proof) = &bundle.proof else {
        return Ok(());
    };
    let formula = bundle.formula();
    let dir = TempDir::new().map_err(|err| format!("cannot make a temporary directory: {err}"))?;
    let cnf = dir.0.join("formula.cnf");
    std::fs::write(&cnf, formula.to_dimacs())
        .map_err(|err| format!("cannot write {}: {err}", cnf.display()))?;
    let (proof_path, proof_text) = match tool {
        Tool::Rate | Tool::DratTrim => (dir.0.join("proof.drat"), lrat_to_drat(&formula, proof)?),
        Tool::CakeLpr => (dir.0.join("proof.lrat"), proof.clone()),
    };
    std::fs::write(&proof_path, proof_text)
        .map_err(|err| format!("cannot write {}: {err}", proof_path.display()))?;
    let output = Command::new(program)
        .arg(&cnf)
        .arg(&proof_path)
        .output()
        .map_err(|err| format!("cannot run {}: {err}", program.display()))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    let verified = stdout
        .lines()
        .any(|line| line.trim() == "s VERIFIED" || line.trim() == "s VERIFIED UNSAT");
    if verified {
        Ok(())
    } else {
        let said = stdout
            .lines()
            .chain(String::from_utf8_lossy(&output.stderr).lines())
            .filter(|line| line.starts_with("s ") || line.to_lowercase().contains("error"))
            .take(3)
            .collect::<Vec<_>>()
            .join("; ");
        Err(format!(
            "{} did not verify the proof (exit status {}{})",
            tool.program(),
            output
                .status
                .code()
                .map_or("none".to_string(), |code| code.to_string()),
            if said.is_empty() {
                String::new()
            } else {
                format!(": {said}")
            }
        ))
    }
}
