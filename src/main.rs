//! The `sudolab` command: parse arguments, run, map the result to an exit code.

mod cli;

/// mimalloc instead of the system allocator: `compare`'s workers allocate a puzzle's grid, its
/// key, its runs and its rows on one thread and often free them on another, which glibc's
/// allocator serves through its locked bins at about 250 instructions a call. With mimalloc
/// (per-thread free lists, frees from other threads handed back in batches), `compare -s fast
/// -j1` on 10,000 17-clue puzzles ran 215M instructions instead of 245M (docs/benchmarks.md).
/// The library does not set an allocator: that is its users' choice.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    cli::main()
}
