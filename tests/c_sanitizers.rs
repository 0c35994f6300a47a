//! Every program of `examples-c/` that links collide (bullets, pairs,
//! shapes, cpp_wrapper, cpp_tour with and without exceptions, book_game,
//! threads) runs clean under valgrind's memcheck and
//! under gcc's AddressSanitizer with UndefinedBehaviorSanitizer, and prints
//! there exactly what it prints natively.
//!
//! - memcheck runs the ordinary build (`-O2 -g`) with
//!   `--error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,indirect,possible`:
//!   any invalid read or write, use of uninitialised memory, bad free, or
//!   definitely, indirectly or possibly lost block fails the run (a thread
//!   left running at exit, such as a thread pool's, shows as a possibly lost
//!   stack). Rust's standard library keeps a few blocks "still reachable"
//!   until exit; those are not leaks and do not count, and neither does the
//!   calling thread's `std::thread::current()` handle, which
//!   `tests/c/memcheck-rust-std.supp` names. It sees collide's own code too.
//! - The sanitizer build compiles the C and C++ code with
//!   `-fsanitize=address,undefined -fno-omit-frame-pointer
//!   -fno-sanitize-recover=all` and links the (uninstrumented) Rust static
//!   library; LeakSanitizer is on, so leaks of collide's objects count.
//!
//! The builds go to `target/<profile>/sanitizers/{native,asan}/`. A missing
//! `valgrind` fails the memcheck tests, naming the Debian package; the
//! sanitizer runtimes come with gcc (`build-essential`).

mod common;

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use common::c::{make_examples, profile_dir, require_tool, run_ok, stdout_of};

/// The flags of both sanitizers, for compiling and for linking.
const SANITIZE: &str = "-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all";

/// ASan: report leaks (LeakSanitizer) and a few checks that are off by
/// default; exit with status 1 on any report.
const ASAN_OPTIONS: &str =
    "detect_leaks=1:strict_string_checks=1:check_initialization_order=1:detect_stack_use_after_return=1:exitcode=1";
/// UBSan: stop at the first report, with a stack trace.
const UBSAN_OPTIONS: &str = "halt_on_error=1:print_stacktrace=1";

/// The arguments each program runs with: threads.c does fewer rounds than
/// its default, as memcheck runs the four threads one at a time.
fn arguments(program: &str) -> &'static [&'static str] {
    match program {
        "threads" => &["3"],
        _ => &[],
    }
}

/// Builds every program into `target/<profile>/sanitizers/<name>/` with
/// extra make variables, and returns that directory.
fn build(name: &str, assignments: &[String]) -> PathBuf {
    let dir = profile_dir().join("sanitizers").join(name);
    // book_game by its path: the phony `book_game` target would also build
    // book_game_reference, which does not link collide.
    let book_game = dir.join("book_game");
    make_examples(
        &dir,
        assignments,
        [
            OsStr::new("all"),
            OsStr::new("cpp_wrapper"),
            OsStr::new("cpp_tour"),
            book_game.as_os_str(),
            OsStr::new("threads"),
        ],
    );
    dir
}

/// The ordinary build, built once per test process.
fn native() -> &'static Path {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT.get_or_init(|| build("native", &[]))
}

/// The AddressSanitizer + UndefinedBehaviorSanitizer build, once per process.
fn sanitized() -> &'static Path {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT.get_or_init(|| {
        build(
            "asan",
            &[
                format!("CFLAGS=-std=c99 -Wall -Wextra -Werror -pedantic -O1 -g {SANITIZE}"),
                format!("CXXFLAGS=-std=c++17 -Wall -Wextra -Werror -pedantic -O1 -g {SANITIZE}"),
                format!("LDFLAGS={SANITIZE}"),
            ],
        )
    })
}

/// What a program of the ordinary build prints, run natively.
fn native_output(program: &str) -> String {
    stdout_of(Command::new(native().join(program)).args(arguments(program)))
}

/// Runs `program` under memcheck: it must succeed with no error and no
/// definite, indirect or possible leak, and print what it prints natively.
fn memcheck(program: &str) {
    require_tool("valgrind", "memcheck", "valgrind");
    let expected = native_output(program);
    let output = run_ok(
        Command::new("valgrind")
            .args([
                "--tool=memcheck",
                "--error-exitcode=1",
                "--leak-check=full",
                "--errors-for-leak-kinds=definite,indirect,possible",
                "--show-leak-kinds=definite,indirect,possible",
                concat!(
                    "--suppressions=",
                    env!("CARGO_MANIFEST_DIR"),
                    "/tests/c/memcheck-rust-std.supp"
                ),
            ])
            .arg(native().join(program))
            .args(arguments(program)),
    );
    let report = String::from_utf8_lossy(&output.stderr);
    assert!(
        report.contains("ERROR SUMMARY: 0 errors from 0 contexts"),
        "memcheck found errors in {program}:\n{report}"
    );
    for kind in ["definitely lost", "indirectly lost", "possibly lost"] {
        assert!(
            !report.contains(kind) || report.contains(&format!("{kind}: 0 bytes in 0 blocks")),
            "{program}: {kind} blocks:\n{report}"
        );
    }
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        expected,
        "{program} prints the same under memcheck"
    );
}

/// Runs the sanitized build of `program`: it must succeed with no report,
/// and print what the ordinary build prints.
fn sanitize(program: &str) {
    let expected = native_output(program);
    let output = run_ok(
        Command::new(sanitized().join(program))
            .args(arguments(program))
            .env("ASAN_OPTIONS", ASAN_OPTIONS)
            .env("UBSAN_OPTIONS", UBSAN_OPTIONS),
    );
    let report = String::from_utf8_lossy(&output.stderr);
    assert!(
        !report.contains("ERROR: AddressSanitizer")
            && !report.contains("ERROR: LeakSanitizer")
            && !report.contains("runtime error:"),
        "{program}: the sanitizers report:\n{report}"
    );
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        expected,
        "{program} prints the same when sanitized"
    );
}

/// One memcheck test and one sanitizer test per program.
macro_rules! programs {
    ($($program:ident),* $(,)?) => {
        mod memcheck {
            $(
                #[test]
                fn $program() {
                    super::memcheck(stringify!($program));
                }
            )*
        }
        mod asan_ubsan {
            $(
                #[test]
                fn $program() {
                    super::sanitize(stringify!($program));
                }
            )*
        }
    };
}

programs!(
    bullets,
    pairs,
    shapes,
    cpp_wrapper,
    cpp_tour,
    cpp_tour_noexcept,
    book_game,
    threads
);

#[test]
fn the_sanitized_programs_carry_both_runtimes() {
    require_tool("readelf", "the ELF reader", "binutils");
    for program in [
        "bullets",
        "pairs",
        "shapes",
        "cpp_wrapper",
        "cpp_tour",
        "cpp_tour_noexcept",
        "book_game",
        "threads",
    ] {
        let path = sanitized().join(program);
        let dynamic = stdout_of(Command::new("readelf").arg("--dynamic").arg(&path));
        for runtime in ["libasan.so", "libubsan.so"] {
            assert!(
                dynamic.contains(runtime),
                "{} does not load {runtime}:\n{dynamic}",
                path.display()
            );
        }
    }
}
