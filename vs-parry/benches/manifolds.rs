//! The cost of a contact manifold per pair, collide beside parry3d, on the
//! same random touching pairs (fat LTO, one codegen unit: the workspace's
//! bench profile).
//!
//! ```text
//! cargo bench -p collide-vs-parry --bench manifolds -- [--runs N] [--pairs N]
//! ```
//!
//! Four kinds of pair, `--pairs` each (default 20,000), every one touching:
//! a box resting on a box (a face patch, four points), two turned boxes, two
//! hulls of 12 random points, and a capsule lying on a box. Each row prints
//! the median over `--runs` (default 5) of the time per pair of collide's
//! `Shape::contact_manifold` and of parry3d's `contact_manifolds` through its
//! `DefaultQueryDispatcher` (no persistent workspace, prediction 0), the
//! ratio parry / collide, the mean number of points each keeps, and the
//! time of collide's `Shape::contact` alone (the manifold's first step).

use std::hint::black_box;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use collide::math::{Quat, Vec3};
use collide::{Capsule, ConvexHull, Obb, Segment, Shape};
use parry3d::math::{Pose as PPose, Rotation as PRot, Vector as PVec};
use parry3d::query::{ContactManifold as PManifold, DefaultQueryDispatcher, PersistentQueryDispatcher};
use parry3d::shape::{Capsule as PCapsule, ConvexPolyhedron, Cuboid, Shape as PShape};
use rand::{RngExt, SeedableRng};
use rand_xorshift::XorShiftRng;

/// One shape on both sides: collide's in world space, parry's local with
/// its pose.
struct Body {
    collide: Shape,
    parry: Box<dyn PShape>,
    pose: PPose,
}

fn pv(v: Vec3) -> PVec {
    PVec::new(v.x, v.y, v.z)
}

fn pose(at: Vec3, q: Quat) -> PPose {
    PPose::from_parts(pv(at), PRot::from_xyzw(q.x, q.y, q.z, q.w))
}

fn cuboid(at: Vec3, q: Quat, half: Vec3) -> Body {
    Body {
        collide: Shape::Obb(Obb::new(at, q, half)),
        parry: Box::new(Cuboid::new(pv(half))),
        pose: pose(at, q),
    }
}

fn random_rotation(rng: &mut XorShiftRng) -> Quat {
    Quat::from_xyzw(rng.random(), rng.random(), rng.random(), rng.random::<f32>() + 0.1).normalize()
}

fn hull(rng: &mut XorShiftRng, at: Vec3) -> Body {
    loop {
        let local: Vec<Vec3> = (0..12)
            .map(|_| Vec3::new(rng.random(), rng.random(), rng.random()) * 2.0 - Vec3::ONE)
            .collect();
        let world: Vec<Vec3> = local.iter().map(|p| *p + at).collect();
        let points: Vec<PVec> = local.iter().map(|p| pv(*p)).collect();
        if let (Ok(h), Some(poly)) = (
            ConvexHull::from_points(&world),
            ConvexPolyhedron::from_convex_hull(&points),
        ) {
            return Body {
                collide: Shape::Hull(Arc::new(h)),
                parry: Box::new(poly),
                pose: pose(at, Quat::IDENTITY),
            };
        }
    }
}

/// `count` touching pairs of one kind.
fn pairs(kind: &str, count: usize) -> Vec<(Body, Body)> {
    let mut rng = XorShiftRng::seed_from_u64(kind.len() as u64);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let jitter = Vec3::new(rng.random(), 0.0, rng.random()) * 0.5;
        let pair = match kind {
            "resting" => (
                cuboid(Vec3::ZERO, Quat::IDENTITY, Vec3::new(2.0, 0.5, 2.0)),
                cuboid(
                    Vec3::new(0.0, 0.95, 0.0) + jitter,
                    Quat::from_rotation_y(rng.random::<f32>()),
                    Vec3::splat(0.5),
                ),
            ),
            "turned" => (
                cuboid(Vec3::ZERO, random_rotation(&mut rng), Vec3::new(1.0, 0.5, 0.7)),
                cuboid(
                    Vec3::new(0.0, 1.0, 0.0) + jitter,
                    random_rotation(&mut rng),
                    Vec3::new(0.6, 0.5, 0.8),
                ),
            ),
            "hulls" => (
                hull(&mut rng, Vec3::ZERO),
                hull(&mut rng, Vec3::new(0.0, 1.5, 0.0) + jitter),
            ),
            _ => {
                let (a, b) = (Vec3::new(-0.8, 0.9, 0.0) + jitter, Vec3::new(0.8, 0.9, 0.0) + jitter);
                (
                    cuboid(Vec3::ZERO, Quat::IDENTITY, Vec3::new(2.0, 0.5, 2.0)),
                    Body {
                        collide: Shape::Capsule(Capsule::new(Segment::new(a, b), 0.45)),
                        parry: Box::new(PCapsule::new(pv(a - (a + b) / 2.0), pv(b - (a + b) / 2.0), 0.45)),
                        pose: pose((a + b) / 2.0, Quat::IDENTITY),
                    },
                )
            }
        };
        if pair.0.collide.contact(&pair.1.collide).is_some() {
            out.push(pair);
        }
    }
    out
}

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let (mut runs, mut count) = (5usize, 20_000usize);
    while let Some(arg) = args.next() {
        let mut value = || args.next().and_then(|v| v.parse().ok());
        match arg.as_str() {
            "--runs" => runs = value().unwrap_or(runs).max(1),
            "--pairs" => count = value().unwrap_or(count).max(1),
            "--bench" => {}
            other => {
                eprintln!("unknown option {other}");
                return ExitCode::FAILURE;
            }
        }
    }
    println!(
        "{:<8} {:>12} {:>12} {:>9} {:>14} {:>12} {:>16}",
        "pairs", "collide", "parry3d", "parry/co", "collide points", "parry points", "collide contact"
    );
    let dispatcher = DefaultQueryDispatcher;
    for kind in ["resting", "turned", "hulls", "capsule"] {
        let set = pairs(kind, count);
        let (mut ours, mut theirs, mut contacts) = (Vec::new(), Vec::new(), Vec::new());
        let (mut our_points, mut their_points) = (0usize, 0usize);
        let mut manifolds: Vec<PManifold<(), ()>> = Vec::new();
        for _ in 0..runs {
            let start = Instant::now();
            our_points = 0;
            for (a, b) in &set {
                if let Some(m) = black_box(a.collide.contact_manifold(&b.collide)) {
                    our_points += m.points().len();
                }
            }
            ours.push(start.elapsed());
            let start = Instant::now();
            for (a, b) in &set {
                black_box(a.collide.contact(&b.collide));
            }
            contacts.push(start.elapsed());
            let start = Instant::now();
            their_points = 0;
            for (a, b) in &set {
                let pos12 = a.pose.inv_mul(&b.pose);
                manifolds.clear();
                let _ = dispatcher.contact_manifolds(&pos12, &*a.parry, &*b.parry, 0.0, &mut manifolds, &mut None);
                their_points += black_box(&manifolds).iter().map(|m| m.points.len()).sum::<usize>();
            }
            theirs.push(start.elapsed());
        }
        let median = |v: &mut Vec<Duration>| {
            v.sort();
            v[v.len() / 2].as_nanos() as f64 / set.len() as f64
        };
        let (c, p, contact) = (median(&mut ours), median(&mut theirs), median(&mut contacts));
        println!(
            "{kind:<8} {c:>10.0}ns {p:>10.0}ns {:>9.2} {:>14.2} {:>12.2} {contact:>14.0}ns",
            p / c,
            our_points as f64 / set.len() as f64,
            their_points as f64 / set.len() as f64
        );
    }
    ExitCode::SUCCESS
}
