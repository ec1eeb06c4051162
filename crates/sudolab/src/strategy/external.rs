//! Outside solvers: a program of the researcher's own, run as one more strategy.
//!
//! The line protocol (`docs/external.md`): the program is started once and kept, one process per
//! thread that searches with it at once (one per job). Whenever the puzzle's box or the limits
//! change (and first of all) sudolab writes a header line,
//! `sudolab-external 1 box=RxC limit=L timeout_ms=T max_nodes=N`, then one puzzle in the line
//! form per request; the program answers each with one line: `none`, `unique SOLUTION`,
//! `solved SOLUTION`, `multiple SOLUTION SOLUTION` or `unknown [REASON]`, optionally followed by
//! `key=value` counters (`nodes=123`, `time_ns=4500`).
//!
//! Nothing the program does can crash sudolab or stall a run: the deadline is sudolab's (the
//! process group is killed, the answer is `unknown (timed out)`, and the next search starts the
//! program again); an exit, a malformed or over-long answer line is the program's failure on
//! that puzzle, with the end of its standard error. A failure is handed to the measurement
//! through [`take_failure`] (the search's thread), which makes it a located problem of the run.
//! Every solution the program gives goes through the caller's certification like any engine's.
//!
//! The command is an argument vector run as given (a shell command is `["sh", "-c", COMMAND]`);
//! puzzle data only ever reaches the program on its standard input.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::fmt::Write as _;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStderr, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::atomic::Ordering;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use crate::model::{Grid, MAX_LINE_SIDE, Shape, parse_line_record, push_line};

use super::{
    Counter, Limits, Outcome, Refusals, RuleKind, Stats, Stop, Strategy, Unsupported,
    answer_without_search, mark_ran_elsewhere, registry,
};

/// The protocol's version, the second word of every header line.
pub const PROTOCOL_VERSION: u32 = 1;

/// The most bytes of one answer line (its line ending excluded): two solutions of the largest
/// board the line form writes (35x35) and counters fit many times over. A longer line is cut
/// off and is the program's failure on that puzzle, so a runaway program cannot fill memory.
pub const MAX_ANSWER_BYTES: usize = 16 * 1024;

/// The most bytes of the program's standard error kept (its end), for failure messages.
pub const STDERR_TAIL_BYTES: usize = 1024;

/// The most characters of a strategy name given to an outside solver.
pub const MAX_NAME_CHARS: usize = 40;

/// How long past its budget (`timeout_ms`) a program may take to answer, for the time its
/// answer takes to arrive: half the budget and 100 ms. A program that answers later is killed,
/// and that is its failure on the puzzle (a program that keeps its budget answers `unknown`).
pub(super) fn grace(timeout: Duration) -> Duration {
    timeout / 2 + Duration::from_millis(100)
}

/// How much longer the first request to a new process may wait for its answer: the time the
/// program takes to start (an interpreter's start on a loaded machine takes a second). That
/// first round trip includes the start; a warm-up search (`--warmup 1`) takes it out of the
/// timed ones.
const STARTUP_GRACE: Duration = Duration::from_secs(10);

/// How often a search waiting for an answer looks at the cancel flag.
pub(super) const CANCEL_POLL: Duration = Duration::from_millis(20);

/// How long a failed program's standard error may take to reach its end once the program is
/// killed or has exited (its last words are then in the tail).
pub(super) const STDERR_GRACE: Duration = Duration::from_millis(200);

/// The counters an answer may carry, by their report names; the others are absent.
const COUNTERS: [Counter; 6] = [
    Counter::Nodes,
    Counter::Placements,
    Counter::Backtracks,
    Counter::Guesses,
    Counter::PropagationRounds,
    Counter::TimeNs,
];

/// A name or command given for an outside solver that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ExternalError {
    /// The name is empty, too long, or has a character other than a letter, a digit, `-`
    /// or `_`.
    #[error(
        "external solver name '{0}': expected 1 to {MAX_NAME_CHARS} letters, digits, '-' or '_'"
    )]
    BadName(String),
    /// The name is a built-in strategy's.
    #[error(
        "external solver name '{0}' is a built-in strategy's; choose another (built-in: {names})",
        names = super::names().join(", ")
    )]
    BuiltIn(String),
    /// The command is empty.
    #[error("external solver '{0}': the command is empty")]
    EmptyCommand(String),
    /// `NAME=COMMAND` without its `=`.
    #[error("expected NAME=COMMAND (such as mine=./solver), found '{0}'")]
    NoEquals(String),
    /// `dimacs-ENCODING:` (or an experiment file's `encoding`) with an encoding sudolab does
    /// not have.
    #[error(
        "external solver '{name}': unknown encoding '{found}' (expected minimal, extended or \
         reduced)"
    )]
    BadEncoding {
        /// The solver's name.
        name: String,
        /// The encoding asked for.
        found: String,
    },
    /// An experiment file's `encoding` for a solver of the line protocol.
    #[error(
        "external solver '{0}': an encoding is for protocol = \"dimacs\" (the line protocol \
         sends puzzles, not CNF)"
    )]
    EncodingWithoutDimacs(String),
    /// An experiment file's `protocol` is neither `line` nor `dimacs`.
    #[error("external solver '{name}': unknown protocol '{found}' (expected line or dimacs)")]
    BadProtocol {
        /// The solver's name.
        name: String,
        /// The protocol asked for.
        found: String,
    },
}

/// Resource limits of an outside solver's processes, set by the shell that starts the program
/// (`ulimit`) so that sudolab needs no code of its own in the child: the program is run as
/// `sh -c 'ulimit ...; exec "$0" "$@"' PROGRAM ARGS...`, a script built from these numbers only.
/// Limits are inherited by what the program starts. A line-protocol program is kept across
/// puzzles, so its CPU limit bounds the whole process (a safety net against a runaway program;
/// the per-puzzle budget is the timeout); a DIMACS solver is started per call, so it bounds each
/// call.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ProcessLimits {
    /// Address space in bytes (`ulimit -v`, in KiB rounded up): an allocation past it fails.
    pub memory: Option<u64>,
    /// CPU time (`ulimit -t`, whole seconds rounded up): at the limit the program gets SIGXCPU,
    /// and SIGKILL a second later if it goes on.
    pub cpu: Option<Duration>,
}

impl ProcessLimits {
    /// No limits: the command is run as given.
    pub const NONE: ProcessLimits = ProcessLimits {
        memory: None,
        cpu: None,
    };

    /// Whether no limit is set.
    pub fn is_none(&self) -> bool {
        self.memory.is_none() && self.cpu.is_none()
    }

    fn cpu_seconds(&self) -> Option<u64> {
        self.cpu
            .map(|cpu| (cpu.as_secs() + u64::from(cpu.subsec_nanos() > 0)).max(1))
    }

    /// `command` (an argument vector) run under these limits; as given without any.
    pub fn wrap(&self, command: Vec<String>) -> Vec<String> {
        if self.is_none() {
            return command;
        }
        let mut script = String::new();
        if let Some(memory) = self.memory {
            let _ = write!(
                script,
                "ulimit -v {} || exit 126; ",
                memory.div_ceil(1024).max(1)
            );
        }
        if let Some(seconds) = self.cpu_seconds() {
            // The soft limit sends SIGXCPU, which ends a program that does not catch it; the
            // hard one a second later is SIGKILL. No core file of a killed program.
            // (The soft limit is set first: a hard limit below the current soft one is refused.)
            let _ = write!(
                script,
                "ulimit -c 0; ulimit -S -t {seconds} && ulimit -H -t {} || exit 126; ",
                seconds + 1
            );
        }
        script.push_str("exec \"$0\" \"$@\"");
        let mut wrapped = vec!["sh".to_string(), "-c".to_string(), script];
        wrapped.extend(command);
        wrapped
    }

    /// What the limits say about a program that ended without an answer with `status`: empty
    /// without limits.
    pub(super) fn explain(&self, status: Option<ExitStatus>) -> String {
        const SIGKILL: i32 = 9;
        const SIGXCPU: i32 = 24;
        if self.is_none() {
            return String::new();
        }
        #[cfg(unix)]
        let signal = status.and_then(|status| {
            use std::os::unix::process::ExitStatusExt as _;
            // Killed itself, or the shell that ran it reports the signal as 128 + its number.
            status.signal().or_else(|| {
                status
                    .code()
                    .filter(|code| *code > 128)
                    .map(|code| code - 128)
            })
        });
        #[cfg(not(unix))]
        let signal: Option<i32> = status.and(None);
        if let Some(seconds) = self.cpu_seconds()
            && matches!(signal, Some(SIGXCPU | SIGKILL))
        {
            return format!(": it reached its CPU time limit of {seconds}s");
        }
        match self.memory {
            Some(memory) => format!(
                ", under its memory limit of {} (an allocation past it fails)",
                format_size(memory)
            ),
            None => String::new(),
        }
    }
}

/// A size in bytes in the largest binary unit that divides it: `64 MiB`, `1536 KiB`.
pub fn format_size(bytes: u64) -> String {
    for (unit, name) in [(1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")] {
        if bytes >= unit && bytes % unit == 0 {
            return format!("{} {name}", bytes / unit);
        }
    }
    format!("{bytes} bytes")
}

/// Reads a memory size: a whole number and a binary unit, `K`, `M` or `G` (also `KiB`, `MiB`,
/// `GiB`, any case), such as `512M` or `2G`. A bare number is refused: its unit would be a
/// guess.
pub fn parse_size(text: &str) -> Result<u64, String> {
    let expected = || {
        format!(
            "expected a size such as 512M or 2G (a whole number and K, M or G: KiB, MiB, GiB), found '{text}'"
        )
    };
    let trimmed = text.trim();
    let split = trimmed
        .find(|c: char| !c.is_ascii_digit())
        .ok_or_else(expected)?;
    let (number, unit) = trimmed.split_at(split);
    let shift = match unit.trim().to_ascii_lowercase().as_str() {
        "k" | "kib" => 10,
        "m" | "mib" => 20,
        "g" | "gib" => 30,
        _ => return Err(expected()),
    };
    let number: u64 = number.parse().map_err(|_| expected())?;
    if number == 0 {
        return Err(format!(
            "a memory limit of {text} leaves nothing to run in; give at least 1M"
        ));
    }
    number
        .checked_mul(1 << shift)
        .ok_or_else(|| format!("the size {text} is too large"))
}

/// A CPU time limit as given: above zero (a limit of zero would kill the program at once).
pub fn cpu_limit(limit: Duration) -> Result<Duration, String> {
    if limit.is_zero() {
        return Err("a CPU time limit of zero leaves nothing to run; give at least 1s".to_string());
    }
    Ok(limit)
}

/// Refuses two outside solvers of one name: reports, `-s` and `--verify` pick a solver by its
/// name, so each needs its own.
pub fn distinct_outside_names(solvers: &[&dyn Strategy]) -> Result<(), String> {
    for (index, solver) in solvers.iter().enumerate() {
        if solvers[..index]
            .iter()
            .any(|other| other.name() == solver.name())
        {
            return Err(format!(
                "the name '{}' is given twice; each outside solver needs its own",
                solver.name()
            ));
        }
    }
    Ok(())
}

/// An outside solver as the command line gives it, `NAME=COMMAND`: a DIMACS SAT solver when
/// COMMAND starts with `dimacs:` (the reduced encoding) or `dimacs-ENCODING:`
/// ([`Dimacs`](super::Dimacs)), otherwise a program that speaks the line protocol. Either way
/// the rest of COMMAND is run by `sh -c`, under `limits`.
pub fn outside_solver(
    spec: &str,
    limits: ProcessLimits,
) -> Result<Box<dyn Strategy>, ExternalError> {
    let (name, command) = spec
        .split_once('=')
        .ok_or_else(|| ExternalError::NoEquals(spec.to_string()))?;
    let name = name.trim();
    let line = || -> Result<Box<dyn Strategy>, ExternalError> {
        Ok(Box::new(
            External::from_shell_spec(spec)?.with_process_limits(limits),
        ))
    };
    let Some(rest) = command.trim_start().strip_prefix("dimacs") else {
        return line();
    };
    let (encoding, shell) = if let Some(shell) = rest.strip_prefix(':') {
        (crate::encode::Encoding::Reduced, shell)
    } else if let Some((word, shell)) = rest.strip_prefix('-').and_then(|r| r.split_once(':')) {
        let encoding = word.parse().map_err(|_| ExternalError::BadEncoding {
            name: name.to_string(),
            found: word.to_string(),
        })?;
        (encoding, shell)
    } else {
        // A line-protocol program whose command happens to start with "dimacs".
        return line();
    };
    Ok(Box::new(
        super::Dimacs::from_shell(name, shell, encoding)?.with_process_limits(limits),
    ))
}

/// An outside program run as a strategy through the line protocol.
pub struct External {
    name: &'static str,
    summary: &'static str,
    command: Vec<String>,
    process_limits: ProcessLimits,
    /// Processes not in use, each ready for its next request.
    idle: Mutex<Vec<Process>>,
}

impl std::fmt::Debug for External {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("External")
            .field("name", &self.name)
            .field("command", &self.command)
            .finish_non_exhaustive()
    }
}

impl External {
    /// An outside solver named `name` that runs `command` (an argument vector: the program and
    /// its arguments). The name must not be a built-in strategy's.
    pub fn new(name: &str, command: Vec<String>) -> Result<External, ExternalError> {
        check_name(name)?;
        if command.first().is_none_or(String::is_empty) {
            return Err(ExternalError::EmptyCommand(name.to_string()));
        }
        let summary = format!("outside solver (line protocol): {}", command.join(" "));
        Ok(External {
            name: Box::leak(name.to_string().into_boxed_str()),
            summary: Box::leak(summary.into_boxed_str()),
            command,
            process_limits: ProcessLimits::NONE,
            idle: Mutex::new(Vec::new()),
        })
    }

    /// This solver with its processes run under `limits` (replacing any set before).
    #[must_use]
    pub fn with_process_limits(mut self, limits: ProcessLimits) -> External {
        if !self.process_limits.is_none() {
            self.command.drain(..3);
        }
        self.command = limits.wrap(self.command);
        self.process_limits = limits;
        self
    }

    /// `NAME=COMMAND` as the command line gives it: COMMAND run by `sh -c`.
    pub fn from_shell_spec(spec: &str) -> Result<External, ExternalError> {
        let (name, command) = spec
            .split_once('=')
            .ok_or_else(|| ExternalError::NoEquals(spec.to_string()))?;
        if command.trim().is_empty() {
            return Err(ExternalError::EmptyCommand(name.to_string()));
        }
        External::new(
            name.trim(),
            vec!["sh".to_string(), "-c".to_string(), command.to_string()],
        )
    }

    /// The command run, as an argument vector.
    pub fn command(&self) -> &[String] {
        &self.command
    }

    /// This solver as a strategy for the rest of the process: the plan, the registry's
    /// functions and the reports hold strategies as `&'static dyn Strategy`, so an outside
    /// solver is made one of them once per run (its few bytes are never freed; its idle
    /// processes end when sudolab does, at the end of their standard input).
    pub fn leak(self) -> &'static dyn Strategy {
        Box::leak(Box::new(self))
    }

    /// One request: the header if needed, the puzzle, the answer line.
    fn ask(
        &self,
        puzzle: &Grid,
        limits: &Limits,
        on_solution: &mut dyn FnMut(&Grid),
    ) -> Result<Outcome, Failed> {
        let started = Instant::now();
        let idle = self.idle.lock().ok().and_then(|mut idle| idle.pop());
        let (mut process, starting) = if let Some(process) = idle {
            (process, Duration::ZERO)
        } else {
            let process = Process::start(&self.command).map_err(|err| Failed::Failure {
                detail: format!("could not start: {err}"),
                tail: String::new(),
            })?;
            (process, STARTUP_GRACE)
        };
        let header = Header::of(puzzle.shape(), limits);
        let mut request = String::with_capacity(puzzle.cells().len() + 80);
        if process.header != Some(header) {
            request.push_str(&header.line());
            request.push('\n');
        }
        push_line(&mut request, puzzle);
        request.push('\n');
        if process
            .stdin
            .write_all(request.as_bytes())
            .and_then(|()| process.stdin.flush())
            .is_err()
        {
            return Err(process.fail("exited before it read the puzzle".to_string()));
        }
        process.header = Some(header);
        let deadline = limits
            .timeout
            .map(|timeout| started + timeout + grace(timeout) + starting);
        let line = loop {
            let cancelled = limits
                .cancel
                .as_ref()
                .is_some_and(|flag| flag.load(Ordering::Relaxed));
            if cancelled {
                process.kill();
                return Err(Failed::Cancelled);
            }
            let now = Instant::now();
            let wait = match deadline {
                Some(deadline) if now >= deadline => {
                    let timeout = limits.timeout.unwrap_or_default();
                    return Err(Failed::TimedOut(Box::new(process.fail(format!(
                        "did not answer within its budget of {} and a grace of {} (killed; the \
                         next puzzle starts it again)",
                        humantime::format_duration(timeout),
                        humantime::format_duration(grace(timeout))
                    )))));
                }
                Some(deadline) => (deadline - now).min(CANCEL_POLL),
                None => CANCEL_POLL,
            };
            match process.answers.recv_timeout(wait) {
                Ok(Ok(line)) => break line,
                Ok(Err(AnswerError::TooLong)) => {
                    return Err(process.fail(format!(
                        "wrote an answer line longer than {MAX_ANSWER_BYTES} bytes (cut off)"
                    )));
                }
                Ok(Err(AnswerError::Closed)) | Err(RecvTimeoutError::Disconnected) => {
                    let (words, status) = process.exit_status();
                    let limits = self.process_limits.explain(status);
                    return Err(process.fail(format!("exited ({words}) without an answer{limits}")));
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
        };
        match parse_answer(&line, puzzle.shape()) {
            Ok(answer) => {
                if let Ok(mut idle) = self.idle.lock() {
                    idle.push(process);
                }
                Ok(answer.deliver(on_solution))
            }
            Err(why) => {
                let shown: String = line.chars().take(120).collect();
                let more = if shown.len() < line.len() { "..." } else { "" };
                Err(process.fail(format!("gave a malformed answer '{shown}{more}': {why}")))
            }
        }
    }
}

/// A name for an outside solver: letters, digits, `-`, `_`, and not a built-in's.
pub(super) fn check_name(name: &str) -> Result<(), ExternalError> {
    let well_formed = !name.is_empty()
        && name.chars().count() <= MAX_NAME_CHARS
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if !well_formed {
        return Err(ExternalError::BadName(name.to_string()));
    }
    if registry().iter().any(|strategy| strategy.name() == name) || name == "auto" {
        return Err(ExternalError::BuiltIn(name.to_string()));
    }
    Ok(())
}

impl Strategy for External {
    fn name(&self) -> &'static str {
        self.name
    }

    /// An outside program's work is its own: sudolab cannot count it, only send the budget in
    /// the header (which the program may honour) and stop the program at its deadline.
    fn budget_unit(&self) -> super::WorkUnit {
        super::WorkUnit::None
    }

    fn summary(&self) -> &'static str {
        self.summary
    }

    fn counters(&self) -> &'static [Counter] {
        &COUNTERS
    }

    fn supports(&self, shape: Shape) -> Result<(), Unsupported> {
        if shape.side() > MAX_LINE_SIDE {
            return Err(Unsupported {
                side: shape.side(),
                max_side: MAX_LINE_SIDE,
                uninterruptible: "the line protocol writes a puzzle in the line form",
                risk: "the line form has no symbol for every digit",
                instead: "use a built-in strategy",
            });
        }
        Ok(())
    }

    fn supports_rules(&self, _rules: &crate::model::Rules) -> Result<(), &'static str> {
        Err("the line protocol sends plain puzzles only")
    }

    fn refusals(&self) -> Refusals {
        Refusals {
            max_side: Some(MAX_LINE_SIDE),
            rules: &RuleKind::ALL,
        }
    }

    fn untraceable_reason(&self) -> &'static str {
        "it is an outside program, whose search sudolab cannot see"
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
        // The work is the program's: this thread's CPU clock would time only the waiting, so
        // the search is timed by the wall clock (the round trip).
        mark_ran_elsewhere();
        let stopped = |stop| Outcome::stopped_after(0, stop);
        match self.ask(puzzle, limits, on_solution) {
            Ok(outcome) => outcome,
            Err(Failed::Cancelled) => stopped(Stop::Cancelled),
            Err(Failed::TimedOut(failure)) => {
                record_failure(self.name, *failure);
                stopped(Stop::Deadline)
            }
            Err(failure) => {
                record_failure(self.name, failure);
                stopped(Stop::EngineFailure)
            }
        }
    }
}

/// Why a request got no answer.
pub(super) enum Failed {
    /// The run was cancelled; the program was killed, and that is no failure of its own.
    Cancelled,
    /// The deadline passed; the program was killed.
    TimedOut(Box<Failed>),
    /// The program failed: what it did and the end of its standard error.
    Failure { detail: String, tail: String },
}

thread_local! {
    /// The failure of the last search on this thread, until [`take_failure`] takes it.
    static FAILURE: RefCell<Option<String>> = const { RefCell::new(None) };
}

pub(super) fn record_failure(name: &str, failed: Failed) {
    let text = match failed {
        Failed::TimedOut(inner) => return record_failure(name, *inner),
        Failed::Cancelled => return,
        Failed::Failure { detail, tail } if tail.is_empty() => {
            format!("{name} {detail}; its standard error was empty")
        }
        Failed::Failure { detail, tail } => {
            format!("{name} {detail}; its standard error ends: {tail}")
        }
    };
    super::failure_recorded();
    FAILURE.with(|failure| *failure.borrow_mut() = Some(text));
}

/// What went wrong with an outside solver in the last search on this thread (and forgets it):
/// the search's answer is then `unknown`, and this is why, to be reported as a problem.
pub(crate) fn take_failure() -> Option<String> {
    FAILURE.with(|failure| failure.borrow_mut().take())
}

/// What a header says: the box and the limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Header {
    shape: Shape,
    limit: u64,
    timeout_ms: u128,
    max_nodes: u64,
}

impl Header {
    fn of(shape: Shape, limits: &Limits) -> Header {
        Header {
            shape,
            limit: limits.max_solutions.unwrap_or(0),
            timeout_ms: limits.timeout.map_or(0, |timeout| timeout.as_millis()),
            max_nodes: limits.max_nodes.unwrap_or(0),
        }
    }

    fn line(&self) -> String {
        format!(
            "sudolab-external {PROTOCOL_VERSION} box={}x{} limit={} timeout_ms={} max_nodes={}",
            self.shape.box_rows(),
            self.shape.box_cols(),
            self.limit,
            self.timeout_ms,
            self.max_nodes
        )
    }
}

/// A running program: its standard input, a thread reading its answers, one keeping the end of
/// its standard error.
struct Process {
    child: Child,
    stdin: ChildStdin,
    answers: Receiver<Result<String, AnswerError>>,
    stderr: StderrTail,
    /// The header this process last received.
    header: Option<Header>,
}

enum AnswerError {
    TooLong,
    Closed,
}

impl Process {
    fn start(command: &[String]) -> std::io::Result<Process> {
        let mut builder = Command::new(&command[0]);
        builder
            .args(&command[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        #[cfg(unix)]
        {
            // Its own process group, so that a timeout kills what it started too (`sh -c`
            // and its children).
            use std::os::unix::process::CommandExt as _;
            builder.process_group(0);
        }
        let mut child = builder.spawn()?;
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take().expect("stderr is piped");
        let (send, answers) = mpsc::channel();
        thread::Builder::new()
            .name("external-stdout".to_string())
            .spawn(move || read_answers(stdout, &send))?;
        let stderr = StderrTail::keep(stderr)?;
        Ok(Process {
            child,
            stdin,
            answers,
            stderr,
            header: None,
        })
    }

    /// Kills the program and what it started (its process group).
    fn kill(&mut self) {
        kill_group(&mut self.child);
    }

    /// How the program ended, in words and as a status, once it has (waited on briefly).
    fn exit_status(&mut self) -> (String, Option<ExitStatus>) {
        let until = Instant::now() + STDERR_GRACE;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return (status.to_string(), Some(status)),
                Ok(None) if Instant::now() < until => thread::sleep(Duration::from_millis(5)),
                Ok(None) => return ("its output closed".to_string(), None),
                Err(err) => return (format!("status unknown: {err}"), None),
            }
        }
    }

    /// Ends the program and describes its failure with the end of its standard error.
    fn fail(mut self, detail: String) -> Failed {
        self.kill();
        let tail = self.stderr.text();
        Failed::Failure { detail, tail }
    }
}

/// Kills a program started in a process group of its own, and what it started (`sh -c` and
/// its children), then reaps it.
pub(super) fn kill_group(child: &mut Child) {
    #[cfg(unix)]
    {
        let group = format!("-{}", child.id());
        let _ = Command::new("kill")
            .args(["-KILL", "--", &group])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// The last [`STDERR_TAIL_BYTES`] of a program's standard error, kept by a thread of its own
/// so that a program that writes much there never blocks on it.
pub(super) struct StderrTail {
    kept: Arc<Mutex<VecDeque<u8>>>,
    /// Receives when standard error reaches its end.
    done: Receiver<()>,
}

impl StderrTail {
    pub(super) fn keep(mut stderr: ChildStderr) -> std::io::Result<StderrTail> {
        let kept = Arc::new(Mutex::new(VecDeque::with_capacity(STDERR_TAIL_BYTES)));
        let tail = Arc::clone(&kept);
        let (finished, done) = mpsc::channel();
        thread::Builder::new()
            .name("external-stderr".to_string())
            .spawn(move || {
                let mut buffer = [0u8; 4096];
                while let Ok(read) = stderr.read(&mut buffer) {
                    if read == 0 {
                        break;
                    }
                    if let Ok(mut tail) = tail.lock() {
                        tail.extend(&buffer[..read]);
                        let excess = tail.len().saturating_sub(STDERR_TAIL_BYTES);
                        tail.drain(..excess);
                    }
                }
                let _ = finished.send(());
            })?;
        Ok(StderrTail { kept, done })
    }

    /// The end kept, on one line (line breaks shown as ` | `), once the stream has ended or
    /// after a short wait for it ([`STDERR_GRACE`]): call it once the program has ended.
    pub(super) fn text(&self) -> String {
        let _ = self.done.recv_timeout(STDERR_GRACE);
        self.kept
            .lock()
            .map(|tail| {
                let bytes: Vec<u8> = tail.iter().copied().collect();
                String::from_utf8_lossy(&bytes).trim().replace('\n', " | ")
            })
            .unwrap_or_default()
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        // A process dropped while in use (a panic elsewhere) is not left running.
        if matches!(self.child.try_wait(), Ok(None)) {
            self.kill();
        }
    }
}

/// Reads answer lines of at most [`MAX_ANSWER_BYTES`] and sends them on, until the output
/// closes, a line is too long, or nobody listens.
fn read_answers(
    stdout: std::process::ChildStdout,
    send: &mpsc::Sender<Result<String, AnswerError>>,
) {
    let mut reader = BufReader::new(stdout);
    let mut line = Vec::new();
    loop {
        line.clear();
        let limit = MAX_ANSWER_BYTES as u64 + 2;
        let read = (&mut reader).take(limit).read_until(b'\n', &mut line);
        let message = match read {
            Ok(0) | Err(_) => Err(AnswerError::Closed),
            Ok(_) if line.last() != Some(&b'\n') && line.len() as u64 >= limit => {
                Err(AnswerError::TooLong)
            }
            Ok(_) => {
                while line.last().is_some_and(|b| *b == b'\n' || *b == b'\r') {
                    line.pop();
                }
                if line.len() > MAX_ANSWER_BYTES {
                    Err(AnswerError::TooLong)
                } else {
                    Ok(String::from_utf8_lossy(&line).into_owned())
                }
            }
        };
        let last = message.is_err();
        if send.send(message).is_err() || last {
            return;
        }
    }
}

/// An answer line, read.
#[derive(Debug, PartialEq, Eq)]
struct Answer {
    solutions: Vec<Grid>,
    /// Whether the program searched its whole tree (`none`, `unique`).
    exhausted: bool,
    /// `unknown`: no verdict.
    unknown: bool,
    stats: Stats,
}

impl Answer {
    fn deliver(self, on_solution: &mut dyn FnMut(&Grid)) -> Outcome {
        for solution in &self.solutions {
            on_solution(solution);
        }
        let stopped = if self.unknown {
            Some(Stop::EngineFailure)
        } else if self.exhausted {
            None
        } else {
            Some(Stop::SolutionLimit)
        };
        Outcome {
            found: self.solutions.len() as u64,
            stopped,
            stats: self.stats,
        }
    }
}

/// Reads an answer line: its verdict word, the solutions it needs, then `key=value` counters.
fn parse_answer(line: &str, shape: Shape) -> Result<Answer, String> {
    let mut words = line.split_ascii_whitespace().peekable();
    let verdict = words
        .next()
        .ok_or("expected none, unique, solved, multiple or unknown, found an empty line")?;
    let (wanted, exhausted, unknown) = match verdict {
        "none" => (0, true, false),
        "unique" => (1, true, false),
        "solved" => (1, false, false),
        "multiple" => (2, false, false),
        "unknown" => (0, false, true),
        other => {
            return Err(format!(
                "expected none, unique, solved, multiple or unknown, found '{other}'"
            ));
        }
    };
    let mut solutions = Vec::with_capacity(wanted);
    for ordinal in 1..=wanted {
        let text = words
            .next()
            .filter(|word| !word.contains('='))
            .ok_or_else(|| {
                format!(
                    "'{verdict}' needs {wanted} solution(s), found {}",
                    ordinal - 1
                )
            })?;
        let record = parse_line_record(text.as_bytes(), Some(shape), 1)
            .map_err(|err| format!("solution {ordinal}: {err}"))?;
        solutions.push(record.puzzle);
    }
    if let [first, second] = solutions.as_slice()
        && first == second
    {
        return Err("'multiple' needs two different solutions, found the same one twice".into());
    }
    if unknown {
        // The reason, in words, up to the counters.
        while words.peek().is_some_and(|word| !word.contains('=')) {
            words.next();
        }
    }
    let mut stats = Stats::new();
    for word in words {
        let (key, value) = word.split_once('=').ok_or_else(|| {
            format!("expected key=value counters after the answer, found '{word}'")
        })?;
        let counter = COUNTERS
            .iter()
            .find(|counter| counter.name() == key)
            .ok_or_else(|| {
                let names: Vec<&str> = COUNTERS.iter().map(|counter| counter.name()).collect();
                format!(
                    "unknown counter '{key}' (expected one of {})",
                    names.join(", ")
                )
            })?;
        let value: u64 = value.parse().map_err(|_| {
            format!("counter {key}: expected a whole number of 0 or more, found '{value}'")
        })?;
        stats.set(*counter, value);
    }
    Ok(Answer {
        solutions,
        exhausted,
        unknown,
        stats,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const SOLUTION: &str =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

    #[test]
    fn answers_are_read_with_their_counters_and_malformed_ones_are_named() {
        let shape = Shape::CLASSIC;
        let answer = parse_answer(&format!("unique {SOLUTION} nodes=12 time_ns=900"), shape)
            .expect("a valid answer");
        assert_eq!(answer.solutions.len(), 1);
        assert!(answer.exhausted);
        assert_eq!(answer.stats.get(Counter::Nodes), Some(12));
        assert_eq!(answer.stats.get(Counter::TimeNs), Some(900));
        assert_eq!(answer.stats.get(Counter::Guesses), None);
        let unknown = parse_answer("unknown gave up early nodes=3", shape).expect("valid");
        assert!(unknown.unknown);
        assert_eq!(unknown.stats.get(Counter::Nodes), Some(3));
        assert_eq!(
            parse_answer("", shape).unwrap_err(),
            "expected none, unique, solved, multiple or unknown, found an empty line"
        );
        assert_eq!(
            parse_answer("maybe", shape).unwrap_err(),
            "expected none, unique, solved, multiple or unknown, found 'maybe'"
        );
        assert_eq!(
            parse_answer(&format!("multiple {SOLUTION}"), shape).unwrap_err(),
            "'multiple' needs 2 solution(s), found 1"
        );
        assert_eq!(
            parse_answer(&format!("multiple {SOLUTION} {SOLUTION}"), shape).unwrap_err(),
            "'multiple' needs two different solutions, found the same one twice"
        );
        assert_eq!(
            parse_answer(&format!("unique {SOLUTION} nodes=-1"), shape).unwrap_err(),
            "counter nodes: expected a whole number of 0 or more, found '-1'"
        );
        assert_eq!(
            parse_answer(&format!("unique {SOLUTION} clauses=1"), shape).unwrap_err(),
            "unknown counter 'clauses' (expected one of nodes, placements, backtracks, \
             guesses, propagation_rounds, time_ns)"
        );
        assert!(
            parse_answer("unique 123", shape)
                .unwrap_err()
                .starts_with("solution 1: ")
        );
    }

    #[test]
    fn names_are_checked_and_built_in_names_refused() {
        let command = || vec!["true".to_string()];
        assert!(External::new("mine-2_b", command()).is_ok());
        assert_eq!(
            External::new("fast", command()).unwrap_err(),
            ExternalError::BuiltIn("fast".to_string())
        );
        assert_eq!(
            External::new("my solver", command()).unwrap_err(),
            ExternalError::BadName("my solver".to_string())
        );
        assert_eq!(
            External::from_shell_spec("mine").unwrap_err().to_string(),
            "expected NAME=COMMAND (such as mine=./solver), found 'mine'"
        );
        assert_eq!(
            External::from_shell_spec("mine= ").unwrap_err().to_string(),
            "external solver 'mine': the command is empty"
        );
    }
}
