//! Gives the shared library (the `cdylib`) its ABI name, so that programs
//! linked against it record the major version they were built for and the
//! loader finds the matching file: `libcollide.so.MAJOR` (the SONAME) on ELF
//! systems, `@rpath/libcollide.MAJOR.dylib` (the install name) on macOS.
//! Windows DLLs carry no such name. Nothing else is built here: a Rust
//! dependent compiles this file and nothing more.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let major = std::env::var("CARGO_PKG_VERSION_MAJOR").unwrap_or_else(|_| "0".to_owned());
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    match os.as_str() {
        "linux" | "android" | "freebsd" | "netbsd" | "openbsd" | "dragonfly" | "illumos" | "solaris" => {
            println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libcollide.so.{major}");
        }
        "macos" | "ios" => {
            println!("cargo:rustc-cdylib-link-arg=-Wl,-install_name,@rpath/libcollide.{major}.dylib");
        }
        _ => {}
    }
}
