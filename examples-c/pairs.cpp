// pairs.cpp: collide's pair finders from C++17, the way the book's
// PhysWorld::TestPairwise / TestSweepAndPrune hand pairs to a
// std::function<void(Actor*, Actor*)>.
//
// A world of overlapping boxes, spheres and capsules is queried four ways:
//   - phys_test_pairwise with a C++ lambda, through a captureless trampoline
//     that casts the context pointer back to the lambda;
//   - phys_test_sweep_and_prune with a std::function, the book's signature;
//   - phys_test_pairwise_into and phys_test_sweep_and_prune_into, first with
//     capacity 0 (PHYS_ERROR_BUFFER_TOO_SMALL and the total), then with a
//     std::vector of the right size.
// The four must agree. This is done for three rounds (as built, after a move,
// after a removal); tests/c_examples.rs parses the lines:
//
//   round R METHOD count=N pairs=ua-ub,ua-ub,...
//   round R METHOD_into probe=S total=N written=N pairs=...
//   round R agree count=N
//   exception caught=MESSAGE delivered=N
//   summary rounds=3 ok
//
// Any unexpected status or disagreement prints to stderr and exits with 1.

#include "collide.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <functional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

// ---------------------------------------------------------------------------
// Layout: collide's types mirror the book's, member for member.

struct Vector3 {
    float x, y, z;
};
struct Quaternion {
    float x, y, z, w;
};
struct AABB {
    Vector3 mMin, mMax;
};
struct LineSegment {
    Vector3 mStart, mEnd;
};

static_assert(sizeof(PhysVec3) == 12 && sizeof(PhysVec3) == sizeof(Vector3));
static_assert(offsetof(PhysVec3, z) == offsetof(Vector3, z));
static_assert(sizeof(PhysQuat) == 16 && sizeof(PhysQuat) == sizeof(Quaternion));
static_assert(offsetof(PhysQuat, w) == 12 && offsetof(Quaternion, w) == 12);
static_assert(sizeof(PhysAabb) == 24 && sizeof(PhysAabb) == sizeof(AABB));
static_assert(offsetof(PhysAabb, max) == offsetof(AABB, mMax));
static_assert(sizeof(PhysSegment) == 24 && sizeof(PhysSegment) == sizeof(LineSegment));
static_assert(offsetof(PhysSegment, end) == offsetof(LineSegment, mEnd));
static_assert(sizeof(PhysCollider) == 8);
static_assert(sizeof(PhysPair) == 32 && offsetof(PhysPair, b) == 16 && offsetof(PhysPair, user_b) == 24);
static_assert(std::is_trivially_copyable_v<PhysPair> && std::is_standard_layout_v<PhysPair>);

// ---------------------------------------------------------------------------
// Error handling.

[[noreturn]] static void fail(const std::string& what) {
    std::fprintf(stderr, "pairs: %s\n", what.c_str());
    std::exit(1);
}

static void check(PhysStatus status, const char* what) {
    if (status != PHYS_OK) {
        fail(std::string(what) + " failed: " + phys_status_string(status) + ": " + phys_last_error_message());
    }
}
#define CHECK(call) check((call), #call)

// ---------------------------------------------------------------------------
// Callbacks: a C function pointer plus a void* context, carrying a C++ callable.

/// Calls `f(a, user_a, b, user_b)` for each pair `finder` reports. The
/// trampoline is a captureless lambda (so it converts to PhysPairCallback)
/// that casts the context back to the callable. An exception must not cross
/// collide's frames: the trampoline catches it, skips the remaining pairs and
/// rethrows it once the finder has returned.
template <class World, class F>
static PhysStatus for_each_pair(PhysStatus (*finder)(World*, PhysPairCallback, void*), World* world, F&& f) {
#if defined(__cpp_exceptions)
    struct Context {
        std::remove_reference_t<F>* callable;
        std::exception_ptr error;
    } context{&f, nullptr};
    PhysPairCallback trampoline = [](void* ctx, PhysCollider a, uint64_t user_a, PhysCollider b, uint64_t user_b) {
        auto* context = static_cast<Context*>(ctx);
        if (context->error) {
            return;
        }
        try {
            (*context->callable)(a, user_a, b, user_b);
        } catch (...) {
            context->error = std::current_exception();
        }
    };
    PhysStatus status = finder(world, trampoline, &context);
    if (context.error) {
        std::rethrow_exception(context.error);
    }
    return status;
#else
    // Built without exceptions: nothing to carry.
    struct Context {
        std::remove_reference_t<F>* callable;
    } context{&f};
    PhysPairCallback trampoline = [](void* ctx, PhysCollider a, uint64_t user_a, PhysCollider b, uint64_t user_b) {
        (*static_cast<Context*>(ctx)->callable)(a, user_a, b, user_b);
    };
    return finder(world, trampoline, &context);
#endif
}

/// The book's `TestSweepAndPrune(std::function<void(Actor*, Actor*)>)`, with
/// user-data words standing in for actors.
static void test_sweep_and_prune(PhysWorld* world, const std::function<void(uint64_t, uint64_t)>& f) {
    CHECK(for_each_pair(phys_test_sweep_and_prune, world,
                        [&f](PhysCollider, uint64_t user_a, PhysCollider, uint64_t user_b) { f(user_a, user_b); }));
}

using Pairs = std::vector<PhysPair>;

static bool same_pair(const PhysPair& x, const PhysPair& y) {
    return x.a.bits == y.a.bits && x.b.bits == y.b.bits && x.user_a == y.user_a && x.user_b == y.user_b;
}

static bool same_pairs(const Pairs& x, const Pairs& y) {
    if (x.size() != y.size()) {
        return false;
    }
    for (std::size_t i = 0; i < x.size(); ++i) {
        if (!same_pair(x[i], y[i])) {
            return false;
        }
    }
    return true;
}

static std::string describe(const Pairs& pairs) {
    std::string out;
    for (const PhysPair& p : pairs) {
        if (!out.empty()) {
            out += ',';
        }
        out += std::to_string(p.user_a) + '-' + std::to_string(p.user_b);
    }
    return out.empty() ? "none" : out;
}

/// The caller-buffer path: ask with capacity 0 for the total, then fill a
/// vector of exactly that size. Prints the probe's status and the counts.
template <class World>
static Pairs pairs_into(PhysStatus (*finder)(World*, PhysPair*, std::size_t, std::size_t*, std::size_t*),
                        World* world, int round, const char* name) {
    std::size_t written = 12345, total = 0;
    PhysStatus probe = finder(world, nullptr, 0, &written, &total);
    if (probe == PHYS_ERROR_BUFFER_TOO_SMALL) {
        if (written != 12345) {
            fail(std::string(name) + ": *written was touched by a failing call");
        }
    } else {
        check(probe, name);  // PHYS_OK only when there is no pair at all
    }
    Pairs pairs(total);
    check(finder(world, pairs.data(), pairs.size(), &written, &total), name);
    if (written != total || total != pairs.size()) {
        fail(std::string(name) + ": written/total disagree with the probe");
    }
    std::printf("round %d %s probe=%u total=%zu written=%zu pairs=%s\n", round, name, static_cast<unsigned>(probe),
                total, written, describe(pairs).c_str());
    return pairs;
}

/// Runs the four finders, prints them, and checks they agree.
static std::size_t query_round(PhysWorld* world, int round) {
    Pairs pairwise;
    CHECK(for_each_pair(phys_test_pairwise, static_cast<const PhysWorld*>(world),
                        [&](PhysCollider a, uint64_t user_a, PhysCollider b, uint64_t user_b) {
                            pairwise.push_back(PhysPair{a, user_a, b, user_b});
                        }));
    std::printf("round %d pairwise count=%zu pairs=%s\n", round, pairwise.size(), describe(pairwise).c_str());

    // The book's std::function form sees user data only; look the handles
    // up through the pairwise result to compare whole records.
    Pairs sweep;
    test_sweep_and_prune(world, [&](uint64_t user_a, uint64_t user_b) {
        for (const PhysPair& p : pairwise) {
            if (p.user_a == user_a && p.user_b == user_b) {
                sweep.push_back(p);
                return;
            }
        }
        sweep.push_back(PhysPair{{0}, user_a, {0}, user_b});  // a pair pairwise did not report
    });
    std::printf("round %d sweep_and_prune count=%zu pairs=%s\n", round, sweep.size(), describe(sweep).c_str());

    Pairs pairwise_buffer =
        pairs_into(phys_test_pairwise_into, static_cast<const PhysWorld*>(world), round, "pairwise_into");
    Pairs sweep_buffer = pairs_into(phys_test_sweep_and_prune_into, world, round, "sweep_and_prune_into");

    if (!same_pairs(pairwise, sweep) || !same_pairs(pairwise, pairwise_buffer) ||
        !same_pairs(pairwise, sweep_buffer)) {
        fail("round " + std::to_string(round) + ": the pair finders disagree");
    }
    std::printf("round %d agree count=%zu\n", round, pairwise.size());
    return pairwise.size();
}

// ---------------------------------------------------------------------------
// The scene.

static PhysColliderDesc at(uint64_t user, float x, float y, float z) {
    PhysColliderDesc desc = phys_collider_desc_default();
    desc.transform.translation = PhysVec3{x, y, z};
    desc.user_data = user;
    return desc;
}

static PhysCollider add_box(PhysWorld* world, const PhysColliderDesc& desc, float half) {
    PhysAabb box{{-half, -half, -half}, {half, half, half}};
    PhysCollider handle{};
    CHECK(phys_add_box(world, &box, &desc, &handle));
    return handle;
}

static PhysCollider add_sphere(PhysWorld* world, const PhysColliderDesc& desc, float radius) {
    PhysSphere sphere{{0.0f, 0.0f, 0.0f}, radius};
    PhysCollider handle{};
    CHECK(phys_add_sphere(world, &sphere, &desc, &handle));
    return handle;
}

static PhysCollider add_capsule(PhysWorld* world, const PhysColliderDesc& desc, PhysVec3 half_axis, float radius) {
    PhysCapsule capsule{{{-half_axis.x, -half_axis.y, -half_axis.z}, half_axis}, radius};
    PhysCollider handle{};
    CHECK(phys_add_capsule(world, &capsule, &desc, &handle));
    return handle;
}

struct Scene {
    PhysCollider b;  // removed in round 2
    PhysCollider f;  // moved in round 1
};

// User data 1..10, added in that order (so key order is user order):
//   1 box [0,2]^3            2 box [1,3]^3            3 sphere (4,1,1) r 1.2
//   4 capsule x=6,z=0, y 0..4, r 0.5                  5 sphere (7,2,0) r 0.6
//   6 box [10,11]^3 (alone)  7 capsule (-1,-1,-1)..(-3,-3,-3) r 2
//   8 sphere (2.8,2.8,-0.5) r 1: its bounds overlap box 1, its shape does not
//   9 box [0.5,1.5]^3 and 10 box [1.2,1.8]^3: category 2, mask 2, so they
//     pair with each other but not with 1 and 2, which they overlap.
// Overlapping pairs: 1-2, 1-7, 2-3, 4-5, 9-10.
static Scene build(PhysWorld* world) {
    Scene scene{};
    add_box(world, at(1, 1.0f, 1.0f, 1.0f), 1.0f);
    scene.b = add_box(world, at(2, 2.0f, 2.0f, 2.0f), 1.0f);
    add_sphere(world, at(3, 4.0f, 1.0f, 1.0f), 1.2f);
    add_capsule(world, at(4, 6.0f, 2.0f, 0.0f), PhysVec3{0.0f, 2.0f, 0.0f}, 0.5f);
    add_sphere(world, at(5, 7.0f, 2.0f, 0.0f), 0.6f);
    scene.f = add_box(world, at(6, 10.5f, 10.5f, 10.5f), 0.5f);
    add_capsule(world, at(7, -2.0f, -2.0f, -2.0f), PhysVec3{1.0f, 1.0f, 1.0f}, 2.0f);
    add_sphere(world, at(8, 2.8f, 2.8f, -0.5f), 1.0f);
    PhysColliderDesc layer2 = at(9, 1.0f, 1.0f, 1.0f);
    layer2.category_bits = 2;
    layer2.mask_bits = 2;
    add_box(world, layer2, 0.5f);
    layer2 = at(10, 1.5f, 1.5f, 1.5f);
    layer2.category_bits = 2;
    layer2.mask_bits = 2;
    add_box(world, layer2, 0.3f);
    return scene;
}

int main() {
    PhysWorld* world = nullptr;
    CHECK(phys_world_create(&world));
    Scene scene = build(world);

    const std::size_t expected[] = {5, 6, 4};
    for (int round = 0; round < 3; ++round) {
        if (round == 1) {
            // Box 6 moves onto sphere 5: [6.8,7.8] x [2.2,3.2] x [-0.5,0.5].
            PhysTransform moved{{7.3f, 2.7f, 0.0f}, {0.0f, 0.0f, 0.0f, 1.0f}, {1.0f, 1.0f, 1.0f}};
            CHECK(phys_set_transform(world, scene.f, &moved));
        } else if (round == 2) {
            CHECK(phys_remove(world, scene.b));
        }
        std::size_t count = query_round(world, round);
        if (count != expected[round]) {
            fail("round " + std::to_string(round) + ": expected " + std::to_string(expected[round]) + " pairs, got " +
                 std::to_string(count));
        }
    }

#if defined(__cpp_exceptions)
    // An exception thrown by the callable is carried over collide's frames,
    // not through them, and rethrown here.
    int delivered = 0;
    try {
        for_each_pair(phys_test_pairwise, static_cast<const PhysWorld*>(world),
                      [&](PhysCollider, uint64_t, PhysCollider, uint64_t) {
                          ++delivered;
                          throw std::runtime_error("stop_after_first_pair");
                      });
        fail("the callback's exception was lost");
    } catch (const std::runtime_error& e) {
        std::printf("exception caught=%s delivered=%d\n", e.what(), delivered);
    }
#endif

    phys_world_destroy(world);
    std::printf("summary rounds=3 ok\n");
    return 0;
}
