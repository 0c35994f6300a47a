//! Parity of the three faces of collide: every public method of the Rust
//! `World` (its queries and updates) has a C function in `collide.h`, and
//! every `phys_*` function of the header has a C++ method in
//! `bindings/cpp/collide.hpp`. A method added to one face and not the
//! others fails here.

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

fn read(path: &str) -> String {
    fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The public methods of `impl World` blocks in `source`, without those
/// hidden from the docs (test hooks).
fn world_methods(source: &str) -> Vec<String> {
    let mut methods = Vec::new();
    let mut in_world = false;
    let mut hidden = false;
    for line in source.lines() {
        let trimmed = line.trim();
        if line.starts_with("impl World {") {
            in_world = true;
        } else if line.starts_with('}') {
            in_world = false;
        } else if in_world && trimmed == "#[doc(hidden)]" {
            hidden = true;
        } else if in_world && trimmed.starts_with("pub fn ") {
            let name = trimmed["pub fn ".len()..]
                .split(['(', '<'])
                .next()
                .expect("a method name")
                .to_owned();
            if !hidden {
                methods.push(name);
            }
            hidden = false;
        } else if in_world && !(trimmed.starts_with("///") || trimmed.starts_with("#[")) {
            hidden = hidden && trimmed.is_empty();
        }
    }
    methods
}

/// The C functions that answer each public `World` method.
const C_FOR_RUST: &[(&str, &[&str])] = &[
    ("new", &["phys_world_create"]),
    ("with_max_colliders", &["phys_world_create_with_limit"]),
    ("set_threads", &["phys_world_set_thread_count"]),
    ("threads", &["phys_world_thread_count"]),
    ("max_colliders", &["phys_world_max_colliders"]),
    ("len", &["phys_world_count"]),
    ("is_empty", &["phys_world_count"]),
    (
        "add",
        &["phys_add_shape", "phys_add_box", "phys_add_sphere", "phys_add_capsule"],
    ),
    ("extend", &["phys_add_shapes", "phys_add_boxes"]),
    ("remove", &["phys_remove"]),
    ("optimize", &["phys_world_optimize"]),
    ("contains", &["phys_collider_is_alive"]),
    (
        "get",
        &[
            "phys_get_shape",
            "phys_get_transform",
            "phys_get_world_aabb",
            "phys_get_user_data",
            "phys_get_filter",
            "phys_get_should_rotate",
        ],
    ),
    ("iter", &["phys_world_colliders"]),
    ("set_transform", &["phys_set_transform"]),
    ("set_transforms", &["phys_set_transforms"]),
    ("set_shapes", &["phys_set_shapes"]),
    (
        "set_shape",
        &["phys_set_shape", "phys_set_box", "phys_set_sphere", "phys_set_capsule"],
    ),
    ("set_should_rotate", &["phys_set_should_rotate"]),
    ("set_user_data", &["phys_set_user_data"]),
    ("set_filter", &["phys_set_filter"]),
    ("segment_cast", &["phys_segment_cast"]),
    ("cast_ray", &["phys_cast_ray"]),
    ("segment_cast_any", &["phys_segment_cast_any"]),
    ("segment_cast_all", &["phys_segment_cast_all"]),
    ("segment_cast_batch", &["phys_segment_cast_batch"]),
    ("intersections_with_shape", &["phys_overlap_shape"]),
    ("cast_shape", &["phys_shape_cast"]),
    ("closest", &["phys_closest"]),
    ("project_point", &["phys_closest_point"]),
    ("distance", &["phys_distance"]),
    ("contact", &["phys_contact"]),
    ("contact_manifold", &["phys_contact_manifold"]),
    ("contact_manifolds", &["phys_world_contact_manifolds"]),
    ("test_pairwise", &["phys_test_pairwise", "phys_test_pairwise_into"]),
    (
        "test_sweep_and_prune",
        &["phys_test_sweep_and_prune", "phys_test_sweep_and_prune_into"],
    ),
    ("pairs_sweep_and_prune", &["phys_test_sweep_and_prune_into"]),
    ("pairs", &["phys_find_pairs", "phys_find_pairs_into"]),
    (
        "pair_events",
        &[
            "phys_update_pair_events",
            "phys_pair_events_began",
            "phys_pair_events_ended",
        ],
    ),
    (
        "last_pair_events",
        &["phys_pair_events_began", "phys_pair_events_ended"],
    ),
    ("memory_bytes", &["phys_world_memory_bytes"]),
    ("move_and_slide", &["phys_move_and_slide"]),
    ("debug_draw", &["phys_world_debug_draw"]),
    ("save", &["phys_world_save"]),
    ("load", &["phys_world_load"]),
    ("state_hash", &["phys_world_state_hash"]),
];

/// The functions `collide.h` declares.
fn header_functions() -> BTreeSet<String> {
    let header = read("include/collide.h");
    header
        .split(';')
        .filter_map(|declaration| {
            // The last `phys_`: a doc comment before it may name others.
            let open = declaration.rfind("phys_")?;
            let name_end = open + declaration[open..].find('(')?;
            let name = &declaration[open..name_end];
            name.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_')
                .then(|| name.to_owned())
        })
        .collect()
}

#[test]
fn every_world_method_has_a_c_function() {
    let mut rust = world_methods(&read("src/world.rs"));
    rust.extend(world_methods(&read("src/character.rs")));
    rust.extend(world_methods(&read("src/debug_draw.rs")));
    rust.extend(world_methods(&read("src/world/snapshot.rs")));
    assert!(rust.len() > 30, "only {} methods found: the scan is broken", rust.len());
    let header = header_functions();
    let table: BTreeSet<&str> = C_FOR_RUST.iter().map(|(name, _)| *name).collect();
    let missing: Vec<&String> = rust.iter().filter(|m| !table.contains(m.as_str())).collect();
    assert!(
        missing.is_empty(),
        "World methods without a C function in the table: {missing:?}"
    );
    let stale: Vec<&&str> = table.iter().filter(|t| !rust.iter().any(|m| m == *t)).collect();
    assert!(
        stale.is_empty(),
        "the table names methods World no longer has: {stale:?}"
    );
    for (method, functions) in C_FOR_RUST {
        for function in *functions {
            assert!(
                header.contains(*function),
                "World::{method}: {function} is not in collide.h"
            );
        }
    }
}
#[test]
fn every_c_function_has_a_cpp_method() {
    let wrapper = read("bindings/cpp/collide.hpp");
    let calls = |f: &str| {
        wrapper
            .match_indices(f)
            .any(|(i, _)| !wrapper[i + f.len()..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_'))
    };
    let missing: Vec<String> = header_functions().into_iter().filter(|f| !calls(f)).collect();
    assert!(
        missing.is_empty(),
        "phys_* functions the C++ wrapper does not call: {missing:?}"
    );
}
