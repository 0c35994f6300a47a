//! The scale rule of `PhysTransform` and `Transform`, from C and from Rust:
//! points map by `rotation·(scale∘p) + translation`, and the radius of a
//! sphere, capsule, cylinder or cone scales by the largest `|scale_i|`.
//! `tests/c/scale.c` checks world boxes and a cast through the C ABI; this
//! test builds it against the library of this test run, runs it, and holds
//! its numbers and the safe API's to the rule.

mod common;

use std::process::Command;

use collide::math::{Quat, Vec3};
use collide::{Capsule, ColliderDesc, Cone, Cylinder, QueryFilter, Segment, Shape, Sphere, Transform, World};
use common::c::{cc, command_of, lib_dir, lines_of_kind, makefile_native_libs, manifest_dir, profile_dir, stdout_of};

/// The world boxes the rule gives, by shape (see scale.c).
const BOXES: [(&str, [f32; 3], [f32; 3]); 4] = [
    ("sphere", [-2.0, -3.0, -3.0], [4.0, 3.0, 3.0]),
    ("capsule", [18.5, -3.5, -1.5], [21.5, 3.5, 1.5]),
    ("cylinder", [38.5, -2.0, -1.5], [41.5, 2.0, 1.5]),
    ("cone", [57.0, 0.0, -3.0], [63.0, 2.0, 3.0]),
];

fn transform(x: f32, scale: Vec3) -> Transform {
    Transform {
        translation: Vec3::new(x, 0.0, 0.0),
        rotation: Quat::IDENTITY,
        scale,
    }
}

#[test]
fn the_c_program_sees_round_shapes_scaled_by_the_largest_factor() {
    let dir = profile_dir().join("c-scale");
    std::fs::create_dir_all(&dir).expect("the build directory can be created");
    let binary = dir.join("scale");
    let mut compile = command_of(&cc());
    compile
        .args(["-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-I"])
        .arg(manifest_dir().join("include"))
        .arg(manifest_dir().join("tests/c/scale.c"))
        .arg("-o")
        .arg(&binary)
        .arg(lib_dir().join("libcollide.a"))
        .args(makefile_native_libs());
    stdout_of(&mut compile);
    let output = stdout_of(&mut Command::new(&binary));
    let shapes = lines_of_kind(&output, "shape");
    assert_eq!(shapes.len(), BOXES.len());
    for (line, (name, min, max)) in shapes.iter().zip(BOXES) {
        assert_eq!(line.str("name"), name);
        for (key, want) in [("min", min), ("max", max)] {
            let got: Vec<f32> = line.str(key).split(',').map(|x| x.parse().expect("a number")).collect();
            assert_eq!(got, want, "{name} {key}");
        }
    }
    let cast = &lines_of_kind(&output, "cast")[0];
    assert!((cast.num::<f32>("t") - 0.35).abs() <= 1e-6, "the drop meets radius 3");
    let summary = &lines_of_kind(&output, "summary")[0];
    assert_eq!(summary.num::<u32>("failed"), 0);
    assert_eq!(summary.num::<u32>("checks"), 16);
}

#[test]
fn the_rust_api_scales_round_shapes_by_the_largest_factor() {
    let stretch = Vec3::new(1.0, 2.0, 3.0);
    let axis = Segment::new(Vec3::new(0.0, -1.0, 0.0), Vec3::new(0.0, 1.0, 0.0));
    let shapes = [
        (Shape::Sphere(Sphere::new(Vec3::X, 1.0)), transform(0.0, stretch)),
        (Shape::Capsule(Capsule::new(axis, 0.5)), transform(20.0, stretch)),
        (Shape::Cylinder(Cylinder::new(axis, 0.5)), transform(40.0, stretch)),
        (
            Shape::Cone(Cone::new(Vec3::ZERO, Vec3::Y, 1.0)),
            transform(60.0, Vec3::new(-1.0, 2.0, -3.0)),
        ),
    ];
    let mut world = World::new();
    for ((shape, placement), (name, min, max)) in shapes.into_iter().zip(BOXES) {
        let key = world
            .add(ColliderDesc::new(shape).with_transform(placement))
            .expect("a valid collider");
        let collider = world.get(key).expect("alive");
        assert_eq!(collider.aabb().min, Vec3::from(min), "{name}");
        assert_eq!(collider.aabb().max, Vec3::from(max), "{name}");
        // The world shape is round, of radius 3 or 1.5, not an ellipsoid.
        let radius = match &*collider.world_shape() {
            Shape::Sphere(s) => s.radius,
            Shape::Capsule(c) => c.radius,
            Shape::Cylinder(c) => c.radius,
            Shape::Cone(c) => c.radius,
            other => panic!("{name} became {other:?}"),
        };
        assert_eq!(
            radius,
            if name == "capsule" || name == "cylinder" {
                1.5
            } else {
                3.0
            },
            "{name}"
        );
    }
    let drop = Segment::new(Vec3::new(1.0, 10.0, 0.0), Vec3::new(1.0, -10.0, 0.0));
    let hit = world
        .segment_cast(&drop, &QueryFilter::ALL)
        .expect("finite")
        .expect("a hit");
    assert!((hit.t - 0.35).abs() <= 1e-6 && (hit.point - Vec3::new(1.0, 3.0, 0.0)).length() <= 1e-5);
}
