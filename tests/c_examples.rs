//! Builds the C and C++ programs of `examples-c/` with their Makefile against
//! the `libcollide.a` cargo built for this test run, runs them, and checks
//! what they print against the geometry of their scenes.
//!
//! The binaries go to `target/<profile>/c-examples/`, so the source tree
//! stays clean. Missing `make`, `cc` or `c++` fails the test: the C ABI is
//! part of what collide promises, so it is never skipped silently.

mod common;

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::OnceLock;

use collide::ffi::PhysStatus;
use common::c::{records, run, Record};

/// Absolute tolerance for printed parameters, coordinates and normals (the
/// programs print six decimals).
const EPS: f32 = 1e-4;

/// The two example binaries, built once per test process.
struct Examples {
    bullets: PathBuf,
    pairs: PathBuf,
    shapes: PathBuf,
}

/// Runs `make all` in `examples-c/` once, into `target/<profile>/c-examples/`.
fn examples() -> &'static Examples {
    static BUILT: OnceLock<Examples> = OnceLock::new();
    BUILT.get_or_init(|| {
        let build_dir = common::c::make("all", "c-examples");
        Examples {
            bullets: build_dir.join("bullets"),
            pairs: build_dir.join("pairs"),
            shapes: build_dir.join("shapes"),
        }
    })
}

fn close(a: f32, b: f32, eps: f32) -> bool {
    (a - b).abs() <= eps
}

fn assert_vec(what: &str, got: [f32; 3], want: [f32; 3], eps: f32) {
    assert!(
        got.iter().zip(want).all(|(&g, w)| close(g, w, eps)),
        "{what}: got {got:?}, want {want:?}"
    );
}

fn sub(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn dot(a: [f32; 3], b: [f32; 3]) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn normalized(a: [f32; 3]) -> [f32; 3] {
    let l = dot(a, a).sqrt();
    [a[0] / l, a[1] / l, a[2] / l]
}

/// One cast of bullets.c, hit or miss.
struct Cast {
    bullet: u32,
    cast: u32,
    from: [f32; 3],
    to: [f32; 3],
    hit: Option<Hit>,
}

/// What a cast of bullets.c hit.
#[derive(Clone, Copy)]
struct Hit {
    user: u64,
    t: f32,
    point: [f32; 3],
    normal: [f32; 3],
}

fn casts(records: &[Record]) -> Vec<Cast> {
    records
        .iter()
        .filter(|r| r.kind == "hit" || r.kind == "miss")
        .map(|r| Cast {
            bullet: r.num("bullet"),
            cast: r.num("cast"),
            from: r.vec("from"),
            to: r.vec("to"),
            hit: (r.kind == "hit").then(|| Hit {
                user: r.num("user"),
                t: r.num("t"),
                point: r.vec("point"),
                normal: r.vec("normal"),
            }),
        })
        .collect()
}

#[test]
fn bullets_hit_what_the_level_geometry_predicts() {
    let records = records(&run(&examples().bullets));
    let casts = casts(&records);
    let find = |bullet: u32, cast: u32| {
        casts
            .iter()
            .find(|c| c.bullet == bullet && c.cast == cast)
            .and_then(|c| c.hit)
            .unwrap_or_else(|| panic!("bullet {bullet} hits something on cast {cast}"))
    };
    let sqrt2 = std::f32::consts::SQRT_2;
    let h = std::f32::consts::FRAC_1_SQRT_2;
    // Bullet 6 leaves target 102 along (2, 0, 1)/√5 from (-9, 2, 4.5) and meets
    // the sphere (centre (0, 2, 10), radius 1.5) where 5u² − 47u + 109 = 0.
    let u = (47.0 - 29f32.sqrt()) / 10.0;
    let glance = [-9.0 + 2.0 * u, 2.0, 4.5 + u];
    let hit = |user, t, point, normal| Hit { user, t, point, normal };
    // (bullet, cast, what it hits), from the level's numbers.
    let expected = [
        (0, 0, hit(101, 9.0 / 30.0, [9.0, 2.0, 0.0], [-1.0, 0.0, 0.0])),
        (0, 1, hit(2, 29.0 / 30.0, [-20.0, 2.0, 0.0], [1.0, 0.0, 0.0])),
        (1, 0, hit(201, 8.5 / 30.0, [0.0, 2.0, 8.5], [0.0, 0.0, -1.0])),
        // The turned target's world box reaches z = -10 + √2.
        (
            1,
            1,
            hit(103, (18.5 - sqrt2) / 30.0, [0.0, 2.0, -10.0 + sqrt2], [0.0, 0.0, 1.0]),
        ),
        // The capsule's side, radius 1 around x = z = -10, met along the diagonal.
        (
            2,
            0,
            hit(
                301,
                (10.0 * sqrt2 - 1.0) / 30.0,
                [-10.0 + h, 2.0, -10.0 + h],
                [h, 0.0, h],
            ),
        ),
        (3, 0, hit(1, 2.0 * sqrt2 / 30.0, [0.0, 0.0, 2.0], [0.0, 1.0, 0.0])),
        // The ghost bullet's mask lets it through target 101 to the east wall.
        (4, 0, hit(3, 20.0 / 30.0, [20.0, 2.0, 0.0], [-1.0, 0.0, 0.0])),
        // Fired from inside target 101: t = 0, normal against the direction.
        (5, 0, hit(101, 0.0, [10.0, 2.0, 0.0], [0.0, -1.0, 0.0])),
        (5, 1, hit(1, 2.0 / 30.0, [10.0, 0.0, 0.0], [0.0, 1.0, 0.0])),
        (
            6,
            0,
            hit(102, 4.5 * 5f32.sqrt() / 30.0, [-9.0, 2.0, 4.5], [1.0, 0.0, 0.0]),
        ),
        (
            6,
            1,
            hit(
                201,
                u * 5f32.sqrt() / 30.0,
                glance,
                [glance[0] / 1.5, 0.0, (glance[2] - 10.0) / 1.5],
            ),
        ),
    ];
    for (bullet, cast, want) in expected {
        let got = find(bullet, cast);
        let what = format!("bullet {bullet} cast {cast}");
        assert_eq!(got.user, want.user, "{what}: user data");
        assert!(close(got.t, want.t, EPS), "{what}: t = {}, want {}", got.t, want.t);
        assert_vec(&format!("{what}: point"), got.point, want.point, 1e-3);
        assert_vec(&format!("{what}: normal"), got.normal, want.normal, EPS);
    }

    // Bullet 3 bounces off the floor once and flies over the north wall.
    let end3 = records
        .iter()
        .find(|r| r.kind == "end" && r.str("bullet") == "3")
        .expect("bullet 3 ends");
    assert_eq!((end3.str("hits"), end3.str("reason")), ("1", "escaped"));
    assert!(
        casts
            .iter()
            .filter(|c| c.bullet == 4)
            .all(|c| c.hit.is_none_or(|h| h.user < 100)),
        "the ghost bullet hits only the level"
    );
}

#[test]
fn bullets_follow_the_reflection_law_on_every_cast() {
    let records = records(&run(&examples().bullets));
    let casts = casts(&records);
    assert!(!casts.is_empty());
    for (i, c) in casts.iter().enumerate() {
        let what = format!("bullet {} cast {}", c.bullet, c.cast);
        let direction = sub(c.to, c.from);
        assert!(
            close(dot(direction, direction).sqrt(), 30.0, 1e-3),
            "{what}: 30-unit segment"
        );
        let Some(next) = casts.get(i + 1).filter(|n| n.bullet == c.bullet) else {
            continue;
        };
        assert_eq!(next.cast, c.cast + 1, "{what}: casts are numbered in order");
        let next_direction = normalized(sub(next.to, next.from));
        match c.hit {
            None => {
                assert_vec(&format!("{what}: a miss goes on from its end"), next.from, c.to, 1e-3);
                assert_vec(
                    &format!("{what}: a miss keeps its direction"),
                    next_direction,
                    normalized(direction),
                    EPS,
                );
            }
            Some(Hit { t, point, normal, .. }) => {
                assert!((0.0..=1.0).contains(&t), "{what}: t = {t}");
                let on_segment = [0, 1, 2].map(|k| c.from[k] + t * direction[k]);
                assert_vec(&format!("{what}: point = start + t·d"), point, on_segment, 1e-3);
                assert!(close(dot(normal, normal), 1.0, EPS), "{what}: unit normal");
                assert!(dot(normal, direction) <= 0.0, "{what}: the normal faces the bullet");
                let v = normalized(direction);
                let reflected = [0, 1, 2].map(|k| v[k] - 2.0 * dot(v, normal) * normal[k]);
                assert_vec(&format!("{what}: next cast starts at the hit"), next.from, point, 1e-3);
                assert_vec(&format!("{what}: v − 2(v·n)n"), next_direction, reflected, 1e-3);
            }
        }
    }

    // The summary counts what the lines show.
    let summary = records.iter().find(|r| r.kind == "summary").expect("a summary line");
    let hits: Vec<u64> = casts.iter().filter_map(|c| c.hit.map(|h| h.user)).collect();
    let ends: Vec<&Record> = records.iter().filter(|r| r.kind == "end").collect();
    assert_eq!(summary.num::<usize>("bullets"), 7);
    assert_eq!(ends.len(), 7, "every bullet ends");
    assert_eq!(summary.num::<usize>("casts"), casts.len());
    assert_eq!(summary.num::<usize>("hits"), hits.len());
    assert_eq!(
        summary.num::<usize>("target_hits"),
        hits.iter().filter(|&&u| (101..200).contains(&u)).count()
    );
    assert_eq!(
        summary.num::<usize>("escaped"),
        ends.iter().filter(|r| r.str("reason") == "escaped").count()
    );
    assert_eq!(summary.num::<usize>("colliders"), 11);
    for end in ends {
        let bullet: u32 = end.num("bullet");
        let bullet_hits = casts.iter().filter(|c| c.bullet == bullet && c.hit.is_some()).count();
        assert_eq!(end.num::<usize>("hits"), bullet_hits, "bullet {bullet}'s end line");
        assert!(bullet_hits <= 4, "at most four bounces");
    }
}

#[test]
fn bullets_reports_versions_world_boxes_and_the_errors_it_provokes() {
    let output = run(&examples().bullets);
    let records = records(&output);

    let version = records.iter().find(|r| r.kind == "version").expect("a version line");
    assert_eq!(version.str("lib"), env!("CARGO_PKG_VERSION"));
    assert_eq!(version.str("header"), env!("CARGO_PKG_VERSION"));

    // Target 103 is turned 45° about y and rotated with it (PHYS_COLLIDER_SHOULD_ROTATE);
    // target 104 has the same rotation without the flag, so its box stays 2 × 2 × 2.
    let sqrt2 = std::f32::consts::SQRT_2;
    let boxes: HashMap<&str, &Record> = records
        .iter()
        .filter(|r| r.kind == "collider")
        .map(|r| (r.str("user"), r))
        .collect();
    assert_vec("101 min", boxes["101"].vec("min"), [9.0, 1.0, -1.0], EPS);
    assert_vec("101 max", boxes["101"].vec("max"), [11.0, 3.0, 1.0], EPS);
    assert_vec("103 min", boxes["103"].vec("min"), [-sqrt2, 1.0, -10.0 - sqrt2], EPS);
    assert_vec("103 max", boxes["103"].vec("max"), [sqrt2, 3.0, -10.0 + sqrt2], EPS);
    assert_vec("104 min", boxes["104"].vec("min"), [9.0, 1.0, -11.0], EPS);
    assert_vec("104 max", boxes["104"].vec("max"), [11.0, 3.0, -9.0], EPS);

    // `error op=NAME status=S | phys_status_string(S) | message`.
    let errors: HashMap<String, (u32, String, String)> = output
        .lines()
        .filter(|l| l.starts_with("error "))
        .map(|l| {
            let parts: Vec<&str> = l.split(" | ").collect();
            assert_eq!(parts.len(), 3, "error line `{l}`");
            let head = Record::parse(parts[0]);
            (
                head.str("op").to_owned(),
                (head.num("status"), parts[1].to_owned(), parts[2].to_owned()),
            )
        })
        .collect();
    let expected = [
        ("add_inverted_box", PhysStatus::PHYS_ERROR_INVERTED_BOX, "x axis"),
        ("get_user_data_removed", PhysStatus::PHYS_ERROR_STALE_HANDLE, "stale"),
        ("remove_twice", PhysStatus::PHYS_ERROR_STALE_HANDLE, "stale"),
        ("cast_nan_segment", PhysStatus::PHYS_ERROR_NON_FINITE, "not finite"),
    ];
    assert_eq!(errors.len(), expected.len());
    for (op, status, in_message) in expected {
        let (code, description, message) = &errors[op];
        assert_eq!(*code, status as u32, "{op}: status");
        assert_eq!(description.as_str(), status.description().to_str().unwrap(), "{op}");
        assert!(message.contains(in_message), "{op}: message `{message}`");
    }
}

/// The `round R METHOD key=value...` lines of pairs.cpp, by `(R, METHOD)`.
fn rounds(output: &str) -> HashMap<(usize, String), Record> {
    output
        .lines()
        .filter_map(|line| {
            let mut words = line.splitn(4, ' ');
            (words.next() == Some("round")).then_some(())?;
            let round = words.next()?.parse().ok()?;
            let method = words.next()?.to_owned();
            Some((
                (round, method.clone()),
                Record::parse(&format!("{method} {}", words.next()?)),
            ))
        })
        .collect()
}

#[test]
fn pairs_finders_agree_through_callbacks_and_buffers() {
    let output = run(&examples().pairs);
    let rounds = rounds(&output);
    // Round 0 as built; round 1 after box 6 moves onto sphere 5; round 2
    // after box 2 is removed. 8's bounds overlap box 1 but its shape does
    // not; 9 and 10 overlap 1 and 2 but their filters pair them only together.
    let expected = ["1-2,1-7,2-3,4-5,9-10", "1-2,1-7,2-3,4-5,5-6,9-10", "1-7,4-5,5-6,9-10"];
    assert_eq!(rounds.len(), expected.len() * 5, "five lines per round");
    for (round, pairs) in expected.iter().enumerate() {
        let count = pairs.split(',').count();
        let line = |method: &str| {
            rounds
                .get(&(round, method.to_owned()))
                .unwrap_or_else(|| panic!("round {round}: a `{method}` line"))
        };
        for method in ["pairwise", "sweep_and_prune"] {
            assert_eq!(line(method).str("pairs"), *pairs, "round {round} {method}");
            assert_eq!(line(method).num::<usize>("count"), count, "round {round} {method}");
        }
        for method in ["pairwise_into", "sweep_and_prune_into"] {
            let line = line(method);
            assert_eq!(line.str("pairs"), *pairs, "round {round} {method}");
            assert_eq!(
                line.num::<u32>("probe"),
                PhysStatus::PHYS_ERROR_BUFFER_TOO_SMALL as u32,
                "round {round} {method}: capacity 0 is too small"
            );
            assert_eq!(line.num::<usize>("total"), count, "round {round} {method}");
            assert_eq!(line.num::<usize>("written"), count, "round {round} {method}");
        }
        assert_eq!(line("agree").num::<usize>("count"), count, "round {round}");
    }

    let records = records(&output);
    let exception = records
        .iter()
        .find(|r| r.kind == "exception")
        .expect("an exception line");
    assert_eq!(exception.str("caught"), "stop_after_first_pair");
    assert_eq!(exception.str("delivered"), "1", "the first throw stops delivery");
    assert!(records.iter().any(|r| r.kind == "summary" && r.str("rounds") == "3"));
}

/// Compiles the C99 `program` (as `dir/name.c`) against `include/collide.h`
/// and `libcollide.a` with every warning an error, runs it, and returns
/// what it prints (failing on a non-zero exit).
fn compile_and_run(dir: &std::path::Path, name: &str, program: &str) -> String {
    use common::c::{cc, command_of, lib_dir, makefile_native_libs, manifest_dir, stdout_of};
    let source = dir.join(format!("{name}.c"));
    std::fs::write(&source, program).expect("the program can be written");
    let binary = dir.join(name);
    let mut compile = command_of(&cc());
    compile
        .args(["-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-I"])
        .arg(manifest_dir().join("include"))
        .arg(&source)
        .arg("-o")
        .arg(&binary)
        .arg(lib_dir().join("libcollide.a"))
        .args(makefile_native_libs());
    stdout_of(&mut compile);
    stdout_of(&mut std::process::Command::new(&binary))
}

/// README's C snippet, compiled as the body of a C99 `main` against
/// `include/collide.h` and `libcollide.a` with every warning an error, and
/// run: its bullet meets the wall 19 of its 30 units along.
#[test]
fn the_readme_c_snippet_compiles_and_hits_the_wall() {
    use common::c::manifest_dir;
    let readme = std::fs::read_to_string(manifest_dir().join("README.md")).expect("README.md is readable");
    let start = readme.find("```c\n").expect("README has a C snippet") + "```c\n".len();
    let snippet = &readme[start..start + readme[start..].find("```").expect("the snippet ends")];
    let dir = common::c::fresh_dir("readme-c");
    let program = format!(
        "#include <stdint.h>\n#include <stdio.h>\n{}\nint main(void) {{\n    int actor = 0;\n    void* my_actor = &actor;\n{}\n    printf(\"hit=%d t=%.6f\\n\", hit, (double)h.t);\n    return hit && h.t > 0.6333f && h.t < 0.6334f ? 0 : 1;\n}}\n",
        snippet.lines().filter(|l| l.starts_with("#include")).collect::<Vec<_>>().join("\n"),
        snippet.lines().filter(|l| !l.starts_with("#include")).collect::<Vec<_>>().join("\n"),
    );
    let output = compile_and_run(&dir, "readme", &program);
    assert!(output.contains("hit=1"), "README's bullet misses the wall: {output}");
}

/// `shapes.c`: every kind said as a `PhysShape`, hulls and meshes shared;
/// a compound names the child a shot meets; its world saved and loaded
/// answers alike.
/// Each cast lands where the scene's geometry says: the hulls' top face at
/// y = 1, the row's box, sphere and cylinder tops at 1, the capsule's at
/// 1.5, the oriented box's at 0.5, the flat triangle at 0, the cone's side
/// 0.2 off its apex at `-1 + 2·(1 − 0.2/0.75)`, and the floor at -2, each
/// by a segment from y = 5 to -2.5.
#[test]
fn shapes_are_said_one_way_and_hulls_and_meshes_are_shared() {
    let output = run(&examples().shapes);
    let records = records(&output);
    let casts: Vec<&Record> = records.iter().filter(|r| r.kind == "cast").collect();
    let top = |y: f32| (5.0 - y) / 7.5;
    let cone_side = -1.0 + 2.0 * (1.0 - 0.2 / 0.75);
    let expected: [(&str, f32); 11] = [
        ("0", top(1.0)),
        ("1", top(1.0)),
        ("2", top(1.0)),
        ("10", top(1.0)),
        ("11", top(1.0)),
        ("12", top(1.5)),
        ("13", top(0.5)),
        ("14", top(0.0)),
        ("15", top(1.0)),
        ("16", top(cone_side)),
        ("99", top(-2.0)),
    ];
    assert_eq!(casts.len(), expected.len(), "{output}");
    for (cast, (user, t)) in casts.iter().zip(expected) {
        assert_eq!(cast.str("user"), user, "{output}");
        assert!(
            close(cast.num("t"), t, EPS),
            "user {user}: t {} != {t}\n{output}",
            cast.num::<f32>("t")
        );
        if user != "16" {
            assert_vec("cast normal", cast.vec("normal"), [0.0, 1.0, 0.0], EPS);
        }
    }
    let overlap = records.iter().find(|r| r.kind == "overlap").expect("an overlap line");
    let mut users: Vec<&str> = overlap.str("users").split(',').collect();
    users.sort_unstable();
    assert_eq!(users, ["10", "11", "12"], "{output}");
    let drop = records
        .iter()
        .find(|r| r.kind == "shape_cast")
        .expect("a shape_cast line");
    assert_eq!(drop.str("user"), "11");
    assert!(close(drop.num("t"), 3.5 / 6.0, EPS), "{output}");
    let closest = records.iter().find(|r| r.kind == "closest").expect("a closest line");
    assert_eq!(closest.str("user"), "13");
    assert!(close(closest.num("distance"), 2.0, EPS), "{output}");
    let contact = records.iter().find(|r| r.kind == "contact").expect("a contact line");
    assert_eq!(contact.str("touching"), "1");
    assert!(close(contact.num("depth"), 0.5, EPS), "{output}");
    assert_vec("contact normal", contact.vec("normal"), [1.0, 0.0, 0.0], EPS);
    let compound = records.iter().find(|r| r.kind == "compound").expect("a compound line");
    assert_eq!(compound.str("sub_shape"), "1", "{output}");
    assert!(close(compound.num("t"), 0.35, EPS), "{output}");
    let snapshot = records.iter().find(|r| r.kind == "snapshot").expect("a snapshot line");
    assert_eq!(
        (snapshot.str("same_hit"), snapshot.str("same_hash")),
        ("1", "1"),
        "{output}"
    );
    assert_eq!(
        snapshot.num::<u32>("refused"),
        PhysStatus::PHYS_ERROR_INVALID_ARGUMENT as u32
    );
    let refused = records.iter().find(|r| r.kind == "refused").expect("a refused line");
    assert_eq!(
        refused.num::<u32>("status"),
        PhysStatus::PHYS_ERROR_INVALID_ARGUMENT as u32
    );
    let summary = records.iter().find(|r| r.kind == "summary").expect("a summary line");
    assert_eq!(summary.num::<usize>("colliders"), 11, "{output}");
}

/// README's second C snippet (a shared hull, a character's move and slide),
/// compiled as the body of a C99 `main` after a world with a floor is made,
/// and run: both rocks are added, and the walk down and on meets the floor
/// with an upward normal (grounded).
#[test]
fn the_readme_shape_snippet_compiles_and_the_hero_is_grounded() {
    use common::c::manifest_dir;
    let readme = std::fs::read_to_string(manifest_dir().join("README.md")).expect("README.md is readable");
    let snippets: Vec<&str> = readme
        .split("```c\n")
        .skip(1)
        .map(|s| &s[..s.find("```").expect("the snippet ends")])
        .collect();
    let snippet = snippets.get(1).expect("README has a second C snippet");
    let dir = common::c::fresh_dir("readme-c-shapes");
    let program = format!(
        "#include \"collide.h\"\n#include <stdio.h>\nint main(void) {{\n    PhysWorld* world;\n    phys_world_create(&world);\n    PhysAabb floor_box = {{{{-10, -1, -10}}, {{10, 0, 10}}}};\n    PhysCollider floor;\n    phys_add_box(world, &floor_box, NULL, &floor);\n{snippet}\n    size_t count = 0;\n    phys_world_count(world, &count);\n    int grounded = 0;\n    for (size_t i = 0; i < n; ++i) grounded |= hits[i].collider.bits == floor.bits && hits[i].normal.y > 0.7f;\n    printf(\"count=%zu hits=%zu grounded=%d\\n\", count, n, grounded);\n    phys_world_destroy(world);\n    return count == 3 && grounded ? 0 : 1;\n}}\n"
    );
    let output = compile_and_run(&dir, "readme_shapes", &program);
    assert!(output.contains("count=3") && output.contains("grounded=1"), "{output}");
}

/// Every C and C++ example builds with clang and clang++ too (C99 and
/// C++17, `-Wall -Wextra -Werror -pedantic`; the C++ ones also with
/// `-fno-exceptions -fno-rtti`) and passes its own checks.
#[test]
fn every_example_builds_and_passes_with_clang() {
    use common::c::{make_examples, profile_dir, require_tool};
    require_tool("clang", "the C compiler clang", "clang");
    require_tool("clang++", "the C++ compiler clang++", "clang");
    let dir = profile_dir().join("c-examples-clang");
    let book_game = dir.join("book_game");
    make_examples(
        &dir,
        &["CC=clang".to_owned(), "CXX=clang++".to_owned()],
        [
            std::ffi::OsStr::new("all"),
            std::ffi::OsStr::new("cpp_wrapper"),
            std::ffi::OsStr::new("cpp_tour"),
            std::ffi::OsStr::new("noexcept"),
            std::ffi::OsStr::new("threads"),
            book_game.as_os_str(),
        ],
    );
    for program in [
        "bullets",
        "pairs",
        "shapes",
        "cpp_wrapper",
        "cpp_tour",
        "cpp_tour_noexcept",
        "cpp_wrapper_noexcept",
        "pairs_noexcept",
        "threads",
        "book_game",
    ] {
        // `run` fails on a non-zero exit: each program exits 1 on a failed check.
        let output = run(&dir.join(program));
        let last = output.lines().last().unwrap_or_default();
        assert!(last.starts_with("summary"), "{program}: {output}");
        assert!(!last.contains("FAILED"), "{program}: {last}");
    }
}
