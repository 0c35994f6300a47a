//! Generates the C header `include/collide.h` from `src/ffi` with cbindgen.
//!
//! The header is committed; CI regenerates it and fails when the committed
//! one differs. It is rewritten only when its text changes.

use std::env;
use std::fs;
use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-changed=src/ffi");
    println!("cargo:rerun-if-changed=cbindgen.toml");
    println!("cargo:rerun-if-changed=Cargo.toml");
    let crate_dir = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let mut config = cbindgen::Config::from_file(crate_dir.join("cbindgen.toml")).expect("cbindgen.toml is valid");
    let version = |part: &str| env::var(format!("CARGO_PKG_VERSION_{part}")).expect("cargo sets the version");
    let (major, minor, patch) = (version("MAJOR"), version("MINOR"), version("PATCH"));
    config.after_includes = Some(format!(
        "\n#define PHYS_VERSION_MAJOR {major}\n#define PHYS_VERSION_MINOR {minor}\n#define PHYS_VERSION_PATCH {patch}\n\
         #define PHYS_VERSION_STRING \"{major}.{minor}.{patch}\"\n\
         #define PHYS_VERSION_NUMBER ((PHYS_VERSION_MAJOR << 16) | (PHYS_VERSION_MINOR << 8) | PHYS_VERSION_PATCH)\n"
    ));
    // Only the FFI layer is parsed: its types and functions are the ABI, and
    // nothing else of the crate (constants, types) leaks into the header.
    let mut builder = cbindgen::Builder::new().with_config(config);
    for file in ["error.rs", "types.rs", "world.rs", "query.rs", "narrow.rs"] {
        builder = builder.with_src(crate_dir.join("src").join("ffi").join(file));
    }
    let mut header = Vec::new();
    builder
        .generate()
        .expect("cbindgen generates the header")
        .write(&mut header);
    let path = crate_dir.join("include").join("collide.h");
    if fs::read(&path).ok().as_deref() != Some(header.as_slice()) {
        fs::create_dir_all(path.parent().expect("include/ has a parent")).expect("include/ can be created");
        fs::write(&path, &header).expect("include/collide.h can be written");
    }
}
