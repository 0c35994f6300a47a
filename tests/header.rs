//! The committed C header is what build.rs generates from `src/ffi`.
//!
//! `cargo build` rewrites `include/collide.h`; in a git checkout a header
//! that differs from the committed one means the commit carries a stale
//! header. Independently of git, every exported `phys_*` function and every
//! `#[repr(C)]` type of `src/ffi` must be declared in it.

use std::fs;
use std::path::Path;
use std::process::Command;

fn manifest_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Names following `marker` in `source`, up to the first non-identifier byte.
fn names_after<'a>(source: &'a str, marker: &str) -> Vec<&'a str> {
    source
        .match_indices(marker)
        .map(|(i, _)| {
            let rest = &source[i + marker.len()..];
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            &rest[..end]
        })
        .collect()
}

/// Every exported function and C type of `src/ffi` is declared in the header.
#[test]
fn header_declares_every_export() {
    let header = fs::read_to_string(manifest_dir().join("include/collide.h")).expect("include/collide.h exists");
    let mut checked = 0;
    for entry in fs::read_dir(manifest_dir().join("src/ffi")).expect("src/ffi exists") {
        let source = fs::read_to_string(entry.expect("a directory entry").path()).expect("a readable source file");
        for name in names_after(&source, "extern \"C\" fn ") {
            assert!(
                header.contains(&format!("{name}(")),
                "{name} is missing from include/collide.h"
            );
            checked += 1;
        }
        for name in names_after(&source, "pub struct ") {
            if name.starts_with("Phys") {
                assert!(header.contains(name), "{name} is missing from include/collide.h");
                checked += 1;
            }
        }
    }
    assert!(checked > 30, "only {checked} exports found: the scan is broken");
}

/// In a git checkout, the header that this build generated is the committed
/// one: a change to `src/ffi` must be committed with its regenerated header.
#[test]
fn header_is_committed_fresh() {
    let dir = manifest_dir();
    if !dir.join(".git").exists() {
        // Not a checkout (a packaged crate): the declaration check above is
        // the whole test.
        return;
    }
    let output = Command::new("git")
        .args(["diff", "--exit-code", "--", "include/collide.h"])
        .current_dir(dir)
        .output()
        .expect("git runs in a checkout");
    assert!(
        output.status.success(),
        "include/collide.h differs from the committed header: commit the regenerated one\n{}",
        String::from_utf8_lossy(&output.stdout)
    );
}
