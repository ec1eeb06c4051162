//! DIMACS SAT solvers as strategies: any program that reads a CNF file and writes the SAT
//! competition's output (`docs/external.md`).
//!
//! Each call writes the puzzle's CNF in the chosen encoding ([`Cnf`], the encoder of
//! `export cnf`) to a temporary file and runs the solver with the file's path as its last
//! argument. Its standard output must be comment lines (`c ...`), one status line
//! (`s SATISFIABLE`, `s UNSATISFIABLE` or `s UNKNOWN`) and, when satisfiable, value lines
//! (`v 1 -2 ... 0`); its exit status 10 (satisfiable), 20 (unsatisfiable) or 0. The model must
//! make every clause true (a model that breaks a given's clause but decodes to a grid would
//! otherwise pass); it is then decoded to a grid, which the caller certifies like any engine's.
//! Uniqueness is decided by calling the solver again with a clause that blocks every solution
//! found so far, until it says unsatisfiable or the solution limit is reached.
//!
//! Failures are the line protocol's ([`External`](super::External)): a crash, a malformed or
//! over-long output, a status that contradicts the exit code, a model that breaks a clause, or
//! a call still running at the search's deadline (its process group killed) is the solver's
//! failure on that puzzle, with the end of its standard error, handed to the measurement as a
//! located problem. The command is an argument vector run as given; the puzzle reaches the
//! solver only in the file.

use std::fmt::Write as _;
use std::io::{BufWriter, Read, Write};
use std::process::{Child, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::atomic::Ordering;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::{Duration, Instant};

use crate::encode::{Cnf, Encoding};
use crate::model::Grid;

use super::external::{
    CANCEL_POLL, ExternalError, Failed, ProcessLimits, StderrTail, check_name, kill_group,
    record_failure,
};
use super::{
    Counter, Limits, Outcome, Refusals, Stats, Stop, Strategy, answer_without_search,
    mark_ran_elsewhere,
};

/// The most bytes a solver may write on its standard output in one call: a model of the
/// largest CNF sudolab writes (64x64, minimal encoding: 262,144 variables, under 8 bytes
/// each) and a solver's statistics fit many times over. More is cut off and is the solver's
/// failure on that puzzle, so a runaway solver cannot fill memory.
pub const MAX_DIMACS_OUTPUT_BYTES: usize = 16 << 20;

/// An outside SAT solver run on the DIMACS CNF of each puzzle.
#[derive(Debug)]
pub struct Dimacs {
    name: &'static str,
    summary: &'static str,
    command: Vec<String>,
    encoding: Encoding,
    process_limits: ProcessLimits,
}

impl Dimacs {
    /// A SAT solver named `name` that runs `command` (an argument vector: the program and its
    /// arguments) with the CNF file's path added as its last argument. The name must not be a
    /// built-in strategy's.
    pub fn new(
        name: &str,
        command: Vec<String>,
        encoding: Encoding,
    ) -> Result<Dimacs, ExternalError> {
        check_name(name)?;
        if command.first().is_none_or(String::is_empty) {
            return Err(ExternalError::EmptyCommand(name.to_string()));
        }
        let summary = format!(
            "outside SAT solver (DIMACS, {encoding} encoding): {} CNF",
            command.join(" ")
        );
        Ok(Dimacs {
            name: Box::leak(name.to_string().into_boxed_str()),
            summary: Box::leak(summary.into_boxed_str()),
            command,
            encoding,
            process_limits: ProcessLimits::NONE,
        })
    }

    /// This solver with each call run under `limits` (replacing any set before).
    #[must_use]
    pub fn with_process_limits(mut self, limits: ProcessLimits) -> Dimacs {
        if !self.process_limits.is_none() {
            self.command.drain(..3);
        }
        self.command = limits.wrap(self.command);
        self.process_limits = limits;
        self
    }

    /// A SAT solver whose command is run by `sh -c`, the CNF's path as its last argument
    /// (`sh -c 'COMMAND "$@"' sh PATH`): what `--external NAME=dimacs:COMMAND` runs.
    pub fn from_shell(
        name: &str,
        shell: &str,
        encoding: Encoding,
    ) -> Result<Dimacs, ExternalError> {
        if shell.trim().is_empty() {
            return Err(ExternalError::EmptyCommand(name.to_string()));
        }
        let command = vec![
            "sh".to_string(),
            "-c".to_string(),
            format!("{shell} \"$@\""),
            "sh".to_string(),
        ];
        let mut dimacs = Dimacs::new(name, command, encoding)?;
        let summary = format!("outside SAT solver (DIMACS, {encoding} encoding): {shell} CNF");
        dimacs.summary = Box::leak(summary.into_boxed_str());
        Ok(dimacs)
    }

    /// The command run, as an argument vector (the CNF's path comes after it).
    pub fn command(&self) -> &[String] {
        &self.command
    }

    /// The encoding of the CNF the solver is given.
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// This solver as a strategy for the rest of the process, as [`External::leak`] does.
    ///
    /// [`External::leak`]: super::External::leak
    pub fn leak(self) -> &'static dyn Strategy {
        Box::leak(Box::new(self))
    }

    /// One call of the solver on the CNF with the blocking clauses added.
    fn call(
        &self,
        puzzle: &Grid,
        cnf: &Cnf,
        blocking: &[Vec<i32>],
        limits: &Limits,
        deadline: Option<Instant>,
    ) -> Result<Answer, Failed> {
        let file = write_cnf(cnf, blocking).map_err(|err| Failed::Failure {
            detail: format!("could not be given its CNF: writing a temporary file failed: {err}"),
            tail: String::new(),
        })?;
        let mut running = self.start(file.path())?;
        let (text, status) = running.wait(limits, deadline)?;
        drop(file);
        let text = String::from_utf8_lossy(&text);
        read_answer(&text, status, puzzle, cnf, blocking).map_err(|detail| {
            let limits = if status.success() {
                String::new()
            } else {
                self.process_limits.explain(Some(status))
            };
            Failed::Failure {
                detail: format!("{detail}{limits}"),
                tail: running.stderr.text(),
            }
        })
    }

    /// Starts the solver on the CNF file at `path`, in a process group of its own (so that a
    /// timeout kills what it started too: `sh -c` and the solver).
    fn start(&self, path: &std::path::Path) -> Result<Running, Failed> {
        let failure = |detail: String| Failed::Failure {
            detail,
            tail: String::new(),
        };
        let mut builder = Command::new(&self.command[0]);
        builder
            .args(&self.command[1..])
            .arg(path)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt as _;
            builder.process_group(0);
        }
        let mut child = builder
            .spawn()
            .map_err(|err| failure(format!("could not start: {err}")))?;
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take().expect("stderr is piped");
        let stderr = match StderrTail::keep(stderr) {
            Ok(stderr) => stderr,
            Err(err) => {
                kill_group(&mut child);
                return Err(failure(format!("could not be watched: {err}")));
            }
        };
        let (send, output) = mpsc::channel();
        if let Err(err) = thread::Builder::new()
            .name("dimacs-stdout".to_string())
            .spawn(move || read_output(stdout, &send))
        {
            kill_group(&mut child);
            return Err(failure(format!("could not be watched: {err}")));
        }
        Ok(Running {
            child,
            stderr,
            output,
        })
    }
}

/// A solver started on one CNF: the process, the end of its standard error, and its whole
/// standard output once it has ended.
struct Running {
    child: Child,
    stderr: StderrTail,
    output: Receiver<Result<Vec<u8>, Unread>>,
}

impl Drop for Running {
    fn drop(&mut self) {
        // A solver left running (a panic elsewhere) is not left behind.
        if matches!(self.child.try_wait(), Ok(None)) {
            kill_group(&mut self.child);
        }
    }
}

impl Running {
    /// Kills the solver and describes its failure with the end of its standard error.
    fn fail(&mut self, detail: String) -> Failed {
        kill_group(&mut self.child);
        Failed::Failure {
            detail,
            tail: self.stderr.text(),
        }
    }

    fn timed_out(&mut self, limits: &Limits) -> Failed {
        let timeout = limits.timeout.unwrap_or_default();
        Failed::TimedOut(Box::new(self.fail(format!(
            "did not answer within the search's budget of {} (killed)",
            humantime::format_duration(timeout)
        ))))
    }

    /// Whether the run was cancelled (the solver is then killed: no failure of its own).
    fn cancelled(&mut self, limits: &Limits) -> bool {
        let cancelled = limits
            .cancel
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed));
        if cancelled {
            kill_group(&mut self.child);
        }
        cancelled
    }

    /// The solver's whole standard output and its exit status, unless it fails, the deadline
    /// passes or the run is cancelled first.
    fn wait(
        &mut self,
        limits: &Limits,
        deadline: Option<Instant>,
    ) -> Result<(Vec<u8>, ExitStatus), Failed> {
        let text = loop {
            if self.cancelled(limits) {
                return Err(Failed::Cancelled);
            }
            let now = Instant::now();
            let wait = match deadline {
                Some(deadline) if now >= deadline => return Err(self.timed_out(limits)),
                Some(deadline) => (deadline - now).min(CANCEL_POLL),
                None => CANCEL_POLL,
            };
            match self.output.recv_timeout(wait) {
                Ok(Ok(bytes)) => break bytes,
                Ok(Err(Unread::TooLong)) => {
                    return Err(self.fail(format!(
                        "wrote more than {MAX_DIMACS_OUTPUT_BYTES} bytes on its standard output \
                         (cut off)"
                    )));
                }
                Ok(Err(Unread::Failed)) | Err(RecvTimeoutError::Disconnected) => {
                    return Err(self.fail("standard output could not be read".to_string()));
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
        };
        // Its output has ended; the program ends right after (or is stopped at the deadline).
        let mut pause = Duration::from_micros(50);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return Ok((text, status)),
                Ok(None) => {}
                Err(err) => return Err(self.fail(format!("could not be waited on: {err}"))),
            }
            if self.cancelled(limits) {
                return Err(Failed::Cancelled);
            }
            if deadline.is_some_and(|deadline| Instant::now() >= deadline) {
                return Err(self.timed_out(limits));
            }
            thread::sleep(pause);
            pause = (pause * 2).min(CANCEL_POLL);
        }
    }
}

impl Strategy for Dimacs {
    fn name(&self) -> &'static str {
        self.name
    }

    fn summary(&self) -> &'static str {
        self.summary
    }

    /// The solver's work is its own; its output has no counter every solver writes alike.
    fn counters(&self) -> &'static [Counter] {
        &[]
    }

    /// Only the timeout stops an outside SAT solver (its process group killed).
    fn budget_unit(&self) -> super::WorkUnit {
        super::WorkUnit::None
    }

    /// The CNF encodes every rule sudolab knows, on every board.
    fn supports_rules(&self, _rules: &crate::model::Rules) -> Result<(), &'static str> {
        Ok(())
    }

    fn refusals(&self) -> Refusals {
        Refusals::NONE
    }

    fn untraceable_reason(&self) -> &'static str {
        "it is an outside SAT solver, whose search sudolab cannot see"
    }

    fn search(
        &self,
        puzzle: &Grid,
        limits: &Limits,
        on_solution: &mut dyn FnMut(&Grid),
    ) -> Outcome {
        if let Some(outcome) = answer_without_search(self, puzzle) {
            return outcome;
        }
        // The work is the solver's: the search is timed by the wall clock (the round trips).
        mark_ran_elsewhere();
        let deadline = limits.timeout.map(|timeout| Instant::now() + timeout);
        let cnf = Cnf::build(puzzle, self.encoding);
        let limit = limits.max_solutions.unwrap_or(0);
        let mut blocking: Vec<Vec<i32>> = Vec::new();
        let mut found = 0;
        let stopped = Outcome::stopped_after;
        loop {
            match self.call(puzzle, &cnf, &blocking, limits, deadline) {
                Ok(Answer::Unsatisfiable) => {
                    return Outcome {
                        found,
                        stopped: None,
                        stats: Stats::new(),
                    };
                }
                Ok(Answer::Unknown) => return stopped(found, Stop::EngineFailure),
                Ok(Answer::Satisfiable(solution)) => {
                    on_solution(&solution);
                    found += 1;
                    if limit != 0 && found >= limit {
                        return stopped(found, Stop::SolutionLimit);
                    }
                    blocking.push(cnf.blocking_clause(&solution));
                }
                Err(Failed::Cancelled) => return stopped(found, Stop::Cancelled),
                Err(Failed::TimedOut(failure)) => {
                    record_failure(self.name, *failure);
                    return stopped(found, Stop::Deadline);
                }
                Err(failure) => {
                    record_failure(self.name, failure);
                    return stopped(found, Stop::EngineFailure);
                }
            }
        }
    }
}

/// What one call of the solver said.
#[derive(Debug, PartialEq, Eq)]
enum Answer {
    Satisfiable(Grid),
    Unsatisfiable,
    Unknown,
}

/// Why a solver's output was not read whole.
enum Unread {
    TooLong,
    Failed,
}

/// Reads the solver's whole standard output, up to [`MAX_DIMACS_OUTPUT_BYTES`].
fn read_output(stdout: ChildStdout, send: &Sender<Result<Vec<u8>, Unread>>) {
    let mut bytes = Vec::new();
    let limit = MAX_DIMACS_OUTPUT_BYTES as u64 + 1;
    let message = match stdout.take(limit).read_to_end(&mut bytes) {
        Ok(_) if bytes.len() > MAX_DIMACS_OUTPUT_BYTES => Err(Unread::TooLong),
        Ok(_) => Ok(bytes),
        Err(_) => Err(Unread::Failed),
    };
    let _ = send.send(message);
}

/// The CNF with the blocking clauses, in DIMACS, in a temporary file removed when dropped.
fn write_cnf(cnf: &Cnf, blocking: &[Vec<i32>]) -> std::io::Result<tempfile::NamedTempFile> {
    let file = tempfile::Builder::new()
        .prefix("sudolab-")
        .suffix(".cnf")
        .tempfile()?;
    let mut out = BufWriter::with_capacity(1 << 16, file.as_file());
    writeln!(
        out,
        "p cnf {} {}",
        cnf.var_count(),
        cnf.clause_count() + blocking.len()
    )?;
    let mut line = String::new();
    for clause in cnf.clauses().chain(blocking.iter().map(Vec::as_slice)) {
        line.clear();
        for lit in clause {
            let _ = write!(line, "{lit} ");
        }
        line.push_str("0\n");
        out.write_all(line.as_bytes())?;
    }
    out.flush()?;
    drop(out);
    Ok(file)
}

/// What a solver's output lines say: its status word, the values of its model (`values[v]`:
/// 1 true, -1 false, 0 not set) and whether the model was closed by its `0`.
struct Lines<'a> {
    result: Option<&'a str>,
    values: Vec<i8>,
    closed: bool,
}

/// Reads a solver's output lines, a model over `var_count` variables.
fn read_lines(text: &str, var_count: usize) -> Result<Lines<'_>, String> {
    let mut lines = Lines {
        result: None,
        values: vec![0i8; var_count + 1],
        closed: false,
    };
    for (idx, line) in text.lines().enumerate() {
        let number = idx + 1;
        let line = line.trim();
        let shown = || {
            let shown: String = line.chars().take(60).collect();
            if shown.len() < line.len() {
                format!("{shown}...")
            } else {
                shown
            }
        };
        match line.split_ascii_whitespace().next() {
            None | Some("c") => {}
            Some("s") => {
                if lines.result.is_some() {
                    return Err(format!("wrote a second 's' line (output line {number})"));
                }
                let word = line[1..].trim();
                if !matches!(word, "SATISFIABLE" | "UNSATISFIABLE" | "UNKNOWN") {
                    return Err(format!(
                        "output line {number}: expected 's SATISFIABLE', 's UNSATISFIABLE' or \
                         's UNKNOWN', found '{}'",
                        shown()
                    ));
                }
                lines.result = Some(word);
            }
            Some("v") => {
                for token in line[1..].split_ascii_whitespace() {
                    read_value(&mut lines, token, number)?;
                }
            }
            Some(_) => {
                return Err(format!(
                    "output line {number}: expected a comment ('c'), status ('s') or values \
                     ('v') line, found '{}'",
                    shown()
                ));
            }
        }
    }
    Ok(lines)
}

/// One literal of a `v` line, on output line `number`.
fn read_value(lines: &mut Lines<'_>, token: &str, number: usize) -> Result<(), String> {
    let var_count = lines.values.len() - 1;
    let lit: i64 = token.parse().map_err(|_| {
        format!(
            "output line {number}: expected a literal (a signed variable number), found \
             '{token}'"
        )
    })?;
    if lines.closed {
        return Err(format!(
            "output line {number}: a value after the model's closing 0"
        ));
    }
    if lit == 0 {
        lines.closed = true;
        return Ok(());
    }
    let var = lit.unsigned_abs();
    let Some(value) = usize::try_from(var)
        .ok()
        .filter(|&var| var <= var_count)
        .and_then(|var| lines.values.get_mut(var))
    else {
        return Err(format!(
            "output line {number}: variable {var} is not in the CNF (it has {var_count})"
        ));
    };
    let sign = if lit > 0 { 1 } else { -1 };
    if *value == -sign {
        return Err(format!(
            "output line {number}: variable {var} is set both true and false"
        ));
    }
    *value = sign;
    Ok(())
}

/// Reads a solver's output and exit status: its answer, or what is wrong with them.
fn read_answer(
    text: &str,
    status: ExitStatus,
    puzzle: &Grid,
    cnf: &Cnf,
    blocking: &[Vec<i32>],
) -> Result<Answer, String> {
    let Lines {
        result,
        values,
        closed,
    } = read_lines(text, cnf.var_count())?;
    let Some(result) = result else {
        return Err(format!("exited ({status}) without an 's' line"));
    };
    match (result, status.code()) {
        ("SATISFIABLE", Some(10 | 0)) => {}
        ("UNSATISFIABLE", Some(20 | 0)) => return Ok(Answer::Unsatisfiable),
        ("UNKNOWN", Some(_)) => return Ok(Answer::Unknown),
        (word, _) => {
            return Err(format!(
                "wrote 's {word}' but exited ({status}); expected exit code 10 after \
                 SATISFIABLE, 20 after UNSATISFIABLE, or 0"
            ));
        }
    }
    if !closed {
        return Err(
            "wrote 's SATISFIABLE' without a whole model ('v' lines ending with 0)".to_string(),
        );
    }
    let is_true = |lit: i32| {
        let sign = if lit > 0 { 1 } else { -1 };
        values[lit.unsigned_abs() as usize] == sign
    };
    // Unit clauses first: a given made false is then named as such, not as the clause of its
    // cell that falls with it.
    for units in [true, false] {
        for (idx, clause) in cnf
            .clauses()
            .chain(blocking.iter().map(Vec::as_slice))
            .enumerate()
        {
            if (clause.len() == 1) == units && !clause.iter().any(|&lit| is_true(lit)) {
                return Err(falsified(puzzle, cnf, idx, clause));
            }
        }
    }
    let grid = cnf.decode(|var| values[var as usize] > 0);
    if let Some(cell) = grid.cells().iter().position(|&digit| digit == 0) {
        let shape = grid.shape();
        return Err(format!(
            "claimed SATISFIABLE with a model that leaves r{}c{} without a digit",
            shape.row_of(cell) + 1,
            shape.col_of(cell) + 1
        ));
    }
    Ok(Answer::Satisfiable(grid))
}

/// Says which clause a claimed model makes false, and what the clause stands for where that
/// is simple: a given, or the clause that blocks a solution the solver gave before.
fn falsified(puzzle: &Grid, cnf: &Cnf, idx: usize, clause: &[i32]) -> String {
    let mut text: Vec<String> = clause.iter().take(8).map(i32::to_string).collect();
    if clause.len() > 8 {
        text.push("...".to_string());
    }
    text.push("0".to_string());
    let meaning = if idx >= cnf.clause_count() {
        ", the clause that blocks a solution it gave before".to_string()
    } else if let &[lit] = clause
        && lit > 0
        && let Some((cell, digit)) = cnf.var_meaning(lit.unsigned_abs())
        && puzzle.get(cell) == digit
    {
        let shape = puzzle.shape();
        format!(
            ", the given r{}c{} = {digit}",
            shape.row_of(cell) + 1,
            shape.col_of(cell) + 1
        )
    } else {
        String::new()
    };
    format!(
        "claimed SATISFIABLE with a model that makes clause {} false ('{}'{meaning})",
        idx + 1,
        text.join(" ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::process::ExitStatusExt as _;

    const PUZZLE: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    const SOLUTION: &str =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

    fn exit(code: i32) -> ExitStatus {
        ExitStatus::from_raw(code << 8)
    }

    /// The model of `solution` in `cnf`: every variable set, true where the solution agrees.
    fn model(cnf: &Cnf, solution: &Grid) -> String {
        let mut text = "s SATISFIABLE\nv".to_string();
        for var in 1..=cnf.var_count() as u32 {
            let (cell, digit) = cnf.var_meaning(var).expect("no auxiliary variable");
            let sign = if solution.get(cell) == digit { "" } else { "-" };
            let _ = write!(text, " {sign}{var}");
        }
        text.push_str(" 0\n");
        text
    }

    #[test]
    fn the_competition_output_is_read_and_every_fault_is_named() {
        let puzzle: Grid = PUZZLE.parse().unwrap();
        let solution: Grid = SOLUTION.parse().unwrap();
        let cnf = Cnf::build(&puzzle, Encoding::Minimal);
        let read = |text: &str, code: i32| read_answer(text, exit(code), &puzzle, &cnf, &[]);
        let good = model(&cnf, &solution);
        assert_eq!(read(&good, 10), Ok(Answer::Satisfiable(solution.clone())));
        assert_eq!(
            read(&format!("c hello\n{good}"), 0),
            Ok(Answer::Satisfiable(solution.clone()))
        );
        assert_eq!(read("s UNSATISFIABLE\n", 20), Ok(Answer::Unsatisfiable));
        assert_eq!(read("s UNKNOWN\n", 0), Ok(Answer::Unknown));
        assert_eq!(
            read("", 0),
            Err("exited (exit status: 0) without an 's' line".into())
        );
        assert_eq!(
            read("hello\n", 10),
            Err(
                "output line 1: expected a comment ('c'), status ('s') or values ('v') line, \
                 found 'hello'"
                    .into()
            )
        );
        assert_eq!(
            read("s SAT\n", 10),
            Err(
                "output line 1: expected 's SATISFIABLE', 's UNSATISFIABLE' or 's UNKNOWN', \
                 found 's SAT'"
                    .into()
            )
        );
        assert_eq!(
            read(&good, 20),
            Err(
                "wrote 's SATISFIABLE' but exited (exit status: 20); expected exit code 10 \
                 after SATISFIABLE, 20 after UNSATISFIABLE, or 0"
                    .into()
            )
        );
        assert_eq!(
            read("s SATISFIABLE\nv 1 -2\n", 10),
            Err("wrote 's SATISFIABLE' without a whole model ('v' lines ending with 0)".into())
        );
        assert_eq!(
            read("s SATISFIABLE\nv 1 x 0\n", 10),
            Err("output line 2: expected a literal (a signed variable number), found 'x'".into())
        );
        assert_eq!(
            read("s SATISFIABLE\nv 1 -1 0\n", 10),
            Err("output line 2: variable 1 is set both true and false".into())
        );
        assert_eq!(
            read("s SATISFIABLE\nv 999 0\n", 10),
            Err("output line 2: variable 999 is not in the CNF (it has 729)".into())
        );
        // The given r1c1 = 5 made false: the grid would still decode (the givens are the
        // puzzle's), so only the clause check catches it.
        let given = cnf.var_of(0, 5).unwrap();
        let broken = good.replacen(&format!(" {given} "), &format!(" -{given} "), 1);
        let answer = read(&broken, 10).unwrap_err();
        assert!(
            answer.starts_with("claimed SATISFIABLE with a model that makes clause ")
                && answer.ends_with(&format!(" false ('{given} 0', the given r1c1 = 5)")),
            "{answer}"
        );
        // The same solution again, past the clause that blocks it.
        let block = vec![cnf.blocking_clause(&solution)];
        let again = read_answer(&good, exit(10), &puzzle, &cnf, &block).unwrap_err();
        assert!(
            again.ends_with(", the clause that blocks a solution it gave before)"),
            "{again}"
        );
    }
}
