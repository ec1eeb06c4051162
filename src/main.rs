//! The `sudolab` command: parse arguments, run, map the result to an exit code.

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
