//! The benchmark scenes of `shared/bench/WORKLOADS.md`: a faithful port of
//! `shared/bench/gen_scenes.py`, and a loader for the files it writes.
//!
//! The port produces the script's bytes exactly (`tests/scenes_match_python.rs`
//! holds it to that, against the SHA-256 of the script's `--small` output
//! committed in `tests/data/scenes-small.sha256`). Like the script it computes every number in `f64`, with
//! the same operations in the same order, and rounds to `f32` only at the end
//! (Python's `array("f")` and `struct.pack("<f")` round to nearest, as `as f32`
//! does). `math.cos`, `math.sin`, `math.sqrt` and `**` call the C library's
//! `cos`, `sin`, `sqrt` and `pow`, as `f64::cos`, `f64::sin`, `f64::sqrt` and
//! `f64::powf` do; `math.dist` is ported below ([`python_dist`]).
//!
//! Shared by `benches/workloads.rs` and `tests/scenes_match_python.rs`
//! (`#[path]`), each of which uses a part of it; Cargo also builds this file
//! as an empty bench target of its own, so nothing here is used from every
//! crate it is compiled into.
#![allow(dead_code)]

use std::fs;
use std::io;
use std::path::Path;

/// The scenes, in the order (and so with the seeds) of `gen_scenes.py`.
pub const SCENE_NAMES: [&str; 5] = ["uniform-1k", "uniform-10k", "uniform-100k", "level-10k", "column-10k"];

/// A record of the box and segment files: min x y z, max x y z for a box;
/// start x y z, end x y z for a segment.
pub type Record = [f32; 6];

/// One move of a frame: translate box `index` by the delta.
pub type Move = (u32, [f32; 3]);

/// A scene and its workload data, as `gen_scenes.py` writes it.
#[derive(Debug, Clone, PartialEq)]
pub struct Scene {
    /// The scene's name, one of [`SCENE_NAMES`].
    pub name: String,
    /// The boxes; collider id = index.
    pub boxes: Vec<Record>,
    /// Bullet segments (length 30).
    pub bullets: Vec<Record>,
    /// Hitscan segments (as long as the bounds' diagonal).
    pub hitscan: Vec<Record>,
    /// The moves, frame by frame, to apply in order.
    pub frames: Vec<Vec<Move>>,
}

/// The boxes as collider descriptions for a [`collide::World`]: a box each
/// at the identity transform, its user data its index (the collider id).
pub fn collider_descs(boxes: &[Record]) -> impl Iterator<Item = collide::ColliderDesc> + '_ {
    use collide::{math::Vec3, Aabb, ColliderDesc, Shape};
    boxes.iter().enumerate().map(|(i, b)| {
        let aabb = Aabb::new(Vec3::new(b[0], b[1], b[2]), Vec3::new(b[3], b[4], b[5]));
        ColliderDesc::new(Shape::Aabb(aabb)).with_user_data(i as u64)
    })
}

/// The SplitMix64 generator of `gen_scenes.py` (Steele, Lea, Flood 2014).
#[derive(Debug, Clone)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator starting from `seed`.
    pub fn new(seed: u64) -> Self {
        Self { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[lo, hi)`: `lo + (hi − lo)·u` with `u` of 53 random bits.
    pub fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * ((self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64))
    }

    /// Uniform in `0..n` (by `%`, slightly biased, as the script).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// Uniform on the unit sphere (Archimedes: `z` uniform, angle uniform).
    pub fn unit_vector(&mut self) -> [f64; 3] {
        let z = self.uniform(-1.0, 1.0);
        let a = self.uniform(0.0, 2.0 * std::f64::consts::PI);
        let r = f64::max(0.0, 1.0 - z * z).sqrt();
        [r * a.cos(), r * a.sin(), z]
    }
}

/// A box and a segment as the script computes them, before rounding to `f32`.
type Record64 = [f64; 6];

/// The box `c ± h`.
fn centered_box(c: [f64; 3], h: [f64; 3]) -> Record64 {
    [
        c[0] - h[0],
        c[1] - h[1],
        c[2] - h[2],
        c[0] + h[0],
        c[1] + h[1],
        c[2] + h[2],
    ]
}

/// Three draws of `uniform(lo, hi)`, in order.
fn uniform3(rng: &mut SplitMix64, lo: f64, hi: f64) -> [f64; 3] {
    [rng.uniform(lo, hi), rng.uniform(lo, hi), rng.uniform(lo, hi)]
}

/// `n` boxes with half-extents in `[0.5, 3)` in a cube of side `8·∛n`.
fn uniform_scene(n: usize, seed: u64) -> Vec<Record64> {
    let mut rng = SplitMix64::new(seed);
    // Python's `n ** (1.0 / 3.0)` is C's `pow`, as `powf` (`cbrt` may differ by an ulp).
    let side = 8.0 * (n as f64).powf(1.0 / 3.0);
    (0..n)
        .map(|_| {
            let c = uniform3(&mut rng, 0.0, side);
            let h = uniform3(&mut rng, 0.5, 3.0);
            centered_box(c, h)
        })
        .collect()
}

/// `n` boxes whose x-intervals all overlap (centres x in `[0, 10)`), spread
/// over 2000 × 2000 in y and z.
fn column_scene(n: usize, seed: u64) -> Vec<Record64> {
    let mut rng = SplitMix64::new(seed);
    (0..n)
        .map(|_| {
            let cx = rng.uniform(0.0, 10.0);
            let cy = rng.uniform(0.0, 2000.0);
            let cz = rng.uniform(0.0, 2000.0);
            let h = uniform3(&mut rng, 0.5, 3.0);
            centered_box([cx, cy, cz], h)
        })
        .collect()
}

/// A game level: a ground slab, long walls, a jittered grid of buildings and
/// small props resting on (or sunk into) the ground.
fn level_scene(seed: u64, walls: usize, buildings: usize, props: usize) -> Vec<Record64> {
    let mut rng = SplitMix64::new(seed);
    let mut out = vec![[0.0, -1.0, 0.0, 1000.0, 0.0, 1000.0]];
    for _ in 0..walls {
        let length = rng.uniform(20.0, 200.0);
        let height = rng.uniform(5.0, 30.0);
        let x = rng.uniform(0.0, 1000.0);
        let z = rng.uniform(0.0, 1000.0);
        let half = if rng.below(2) == 0 {
            [length / 2.0, height / 2.0, 0.5]
        } else {
            [0.5, height / 2.0, length / 2.0]
        };
        out.push(centered_box([x, height / 2.0, z], half));
    }
    let grid = (buildings as f64).sqrt().ceil() as usize;
    let cell = 1000.0 / grid as f64;
    for i in 0..buildings {
        let (gx, gz) = ((i % grid) as f64, (i / grid) as f64);
        let fx = rng.uniform(10.0, 40.0);
        let fz = rng.uniform(10.0, 40.0);
        let height = rng.uniform(10.0, 120.0);
        let x = (gx + 0.5) * cell + rng.uniform(-0.2, 0.2) * cell;
        let z = (gz + 0.5) * cell + rng.uniform(-0.2, 0.2) * cell;
        out.push(centered_box([x, height / 2.0, z], [fx / 2.0, height / 2.0, fz / 2.0]));
    }
    for _ in 0..props {
        let h = uniform3(&mut rng, 0.3, 2.0);
        let x = rng.uniform(0.0, 1000.0);
        let z = rng.uniform(0.0, 1000.0);
        let y = rng.uniform(0.0, 2.0 * h[1]);
        out.push(centered_box([x, y, z], h));
    }
    out
}

/// The smallest box holding every box: `(lo, hi)`.
fn bounds(boxes: &[Record64]) -> ([f64; 3], [f64; 3]) {
    let mut lo = [f64::INFINITY; 3];
    let mut hi = [f64::NEG_INFINITY; 3];
    for b in boxes {
        for axis in 0..3 {
            lo[axis] = lo[axis].min(b[axis]);
            hi[axis] = hi[axis].max(b[axis + 3]);
        }
    }
    (lo, hi)
}

/// The exact product `a·b = hi + lo` (CPython's `dl_mul`).
fn two_product(a: f64, b: f64) -> (f64, f64) {
    let hi = a * b;
    (hi, a.mul_add(b, -hi))
}

/// The exact sum `a + b = hi + lo` for `|a| >= |b|` (CPython's `dl_fast_sum`).
fn fast_two_sum(a: f64, b: f64) -> (f64, f64) {
    let hi = a + b;
    (hi, (a - hi) + b)
}

/// Python's `math.dist(p, q)` (CPython's `vector_norm`: power-of-two
/// scaling, exact squares, compensated sum, a corrected square root), which
/// is almost always correctly rounded where the naive `sqrt(Σ d²)` is often
/// an ulp off.
fn python_dist(p: [f64; 3], q: [f64; 3]) -> f64 {
    let diffs = [(p[0] - q[0]).abs(), (p[1] - q[1]).abs(), (p[2] - q[2]).abs()];
    let max = diffs.iter().fold(0.0f64, |m, &x| if x > m { x } else { m });
    if max == 0.0 || !max.is_finite() {
        return max;
    }
    // `frexp(max)`'s exponent e, with 0.5 <= max·2^−e < 1 (max is normal here).
    let exponent = ((max.to_bits() >> 52) & 0x7FF) as i32 - 1022;
    let scale = 2.0f64.powi(-exponent);
    let (mut csum, mut frac1, mut frac2) = (1.0f64, 0.0f64, 0.0f64);
    for x in diffs {
        let x = x * scale;
        let (square, square_error) = two_product(x, x);
        let (sum, sum_error) = fast_two_sum(csum, square);
        csum = sum;
        frac1 += square_error;
        frac2 += sum_error;
    }
    let mut h = (csum - 1.0 + (frac1 + frac2)).sqrt();
    let (square, square_error) = two_product(-h, h);
    let (sum, sum_error) = fast_two_sum(csum, square);
    csum = sum;
    frac1 += square_error;
    frac2 += sum_error;
    let x = csum - 1.0 + (frac1 + frac2);
    h += x / (2.0 * h);
    h / scale
}

/// `count` segments starting uniformly in the scene's bounds, in directions
/// uniform on the sphere, of `length` (`None`: the bounds' diagonal).
fn segments(boxes: &[Record64], count: usize, length: Option<f64>, seed: u64) -> Vec<Record> {
    let mut rng = SplitMix64::new(seed);
    let (lo, hi) = bounds(boxes);
    let length = length.unwrap_or_else(|| python_dist(lo, hi));
    (0..count)
        .map(|_| {
            let s = [
                rng.uniform(lo[0], hi[0]),
                rng.uniform(lo[1], hi[1]),
                rng.uniform(lo[2], hi[2]),
            ];
            let d = rng.unit_vector();
            to_f32([
                s[0],
                s[1],
                s[2],
                s[0] + d[0] * length,
                s[1] + d[1] * length,
                s[2] + d[2] * length,
            ])
        })
        .collect()
}

/// `frames` frames of `max(1, n / 10)` moves each: a random box, translated
/// by a random vector at most 1 long.
fn moves(n: usize, frames: usize, seed: u64) -> Vec<Vec<Move>> {
    let mut rng = SplitMix64::new(seed);
    let per_frame = (n / 10).max(1);
    (0..frames)
        .map(|_| {
            (0..per_frame)
                .map(|_| {
                    let index = rng.below(n as u64) as u32;
                    let d = rng.unit_vector();
                    let r = rng.uniform(0.0, 1.0);
                    (index, [(d[0] * r) as f32, (d[1] * r) as f32, (d[2] * r) as f32])
                })
                .collect()
        })
        .collect()
}

/// A record rounded to `f32`.
fn to_f32(r: Record64) -> Record {
    r.map(|v| v as f32)
}

/// Generates the scene `name` (one of [`SCENE_NAMES`]) in memory, at full
/// size or, with `small`, the reduced size of `gen_scenes.py --small`.
/// `None` for an unknown name.
pub fn generate(name: &str, small: bool) -> Option<Scene> {
    let position = SCENE_NAMES.iter().position(|&n| n == name)?;
    let k = if small { 10 } else { 1 };
    let boxes = match name {
        "uniform-1k" => uniform_scene(1000, 1),
        "uniform-10k" => uniform_scene(10_000 / k, 2),
        "uniform-100k" => uniform_scene(100_000 / k, 3),
        "level-10k" => level_scene(4, 400 / k, 1600 / k, 8000 / k),
        "column-10k" => column_scene(10_000 / k, 5),
        _ => unreachable!("every name of SCENE_NAMES has a generator"),
    };
    // The script numbers the scenes from 100 and derives one seed per stream.
    let seed = 100 + position as u64;
    Some(Scene {
        name: name.to_owned(),
        bullets: segments(&boxes, 100_000 / k, Some(30.0), seed * 10 + 1),
        hitscan: segments(&boxes, 100_000 / k, None, seed * 10 + 2),
        frames: moves(boxes.len(), 100 / k, seed * 10 + 3),
        boxes: boxes.into_iter().map(to_f32).collect(),
    })
}

/// The bytes of a box or segment file: the records' `f32`s, little-endian.
fn records_to_bytes(records: &[Record]) -> Vec<u8> {
    records.iter().flatten().flat_map(|v| v.to_le_bytes()).collect()
}

/// The bytes of a moves file: per move `u32` index, `f32` dx, dy, dz, little-endian.
fn moves_to_bytes(frames: &[Vec<Move>]) -> Vec<u8> {
    let mut bytes = Vec::new();
    for &(index, d) in frames.iter().flatten() {
        bytes.extend(index.to_le_bytes());
        for v in d {
            bytes.extend(v.to_le_bytes());
        }
    }
    bytes
}

/// Writes every scene's files into `dir` (created if missing), as
/// `gen_scenes.py DIR [--small]` does, byte for byte.
pub fn write_scenes(dir: &Path, small: bool) -> io::Result<()> {
    fs::create_dir_all(dir)?;
    for name in SCENE_NAMES {
        let scene = generate(name, small).expect("a known scene name");
        fs::write(dir.join(format!("boxes-{name}.f32")), records_to_bytes(&scene.boxes))?;
        fs::write(
            dir.join(format!("segs-bullets-{name}.f32")),
            records_to_bytes(&scene.bullets),
        )?;
        fs::write(
            dir.join(format!("segs-hitscan-{name}.f32")),
            records_to_bytes(&scene.hitscan),
        )?;
        fs::write(dir.join(format!("moves-{name}.bin")), moves_to_bytes(&scene.frames))?;
    }
    Ok(())
}

/// Reads a file of fixed-size records of four-byte little-endian words,
/// each record `N` words decoded by `decode`; an error if the file's size is
/// not a whole number of records.
fn read_records<const N: usize, T>(path: &Path, decode: impl Fn([[u8; 4]; N]) -> T) -> io::Result<Vec<T>> {
    let bytes = fs::read(path)?;
    let record_size = 4 * N;
    if bytes.len() % record_size != 0 {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "{}: {} bytes is not a whole number of {record_size}-byte records",
                path.display(),
                bytes.len()
            ),
        ));
    }
    Ok(bytes
        .chunks_exact(record_size)
        .map(|record| decode(std::array::from_fn(|i| record[4 * i..4 * i + 4].try_into().unwrap())))
        .collect())
}

/// Reads a box or segment file.
fn read_f32_records(path: &Path) -> io::Result<Vec<Record>> {
    read_records(path, |words: [[u8; 4]; 6]| words.map(f32::from_le_bytes))
}

/// Loads the scene `name` from the files `gen_scenes.py` wrote into `dir`.
/// The moves file is split into frames of `max(1, N / 10)` moves, N the
/// number of boxes.
pub fn load_scene(dir: &Path, name: &str) -> io::Result<Scene> {
    let boxes = read_f32_records(&dir.join(format!("boxes-{name}.f32")))?;
    let bullets = read_f32_records(&dir.join(format!("segs-bullets-{name}.f32")))?;
    let hitscan = read_f32_records(&dir.join(format!("segs-hitscan-{name}.f32")))?;
    let moves_path = dir.join(format!("moves-{name}.bin"));
    let all_moves = read_records(&moves_path, |[index, dx, dy, dz]: [[u8; 4]; 4]| {
        (u32::from_le_bytes(index), [dx, dy, dz].map(f32::from_le_bytes))
    })?;
    let per_frame = (boxes.len() / 10).max(1);
    if all_moves.len() % per_frame != 0 {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "{}: {} moves is not a whole number of frames of {per_frame}",
                moves_path.display(),
                all_moves.len()
            ),
        ));
    }
    Ok(Scene {
        name: name.to_owned(),
        boxes,
        bullets,
        hitscan,
        frames: all_moves.chunks_exact(per_frame).map(<[Move]>::to_vec).collect(),
    })
}
