//! The Rust port of the benchmark scene generator (`benches/scenes.rs`)
//! writes the same bytes as the workloads' Python generator
//! (`bench/gen_scenes.py` of the shared benchmark directory), and its loader
//! reads those files back into the scenes it generates in memory.
//!
//! The test needs nothing outside this repository: `tests/data/scenes-small.sha256`
//! holds the SHA-256 of every file `gen_scenes.py OUT --small` writes, in
//! `sha256sum` format (so `sha256sum -c` checks a fresh run of the script
//! against it), and the test compares the port's files with those digests.

#[path = "../benches/scenes.rs"]
mod scenes;

use std::fs;
use std::path::{Path, PathBuf};

/// `sha256sum` of the files `gen_scenes.py OUT --small` writes.
const PYTHON_SMALL_SHA256: &str = include_str!("data/scenes-small.sha256");

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

/// The (file name, hex digest) lines of a `sha256sum` listing, sorted by name.
fn parse_sha256sum(listing: &str) -> Vec<(String, String)> {
    let mut entries: Vec<(String, String)> = listing
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            let (digest, name) = line
                .split_once("  ")
                .unwrap_or_else(|| panic!("not a sha256sum line: {line:?}"));
            assert_eq!(digest.len(), 64, "not a SHA-256 digest: {line:?}");
            (name.to_owned(), digest.to_owned())
        })
        .collect();
    entries.sort();
    entries
}

/// SHA-256 (FIPS 180-4) of `data`, as 64 lowercase hex digits.
fn sha256_hex(data: &[u8]) -> String {
    const K: [u32; 64] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
        0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
        0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
        0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
        0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
        0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
        0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
        0xc67178f2,
    ];
    let mut h: [u32; 8] = [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
    ];
    // The message, a 1 bit, zeros up to 56 mod 64 bytes, and its length in bits (big-endian).
    let mut message = data.to_vec();
    message.push(0x80);
    while message.len() % 64 != 56 {
        message.push(0);
    }
    message.extend_from_slice(&((data.len() as u64) * 8).to_be_bytes());
    for block in message.chunks_exact(64) {
        let mut w = [0u32; 64];
        for (i, word) in block.chunks_exact(4).enumerate() {
            w[i] = u32::from_be_bytes(word.try_into().unwrap());
        }
        for i in 16..64 {
            let s0 = w[i - 15].rotate_right(7) ^ w[i - 15].rotate_right(18) ^ (w[i - 15] >> 3);
            let s1 = w[i - 2].rotate_right(17) ^ w[i - 2].rotate_right(19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16].wrapping_add(s0).wrapping_add(w[i - 7]).wrapping_add(s1);
        }
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut hh] = h;
        for i in 0..64 {
            let s1 = e.rotate_right(6) ^ e.rotate_right(11) ^ e.rotate_right(25);
            let ch = (e & f) ^ (!e & g);
            let t1 = hh
                .wrapping_add(s1)
                .wrapping_add(ch)
                .wrapping_add(K[i])
                .wrapping_add(w[i]);
            let s0 = a.rotate_right(2) ^ a.rotate_right(13) ^ a.rotate_right(22);
            let maj = (a & b) ^ (a & c) ^ (b & c);
            let t2 = s0.wrapping_add(maj);
            hh = g;
            g = f;
            f = e;
            e = d.wrapping_add(t1);
            d = c;
            c = b;
            b = a;
            a = t1.wrapping_add(t2);
        }
        for (state, value) in h.iter_mut().zip([a, b, c, d, e, f, g, hh]) {
            *state = state.wrapping_add(value);
        }
    }
    h.iter().map(|word| format!("{word:08x}")).collect()
}

#[test]
fn sha256_matches_the_fips_180_examples() {
    assert_eq!(
        sha256_hex(b""),
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    );
    assert_eq!(
        sha256_hex(b"abc"),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
    assert_eq!(
        sha256_hex(b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
    );
}

#[test]
fn rust_port_writes_the_bytes_of_gen_scenes_py() {
    let expected = parse_sha256sum(PYTHON_SMALL_SHA256);
    assert_eq!(
        expected.len(),
        4 * scenes::SCENE_NAMES.len(),
        "the committed listing names {expected:?}"
    );

    let rust_dir = scratch_dir("rust");
    scenes::write_scenes(&rust_dir, true).unwrap();
    let names: Vec<String> = expected.iter().map(|(name, _)| name.clone()).collect();
    assert_eq!(
        file_names(&rust_dir),
        names,
        "the port writes other files than the script"
    );
    for (name, digest) in &expected {
        let actual = sha256_hex(&fs::read(rust_dir.join(name)).unwrap());
        assert_eq!(&actual, digest, "{name}: the port's bytes differ from the script's");
    }

    // The port's files are the script's (same digests), so loading them is
    // loading the script's output.
    for name in scenes::SCENE_NAMES {
        let loaded = scenes::load_scene(&rust_dir, name).unwrap();
        assert!(
            loaded == scenes::generate(name, true).unwrap(),
            "{name}: loaded ≠ generated"
        );
    }
    fs::remove_dir_all(&rust_dir).unwrap();
}
