// collide.hpp: a header-only C++17 wrapper over collide's C ABI (collide.h).
//
//   collide::World world;                                   // owns a PhysWorld
//   collide::Collider wall = world.add_box(collide::aabb(lo, hi),
//                                          collide::ColliderDesc().with_translation(pos).with_user_data(7));
//   if (auto hit = world.segment_cast(from, to)) { use(hit->point, hit->normal); }
//   world.test_sweep_and_prune([&](const collide::Pair& p) { touch(p.user_a, p.user_b); });
//
// Errors are exceptions. A failing collide call is a caller's mistake (a NaN
// coordinate, an inverted box, a stale handle, a full world), not an outcome
// to test for every frame, and World's constructor can only report by
// throwing. So every method checks the PhysStatus and throws collide::Error
// (a std::runtime_error) carrying the status and collide's own message
// (phys_last_error_message); as the C ABI guarantees, the world is then
// unchanged. Queries throw only on invalid input. A build without exceptions
// should call collide.h directly.
//
// - World is move-only and destroys its PhysWorld; a moved-from World holds
//   none, and its methods throw Error(PHYS_ERROR_NULL_POINTER).
// - Collider is a typed handle (the null handle by default); Pair and Hit
//   carry Colliders. Geometry travels as collide.h's plain structs.
// - vec3(v) and quat(q) adapt any type with members x, y, z (and w), of any
//   arithmetic type, so a game passes its own math types; aabb, segment,
//   sphere, capsule and transform build collide's structs from them, and
//   vec3_as<V>(p) converts a result back.
// - The pair tests take any callable f(const Pair&). It may throw: collide's
//   C callback must not unwind through collide, so the exception is held, the
//   remaining pairs are skipped, and it is rethrown when collide returns.
// - Thread rules are collide.h's: const methods only read and may run
//   concurrently on one world; the others need exclusive access.
#pragma once

#include "collide.h"

#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace collide {

// A failed collide call: its status and collide's message.
class Error : public std::runtime_error {
public:
    Error(PhysStatus status, const char* call)
        : Error(status, call, phys_last_error_message()) {}

    PhysStatus status() const noexcept { return status_; }
    // phys_last_error_message() at the time of the failure.
    const std::string& message() const noexcept { return message_; }

private:
    Error(PhysStatus status, const char* call, std::string message)
        : std::runtime_error(std::string(call) + ": " + phys_status_string(status) + ": " + message),
          status_(status),
          message_(std::move(message)) {}

    PhysStatus status_;
    std::string message_;
};

namespace detail {

inline void check(PhysStatus status, const char* call) {
    if (status != PHYS_OK) {
        throw Error(status, call);
    }
}

template <class V, class = void>
struct has_xyz : std::false_type {};
template <class V>
struct has_xyz<V, std::void_t<decltype(std::declval<const V&>().x), decltype(std::declval<const V&>().y),
                              decltype(std::declval<const V&>().z)>> : std::true_type {};

template <class Q, class = void>
struct has_xyzw : std::false_type {};
template <class Q>
struct has_xyzw<Q, std::void_t<decltype(std::declval<const Q&>().x), decltype(std::declval<const Q&>().y),
                               decltype(std::declval<const Q&>().z), decltype(std::declval<const Q&>().w)>>
    : std::true_type {};

}  // namespace detail

// ---------------------------------------------------------------------------
// Adapters: any vector type with x, y, z, any quaternion type with x, y, z, w.

template <class V>
PhysVec3 vec3(const V& v) {
    static_assert(detail::has_xyz<V>::value, "collide::vec3 needs a type with members x, y and z");
    return PhysVec3{static_cast<float>(v.x), static_cast<float>(v.y), static_cast<float>(v.z)};
}

// A rotation, w last (x, y, z is the vector part).
template <class Q>
PhysQuat quat(const Q& q) {
    static_assert(detail::has_xyzw<Q>::value, "collide::quat needs a type with members x, y, z and w");
    return PhysQuat{static_cast<float>(q.x), static_cast<float>(q.y), static_cast<float>(q.z),
                    static_cast<float>(q.w)};
}

// A result in the caller's vector type, built as V{x, y, z}.
template <class V>
V vec3_as(const PhysVec3& v) {
    return V{v.x, v.y, v.z};
}

template <class V>
PhysAabb aabb(const V& min, const V& max) {
    return PhysAabb{vec3(min), vec3(max)};
}

template <class V>
PhysSegment segment(const V& start, const V& end) {
    return PhysSegment{vec3(start), vec3(end)};
}

template <class V>
PhysSphere sphere(const V& center, float radius) {
    return PhysSphere{vec3(center), radius};
}

// The capsule around the segment a-b.
template <class V>
PhysCapsule capsule(const V& a, const V& b, float radius) {
    return PhysCapsule{segment(a, b), radius};
}

// Translation, rotation and a uniform scale (the book's actor transform).
template <class V, class Q>
PhysTransform transform(const V& translation, const Q& rotation, float scale = 1.0f) {
    return PhysTransform{vec3(translation), quat(rotation), PhysVec3{scale, scale, scale}};
}

// Translation, rotation and a per-axis scale.
template <class V, class Q, class S, class = std::enable_if_t<detail::has_xyz<S>::value>>
PhysTransform transform(const V& translation, const Q& rotation, const S& scale) {
    return PhysTransform{vec3(translation), quat(rotation), vec3(scale)};
}

// A pointer as a user-data word, and back.
template <class T>
std::uint64_t to_user_data(T* pointer) noexcept {
    return static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(pointer));
}

template <class T>
T* from_user_data(std::uint64_t user_data) noexcept {
    return reinterpret_cast<T*>(static_cast<std::uintptr_t>(user_data));
}

inline const char* version() noexcept { return phys_version(); }

// ---------------------------------------------------------------------------
// Handles and records.

// A collider handle. Default-constructed, it is the null handle, which names
// no collider; a removed collider's handle stays stale forever.
class Collider {
public:
    constexpr Collider() noexcept = default;
    constexpr explicit Collider(PhysCollider raw) noexcept : raw_(raw) {}

    constexpr PhysCollider raw() const noexcept { return raw_; }
    constexpr std::uint64_t bits() const noexcept { return raw_.bits; }
    // Whether this is not the null handle (not whether it is alive: see
    // World::contains).
    constexpr explicit operator bool() const noexcept { return raw_.bits != 0; }

    friend constexpr bool operator==(Collider a, Collider b) noexcept { return a.raw_.bits == b.raw_.bits; }
    friend constexpr bool operator!=(Collider a, Collider b) noexcept { return !(a == b); }
    // Key order, the order of every pair (a before b) and of ties: by slot
    // index (the low 32 bits), then by the high word. Two live colliders of
    // a world never share a slot, so the index alone orders them.
    friend constexpr bool operator<(Collider a, Collider b) noexcept {
        const std::uint64_t slot_a = a.raw_.bits & 0xFFFFFFFFu;
        const std::uint64_t slot_b = b.raw_.bits & 0xFFFFFFFFu;
        return slot_a != slot_b ? slot_a < slot_b : (a.raw_.bits >> 32) < (b.raw_.bits >> 32);
    }

private:
    PhysCollider raw_{0};
};

// The closest hit of a segment cast.
struct Hit {
    Collider collider;
    std::uint64_t user_data;
    float t;          // along the segment, in [0, 1]
    PhysVec3 point;   // start + t (end - start)
    PhysVec3 normal;  // unit, outward; -direction when the segment starts inside
};

// An overlapping pair, a before b in key order.
struct Pair {
    Collider a;
    std::uint64_t user_a;
    Collider b;
    std::uint64_t user_b;
};

// How to add a collider besides its shape: phys_collider_desc_default()
// (identity transform, user data 0, category 1, mask all, should-rotate),
// changed by chained with_* calls.
class ColliderDesc {
public:
    ColliderDesc() noexcept : desc_(phys_collider_desc_default()) {}

    ColliderDesc& with_transform(const PhysTransform& transform) noexcept {
        desc_.transform = transform;
        return *this;
    }
    template <class V>
    ColliderDesc& with_translation(const V& translation) {
        desc_.transform.translation = vec3(translation);
        return *this;
    }
    template <class Q>
    ColliderDesc& with_rotation(const Q& rotation) {
        desc_.transform.rotation = quat(rotation);
        return *this;
    }
    ColliderDesc& with_scale(float scale) noexcept {
        desc_.transform.scale = PhysVec3{scale, scale, scale};
        return *this;
    }
    ColliderDesc& with_user_data(std::uint64_t user_data) noexcept {
        desc_.user_data = user_data;
        return *this;
    }
    // Box2D's rule: two colliders interact when each one's category is in
    // the other's mask.
    ColliderDesc& with_filter(std::uint64_t category_bits, std::uint64_t mask_bits) noexcept {
        desc_.category_bits = category_bits;
        desc_.mask_bits = mask_bits;
        return *this;
    }
    // Whether a box rotates with its transform (the book's mShouldRotate).
    ColliderDesc& with_should_rotate(bool should_rotate) noexcept {
        desc_.flags = should_rotate ? (desc_.flags | PHYS_COLLIDER_SHOULD_ROTATE)
                                    : (desc_.flags & ~static_cast<std::uint32_t>(PHYS_COLLIDER_SHOULD_ROTATE));
        return *this;
    }

    const PhysColliderDesc& raw() const noexcept { return desc_; }

private:
    PhysColliderDesc desc_;
};

// What a segment cast may hit; by default, everything.
class QueryFilter {
public:
    constexpr QueryFilter() noexcept = default;

    // The colliders whose category is in mask_bits and whose mask admits
    // category_bits.
    static constexpr QueryFilter with_bits(std::uint64_t category_bits, std::uint64_t mask_bits) noexcept {
        QueryFilter filter;
        filter.filter_.category_bits = category_bits;
        filter.filter_.mask_bits = mask_bits;
        return filter;
    }

    // This filter, ignoring one collider as well (a bullet's shooter).
    constexpr QueryFilter excluding(Collider collider) const noexcept {
        QueryFilter filter = *this;
        filter.filter_.exclude = collider.raw();
        return filter;
    }

    constexpr const PhysQueryFilter& raw() const noexcept { return filter_; }

private:
    PhysQueryFilter filter_{~std::uint64_t{0}, ~std::uint64_t{0}, PhysCollider{0}};
};

namespace detail {

// Carries a callable through collide's void* context; see the top of the file
// for what happens to its exceptions.
template <class F>
struct PairSink {
    F& f;
    std::exception_ptr error;

    static void deliver(void* ctx, PhysCollider a, std::uint64_t user_a, PhysCollider b,
                        std::uint64_t user_b) noexcept {
        auto* sink = static_cast<PairSink*>(ctx);
        if (sink->error) {
            return;
        }
        try {
            sink->f(Pair{Collider(a), user_a, Collider(b), user_b});
        } catch (...) {
            sink->error = std::current_exception();
        }
    }
};

template <class W, class F>
void for_each_pair(PhysStatus (*finder)(W*, PhysPairCallback, void*), W* world, F& f, const char* call) {
    static_assert(std::is_invocable_v<F&, const Pair&>, "a pair callback is called as f(const collide::Pair&)");
    PairSink<F> sink{f, nullptr};
    PhysStatus status = finder(world, &PairSink<F>::deliver, &sink);
    if (sink.error) {
        std::rethrow_exception(sink.error);
    }
    check(status, call);
}

}  // namespace detail

// ---------------------------------------------------------------------------
// The world.

// Owns a PhysWorld; move-only. Every method mirrors the phys_* function of
// the same name and throws Error when it fails.
class World {
public:
    World() { detail::check(phys_world_create(&world_), "phys_world_create"); }
    // A world that refuses more than max_colliders colliders
    // (PHYS_ERROR_CAPACITY_EXCEEDED).
    explicit World(std::size_t max_colliders) {
        detail::check(phys_world_create_with_limit(max_colliders, &world_), "phys_world_create_with_limit");
    }
    ~World() { phys_world_destroy(world_); }

    World(World&& other) noexcept : world_(std::exchange(other.world_, nullptr)) {}
    World& operator=(World&& other) noexcept {
        if (this != &other) {
            phys_world_destroy(world_);
            world_ = std::exchange(other.world_, nullptr);
        }
        return *this;
    }
    World(const World&) = delete;
    World& operator=(const World&) = delete;

    // The PhysWorld, for calling collide.h directly (null once moved from).
    PhysWorld* get() noexcept { return world_; }
    const PhysWorld* get() const noexcept { return world_; }

    [[nodiscard]] std::size_t size() const {
        std::size_t count = 0;
        detail::check(phys_world_count(world_, &count), "phys_world_count");
        return count;
    }

    // Whether collider names a live collider of this world.
    [[nodiscard]] bool contains(Collider collider) const noexcept {
        return phys_collider_is_alive(world_, collider.raw());
    }

    Collider add_box(const PhysAabb& object_box, const ColliderDesc& desc = ColliderDesc()) {
        PhysCollider collider;
        detail::check(phys_add_box(world_, &object_box, &desc.raw(), &collider), "phys_add_box");
        return Collider(collider);
    }
    Collider add_sphere(const PhysSphere& sphere, const ColliderDesc& desc = ColliderDesc()) {
        PhysCollider collider;
        detail::check(phys_add_sphere(world_, &sphere, &desc.raw(), &collider), "phys_add_sphere");
        return Collider(collider);
    }
    Collider add_capsule(const PhysCapsule& capsule, const ColliderDesc& desc = ColliderDesc()) {
        PhysCollider collider;
        detail::check(phys_add_capsule(world_, &capsule, &desc.raw(), &collider), "phys_add_capsule");
        return Collider(collider);
    }

    void remove(Collider collider) { detail::check(phys_remove(world_, collider.raw()), "phys_remove"); }

    void set_transform(Collider collider, const PhysTransform& transform) {
        detail::check(phys_set_transform(world_, collider.raw(), &transform), "phys_set_transform");
    }
    void set_box(Collider collider, const PhysAabb& object_box) {
        detail::check(phys_set_box(world_, collider.raw(), &object_box), "phys_set_box");
    }
    void set_sphere(Collider collider, const PhysSphere& sphere) {
        detail::check(phys_set_sphere(world_, collider.raw(), &sphere), "phys_set_sphere");
    }
    void set_capsule(Collider collider, const PhysCapsule& capsule) {
        detail::check(phys_set_capsule(world_, collider.raw(), &capsule), "phys_set_capsule");
    }
    void set_should_rotate(Collider collider, bool should_rotate) {
        detail::check(phys_set_should_rotate(world_, collider.raw(), should_rotate), "phys_set_should_rotate");
    }
    void set_user_data(Collider collider, std::uint64_t user_data) {
        detail::check(phys_set_user_data(world_, collider.raw(), user_data), "phys_set_user_data");
    }
    void set_filter(Collider collider, std::uint64_t category_bits, std::uint64_t mask_bits) {
        detail::check(phys_set_filter(world_, collider.raw(), category_bits, mask_bits), "phys_set_filter");
    }

    [[nodiscard]] std::uint64_t user_data(Collider collider) const {
        std::uint64_t user_data = 0;
        detail::check(phys_get_user_data(world_, collider.raw(), &user_data), "phys_get_user_data");
        return user_data;
    }
    // The world-space bounding box (the book's BoxComponent::GetWorldBox).
    [[nodiscard]] PhysAabb world_aabb(Collider collider) const {
        PhysAabb box;
        detail::check(phys_get_world_aabb(world_, collider.raw(), &box), "phys_get_world_aabb");
        return box;
    }
    [[nodiscard]] PhysTransform transform(Collider collider) const {
        PhysTransform transform;
        detail::check(phys_get_transform(world_, collider.raw(), &transform), "phys_get_transform");
        return transform;
    }

    // The closest hit of the closed segment among the colliders filter
    // accepts, or nullopt.
    [[nodiscard]] std::optional<Hit> segment_cast(const PhysSegment& segment,
                                                  const QueryFilter& filter = QueryFilter()) const {
        bool hit = false;
        PhysHit closest{};
        detail::check(phys_segment_cast(world_, &segment, &filter.raw(), &hit, &closest), "phys_segment_cast");
        if (!hit) {
            return std::nullopt;
        }
        return Hit{Collider(closest.collider), closest.user_data, closest.t, closest.point, closest.normal};
    }
    template <class V>
    [[nodiscard]] std::optional<Hit> segment_cast(const V& start, const V& end,
                                                  const QueryFilter& filter = QueryFilter()) const {
        return segment_cast(collide::segment(start, end), filter);
    }

    // Calls f(const Pair&) once per overlapping pair, testing every pair.
    template <class F>
    void test_pairwise(F&& f) const {
        detail::for_each_pair(phys_test_pairwise, get(), f, "phys_test_pairwise");
    }
    // The same pairs in the same order, by sweep and prune (which keeps its
    // sorted arrays between calls, hence not const).
    template <class F>
    void test_sweep_and_prune(F&& f) {
        detail::for_each_pair(phys_test_sweep_and_prune, get(), f, "phys_test_sweep_and_prune");
    }

    // The pairs of test_pairwise in out, which is cleared first: a vector
    // kept from frame to frame stops allocating once it is large enough.
    void pairwise_into(std::vector<Pair>& out) const {
        out.clear();
        test_pairwise([&out](const Pair& pair) { out.push_back(pair); });
    }
    void sweep_and_prune_into(std::vector<Pair>& out) {
        out.clear();
        test_sweep_and_prune([&out](const Pair& pair) { out.push_back(pair); });
    }
    [[nodiscard]] std::vector<Pair> pairwise() const {
        std::vector<Pair> pairs;
        pairwise_into(pairs);
        return pairs;
    }
    [[nodiscard]] std::vector<Pair> sweep_and_prune() {
        std::vector<Pair> pairs;
        sweep_and_prune_into(pairs);
        return pairs;
    }

private:
    PhysWorld* world_ = nullptr;
};

}  // namespace collide

namespace std {
template <>
struct hash<collide::Collider> {
    std::size_t operator()(collide::Collider collider) const noexcept { return hash<std::uint64_t>()(collider.bits()); }
};
}  // namespace std
