// collide.hpp: a header-only C++17 wrapper over all of collide's C ABI
// (collide.h).
//
//   collide::World world;                                   // owns a PhysWorld
//   collide::Collider wall = world.add_box(collide::aabb(lo, hi),
//                                          collide::ColliderDesc().with_translation(pos).with_user_data(7));
//   if (auto hit = world.segment_cast(from, to)) { use(hit->point, hit->normal); }
//   for (const collide::Pair& p : world.pairs()) { touch(p.user_a, p.user_b); }
//   collide::Hull rock = collide::Hull::from_points(points);  // built once,
//   world.add(collide::Shape::hull(rock), desc);              // shared by many colliders
//
// Every phys_* function has a method here (tests/parity.rs holds the header
// to it). Lists come back as std::vector (an *_into overload refills the
// caller's vector, which stops allocating once it is large enough); there is
// no two-call buffer dance.
//
// Errors. A failing collide call is a caller's mistake (a NaN coordinate, an
// inverted box, a stale handle, a full world), not an outcome to test for
// every frame; as the C ABI guarantees, the world is then unchanged.
// - With exceptions (the default), every method checks the PhysStatus and
//   throws collide::Error (a std::runtime_error) carrying the status and
//   collide's own message (phys_last_error_message). Queries throw only on
//   invalid input.
// - Without (COLLIDE_NO_EXCEPTIONS defined, or a build with -fno-exceptions),
//   the same methods return a neutral value on failure (the null Collider,
//   nullopt, an empty vector, a zero record) and record the failure:
//   collide::last_status() (per thread, like errno; PHYS_OK after a success)
//   says what failed and why, and a handler set by collide::set_error_handler
//   (an engine's assert, a log) is called with it first. Nothing throws and
//   nothing needs RTTI: the header builds with -fno-exceptions -fno-rtti.
//
// - World, Hull and Mesh own their collide objects (World move-only; Hull and
//   Mesh shared, as collide's reference counts are); a moved-from World holds
//   none, and its methods fail with PHYS_ERROR_NULL_POINTER.
// - Collider is a typed handle (the null handle by default); Pair, Hit and
//   ColliderRef carry Colliders. Geometry travels as collide.h's plain structs.
// - vec3(v) and quat(q) adapt any type with members x, y, z (and w), of any
//   arithmetic type, so a game passes its own math types; aabb, segment,
//   sphere, capsule and transform build collide's structs from them, and
//   vec3_as<V>(p) converts a result back.
// - The pair callbacks take any callable f(const Pair&). With exceptions it
//   may throw: collide's C callback must not unwind through collide, so the
//   exception is held, the remaining pairs are skipped, and it is rethrown
//   when collide returns.
// - Thread rules are collide.h's: const methods only read and may run
//   concurrently on one world; the others need exclusive access.
#pragma once

#include "collide.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#if defined(COLLIDE_NO_EXCEPTIONS) || !(defined(__cpp_exceptions) || defined(__EXCEPTIONS) || defined(_CPPUNWIND))
#define COLLIDE_EXCEPTIONS 0
#else
#define COLLIDE_EXCEPTIONS 1
#include <exception>
#include <stdexcept>
#endif

namespace collide {

// What a call ended with: its status, the phys_* function and collide's
// message (empty on success).
struct Status {
    PhysStatus code = PHYS_OK;
    const char* call = "";
    std::string message;

    bool ok() const noexcept { return code == PHYS_OK; }
    explicit operator bool() const noexcept { return ok(); }
};

#if COLLIDE_EXCEPTIONS

// A failed collide call: its status and collide's message.
class Error : public std::runtime_error {
public:
    Error(PhysStatus status, const char* call) : Error(status, call, phys_last_error_message()) {}
    Error(PhysStatus status, const char* call, std::string message)
        : std::runtime_error(std::string(call) + ": " + phys_status_string(status) + ": " + message),
          status_(status),
          message_(std::move(message)) {}

    PhysStatus status() const noexcept { return status_; }
    // phys_last_error_message() at the time of the failure.
    const std::string& message() const noexcept { return message_; }

private:
    PhysStatus status_;
    std::string message_;
};

#else

// Called with every failure before the call returns its neutral value.
using ErrorHandler = void (*)(const Status&);

namespace detail {
inline ErrorHandler& error_handler() noexcept {
    static ErrorHandler handler = nullptr;
    return handler;
}
inline Status& last_status() noexcept {
    static thread_local Status status;
    return status;
}
}  // namespace detail

// Sets the function called with every failure (nullptr: none).
inline void set_error_handler(ErrorHandler handler) noexcept { detail::error_handler() = handler; }

// How the calling thread's last collide call ended.
inline const Status& last_status() noexcept { return detail::last_status(); }

#endif

namespace detail {

// A failure the wrapper finds itself, before calling collide.
inline bool fail(PhysStatus status, const char* call, const char* message) {
#if COLLIDE_EXCEPTIONS
    throw Error(status, call, message);
#else
    Status& last = detail::last_status();
    last.code = status;
    last.call = call;
    last.message = message;
    if (ErrorHandler handler = error_handler()) {
        handler(last);
    }
    return false;
#endif
}

// Whether the call succeeded; on failure, throws or records (see the top).
inline bool check(PhysStatus status, const char* call) {
#if COLLIDE_EXCEPTIONS
    if (status != PHYS_OK) {
        throw Error(status, call);
    }
    return true;
#else
    Status& last = detail::last_status();
    last.code = status;
    last.call = call;
    if (status == PHYS_OK) {
        last.message.clear();
        return true;
    }
    last.message = phys_last_error_message();
    if (ErrorHandler handler = error_handler()) {
        handler(last);
    }
    return false;
#endif
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

// The ray from origin along direction (whose length is the unit of t).
template <class V>
PhysRay ray(const V& origin, const V& direction) {
    return PhysRay{vec3(origin), vec3(direction)};
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
// (major << 16) | (minor << 8) | patch of the library linked.
inline std::uint32_t version_number() noexcept { return phys_version_number(); }

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

// A cast's hit: a segment's or a ray's (t along it), a moving shape's (t of
// its motion), a character's slide.
struct Hit {
    Collider collider;
    std::uint64_t user_data = 0;
    float t = 0.0f;
    PhysVec3 point{};   // on the collider
    PhysVec3 normal{};  // unit, the surface's, facing the caster
    // The part hit: a compound's child, a mesh's or height field's triangle.
    std::uint32_t sub_shape = 0;

    static Hit from(const PhysHit& h) noexcept {
        return Hit{Collider(h.collider), h.user_data, h.t, h.point, h.normal, h.sub_shape};
    }
    static Hit from(const PhysShapeHit& h) noexcept {
        return Hit{Collider(h.collider), h.user_data, h.t, h.point, h.normal, h.sub_shape};
    }
};

// An overlapping pair, a before b in key order.
struct Pair {
    Collider a;
    std::uint64_t user_a = 0;
    Collider b;
    std::uint64_t user_b = 0;

    static Pair from(const PhysPair& p) noexcept { return Pair{Collider(p.a), p.user_a, Collider(p.b), p.user_b}; }
};

// A contact manifold: normal (from a to b) and one to four points, each
// with its depth and a feature id kept from step to step while the same
// features touch.
struct Manifold {
    PhysVec3 normal{};
    std::vector<PhysManifoldPoint> points;
    // The touching parts {a, b}: a compound's child, a surface's triangle.
    std::uint32_t sub_shapes[2] = {0, 0};

    static Manifold from(const PhysManifold& m) {
        Manifold out;
        out.normal = m.normal;
        out.sub_shapes[0] = m.sub_shapes[0];
        out.sub_shapes[1] = m.sub_shapes[1];
        out.points.assign(m.points, m.points + (m.count < PHYS_MANIFOLD_MAX_POINTS ? m.count : PHYS_MANIFOLD_MAX_POINTS));
        return out;
    }
};

// A current pair with its manifold.
struct PairManifold {
    Pair pair;
    Manifold manifold;

    static PairManifold from(const PhysPairManifold& p) { return PairManifold{Pair::from(p.pair), Manifold::from(p.manifold)}; }
};

// A collider found by an overlap or a listing, with its user data.
struct ColliderRef {
    Collider collider;
    std::uint64_t user_data = 0;

    static ColliderRef from(const PhysColliderRef& r) noexcept { return ColliderRef{Collider(r.collider), r.user_data}; }
};

// The collider nearest to a probe, with the distance and closest points.
struct Closest {
    Collider collider;
    std::uint64_t user_data = 0;
    PhysDistance distance{};
};

// A collider's filter bits (Box2D's rule: two colliders interact when each
// one's category is in the other's mask).
struct Filter {
    std::uint64_t category_bits = 0;
    std::uint64_t mask_bits = 0;
};

// What a move and slide did: the displacement to apply, the surfaces met.
struct Slide {
    PhysVec3 delta{};
    std::vector<Hit> hits;
};

// phys_move_and_slide_capsule's answer: the displacement and how many
// surfaces were met.
struct CapsuleSlide {
    PhysVec3 delta{};
    std::size_t hits = 0;
};

// How many pairs began and ended since the previous pair-event update.
struct PairEventCounts {
    std::size_t began = 0;
    std::size_t ended = 0;
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
    ColliderDesc& with_filter(std::uint64_t category_bits, std::uint64_t mask_bits) noexcept {
        desc_.category_bits = category_bits;
        desc_.mask_bits = mask_bits;
        return *this;
    }
    // Whether the shape rotates with its transform (the book's mShouldRotate).
    ColliderDesc& with_should_rotate(bool should_rotate) noexcept {
        desc_.flags = should_rotate ? (desc_.flags | PHYS_COLLIDER_SHOULD_ROTATE)
                                    : (desc_.flags & ~static_cast<std::uint32_t>(PHYS_COLLIDER_SHOULD_ROTATE));
        return *this;
    }

    const PhysColliderDesc& raw() const noexcept { return desc_; }

private:
    PhysColliderDesc desc_;
};

// What a query may find; by default, everything.
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

// ---------------------------------------------------------------------------
// Shapes: hulls and meshes built once and shared, and any shape as a value.

// A convex hull built once (phys_hull_create) and shared by every Shape and
// collider made from it; copies share it. Empty when the build failed.
class Hull {
public:
    Hull() noexcept = default;

    template <class V>
    static Hull from_points(const std::vector<V>& points) {
        std::vector<PhysVec3> raw;
        raw.reserve(points.size());
        for (const V& p : points) {
            raw.push_back(vec3(p));
        }
        PhysHull* hull = nullptr;
        if (!detail::check(phys_hull_create(raw.data(), raw.size(), &hull), "phys_hull_create")) {
            return Hull();
        }
        return Hull(hull);
    }

    const PhysHull* get() const noexcept { return handle_.get(); }
    explicit operator bool() const noexcept { return handle_ != nullptr; }

private:
    friend class Shape;
    explicit Hull(PhysHull* hull) : handle_(hull, &phys_hull_destroy) {}
    std::shared_ptr<PhysHull> handle_;
};

// A triangle mesh (level geometry) built once (phys_mesh_create) and shared
// like a Hull. Empty when the build failed.
class Mesh {
public:
    Mesh() noexcept = default;

    // Three vertex indices per triangle.
    template <class V>
    static Mesh from_triangles(const std::vector<V>& vertices, const std::vector<std::uint32_t>& indices) {
        std::vector<PhysVec3> raw;
        raw.reserve(vertices.size());
        for (const V& v : vertices) {
            raw.push_back(vec3(v));
        }
        PhysMesh* mesh = nullptr;
        if (!detail::check(phys_mesh_create(raw.data(), raw.size(), indices.data(), indices.size(), &mesh),
                           "phys_mesh_create")) {
            return Mesh();
        }
        return Mesh(mesh);
    }

    const PhysMesh* get() const noexcept { return handle_.get(); }
    explicit operator bool() const noexcept { return handle_ != nullptr; }

private:
    friend class Shape;
    explicit Mesh(PhysMesh* mesh) : handle_(mesh, &phys_mesh_destroy) {}
    std::shared_ptr<PhysMesh> handle_;
};

// A height field (terrain) built once (phys_heightfield_create) and shared
// like a Hull: columns x rows heights, row-major (row r along z); sample
// (c, r) at (c*scale.x, height*scale.y, r*scale.z); holes empty for none, or
// one flag per cell ((columns - 1) x (rows - 1), row-major, non-zero for a
// hole). Empty when the build failed.
class HeightField {
public:
    HeightField() noexcept = default;

    static HeightField from_heights(std::size_t columns, std::size_t rows, const std::vector<float>& heights,
                                    const PhysVec3& scale, const std::vector<std::uint8_t>& holes = {}) {
        if (heights.size() != columns * rows || (!holes.empty() && holes.size() != (columns - 1) * (rows - 1))) {
            detail::check(PHYS_ERROR_INVALID_ARGUMENT, "phys_heightfield_create");
            return HeightField();
        }
        PhysHeightField* field = nullptr;
        if (!detail::check(phys_heightfield_create(columns, rows, heights.data(), &scale,
                                                   holes.empty() ? nullptr : holes.data(), &field),
                           "phys_heightfield_create")) {
            return HeightField();
        }
        return HeightField(field);
    }

    const PhysHeightField* get() const noexcept { return handle_.get(); }
    explicit operator bool() const noexcept { return handle_ != nullptr; }

private:
    friend class Shape;
    explicit HeightField(PhysHeightField* field) : handle_(field, &phys_heightfield_destroy) {}
    std::shared_ptr<PhysHeightField> handle_;
};

class Shape;

// Convex children with their poses, built once (phys_compound_create) and
// shared like a Hull: child i is children[i] placed by poses[i]; every hit,
// contact and manifold names the child by its index (sub_shape). Empty when
// the build failed.
class Compound {
public:
    Compound() noexcept = default;

    static Compound from_children(const std::vector<Shape>& children, const std::vector<PhysTransform>& poses);

    const PhysCompound* get() const noexcept { return handle_.get(); }
    explicit operator bool() const noexcept { return handle_ != nullptr; }

private:
    friend class Shape;
    explicit Compound(PhysCompound* compound) : handle_(compound, &phys_compound_destroy) {}
    std::shared_ptr<PhysCompound> handle_;
};

// Any shape collide knows, as a value: a PhysShape, keeping its hull, mesh,
// height field or compound alive. Object space when it makes a collider, world space
// as a probe.
class Shape {
public:
    static Shape box(const PhysAabb& aabb) noexcept { return plain(PHYS_SHAPE_BOX, [&](PhysShapeData& d) { d.aabb = aabb; }); }
    static Shape sphere(const PhysSphere& sphere) noexcept {
        return plain(PHYS_SHAPE_SPHERE, [&](PhysShapeData& d) { d.sphere = sphere; });
    }
    static Shape capsule(const PhysCapsule& capsule) noexcept {
        return plain(PHYS_SHAPE_CAPSULE, [&](PhysShapeData& d) { d.capsule = capsule; });
    }
    static Shape obb(const PhysObb& obb) noexcept { return plain(PHYS_SHAPE_OBB, [&](PhysShapeData& d) { d.obb = obb; }); }
    static Shape triangle(const PhysTriangle& triangle) noexcept {
        return plain(PHYS_SHAPE_TRIANGLE, [&](PhysShapeData& d) { d.triangle = triangle; });
    }
    static Shape cylinder(const PhysCylinder& cylinder) noexcept {
        return plain(PHYS_SHAPE_CYLINDER, [&](PhysShapeData& d) { d.cylinder = cylinder; });
    }
    static Shape cone(const PhysCone& cone) noexcept {
        return plain(PHYS_SHAPE_CONE, [&](PhysShapeData& d) { d.cone = cone; });
    }
    static Shape hull(const Hull& hull) {
        Shape s = plain(PHYS_SHAPE_HULL, [&](PhysShapeData& d) { d.hull = hull.get(); });
        s.owner_ = hull.handle_;
        return s;
    }
    static Shape mesh(const Mesh& mesh) {
        Shape s = plain(PHYS_SHAPE_MESH, [&](PhysShapeData& d) { d.mesh = mesh.get(); });
        s.owner_ = mesh.handle_;
        return s;
    }
    static Shape heightfield(const HeightField& field) {
        Shape s = plain(PHYS_SHAPE_HEIGHTFIELD, [&](PhysShapeData& d) { d.heightfield = field.get(); });
        s.owner_ = field.handle_;
        return s;
    }
    static Shape compound(const Compound& compound) {
        Shape s = plain(PHYS_SHAPE_COMPOUND, [&](PhysShapeData& d) { d.compound = compound.get(); });
        s.owner_ = compound.handle_;
        return s;
    }
    // A PhysShape from collide whose hull, mesh, height field or compound handle is
    // the caller's reference (phys_get_shape): this Shape releases it.
    static Shape adopt(const PhysShape& raw) {
        Shape s;
        s.raw_ = raw;
        if (raw.kind == PHYS_SHAPE_HULL && raw.data.hull != nullptr) {
            s.owner_ = std::shared_ptr<PhysHull>(const_cast<PhysHull*>(raw.data.hull), &phys_hull_destroy);
        } else if (raw.kind == PHYS_SHAPE_MESH && raw.data.mesh != nullptr) {
            s.owner_ = std::shared_ptr<PhysMesh>(const_cast<PhysMesh*>(raw.data.mesh), &phys_mesh_destroy);
        } else if (raw.kind == PHYS_SHAPE_HEIGHTFIELD && raw.data.heightfield != nullptr) {
            s.owner_ = std::shared_ptr<PhysHeightField>(const_cast<PhysHeightField*>(raw.data.heightfield),
                                                        &phys_heightfield_destroy);
        } else if (raw.kind == PHYS_SHAPE_COMPOUND && raw.data.compound != nullptr) {
            s.owner_ = std::shared_ptr<PhysCompound>(const_cast<PhysCompound*>(raw.data.compound),
                                                     &phys_compound_destroy);
        }
        return s;
    }

    std::uint32_t kind() const noexcept { return raw_.kind; }
    const PhysShape& raw() const noexcept { return raw_; }

private:
    template <class Fill>
    static Shape plain(std::uint32_t kind, Fill fill) noexcept {
        Shape s;
        s.raw_.kind = kind;
        fill(s.raw_.data);
        return s;
    }

    PhysShape raw_{};
    // The hull, mesh, height field or compound the shape names, kept alive.
    std::shared_ptr<const void> owner_;
};

// The children's hulls, meshes and compounds are kept alive by the compound
// itself once built.
inline Compound Compound::from_children(const std::vector<Shape>& children, const std::vector<PhysTransform>& poses) {
    if (children.size() != poses.size()) {
        detail::check(PHYS_ERROR_INVALID_ARGUMENT, "phys_compound_create");
        return Compound();
    }
    std::vector<PhysShape> raw;
    raw.reserve(children.size());
    for (const Shape& child : children) {
        raw.push_back(child.raw());
    }
    PhysCompound* compound = nullptr;
    if (!detail::check(phys_compound_create(raw.data(), poses.data(), raw.size(), &compound), "phys_compound_create")) {
        return Compound();
    }
    return Compound(compound);
}

// The distance between two shapes, no world needed (point_a on a).
inline PhysDistance shape_distance(const Shape& a, const Shape& b) {
    PhysDistance d{};
    detail::check(phys_shape_distance(&a.raw(), &b.raw(), &d), "phys_shape_distance");
    return d;
}

// The contact of two shapes (normal from a to b), or nullopt when apart.
inline std::optional<PhysContact> shape_contact(const Shape& a, const Shape& b) {
    bool touching = false;
    PhysContact c{};
    if (!detail::check(phys_shape_contact(&a.raw(), &b.raw(), &touching, &c), "phys_shape_contact") || !touching) {
        return std::nullopt;
    }
    return c;
}

// The contact manifold of two shapes, or nullopt when apart.
inline std::optional<Manifold> shape_manifold(const Shape& a, const Shape& b) {
    bool touching = false;
    PhysManifold m{};
    if (!detail::check(phys_shape_manifold(&a.raw(), &b.raw(), &touching, &m), "phys_shape_manifold") || !touching) {
        return std::nullopt;
    }
    return Manifold::from(m);
}

// The book's free geometry (Collision.h), no world needed.
namespace geom {

// The plane through three points, normal (b - a) x (c - a) normalised.
inline PhysPlane plane_from_points(const PhysVec3& a, const PhysVec3& b, const PhysVec3& c) {
    PhysPlane plane{};
    detail::check(phys_geom_plane_from_points(&a, &b, &c, &plane), "phys_geom_plane_from_points");
    return plane;
}
// normal . p + d, positive on the normal's side.
inline float signed_distance(const PhysPlane& plane, const PhysVec3& p) {
    float distance = 0.0f;
    detail::check(phys_geom_plane_signed_distance(&plane, &p, &distance), "phys_geom_plane_signed_distance");
    return distance;
}
// Whether the convex polygon (either winding) contains p, edges included.
inline bool polygon_contains(const std::vector<PhysVec2>& polygon, const PhysVec2& p) {
    bool inside = false;
    detail::check(phys_geom_polygon_contains(polygon.data(), polygon.size(), &p, &inside), "phys_geom_polygon_contains");
    return inside;
}
inline PhysSegmentClosest segment_closest_points(const PhysSegment& a, const PhysSegment& b) {
    PhysSegmentClosest closest{};
    detail::check(phys_geom_segment_closest_points(&a, &b, &closest), "phys_geom_segment_closest_points");
    return closest;
}
inline float segment_point_distance_squared(const PhysSegment& segment, const PhysVec3& p) {
    float d = 0.0f;
    detail::check(phys_geom_segment_point_distance_squared(&segment, &p, &d), "phys_geom_segment_point_distance_squared");
    return d;
}
inline float box_point_distance_squared(const PhysAabb& box, const PhysVec3& p) {
    float d = 0.0f;
    detail::check(phys_geom_box_point_distance_squared(&box, &p, &d), "phys_geom_box_point_distance_squared");
    return d;
}
// When two moving spheres first touch, as a fraction of the step.
inline std::optional<float> swept_spheres(const PhysSphere& a, const PhysVec3& motion_a, const PhysSphere& b,
                                          const PhysVec3& motion_b) {
    bool hit = false;
    float t = 0.0f;
    if (!detail::check(phys_geom_swept_spheres(&a, &motion_a, &b, &motion_b, &hit, &t), "phys_geom_swept_spheres") ||
        !hit) {
        return std::nullopt;
    }
    return t;
}
inline bool intersects(const Shape& a, const Shape& b) {
    bool touching = false;
    detail::check(phys_geom_intersects(&a.raw(), &b.raw(), &touching), "phys_geom_intersects");
    return touching;
}
// Where a segment enters a shape: t along it and the outward normal there.
struct SegmentHit {
    float t = 0.0f;
    PhysVec3 normal{};
};
inline std::optional<SegmentHit> segment_cast(const PhysSegment& segment, const Shape& shape) {
    bool hit = false;
    SegmentHit out;
    if (!detail::check(phys_geom_segment_cast(&segment, &shape.raw(), &hit, &out.t, &out.normal), "phys_geom_segment_cast") ||
        !hit) {
        return std::nullopt;
    }
    return out;
}

}  // namespace geom

namespace detail {

// Carries a callable through collide's void* context; see the top of the file
// for what happens to its exceptions.
template <class F>
struct PairSink {
    F& f;
#if COLLIDE_EXCEPTIONS
    std::exception_ptr error;
#endif

    static void deliver(void* ctx, PhysCollider a, std::uint64_t user_a, PhysCollider b,
                        std::uint64_t user_b) noexcept {
        auto* sink = static_cast<PairSink*>(ctx);
#if COLLIDE_EXCEPTIONS
        if (sink->error) {
            return;
        }
        try {
            sink->f(Pair{Collider(a), user_a, Collider(b), user_b});
        } catch (...) {
            sink->error = std::current_exception();
        }
#else
        sink->f(Pair{Collider(a), user_a, Collider(b), user_b});
#endif
    }
};

template <class W, class F>
void for_each_pair(PhysStatus (*finder)(W*, PhysPairCallback, void*), W* world, F& f, const char* call) {
    static_assert(std::is_invocable_v<F&, const Pair&>, "a pair callback is called as f(const collide::Pair&)");
#if COLLIDE_EXCEPTIONS
    PairSink<F> sink{f, nullptr};
#else
    PairSink<F> sink{f};
#endif
    PhysStatus status = finder(world, &PairSink<F>::deliver, &sink);
#if COLLIDE_EXCEPTIONS
    if (sink.error) {
        std::rethrow_exception(sink.error);
    }
#endif
    check(status, call);
}

// Fills out with a *_into function's records, converted: the C records go
// through this thread's scratch array, grown to the total collide asks for
// and kept, so that a caller's vector kept from frame to frame means no
// allocation once both are large enough.
template <class Raw, class T, class Into>
bool fill(std::vector<T>& out, const char* call, Into into) {
    out.clear();
    static thread_local std::vector<Raw> scratch;
    scratch.resize(scratch.capacity() > out.capacity() ? scratch.capacity() : out.capacity());
    for (;;) {
        std::size_t written = 0;
        std::size_t total = 0;
        PhysStatus status = into(scratch.data(), scratch.size(), &written, &total);
        if (status == PHYS_ERROR_BUFFER_TOO_SMALL && total > scratch.size()) {
            scratch.resize(total);
            continue;
        }
        if (!check(status, call)) {
            return false;
        }
        out.reserve(written);
        for (std::size_t i = 0; i < written; ++i) {
            out.push_back(T::from(scratch[i]));
        }
        return true;
    }
}

// A PhysDebugDraw whose line calls draw_line(a, b, color).
template <class F>
PhysDebugDraw line_drawer(F& draw_line) {
    static_assert(std::is_invocable_v<F&, const PhysVec3&, const PhysVec3&, std::uint32_t>,
                  "a line drawer is called as f(const PhysVec3& a, const PhysVec3& b, std::uint32_t color)");
    PhysDebugDraw draw{};
    draw.ctx = &draw_line;
    draw.line = [](void* ctx, PhysVec3 a, PhysVec3 b, std::uint32_t color) noexcept {
        (*static_cast<F*>(ctx))(a, b, color);
    };
    return draw;
}

inline std::optional<Hit> hit_if(bool ok, bool hit, const PhysHit& h) {
    return ok && hit ? std::optional<Hit>(Hit::from(h)) : std::nullopt;
}
inline std::optional<Hit> hit_if(bool ok, bool hit, const PhysShapeHit& h) {
    return ok && hit ? std::optional<Hit>(Hit::from(h)) : std::nullopt;
}

}  // namespace detail

// Draws a cast's hit (its point and normal) as lines through draw_line.
template <class F>
void debug_draw_hit(const Hit& hit, F&& draw_line) {
    const PhysDebugDraw draw = detail::line_drawer(draw_line);
    const PhysHit raw{hit.collider.raw(), hit.user_data, hit.t, hit.point, hit.normal, hit.sub_shape};
    detail::check(phys_debug_draw_hit(&raw, &draw), "phys_debug_draw_hit");
}

// ---------------------------------------------------------------------------
// The world.

// Owns a PhysWorld; move-only. Every method calls the phys_* function of its
// name (see the top of the file for errors).
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

    // --- The world as a whole.

    [[nodiscard]] std::size_t size() const {
        std::size_t count = 0;
        detail::check(phys_world_count(world_, &count), "phys_world_count");
        return count;
    }
    [[nodiscard]] std::size_t max_colliders() const {
        std::size_t count = 0;
        detail::check(phys_world_max_colliders(world_, &count), "phys_world_max_colliders");
        return count;
    }
    // The threads of the batch work (batch casts, the pair search, batch
    // updates' placements): 1, the calling thread alone; n, n threads per
    // call, joined before it returns; 0, one per core (the default).
    void set_thread_count(std::uint32_t threads) {
        detail::check(phys_world_set_thread_count(world_, threads), "phys_world_set_thread_count");
    }
    [[nodiscard]] std::uint32_t thread_count() const {
        std::uint32_t threads = 0;
        detail::check(phys_world_thread_count(world_, &threads), "phys_world_thread_count");
        return threads;
    }
    // Rebuilds the tree (after many single adds).
    void optimize() { detail::check(phys_world_optimize(world_), "phys_world_optimize"); }
    [[nodiscard]] std::size_t memory_bytes() const {
        std::size_t bytes = 0;
        detail::check(phys_world_memory_bytes(world_, &bytes), "phys_world_memory_bytes");
        return bytes;
    }
    // --- Snapshots.

    // The world as bytes (phys_world_save): World::load makes the same world
    // of them, where this world's handles name the same colliders and every
    // query answers bit for bit as here. Empty when refused.
    [[nodiscard]] std::vector<std::uint8_t> save() const {
        std::vector<std::uint8_t> bytes;
        std::size_t written = 0;
        std::size_t total = 0;
        PhysStatus status = phys_world_save(world_, nullptr, 0, &written, &total);
        if (status == PHYS_ERROR_BUFFER_TOO_SMALL) {
            bytes.resize(total);
            status = phys_world_save(world_, bytes.data(), bytes.size(), &written, &total);
        }
        if (!detail::check(status, "phys_world_save")) {
            return {};
        }
        bytes.resize(written);
        return bytes;
    }
    // The world save() wrote (phys_world_load); refused bytes (truncated,
    // altered, another format) give a World whose get() is null.
    [[nodiscard]] static World load(const std::vector<std::uint8_t>& bytes) {
        PhysWorld* loaded = nullptr;
        detail::check(phys_world_load(bytes.data(), bytes.size(), &loaded), "phys_world_load");
        return World(loaded);
    }
    // A hash of the world's state, equal on every machine for equal worlds
    // (phys_world_state_hash): lock-step peers compare theirs.
    [[nodiscard]] std::uint64_t state_hash() const {
        std::uint64_t hash = 0;
        detail::check(phys_world_state_hash(world_, &hash), "phys_world_state_hash");
        return hash;
    }

    // Whether collider names a live collider of this world.
    [[nodiscard]] bool contains(Collider collider) const noexcept {
        return phys_collider_is_alive(world_, collider.raw());
    }
    // Every live collider with its user data, in slot order.
    [[nodiscard]] std::vector<ColliderRef> colliders() const {
        std::vector<ColliderRef> out;
        colliders_into(out);
        return out;
    }
    void colliders_into(std::vector<ColliderRef>& out) const {
        detail::fill<PhysColliderRef>(out, "phys_world_colliders", [this](auto... a) { return phys_world_colliders(world_, a...); });
    }

    // --- Adding and removing.

    Collider add(const Shape& shape, const ColliderDesc& desc = ColliderDesc()) {
        PhysCollider out{0};
        return added(phys_add_shape(world_, &shape.raw(), &desc.raw(), &out), "phys_add_shape", out);
    }
    Collider add_box(const PhysAabb& object_box, const ColliderDesc& desc = ColliderDesc()) {
        PhysCollider out{0};
        return added(phys_add_box(world_, &object_box, &desc.raw(), &out), "phys_add_box", out);
    }
    Collider add_sphere(const PhysSphere& sphere, const ColliderDesc& desc = ColliderDesc()) {
        PhysCollider out{0};
        return added(phys_add_sphere(world_, &sphere, &desc.raw(), &out), "phys_add_sphere", out);
    }
    Collider add_capsule(const PhysCapsule& capsule, const ColliderDesc& desc = ColliderDesc()) {
        PhysCollider out{0};
        return added(phys_add_capsule(world_, &capsule, &desc.raw(), &out), "phys_add_capsule", out);
    }
    Collider add_obb(const PhysObb& obb, const ColliderDesc& desc = ColliderDesc()) {
        PhysCollider out{0};
        return added(phys_add_obb(world_, &obb, &desc.raw(), &out), "phys_add_obb", out);
    }
    Collider add_triangle(const PhysTriangle& triangle, const ColliderDesc& desc = ColliderDesc()) {
        PhysCollider out{0};
        return added(phys_add_triangle(world_, &triangle, &desc.raw(), &out), "phys_add_triangle", out);
    }
    Collider add_cylinder(const PhysCylinder& cylinder, const ColliderDesc& desc = ColliderDesc()) {
        PhysCollider out{0};
        return added(phys_add_cylinder(world_, &cylinder, &desc.raw(), &out), "phys_add_cylinder", out);
    }
    Collider add_cone(const PhysCone& cone, const ColliderDesc& desc = ColliderDesc()) {
        PhysCollider out{0};
        return added(phys_add_cone(world_, &cone, &desc.raw(), &out), "phys_add_cone", out);
    }
    // The hull of points, for this collider alone (Hull shares one).
    Collider add_hull(const std::vector<PhysVec3>& points, const ColliderDesc& desc = ColliderDesc()) {
        PhysCollider out{0};
        return added(phys_add_hull(world_, points.data(), points.size(), &desc.raw(), &out), "phys_add_hull", out);
    }
    // A mesh for this collider alone (Mesh shares one).
    Collider add_mesh(const std::vector<PhysVec3>& vertices, const std::vector<std::uint32_t>& indices,
                      const ColliderDesc& desc = ColliderDesc()) {
        PhysCollider out{0};
        return added(phys_add_mesh(world_, vertices.data(), vertices.size(), indices.data(), indices.size(),
                                   &desc.raw(), &out), "phys_add_mesh", out);
    }
    // Many boxes at once (a level load), all or nothing; descs empty for the
    // defaults, else one per box.
    std::vector<Collider> add_boxes(const std::vector<PhysAabb>& boxes, const std::vector<ColliderDesc>& descs = {}) {
        std::vector<PhysColliderDesc> raw = raw_descs(descs);
        std::vector<PhysCollider> out(boxes.size());
        PhysStatus status = phys_add_boxes(world_, boxes.data(), raw.empty() ? nullptr : raw.data(), boxes.size(), out.data());
        return handles(status, "phys_add_boxes", out);
    }
    // Many shapes at once, all or nothing.
    std::vector<Collider> add_shapes(const std::vector<Shape>& shapes, const std::vector<ColliderDesc>& descs = {}) {
        std::vector<PhysShape> raw_shapes;
        raw_shapes.reserve(shapes.size());
        for (const Shape& s : shapes) {
            raw_shapes.push_back(s.raw());
        }
        std::vector<PhysColliderDesc> raw = raw_descs(descs);
        std::vector<PhysCollider> out(shapes.size());
        PhysStatus status = phys_add_shapes(world_, raw_shapes.data(), raw.empty() ? nullptr : raw.data(), shapes.size(), out.data());
        return handles(status, "phys_add_shapes", out);
    }
    void remove(Collider collider) { detail::check(phys_remove(world_, collider.raw()), "phys_remove"); }

    // --- Updates.

    void set_transform(Collider collider, const PhysTransform& transform) {
        detail::check(phys_set_transform(world_, collider.raw(), &transform), "phys_set_transform");
    }
    // colliders[i] gets transforms[i], all or nothing.
    void set_transforms(const std::vector<Collider>& colliders, const std::vector<PhysTransform>& transforms) {
        if (colliders.size() != transforms.size()) {
            size_mismatch("phys_set_transforms");
            return;
        }
        std::vector<PhysCollider> raw = raw_handles(colliders);
        detail::check(phys_set_transforms(world_, raw.data(), transforms.data(), raw.size()), "phys_set_transforms");
    }
    void set_shape(Collider collider, const Shape& shape) {
        detail::check(phys_set_shape(world_, collider.raw(), &shape.raw()), "phys_set_shape");
    }
    void set_shapes(const std::vector<Collider>& colliders, const std::vector<Shape>& shapes) {
        if (colliders.size() != shapes.size()) {
            size_mismatch("phys_set_shapes");
            return;
        }
        std::vector<PhysCollider> raw = raw_handles(colliders);
        std::vector<PhysShape> raw_shapes;
        raw_shapes.reserve(shapes.size());
        for (const Shape& s : shapes) {
            raw_shapes.push_back(s.raw());
        }
        detail::check(phys_set_shapes(world_, raw.data(), raw_shapes.data(), raw.size()), "phys_set_shapes");
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

    // --- A collider's state.

    [[nodiscard]] std::uint64_t user_data(Collider collider) const {
        std::uint64_t user_data = 0;
        detail::check(phys_get_user_data(world_, collider.raw(), &user_data), "phys_get_user_data");
        return user_data;
    }
    // The world-space bounding box (the book's BoxComponent::GetWorldBox).
    [[nodiscard]] PhysAabb world_aabb(Collider collider) const {
        PhysAabb box{};
        detail::check(phys_get_world_aabb(world_, collider.raw(), &box), "phys_get_world_aabb");
        return box;
    }
    [[nodiscard]] PhysTransform transform(Collider collider) const {
        PhysTransform transform{};
        detail::check(phys_get_transform(world_, collider.raw(), &transform), "phys_get_transform");
        return transform;
    }
    [[nodiscard]] Filter filter(Collider collider) const {
        Filter filter;
        detail::check(phys_get_filter(world_, collider.raw(), &filter.category_bits, &filter.mask_bits),
                      "phys_get_filter");
        return filter;
    }
    [[nodiscard]] bool should_rotate(Collider collider) const {
        bool rotate = false;
        detail::check(phys_get_should_rotate(world_, collider.raw(), &rotate), "phys_get_should_rotate");
        return rotate;
    }
    // The object-space shape (a hull or mesh shared with the collider).
    [[nodiscard]] Shape shape(Collider collider) const {
        PhysShape raw{};
        if (!detail::check(phys_get_shape(world_, collider.raw(), &raw), "phys_get_shape")) {
            return Shape();
        }
        return Shape::adopt(raw);
    }

    // --- Casts.

    // The closest hit of the closed segment among the colliders filter
    // accepts, or nullopt.
    [[nodiscard]] std::optional<Hit> segment_cast(const PhysSegment& segment,
                                                  const QueryFilter& filter = QueryFilter()) const {
        bool hit = false;
        PhysHit h{};
        const bool ok = detail::check(phys_segment_cast(world_, &segment, &filter.raw(), &hit, &h), "phys_segment_cast");
        return detail::hit_if(ok, hit, h);
    }
    template <class V>
    [[nodiscard]] std::optional<Hit> segment_cast(const V& start, const V& end,
                                                  const QueryFilter& filter = QueryFilter()) const {
        return segment_cast(collide::segment(start, end), filter);
    }
    // The closest hit within t in [0, max_t], t in units of the direction.
    [[nodiscard]] std::optional<Hit> cast_ray(const PhysRay& ray, float max_t,
                                              const QueryFilter& filter = QueryFilter()) const {
        bool hit = false;
        PhysHit h{};
        const bool ok = detail::check(phys_cast_ray(world_, &ray, max_t, &filter.raw(), &hit, &h), "phys_cast_ray");
        return detail::hit_if(ok, hit, h);
    }
    // Any hit, the first found (line of sight).
    [[nodiscard]] std::optional<Hit> segment_cast_any(const PhysSegment& segment,
                                                      const QueryFilter& filter = QueryFilter()) const {
        bool hit = false;
        PhysHit h{};
        const bool ok =
            detail::check(phys_segment_cast_any(world_, &segment, &filter.raw(), &hit, &h), "phys_segment_cast_any");
        return detail::hit_if(ok, hit, h);
    }
    // Every hit, nearest first (a piercing shot).
    [[nodiscard]] std::vector<Hit> segment_cast_all(const PhysSegment& segment,
                                                    const QueryFilter& filter = QueryFilter()) const {
        std::vector<Hit> out;
        segment_cast_all_into(segment, out, filter);
        return out;
    }
    void segment_cast_all_into(const PhysSegment& segment, std::vector<Hit>& out,
                               const QueryFilter& filter = QueryFilter()) const {
        detail::fill<PhysHit>(out, "phys_segment_cast_all", [&](auto... a) {
            return phys_segment_cast_all(world_, &segment, &filter.raw(), a...);
        });
    }
    // One answer per segment (every bullet of a frame), on the world's threads.
    [[nodiscard]] std::vector<std::optional<Hit>> segment_cast_batch(const std::vector<PhysSegment>& segments,
                                                                     const QueryFilter& filter = QueryFilter()) const {
        std::unique_ptr<bool[]> hit(new bool[segments.size() + 1]());
        std::vector<PhysHit> raw(segments.size());
        std::vector<std::optional<Hit>> out(segments.size());
        if (detail::check(phys_segment_cast_batch(world_, segments.data(), segments.size(), &filter.raw(), hit.get(),
                                                  raw.data()),
                          "phys_segment_cast_batch")) {
            for (std::size_t i = 0; i < segments.size(); ++i) {
                out[i] = detail::hit_if(true, hit[i], raw[i]);
            }
        }
        return out;
    }
    // The first collider the world-space shape touches moving by motion.
    [[nodiscard]] std::optional<Hit> shape_cast(const Shape& shape, const PhysVec3& motion,
                                                const QueryFilter& filter = QueryFilter()) const {
        bool hit = false;
        PhysShapeHit h{};
        const bool ok = detail::check(phys_shape_cast(world_, &shape.raw(), &motion, &filter.raw(), &hit, &h),
                                      "phys_shape_cast");
        return detail::hit_if(ok, hit, h);
    }
    [[nodiscard]] std::optional<Hit> shape_cast_sphere(const PhysSphere& sphere, const PhysVec3& motion,
                                                       const QueryFilter& filter = QueryFilter()) const {
        bool hit = false;
        PhysShapeHit h{};
        const bool ok = detail::check(phys_shape_cast_sphere(world_, &sphere, &motion, &filter.raw(), &hit, &h),
                                      "phys_shape_cast_sphere");
        return detail::hit_if(ok, hit, h);
    }
    [[nodiscard]] std::optional<Hit> shape_cast_capsule(const PhysCapsule& capsule, const PhysVec3& motion,
                                                        const QueryFilter& filter = QueryFilter()) const {
        bool hit = false;
        PhysShapeHit h{};
        const bool ok = detail::check(phys_shape_cast_capsule(world_, &capsule, &motion, &filter.raw(), &hit, &h),
                                      "phys_shape_cast_capsule");
        return detail::hit_if(ok, hit, h);
    }
    [[nodiscard]] std::optional<Hit> shape_cast_box(const PhysAabb& box, const PhysVec3& motion,
                                                    const QueryFilter& filter = QueryFilter()) const {
        bool hit = false;
        PhysShapeHit h{};
        const bool ok = detail::check(phys_shape_cast_box(world_, &box, &motion, &filter.raw(), &hit, &h),
                                      "phys_shape_cast_box");
        return detail::hit_if(ok, hit, h);
    }

    // --- Overlaps, nearest, distance and contact.

    // Every collider the world-space convex shape overlaps (a trigger).
    [[nodiscard]] std::vector<ColliderRef> overlap(const Shape& shape, const QueryFilter& filter = QueryFilter()) const {
        std::vector<ColliderRef> out;
        overlap_into(shape, out, filter);
        return out;
    }
    void overlap_into(const Shape& shape, std::vector<ColliderRef>& out,
                      const QueryFilter& filter = QueryFilter()) const {
        detail::fill<PhysColliderRef>(out, "phys_overlap_shape", [&](auto... a) {
            return phys_overlap_shape(world_, &shape.raw(), &filter.raw(), a...);
        });
    }
    [[nodiscard]] std::vector<ColliderRef> overlap_box(const PhysAabb& box, const QueryFilter& filter = QueryFilter()) const {
        std::vector<ColliderRef> out;
        detail::fill<PhysColliderRef>(out, "phys_overlap_box", [&](auto... a) {
            return phys_overlap_box(world_, &box, &filter.raw(), a...);
        });
        return out;
    }
    [[nodiscard]] std::vector<ColliderRef> overlap_sphere(const PhysSphere& sphere,
                                                          const QueryFilter& filter = QueryFilter()) const {
        std::vector<ColliderRef> out;
        detail::fill<PhysColliderRef>(out, "phys_overlap_sphere", [&](auto... a) {
            return phys_overlap_sphere(world_, &sphere, &filter.raw(), a...);
        });
        return out;
    }
    [[nodiscard]] std::vector<ColliderRef> overlap_capsule(const PhysCapsule& capsule,
                                                           const QueryFilter& filter = QueryFilter()) const {
        std::vector<ColliderRef> out;
        detail::fill<PhysColliderRef>(out, "phys_overlap_capsule", [&](auto... a) {
            return phys_overlap_capsule(world_, &capsule, &filter.raw(), a...);
        });
        return out;
    }
    [[nodiscard]] std::vector<ColliderRef> overlap_obb(const PhysObb& obb, const QueryFilter& filter = QueryFilter()) const {
        std::vector<ColliderRef> out;
        detail::fill<PhysColliderRef>(out, "phys_overlap_obb", [&](auto... a) {
            return phys_overlap_obb(world_, &obb, &filter.raw(), a...);
        });
        return out;
    }
    // The collider nearest to the world-space convex shape within max_distance.
    [[nodiscard]] std::optional<Closest> closest(const Shape& shape, float max_distance,
                                                 const QueryFilter& filter = QueryFilter()) const {
        bool found = false;
        PhysClosest c{};
        const bool ok = detail::check(phys_closest(world_, &shape.raw(), max_distance, &filter.raw(), &found, &c),
                                      "phys_closest");
        return closest_if(ok && found, c);
    }
    [[nodiscard]] std::optional<Closest> closest_point(const PhysVec3& point, float max_distance,
                                                       const QueryFilter& filter = QueryFilter()) const {
        bool found = false;
        PhysClosest c{};
        const bool ok = detail::check(phys_closest_point(world_, &point, max_distance, &filter.raw(), &found, &c),
                                      "phys_closest_point");
        return closest_if(ok && found, c);
    }
    [[nodiscard]] PhysDistance distance(Collider a, Collider b) const {
        PhysDistance d{};
        detail::check(phys_distance(world_, a.raw(), b.raw(), &d), "phys_distance");
        return d;
    }
    [[nodiscard]] std::optional<PhysContact> contact(Collider a, Collider b) const {
        bool touching = false;
        PhysContact c{};
        if (!detail::check(phys_contact(world_, a.raw(), b.raw(), &touching, &c), "phys_contact") || !touching) {
            return std::nullopt;
        }
        return c;
    }
    // Up to four contact points of two colliders (a solver's manifold).
    [[nodiscard]] std::optional<Manifold> contact_manifold(Collider a, Collider b) const {
        bool touching = false;
        PhysManifold m{};
        if (!detail::check(phys_contact_manifold(world_, a.raw(), b.raw(), &touching, &m), "phys_contact_manifold") ||
            !touching) {
            return std::nullopt;
        }
        return Manifold::from(m);
    }
    // The manifold of every current pair that touches, in the pairs' order.
    void contact_manifolds_into(std::vector<PairManifold>& out) {
        detail::fill<PhysPairManifold>(out, "phys_world_contact_manifolds",
                                       [this](auto... a) { return phys_world_contact_manifolds(world_, a...); });
    }
    [[nodiscard]] std::vector<PairManifold> contact_manifolds() {
        std::vector<PairManifold> out;
        contact_manifolds_into(out);
        return out;
    }

    // --- The character.

    // Moves the world-space convex shape by motion, sliding along what it
    // meets (after pushing it out of what it starts in): the displacement to
    // apply and every surface met (grounded: a hit whose normal points up).
    [[nodiscard]] Slide move_and_slide(const Shape& shape, const PhysVec3& motion, std::uint32_t max_iterations = 4,
                                       const QueryFilter& filter = QueryFilter()) const {
        Slide slide;
        PhysVec3 delta{};
        const bool ok = detail::fill<PhysHit>(slide.hits, "phys_move_and_slide", [&](auto... a) {
            return phys_move_and_slide(world_, &shape.raw(), &motion, &filter.raw(), max_iterations, &delta, a...);
        });
        slide.delta = ok ? delta : PhysVec3{};
        return slide;
    }
    [[nodiscard]] CapsuleSlide move_and_slide_capsule(const PhysCapsule& capsule, const PhysVec3& motion,
                                                      std::uint32_t max_iterations = 4,
                                                      const QueryFilter& filter = QueryFilter()) const {
        CapsuleSlide slide;
        detail::check(phys_move_and_slide_capsule(world_, &capsule, &motion, &filter.raw(), max_iterations,
                                                  &slide.delta, &slide.hits),
                      "phys_move_and_slide_capsule");
        return slide;
    }

    // --- Debug drawing.

    // Draws the world as lines through draw_line(const PhysVec3& a, const
    // PhysVec3& b, std::uint32_t color) (0xRRGGBBAA): what flags
    // (PHYS_DEBUG_DRAW_*, or'ed) asks for; collide draws every shape as
    // lines. draw_line must not throw (collide's frames are C).
    template <class F>
    void debug_draw(F&& draw_line, std::uint32_t flags = PHYS_DEBUG_DRAW_SHAPES) const {
        const PhysDebugDraw draw = detail::line_drawer(draw_line);
        detail::check(phys_world_debug_draw(world_, &draw, flags), "phys_world_debug_draw");
    }
    // A renderer's own primitives (boxes, spheres, capsules, ...), any of
    // them NULL but line.
    void debug_draw(const PhysDebugDraw& draw, std::uint32_t flags) const {
        detail::check(phys_world_debug_draw(world_, &draw, flags), "phys_world_debug_draw");
    }

    // --- Pairs.

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
    // The same pairs by the tree (the fast finder; it keeps a pair cache).
    template <class F>
    void find_pairs(F&& f) {
        detail::for_each_pair(phys_find_pairs, get(), f, "phys_find_pairs");
    }

    // The pairs of each finder in out (cleared first): a vector kept from
    // frame to frame stops allocating once it is large enough.
    void pairwise_into(std::vector<Pair>& out) const {
        detail::fill<PhysPair>(out, "phys_test_pairwise_into", [this](auto... a) { return phys_test_pairwise_into(world_, a...); });
    }
    void sweep_and_prune_into(std::vector<Pair>& out) {
        detail::fill<PhysPair>(out, "phys_test_sweep_and_prune_into",
                               [this](auto... a) { return phys_test_sweep_and_prune_into(world_, a...); });
    }
    void pairs_into(std::vector<Pair>& out) {
        detail::fill<PhysPair>(out, "phys_find_pairs_into", [this](auto... a) { return phys_find_pairs_into(world_, a...); });
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
    [[nodiscard]] std::vector<Pair> pairs() {
        std::vector<Pair> pairs;
        pairs_into(pairs);
        return pairs;
    }

    // Finds the pairs and keeps the differences from the previous update.
    PairEventCounts update_pair_events() {
        PairEventCounts counts;
        detail::check(phys_update_pair_events(world_, &counts.began, &counts.ended), "phys_update_pair_events");
        return counts;
    }
    // The pairs that began (ended) at the last update_pair_events.
    [[nodiscard]] std::vector<Pair> pairs_began() const {
        std::vector<Pair> out;
        detail::fill<PhysPair>(out, "phys_pair_events_began", [this](auto... a) { return phys_pair_events_began(world_, a...); });
        return out;
    }
    [[nodiscard]] std::vector<Pair> pairs_ended() const {
        std::vector<Pair> out;
        detail::fill<PhysPair>(out, "phys_pair_events_ended", [this](auto... a) { return phys_pair_events_ended(world_, a...); });
        return out;
    }

private:
    // Owns a world phys_world_load made (null when it refused).
    explicit World(PhysWorld* loaded) noexcept : world_(loaded) {}
    // The handle a successful add wrote to out (read after the call).
    static Collider added(PhysStatus status, const char* call, const PhysCollider& out) {
        return detail::check(status, call) ? Collider(out) : Collider();
    }
    static std::vector<PhysColliderDesc> raw_descs(const std::vector<ColliderDesc>& descs) {
        std::vector<PhysColliderDesc> raw;
        raw.reserve(descs.size());
        for (const ColliderDesc& d : descs) {
            raw.push_back(d.raw());
        }
        return raw;
    }
    static std::vector<PhysCollider> raw_handles(const std::vector<Collider>& colliders) {
        std::vector<PhysCollider> raw;
        raw.reserve(colliders.size());
        for (Collider c : colliders) {
            raw.push_back(c.raw());
        }
        return raw;
    }
    static std::vector<Collider> handles(PhysStatus status, const char* call, const std::vector<PhysCollider>& raw) {
        std::vector<Collider> out;
        if (detail::check(status, call)) {
            out.reserve(raw.size());
            for (PhysCollider c : raw) {
                out.emplace_back(c);
            }
        }
        return out;
    }
    // Two arrays of different lengths.
    static void size_mismatch(const char* call) {
        detail::fail(PHYS_ERROR_INVALID_ARGUMENT, call, "the two arrays differ in length");
    }
    static std::optional<Closest> closest_if(bool found, const PhysClosest& c) {
        return found ? std::optional<Closest>(Closest{Collider(c.collider), c.user_data, c.distance}) : std::nullopt;
    }

    PhysWorld* world_ = nullptr;
};

}  // namespace collide

namespace std {
template <>
struct hash<collide::Collider> {
    std::size_t operator()(collide::Collider collider) const noexcept { return hash<std::uint64_t>()(collider.bits()); }
};
}  // namespace std
