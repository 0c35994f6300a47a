//! Differential tests of the narrow phase against parry3d 0.31 on seeded
//! random pairs of convex shapes: balls, boxes (oriented and axis-aligned),
//! capsules, cylinders, cones, triangles and convex hulls, in every
//! combination.
//!
//! Five questions, each its own test: the intersection verdict, the
//! distance, the contact (penetration depth and normal), the linear shape
//! cast, and the time of impact of two shapes that translate and rotate.
//! Each runs `COLLIDE_PARRY_CASES` pairs (default 20,000: a few seconds per
//! test in a debug build, about 12 s for the rotating one); set it to
//! 100,000 or more for a long run. Each test prints its tally
//! (`cargo test --test narrow_parry -- --nocapture`).
//!
//! collide is driven through [`Shape`] with world-space shapes (so the
//! closed forms and SAT serve the pairs that have them), parry through its
//! local shapes and poses (the rotating test drives collide with local
//! shapes and [`RigidMotion`]s too). parry uses glam 0.33 through `glamx`
//! and collide glam 0.30, so values cross through their `f32` components.
//!
//! Tolerances are relative to the pair's size `s` (the sum of the two
//! bounding radii): verdicts may differ only within `1e-4·s` of touching;
//! distances and depths must agree to `1e-4·s`; times of impact to the time
//! the pair needs to close `1e-4·s`. Every disagreement beyond that is
//! judged, never waived: a distance by the bounds of the true distance
//! (collide's closest points give an upper bound, the support gap along its
//! normal a lower bound); a verdict, a depth or a normal by certificates
//! (a common point that parry's own point queries put inside both shapes,
//! or a plane with the shapes' supports on either side); a time of impact
//! by the separation of the pair at that time and before. collide must be
//! the side judged right, and the tests fail otherwise.
//!
//! Results of the 100,000-pair run (seeds 1 to 5):
//!
//! | question  | agree   | near touching | both right, different answers | parry judged wrong |
//! |-----------|---------|---------------|-------------------------------|--------------------|
//! | intersect | 99.997% | 0             | —                             | 3                  |
//! | distance  | 97.207% | 0             | —                             | 2,793              |
//! | contact   | 99.616% | 10            | 18 normals (see 3)            | 356 (see 2)        |
//! | cast      | 98.094% | 4             | 1,184 (see 4)                 | 718                |
//! | rotating  | 99.618% | 128           | 6 (+ 33 capped, see 5)        | 215                |
//!
//! Classes of disagreement, and which side is right:
//!
//! 1. **parry's distances are too large** (2.8% of pairs, up to `9e-3·s`;
//!    mostly a triangle, capsule, cone or cylinder against a rounded or
//!    curved shape): parry's own point queries put collide's closest points
//!    on the two shapes (to `1e-7`), so the true distance is at most
//!    collide's; parry stops its GJK early. collide is right. Its
//!    intersection verdicts differ in the same places, 3 times in 100,000,
//!    always parry saying "overlap" where collide has a separating plane.
//! 2. **Curved EPA** (cylinders and cones): both sides run EPA on a curved
//!    Minkowski difference and stop on a tolerance, so both depths are lower
//!    bounds of the truth; collide's was the deeper in every differing case
//!    (255 of 100,000, up to `2.4e-2·s`) and certified right (moving `b` by
//!    the midpoint along parry's normal leaves them overlapping). Another
//!    101 pairs (capsules against flat shapes, no curve) differ the same
//!    way, again with collide certified right.
//! 3. **Non-unique minimum translation** (crossing capsule axes, coplanar
//!    faces): the depths agree and the normals differ; collide's moves `b`
//!    out at its depth and not before (certified). Both are right.
//! 4. **Flat approach in a linear cast**: both times are touches (the pair's
//!    separation at each is within `1e-4·s`), as when a face slides onto a
//!    face at a shallow angle. Both are right. Where parry's time is not a
//!    touch (0.7% of pairs) it stopped early (separation up to `2e-4·s`, its
//!    tolerance) or late (already overlapping, as for spheres against
//!    capsules, its most frequent class); collide's separation is within
//!    `1e-5·s` of 0.
//! 5. **Rotating time of impact**: collide's conservative advancement stops
//!    within its slop of contact and never after it; parry's root finder
//!    stops on a looser tolerance (separations up to `5e-4·s`), or finds no
//!    contact where the pair grazes within collide's slop (the 128 near
//!    touching). collide hit its iteration cap (256) in 33 pairs, near misses
//!    that graze past each other while turning; it then reports
//!    [`ToiStatus::IterationLimit`] with a time at which the pair is checked
//!    apart, as documented.
//!
//! No class shows collide wrong; the tests fail if one does.

use std::sync::Arc;

use collide::math::Vec3;
use collide::query::{distance, shape_cast, time_of_impact, Contact, RigidMotion, ToiOptions, ToiStatus};
use collide::shape::{Cone, ConvexHull, Cylinder, Pose, Shape, Support, Transformed, Triangle};
use collide::{Aabb, Capsule, Obb, Segment, Sphere};
use parry3d::math::{Pose as PPose, Rotation as PRot, Vector as PVec};
use parry3d::query::{self as pq, NonlinearRigidMotion, ShapeCastOptions};
use parry3d::shape::{
    Ball, Capsule as PCapsule, Cone as PCone, ConvexPolyhedron, Cuboid, Cylinder as PCylinder, Shape as PShape,
    Triangle as PTriangle,
};

#[path = "../../tests/common/random.rs"]
mod random;
use random::{seeded, Draw, TestRng};

/// Relative tolerance of every comparison (times the pair's size).
const TOLERANCE: f32 = 1e-4;

fn cases() -> usize {
    std::env::var("COLLIDE_PARRY_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20_000)
}

fn pv(v: Vec3) -> PVec {
    PVec::new(v.x, v.y, v.z)
}

fn cv(v: PVec) -> Vec3 {
    Vec3::new(v.x, v.y, v.z)
}

fn ppose(p: &Pose) -> PPose {
    let q = p.rotation;
    PPose::from_parts(pv(p.translation), PRot::from_xyzw(q.x, q.y, q.z, q.w))
}

/// One shape on both sides.
struct Body {
    /// collide, world space.
    world: Shape,
    /// collide, in the shape's own frame (placed by `pose`).
    local: Shape,
    /// parry, in the shape's own frame.
    parry: Box<dyn PShape>,
    pose: Pose,
}

impl Body {
    fn size(&self) -> f32 {
        self.world.bounding_radius()
    }
}

/// A random shape of a random kind around `center`.
fn random_body(rng: &mut TestRng, center: Vec3) -> Body {
    let rotation = rng.rotation();
    let pose = Pose::new(rotation, center);
    let place = |p: Vec3| pose.apply(p);
    match rng.below(8) {
        0 => {
            let r = rng.range(0.05, 1.0);
            Body {
                world: Shape::Sphere(Sphere::new(center, r)),
                local: Shape::Sphere(Sphere::new(Vec3::ZERO, r)),
                parry: Box::new(Ball::new(r)),
                pose,
            }
        }
        1 => {
            let half = Vec3::new(rng.range(0.05, 1.2), rng.range(0.05, 1.2), rng.range(0.05, 1.2));
            Body {
                world: Shape::Obb(Obb::new(center, rotation, half)),
                local: Shape::Aabb(Aabb::new(-half, half)),
                parry: Box::new(Cuboid::new(pv(half))),
                pose,
            }
        }
        2 => {
            // An axis-aligned box (identity rotation): the Aabb paths.
            let half = Vec3::new(rng.range(0.05, 1.2), rng.range(0.05, 1.2), rng.range(0.05, 1.2));
            let pose = Pose::from_translation(center);
            Body {
                world: Shape::Aabb(Aabb::new(center - half, center + half)),
                local: Shape::Aabb(Aabb::new(-half, half)),
                parry: Box::new(Cuboid::new(pv(half))),
                pose,
            }
        }
        3 => {
            let (h, r) = (rng.range(0.0, 1.0), rng.range(0.05, 0.8));
            let axis = Segment::new(Vec3::new(0.0, -h, 0.0), Vec3::new(0.0, h, 0.0));
            Body {
                world: Shape::Capsule(Capsule::new(Segment::new(place(axis.start), place(axis.end)), r)),
                local: Shape::Capsule(Capsule::new(axis, r)),
                parry: Box::new(PCapsule::new_y(h, r)),
                pose,
            }
        }
        4 => {
            let (h, r) = (rng.range(0.05, 1.0), rng.range(0.05, 1.0));
            let axis = Segment::new(Vec3::new(0.0, -h, 0.0), Vec3::new(0.0, h, 0.0));
            Body {
                world: Shape::Cylinder(Cylinder::new(Segment::new(place(axis.start), place(axis.end)), r)),
                local: Shape::Cylinder(Cylinder::new(axis, r)),
                parry: Box::new(PCylinder::new(h, r)),
                pose,
            }
        }
        5 => {
            let (h, r) = (rng.range(0.05, 1.0), rng.range(0.05, 1.0));
            let (base, apex) = (Vec3::new(0.0, -h, 0.0), Vec3::new(0.0, h, 0.0));
            Body {
                world: Shape::Cone(Cone::new(place(base), place(apex), r)),
                local: Shape::Cone(Cone::new(base, apex, r)),
                parry: Box::new(PCone::new(h, r)),
                pose,
            }
        }
        6 => {
            let [a, b, c] = [rng.vec(-1.0, 1.0), rng.vec(-1.0, 1.0), rng.vec(-1.0, 1.0)];
            Body {
                world: Shape::Triangle(Triangle::new(place(a), place(b), place(c))),
                local: Shape::Triangle(Triangle::new(a, b, c)),
                parry: Box::new(PTriangle::new(pv(a), pv(b), pv(c))),
                pose,
            }
        }
        _ => loop {
            let n = 4 + rng.below(12) as usize;
            let scale = Vec3::new(rng.range(0.2, 1.0), rng.range(0.2, 1.0), rng.range(0.2, 1.0));
            let points: Vec<Vec3> = (0..n).map(|_| rng.vec(-1.0, 1.0) * scale).collect();
            let world: Vec<Vec3> = points.iter().map(|p| place(*p)).collect();
            let parry_points: Vec<PVec> = points.iter().map(|p| pv(*p)).collect();
            let (Ok(hull), Ok(local), Some(poly)) = (
                ConvexHull::from_points(&world),
                ConvexHull::from_points(&points),
                ConvexPolyhedron::from_convex_hull(&parry_points),
            ) else {
                continue;
            };
            break Body {
                world: Shape::Hull(Arc::new(hull)),
                local: Shape::Hull(Arc::new(local)),
                parry: Box::new(poly),
                pose,
            };
        },
    }
}

/// Two bodies placed so that about half the pairs overlap.
fn random_pair(rng: &mut TestRng) -> (Body, Body) {
    let center = rng.vec(-0.5, 0.5);
    let a = random_body(rng, center);
    let direction = rng.vec(-1.0, 1.0).try_normalize().unwrap_or(Vec3::X);
    let reach = a.size() * rng.range(0.3, 1.6);
    let b = random_body(rng, a.pose.translation + direction * reach);
    (a, b)
}

fn kind(s: &Shape) -> &'static str {
    match s {
        Shape::Sphere(_) => "sphere",
        Shape::Aabb(_) => "aabb",
        Shape::Obb(_) => "obb",
        Shape::Capsule(c) if c.radius == 0.0 => "segment",
        Shape::Capsule(_) => "capsule",
        Shape::Triangle(_) => "triangle",
        Shape::Cylinder(_) => "cylinder",
        Shape::Cone(_) => "cone",
        Shape::Mesh(_) => "mesh",
        Shape::Hull(_) => "hull",
    }
}

fn curved(s: &Shape) -> bool {
    matches!(s, Shape::Cylinder(_) | Shape::Cone(_))
}

/// parry's signed distance: negative when penetrating.
fn parry_signed_distance(a: &Body, b: &Body) -> f32 {
    let (pa, pb) = (ppose(&a.pose), ppose(&b.pose));
    match pq::contact(&pa, &*a.parry, &pb, &*b.parry, 0.0).unwrap() {
        Some(c) => c.dist,
        None => pq::distance(&pa, &*a.parry, &pb, &*b.parry).unwrap().distance,
    }
}

/// Whether the pair overlaps after moving `b` by `shift`, with a
/// certificate, or `None` when neither certificate holds (the pair is
/// within rounding of touching). Overlap: collide's common point, which
/// parry's point queries must put inside both shapes (to `1e-5·s`).
/// Separation: a plane, collide's normal, with the shapes' supports on
/// either side of it.
fn certified_overlap(a: &Body, b: &Body, shift: Vec3) -> Option<bool> {
    let moved = Transformed::new(&b.world, Pose::from_translation(shift));
    let d = distance(&a.world, &moved);
    match d.normal {
        Some(n) => {
            let gap = n.dot(moved.support(-n)) - n.dot(a.world.support(n));
            (gap > 0.0).then_some(false)
        }
        None => {
            let mut pb = ppose(&b.pose);
            pb.translation += pv(shift);
            let inside_a = a.parry.distance_to_point(&ppose(&a.pose), pv(d.point_a), true);
            let inside_b = b.parry.distance_to_point(&pb, pv(d.point_a), true);
            let s = a.size() + b.size();
            (inside_a <= 1e-5 * s && inside_b <= 1e-5 * s).then_some(true)
        }
    }
}

#[derive(Default)]
struct Tally {
    cases: usize,
    agree: usize,
    near_touching: usize,
    curved_depth: usize,
    curved_collide_deeper: usize,
    normals_differ_both_valid: usize,
    slop: usize,
    iteration_limit: usize,
    parry_off: usize,
    max_depth_gap: f32,
    other: usize,
    /// Kind pairs of the `parry_off` cases.
    off_pairs: std::collections::BTreeMap<(&'static str, &'static str), usize>,
}

impl Tally {
    fn report(&self, what: &str) {
        println!(
            "{what}: {} cases, {} agree ({:.3}%), near touching {}, curved EPA depth {} (collide deeper in {}), \
             normals differ but both minimal {}, both touching at different times {}, collide iteration limit {}, \
             parry off (collide certified) {}, largest depth difference {:.2e}·s, other {}",
            self.cases,
            self.agree,
            100.0 * self.agree as f64 / self.cases.max(1) as f64,
            self.near_touching,
            self.curved_depth,
            self.curved_collide_deeper,
            self.normals_differ_both_valid,
            self.slop,
            self.iteration_limit,
            self.parry_off,
            self.max_depth_gap,
            self.other
        );
        if !self.off_pairs.is_empty() {
            let mut pairs: Vec<_> = self.off_pairs.iter().collect();
            pairs.sort_by(|x, y| y.1.cmp(x.1));
            let top: Vec<String> = pairs.iter().take(6).map(|((a, b), n)| format!("{a}–{b} {n}")).collect();
            println!("{what}: parry off most often for {}", top.join(", "));
        }
    }

    fn parry_off(&mut self, a: &Shape, b: &Shape) {
        self.parry_off += 1;
        let (x, y) = (kind(a), kind(b));
        *self.off_pairs.entry(if x <= y { (x, y) } else { (y, x) }).or_default() += 1;
    }
}

#[test]
fn intersection_verdicts_agree() {
    let mut rng = seeded(1);
    let mut tally = Tally::default();
    for case in 0..cases() {
        let (a, b) = random_pair(&mut rng);
        tally.cases += 1;
        let ours = a.world.intersects(&b.world);
        let (pa, pb) = (ppose(&a.pose), ppose(&b.pose));
        let theirs = pq::intersection_test(&pa, &*a.parry, &pb, &*b.parry)
            .unwrap()
            .intersecting;
        if ours == theirs {
            tally.agree += 1;
            continue;
        }
        // Judge with a certificate (a common point parry puts inside both
        // shapes, or a separating plane).
        match certified_overlap(&a, &b, Vec3::ZERO) {
            Some(overlap) => {
                assert_eq!(
                    overlap,
                    ours,
                    "case {case}: {} vs {}: collide {ours}, parry {theirs}, certified {overlap}\n{:?}\n{:?}",
                    kind(&a.world),
                    kind(&b.world),
                    a.world,
                    b.world
                );
                tally.parry_off(&a.world, &b.world);
            }
            None => {
                let s = a.size() + b.size();
                let signed = parry_signed_distance(&a, &b);
                let ours_distance = distance(&a.world, &b.world).distance;
                assert!(
                    signed.abs() <= 2.0 * TOLERANCE * s && ours_distance <= TOLERANCE * s,
                    "case {case}: {} vs {}: collide {ours}, parry {theirs} (parry signed distance {signed}, collide distance {ours_distance})\n{:?}\n{:?}",
                    kind(&a.world),
                    kind(&b.world),
                    a.world,
                    b.world
                );
                tally.near_touching += 1;
            }
        }
    }
    tally.report("intersection");
}

#[test]
fn distances_agree() {
    let mut rng = seeded(2);
    let mut tally = Tally::default();
    for case in 0..cases() {
        let (a, b) = random_pair(&mut rng);
        tally.cases += 1;
        let ours = a.world.distance(&b.world);
        let (pa, pb) = (ppose(&a.pose), ppose(&b.pose));
        let theirs = pq::distance(&pa, &*a.parry, &pb, &*b.parry).unwrap().distance;
        let s = a.size() + b.size();
        assert!(ours.distance.is_finite() && ours.point_a.is_finite() && ours.point_b.is_finite());
        if (ours.distance - theirs).abs() <= TOLERANCE * s {
            tally.agree += 1;
            // Closest points realise the distance.
            if ours.normal.is_some() {
                assert!(
                    ((ours.point_b - ours.point_a).length() - ours.distance).abs() <= TOLERANCE * s,
                    "case {case}: {ours:?}\n{:?}\n{:?}",
                    a.world,
                    b.world
                );
            }
            continue;
        }
        // A disagreement: bound the true distance. Our closest points are
        // convex combinations of support points, so `|point_b − point_a|`
        // is an upper bound; the gap between the shapes' supports along our
        // normal is a lower bound (a separating plane). Ours lies between
        // them by construction; parry's is off when it lies outside.
        let lower = ours
            .normal
            .map_or(0.0, |n| n.dot(b.world.support(-n)) - n.dot(a.world.support(n)));
        let upper = (ours.point_b - ours.point_a).length();
        let describe = || {
            format!(
                "case {case}: {} vs {}: collide {:?} parry {theirs} (bounds [{lower}, {upper}])\n{:?}\n{:?}",
                kind(&a.world),
                kind(&b.world),
                ours,
                a.world,
                b.world
            )
        };
        // The closest points realise the distance within the same
        // tolerance as above (their barycentric weights on a thin simplex
        // round more than the distance, formed along the face normal).
        assert!(
            upper <= ours.distance + TOLERANCE * s && lower <= ours.distance + 1e-5 * s,
            "{}",
            describe()
        );
        if theirs >= lower && theirs <= upper {
            // The bounds are too loose to tell (a normal slightly off).
            assert!(upper - lower <= 10.0 * TOLERANCE * s, "{}", describe());
            tally.near_touching += 1;
            continue;
        }
        // How far parry's own point query puts our closest points from its
        // shapes (it disagrees about the shape itself when this is large).
        let on_a = a.parry.distance_to_point(&pa, pv(ours.point_a), true);
        let on_b = b.parry.distance_to_point(&pb, pv(ours.point_b), true);
        tally.max_depth_gap = tally.max_depth_gap.max((ours.distance - theirs).abs() / s);
        if tally.parry_off < 5 {
            println!(
                "distance, parry off: {} vs {}: collide {} (certified), parry {theirs}; parry puts our witnesses \
                 {on_a:.1e} and {on_b:.1e} outside its shapes",
                kind(&a.world),
                kind(&b.world),
                ours.distance
            );
        }
        tally.parry_off(&a.world, &b.world);
    }
    tally.report("distance");
}

#[test]
fn contacts_agree() {
    let mut rng = seeded(3);
    let mut tally = Tally::default();
    for case in 0..cases() {
        let (a, b) = random_pair(&mut rng);
        tally.cases += 1;
        let ours: Option<Contact> = a.world.contact(&b.world);
        let (pa, pb) = (ppose(&a.pose), ppose(&b.pose));
        let theirs = pq::contact(&pa, &*a.parry, &pb, &*b.parry, 0.0).unwrap();
        let s = a.size() + b.size();
        let tol = TOLERANCE * s;
        let describe = || {
            format!(
                "case {case}: {} vs {}\n{:?}\n{:?}",
                kind(&a.world),
                kind(&b.world),
                a.world,
                b.world
            )
        };
        match (ours, theirs) {
            (None, None) => tally.agree += 1,
            (Some(c), None) => {
                assert!(c.depth <= tol, "{}: collide {c:?}, parry none", describe());
                tally.near_touching += 1;
            }
            (None, Some(p)) => {
                assert!(-p.dist <= tol, "{}: collide none, parry {p:?}", describe());
                tally.near_touching += 1;
            }
            (Some(c), Some(p)) => {
                assert!(c.depth.is_finite() && c.normal.is_finite() && c.point_a.is_finite() && c.point_b.is_finite());
                let their_depth = -p.dist;
                let their_normal = cv(p.normal1);
                let slack = 10.0 * tol;
                if (c.depth - their_depth).abs() > tol {
                    // The depths differ: judge them halfway. Moving b by the
                    // midpoint along the shallower side's normal separates
                    // the pair if that side is right; if it still overlaps,
                    // the shallower side is too shallow and the deeper one
                    // must separate the pair at its own depth. Both verdicts
                    // need a certificate (see `certified_overlap`); within
                    // rounding of touching neither side can be faulted.
                    let mid = 0.5 * (c.depth + their_depth);
                    let (shallow_normal, shallow_is_ours) = if c.depth < their_depth {
                        (c.normal, true)
                    } else {
                        (their_normal, false)
                    };
                    let verdict = certified_overlap(&a, &b, shallow_normal * mid).map(|overlap| {
                        let shallow_right = !overlap;
                        if shallow_is_ours {
                            shallow_right
                        } else {
                            !shallow_right && certified_overlap(&a, &b, c.normal * (c.depth + 0.5 * tol)) != Some(true)
                        }
                    });
                    assert!(
                        verdict != Some(false),
                        "{}: collide {c:?} judged wrong against parry depth {their_depth} normal {their_normal}",
                        describe()
                    );
                    if verdict.is_none() {
                        assert!(
                            (c.depth - their_depth).abs() <= 10.0 * tol,
                            "{}: collide {c:?}, parry {p:?}",
                            describe()
                        );
                        tally.near_touching += 1;
                        continue;
                    }
                    tally.max_depth_gap = tally.max_depth_gap.max((c.depth - their_depth).abs() / s);
                    if curved(&a.world) || curved(&b.world) {
                        tally.curved_depth += 1;
                        if c.depth > their_depth {
                            tally.curved_collide_deeper += 1;
                        }
                    } else {
                        tally.parry_off(&a.world, &b.world);
                        if tally.parry_off <= 3 {
                            println!(
                                "contact, parry off: {} vs {}: collide depth {} (judged right), parry {their_depth}",
                                kind(&a.world),
                                kind(&b.world),
                                c.depth
                            );
                        }
                    }
                    continue;
                }
                if c.depth > slack && c.normal.dot(their_normal) < 0.999 {
                    // Class 3: the minimum translation is not unique. Ours
                    // must separate the pair at its depth (plus slack) and
                    // not before (minus slack), by certified verdicts.
                    let separates = certified_overlap(&a, &b, c.normal * (c.depth + slack)) != Some(true);
                    let minimal = certified_overlap(&a, &b, c.normal * (c.depth - slack)) != Some(false);
                    assert!(
                        separates && minimal,
                        "{}: collide {c:?} is not a minimum translation (parry normal {their_normal}; separates {separates}, minimal {minimal})",
                        describe()
                    );
                    tally.normals_differ_both_valid += 1;
                    continue;
                }
                tally.agree += 1;
            }
        }
    }
    tally.report("contact");
}

/// Signed separation of two placed shapes: the distance when apart, minus
/// the penetration depth when overlapping (collide's queries; the cast
/// comparisons judge both sides' times with it).
fn separation<A: Support + ?Sized, B: Support + ?Sized>(a: &A, b: &B) -> f32 {
    let d = distance(a, b);
    if d.normal.is_some() {
        d.distance
    } else {
        -collide::query::contact(a, b).map_or(0.0, |c| c.depth)
    }
}

#[test]
fn linear_casts_agree() {
    let mut rng = seeded(4);
    let mut tally = Tally::default();
    let options = ShapeCastOptions {
        max_time_of_impact: 1.0,
        target_distance: 0.0,
        stop_at_penetration: true,
        compute_impact_geometry_on_penetration: true,
    };
    for case in 0..cases() {
        let (a, mut b) = random_pair(&mut rng);
        // Start b apart from a most of the time, and aim it roughly at a.
        let away = (b.pose.translation - a.pose.translation).normalize_or(Vec3::X);
        let shift = away * (a.size() + b.size()) * rng.range(0.0, 1.5);
        b = shifted(b, shift);
        let motion_a = rng.vec(-1.0, 1.0);
        let motion_b = -shift * rng.range(0.5, 2.0) + rng.vec(-0.5, 0.5);
        tally.cases += 1;
        let ours = shape_cast(&a.world, motion_a, &b.world, motion_b);
        let (pa, pb) = (ppose(&a.pose), ppose(&b.pose));
        let theirs = pq::cast_shapes(&pa, pv(motion_a), &*a.parry, &pb, pv(motion_b), &*b.parry, options).unwrap();
        let s = a.size() + b.size();
        let tol = TOLERANCE * s;
        let path = (motion_b - motion_a).length().max(1e-6);
        let tol_t = tol / path;
        let describe = || {
            format!(
                "case {case}: {} vs {}, motions {motion_a:?} {motion_b:?}\n{:?}\n{:?}",
                kind(&a.world),
                kind(&b.world),
                a.world,
                b.world
            )
        };
        let sep_at = |t: f32| {
            let at_a = Transformed::new(&a.world, Pose::from_translation(motion_a * t));
            let at_b = Transformed::new(&b.world, Pose::from_translation(motion_b * t));
            separation(&at_a, &at_b)
        };
        // The deepest overlap over the path (sampled), to tell grazing paths.
        let deepest = || (0..=200).map(|k| -sep_at(k as f32 / 200.0)).fold(f32::MIN, f32::max);
        match (ours, theirs) {
            (None, None) => tally.agree += 1,
            (Some(h), None) => {
                assert!(h.t.is_finite() && h.point.is_finite() && h.normal.is_finite());
                // Ours must be a first touch: touching at `t`, apart before.
                let sep = sep_at(h.t);
                let deepest_before = (0..200)
                    .map(|k| -sep_at(h.t * k as f32 / 200.0))
                    .fold(f32::MIN, f32::max);
                assert!(
                    sep.abs() <= tol && deepest_before <= tol,
                    "{}: collide {h:?} (separation {sep}, deepest before {deepest_before}), parry none",
                    describe()
                );
                if deepest() <= 10.0 * tol {
                    tally.near_touching += 1;
                } else {
                    // The path overlaps deeply after ours: parry missed it.
                    tally.parry_off(&a.world, &b.world);
                }
            }
            (None, Some(p)) => {
                assert!(deepest() <= 10.0 * tol, "{}: collide none, parry {p:?}", describe());
                tally.near_touching += 1;
            }
            (Some(h), Some(p)) => {
                assert!(h.t.is_finite() && h.point.is_finite() && h.normal.is_finite());
                let t = p.time_of_impact;
                if (h.t - t).abs() <= tol_t + 1e-6 {
                    tally.agree += 1;
                    continue;
                }
                // Judge both times: a right time of impact has the shapes
                // touching (|separation| within tolerance) or, at t = 0,
                // already overlapping.
                let ours_sep = sep_at(h.t);
                let their_sep = sep_at(t);
                let ours_ok = ours_sep.abs() <= tol || (h.t == 0.0 && ours_sep <= tol);
                let theirs_ok = their_sep.abs() <= tol || (t == 0.0 && their_sep <= tol);
                assert!(
                    ours_ok,
                    "{}: collide {h:?} (separation {ours_sep}), parry t {t} (separation {their_sep})",
                    describe()
                );
                if theirs_ok {
                    // A flat approach: every time in between is a touch.
                    tally.slop += 1;
                } else {
                    tally.parry_off(&a.world, &b.world);
                    if tally.parry_off <= 3 {
                        println!(
                            "linear cast, parry off: {} vs {}: collide t {} (separation {ours_sep:.2e}), \
                             parry t {t} (separation {their_sep:.2e}), size {s:.3}",
                            kind(&a.world),
                            kind(&b.world),
                            h.t
                        );
                    }
                }
            }
        }
    }
    tally.report("linear cast");
}

fn shifted(body: Body, shift: Vec3) -> Body {
    let pose = Pose::new(body.pose.rotation, body.pose.translation + shift);
    let world = match body.world {
        Shape::Sphere(s) => Shape::Sphere(Sphere::new(s.center + shift, s.radius)),
        Shape::Aabb(b) => Shape::Aabb(Aabb::new(b.min + shift, b.max + shift)),
        Shape::Obb(o) => Shape::Obb(Obb::new(o.center + shift, o.rotation, o.half_extents)),
        Shape::Capsule(c) => Shape::Capsule(Capsule::new(
            Segment::new(c.segment.start + shift, c.segment.end + shift),
            c.radius,
        )),
        Shape::Triangle(t) => Shape::Triangle(Triangle::new(t.a + shift, t.b + shift, t.c + shift)),
        Shape::Cylinder(c) => Shape::Cylinder(Cylinder::new(
            Segment::new(c.segment.start + shift, c.segment.end + shift),
            c.radius,
        )),
        Shape::Cone(c) => Shape::Cone(Cone::new(c.base_center + shift, c.apex + shift, c.radius)),
        Shape::Hull(h) => {
            let points: Vec<Vec3> = h.vertices().iter().map(|v| *v + shift).collect();
            Shape::Hull(Arc::new(ConvexHull::from_points(&points).unwrap()))
        }
        Shape::Mesh(_) => unreachable!("the random bodies are convex"),
    };
    Body { world, pose, ..body }
}

#[test]
fn rotating_times_of_impact_agree() {
    let mut rng = seeded(5);
    let mut tally = Tally::default();
    let options = ToiOptions::default();
    for case in 0..cases() {
        let (a, mut b) = random_pair(&mut rng);
        let away = (b.pose.translation - a.pose.translation).normalize_or(Vec3::X);
        let shift = away * (a.size() + b.size()) * rng.range(0.0, 1.5);
        b = shifted(b, shift);
        let (ca, cb) = (rng.vec(-0.3, 0.3), rng.vec(-0.3, 0.3));
        let ma = RigidMotion::new(a.pose, ca, rng.vec(-1.0, 1.0), rng.vec(-2.0, 2.0));
        let mb = RigidMotion::new(b.pose, cb, -shift * rng.range(0.5, 2.0), rng.vec(-2.0, 2.0));
        tally.cases += 1;
        let ours = time_of_impact(&a.local, &ma, &b.local, &mb, &options);
        let pma = NonlinearRigidMotion::new(ppose(&ma.start), pv(ca), pv(ma.linear), pv(ma.angular));
        let pmb = NonlinearRigidMotion::new(ppose(&mb.start), pv(cb), pv(mb.linear), pv(mb.angular));
        let theirs = pq::cast_shapes_nonlinear(&pma, &*a.parry, &pmb, &*b.parry, 0.0, 1.0, true).unwrap();
        let s = a.size() + b.size();
        let describe = || {
            format!(
                "case {case}: {} vs {}\n{:?}\n{:?}",
                kind(&a.world),
                kind(&b.world),
                a.world,
                b.world
            )
        };
        let sep_at = |t: f32| {
            let at_a = Transformed::new(&a.local, ma.pose_at(t));
            let at_b = Transformed::new(&b.local, mb.pose_at(t));
            separation(&at_a, &at_b)
        };
        let slop = options.tolerance * s;
        // The fastest any point moves, to turn distances into times.
        let speed = ma.linear.length()
            + mb.linear.length()
            + ma.angular.length() * (ca.length() + 2.0 * a.size())
            + mb.angular.length() * (cb.length() + 2.0 * b.size());
        let slop_t = 2.0 * slop / speed.max(1e-6);
        // Whether the pair stays apart over [0, t) (sampled).
        let apart_before = |t: f32| (0..40).all(|k| sep_at(t * k as f32 / 40.0) > -slop);
        match (ours, theirs) {
            (None, None) => tally.agree += 1,
            (Some(h), None) => {
                assert!(h.t.is_finite() && h.point.is_finite() && h.normal.is_finite());
                let sep = sep_at(h.t);
                if h.status == ToiStatus::IterationLimit {
                    // A near miss that conservative advancement crawls
                    // along: the documented safe time, not a contact.
                    assert!(
                        sep > 0.0 && apart_before(h.t),
                        "{}: collide {h:?}, parry none",
                        describe()
                    );
                    tally.iteration_limit += 1;
                    continue;
                }
                // parry misses; ours must be a real touch (within our slop).
                assert!(
                    sep <= 2.0 * slop,
                    "{}: collide {h:?} (separation {sep}), parry none",
                    describe()
                );
                tally.near_touching += 1;
            }
            (None, Some(p)) => {
                let t = p.time_of_impact;
                let sep = sep_at(t);
                // parry hits: either only grazing (within our slop), or
                // parry stopped early on its own tolerance and the pair
                // never actually touches.
                let deepest = (0..=100).map(|k| -sep_at(k as f32 / 100.0)).fold(f32::MIN, f32::max);
                assert!(
                    deepest <= 2.0 * slop,
                    "{}: collide none, parry {p:?} (separation there {sep})",
                    describe()
                );
                if sep > 2.0 * slop {
                    tally.parry_off(&a.world, &b.world);
                } else {
                    tally.near_touching += 1;
                }
            }
            (Some(h), Some(p)) => {
                assert!(h.t.is_finite() && h.point.is_finite() && h.normal.is_finite());
                let t = p.time_of_impact;
                // The times agree when they are within the time the pair
                // needs to close twice the slop at its actual closing speed
                // there (the bound `slop_t` uses the fastest point instead).
                let delta = 1e-3 * h.t.max(1e-3);
                let closing = (sep_at(h.t - delta) - sep_at(h.t)) / delta;
                let agree_t = if closing > 0.0 {
                    slop_t.max(4.0 * slop / closing)
                } else {
                    slop_t
                };
                if h.status == ToiStatus::Penetrating && t == 0.0 || (h.t - t).abs() <= agree_t {
                    tally.agree += 1;
                    continue;
                }
                let ours_sep = sep_at(h.t);
                if h.status == ToiStatus::IterationLimit {
                    // Documented: a safe time before contact, not a contact.
                    assert!(
                        ours_sep > 0.0 && apart_before(h.t),
                        "{}: collide {h:?}, parry t {t}",
                        describe()
                    );
                    tally.iteration_limit += 1;
                    continue;
                }
                // Ours: converged (within the slop, apart before) or penetrating at 0.
                let ours_ok = (h.status == ToiStatus::Penetrating || ours_sep <= 2.0 * slop) && apart_before(h.t);
                let their_sep = sep_at(t);
                assert!(
                    ours_ok,
                    "{}: collide {h:?} (separation {ours_sep}), parry t {t} (separation {their_sep})",
                    describe()
                );
                if their_sep.abs() <= 2.0 * slop && apart_before(t) {
                    tally.slop += 1;
                } else {
                    tally.parry_off(&a.world, &b.world);
                    if tally.parry_off <= 3 {
                        println!(
                            "rotating, parry off: {} vs {}: collide t {} (separation {ours_sep:.2e}), \
                             parry t {t} (separation {their_sep:.2e}), size {s:.3}",
                            kind(&a.world),
                            kind(&b.world),
                            h.t
                        );
                    }
                }
            }
        }
    }
    tally.report("rotating time of impact");
    // Class 4 with collide later than parry (parry found an earlier valid
    // touch) must stay rare: it means our advancement overshot nothing but
    // stopped at a later root, which conservative advancement cannot do.
    assert!(
        tally.other * 100 <= tally.cases.max(1),
        "collide later than parry in {} cases",
        tally.other
    );
}
