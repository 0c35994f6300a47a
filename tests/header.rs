//! The committed C header `include/collide.h` is what cbindgen generates
//! from `src/ffi` (this test regenerates it), and it declares every exported
//! `phys_*` function and every `#[repr(C)]` type of `src/ffi`.

use std::fs;
use std::path::Path;

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

/// The header generated from `src/ffi` by cbindgen (with `cbindgen.toml`
/// and the crate's version macros) is the committed `include/collide.h`.
/// When it is not, the test writes the generated header in its place and
/// fails: commit the rewritten file.
#[test]
fn header_is_generated_from_the_sources() {
    let dir = manifest_dir();
    let mut config = cbindgen::Config::from_file(dir.join("cbindgen.toml")).expect("cbindgen.toml is valid");
    let (major, minor, patch) = (
        env!("CARGO_PKG_VERSION_MAJOR"),
        env!("CARGO_PKG_VERSION_MINOR"),
        env!("CARGO_PKG_VERSION_PATCH"),
    );
    config.after_includes = Some(format!(
        "\n#define PHYS_VERSION_MAJOR {major}\n#define PHYS_VERSION_MINOR {minor}\n#define PHYS_VERSION_PATCH {patch}\n\
         #define PHYS_VERSION_STRING \"{major}.{minor}.{patch}\"\n\
         #define PHYS_VERSION_NUMBER ((PHYS_VERSION_MAJOR << 16) | (PHYS_VERSION_MINOR << 8) | PHYS_VERSION_PATCH)\n"
    ));
    // Only the FFI layer is parsed: its types and functions are the ABI, and
    // nothing else of the crate leaks into the header.
    let mut builder = cbindgen::Builder::new().with_config(config);
    for file in [
        "error.rs",
        "types.rs",
        "world.rs",
        "query.rs",
        "narrow.rs",
        "shape.rs",
        "manifold.rs",
        "geom.rs",
        "draw.rs",
        "snapshot.rs",
    ] {
        builder = builder.with_src(dir.join("src").join("ffi").join(file));
    }
    let mut generated = Vec::new();
    builder
        .generate()
        .expect("cbindgen generates the header")
        .write(&mut generated);
    let path = dir.join("include").join("collide.h");
    if fs::read(&path).ok().as_deref() != Some(generated.as_slice()) {
        fs::write(&path, &generated).expect("include/collide.h can be written");
        panic!("include/collide.h was stale and has been regenerated from src/ffi: commit it");
    }
}
