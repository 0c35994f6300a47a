//! The crate's modules form layers, and every `crate::` path in `src/`
//! names a module of the file's own layer or of one below it:
//!
//! ```text
//! math, error, prefetch, threads, visit ← bvh ← shape ← query ← collider ← broad ← world, character, debug_draw ← ffi
//! ```
//!
//! `bvh` is a tree over any payload (the world's colliders, a mesh's
//! triangles), so it sits below the shapes; `collider` holds what the
//! world stores per collider, which the broad phase reads.

use std::fs;
use std::path::{Path, PathBuf};

/// The layer of a top-level module of `src/`.
fn layer(module: &str) -> Option<usize> {
    Some(match module {
        "math" | "error" | "prefetch" | "threads" | "visit" => 0,
        "bvh" => 1,
        "shape" => 2,
        "query" => 3,
        "collider" => 4,
        "broad" => 5,
        "world" | "character" | "debug_draw" => 6,
        "ffi" => 7,
        _ => return None,
    })
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("src/ is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level modules a line's code (comments stripped) names through
/// `crate::` paths; `crate::{a, b::c}` names `a` and `b`. A name starting
/// with an upper-case letter (a root re-export such as `crate::World`) is
/// returned as it is, and refused by the caller: code names the module.
fn modules_named(line: &str) -> Vec<String> {
    let code = line.split("//").next().unwrap_or("");
    let mut names = Vec::new();
    for (i, _) in code.match_indices("crate::") {
        let rest = &code[i + "crate::".len()..];
        let list = match rest.strip_prefix('{') {
            Some(inner) => inner.split('}').next().unwrap_or("").split(',').collect(),
            None => vec![rest],
        };
        for item in list {
            let name: String = item
                .trim()
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                names.push(name);
            }
        }
    }
    names
}

#[test]
fn no_module_imports_from_a_layer_above_its_own() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut violations = Vec::new();
    let mut checked = 0;
    for file in &files {
        let relative = file.strip_prefix(&src).expect("under src/");
        let top = relative.iter().next().expect("a path component").to_string_lossy();
        let module = top.trim_end_matches(".rs");
        if module == "lib" {
            continue;
        }
        let own = layer(module).unwrap_or_else(|| panic!("src/{module} has no layer: add it to `layer`"));
        let text = fs::read_to_string(file).expect("a readable source file");
        for (number, line) in text.lines().enumerate() {
            for name in modules_named(line) {
                checked += 1;
                match layer(&name) {
                    Some(other) if other <= own => {}
                    Some(_) => violations.push(format!("{}:{}: {module} uses {name}", relative.display(), number + 1)),
                    None => violations.push(format!(
                        "{}:{}: `crate::{name}` names no module of a layer",
                        relative.display(),
                        number + 1
                    )),
                }
            }
        }
    }
    assert!(checked > 100, "only {checked} crate paths found: the scan is broken");
    assert!(
        violations.is_empty(),
        "imports against the layers:\n{}",
        violations.join("\n")
    );
}

/// The scan itself: the forms of `crate::` paths it must see.
#[test]
fn the_scan_reads_every_form_of_crate_path() {
    assert_eq!(modules_named("use crate::math::Vec3;"), ["math"]);
    assert_eq!(modules_named("use crate::{shape::Shape, error};"), ["shape", "error"]);
    assert_eq!(modules_named("let x = crate::World::new(); // crate::ffi"), ["World"]);
    assert!(modules_named("/// [`World`](crate::World)").is_empty());
}
