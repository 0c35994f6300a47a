//! The Rust port of the benchmark scene generator (`benches/scenes.rs`)
//! writes the same bytes as `shared/bench/gen_scenes.py`, and its loader
//! reads the script's files back into the scenes it generates in memory.
//!
//! Runs the script with `--small` (about a second); needs `python3`.

#[path = "../benches/scenes.rs"]
mod scenes;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A fresh, empty directory under Cargo's scratch space for integration tests.
fn scratch_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("scenes-{}-{name}", std::process::id()));
    if dir.exists() {
        fs::remove_dir_all(&dir).unwrap();
    }
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// The file names in `dir`, sorted.
fn file_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

/// Runs `gen_scenes.py OUT_DIR --small`.
fn run_python_generator(out: &Path) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/bench/gen_scenes.py");
    assert!(
        script.is_file(),
        "the scene generator {} is missing (it lives in the shared benchmark directory beside the crate)",
        script.display()
    );
    let output = Command::new("python3")
        .arg(&script)
        .arg(out)
        .arg("--small")
        .output()
        .unwrap_or_else(|e| panic!("cannot run python3 (needed to run {}): {e}", script.display()));
    assert!(
        output.status.success(),
        "{} failed ({}):\n{}",
        script.display(),
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn rust_port_writes_the_bytes_of_gen_scenes_py() {
    let python_dir = scratch_dir("python");
    let rust_dir = scratch_dir("rust");
    run_python_generator(&python_dir);
    scenes::write_scenes(&rust_dir, true).unwrap();

    let names = file_names(&python_dir);
    assert_eq!(
        names.len(),
        4 * scenes::SCENE_NAMES.len(),
        "gen_scenes.py wrote {names:?}"
    );
    assert_eq!(
        file_names(&rust_dir),
        names,
        "the port writes other files than the script"
    );
    for name in &names {
        let expected = fs::read(python_dir.join(name)).unwrap();
        let actual = fs::read(rust_dir.join(name)).unwrap();
        let first_difference = expected.iter().zip(&actual).position(|(a, b)| a != b);
        assert!(
            expected == actual,
            "{name}: {} bytes from Python, {} from Rust; first differing byte at {first_difference:?}",
            expected.len(),
            actual.len(),
        );
    }

    for name in scenes::SCENE_NAMES {
        let loaded = scenes::load_scene(&python_dir, name).unwrap();
        assert!(
            loaded == scenes::generate(name, true).unwrap(),
            "{name}: loaded ≠ generated"
        );
    }
    fs::remove_dir_all(&python_dir).unwrap();
    fs::remove_dir_all(&rust_dir).unwrap();
}
