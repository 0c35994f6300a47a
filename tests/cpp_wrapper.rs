//! Builds `examples-c/cpp_wrapper.cpp`, a program using the header-only C++
//! wrapper `bindings/cpp/collide.hpp` with its own vector and quaternion
//! types, runs it, and checks what it prints against its level's geometry;
//! then `cpp_tour.cpp`, which calls every method of the wrapper, with and
//! without exceptions, and the C++ examples built with `-fno-exceptions
//! -fno-rtti`.

mod common;

use std::collections::HashMap;
use std::sync::OnceLock;

use collide::ffi::PhysStatus;
use common::c::{close3, make, of_kind, records, run, Record};

/// What the program prints, built and run once per test process.
fn output() -> &'static str {
    static OUTPUT: OnceLock<String> = OnceLock::new();
    OUTPUT.get_or_init(|| run(&make("cpp_wrapper", "cpp-wrapper").join("cpp_wrapper")))
}

/// The lines of one kind, by their `name=` (or `op=`, `round=`) field.
fn by<'a>(records: &'a [Record], kind: &str, key: &str) -> HashMap<String, &'a Record> {
    of_kind(records, kind)
        .into_iter()
        .map(|r| (r.str(key).to_owned(), r))
        .collect()
}

const EPS: f32 = 1e-5;

#[test]
fn the_wrapper_program_passes_its_checks() {
    let records = records(output());
    let summary = &of_kind(&records, "summary")[0];
    assert_eq!(summary.num::<u32>("failed"), 0);
    assert_eq!(summary.num::<u32>("checks"), 60);
    assert!(output().trim_end().ends_with(" ok"));

    let version = &of_kind(&records, "version")[0];
    assert_eq!(version.str("lib"), env!("CARGO_PKG_VERSION"));
    assert_eq!(version.str("header"), env!("CARGO_PKG_VERSION"));
}

#[test]
fn casts_hit_what_the_level_predicts() {
    let records = records(output());
    let casts = by(&records, "cast", "name");
    // The wall (a 2 x 5 x 20 slab at x = 20 turned 45° about y) has a world
    // box of half-width 11/√2 in x and z.
    let face = 20.0 - 11.0 * std::f32::consts::FRAC_1_SQRT_2;
    let expected = [
        ("east", "wall", face / 30.0, [face, 2.0, 0.0], [-1.0, 0.0, 0.0]),
        // With the wall excluded, the ball (radius 1.5 at x = 40) behind it.
        (
            "east_past_wall",
            "ball",
            38.5 / 50.0,
            [38.5, 2.0, 0.0],
            [-1.0, 0.0, 0.0],
        ),
        ("down", "floor", 9.75 / 20.0, [5.0, 0.25, 5.0], [0.0, 1.0, 0.0]),
        // The pillar: a capsule of radius 1 around x = 0, z = -10.
        ("north", "pillar", 9.0 / 30.0, [0.0, 2.0, -9.0], [0.0, 0.0, 1.0]),
    ];
    for (name, hit, t, point, normal) in expected {
        let cast = casts[name];
        assert_eq!(cast.str("hit"), hit, "cast {name}");
        assert!((cast.num::<f32>("t") - t).abs() <= EPS, "cast {name}: t");
        assert!(close3(cast.vec("point"), point, 1e-4), "cast {name}: point");
        assert!(close3(cast.vec("normal"), normal, EPS), "cast {name}: normal");
    }
    // Straight up from the floor, and with a mask no collider's category meets.
    for name in ["up", "masked"] {
        assert_eq!(casts[name].str("hit"), "none", "cast {name}");
    }
    assert_eq!(casts.len(), expected.len() + 2);
}

#[test]
fn world_boxes_and_pairs_follow_the_level() {
    let records = records(output());
    let boxes = by(&records, "aabb", "name");
    let h = 11.0 * std::f32::consts::FRAC_1_SQRT_2;
    assert!(close3(boxes["wall"].vec("min"), [20.0 - h, 0.0, -h], 1e-4));
    assert!(close3(boxes["wall"].vec("max"), [20.0 + h, 5.0, h], 1e-4));
    assert!(close3(boxes["ball"].vec("min"), [38.5, 0.5, -1.5], EPS));
    assert!(close3(boxes["ball"].vec("max"), [41.5, 3.5, 1.5], EPS));

    // Round 0 as built; round 1 after crate_b stretches into crate_a, the
    // ball drops into the floor and the pillar's mask empties; round 2 after
    // crate_a is removed and crate_b becomes the boulder. Pairs come in key
    // order, the colliders' order of creation.
    let rounds = by(&records, "pairs", "round");
    let expected = [
        "floor-wall,floor-pillar,floor-crate_a,floor-crate_b",
        "floor-wall,floor-ball,floor-crate_a,floor-crate_b,crate_a-crate_b",
        "floor-wall,floor-ball,floor-boulder",
    ];
    assert_eq!(rounds.len(), expected.len());
    for (round, pairs) in expected.iter().enumerate() {
        let line = rounds[&round.to_string()];
        for finder in ["pairwise", "sweep_and_prune", "vector"] {
            assert_eq!(line.str(finder), *pairs, "round {round} {finder}");
        }
        assert_eq!(line.num::<usize>("count"), pairs.split(',').count());
    }
}

#[test]
fn errors_arrive_as_exceptions_with_status_and_message() {
    let output = output();
    // `error op=NAME status=S message=TEXT...`: the message has spaces.
    let errors: HashMap<String, (u32, &str)> = output
        .lines()
        .filter(|line| line.starts_with("error "))
        .map(|line| {
            let (head, message) = line.split_once(" message=").expect("a message");
            let head = Record::parse(head);
            (head.str("op").to_owned(), (head.num("status"), message))
        })
        .collect();
    let expected = [
        ("add_inverted_box", PhysStatus::PHYS_ERROR_INVERTED_BOX, "inverted"),
        ("remove_twice", PhysStatus::PHYS_ERROR_STALE_HANDLE, "stale"),
        ("cast_nan", PhysStatus::PHYS_ERROR_NON_FINITE, "not finite"),
        ("null_handle", PhysStatus::PHYS_ERROR_STALE_HANDLE, "null"),
        (
            "unit_quaternion",
            PhysStatus::PHYS_ERROR_INVALID_ARGUMENT,
            "unit quaternion",
        ),
        ("capacity", PhysStatus::PHYS_ERROR_CAPACITY_EXCEEDED, "limit"),
    ];
    assert_eq!(errors.len(), expected.len());
    for (op, status, in_message) in expected {
        let (code, message) = errors[op];
        assert_eq!(code, status as u32, "{op}: status");
        assert!(message.contains(in_message), "{op}: message `{message}`");
    }

    let records = records(output);
    let exception = &of_kind(&records, "exception")[0];
    assert_eq!(exception.str("caught"), "stop_after_first_pair");
    assert_eq!(
        exception.num::<u32>("delivered"),
        1,
        "the first throw stops the delivery"
    );

    // A moved-from World holds no PhysWorld, and says so with a status.
    let moved = &of_kind(&records, "move")[0];
    assert_eq!(moved.num::<u32>("size_after"), 5);
    assert_eq!(
        moved.num::<u32>("source_error"),
        PhysStatus::PHYS_ERROR_NULL_POINTER as u32
    );
}

/// `collide::Collider::operator<` is the key order the header promises for
/// pairs: among six overlapping spheres whose slot 1 was removed and re-added
/// three times, every pair of the O(n²) finder is `a < b`, in sorted order.
#[test]
fn collider_order_is_the_key_order_of_pairs() {
    let records = records(output());
    let line = &of_kind(&records, "key_order")[0];
    assert_eq!(line.num::<usize>("pairs"), 15, "six spheres overlap pairwise");
    assert_eq!(line.num::<usize>("ordered"), 15, "every pair is a < b");
    assert_eq!(line.num::<u32>("sorted"), 1, "pairs sorted by (a, b)");
}

/// The tour's two builds: with exceptions and with `-fno-exceptions
/// -fno-rtti`, the same source.
fn tours() -> &'static (String, String) {
    static OUTPUT: OnceLock<(String, String)> = OnceLock::new();
    OUTPUT.get_or_init(|| {
        let dir = make("cpp_tour", "cpp-tour");
        (run(&dir.join("cpp_tour")), run(&dir.join("cpp_tour_noexcept")))
    })
}

/// `cpp_tour.cpp` calls every method of the wrapper on a small level: the
/// answers agree with its geometry, and the build without exceptions gives
/// the same answers, its refused calls seen through `collide::last_status()`
/// and the error handler.
#[test]
fn the_tour_answers_the_same_with_and_without_exceptions() {
    let (with, without) = tours();
    let body = |output: &str| -> Vec<String> {
        output
            .lines()
            .filter(|l| !l.starts_with("mode ") && !l.starts_with("summary "))
            .map(str::to_owned)
            .collect()
    };
    assert_eq!(body(with), body(without), "the two builds answer alike");
    for (output, mode) in [(with, "1"), (without, "0")] {
        let records = records(output);
        assert_eq!(of_kind(&records, "mode")[0].str("exceptions"), mode);
        let summary = &of_kind(&records, "summary")[0];
        assert_eq!(summary.num::<u32>("failed"), 0, "{output}");
        let casts = by(&records, "cast", "name");
        for (name, user, t) in [
            ("box", "10", 4.0 / 6.5),
            ("ball", "11", 4.0 / 6.5),
            ("rock", "2", 4.0),
            ("shape", "15", 3.5 / 6.0),
            ("sphere", "11", 3.5 / 6.0),
        ] {
            assert_eq!(casts[name].str("hit"), user, "{name}");
            assert!(
                (casts[name].num::<f32>("t") - t).abs() < 1e-5,
                "{name}: {}",
                casts[name].num::<f32>("t")
            );
        }
        let lists = by(&records, "list", "name");
        assert_eq!(lists["overlap"].str("users"), "10,11,12");
        assert_eq!(lists["overlap_box"].str("users"), "13");
        assert_eq!(lists["pierced"].str("users"), "10,11,12,13,15,16,17");
        let slide = &of_kind(&records, "slide")[0];
        assert!(
            close3(slide.vec("delta"), [-0.101, 0.0, 1.0], 1e-4),
            "pushed out, then walked"
        );
        assert_eq!(slide.vec("first_normal"), [-1.0, 0.0, 0.0]);
        let refused = by(&records, "refused", "op");
        for (op, status) in [
            ("stale", PhysStatus::PHYS_ERROR_STALE_HANDLE),
            ("inverted", PhysStatus::PHYS_ERROR_INVERTED_BOX),
            ("lengths", PhysStatus::PHYS_ERROR_INVALID_ARGUMENT),
            ("hull", PhysStatus::PHYS_ERROR_INVALID_ARGUMENT),
        ] {
            assert_eq!(refused[op].num::<u32>("status"), status as u32, "{op}");
            assert_eq!(refused[op].str("handled"), "1", "{op}");
        }
    }
}

/// The C++ examples build with `-fno-exceptions -fno-rtti` (and
/// `-Wall -Wextra -Werror -pedantic`) and pass their checks.
#[test]
fn the_cpp_examples_build_and_pass_without_exceptions_or_rtti() {
    let dir = make("noexcept", "cpp-noexcept");
    let wrapper = run(&dir.join("cpp_wrapper_noexcept"));
    assert!(wrapper.trim_end().ends_with(" ok"), "{wrapper}");
    let lines = records(&wrapper);
    let errors = by(&lines, "error", "op");
    assert!(errors.len() >= 3, "{wrapper}");
    let pairs = run(&dir.join("pairs_noexcept"));
    assert!(pairs.trim_end().ends_with("summary rounds=3 ok"), "{pairs}");
}
