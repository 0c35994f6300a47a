//! What collide ships to C and C++, checked from the outside:
//!
//! - the library comes as a static and a shared library, the shared one
//!   exporting exactly the functions `include/collide.h` declares;
//! - the system libraries to link the static one with, as README.md and
//!   `examples-c/Makefile` list them, are the ones rustc names
//!   (`--print native-static-libs`);
//! - every `Phys*` type has the same size, alignment and member offsets in
//!   Rust (the `const` assertions below), in C99 and in C++17 (the static
//!   assertions of `tests/c/abi_layout.c`), and that file covers every
//!   struct and member of the header;
//! - the header's version macros and `phys_version()` are Cargo.toml's
//!   version (`tests/c/version.c`);
//! - `packaging/install.sh` installs a pkg-config file and a CMake package
//!   through which the examples build and run.
//!
//! Everything is built against the library cargo built for this test run
//! (`target/<profile>/deps`), into `target/<profile>/shipping/`. Missing tools
//! fail the tests, naming the Debian package: `build-essential` (cc, c++,
//! make, nm, readelf), `pkg-config` and `cmake`.

mod common;

use std::collections::BTreeMap;
use std::mem::{align_of, offset_of, size_of};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use collide::ffi::*;
use common::c::{
    cc, command_of, cxx, fresh_dir, lib_dir, make_examples, makefile_native_libs, manifest_dir, profile_dir, read,
    require_tool, run_ok, stdout_of, the_line,
};

// ---------------------------------------------------------------------------
// The layout of the C ABI's types, on the Rust side.
// ---------------------------------------------------------------------------

/// A type of the C ABI as Rust lays it out: name, size, alignment, and each
/// member's name and offset in declaration order.
#[derive(Debug, Clone, PartialEq, Eq)]
struct TypeLayout {
    name: String,
    size: usize,
    align: usize,
    members: Vec<(String, usize)>,
}

/// Asserts, at compile time, each type's size and alignment and each
/// member's offset, and lists them as [`TypeLayout`]s for the tests that hold
/// the header and `tests/c/abi_layout.c` to the same numbers.
macro_rules! abi_layout {
    ($($ty:ident: size $size:literal, align $align:literal { $($member:ident: $offset:literal),* $(,)? })*) => {
        $(
            const _: () = assert!(size_of::<$ty>() == $size && align_of::<$ty>() == $align);
            $(const _: () = assert!(offset_of!($ty, $member) == $offset);)*
        )*

        fn rust_layout() -> Vec<TypeLayout> {
            vec![$(TypeLayout {
                name: stringify!($ty).to_owned(),
                size: $size,
                align: $align,
                members: vec![$((stringify!($member).to_owned(), $offset)),*],
            }),*]
        }
    };
}

abi_layout! {
    PhysStatus: size 4, align 4 {}
    PhysVec3: size 12, align 4 { x: 0, y: 4, z: 8 }
    PhysQuat: size 16, align 4 { x: 0, y: 4, z: 8, w: 12 }
    PhysAabb: size 24, align 4 { min: 0, max: 12 }
    PhysSegment: size 24, align 4 { start: 0, end: 12 }
    PhysSphere: size 16, align 4 { center: 0, radius: 12 }
    PhysCapsule: size 28, align 4 { segment: 0, radius: 24 }
    PhysTransform: size 40, align 4 { translation: 0, rotation: 12, scale: 28 }
    PhysCollider: size 8, align 8 { bits: 0 }
    PhysColliderDesc: size 72, align 8 { transform: 0, user_data: 40, category_bits: 48, mask_bits: 56, flags: 64 }
    PhysQueryFilter: size 24, align 8 { category_bits: 0, mask_bits: 8, exclude: 16 }
    PhysHit: size 48, align 8 { collider: 0, user_data: 8, t: 16, point: 20, normal: 32, sub_shape: 44 }
    PhysPair: size 32, align 8 { a: 0, user_a: 8, b: 16, user_b: 24 }
    PhysColliderRef: size 16, align 8 { collider: 0, user_data: 8 }
    PhysObb: size 40, align 4 { center: 0, rotation: 12, half_extents: 28 }
    PhysTriangle: size 36, align 4 { a: 0, b: 12, c: 24 }
    PhysCylinder: size 28, align 4 { segment: 0, radius: 24 }
    PhysCone: size 28, align 4 { base_center: 0, apex: 12, radius: 24 }
    PhysDistance: size 48, align 4 { distance: 0, point_a: 4, point_b: 16, normal: 28, sub_shapes: 40 }
    PhysContact: size 48, align 4 { depth: 0, normal: 4, point_a: 16, point_b: 28, sub_shapes: 40 }
    PhysManifoldPoint: size 32, align 4 { point_a: 0, point_b: 12, depth: 24, id: 28 }
    PhysManifold: size 152, align 4 { normal: 0, count: 12, points: 16, sub_shapes: 144 }
    PhysPairManifold: size 184, align 8 { pair: 0, manifold: 32 }
    PhysShapeHit: size 48, align 8 { collider: 0, user_data: 8, t: 16, point: 20, normal: 32, sub_shape: 44 }
    PhysClosest: size 64, align 8 { collider: 0, user_data: 8, distance: 16 }
    PhysRay: size 24, align 4 { origin: 0, direction: 12 }
    PhysPlane: size 16, align 4 { normal: 0, d: 12 }
    PhysVec2: size 8, align 4 { x: 0, y: 4 }
    PhysSegmentClosest: size 36, align 4 { s: 0, t: 4, point_a: 8, point_b: 20, distance_squared: 32 }
    PhysShapeData: size 40, align 8 { aabb: 0, sphere: 0, capsule: 0, obb: 0, triangle: 0, cylinder: 0, cone: 0, hull: 0, mesh: 0, heightfield: 0, compound: 0 }
    PhysShape: size 48, align 8 { kind: 0, data: 8 }
    PhysDebugDraw: size 64, align 8 { ctx: 0, line: 8, triangle: 16, oriented_box: 24, sphere: 32, capsule: 40, point: 48, text: 56 }
}

/// The arguments of a `NAME(a, b, c);` line of abi_layout.c.
fn macro_arguments<'a>(line: &'a str, name: &str) -> Option<Vec<&'a str>> {
    let inner = line.strip_prefix(name)?.strip_prefix('(')?.strip_suffix(");")?;
    Some(inner.split(',').map(str::trim).collect())
}

/// The facts `tests/c/abi_layout.c` asserts, in its order.
fn c_layout() -> Vec<TypeLayout> {
    let source = read(&manifest_dir().join("tests/c/abi_layout.c"));
    let number = |s: &str| -> usize {
        s.parse()
            .unwrap_or_else(|_| panic!("abi_layout.c: `{s}` is not a number"))
    };
    let mut layout: Vec<TypeLayout> = Vec::new();
    for line in source.lines().map(str::trim) {
        if let Some(args) = macro_arguments(line, "LAYOUT_TYPE") {
            let [name, size, align] = args[..] else {
                panic!("abi_layout.c: `{line}` has three arguments")
            };
            layout.push(TypeLayout {
                name: name.to_owned(),
                size: number(size),
                align: number(align),
                members: Vec::new(),
            });
        } else if let Some(args) = macro_arguments(line, "LAYOUT_MEMBER") {
            let [name, member, offset] = args[..] else {
                panic!("abi_layout.c: `{line}` has three arguments")
            };
            let current = layout
                .last_mut()
                .filter(|t| t.name == name)
                .unwrap_or_else(|| panic!("abi_layout.c: `{line}` follows its type's LAYOUT_TYPE line"));
            current.members.push((member.to_owned(), number(offset)));
        }
    }
    layout
}

/// The structs and unions `include/collide.h` defines (`typedef struct Name { ... } Name;`),
/// each with its members' names in declaration order. Opaque types
/// (`typedef struct PhysWorld PhysWorld;`) have no body and are left out.
fn header_structs() -> BTreeMap<String, Vec<String>> {
    let header = read(&manifest_dir().join("include/collide.h"));
    let mut structs = BTreeMap::new();
    let mut current: Option<(String, Vec<String>)> = None;
    let mut pending = String::new();
    for line in header.lines().map(str::trim) {
        let opened = line
            .strip_prefix("typedef struct ")
            .or_else(|| line.strip_prefix("typedef union "));
        if let Some(name) = opened.and_then(|l| l.strip_suffix(" {")) {
            current = Some((name.to_owned(), Vec::new()));
        } else if line.starts_with('}') {
            if let Some((name, members)) = current.take() {
                structs.insert(name, members);
            }
        } else if let Some((_, members)) = current.as_mut() {
            let is_comment = line.starts_with("/*") || line.starts_with('*');
            if is_comment {
                continue;
            }
            // A declaration may span lines (a function pointer's parameters).
            pending.push_str(line);
            pending.push(' ');
            if let Some(declaration) = pending.trim_end().strip_suffix(';') {
                let name = match declaration.split_once("(*") {
                    // `void (*name)(...)`: a function pointer.
                    Some((_, rest)) => rest.split(')').next().expect("a member name"),
                    // `type name[N]`: an array.
                    None => declaration
                        .rsplit([' ', '*'])
                        .next()
                        .expect("a member name")
                        .split('[')
                        .next()
                        .unwrap_or_default(),
                };
                members.push(name.to_owned());
                pending.clear();
            }
        }
    }
    structs
}

#[test]
fn abi_layout_c_asserts_rust_s_numbers_for_every_struct_and_member_of_the_header() {
    let rust = rust_layout();
    assert_eq!(
        c_layout(),
        rust,
        "tests/c/abi_layout.c and the Rust assertions here state the same layout"
    );

    let header = header_structs();
    let covered: BTreeMap<String, Vec<String>> = rust
        .iter()
        .filter(|t| t.name != "PhysStatus")
        .map(|t| (t.name.clone(), t.members.iter().map(|(m, _)| m.clone()).collect()))
        .collect();
    assert_eq!(
        covered, header,
        "every struct of collide.h, and each of its members in order, has its layout asserted"
    );
    assert!(
        read(&manifest_dir().join("include/collide.h")).contains("enum PhysStatus"),
        "PhysStatus, asserted as a 4-byte type, is the header's status enum"
    );
}

/// Checks `tests/c/abi_layout.c` with one compiler and language: the
/// assertions hold, and a false one (`-DLAYOUT_SELF_TEST`) breaks the build.
fn compile_layout_assertions(compiler: &str, language: &[&str]) {
    let compile = |extra: &[&str]| {
        let mut command = command_of(compiler);
        command
            .args(language)
            .args(["-Wall", "-Wextra", "-Werror", "-pedantic", "-fsyntax-only", "-I"])
            .arg(manifest_dir().join("include"))
            .args(extra)
            .arg(manifest_dir().join("tests/c/abi_layout.c"));
        command
    };
    run_ok(&mut compile(&[]));

    let broken = compile(&["-DLAYOUT_SELF_TEST"]).output().expect("the compiler runs");
    let errors = String::from_utf8_lossy(&broken.stderr);
    assert!(
        !broken.status.success() && errors.contains("self_test_PhysHit_normal"),
        "{compiler} {language:?}: a false layout assertion must fail the build, naming it; got {}:\n{errors}",
        broken.status
    );
}

#[test]
fn abi_layout_assertions_hold_in_c99() {
    compile_layout_assertions(&cc(), &["-std=c99", "-x", "c"]);
}

#[test]
fn abi_layout_assertions_hold_in_cpp17() {
    compile_layout_assertions(&cxx(), &["-std=c++17", "-x", "c++"]);
}

// ---------------------------------------------------------------------------
// Version.
// ---------------------------------------------------------------------------

/// Builds `tests/c/version.c` with one compiler and language, runs it, and
/// checks what it prints against Cargo.toml's version.
fn check_version_program(compiler: &str, language: &[&str], name: &str) {
    let dir = profile_dir().join("shipping");
    std::fs::create_dir_all(&dir).expect("target/<profile>/shipping can be created");
    let binary = dir.join(name);
    run_ok(
        command_of(compiler)
            .args(language)
            .args(["-Wall", "-Wextra", "-Werror", "-pedantic", "-I"])
            .arg(manifest_dir().join("include"))
            .arg(manifest_dir().join("tests/c/version.c"))
            .args(["-x", "none"])
            .arg(lib_dir().join("libcollide.a"))
            .args(makefile_native_libs())
            .arg("-o")
            .arg(&binary),
    );
    let output = stdout_of(&mut Command::new(&binary));
    let line = the_line(&output, "version");

    let version = env!("CARGO_PKG_VERSION");
    let part = |s: &str| -> u32 { s.parse().expect("Cargo.toml's version has numeric parts") };
    let (major, minor, patch) = (
        part(env!("CARGO_PKG_VERSION_MAJOR")),
        part(env!("CARGO_PKG_VERSION_MINOR")),
        part(env!("CARGO_PKG_VERSION_PATCH")),
    );
    let number = (major << 16) | (minor << 8) | patch;
    assert_eq!(line.str("macro"), version, "{name}: PHYS_VERSION_STRING");
    assert_eq!(line.str("lib"), version, "{name}: phys_version()");
    assert_eq!(
        (
            line.num::<u32>("major"),
            line.num::<u32>("minor"),
            line.num::<u32>("patch")
        ),
        (major, minor, patch),
        "{name}: PHYS_VERSION_MAJOR, _MINOR, _PATCH"
    );
    assert_eq!(line.num::<u32>("number"), number, "{name}: PHYS_VERSION_NUMBER");
    assert_eq!(line.num::<u32>("lib_number"), number, "{name}: phys_version_number()");
}

#[test]
fn version_macros_and_phys_version_are_cargo_toml_s_version_in_c99() {
    check_version_program(&cc(), &["-std=c99", "-x", "c"], "version-c99");
}

#[test]
fn version_macros_and_phys_version_are_cargo_toml_s_version_in_cpp17() {
    check_version_program(&cxx(), &["-std=c++17", "-x", "c++"], "version-cpp17");
}

// ---------------------------------------------------------------------------
// The libraries and what to link them with.
// ---------------------------------------------------------------------------

/// The functions `include/collide.h` declares.
fn header_functions() -> Vec<String> {
    let header = read(&manifest_dir().join("include/collide.h"));
    let mut functions: Vec<String> = header
        .lines()
        .filter(|l| !l.trim_start().starts_with(['*', '/', '#']))
        .filter_map(|l| {
            let start = l.find("phys_")?;
            let name: String = l[start..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            l[start + name.len()..].starts_with('(').then_some(name)
        })
        .collect();
    functions.sort();
    functions
}

#[test]
fn the_library_ships_static_and_shared_and_exports_the_header_s_functions() {
    let manifest = read(&manifest_dir().join("Cargo.toml"));
    let crate_types = manifest
        .lines()
        .find(|l| l.trim_start().starts_with("crate-type"))
        .expect("Cargo.toml's [lib] lists its crate types");
    for kind in ["\"staticlib\"", "\"cdylib\""] {
        assert!(
            crate_types.contains(kind),
            "Cargo.toml's lib is a {kind}: `{crate_types}`"
        );
    }
    // `lib_dir` asserts that libcollide.a and libcollide.so were built.
    let shared = lib_dir().join("libcollide.so");
    require_tool("readelf", "the ELF reader", "binutils");
    let dynamic = stdout_of(Command::new("readelf").arg("--dynamic").arg(&shared));
    assert!(
        dynamic.contains(&format!("Library soname: [{}]", soname())),
        "libcollide.so's SONAME is {}:\n{dynamic}",
        soname()
    );

    require_tool("nm", "the symbol lister", "binutils");
    let symbols = stdout_of(Command::new("nm").args(["--dynamic", "--defined-only"]).arg(&shared));
    let mut exported: Vec<String> = symbols
        .lines()
        .filter_map(|l| match l.split_whitespace().collect::<Vec<_>>()[..] {
            [_, "T", name] if name.starts_with("phys_") => Some(name.to_owned()),
            _ => None,
        })
        .collect();
    exported.sort();
    let declared = header_functions();
    assert!(declared.len() >= 40, "collide.h declares its functions: {declared:?}");
    assert_eq!(
        exported, declared,
        "libcollide.so exports exactly the phys_ functions of collide.h"
    );
}

/// The rustc cargo uses: `$RUSTC`, else the one beside `$CARGO` (cargo sets
/// it for the tests it runs), else `rustc` on PATH.
fn rustc() -> PathBuf {
    if let Some(rustc) = std::env::var_os("RUSTC") {
        return rustc.into();
    }
    std::env::var_os("CARGO")
        .map(|cargo| Path::new(&cargo).with_file_name("rustc"))
        .filter(|rustc| rustc.is_file())
        .unwrap_or_else(|| "rustc".into())
}

/// What rustc says the static library must be linked with.
///
/// `cargo rustc --release --lib --crate-type staticlib -- --print native-static-libs`
/// would rebuild collide (its flags differ from `cargo build`'s) and race
/// with the other tests over the library files. Instead this links a
/// one-line staticlib, `pub use collide;`, against the rlibs cargo already
/// built for this test run: the same crate graph (collide, its dependencies,
/// std) as `libcollide.a`, so the same native libraries, in a second.
fn native_static_libs() -> &'static [String] {
    static LIBS: OnceLock<Vec<String>> = OnceLock::new();
    LIBS.get_or_init(|| {
        let dir = fresh_dir("shipping/native-static-libs");
        std::fs::write(dir.join("probe.rs"), "pub use collide;\n").expect("the probe can be written");
        let deps = lib_dir();
        let output = run_ok(
            Command::new(rustc())
                .args([
                    "--edition",
                    "2021",
                    "--crate-type",
                    "staticlib",
                    "--crate-name",
                    "probe",
                ])
                .arg("-L")
                .arg(format!("dependency={}", deps.display()))
                .arg("--extern")
                .arg(format!("collide={}", deps.join("libcollide.rlib").display()))
                .args(["--print", "native-static-libs", "-o"])
                .arg(dir.join("libprobe.a"))
                .arg(dir.join("probe.rs")),
        );
        let stderr = String::from_utf8_lossy(&output.stderr);
        let libs = stderr
            .lines()
            .find_map(|l| l.split_once("native-static-libs:").map(|(_, libs)| libs))
            .unwrap_or_else(|| panic!("rustc printed no native-static-libs note:\n{stderr}"));
        std::fs::remove_dir_all(&dir).ok();
        libs.split_whitespace().map(str::to_owned).collect()
    })
}

#[test]
fn readme_makefile_and_install_script_list_rustc_s_native_static_libs() {
    let rustc_says = native_static_libs();
    assert!(rustc_says.iter().any(|l| l == "-lc"), "rustc's list: {rustc_says:?}");

    let readme = read(&manifest_dir().join("README.md"));
    let command = "cc -std=c99 -Iinclude game.c target/release/libcollide.a";
    let line = readme
        .lines()
        .find_map(|l| l.strip_prefix(command))
        .unwrap_or_else(|| panic!("README.md has a line `{command} ...` giving the libraries to link"));
    let readme_libs: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(readme_libs, rustc_says, "README.md's link line");

    assert_eq!(makefile_native_libs(), rustc_says, "examples-c/Makefile's NATIVE_LIBS");

    let script = read(&manifest_dir().join("packaging/install.sh"));
    let default = script
        .lines()
        .find_map(|l| l.strip_prefix("DEFAULT_NATIVE_LIBS=\""))
        .and_then(|l| l.strip_suffix('"'))
        .expect("packaging/install.sh sets DEFAULT_NATIVE_LIBS=\"...\"");
    let script_libs: Vec<&str> = default.split_whitespace().collect();
    assert_eq!(script_libs, rustc_says, "packaging/install.sh's DEFAULT_NATIVE_LIBS");
}

// ---------------------------------------------------------------------------
// Installing, and building through pkg-config and CMake.
// ---------------------------------------------------------------------------

/// `packaging/install.sh` run once into `target/<profile>/shipping/prefix`,
/// from the libraries of this test run.
fn installed_prefix() -> &'static Path {
    static PREFIX: OnceLock<PathBuf> = OnceLock::new();
    PREFIX.get_or_init(|| {
        let prefix = fresh_dir("shipping/prefix");
        let output = stdout_of(
            Command::new("sh")
                .arg(manifest_dir().join("packaging/install.sh"))
                .arg(&prefix)
                .env("COLLIDE_LIBDIR", lib_dir())
                .env_remove("NATIVE_LIBS"),
        );
        assert!(
            output.contains(env!("CARGO_PKG_VERSION")),
            "install.sh says what it installed: {output}"
        );
        prefix
    })
}

/// Every file under `dir`, relative to it, sorted.
fn files_under(dir: &Path) -> Vec<String> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(next) = pending.pop() {
        for entry in std::fs::read_dir(&next).unwrap_or_else(|e| panic!("{}: {e}", next.display())) {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                pending.push(path);
            } else {
                let relative = path.strip_prefix(dir).expect("under dir");
                files.push(relative.to_string_lossy().into_owned());
            }
        }
    }
    files.sort();
    files
}

#[test]
fn install_script_installs_the_libraries_headers_and_package_files() {
    let prefix = installed_prefix();
    assert_eq!(
        files_under(prefix),
        [
            "include/collide.h",
            "include/collide.hpp",
            "lib/cmake/collide/collideConfig.cmake",
            "lib/cmake/collide/collideConfigVersion.cmake",
            "lib/libcollide.a",
            "lib/libcollide.so",
            &format!("lib/{}", soname()),
            &format!("lib/libcollide.so.{}", env!("CARGO_PKG_VERSION")),
            "lib/pkgconfig/collide.pc",
        ]
    );
    // The loader's and the linker's names are links to the versioned file.
    for (link, target) in [
        ("lib/libcollide.so", soname()),
        (
            &format!("lib/{}", soname()),
            format!("libcollide.so.{}", env!("CARGO_PKG_VERSION")),
        ),
    ] {
        let points_to = std::fs::read_link(prefix.join(link)).unwrap_or_else(|e| panic!("{link}: {e}"));
        assert_eq!(points_to, Path::new(&target), "{link}");
    }
    for (installed, source) in [
        ("include/collide.h", manifest_dir().join("include/collide.h")),
        ("include/collide.hpp", manifest_dir().join("bindings/cpp/collide.hpp")),
        ("lib/libcollide.a", lib_dir().join("libcollide.a")),
        (
            &format!("lib/libcollide.so.{}", env!("CARGO_PKG_VERSION")),
            lib_dir().join("libcollide.so"),
        ),
    ] {
        let same = std::fs::read(prefix.join(installed)).ok() == std::fs::read(&source).ok();
        assert!(same, "{installed} is a copy of {}", source.display());
    }

    let pc = read(&prefix.join("lib/pkgconfig/collide.pc"));
    assert!(pc.contains(&format!("prefix={}\n", prefix.display())), "{pc}");
    assert!(
        pc.contains(&format!("Version: {}\n", env!("CARGO_PKG_VERSION"))),
        "{pc}"
    );
    let private = format!("Libs.private: {}\n", native_static_libs().join(" "));
    assert!(pc.contains(&private), "collide.pc has `{private}`:\n{pc}");

    let config = read(&prefix.join("lib/cmake/collide/collideConfig.cmake"));
    let cmake_libs: Vec<&str> = native_static_libs()
        .iter()
        .map(|l| l.strip_prefix("-l").unwrap_or(l))
        .collect();
    let link = format!("INTERFACE_LINK_LIBRARIES \"{}\"", cmake_libs.join(";"));
    assert!(config.contains(&link), "collideConfig.cmake has `{link}`:\n{config}");
    let version = read(&prefix.join("lib/cmake/collide/collideConfigVersion.cmake"));
    let package_version = format!("set(PACKAGE_VERSION \"{}\")", env!("CARGO_PKG_VERSION"));
    assert!(version.contains(&package_version), "{version}");
    assert!(
        !format!("{pc}{config}{version}").contains('@'),
        "every @PLACEHOLDER@ is filled"
    );
}

/// The shared library's SONAME: `libcollide.so.MAJOR`.
fn soname() -> String {
    format!("libcollide.so.{}", env!("CARGO_PKG_VERSION_MAJOR"))
}

/// What `bullets` prints when built by the Makefile: the reference the
/// packaged builds must reproduce.
fn reference_bullets_output() -> &'static str {
    static OUTPUT: OnceLock<String> = OnceLock::new();
    OUTPUT.get_or_init(|| {
        let dir = profile_dir().join("shipping/make");
        let binary = dir.join("bullets");
        make_examples(&dir, &[], [&binary]);
        stdout_of(&mut Command::new(binary))
    })
}

/// The shared libraries an executable needs (its DT_NEEDED entries).
fn needed_libraries(binary: &Path) -> Vec<String> {
    require_tool("readelf", "the ELF reader", "binutils");
    let dynamic = stdout_of(Command::new("readelf").arg("--dynamic").arg(binary));
    dynamic
        .lines()
        .filter(|l| l.contains("(NEEDED)"))
        .filter_map(|l| Some(l.split_once('[')?.1.split_once(']')?.0.to_owned()))
        .collect()
}

/// `pkg-config ARGS... collide` with the installed package on the search path.
fn pkg_config(args: &[&str]) -> Vec<String> {
    require_tool("pkg-config", "pkg-config", "pkg-config");
    let output = stdout_of(
        Command::new("pkg-config")
            .args(args)
            .arg("collide")
            .env("PKG_CONFIG_PATH", installed_prefix().join("lib/pkgconfig")),
    );
    output.split_whitespace().map(str::to_owned).collect()
}

#[test]
#[ignore = "needs cmake and pkg-config (Debian: apt-get install cmake pkg-config): run with `cargo test --test shipping -- --ignored`, as .ci/run does"]
fn pkg_config_builds_bullets_against_the_installed_library() {
    let prefix = installed_prefix();
    let lib = prefix.join("lib");
    assert_eq!(pkg_config(&["--modversion"]), [env!("CARGO_PKG_VERSION")]);
    let flags = pkg_config(&["--cflags", "--libs"]);
    assert_eq!(
        flags,
        [
            format!("-I{}", prefix.join("include").display()),
            format!("-L{}", lib.display()),
            format!("-Wl,-rpath,{}", lib.display()),
            "-lcollide".to_owned(),
        ]
    );
    let mut static_libs = vec![
        format!("-L{}", lib.display()),
        format!("-Wl,-rpath,{}", lib.display()),
        "-lcollide".to_owned(),
    ];
    static_libs.extend(native_static_libs().iter().cloned());
    assert_eq!(pkg_config(&["--static", "--libs"]), static_libs);

    let dir = fresh_dir("shipping/pkg-config");
    let bullets = manifest_dir().join("examples-c/bullets.c");
    let c99 = ["-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-O2"];

    // `cc bullets.c $(pkg-config --cflags --libs collide)`: the linker takes
    // libcollide.so; bullets.c calls sqrtf, so it brings -lm itself.
    let shared = dir.join("bullets-shared");
    run_ok(
        command_of(&cc())
            .args(c99)
            .arg(&bullets)
            .args(&flags)
            .arg("-lm")
            .arg("-o")
            .arg(&shared),
    );
    // It needs the SONAME and finds it by its run path: no environment.
    assert!(needed_libraries(&shared).contains(&soname()));
    let output = stdout_of(Command::new(&shared).env_remove("LD_LIBRARY_PATH"));
    assert_eq!(output, reference_bullets_output(), "bullets on libcollide.so");

    // The static recipe of collide.pc's comment: the archive by its path,
    // then the private libraries.
    let archive = pkg_config(&["--variable=staticlib"]);
    assert_eq!(archive, [lib.join("libcollide.a").display().to_string()]);
    let libs_l: Vec<String> = pkg_config(&["--libs-only-l", "--static"])
        .into_iter()
        .filter(|l| l != "-lcollide")
        .collect();
    let fixed = dir.join("bullets-static");
    run_ok(
        command_of(&cc())
            .args(c99)
            .arg(&bullets)
            .args(pkg_config(&["--cflags"]))
            .args(&archive)
            .args(&libs_l)
            .arg("-o")
            .arg(&fixed),
    );
    assert!(!needed_libraries(&fixed).iter().any(|l| l.starts_with("libcollide")));
    let output = stdout_of(&mut Command::new(&fixed));
    assert_eq!(output, reference_bullets_output(), "bullets on libcollide.a");
}

/// `cmake -S examples-c/cmake -B DIR -DCMAKE_PREFIX_PATH=<prefix> -DCOLLIDE_MIN_VERSION=VERSION`.
fn cmake_configure(dir: &Path, version: &str) -> Command {
    require_tool("cmake", "CMake", "cmake");
    let mut command = Command::new("cmake");
    command
        .arg("-S")
        .arg(manifest_dir().join("examples-c/cmake"))
        .arg("-B")
        .arg(dir)
        .arg(format!("-DCMAKE_PREFIX_PATH={}", installed_prefix().display()))
        .arg(format!("-DCOLLIDE_MIN_VERSION={version}"))
        .env("CC", cc())
        .env("CXX", cxx());
    command
}

#[test]
#[ignore = "needs cmake and pkg-config (Debian: apt-get install cmake pkg-config): run with `cargo test --test shipping -- --ignored`, as .ci/run does"]
fn cmake_find_package_builds_the_examples_against_the_installed_library() {
    let dir = fresh_dir("shipping/cmake");
    let wanted = format!(
        "{}.{}",
        env!("CARGO_PKG_VERSION_MAJOR"),
        env!("CARGO_PKG_VERSION_MINOR")
    );
    let configured = stdout_of(&mut cmake_configure(&dir, &wanted));
    assert!(
        configured.contains(&format!("collide {} from", env!("CARGO_PKG_VERSION"))),
        "{configured}"
    );
    run_ok(Command::new("cmake").arg("--build").arg(&dir).args(["--parallel", "2"]));

    // collide::collide links the archive and the native libraries.
    let bullets = dir.join("bullets");
    assert!(!needed_libraries(&bullets).iter().any(|l| l.starts_with("libcollide")));
    assert_eq!(stdout_of(&mut Command::new(&bullets)), reference_bullets_output());

    // collide::shared links libcollide.so by its SONAME, found by the run
    // path CMake records: no environment.
    let shared = dir.join("bullets_shared");
    assert!(needed_libraries(&shared).contains(&soname()));
    let output = stdout_of(Command::new(&shared).env_remove("LD_LIBRARY_PATH"));
    assert_eq!(output, reference_bullets_output());

    // The C++ wrapper, from the installed collide.hpp.
    let output = stdout_of(&mut Command::new(dir.join("cpp_wrapper")));
    let summary = the_line(&output, "summary");
    assert_eq!(summary.num::<u32>("failed"), 0, "{output}");
    assert_eq!(the_line(&output, "version").str("lib"), env!("CARGO_PKG_VERSION"));

    let output = stdout_of(Command::new(dir.join("threads")).arg("2"));
    let summary = the_line(&output, "summary");
    assert_eq!(summary.num::<u64>("casts"), 4 * 2 * 2000);
    assert_eq!(summary.num::<u64>("mismatches"), 0);
}

#[test]
#[ignore = "needs cmake and pkg-config (Debian: apt-get install cmake pkg-config): run with `cargo test --test shipping -- --ignored`, as .ci/run does"]
fn cmake_find_package_refuses_an_incompatible_version() {
    let major: u32 = env!("CARGO_PKG_VERSION_MAJOR").parse().expect("a number");
    let minor: u32 = env!("CARGO_PKG_VERSION_MINOR").parse().expect("a number");
    // The next release that may break the API, by Cargo's reading of semver.
    let breaking = if major == 0 {
        format!("0.{}", minor + 1)
    } else {
        format!("{}.0", major + 1)
    };
    let dir = fresh_dir("shipping/cmake-incompatible");
    let output = cmake_configure(&dir, &breaking).output().expect("cmake runs");
    let errors = String::from_utf8_lossy(&output.stderr);
    assert!(
        !output.status.success() && errors.contains(&format!("compatible with requested version \"{breaking}\"")),
        "find_package(collide {breaking}) must fail: {}\n{errors}",
        output.status
    );
}
