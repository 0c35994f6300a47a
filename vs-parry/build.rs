//! Compiles the Embree side of the cast benchmark (`benches/embree.rs`,
//! `embree/box_casts.c`) when Embree 3's headers are installed (Debian and
//! Ubuntu: `apt-get install libembree-dev`; elsewhere set
//! `EMBREE_INCLUDE_DIR`, and `EMBREE_LIB_DIR` when the library is not on
//! the linker's path), and sets `cfg(embree)` for the bench, which links
//! the two libraries itself. Without the headers nothing is compiled and
//! the bench says what to install. Cargo reruns this script when it or
//! the two variables change, not when a package is installed: after
//! installing Embree, `touch vs-parry/build.rs`.

use std::path::PathBuf;

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=embree/box_casts.c");
    println!("cargo::rerun-if-env-changed=EMBREE_INCLUDE_DIR");
    println!("cargo::rerun-if-env-changed=EMBREE_LIB_DIR");
    println!("cargo::rustc-check-cfg=cfg(embree)");
    let Some(include) = embree_include_dir() else {
        return;
    };
    cc::Build::new()
        .file("embree/box_casts.c")
        .include(&include)
        .opt_level(3)
        .cargo_metadata(false)
        .compile("bench_embree");
    let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    println!("cargo::rustc-link-search=native={out}");
    if let Some(lib) = std::env::var_os("EMBREE_LIB_DIR") {
        let lib = PathBuf::from(lib);
        println!("cargo::rustc-link-search=native={}", lib.display());
        if std::env::var("CARGO_CFG_TARGET_FAMILY").as_deref() == Ok("unix") {
            // Found at run time where it was found at link time.
            println!("cargo::rustc-link-arg-benches=-Wl,-rpath,{}", lib.display());
        }
    }
    println!("cargo::rustc-cfg=embree");
}

/// The directory holding `embree3/rtcore.h`: `EMBREE_INCLUDE_DIR`, else
/// the system's include directories.
fn embree_include_dir() -> Option<PathBuf> {
    let given = std::env::var_os("EMBREE_INCLUDE_DIR").map(PathBuf::from);
    given
        .into_iter()
        .chain(["/usr/include", "/usr/local/include"].map(PathBuf::from))
        .find(|dir| dir.join("embree3/rtcore.h").is_file())
}
