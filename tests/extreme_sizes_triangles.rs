//! Triangles and triangle meshes at extreme sizes: the segment–triangle
//! cast, a triangle's normal and area, a mesh's distance and the support
//! mapping a generic convex query sees for a mesh.
//!
//! Each test takes a configuration whose answer is known at unit scale,
//! scales it by `k` from 1e-30 to 1e30 (where its coordinates stay normal
//! `f32` numbers), and checks that the answer is the unit-scale one scaled:
//! the same `t` and normals to 1e-5, distances and depths to 1e-5 of `k`;
//! some go on to the ends of the `f32` range. The plain `f32` formulas
//! squared a cross product of edges (a fourth power of the size, which
//! overflows beyond about 4e9 and underflows below about 1e-10) or a gap
//! (which overflows beyond about 1.8e19); the mesh's support mapping was
//! wrong at every scale (absolute where the trait wants centre-relative).

use std::sync::Arc;

use collide::math::Vec3;
use collide::query::{contact, distance, intersects, shape_cast};
use collide::shape::{Support, Triangle, TriangleMesh};
use collide::{CastHit, ColliderDesc, QueryFilter, Segment, Shape, Sphere, World};

/// The sizes the configurations are scaled by: their coordinates (at most
/// a few times `k`) are normal `f32` numbers at every one.
const SCALES: [f32; 9] = [1.0, 1e-30, 1e-20, 1e-12, 1e-5, 1e5, 1e10, 1e20, 1e30];

/// Asserts `|got − want| <= 1e-5·size`, component by component.
#[track_caller]
fn near(got: Vec3, want: Vec3, size: f32, what: &str) {
    assert!(
        (got - want).abs().max_element() <= 1e-5 * size,
        "{what}: {got:?}, expected {want:?}"
    );
}

/// Asserts `|got − want| <= 1e-5·size`.
#[track_caller]
fn close(got: f32, want: f32, size: f32, what: &str) {
    assert!((got - want).abs() <= 1e-5 * size, "{what}: {got}, expected {want}");
}

/// Asserts a hit with the unit-scale hit's `t` and normal (to 1e-5).
#[track_caller]
fn same_hit(got: Option<CastHit>, want: CastHit, what: &str) {
    let got = got.unwrap_or_else(|| panic!("{what}: a hit, like {want:?} at unit scale"));
    close(got.t, want.t, 1.0, &format!("{what}: t"));
    near(got.normal, want.normal, 1.0, &format!("{what}: normal"));
}

/// A tilted triangle (unit normal `(−1, 0, 4)/√17`), its corners scaled by `k`.
fn tilted(k: f32) -> Triangle {
    Triangle::new(
        Vec3::new(-1.0, -1.0, -0.25) * k,
        Vec3::new(1.0, -1.0, 0.25) * k,
        Vec3::new(0.0, 1.0, 0.0) * k,
    )
}

/// The segments cast at [`tilted`] (scaled by `k`): down through the
/// face, up through it from below, one ending short of it, and one passing
/// beside it.
fn tilted_segments(k: f32) -> [Segment; 4] {
    [
        Segment::new(Vec3::new(0.25, 0.125, 3.0) * k, Vec3::new(-0.25, 0.0, -1.0) * k),
        Segment::new(Vec3::new(0.0, -0.5, -2.0) * k, Vec3::new(0.125, 0.0, 2.0) * k),
        Segment::new(Vec3::new(0.0, 0.0, 3.0) * k, Vec3::new(0.0, 0.0, 1.0) * k),
        Segment::new(Vec3::new(1.5, 0.0, 2.0) * k, Vec3::new(1.5, 0.0, -2.0) * k),
    ]
}

/// `Segment::cast_triangle` (Möller–Trumbore) formed `|d|·|e1 × e2|` from
/// the square of a cross product of edges, a fourth power of the size: it
/// overflowed to `∞` beyond about 4e9, where the relative test `|det| >
/// ε·∞` missed every triangle, and underflowed below about 1e-10, where
/// the normal (the same cross product normalised) came out zero; `det`, a
/// cube, overflowed from about 7e12. Straight down through the triangle
/// from `(0, 0, 2k)` to `(0, 0, −2k)` must hit half way with normal `+Z`
/// at every scale, and a tilted triangle must give its unit-scale answers;
/// so must a unit segment through a triangle of size `k` (the two are
/// scaled apart), and triangles, segments and offsets spanning
/// `±f32::MAX`, whose differences overflow `f32`.
#[test]
fn segment_cast_triangle_answers_as_at_unit_scale_at_every_scale() {
    let unit: Vec<Option<CastHit>> = tilted_segments(1.0)
        .iter()
        .map(|s| s.cast_triangle(&tilted(1.0)))
        .collect();
    assert!(
        unit[0].is_some() && unit[1].is_some() && unit[2].is_none() && unit[3].is_none(),
        "{unit:?}"
    );
    for k in SCALES {
        let flat = Triangle::new(
            Vec3::new(-1.0, -1.0, 0.0) * k,
            Vec3::new(1.0, -1.0, 0.0) * k,
            Vec3::new(0.0, 1.0, 0.0) * k,
        );
        let down = Segment::new(Vec3::new(0.0, 0.0, 2.0) * k, Vec3::new(0.0, 0.0, -2.0) * k);
        same_hit(
            down.cast_triangle(&flat),
            CastHit {
                t: 0.5,
                normal: Vec3::Z,
            },
            &format!("k = {k:e}, straight down"),
        );
        for (i, (segment, want)) in tilted_segments(k).iter().zip(&unit).enumerate() {
            let got = segment.cast_triangle(&tilted(k));
            let what = format!("k = {k:e}, tilted, segment {i}");
            match want {
                Some(want) => same_hit(got, *want, &what),
                None => assert_eq!(got, None, "{what}"),
            }
        }
        // A segment of unit length down through a triangle `k` times as
        // large or small, with a corner at the origin: `t = 1/4` at every
        // `k` (the edges and the segment are scaled apart, by different
        // powers of two).
        let corner = Triangle::new(Vec3::ZERO, Vec3::X * k, Vec3::Y * k);
        let unit_segment = Segment::new(Vec3::new(0.25 * k, 0.25 * k, 1.0), Vec3::new(0.25 * k, 0.25 * k, -3.0));
        same_hit(
            unit_segment.cast_triangle(&corner),
            CastHit {
                t: 0.25,
                normal: Vec3::Z,
            },
            &format!("k = {k:e}, a unit segment"),
        );
    }
    // Across the whole `f32` range: edges, directions and offsets beyond
    // `f32::MAX` overflow `f32`, but not the scaled ones. Through the plane
    // `y = 0` a quarter or half of the way along.
    let top = f32::MAX;
    let widest = Triangle::new(
        Vec3::new(-top, 0.0, -top),
        Vec3::new(top, 0.0, -top),
        Vec3::new(0.0, 0.0, top),
    );
    same_hit(
        Segment::new(Vec3::new(0.5, 1e38, 0.5), Vec3::new(0.5, -3e38, 0.5)).cast_triangle(&widest),
        CastHit {
            t: 0.25,
            normal: Vec3::Y,
        },
        "a triangle spanning ±f32::MAX",
    );
    same_hit(
        Segment::new(Vec3::new(0.5, -top, 0.5), Vec3::new(0.5, top, 0.5)).cast_triangle(&widest),
        CastHit {
            t: 0.5,
            normal: Vec3::NEG_Y,
        },
        "a segment spanning ±f32::MAX",
    );
    // `start − a` is `1.5·f32::MAX` along x.
    same_hit(
        Segment::new(
            Vec3::new(0.5 * top, 1e38, -0.9 * top),
            Vec3::new(0.5 * top, -3e38, -0.9 * top),
        )
        .cast_triangle(&widest),
        CastHit {
            t: 0.25,
            normal: Vec3::Y,
        },
        "a segment 1.5·f32::MAX from the first corner",
    );
}

/// The cast scales its inputs by powers of two, which is exact: at the
/// scale `2ᵉ`, from 2⁻¹²⁰ to 2¹²⁰ (every coordinate of the tilted
/// configuration a normal `f32`), the answers and the triangle's normal are
/// the unit-scale ones bit for bit, as the plain formula gave them only
/// where none of its powers of the size overflowed or underflowed.
#[test]
fn segment_cast_triangle_is_exact_at_power_of_two_scales() {
    let unit: Vec<Option<CastHit>> = tilted_segments(1.0)
        .iter()
        .map(|s| s.cast_triangle(&tilted(1.0)))
        .collect();
    let unit_normal = tilted(1.0).normal();
    for e in [-120, -90, -60, -30, 0, 30, 60, 90, 120] {
        let k = 2f32.powi(e);
        for (i, (segment, want)) in tilted_segments(k).iter().zip(&unit).enumerate() {
            assert_eq!(segment.cast_triangle(&tilted(k)), *want, "2^{e}, segment {i}");
        }
        assert_eq!(tilted(k).normal(), unit_normal, "2^{e}: the normal");
    }
}

/// A sliver `1e-22` wide at unit scale: its edges are fine, but the
/// square of their cross product `(0, 0, 1e-22)` is a subnormal `1e-44`
/// (seven steps of the smallest subnormal), whose square root is 1% short.
/// Normalised through it, the cast's and [`Triangle::normal`]'s normals had
/// length 1.01, and [`Triangle::area`] was 1% short. A segment straight
/// down must hit with the unit normal `+Z`, and so must one at a slope of
/// `1e-5` to the plane that crosses it at the same point: the watertight
/// cast decides by the signs of the edge functions, with no threshold on
/// the angle.
#[test]
fn segment_cast_triangle_on_a_sliver_measures_its_cross_product_exactly() {
    let w = 1e-22;
    let sliver = Triangle::new(Vec3::ZERO, Vec3::X, Vec3::new(1.0, w, 0.0));
    assert_eq!(sliver.normal(), Some(Vec3::Z), "the sliver's normal");
    let area = sliver.area();
    assert!((area / (0.5 * w) - 1.0).abs() <= 1e-6, "the sliver's area {area:e}");
    let down = Segment::new(Vec3::new(0.75, 0.5 * w, 1.0), Vec3::new(0.75, 0.5 * w, -1.0));
    let hit = down.cast_triangle(&sliver).expect("straight down through the sliver");
    assert_eq!((hit.t, hit.normal), (0.5, Vec3::Z), "straight down");
    let slope = 0.995e-5;
    let grazing = Segment::new(
        Vec3::new(0.25, 0.5 * w, 0.5 * slope),
        Vec3::new(1.25, 0.5 * w, -0.5 * slope),
    );
    let hit = grazing
        .cast_triangle(&sliver)
        .expect("a grazing segment through the sliver");
    assert_eq!((hit.t, hit.normal), (0.5, Vec3::Z), "grazing");
}

/// The same cast through [`World::segment_cast`], which sends a
/// [`Shape::Triangle`] collider to `Segment::cast_triangle`: a world
/// holding one triangle must report the unit-scale hit at every scale.
#[test]
fn world_segment_cast_on_a_triangle_collider_answers_as_at_unit_scale() {
    let segments = tilted_segments(1.0);
    let want = segments[0].cast_triangle(&tilted(1.0)).expect("a hit at unit scale");
    for k in SCALES {
        let mut world = World::new();
        let key = world.add(ColliderDesc::new(Shape::Triangle(tilted(k)))).unwrap();
        let segment = tilted_segments(k)[0];
        let hit = world
            .segment_cast(&segment, &QueryFilter::ALL)
            .unwrap()
            .unwrap_or_else(|| panic!("k = {k:e}: the world's triangle is hit"));
        assert_eq!(hit.collider, key, "k = {k:e}");
        same_hit(
            Some(CastHit {
                t: hit.t,
                normal: hit.normal,
            }),
            want,
            &format!("k = {k:e}"),
        );
    }
}

/// `Triangle::normal` normalised the cross product of the edges through its
/// square, a fourth power of the size: `None` (a "degenerate" triangle)
/// beyond about 1e10 and below about 1e-10; and `Triangle::area` took the
/// length of that square, `∞` beyond about 4e9. The area `2k²` of the
/// triangle with corners `(−k, −k)`, `(k, −k)`, `(0, k)` must be found to
/// 1e-5 wherever it is a normal `f32` (from k = 1e-18 to k = 1.3e19, where
/// the cross product's components themselves exceed `f32::MAX`), and `∞`
/// beyond; triangles spanning `±f32::MAX`, whose edges overflow `f32`,
/// have their normals.
#[test]
fn triangle_normal_and_area_answer_at_every_scale() {
    for k in SCALES.into_iter().chain([1e-18, 1e19, 1.3e19]) {
        let flat = Triangle::new(
            Vec3::new(-1.0, -1.0, 0.0) * k,
            Vec3::new(1.0, -1.0, 0.0) * k,
            Vec3::new(0.0, 1.0, 0.0) * k,
        );
        let what = format!("k = {k:e}");
        let normal = flat.normal().unwrap_or_else(|| panic!("{what}: a normal"));
        near(normal, Vec3::Z, 1.0, &what);
        let tilted_normal = tilted(k).normal().unwrap_or_else(|| panic!("{what}: a tilted normal"));
        near(tilted_normal, Vec3::new(-1.0, 0.0, 4.0) / 17f32.sqrt(), 1.0, &what);
        let area = f64::from(k) * f64::from(k) * 2.0;
        if (f64::from(f32::MIN_POSITIVE)..=f64::from(f32::MAX)).contains(&area) {
            let got = f64::from(flat.area());
            assert!(
                (got / area - 1.0).abs() <= 1e-5,
                "{what}: area {got:e}, expected {area:e}"
            );
        } else if area > f64::from(f32::MAX) {
            assert_eq!(flat.area(), f32::INFINITY, "{what}: an area beyond f32::MAX");
        }
    }
    // Edges of `2·f32::MAX`, beyond `f32`: taken in `f64` and scaled.
    let top = f32::MAX;
    let widest = Triangle::new(
        Vec3::new(-top, 0.0, -top),
        Vec3::new(top, 0.0, -top),
        Vec3::new(0.0, 0.0, top),
    );
    assert_eq!(widest.normal(), Some(Vec3::NEG_Y), "a triangle spanning ±f32::MAX");
    assert_eq!(
        widest.area(),
        f32::INFINITY,
        "the area of a triangle spanning ±f32::MAX"
    );
    let strip = Triangle::new(
        Vec3::new(-top, 0.0, 0.0),
        Vec3::new(top, 0.0, 0.0),
        Vec3::new(top, 0.0, 1.0),
    );
    assert_eq!(strip.normal(), Some(Vec3::NEG_Y), "a strip 2·f32::MAX long");
}

/// Two triangles of side ~2k, one in the plane `y = 3k` and one in
/// `y = −2k` (both over the origin), as a mesh.
fn two_floors(k: f32) -> TriangleMesh {
    TriangleMesh::new(
        vec![
            Vec3::new(-k, 3.0 * k, -k),
            Vec3::new(k, 3.0 * k, -k),
            Vec3::new(0.0, 3.0 * k, k),
            Vec3::new(-k, -2.0 * k, -k),
            Vec3::new(k, -2.0 * k, -k),
            Vec3::new(0.0, -2.0 * k, k),
        ],
        vec![[0, 1, 2], [3, 4, 5]],
    )
    .unwrap()
}

/// `TriangleMesh::distance` visits the triangles in order of a lower bound,
/// the length of the gap between boxes, and stops at the first bound beyond
/// the best distance. That length was `d.length()`, whose square overflows
/// for gaps beyond about 1.8e19: every bound was `∞`, and the loop stopped
/// after the first triangle (by index), at `y = 3k`, 2.5k away. A sphere of
/// radius `k/2` at the origin is `1.5k` from the triangle at `y = −2k`, the
/// nearest point `(0, −2k, 0)`, at every scale: by [`Shape::distance`],
/// [`World::distance`] and [`World::closest`] with the mesh as a collider.
#[test]
fn mesh_distance_finds_the_nearest_triangle_at_every_scale() {
    for k in SCALES {
        let what = format!("k = {k:e}");
        let mesh = Shape::Mesh(Arc::new(two_floors(k)));
        let ball = Shape::Sphere(Sphere::new(Vec3::ZERO, 0.5 * k));
        let d = mesh.distance(&ball);
        close(d.distance, 1.5 * k, k, &format!("{what}: Shape::distance"));
        near(
            d.point_a,
            Vec3::new(0.0, -2.0, 0.0) * k,
            k,
            &format!("{what}: on the mesh"),
        );
        near(
            d.point_b,
            Vec3::new(0.0, -0.5, 0.0) * k,
            k,
            &format!("{what}: on the ball"),
        );

        let mut world = World::new();
        let floors = world.add(ColliderDesc::new(mesh)).unwrap();
        let ball_key = world.add(ColliderDesc::new(ball.clone())).unwrap();
        let d = world.distance(floors, ball_key).unwrap();
        close(d.distance, 1.5 * k, k, &format!("{what}: World::distance"));
        near(
            d.point_a,
            Vec3::new(0.0, -2.0, 0.0) * k,
            k,
            &format!("{what}: World::distance"),
        );
        let (key, d) = world
            .closest(&ball, 10.0 * k, &QueryFilter::excluding(ball_key))
            .unwrap()
            .unwrap_or_else(|| panic!("{what}: the mesh is within reach"));
        assert_eq!(key, floors, "{what}");
        close(d.distance, 1.5 * k, k, &format!("{what}: World::closest"));
        near(
            d.point_b,
            Vec3::new(0.0, -2.0, 0.0) * k,
            k,
            &format!("{what}: World::closest"),
        );
    }
}

/// The one-triangle mesh with these corners, and the triangle.
fn mesh_of(corners: [Vec3; 3]) -> (TriangleMesh, Triangle) {
    (
        TriangleMesh::new(corners.to_vec(), vec![[0, 1, 2]]).unwrap(),
        Triangle::new(corners[0], corners[1], corners[2]),
    )
}

/// One triangle off the origin, `(10, 0, 0)`, `(11, 0, 0)`, `(10, 1, 0)`
/// scaled by `k`, as a mesh.
fn off_origin(k: f32) -> (TriangleMesh, Triangle) {
    mesh_of([
        Vec3::new(10.0, 0.0, 0.0) * k,
        Vec3::new(11.0, 0.0, 0.0) * k,
        Vec3::new(10.0, 1.0, 0.0) * k,
    ])
}

/// The trait asks `Support::core_support` for the support point relative
/// to `Support::center`; the mesh returned the absolute vertex, so every
/// generic query handed a mesh saw it moved by its centre (`support(X)` of
/// a triangle at `x ∈ [10, 11]` was 21.5). A one-triangle mesh must give
/// the triangle's answers to [`intersects`], [`distance`], [`contact`] and
/// [`shape_cast`], and its support points, at unit scale.
#[test]
fn generic_queries_see_a_one_triangle_mesh_as_its_triangle() {
    let (mesh, triangle) = off_origin(1.0);
    assert_eq!(mesh.support(Vec3::X), Vec3::new(11.0, 0.0, 0.0));
    assert_eq!(mesh.support(Vec3::Y), Vec3::new(10.0, 1.0, 0.0));
    assert_eq!(mesh.support(Vec3::NEG_X), triangle.support(Vec3::NEG_X));
    let touching = Sphere::new(Vec3::new(10.5, 0.2, 0.0), 0.1);
    assert!(intersects(&triangle, &touching));
    assert!(
        intersects(&mesh, &touching),
        "the mesh overlaps the sphere its triangle overlaps"
    );
    let apart = Sphere::new(Vec3::new(10.25, 0.25, 2.0), 0.5);
    let (want, got) = (distance(&triangle, &apart), distance(&mesh, &apart));
    close(got.distance, want.distance, 1.0, "distance");
    near(got.point_a, want.point_a, 1.0, "distance: on the mesh");
    let (want, got) = (contact(&triangle, &touching), contact(&mesh, &touching));
    let (want, got) = (want.expect("the triangle's contact"), got.expect("the mesh's contact"));
    close(got.depth, want.depth, 1.0, "contact depth");
    near(got.normal, want.normal, 1.0, "contact normal");
    let motion = Vec3::new(0.0, 0.0, -4.0);
    let want = shape_cast(&apart, motion, &triangle, Vec3::ZERO).expect("the sphere falls on the triangle");
    let got = shape_cast(&apart, motion, &mesh, Vec3::ZERO).expect("the sphere falls on the mesh");
    close(got.t, want.t, 1.0, "shape_cast t");
    near(got.normal, want.normal, 1.0, "shape_cast normal");
}

/// `Support::bounding_radius` of a mesh was `|half extents|`, whose square
/// overflows beyond about 1.8e19: an infinite radius, which the generic
/// queries take as the size of the problem (so they no longer bring it to
/// unit scale, and their tolerances become `∞`: at k = 1e20 the sphere
/// 1.5k away was at distance 0). The one-triangle mesh
/// must have a finite radius and answer as its triangle at every scale; a
/// mesh spanning `±f32::MAX` on every axis (half extents of length
/// `√3·f32::MAX`) has the radius `f32::MAX`, as the other shapes saturate,
/// and finite support points.
#[test]
fn generic_queries_on_a_mesh_answer_as_its_triangle_at_every_scale() {
    for k in SCALES {
        let what = format!("k = {k:e}");
        let (mesh, triangle) = off_origin(k);
        let radius = mesh.bounding_radius();
        assert!(radius.is_finite() && radius >= 0.5 * k, "{what}: radius {radius}");
        let apart = Sphere::new(Vec3::new(10.25, 0.25, 2.0) * k, 0.5 * k);
        let (want, got) = (distance(&triangle, &apart), distance(&mesh, &apart));
        close(got.distance, want.distance, k, &format!("{what}: distance"));
        close(got.distance, 1.5 * k, k, &format!("{what}: distance"));
        let touching = Sphere::new(Vec3::new(10.5, 0.2, 0.0) * k, 0.1 * k);
        assert!(intersects(&mesh, &touching), "{what}: overlap");
        let c = contact(&mesh, &touching).unwrap_or_else(|| panic!("{what}: a contact"));
        close(c.depth, 0.1 * k, k, &format!("{what}: depth"));
        let motion = Vec3::new(0.0, 0.0, -4.0) * k;
        let hit = shape_cast(&apart, motion, &mesh, Vec3::ZERO).unwrap_or_else(|| panic!("{what}: a swept hit"));
        close(hit.t, 1.5 / 4.0, 1.0, &format!("{what}: shape_cast t"));
        near(hit.normal, Vec3::NEG_Z, 1.0, &format!("{what}: shape_cast normal"));
    }
    // Two triangles in opposite corners of the range (each one's corners
    // within `f32::MAX` of each other): bounds `±f32::MAX` on every axis.
    let top = f32::MAX;
    let widest = TriangleMesh::new(
        vec![
            Vec3::splat(-top),
            Vec3::new(0.0, -top, -top),
            Vec3::new(-top, 0.0, -top),
            Vec3::splat(top),
            Vec3::new(0.0, top, top),
            Vec3::new(top, 0.0, top),
        ],
        vec![[0, 1, 2], [3, 4, 5]],
    )
    .unwrap();
    assert_eq!(
        widest.bounding_radius(),
        f32::MAX,
        "the radius of a mesh spanning ±f32::MAX"
    );
    for d in [Vec3::ONE, Vec3::NEG_ONE, Vec3::new(1.0, -1.0, 0.0)] {
        let s = widest.core_support(d);
        assert!(s.is_finite(), "support along {d:?}: {s:?}");
    }
}
