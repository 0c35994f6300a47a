//! Builds the headless port of the book's chapter-10 game
//! (`examples-c/book_game/`) with the Makefile, on collide and on the book's
//! own PhysWorld, runs its scripted level, and checks what it prints: every
//! bounce obeys the law of reflection and lands on the surface it names, the
//! targets are hit as aimed, the player never ends a frame inside a wall, the
//! two pair tests agree, and the two builds print the same (but for how
//! close each push-out leaves the player to a wall). It also recounts
//! the lines the port changes, as `examples-c/book_game/PORT.md` states them.

mod common;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use common::c::{close3, make, of_kind, records, run, Record};

/// The two builds of the game, made once per test process.
struct Builds {
    collide: PathBuf,
    reference: PathBuf,
}

fn builds() -> &'static Builds {
    static BUILT: OnceLock<Builds> = OnceLock::new();
    BUILT.get_or_init(|| {
        let dir = make("book_game", "book-game");
        Builds {
            collide: dir.join("book_game"),
            reference: dir.join("book_game_reference"),
        }
    })
}

/// What the build on collide prints, run once per test process.
fn output() -> &'static str {
    static OUTPUT: OnceLock<String> = OnceLock::new();
    OUTPUT.get_or_init(|| run(&builds().collide))
}

fn summary(records: &[Record]) -> &Record {
    let summaries = of_kind(records, "summary");
    assert_eq!(summaries.len(), 1, "one summary line");
    summaries[0]
}

#[test]
fn the_scripted_run_passes_its_checks() {
    let records = records(output());
    let summary_line = output().lines().last().expect("output");
    assert!(
        summary_line.ends_with(" ok"),
        "the run reports failures: {summary_line}"
    );

    let level = &of_kind(&records, "level")[0];
    assert_eq!(
        (
            level.num::<u32>("boxes"),
            level.num::<u32>("planes"),
            level.num::<u32>("targets")
        ),
        (147, 140, 6)
    );

    let summary = summary(&records);
    let count = |key: &str| summary.num::<u32>(key);
    // 1141 frames at 1/60 s: 1 to settle, 10 shots followed by 450 frames in
    // all, then 240 + 120 + 30 + 180 + 120 frames of walking.
    assert_eq!(count("frames"), 1141);
    assert_eq!(count("shots"), 10);
    assert_eq!(count("bounces"), 13);
    assert_eq!(count("reflections_ok"), 13, "every bounce obeys the law of reflection");
    assert_eq!(count("target_hits"), 8);
    assert_eq!(
        count("frames_without_penetration"),
        1141,
        "the player never ends a frame in a wall"
    );
    // The player touches a wall from about 3 s into the walk until it backs
    // out of the corner: the penetration check had something to check.
    assert_eq!(count("contact_frames"), 387);
    // collide's push-out (MOVE_AND_SLIDE_SKIN) leaves the boxes 1e-3 apart.
    let max_overlap = summary.num::<f32>("max_overlap");
    assert!((-1.1e-3..=1e-3).contains(&max_overlap), "max_overlap {max_overlap}");
    assert_eq!(count("pair_frames_agree"), 1141, "the pair tests agree on every frame");
}

#[test]
fn the_targets_are_hit_as_aimed() {
    let records = records(output());
    let hits: Vec<(String, u32, u32)> = of_kind(&records, "target")
        .iter()
        .map(|t| (t.str("name").to_owned(), t.num("hits"), t.num("expected")))
        .collect();
    // One direct shot at each target; the bank shots add one hit to T4 (off
    // the north wall) and to T2 (off the floor).
    let want = [("T1", 1), ("T2", 2), ("T3", 1), ("T4", 2), ("T5", 1), ("T6", 1)];
    assert_eq!(hits.len(), want.len());
    for ((name, got, expected), (want_name, want_hits)) in hits.iter().zip(want) {
        assert_eq!((name.as_str(), *got, *expected), (want_name, want_hits, want_hits));
    }
}

/// One `bounce` line.
struct Bounce {
    frame: u32,
    hit: String,
    point: [f32; 3],
    normal: [f32; 3],
    incoming: [f32; 3],
    outgoing: [f32; 3],
    angle_in: f32,
    angle_out: f32,
}

fn bounces(records: &[Record]) -> Vec<Bounce> {
    of_kind(records, "bounce")
        .iter()
        .map(|r| Bounce {
            frame: r.num("frame"),
            hit: r.str("hit").to_owned(),
            point: r.vec("point"),
            normal: r.vec("normal"),
            incoming: r.vec("in"),
            outgoing: r.vec("out"),
            angle_in: r.num("angle_in"),
            angle_out: r.num("angle_out"),
        })
        .collect()
}

fn dot(a: [f32; 3], b: [f32; 3]) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

#[test]
fn every_bounce_obeys_the_law_of_reflection_on_the_surface_it_names() {
    let bounces = bounces(&records(output()));
    // (frame, what the ball bounced off), from the script: the six direct
    // shots, the bank shot off the north wall onto T4, the one off the floor
    // onto T2, the shot into the floor, and the level shot off the north
    // and east walls.
    let expected = [
        (48, "T1"),
        (80, "T2"),
        (112, "T3"),
        (142, "T4"),
        (168, "T5"),
        (198, "T6"),
        (239, "wall"),
        (251, "floor"),
        (274, "T4"),
        (292, "T2"),
        (336, "floor"),
        (358, "wall"),
        (400, "wall"),
    ];
    let got: Vec<(u32, &str)> = bounces.iter().map(|b| (b.frame, b.hit.as_str())).collect();
    assert_eq!(got, expected);

    for b in &bounces {
        let what = format!("bounce at frame {} off {}", b.frame, b.hit);
        // The printed vectors have four decimals.
        let eps = 1e-3;
        assert!((dot(b.normal, b.normal) - 1.0).abs() <= eps, "{what}: unit normal");
        assert!(dot(b.incoming, b.normal) < 0.0, "{what}: the normal faces the ball");
        let d = dot(b.incoming, b.normal);
        let reflected = [0, 1, 2].map(|k| b.incoming[k] - 2.0 * d * b.normal[k]);
        assert!(close3(b.outgoing, reflected, eps), "{what}: out = v − 2(v·n)n");
        assert!((b.angle_in - b.angle_out).abs() <= 0.01, "{what}: angle in = angle out");

        // The normal is an axis, and the point lies on the face it names:
        // the floor's top at z = -100, the walls' inner faces at |x| or
        // |y| = 1249, the targets' faces 1195 from the centre.
        let axis = (0..3)
            .find(|&k| b.normal[k].abs() > 0.999)
            .unwrap_or_else(|| panic!("{what}: the normal is not an axis"));
        let face = match b.hit.as_str() {
            "floor" => 100.0,
            "wall" => 1249.0,
            _ => 1195.0,
        };
        assert!(
            (b.point[axis].abs() - face).abs() <= 1e-3 && b.point[axis] * b.normal[axis] < 0.0,
            "{what}: the point {:?} is on the face facing the centre",
            b.point
        );
    }
}

#[test]
fn the_pair_tests_report_the_level_s_pairs() {
    let records = records(output());
    let pairs = of_kind(&records, "pairs");
    // After the first frame and after the last, with the player in the open:
    // 10 x 10 floor tiles touching along edges and at corners
    // (2·10·9 + 2·9·9 = 342); 9 neighbours along each of 4 sides plus the 4
    // corners (40); each of the 40 walls overlaps the 3 tiles beside it but
    // the 8 end walls only 2 (40·3 − 8 = 112).
    assert_eq!(pairs.len(), 2);
    for line in pairs {
        let count = |key: &str| line.num::<u32>(key);
        assert_eq!(count("pairwise"), 494, "frame {}", line.str("frame"));
        assert_eq!(count("sweep_and_prune"), 494);
        assert_eq!(
            (count("floor-floor"), count("wall-wall"), count("floor-wall")),
            (342, 40, 112)
        );
    }
}

#[test]
fn the_port_behaves_like_the_game_on_the_book_s_own_physworld() {
    let reference = run(&builds().reference);
    // The one figure allowed to differ: the book's FixCollisions leaves the
    // player's box touching the wall, collide's push-out MOVE_AND_SLIDE_SKIN
    // away (the deepest overlap, 0 against -1e-3 up to rounding).
    let without_overlap = |text: &str| -> Vec<String> {
        text.lines()
            .map(|line| {
                line.split(' ')
                    .filter(|field| !field.starts_with("max_overlap="))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    };
    assert_eq!(
        without_overlap(output()),
        without_overlap(&reference),
        "the builds on collide and on the book's PhysWorld print the same"
    );
    let overlap = |text: &str| summary(&records(text)).num::<f32>("max_overlap");
    assert_eq!(
        overlap(&reference),
        0.0,
        "the book's push-out leaves the boxes touching"
    );
    let ours = overlap(output());
    assert!(
        (ours + collide::MOVE_AND_SLIDE_SKIN).abs() <= 1e-4,
        "collide's push-out leaves the boxes MOVE_AND_SLIDE_SKIN apart: {ours}"
    );
}

/// Lines of `new` not in `old`, and lines of `old` not in `new`, by a longest
/// common subsequence of lines (what `diff --minimal` computes).
fn diff_counts(old: &str, new: &str) -> (usize, usize) {
    let old: Vec<&str> = old.lines().collect();
    let new: Vec<&str> = new.lines().collect();
    let mut lcs = vec![vec![0usize; new.len() + 1]; old.len() + 1];
    for i in (0..old.len()).rev() {
        for j in (0..new.len()).rev() {
            lcs[i][j] = if old[i] == new[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    (new.len() - lcs[0][0], old.len() - lcs[0][0])
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn file_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| {
            entry
                .expect("a directory entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    names
}

#[test]
fn the_port_changes_the_shim_and_two_game_files_as_port_md_counts() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples-c/book_game");
    let (book, port) = (dir.join("book"), dir.join("collide"));
    let files = file_names(&port);
    assert_eq!(files, file_names(&book), "collide/ and book/ hold the same files");
    assert_eq!(
        files,
        ["BoxComponent.cpp", "FPSActor.cpp", "PhysWorld.cpp", "PhysWorld.h"]
    );

    // PORT.md's table: | `FILE` | book/ lines | collide/ lines | added | removed |
    let port_md = read(&dir.join("PORT.md"));
    let table: Vec<(String, [usize; 4])> = port_md
        .lines()
        .filter_map(|line| {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            let name = cells.get(1)?.strip_prefix('`')?.strip_suffix('`')?;
            let numbers: Vec<usize> = cells[2..6].iter().map(|c| c.parse().expect("a count")).collect();
            Some((name.to_owned(), numbers.try_into().expect("four counts")))
        })
        .collect();
    assert_eq!(table.len(), files.len(), "PORT.md has a row per file");

    for (name, stated) in &table {
        let (old, new) = (read(&book.join(name)), read(&port.join(name)));
        let (added, removed) = diff_counts(&old, &new);
        let counted = [old.lines().count(), new.lines().count(), added, removed];
        assert_eq!(&counted, stated, "{name}: PORT.md's counts are stale");
    }

    // The game code's one changed line moves the collider.
    let (old, new) = (
        read(&book.join("BoxComponent.cpp")),
        read(&port.join("BoxComponent.cpp")),
    );
    let added: Vec<&str> = new.lines().filter(|l| !old.lines().any(|o| o == *l)).collect();
    assert_eq!(added.len(), 1);
    assert!(added[0].contains("->UpdateBox(this, mObjectBox, mShouldRotate);"));

    // FixCollisions is collide's push-out: its body is four lines.
    let fix = read(&port.join("FPSActor.cpp"));
    let body = fix
        .split("void FPSActor::FixCollisions()")
        .nth(1)
        .expect("FixCollisions");
    assert!(body.contains("->PushOutOfPlanes(mBoxComp)"));
    assert!(!body.contains("GetPlanes()"), "the port does not loop over the planes");
}
