//! Links the `sudolab` binary as a position-dependent executable (`-no-pie`).
//!
//! A position-independent executable is relocated by the dynamic loader at every start: about
//! 18,000 relative relocations (the vtables, string tables and function pointers of clap, serde
//! and the strategy registry), each a write, so the 260 KB of relocated data are copied into
//! private pages before `main`. Linked at a fixed address these values are final in the file,
//! and the pages are shared and read only when touched. The cost is address randomisation of
//! the executable itself (libraries, stack and heap stay randomised), which a batch command
//! that reads puzzle files does not need. Only the binary is affected: the library, the tests'
//! helpers and the Python extension are linked as before.
fn main() {
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    // GNU toolchains on Linux: rustc links with `cc -pie`, and the last of `-pie`/`-no-pie`
    // wins. Elsewhere the default link is kept.
    if os == "linux" && env == "gnu" {
        println!("cargo:rustc-link-arg-bin=sudolab=-no-pie");
    }
    println!("cargo:rerun-if-changed=build.rs");
}
