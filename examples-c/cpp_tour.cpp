// cpp_tour.cpp: every method of bindings/cpp/collide.hpp on one small level,
// built twice: with exceptions (errors throw collide::Error) and with
// -fno-exceptions -fno-rtti (errors return a neutral value and are recorded
// in collide::last_status(), after the handler set by
// collide::set_error_handler). The program is the same source; only the
// refused calls at the end differ in how they are seen.
//
// It prints key=value lines that tests/cpp_wrapper.rs checks (and checks
// equal between the two builds):
//
//   mode exceptions=0|1
//   world colliders=N max=N threads=T memory_positive=0|1
//   cast name=NAME hit=USER t=T          (hit=none on a miss)
//   list name=NAME users=U,U,...
//   slide delta=x,y,z hits=N first_normal=x,y,z
//   pairs tree=N pairwise=N sweep=N began=N ended=N
//   refused op=NAME status=S handled=H
//   summary checks=N failed=N ok|FAILED

#include "collide.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#if COLLIDE_EXCEPTIONS
#include <stdexcept>
#endif

struct Vec3 {
    float x, y, z;
};

static int g_checks = 0;
static int g_failed = 0;

static void expect(bool ok, const std::string& what) {
    ++g_checks;
    if (!ok) {
        ++g_failed;
        std::fprintf(stderr, "FAILED: %s\n", what.c_str());
    }
}

static bool near(float a, float b) { return std::fabs(a - b) < 1e-4f; }

static std::string users(std::vector<std::uint64_t> list) {
    std::sort(list.begin(), list.end());
    std::string out;
    for (std::size_t i = 0; i < list.size(); ++i) {
        out += (i ? "," : "") + std::to_string(list[i]);
    }
    return out.empty() ? "none" : out;
}

static std::string users_of(const std::vector<collide::ColliderRef>& refs) {
    std::vector<std::uint64_t> list;
    for (const collide::ColliderRef& r : refs) {
        list.push_back(r.user_data);
    }
    return users(list);
}

static void print_cast(const char* name, const std::optional<collide::Hit>& hit) {
    if (hit) {
        std::printf("cast name=%s hit=%llu t=%.6f\n", name, static_cast<unsigned long long>(hit->user_data), hit->t);
    } else {
        std::printf("cast name=%s hit=none t=1\n", name);
    }
}

#if !COLLIDE_EXCEPTIONS
static int g_handled = 0;
static void count_failure(const collide::Status&) { ++g_handled; }
#endif

// Runs op, which must fail with status; prints how the failure was seen.
template <class Op>
static void refused(const char* name, PhysStatus status, Op&& op) {
    PhysStatus seen = PHYS_OK;
    int handled = 0;
#if COLLIDE_EXCEPTIONS
    try {
        op();
    } catch (const collide::Error& e) {
        seen = e.status();
        handled = 1;
    }
#else
    const int before = g_handled;
    op();
    seen = collide::last_status().code;
    handled = g_handled - before;
    expect(!collide::last_status().message.empty(), std::string(name) + ": a message");
#endif
    std::printf("refused op=%s status=%u handled=%d\n", name, static_cast<unsigned>(seen), handled);
    expect(seen == status && handled == 1, std::string(name) + ": refused with its status");
}

int main() {
    std::printf("mode exceptions=%d\n", COLLIDE_EXCEPTIONS);
#if !COLLIDE_EXCEPTIONS
    collide::set_error_handler(&count_failure);
#endif
    expect(collide::version_number() == PHYS_VERSION_NUMBER, "library and header versions agree");
    collide::World world(64);
    world.set_thread_count(1);

    // A floor mesh, a hull shared by two rocks, one of every plain kind.
    const std::vector<Vec3> floor_vertices{{-20, 0, -20}, {20, 0, -20}, {20, 0, 20}, {-20, 0, 20}};
    const collide::Mesh floor = collide::Mesh::from_triangles(floor_vertices, {0, 1, 2, 0, 2, 3});
    world.add(collide::Shape::mesh(floor), collide::ColliderDesc().with_translation(Vec3{0, -2, 0}).with_user_data(99));
    std::vector<Vec3> rock_points;
    for (int i = 0; i < 8; ++i) {
        rock_points.push_back(Vec3{(i & 1) ? 1.0f : -1.0f, (i & 2) ? 1.0f : -1.0f, (i & 4) ? 1.0f : -1.0f});
    }
    const collide::Hull rock = collide::Hull::from_points(rock_points);
    const std::vector<collide::Collider> rocks = world.add_shapes(
        {collide::Shape::hull(rock), collide::Shape::hull(rock)},
        {collide::ColliderDesc().with_translation(Vec3{0, 0, -6}).with_user_data(1),
         collide::ColliderDesc().with_translation(Vec3{4, 0, -6}).with_user_data(2)});
    expect(rocks.size() == 2, "two rocks from one hull");
    const collide::Collider box = world.add_box(collide::aabb(Vec3{-1, -1, -1}, Vec3{1, 1, 1}),
                                                collide::ColliderDesc().with_user_data(10));
    const collide::Collider ball = world.add_sphere(collide::sphere(Vec3{3, 0, 0}, 1.0f),
                                                    collide::ColliderDesc().with_user_data(11));
    world.add_capsule(collide::capsule(Vec3{6, -1, 0}, Vec3{6, 1, 0}, 0.5f), collide::ColliderDesc().with_user_data(12));
    world.add_obb(PhysObb{{9, 0, 0}, {0, 0, 0, 1}, {1, 0.5f, 0.25f}}, collide::ColliderDesc().with_user_data(13));
    world.add_triangle(PhysTriangle{{11, 0, -1}, {13, 0, -1}, {12, 0, 1}}, collide::ColliderDesc().with_user_data(14));
    world.add_cylinder(PhysCylinder{{{15, -1, 0}, {15, 1, 0}}, 0.75f}, collide::ColliderDesc().with_user_data(15));
    world.add_cone(PhysCone{{18, -1, 0}, {18, 1, 0}, 0.75f}, collide::ColliderDesc().with_user_data(16));
    world.add_hull({{20, -1, -1}, {22, -1, -1}, {21, 1, -1}, {21, 0, 1}}, collide::ColliderDesc().with_user_data(17));
    world.add_mesh({{-5, 5, -5}, {-3, 5, -5}, {-4, 5, -3}}, {0, 1, 2}, collide::ColliderDesc().with_user_data(18));
    const std::vector<collide::Collider> crates = world.add_boxes(
        {collide::aabb(Vec3{0, 3, 6}, Vec3{1, 4, 7}), collide::aabb(Vec3{0.5f, 3.5f, 6.5f}, Vec3{1.5f, 4.5f, 7.5f})},
        {collide::ColliderDesc().with_user_data(20), collide::ColliderDesc().with_user_data(21)});
    world.optimize();
    std::printf("world colliders=%zu max=%zu threads=%u memory_positive=%d\n", world.size(), world.max_colliders(),
                world.thread_count(), world.memory_bytes() > 0 ? 1 : 0);
    expect(world.size() == 14 && world.max_colliders() == 64 && world.thread_count() == 1, "the world's counts");
    expect(world.colliders().size() == 14 && world.contains(box), "the collider list");

    // Getters after setters.
    world.set_user_data(box, 10);
    world.set_filter(box, 1, ~std::uint64_t{0});
    world.set_should_rotate(box, true);
    expect(world.user_data(box) == 10 && world.filter(box).category_bits == 1 && world.should_rotate(box),
           "getters read what setters wrote");
    const collide::Shape rock_shape = world.shape(rocks[1]);
    expect(rock_shape.kind() == PHYS_SHAPE_HULL, "a rock's shape is its hull");
    const PhysAabb rock_box = world.world_aabb(rocks[1]);
    expect(near(rock_box.min.x, 3.0f) && near(rock_box.max.z, -5.0f), "a rock's bounds");
    expect(near(world.transform(rocks[1]).translation.x, 4.0f), "a rock's transform");

    // Casts: down onto a few colliders, a ray, any and all, a batch.
    print_cast("box", world.segment_cast(Vec3{0, 5, 0}, Vec3{0, -1.5f, 0}));
    print_cast("ball", world.segment_cast(collide::segment(Vec3{3, 5, 0}, Vec3{3, -1.5f, 0})));
    print_cast("rock", world.cast_ray(collide::ray(Vec3{4, 5, -6}, Vec3{0, -1, 0}), 10.0f));
    print_cast("any", world.segment_cast_any(collide::segment(Vec3{-30, 0, 0}, Vec3{30, 0, 0})));
    const std::vector<collide::Hit> pierced = world.segment_cast_all(collide::segment(Vec3{-30, 0, 0}, Vec3{30, 0, 0}));
    std::vector<std::uint64_t> pierced_users;
    for (const collide::Hit& h : pierced) {
        pierced_users.push_back(h.user_data);
    }
    std::printf("list name=pierced users=%s\n", users(pierced_users).c_str());
    const std::vector<std::optional<collide::Hit>> batch = world.segment_cast_batch(
        {collide::segment(Vec3{6, 5, 0}, Vec3{6, -1.5f, 0}), collide::segment(Vec3{50, 5, 0}, Vec3{50, 4, 0})});
    expect(batch.size() == 2 && batch[0] && batch[0]->user_data == 12 && !batch[1], "a batch of two");
    print_cast("shape", world.shape_cast(collide::Shape::sphere(collide::sphere(Vec3{15, 5, 0}, 0.5f)), PhysVec3{0, -6, 0}));
    print_cast("sphere", world.shape_cast_sphere(collide::sphere(Vec3{3, 5, 0}, 0.5f), PhysVec3{0, -6, 0}));
    print_cast("capsule", world.shape_cast_capsule(collide::capsule(Vec3{9, 5, 0}, Vec3{9, 6, 0}, 0.25f),
                                                   PhysVec3{0, -6, 0}));
    print_cast("crate", world.shape_cast_box(collide::aabb(Vec3{-0.5f, 5, -0.5f}, Vec3{0.5f, 6, 0.5f}),
                                             PhysVec3{0, -6, 0}));

    // Overlaps and the nearest collider.
    std::printf("list name=overlap users=%s\n",
                users_of(world.overlap(collide::Shape::box(collide::aabb(Vec3{-1, -1, -1}, Vec3{7, 1, 1})))).c_str());
    std::printf("list name=overlap_box users=%s\n",
                users_of(world.overlap_box(collide::aabb(Vec3{8, -1, -1}, Vec3{10, 1, 1}))).c_str());
    std::printf("list name=overlap_sphere users=%s\n",
                users_of(world.overlap_sphere(collide::sphere(Vec3{15, 0, 0}, 0.5f))).c_str());
    std::printf("list name=overlap_capsule users=%s\n",
                users_of(world.overlap_capsule(collide::capsule(Vec3{18, 0, 0}, Vec3{21, 0, 0}, 0.2f))).c_str());
    std::printf("list name=overlap_obb users=%s\n",
                users_of(world.overlap_obb(PhysObb{{12, 0, 0}, {0, 0, 0, 1}, {0.5f, 0.5f, 0.5f}})).c_str());
    const std::optional<collide::Closest> nearest =
        world.closest(collide::Shape::sphere(collide::sphere(Vec3{9, 3, 0}, 0.5f)), 10.0f);
    expect(nearest && nearest->user_data == 13 && near(nearest->distance.distance, 2.0f), "the nearest to a ball");
    const std::optional<collide::Closest> nearest_point = world.closest_point(PhysVec3{3, 3, 0}, 10.0f);
    expect(nearest_point && nearest_point->user_data == 11 && near(nearest_point->distance.distance, 2.0f),
           "the nearest to a point");
    expect(near(world.distance(box, ball).distance, 1.0f), "box to ball");
    expect(!world.contact(box, ball), "box and ball apart");
    const collide::Shape unit_ball = collide::Shape::sphere(collide::sphere(Vec3{0, 0, 0}, 1.0f));
    const collide::Shape wall = collide::Shape::box(collide::aabb(Vec3{0.5f, -2, -2}, Vec3{2, 2, 2}));
    const std::optional<PhysContact> touching = collide::shape_contact(unit_ball, wall);
    expect(touching && near(touching->depth, 0.5f), "a world-free contact");
    expect(near(collide::shape_distance(unit_ball, collide::Shape::sphere(collide::sphere(Vec3{3, 0, 0}, 1.0f))).distance,
                1.0f),
           "a world-free distance");

    // The book's free geometry.
    const PhysPlane floor_plane = collide::geom::plane_from_points(PhysVec3{0, 2, 0}, PhysVec3{0, 2, 1}, PhysVec3{1, 2, 0});
    expect(near(collide::geom::signed_distance(floor_plane, PhysVec3{5, 7, 0}), 5.0f), "a signed distance");
    expect(collide::geom::polygon_contains({{0, 0}, {2, 0}, {2, 2}, {0, 2}}, PhysVec2{2, 1}), "an edge point is inside");
    const PhysSegmentClosest closest_points = collide::geom::segment_closest_points(
        collide::segment(Vec3{0, 0, 0}, Vec3{2, 0, 0}), collide::segment(Vec3{1, 1, -1}, Vec3{1, 1, 1}));
    expect(near(closest_points.distance_squared, 1.0f) && near(closest_points.s, 0.5f), "crossing segments");
    expect(near(collide::geom::segment_point_distance_squared(collide::segment(Vec3{0, 0, 0}, Vec3{4, 0, 0}),
                                                               PhysVec3{2, 3, 0}),
                9.0f),
           "a point above a segment");
    expect(near(collide::geom::box_point_distance_squared(collide::aabb(Vec3{0, 0, 0}, Vec3{1, 1, 1}), PhysVec3{0.5f, 0.5f, 3}),
                4.0f),
           "a point above a box");
    const std::optional<float> met = collide::geom::swept_spheres(collide::sphere(Vec3{0, 0, 0}, 1.0f), PhysVec3{8, 0, 0},
                                                                  collide::sphere(Vec3{10, 0, 0}, 1.0f), PhysVec3{-8, 0, 0});
    expect(met && near(*met, 0.5f), "swept spheres meet halfway");
    expect(collide::geom::intersects(unit_ball, wall), "a ball in a wall");
    const std::optional<collide::geom::SegmentHit> entered =
        collide::geom::segment_cast(collide::segment(Vec3{-5, 0, 0}, Vec3{5, 0, 0}), wall);
    expect(entered && near(entered->t, 0.55f) && near(entered->normal.x, -1.0f), "a segment into a wall");

    // The character: a capsule 0.1 inside the box's side, walking.
    const collide::Slide slide = world.move_and_slide(
        collide::Shape::capsule(collide::capsule(Vec3{-1.15f, -0.5f, 0}, Vec3{-1.15f, 0.5f, 0}, 0.25f)),
        PhysVec3{0, 0, 1});
    std::printf("slide delta=%.4f,%.4f,%.4f hits=%zu first_normal=%.4f,%.4f,%.4f\n", slide.delta.x, slide.delta.y,
                slide.delta.z, slide.hits.size(), slide.hits.empty() ? 0.0f : slide.hits[0].normal.x,
                slide.hits.empty() ? 0.0f : slide.hits[0].normal.y, slide.hits.empty() ? 0.0f : slide.hits[0].normal.z);
    const collide::CapsuleSlide capsule_slide =
        world.move_and_slide_capsule(collide::capsule(Vec3{-3, -0.5f, 0}, Vec3{-3, 0.5f, 0}, 0.25f), PhysVec3{4, 0, 0});
    expect(capsule_slide.hits == 1 && near(capsule_slide.delta.x, 1.75f - 0.001f), "the capsule stops at the box");

    // Pairs three ways, and their events as the crates part.
    const collide::PairEventCounts first = world.update_pair_events();
    std::vector<collide::Pair> tree;
    world.pairs_into(tree);
    std::size_t called = 0;
    world.find_pairs([&called](const collide::Pair&) { ++called; });
    std::size_t pairwise_called = 0;
    world.test_pairwise([&pairwise_called](const collide::Pair&) { ++pairwise_called; });
    std::size_t sweep_called = 0;
    world.test_sweep_and_prune([&sweep_called](const collide::Pair&) { ++sweep_called; });
    std::vector<collide::Pair> pairwise;
    world.pairwise_into(pairwise);
    const std::vector<collide::Pair> sweep = world.sweep_and_prune();
    expect(tree.size() == called && pairwise.size() == pairwise_called && sweep.size() == sweep_called,
           "callbacks and vectors agree");
    expect(world.pairs_began().size() == first.began, "the began list");
    world.set_transforms({crates[1]}, {collide::transform(Vec3{0, 10, 0}, PhysQuat{0, 0, 0, 1})});
    const collide::PairEventCounts second = world.update_pair_events();
    expect(world.pairs_ended().size() == second.ended && second.ended >= 1, "the crates parted");
    std::printf("pairs tree=%zu pairwise=%zu sweep=%zu began=%zu ended=%zu\n", tree.size(), pairwise.size(),
                sweep.size(), first.began, second.ended);

    // Shapes replaced, one and many; a collider removed.
    world.set_shape(ball, collide::Shape::sphere(collide::sphere(Vec3{0, 0, 0}, 0.5f)));
    world.set_sphere(ball, collide::sphere(Vec3{0, 0, 0}, 0.75f));
    world.set_box(box, collide::aabb(Vec3{-1, -1, -1}, Vec3{1, 1, 1}));
    world.set_capsule(crates[0], collide::capsule(Vec3{0, 0, 0}, Vec3{0, 1, 0}, 0.5f));
    world.set_shapes({rocks[0], rocks[1]}, {collide::Shape::hull(rock), rock_shape});
    world.set_transform(box, collide::transform(Vec3{0, 0, 0}, PhysQuat{0, 0, 0, 1}));
    world.remove(crates[1]);
    expect(!world.contains(crates[1]) && world.size() == 13, "a crate removed");

    // Debug drawing: the box alone is its 12 edges; the whole world with
    // bounds and tree draws more; a hit is a point and its normal.
    {
        collide::World single;
        single.add_box(collide::aabb(Vec3{0, 0, 0}, Vec3{1, 1, 1}));
        std::size_t lines = 0;
        single.debug_draw([&lines](const PhysVec3&, const PhysVec3&, std::uint32_t) { ++lines; });
        expect(lines == 12, "a box is drawn as its 12 edges");
        std::size_t everything = 0;
        world.debug_draw([&everything](const PhysVec3&, const PhysVec3&, std::uint32_t) { ++everything; },
                         PHYS_DEBUG_DRAW_ALL);
        std::size_t hit_lines = 0;
        collide::debug_draw_hit(*world.segment_cast(Vec3{0, 5, 0}, Vec3{0, -1.5f, 0}),
                                [&hit_lines](const PhysVec3&, const PhysVec3&, std::uint32_t) { ++hit_lines; });
        std::printf("draw box_lines=%zu world_lines_positive=%d hit_lines=%zu\n", lines, everything > 100 ? 1 : 0,
                    hit_lines);
        expect(hit_lines == 4, "a hit is a point and its normal");
    }

    // Terrain: a 3 x 3 height field with a bump and one hole, moved so its
    // centre sample is at the origin.
    {
        collide::World terrain;
        const collide::HeightField hills = collide::HeightField::from_heights(
            3, 3, {0, 0, 0, 0, 1, 0, 0, 0, 0}, PhysVec3{1, 1, 1}, {0, 0, 0, 1});
        const collide::Collider ground = terrain.add(collide::Shape::heightfield(hills),
                                                     collide::ColliderDesc().with_translation(Vec3{-1, 0, -1}));
        const auto top = terrain.segment_cast(Vec3{0, 5, 0}, Vec3{0, -5, 0});
        expect(top && top->point.y == 1.0f, "a ground probe lands on the bump's top");
        expect(!terrain.segment_cast(Vec3{0.5f, 5, 0.5f}, Vec3{0.5f, -5, 0.5f}), "it falls through the hole");
        expect(terrain.shape(ground).kind() == PHYS_SHAPE_HEIGHTFIELD, "the shape comes back");
        std::printf("terrain top=%.1f\n", top ? top->point.y : -1.0f);
    }

    // Compound: a table (a top and four legs) as one collider resting 0.01
    // deep in a floor; every answer names the child by its index.
    {
        collide::World room;
        const PhysQuat unturned{0, 0, 0, 1};
        const collide::Shape leg = collide::Shape::box(collide::aabb(Vec3{-0.1f, -0.5f, -0.1f}, Vec3{0.1f, 0.5f, 0.1f}));
        const collide::Shape top = collide::Shape::box(collide::aabb(Vec3{-1.2f, 0, -1.2f}, Vec3{1.2f, 0.1f, 1.2f}));
        const collide::Compound table = collide::Compound::from_children(
            {top, leg, leg, leg, leg},
            {collide::transform(Vec3{0, 1, 0}, unturned), collide::transform(Vec3{-1, 0.5f, -1}, unturned),
             collide::transform(Vec3{1, 0.5f, -1}, unturned), collide::transform(Vec3{-1, 0.5f, 1}, unturned),
             collide::transform(Vec3{1, 0.5f, 1}, unturned)});
        room.add_box(collide::aabb(Vec3{-5, -1, -5}, Vec3{5, 0, 5}));
        const collide::Collider furniture = room.add(collide::Shape::compound(table),
                                                     collide::ColliderDesc().with_translation(Vec3{0, -0.01f, 0}));
        const auto down = room.segment_cast(Vec3{0.3f, 5, 0.2f}, Vec3{0.3f, -5, 0.2f});
        expect(down && down->collider == furniture && down->sub_shape == 0, "a shot from above meets the top");
        const std::vector<collide::PairManifold> legs = room.contact_manifolds();
        bool each_leg = legs.size() == 4;
        for (std::size_t i = 0; each_leg && i < legs.size(); ++i) {
            each_leg = legs[i].manifold.sub_shapes[1] == i + 1 && legs[i].manifold.points.size() == 4;
        }
        expect(each_leg, "the table stands on four legs, four points each");
        std::printf("compound legs=%zu top=%u\n", legs.size(), down ? down->sub_shape : 99u);
    }

    // Manifolds: a crate resting 0.1 deep in a floor touches at its four
    // bottom corners, with or without a world.
    {
        collide::World stack;
        const PhysAabb floor_box = collide::aabb(Vec3{-5, -1, -5}, Vec3{5, 0, 5});
        const PhysAabb crate_box = collide::aabb(Vec3{0, -0.1f, 0}, Vec3{1, 0.9f, 1});
        const collide::Collider floor_collider = stack.add_box(floor_box);
        const collide::Collider crate_collider = stack.add_box(crate_box);
        const auto m = stack.contact_manifold(floor_collider, crate_collider);
        expect(m && m->points.size() == 4 && m->normal.y == 1.0f, "a crate touches at its four corners");
        const std::vector<collide::PairManifold> all = stack.contact_manifolds();
        expect(all.size() == 1 && all[0].manifold.points.size() == 4, "the one touching pair's manifold");
        const auto free_standing = collide::shape_manifold(collide::Shape::box(floor_box), collide::Shape::box(crate_box));
        expect(free_standing && free_standing->points.size() == 4, "the same without a world");
        std::printf("manifold points=%zu\n", m ? m->points.size() : std::size_t{0});
    }

    // Snapshots: the world as bytes and back; the copy answers as the
    // original, under the original's handles, and hashes alike.
    {
        const std::vector<std::uint8_t> bytes = world.save();
        const collide::World copy = collide::World::load(bytes);
        const auto here = world.segment_cast(Vec3{0, 5, 0}, Vec3{0, -1.5f, 0});
        const auto there = copy.segment_cast(Vec3{0, 5, 0}, Vec3{0, -1.5f, 0});
        expect(copy.get() != nullptr && copy.size() == world.size(), "a snapshot loads");
        expect(here && there && here->collider == there->collider && here->t == there->t, "the copy answers alike");
        expect(copy.state_hash() == world.state_hash(), "and hashes alike");
        std::printf("snapshot bytes_positive=%d same_hash=%d\n", bytes.empty() ? 0 : 1,
                    copy.state_hash() == world.state_hash() ? 1 : 0);
    }

    // Mistakes: refused, the world unchanged.
    refused("stale", PHYS_ERROR_STALE_HANDLE, [&] { world.remove(crates[1]); });
    refused("inverted", PHYS_ERROR_INVERTED_BOX,
            [&] { (void)world.add_box(collide::aabb(Vec3{1, 1, 1}, Vec3{0, 0, 0})); });
    refused("lengths", PHYS_ERROR_INVALID_ARGUMENT, [&] { world.set_transforms({box, ball}, {}); });
    refused("hull", PHYS_ERROR_INVALID_ARGUMENT,
            [&] { (void)collide::Hull::from_points(std::vector<Vec3>{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}); });
    refused("snapshot", PHYS_ERROR_INVALID_ARGUMENT,
            [&] { (void)collide::World::load(std::vector<std::uint8_t>{1, 2, 3, 4, 5, 6, 7, 8, 9}); });
    refused("compound", PHYS_ERROR_INVALID_ARGUMENT,
            [&] { (void)collide::Compound::from_children({collide::Shape::box(collide::aabb(Vec3{0, 0, 0}, Vec3{1, 1, 1}))}, {}); });
    refused("heightfield", PHYS_ERROR_INVALID_ARGUMENT,
            [&] { (void)collide::HeightField::from_heights(1, 3, {0, 0, 0}, PhysVec3{1, 1, 1}); });
    expect(world.size() == 13, "refusals change nothing");

    std::printf("summary checks=%d failed=%d %s\n", g_checks, g_failed, g_failed == 0 ? "ok" : "FAILED");
    return g_failed == 0 ? 0 : 1;
}
