//! The bad input of RELIABILITY.md's table, as safe-API values: every
//! description with one non-finite number, every other malformed
//! description with its error, and every segment with a non-finite number
//! or an overflowing direction. `world_bad_input.rs` puts them to the
//! `World`, `ffi_status.rs` to the C functions.

use collide::math::{Quat, Vec3};
use collide::{Aabb, Capsule, ColliderDesc, Error, Segment, Shape, Sphere, Transform};

pub const NON_FINITE: [f32; 3] = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY];

pub fn unit_box() -> Shape {
    Shape::Aabb(Aabb::new(Vec3::ZERO, Vec3::ONE))
}

pub fn ball(radius: f32) -> Shape {
    Shape::Sphere(Sphere::new(Vec3::ZERO, radius))
}

pub fn pill(radius: f32) -> Shape {
    Shape::Capsule(Capsule::new(Segment::new(Vec3::ZERO, Vec3::Y), radius))
}

pub fn at(shape: Shape, x: f32) -> ColliderDesc {
    ColliderDesc::new(shape).with_transform(Transform::from_translation(Vec3::new(x, 0.0, 0.0)))
}

/// Every description with one number made non-finite, named.
pub fn non_finite_descs() -> Vec<(String, ColliderDesc)> {
    let mut out = Vec::new();
    for value in NON_FINITE {
        for axis in 0..3 {
            let mut v = Vec3::ZERO;
            v[axis] = value;
            let name = |what: &str| format!("{what}[{axis}] = {value}");
            out.push((name("box min"), ColliderDesc::new(Shape::Aabb(Aabb::new(v, Vec3::ONE)))));
            let mut max = Vec3::ONE;
            max[axis] = value;
            out.push((
                name("box max"),
                ColliderDesc::new(Shape::Aabb(Aabb::new(Vec3::ZERO, max))),
            ));
            out.push((
                name("sphere centre"),
                ColliderDesc::new(Shape::Sphere(Sphere::new(v, 1.0))),
            ));
            out.push((
                name("capsule start"),
                ColliderDesc::new(Shape::Capsule(Capsule::new(Segment::new(v, Vec3::ONE), 1.0))),
            ));
            out.push((
                name("capsule end"),
                ColliderDesc::new(Shape::Capsule(Capsule::new(Segment::new(Vec3::ONE, v), 1.0))),
            ));
            let mut t = Transform::IDENTITY;
            t.translation = v;
            out.push((name("translation"), ColliderDesc::new(unit_box()).with_transform(t)));
            let mut t = Transform::IDENTITY;
            t.scale[axis] = value;
            out.push((name("scale"), ColliderDesc::new(unit_box()).with_transform(t)));
        }
        for k in 0..4 {
            let mut q = [0.0, 0.0, 0.0, 1.0];
            q[k] = value;
            let t = Transform {
                rotation: Quat::from_array(q),
                ..Transform::IDENTITY
            };
            out.push((
                format!("rotation[{k}] = {value}"),
                ColliderDesc::new(unit_box()).with_transform(t),
            ));
        }
        out.push((format!("sphere radius {value}"), ColliderDesc::new(ball(value))));
        out.push((format!("capsule radius {value}"), ColliderDesc::new(pill(value))));
    }
    out
}

/// Every other malformed description and its error: inverted boxes (each
/// axis), negative radii, rotations off unit length, and finite numbers
/// whose world bounds overflow.
pub fn malformed_descs() -> Vec<(String, ColliderDesc, Error)> {
    let mut out = Vec::new();
    for (axis, name) in ["x", "y", "z"].into_iter().enumerate() {
        let mut max = Vec3::ONE;
        max[axis] = -1.0;
        out.push((
            format!("box inverted on {name}"),
            ColliderDesc::new(Shape::Aabb(Aabb::new(Vec3::ZERO, max))),
            Error::InvertedBox(name),
        ));
    }
    out.push((
        "negative sphere radius".into(),
        ColliderDesc::new(ball(-0.5)),
        Error::NegativeRadius,
    ));
    out.push((
        "negative capsule radius".into(),
        ColliderDesc::new(pill(-1e-30)),
        Error::NegativeRadius,
    ));
    let rotation = |q: Quat| {
        ColliderDesc::new(unit_box()).with_transform(Transform {
            rotation: q,
            ..Transform::IDENTITY
        })
    };
    for q in [
        Quat::from_xyzw(0.0, 0.0, 0.0, 0.0),
        Quat::from_xyzw(0.0, 0.0, 0.0, 2.0),
        Quat::from_xyzw(0.5, 0.0, 0.0, 0.5),
        Quat::from_xyzw(0.0, 0.0, 0.0, 1.001),
    ] {
        out.push((
            format!("rotation {q:?}"),
            rotation(q),
            Error::InvalidArgument("rotation is not a unit quaternion"),
        ));
    }
    out.push((
        "scale 1e38 × box ±4".into(),
        ColliderDesc::new(Shape::Aabb(Aabb::new(Vec3::splat(-4.0), Vec3::splat(4.0)))).with_transform(Transform::new(
            Vec3::ZERO,
            Quat::IDENTITY,
            1e38,
        )),
        Error::NonFinite("collider bounds after transform"),
    ));
    out.push((
        "translation 3e38 + box 3e38".into(),
        ColliderDesc::new(Shape::Aabb(Aabb::new(Vec3::ZERO, Vec3::splat(3e38))))
            .with_transform(Transform::from_translation(Vec3::splat(3e38))),
        Error::NonFinite("collider bounds after transform"),
    ));
    out.push((
        "sphere radius 3e38 × scale 2".into(),
        ColliderDesc::new(ball(3e38)).with_transform(Transform::new(Vec3::ZERO, Quat::IDENTITY, 2.0)),
        Error::NonFinite("collider bounds after transform"),
    ));
    out
}

pub fn segments_with_a_non_finite_number() -> Vec<Segment> {
    let mut out = Vec::new();
    for value in NON_FINITE {
        for axis in 0..3 {
            let mut p = Vec3::ZERO;
            p[axis] = value;
            out.push(Segment::new(p, Vec3::ONE));
            out.push(Segment::new(Vec3::ONE, p));
        }
    }
    // Finite end points whose direction overflows.
    out.push(Segment::new(Vec3::new(-3e38, 0.0, 0.0), Vec3::new(3e38, 0.0, 0.0)));
    out.push(Segment::new(
        Vec3::new(0.0, f32::MAX, 0.0),
        Vec3::new(0.0, -f32::MAX, 0.0),
    ));
    out
}
