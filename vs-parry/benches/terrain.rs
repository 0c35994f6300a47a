//! Terrain casts: a height field against the same surface as a triangle
//! mesh, in collide and in parry3d, in the same run (fat LTO, one codegen
//! unit: the workspace's bench profile).
//!
//! ```text
//! cargo bench -p collide-vs-parry --bench terrain -- [--runs N] [--size N] [--segments N] [--set SET]...
//! ```
//!
//! The terrain is `size × size` samples one unit apart (default 1024: two
//! million triangles), rolling hills 40 units high with a fine ripple,
//! centred on the origin. Three sets of segments, `--segments` each:
//!
//! - `bullets`: from 2–10 units above the terrain's highest point to a
//!   point up to 200 units away horizontally and 0–60 units lower (about
//!   three in four hit);
//! - `probes`: straight down from above the terrain to below it, the ground
//!   probe of a character or a vehicle's wheel;
//! - `grazing`: level segments 300 units long at a height inside the
//!   terrain's range, crossing hills and valleys.
//!
//! Each row prints the median over `--runs` runs (the four run one after
//! the other, round by round) of the time per segment of collide's
//! `World::segment_cast` over a world holding the one collider (a
//! [`HeightField`], then a [`TriangleMesh`] of its triangles), and of
//! parry3d's `cast_local_ray` on its `HeightField` and `TriMesh` of the same
//! surface; the ratio mesh / height field for each; and the hit counts and
//! `Σt` (collide's two must agree exactly: the same triangles, the same
//! test; parry's must agree with them but for the segments that graze an
//! edge, as its cells split along the other diagonal). Memory: the bytes
//! each shape holds.

use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use collide::math::Vec3;
use collide::shape::{HeightField, TriangleMesh};
use collide::{ColliderDesc, QueryFilter, Segment, Shape, Transform, World};
use parry3d::math::Vector as PVec;
use parry3d::query::{Ray, RayCast};
use parry3d::shape::{HeightField as ParryHeightField, TriMesh};
use parry3d::utils::Array2;
use rand::{RngExt, SeedableRng};
use rand_xorshift::XorShiftRng;

#[path = "support/tally.rs"]
mod tally;
use tally::{median_ns_per, time_pass, Tally};

struct Options {
    runs: usize,
    size: usize,
    segments: usize,
    sets: Vec<String>,
}

fn parse() -> Result<Options, String> {
    let mut options = Options {
        runs: 5,
        size: 1024,
        segments: 100_000,
        sets: Vec::new(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| -> Result<usize, String> {
            let v = args.next().ok_or(format!("{name} needs a value"))?;
            v.parse().map_err(|_| format!("{name}: {v} is not a count"))
        };
        match arg.as_str() {
            "--runs" => options.runs = value("--runs")?.max(1),
            "--size" => options.size = value("--size")?.max(2),
            "--segments" => options.segments = value("--segments")?.max(1),
            "--set" => options.sets.push(args.next().ok_or("--set needs a value")?),
            "--bench" => {}
            other => return Err(format!("unknown option {other}")),
        }
    }
    Ok(options)
}

/// The heights, row-major (row along z): hills and a ripple.
fn heights(size: usize) -> Vec<f32> {
    (0..size * size)
        .map(|i| {
            let (x, z) = ((i % size) as f32, (i / size) as f32);
            20.0 * (x * 0.011).sin() * (z * 0.013).cos()
                + 6.0 * (x * 0.05 + z * 0.03).sin()
                + 0.4 * (x * 0.7).sin() * (z * 0.9).cos()
        })
        .collect()
}

/// The segments of one set, in world coordinates (the terrain centred on
/// the origin, heights in `[lo, hi]`).
fn segments(set: &str, count: usize, half: f32, (lo, hi): (f32, f32)) -> Vec<Segment> {
    let mut rng = XorShiftRng::seed_from_u64(match set {
        "bullets" => 1,
        "probes" => 2,
        _ => 3,
    });
    let mut range = |a: f32, b: f32| a + (b - a) * rng.random::<f32>();
    (0..count)
        .map(|_| {
            let (x, z) = (range(-half, half), range(-half, half));
            match set {
                "bullets" => {
                    let start = Vec3::new(x, hi + range(2.0, 10.0), z);
                    let angle = range(0.0, std::f32::consts::TAU);
                    let reach = range(10.0, 200.0);
                    let end = Vec3::new(
                        x + reach * angle.cos(),
                        start.y - range(0.0, 60.0),
                        z + reach * angle.sin(),
                    );
                    Segment::new(start, end)
                }
                "probes" => Segment::new(Vec3::new(x, hi + 5.0, z), Vec3::new(x, lo - 5.0, z)),
                _ => {
                    let (y, angle) = (range(lo, hi), range(0.0, std::f32::consts::TAU));
                    let start = Vec3::new(x, y, z);
                    Segment::new(start, start + Vec3::new(300.0 * angle.cos(), 0.0, 300.0 * angle.sin()))
                }
            }
        })
        .collect()
}

fn world_of(shape: Shape, half: f32) -> World {
    let mut world = World::new();
    world
        .add(ColliderDesc::new(shape).with_transform(Transform::from_translation(Vec3::new(-half, 0.0, -half))))
        .expect("a valid terrain");
    world
}

fn main() -> ExitCode {
    let options = match parse() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let n = options.size;
    let half = (n - 1) as f32 / 2.0;
    let h = heights(n);
    let (lo, hi) = h.iter().fold((f32::MAX, f32::MIN), |(a, b), &v| (a.min(v), b.max(v)));

    let field = HeightField::new(n, n, h.clone(), Vec3::ONE).expect("a valid field");
    let vertices: Vec<Vec3> = (0..n * n).map(|i| field.sample(i % n, i / n)).collect();
    let at = |c: usize, r: usize| (r * n + c) as u32;
    let mut indices = Vec::with_capacity(2 * (n - 1) * (n - 1));
    for r in 0..n - 1 {
        for c in 0..n - 1 {
            indices.push([at(c, r), at(c, r + 1), at(c + 1, r + 1)]);
            indices.push([at(c, r), at(c + 1, r + 1), at(c + 1, r)]);
        }
    }
    let mesh = TriangleMesh::new(vertices.clone(), indices.clone()).expect("a valid mesh");
    let (field_bytes, mesh_bytes) = (field.memory_bytes(), mesh.memory_bytes());
    let field_world = world_of(Shape::HeightField(field), half);
    let mesh_world = world_of(Shape::Mesh(Arc::new(mesh)), half);

    let size = (n - 1) as f32;
    let parry_field = ParryHeightField::new(Array2::new(n, n, h), PVec::new(size, 1.0, size));
    let parry_vertices: Vec<PVec> = vertices
        .iter()
        .map(|v| PVec::new(v.x - half, v.y, v.z - half))
        .collect();
    let parry_mesh = TriMesh::new(parry_vertices, indices).expect("a valid parry mesh");
    let parry_cast = |shape: &dyn RayCast, s: &Segment| {
        let d = s.end - s.start;
        let ray = Ray::new(PVec::new(s.start.x, s.start.y, s.start.z), PVec::new(d.x, d.y, d.z));
        shape.cast_local_ray(&ray, 1.0, true)
    };

    println!(
        "terrain {n} × {n} samples, {} triangles; memory: height field {:.1} MB, mesh {:.1} MB ({:.1}×)",
        2 * (n - 1) * (n - 1),
        field_bytes as f64 / 1e6,
        mesh_bytes as f64 / 1e6,
        mesh_bytes as f64 / field_bytes as f64
    );
    println!(
        "{:<8} {:>10} {:>10} {:>8} {:>10} {:>10} {:>8}  checksums (hits, Σt)",
        "set", "collide HF", "mesh", "mesh/HF", "parry HF", "trimesh", "tri/HF"
    );
    let filter = QueryFilter::ALL;
    let mut failed = false;
    for set in ["bullets", "probes", "grazing"] {
        if !options.sets.is_empty() && !options.sets.iter().any(|s| s == set) {
            continue;
        }
        let segments = segments(set, options.segments, half, (lo, hi));
        let mut times: [Vec<Duration>; 4] = Default::default();
        let mut tallies = [None; 4];
        for _ in 0..options.runs {
            let runs = [
                time_pass(&segments, |s| {
                    field_world.segment_cast(s, &filter).unwrap().map(|h| h.t)
                }),
                time_pass(&segments, |s| mesh_world.segment_cast(s, &filter).unwrap().map(|h| h.t)),
                time_pass(&segments, |s| parry_cast(&parry_field, s)),
                time_pass(&segments, |s| parry_cast(&parry_mesh, s)),
            ];
            for (k, (t, tally)) in runs.into_iter().enumerate() {
                times[k].push(t);
                tallies[k] = Some(tally);
            }
        }
        let ns = |k: usize| median_ns_per(&times[k], segments.len());
        let t = tallies.map(|t| t.expect("a run"));
        let agree = t[0] == t[1];
        let parry_close = |p: Tally| p.hits.abs_diff(t[0].hits) * 100 <= segments.len();
        failed |= !agree || !parry_close(t[2]) || !parry_close(t[3]);
        println!(
            "{set:<8} {:>8.0}ns {:>8.0}ns {:>7.1}× {:>8.0}ns {:>8.0}ns {:>7.1}×  collide {} {:.3}{} · parry {} {:.3} / {} {:.3}",
            ns(0),
            ns(1),
            ns(1) / ns(0),
            ns(2),
            ns(3),
            ns(3) / ns(2),
            t[0].hits,
            t[0].sum_t,
            if agree { "" } else { " MISMATCH with the mesh" },
            t[2].hits,
            t[2].sum_t,
            t[3].hits,
            t[3].sum_t
        );
    }
    if failed {
        eprintln!("checksum mismatch");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
