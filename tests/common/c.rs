//! What the tests of the compiled C and C++ programs share (`c_*.rs`,
//! `cpp_wrapper.rs`, `shipping.rs`): where cargo put the library for this
//! test run, the C toolchain and the other tools they drive (each missing one
//! fails the test, naming the Debian package that provides it: these tests
//! never skip), the builds of `examples-c/` with its Makefile, and the
//! `kind key=value ...` lines the programs print.
//!
//! Every build goes under `target/<profile>/`, so the source tree stays clean.

use std::collections::HashMap;
use std::ffi::OsStr;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The crate's root directory.
pub fn manifest_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `target/<profile>`: a test runs as `target/<profile>/deps/<name>-<hash>`.
pub fn profile_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("the test knows its own path");
    let deps = exe.parent().expect("the test binary lives in target/<profile>/deps");
    deps.parent().expect("deps/ has a parent").to_path_buf()
}

/// A fresh, empty directory `target/<profile>/<name>`.
pub fn fresh_dir(name: &str) -> PathBuf {
    let dir = profile_dir().join(name);
    if dir.exists() {
        std::fs::remove_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    }
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    dir
}

/// `target/<profile>/deps`, where cargo built the library for this test run
/// with every crate type of Cargo.toml: `libcollide.rlib`, `libcollide.a`
/// and `libcollide.so` (without a hash in their names, since the lib is also
/// a staticlib and a cdylib). `target/<profile>/libcollide.a` is refreshed
/// only by `cargo build`, so it may be stale during `cargo test`.
pub fn lib_dir() -> PathBuf {
    let deps = profile_dir().join("deps");
    for name in ["libcollide.a", "libcollide.so"] {
        assert!(
            deps.join(name).is_file(),
            "{} is missing: Cargo.toml must keep `staticlib` and `cdylib` among the lib's crate types",
            deps.join(name).display()
        );
    }
    deps
}

/// The program a tool variable names, or `default` (`CC="ccache gcc"` runs
/// `ccache`, so only the first word is checked by [`require_tool`]).
pub fn tool_from_env(variable: &str, default: &str) -> String {
    std::env::var(variable)
        .ok()
        .filter(|v| !v.trim().is_empty())
        .unwrap_or_else(|| default.to_owned())
}

/// The C compiler (`$CC`, default `cc`), checked to be there.
pub fn cc() -> String {
    let cc = tool_from_env("CC", "cc");
    require_tool(&cc, "the C compiler", "build-essential");
    cc
}

/// The C++ compiler (`$CXX`, default `c++`), checked to be there.
pub fn cxx() -> String {
    let cxx = tool_from_env("CXX", "c++");
    require_tool(&cxx, "the C++ compiler", "build-essential");
    cxx
}

/// A command for a tool variable's value: its first word is the program,
/// the rest leading arguments.
pub fn command_of(tool: &str) -> Command {
    let mut words = tool.split_whitespace();
    let mut command = Command::new(words.next().expect("a non-empty tool name"));
    command.args(words);
    command
}

/// Fails, naming the Debian package to install, when `program` cannot be run.
pub fn require_tool(program: &str, role: &str, debian_package: &str) {
    let first = program.split_whitespace().next().unwrap_or(program);
    match Command::new(first).arg("--version").output() {
        Ok(_) => {}
        Err(e) if e.kind() == ErrorKind::NotFound => panic!(
            "`{first}` ({role}) was not found on PATH: install it (Debian: `apt-get install {debian_package}`); \
             this test fails rather than skips without it"
        ),
        Err(e) => panic!("`{first}` ({role}) cannot be run: {e}"),
    }
}

/// Runs a command, asserts it exits with status 0, and returns its output.
pub fn run_ok(command: &mut Command) -> Output {
    let output = command
        .output()
        .unwrap_or_else(|e| panic!("{command:?} cannot be started: {e}"));
    assert!(
        output.status.success(),
        "{command:?} exited with {}\nstdout:\n{}\nstderr:\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// Runs a command that must succeed and returns its stdout as text.
pub fn stdout_of(command: &mut Command) -> String {
    String::from_utf8(run_ok(command).stdout).expect("the programs print UTF-8")
}

/// Runs `make -C examples-c` with the library of this test run, the binaries
/// going to `build_dir`, extra `VARIABLE=value` assignments, and `targets`.
pub fn make_examples<I, S>(build_dir: &Path, assignments: &[String], targets: I)
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    require_tool("make", "the build tool", "make");
    cc();
    cxx();
    run_ok(
        Command::new("make")
            .arg("-C")
            .arg(manifest_dir().join("examples-c"))
            .arg(format!("LIBDIR={}", lib_dir().display()))
            .arg(format!("INCDIR={}", manifest_dir().join("include").display()))
            .arg(format!("BUILDDIR={}", build_dir.display()))
            .args(assignments)
            .args(targets),
    );
}

/// The words of the Makefile's `NATIVE_LIBS ?= ...` line: the system
/// libraries the C examples link the static library with.
pub fn makefile_native_libs() -> Vec<String> {
    let makefile = read(&manifest_dir().join("examples-c/Makefile"));
    let line = makefile
        .lines()
        .find_map(|l| l.strip_prefix("NATIVE_LIBS ?="))
        .expect("examples-c/Makefile has a `NATIVE_LIBS ?= ...` line");
    line.split_whitespace().map(str::to_owned).collect()
}

/// A file's text.
pub fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Runs `make -C examples-c TARGET` with the binaries going to
/// `target/<profile>/<build_dir>/`, and returns that directory.
pub fn make(target: &str, build_dir: &str) -> PathBuf {
    let build_dir = profile_dir().join(build_dir);
    make_examples(&build_dir, &[], [target]);
    build_dir
}

/// Runs a built program, asserts it exits with status 0, and returns its stdout.
pub fn run(binary: &Path) -> String {
    stdout_of(&mut Command::new(binary))
}

/// One output line of the C and C++ programs: its first word, and its
/// `key=value` words.
pub struct Record {
    pub kind: String,
    fields: HashMap<String, String>,
}

impl Record {
    pub fn parse(line: &str) -> Self {
        let mut words = line.split_whitespace();
        let kind = words.next().unwrap_or_default().to_owned();
        let fields = words
            .filter_map(|w| w.split_once('='))
            .map(|(k, v)| (k.to_owned(), v.to_owned()))
            .collect();
        Self { kind, fields }
    }

    pub fn str(&self, key: &str) -> &str {
        self.fields
            .get(key)
            .unwrap_or_else(|| panic!("a `{}` line has no `{key}=`", self.kind))
    }

    pub fn num<T: std::str::FromStr>(&self, key: &str) -> T {
        let value = self.str(key);
        value
            .parse()
            .unwrap_or_else(|_| panic!("`{key}={value}` is not a number"))
    }

    pub fn vec(&self, key: &str) -> [f32; 3] {
        let parts: Vec<f32> = self
            .str(key)
            .split(',')
            .map(|x| x.parse().expect("a coordinate"))
            .collect();
        parts.try_into().expect("three coordinates")
    }
}

/// Every line of `output`, parsed.
pub fn records(output: &str) -> Vec<Record> {
    output.lines().map(Record::parse).collect()
}

/// The records of one kind.
pub fn of_kind<'a>(records: &'a [Record], kind: &str) -> Vec<&'a Record> {
    records.iter().filter(|r| r.kind == kind).collect()
}

/// The lines of `output` of one kind.
pub fn lines_of_kind(output: &str, kind: &str) -> Vec<Record> {
    output.lines().map(Record::parse).filter(|r| r.kind == kind).collect()
}

/// The one line of `output` of one kind.
pub fn the_line(output: &str, kind: &str) -> Record {
    let mut lines = lines_of_kind(output, kind);
    assert_eq!(lines.len(), 1, "one `{kind}` line in:\n{output}");
    lines.pop().expect("one line")
}

/// Whether two vectors agree within `eps` per coordinate.
pub fn close3(a: [f32; 3], b: [f32; 3], eps: f32) -> bool {
    a.iter().zip(b).all(|(x, y)| (x - y).abs() <= eps)
}
