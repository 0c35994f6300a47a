//! Builds and runs the programs of `examples-c/` for the integration tests
//! that check them (`tests/c_examples.rs`, `tests/book_game.rs`,
//! `tests/cpp_wrapper.rs`), and parses their `kind key=value ...` output
//! lines.
//!
//! It builds with the Makefile against the `libcollide.a` cargo built for
//! this test run, into `target/<profile>/`, and fails (never skips) when
//! make, the C compiler or the C++ compiler is missing.
// Each test crate that includes this module uses a part of it.
#![allow(dead_code)]

use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::process::Command;

/// `target/<profile>`: a test runs as `target/<profile>/deps/<name>-<hash>`.
fn profile_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("the test knows its own path");
    let deps = exe.parent().expect("the test binary lives in target/<profile>/deps");
    deps.parent().expect("deps/ has a parent").to_path_buf()
}

/// The static library cargo built for this run. An integration test depends
/// on the library target, which cargo builds with every crate type in
/// Cargo.toml into `deps/` (without a hash in the name, since the lib is also
/// a staticlib/cdylib); `target/<profile>/libcollide.a` is only refreshed by
/// `cargo build`, so it may be stale here.
fn static_lib_dir() -> PathBuf {
    let deps = profile_dir().join("deps");
    let lib = deps.join("libcollide.a");
    assert!(
        lib.is_file(),
        "{} is missing: Cargo.toml must keep `staticlib` among the lib's crate types",
        lib.display()
    );
    deps
}

/// The program a tool variable names (`CC="ccache gcc"` runs `ccache`).
fn tool_from_env(variable: &str, default: &str) -> String {
    std::env::var(variable)
        .ok()
        .and_then(|v| v.split_whitespace().next().map(str::to_owned))
        .unwrap_or_else(|| default.to_owned())
}

/// Fails, naming the tool, when `program` cannot be run.
fn require_tool(program: &str, role: &str) {
    match Command::new(program).arg("--version").output() {
        Ok(_) => {}
        Err(e) if e.kind() == ErrorKind::NotFound => panic!(
            "`{program}` ({role}) was not found on PATH: building the examples needs make, a C99 compiler \
             (cc, or $CC) and a C++17 compiler (c++, or $CXX); install them (e.g. `apt-get install build-essential`)"
        ),
        Err(e) => panic!("`{program}` ({role}) cannot be run: {e}"),
    }
}

/// Runs `make -C examples-c TARGET` with the binaries going to
/// `target/<profile>/<build_dir>/`, and returns that directory.
pub fn make(target: &str, build_dir: &str) -> PathBuf {
    require_tool("make", "the build tool");
    require_tool(&tool_from_env("CC", "cc"), "the C compiler");
    require_tool(&tool_from_env("CXX", "c++"), "the C++ compiler");

    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let build_dir = profile_dir().join(build_dir);
    let output = Command::new("make")
        .arg("-C")
        .arg(manifest.join("examples-c"))
        .arg(format!("LIBDIR={}", static_lib_dir().display()))
        .arg(format!("INCDIR={}", manifest.join("include").display()))
        .arg(format!("BUILDDIR={}", build_dir.display()))
        .arg(target)
        .output()
        .expect("make runs");
    assert!(
        output.status.success(),
        "make {target} failed ({}):\n{}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    build_dir
}

/// Runs a built program, asserts it exits with status 0, and returns its stdout.
pub fn run(binary: &Path) -> String {
    let output = Command::new(binary)
        .output()
        .unwrap_or_else(|e| panic!("{} runs: {e}", binary.display()));
    let stdout = String::from_utf8(output.stdout).expect("the examples print UTF-8");
    assert!(
        output.status.success(),
        "{} exited with {}\nstdout:\n{stdout}\nstderr:\n{}",
        binary.display(),
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

pub mod oracle;
mod record;

pub use record::Record;

/// Every line of `output`, parsed.
pub fn records(output: &str) -> Vec<Record> {
    output.lines().map(Record::parse).collect()
}

/// The lines of one kind.
pub fn of_kind<'a>(records: &'a [Record], kind: &str) -> Vec<&'a Record> {
    records.iter().filter(|r| r.kind == kind).collect()
}

/// Whether two vectors agree within `eps` per coordinate.
pub fn close3(a: [f32; 3], b: [f32; 3], eps: f32) -> bool {
    a.iter().zip(b).all(|(x, y)| (x - y).abs() <= eps)
}
