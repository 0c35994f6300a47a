// cpp_wrapper.cpp: collide through bindings/cpp/collide.hpp, with the game's
// own math types (a float vector, a double-precision point, a quaternion).
//
// A small level (floor, a wall turned 45 degrees, a sphere behind it, a
// capsule, two crates) is cast against, paired three ways, moved, and fed
// bad input on purpose; tests/cpp_wrapper.rs parses the lines:
//
//   version lib=V header=V
//   aabb name=NAME min=x,y,z max=x,y,z
//   cast name=NAME hit=ENTITY t=T point=x,y,z normal=x,y,z   (or hit=none)
//   pairs round=R pairwise=A-B,... sweep_and_prune=... vector=... count=N
//   error op=NAME status=S message=...
//   exception caught=MESSAGE delivered=N
//   key_order pairs=N ordered=N sorted=0|1
//   move size_after=N source_error=S
//   summary checks=N failed=N ok|FAILED
//
// A failed check prints to stderr; the exit status is then 1.

#include "collide.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <type_traits>
#include <unordered_set>
#include <vector>

// ---------------------------------------------------------------------------
// The game's types, which collide has never heard of.

struct Vec3 {
    float x, y, z;
};

struct Point {  // double precision, as a level editor might keep it
    double x, y, z;
};

struct Quat {
    float x, y, z, w;

    // The rotation by angle (radians) about a unit axis.
    static Quat about(const Vec3& axis, float angle) {
        float s = std::sin(angle / 2.0f);
        return Quat{axis.x * s, axis.y * s, axis.z * s, std::cos(angle / 2.0f)};
    }
};

struct Entity {
    const char* name;
};

// World is move-only.
static_assert(!std::is_copy_constructible_v<collide::World> && !std::is_copy_assignable_v<collide::World>);
static_assert(std::is_nothrow_move_constructible_v<collide::World>);
static_assert(std::is_nothrow_move_assignable_v<collide::World>);

// ---------------------------------------------------------------------------
// Checks.

static int g_checks = 0;
static int g_failed = 0;

static void expect(bool ok, const std::string& what) {
    ++g_checks;
    if (!ok) {
        ++g_failed;
        std::fprintf(stderr, "FAIL: %s\n", what.c_str());
    }
}

static bool near(float a, float b) { return std::fabs(a - b) <= 1e-4f; }

static bool near(const PhysVec3& a, const Vec3& b) { return near(a.x, b.x) && near(a.y, b.y) && near(a.z, b.z); }

static std::string format(const PhysVec3& v) {
    char text[64];
    std::snprintf(text, sizeof text, "%.6f,%.6f,%.6f", v.x, v.y, v.z);
    return text;
}

static const char* name_of(std::uint64_t user_data) { return collide::from_user_data<Entity>(user_data)->name; }

static std::string describe(const std::vector<collide::Pair>& pairs) {
    std::string out;
    for (const collide::Pair& p : pairs) {
        out += (out.empty() ? "" : ",") + std::string(name_of(p.user_a)) + "-" + name_of(p.user_b);
    }
    return out.empty() ? "none" : out;
}

static bool same(const std::vector<collide::Pair>& x, const std::vector<collide::Pair>& y) {
    if (x.size() != y.size()) {
        return false;
    }
    for (std::size_t i = 0; i < x.size(); ++i) {
        if (x[i].a != y[i].a || x[i].b != y[i].b || x[i].user_a != y[i].user_a || x[i].user_b != y[i].user_b) {
            return false;
        }
    }
    return true;
}

// Runs op, expecting it to fail with status (with exceptions: to throw
// collide::Error; without: to leave it in collide::last_status()); prints it.
template <class Op>
static void expect_error(const char* op_name, PhysStatus status, Op&& op) {
#if COLLIDE_EXCEPTIONS
    try {
        op();
        expect(false, std::string(op_name) + ": no exception");
    } catch (const collide::Error& e) {
        std::printf("error op=%s status=%u message=%s\n", op_name, static_cast<unsigned>(e.status()),
                    e.message().c_str());
        expect(e.status() == status, std::string(op_name) + ": status " + std::to_string(e.status()));
        expect(std::strstr(e.what(), phys_status_string(status)) != nullptr, std::string(op_name) + ": what()");
    }
#else
    op();
    const collide::Status& last = collide::last_status();
    std::printf("error op=%s status=%u message=%s\n", op_name, static_cast<unsigned>(last.code), last.message.c_str());
    expect(last.code == status, std::string(op_name) + ": status " + std::to_string(last.code));
#endif
}

// ---------------------------------------------------------------------------
// The level.

// What the colliders' user data point to.
static struct {
    Entity floor{"floor"}, wall{"wall"}, ball{"ball"}, pillar{"pillar"};
    Entity crate_a{"crate_a"}, crate_b{"crate_b"}, boulder{"boulder"};
} entities;

struct Level {
    collide::Collider floor, wall, ball, pillar, crate_a, crate_b;
};

// A collider description whose user data points to entity.
static collide::ColliderDesc tagged(Entity& entity) {
    return collide::ColliderDesc().with_user_data(collide::to_user_data(&entity));
}

static Level build(collide::World& world) {
    const Vec3 up{0.0f, 1.0f, 0.0f};
    Level level;
    // Floor: the box [-50, 50] x [-1, 0.25] x [-50, 50]; what stands on it
    // from y = 0 sinks into it.
    level.floor = world.add_box(collide::aabb(Point{-50, -1, -50}, Point{50, 0.25, 50}), tagged(entities.floor));
    // Wall: a 2 x 5 x 20 slab at x = 20, turned 45 degrees about y; its
    // world box is the bounds of the turned slab.
    level.wall = world.add_box(
        collide::aabb(Vec3{-1, 0, -10}, Vec3{1, 5, 10}),
        tagged(entities.wall).with_translation(Vec3{20, 0, 0}).with_rotation(Quat::about(up, 3.14159265f / 4)));
    // Ball: radius 1.5 at (40, 2, 0), behind the wall, above the floor.
    level.ball = world.add_sphere(collide::sphere(Vec3{0, 0, 0}, 1.5f),
                                  tagged(entities.ball).with_translation(Point{40, 2, 0}));
    // Pillar: a capsule from (0, 0, -10) to (0, 4, -10), radius 1.
    level.pillar =
        world.add_capsule(collide::capsule(Vec3{0, 0, -10}, Vec3{0, 4, -10}, 1.0f), tagged(entities.pillar));
    // Two crates in the floor, apart: [-11, -9] x [0, 2] x [9, 11], and the
    // same 4 further east.
    const PhysAabb crate = collide::aabb(Vec3{-1, 0, -1}, Vec3{1, 2, 1});
    level.crate_a = world.add_box(crate, tagged(entities.crate_a).with_translation(Vec3{-10, 0, 10}));
    level.crate_b = world.add_box(crate, tagged(entities.crate_b).with_translation(Vec3{-6, 0, 10}));
    return level;
}

// ---------------------------------------------------------------------------

static void check_casts(const collide::World& world, const Level& level) {
    const float h = std::sqrt(0.5f);
    struct Case {
        const char* name;
        Vec3 from, to;
        collide::QueryFilter filter;
        const Entity* hit;
        Vec3 point, normal;
    };
    // The turned wall's world box has half-width (1 + 10) / sqrt2 in x, so
    // its near face is at x = 20 - 11 h.
    const float face = 20.0f - 11.0f * h;
    const Case cases[] = {
        {"east", {0, 2, 0}, {30, 2, 0}, {}, &entities.wall, {face, 2, 0}, {-1, 0, 0}},
        {"east_past_wall", {0, 2, 0}, {50, 2, 0}, collide::QueryFilter().excluding(level.wall), &entities.ball,
         {38.5f, 2, 0}, {-1, 0, 0}},
        {"down", {5, 10, 5}, {5, -10, 5}, {}, &entities.floor, {5, 0.25f, 5}, {0, 1, 0}},
        {"north", {0, 2, 0}, {0, 2, -30}, {}, &entities.pillar, {0, 2, -9}, {0, 0, 1}},
        {"up", {0, 1, 0}, {0, 30, 0}, {}, nullptr, {}, {}},
        // Category 1 with mask 2: nothing in the level is in category 2.
        {"masked", {0, 2, 0}, {30, 2, 0}, collide::QueryFilter::with_bits(1, 2), nullptr, {}, {}},
    };
    for (const Case& c : cases) {
        std::optional<collide::Hit> hit = world.segment_cast(c.from, c.to, c.filter);
        if (!hit) {
            std::printf("cast name=%s hit=none\n", c.name);
            expect(c.hit == nullptr, std::string("cast ") + c.name + ": missed");
            continue;
        }
        std::printf("cast name=%s hit=%s t=%.6f point=%s normal=%s\n", c.name, name_of(hit->user_data), hit->t,
                    format(hit->point).c_str(), format(hit->normal).c_str());
        expect(c.hit != nullptr && hit->user_data == collide::to_user_data(c.hit),
               std::string("cast ") + c.name + ": hit " + name_of(hit->user_data));
        expect(near(hit->point, c.point) && near(hit->normal, c.normal), std::string("cast ") + c.name + ": geometry");
        // The hit names its collider, whose user data is the entity's.
        expect(world.user_data(hit->collider) == hit->user_data, std::string("cast ") + c.name + ": collider");
        // Results convert back to the game's types.
        const Vec3 point = collide::vec3_as<Vec3>(hit->point);
        expect(near(point.x, c.point.x), std::string("cast ") + c.name + ": vec3_as");
    }
}

static void print_aabb(const collide::World& world, collide::Collider collider) {
    const PhysAabb box = world.world_aabb(collider);
    std::printf("aabb name=%s min=%s max=%s\n", name_of(world.user_data(collider)), format(box.min).c_str(),
                format(box.max).c_str());
}

// The three ways to get pairs; they must agree. Returns the pairs.
static std::vector<collide::Pair> check_pairs(collide::World& world, int round) {
    std::vector<collide::Pair> by_lambda;
    world.test_pairwise([&by_lambda](const collide::Pair& p) { by_lambda.push_back(p); });

    std::vector<collide::Pair> by_function;
    const std::function<void(const collide::Pair&)> collect = [&by_function](const collide::Pair& p) {
        by_function.push_back(p);
    };
    world.test_sweep_and_prune(collect);

    const std::vector<collide::Pair> by_vector = world.sweep_and_prune();
    std::printf("pairs round=%d pairwise=%s sweep_and_prune=%s vector=%s count=%zu\n", round,
                describe(by_lambda).c_str(), describe(by_function).c_str(), describe(by_vector).c_str(),
                by_lambda.size());
    expect(same(by_lambda, by_function) && same(by_lambda, by_vector),
           "round " + std::to_string(round) + ": the pair finders agree");
    for (const collide::Pair& p : by_lambda) {
        expect(p.a < p.b, "round " + std::to_string(round) + ": a pair comes in key order");
    }
    return by_lambda;
}

int main() {
    std::printf("version lib=%s header=%s\n", collide::version(), PHYS_VERSION_STRING);
    expect(std::strcmp(collide::version(), PHYS_VERSION_STRING) == 0, "library and header versions match");

    collide::World world;
    const Level level = build(world);
    expect(world.size() == 6, "six colliders");
    print_aabb(world, level.wall);
    print_aabb(world, level.ball);
    const float h = std::sqrt(0.5f);
    const PhysAabb wall_box = world.world_aabb(level.wall);
    expect(near(wall_box.min, Vec3{20 - 11 * h, 0, -11 * h}) && near(wall_box.max, Vec3{20 + 11 * h, 5, 11 * h}),
           "the turned wall's world box");

    check_casts(world, level);

    // Round 0: the wall, the pillar and the crates stand in the floor; the
    // ball floats above it.
    check_pairs(world, 0);
    // Round 1: crate_b moves west and stretches to 1.5 times its width
    // (per-axis scale) into crate_a, the ball drops into the floor, and the
    // pillar's mask empties, so it pairs with nothing.
    const Quat identity{0, 0, 0, 1};
    world.set_transform(level.crate_b, collide::transform(Vec3{-9, 0, 10}, identity, Vec3{1.5f, 1, 1}));
    world.set_transform(level.ball, collide::transform(Point{40, 1, 0}, identity));
    world.set_filter(level.pillar, 1, 0);
    check_pairs(world, 1);
    // Round 2: crate_a is removed, and crate_b becomes a boulder: a sphere
    // of radius 3 (4.5 under the scale) centred 3 above its origin.
    world.remove(level.crate_a);
    expect(!world.contains(level.crate_a) && world.contains(level.crate_b), "contains after remove");
    world.set_sphere(level.crate_b, collide::sphere(Vec3{0, 3, 0}, 3.0f));
    world.set_user_data(level.crate_b, collide::to_user_data(&entities.boulder));
    expect(world.user_data(level.crate_b) == collide::to_user_data(&entities.boulder), "user data set and read back");
    check_pairs(world, 2);

    // Handles hash and compare.
    std::unordered_set<collide::Collider> handles{level.floor, level.wall, level.ball, level.wall};
    expect(handles.size() == 3 && handles.count(level.ball) == 1, "handles in an unordered_set");
    expect(!collide::Collider() && level.floor, "the null handle is false, a real one true");

    // Errors arrive as collide::Error with the status and collide's message;
    // the world is unchanged after them.
    expect_error("add_inverted_box", PHYS_ERROR_INVERTED_BOX,
                 [&] { world.add_box(collide::aabb(Vec3{1, 0, 0}, Vec3{0, 1, 1})); });
    expect_error("remove_twice", PHYS_ERROR_STALE_HANDLE, [&] { world.remove(level.crate_a); });
    expect_error("cast_nan", PHYS_ERROR_NON_FINITE,
                 [&] { (void)world.segment_cast(Vec3{std::nanf(""), 0, 0}, Vec3{1, 0, 0}); });
    expect_error("null_handle", PHYS_ERROR_STALE_HANDLE, [&] { (void)world.user_data(collide::Collider()); });
    expect_error("unit_quaternion", PHYS_ERROR_INVALID_ARGUMENT,
                 [&] { world.set_transform(level.wall, collide::transform(Vec3{0, 0, 0}, Quat{0, 0, 0, 2})); });
    expect(world.size() == 5, "failed calls change nothing");
    {
        collide::World small(1);
        small.add_box(collide::aabb(Vec3{0, 0, 0}, Vec3{1, 1, 1}));
        expect_error("capacity", PHYS_ERROR_CAPACITY_EXCEEDED,
                     [&] { small.add_sphere(collide::sphere(Vec3{5, 5, 5}, 1.0f)); });
    }

#if COLLIDE_EXCEPTIONS
    // A callable's exception stops the delivery and comes out of the call.
    int delivered = 0;
    try {
        world.test_pairwise([&delivered](const collide::Pair&) {
            ++delivered;
            throw std::runtime_error("stop_after_first_pair");
        });
        expect(false, "the callable's exception was lost");
    } catch (const std::runtime_error& e) {
        std::printf("exception caught=%s delivered=%d\n", e.what(), delivered);
        expect(delivered == 1 && std::strcmp(e.what(), "stop_after_first_pair") == 0, "the exception comes through");
    }
#endif

    // Key order: six overlapping spheres, slot 1 removed and re-added three
    // times (its generation, the handle's high word, moves on each time).
    // Every pair is a < b, and the pairs come sorted by (a, b).
    {
        collide::World spheres;
        std::vector<collide::Collider> handles;
        for (int i = 0; i < 6; ++i) {
            handles.push_back(spheres.add_sphere(collide::sphere(Vec3{0.1f * static_cast<float>(i), 0, 0}, 1.0f)));
        }
        for (int i = 0; i < 3; ++i) {
            spheres.remove(handles[1]);
            handles[1] = spheres.add_sphere(collide::sphere(Vec3{0.15f, 0, 0}, 1.0f));
        }
        const std::vector<collide::Pair> pairs = spheres.pairwise();
        std::size_t ordered = 0;
        bool sorted = true;
        for (std::size_t i = 0; i < pairs.size(); ++i) {
            ordered += pairs[i].a < pairs[i].b && !(pairs[i].b < pairs[i].a) ? 1 : 0;
            if (i > 0) {
                const collide::Pair& p = pairs[i - 1];
                const collide::Pair& q = pairs[i];
                sorted = sorted && (p.a < q.a || (p.a == q.a && p.b < q.b));
            }
        }
        std::printf("key_order pairs=%zu ordered=%zu sorted=%d\n", pairs.size(), ordered, sorted ? 1 : 0);
        expect(pairs.size() == 15 && ordered == pairs.size(), "every pair is a < b in key order");
        expect(sorted, "pairs come sorted by (a, b) in key order");
    }

    // Moving a world moves the PhysWorld; the source holds none and says so.
    collide::World moved = std::move(world);
    expect(moved.size() == 5 && moved.contains(level.wall), "the moved-to world has the colliders");
    expect(world.get() == nullptr, "the moved-from world is empty");
    PhysStatus source_error = PHYS_OK;
#if COLLIDE_EXCEPTIONS
    try {
        (void)world.size();
    } catch (const collide::Error& e) {
        source_error = e.status();
    }
#else
    (void)world.size();
    source_error = collide::last_status().code;
#endif
    std::printf("move size_after=%zu source_error=%u\n", moved.size(), static_cast<unsigned>(source_error));
    expect(source_error == PHYS_ERROR_NULL_POINTER, "a moved-from world reports a null world");
    world = collide::World();
    expect(world.size() == 0, "a moved-from world can be assigned a new one");

    std::printf("summary checks=%d failed=%d %s\n", g_checks, g_failed, g_failed == 0 ? "ok" : "FAILED");
    return g_failed == 0 ? 0 : 1;
}
