/*
 * abi_layout.c: the C side of collide's ABI layout contract.
 *
 * Static assertions of the size, alignment and every member offset of each
 * Phys* type of collide.h, as a C99 or C++17 compiler lays them out. The same
 * numbers are asserted on the Rust side (`const` assertions in
 * tests/shipping.rs), and tests/shipping.rs checks that this file names every
 * struct and member the header declares, with the numbers Rust uses: so a
 * member added, removed, reordered or retyped on either side fails a test.
 *
 * Compiled (never linked) by tests/shipping.rs as
 *   cc  -std=c99   -Wall -Wextra -Werror -pedantic -fsyntax-only -Iinclude tests/c/abi_layout.c
 *   c++ -std=c++17 -Wall -Wextra -Werror -pedantic -fsyntax-only -Iinclude -x c++ tests/c/abi_layout.c
 * and once more with -DLAYOUT_SELF_TEST, which must fail to compile, so the
 * assertion mechanism is known to bite.
 *
 * One line per fact, `LAYOUT_TYPE(T, size, align);` or
 * `LAYOUT_MEMBER(T, member, offset);`: tests/shipping.rs parses them.
 */
#include "collide.h"

#ifdef __cplusplus
#include <cstddef>
#else
#include <stddef.h>
#endif

#ifdef __cplusplus
#define LAYOUT_ASSERT(cond, name) static_assert(cond, "layout: " #name)
#define LAYOUT_ALIGN_OF(T) alignof(T)
#define LAYOUT_ALIGN_HELPER(T) typedef T layout_align_helper_##T
#else
/* C99 has no _Static_assert: a negative array size fails the build. */
#define LAYOUT_ASSERT(cond, name) typedef char layout_assert_##name[(cond) ? 1 : -1]
/* C99 has no _Alignof: the offset of T after a char is T's alignment. */
#define LAYOUT_ALIGN_HELPER(T) \
    typedef struct {           \
        char c;                \
        T t;                   \
    } layout_align_helper_##T
#define LAYOUT_ALIGN_OF(T) offsetof(layout_align_helper_##T, t)
#endif

/* sizeof(T) == size and T's alignment == align. */
#define LAYOUT_TYPE(T, size, align)                            \
    LAYOUT_ALIGN_HELPER(T);                                    \
    LAYOUT_ASSERT(sizeof(T) == (size), T##_size);              \
    LAYOUT_ASSERT(LAYOUT_ALIGN_OF(T) == (align), T##_align)

/* offsetof(T, member) == offset. */
#define LAYOUT_MEMBER(T, member, offset) LAYOUT_ASSERT(offsetof(T, member) == (offset), T##_##member)

/* The result code: a uint32_t in C, an enum with uint32_t underneath in C++. */
LAYOUT_TYPE(PhysStatus, 4, 4);

/* The book's Vector3, Quaternion, AABB and LineSegment (and Sphere, Capsule). */
LAYOUT_TYPE(PhysVec3, 12, 4);
LAYOUT_MEMBER(PhysVec3, x, 0);
LAYOUT_MEMBER(PhysVec3, y, 4);
LAYOUT_MEMBER(PhysVec3, z, 8);

LAYOUT_TYPE(PhysQuat, 16, 4);
LAYOUT_MEMBER(PhysQuat, x, 0);
LAYOUT_MEMBER(PhysQuat, y, 4);
LAYOUT_MEMBER(PhysQuat, z, 8);
LAYOUT_MEMBER(PhysQuat, w, 12);

LAYOUT_TYPE(PhysAabb, 24, 4);
LAYOUT_MEMBER(PhysAabb, min, 0);
LAYOUT_MEMBER(PhysAabb, max, 12);

LAYOUT_TYPE(PhysSegment, 24, 4);
LAYOUT_MEMBER(PhysSegment, start, 0);
LAYOUT_MEMBER(PhysSegment, end, 12);

LAYOUT_TYPE(PhysSphere, 16, 4);
LAYOUT_MEMBER(PhysSphere, center, 0);
LAYOUT_MEMBER(PhysSphere, radius, 12);

LAYOUT_TYPE(PhysCapsule, 28, 4);
LAYOUT_MEMBER(PhysCapsule, segment, 0);
LAYOUT_MEMBER(PhysCapsule, radius, 24);

/* Placement and description of a collider. */
LAYOUT_TYPE(PhysTransform, 40, 4);
LAYOUT_MEMBER(PhysTransform, translation, 0);
LAYOUT_MEMBER(PhysTransform, rotation, 12);
LAYOUT_MEMBER(PhysTransform, scale, 28);

LAYOUT_TYPE(PhysCollider, 8, 8);
LAYOUT_MEMBER(PhysCollider, bits, 0);

LAYOUT_TYPE(PhysColliderDesc, 72, 8);
LAYOUT_MEMBER(PhysColliderDesc, transform, 0);
LAYOUT_MEMBER(PhysColliderDesc, user_data, 40);
LAYOUT_MEMBER(PhysColliderDesc, category_bits, 48);
LAYOUT_MEMBER(PhysColliderDesc, mask_bits, 56);
LAYOUT_MEMBER(PhysColliderDesc, flags, 64);

/* Queries and their results. */
LAYOUT_TYPE(PhysQueryFilter, 24, 8);
LAYOUT_MEMBER(PhysQueryFilter, category_bits, 0);
LAYOUT_MEMBER(PhysQueryFilter, mask_bits, 8);
LAYOUT_MEMBER(PhysQueryFilter, exclude, 16);

LAYOUT_TYPE(PhysHit, 48, 8);
LAYOUT_MEMBER(PhysHit, collider, 0);
LAYOUT_MEMBER(PhysHit, user_data, 8);
LAYOUT_MEMBER(PhysHit, t, 16);
LAYOUT_MEMBER(PhysHit, point, 20);
LAYOUT_MEMBER(PhysHit, normal, 32);
LAYOUT_MEMBER(PhysHit, sub_shape, 44);

LAYOUT_TYPE(PhysPair, 32, 8);
LAYOUT_MEMBER(PhysPair, a, 0);
LAYOUT_MEMBER(PhysPair, user_a, 8);
LAYOUT_MEMBER(PhysPair, b, 16);
LAYOUT_MEMBER(PhysPair, user_b, 24);

LAYOUT_TYPE(PhysColliderRef, 16, 8);
LAYOUT_MEMBER(PhysColliderRef, collider, 0);
LAYOUT_MEMBER(PhysColliderRef, user_data, 8);

/* The narrow phase's shapes and results. */
LAYOUT_TYPE(PhysObb, 40, 4);
LAYOUT_MEMBER(PhysObb, center, 0);
LAYOUT_MEMBER(PhysObb, rotation, 12);
LAYOUT_MEMBER(PhysObb, half_extents, 28);

LAYOUT_TYPE(PhysTriangle, 36, 4);
LAYOUT_MEMBER(PhysTriangle, a, 0);
LAYOUT_MEMBER(PhysTriangle, b, 12);
LAYOUT_MEMBER(PhysTriangle, c, 24);

LAYOUT_TYPE(PhysCylinder, 28, 4);
LAYOUT_MEMBER(PhysCylinder, segment, 0);
LAYOUT_MEMBER(PhysCylinder, radius, 24);

LAYOUT_TYPE(PhysCone, 28, 4);
LAYOUT_MEMBER(PhysCone, base_center, 0);
LAYOUT_MEMBER(PhysCone, apex, 12);
LAYOUT_MEMBER(PhysCone, radius, 24);

LAYOUT_TYPE(PhysDistance, 48, 4);
LAYOUT_MEMBER(PhysDistance, distance, 0);
LAYOUT_MEMBER(PhysDistance, point_a, 4);
LAYOUT_MEMBER(PhysDistance, point_b, 16);
LAYOUT_MEMBER(PhysDistance, normal, 28);
LAYOUT_MEMBER(PhysDistance, sub_shapes, 40);

LAYOUT_TYPE(PhysContact, 48, 4);
LAYOUT_MEMBER(PhysContact, depth, 0);
LAYOUT_MEMBER(PhysContact, normal, 4);
LAYOUT_MEMBER(PhysContact, point_a, 16);
LAYOUT_MEMBER(PhysContact, point_b, 28);
LAYOUT_MEMBER(PhysContact, sub_shapes, 40);

LAYOUT_TYPE(PhysManifoldPoint, 32, 4);
LAYOUT_MEMBER(PhysManifoldPoint, point_a, 0);
LAYOUT_MEMBER(PhysManifoldPoint, point_b, 12);
LAYOUT_MEMBER(PhysManifoldPoint, depth, 24);
LAYOUT_MEMBER(PhysManifoldPoint, id, 28);

LAYOUT_TYPE(PhysManifold, 152, 4);
LAYOUT_MEMBER(PhysManifold, normal, 0);
LAYOUT_MEMBER(PhysManifold, count, 12);
LAYOUT_MEMBER(PhysManifold, points, 16);
LAYOUT_MEMBER(PhysManifold, sub_shapes, 144);

LAYOUT_TYPE(PhysPairManifold, 184, 8);
LAYOUT_MEMBER(PhysPairManifold, pair, 0);
LAYOUT_MEMBER(PhysPairManifold, manifold, 32);

LAYOUT_TYPE(PhysShapeHit, 48, 8);
LAYOUT_MEMBER(PhysShapeHit, collider, 0);
LAYOUT_MEMBER(PhysShapeHit, user_data, 8);
LAYOUT_MEMBER(PhysShapeHit, t, 16);
LAYOUT_MEMBER(PhysShapeHit, point, 20);
LAYOUT_MEMBER(PhysShapeHit, normal, 32);
LAYOUT_MEMBER(PhysShapeHit, sub_shape, 44);

LAYOUT_TYPE(PhysClosest, 64, 8);
LAYOUT_MEMBER(PhysClosest, collider, 0);
LAYOUT_MEMBER(PhysClosest, user_data, 8);
LAYOUT_MEMBER(PhysClosest, distance, 16);

LAYOUT_TYPE(PhysRay, 24, 4);
LAYOUT_MEMBER(PhysRay, origin, 0);
LAYOUT_MEMBER(PhysRay, direction, 12);

/* The book's free geometry. */
LAYOUT_TYPE(PhysPlane, 16, 4);
LAYOUT_MEMBER(PhysPlane, normal, 0);
LAYOUT_MEMBER(PhysPlane, d, 12);

LAYOUT_TYPE(PhysVec2, 8, 4);
LAYOUT_MEMBER(PhysVec2, x, 0);
LAYOUT_MEMBER(PhysVec2, y, 4);

LAYOUT_TYPE(PhysSegmentClosest, 36, 4);
LAYOUT_MEMBER(PhysSegmentClosest, s, 0);
LAYOUT_MEMBER(PhysSegmentClosest, t, 4);
LAYOUT_MEMBER(PhysSegmentClosest, point_a, 8);
LAYOUT_MEMBER(PhysSegmentClosest, point_b, 20);
LAYOUT_MEMBER(PhysSegmentClosest, distance_squared, 32);

/* Any shape: a kind and a union. */
LAYOUT_TYPE(PhysShapeData, 40, 8);
LAYOUT_MEMBER(PhysShapeData, aabb, 0);
LAYOUT_MEMBER(PhysShapeData, sphere, 0);
LAYOUT_MEMBER(PhysShapeData, capsule, 0);
LAYOUT_MEMBER(PhysShapeData, obb, 0);
LAYOUT_MEMBER(PhysShapeData, triangle, 0);
LAYOUT_MEMBER(PhysShapeData, cylinder, 0);
LAYOUT_MEMBER(PhysShapeData, cone, 0);
LAYOUT_MEMBER(PhysShapeData, hull, 0);
LAYOUT_MEMBER(PhysShapeData, mesh, 0);
LAYOUT_MEMBER(PhysShapeData, heightfield, 0);
LAYOUT_MEMBER(PhysShapeData, compound, 0);

LAYOUT_TYPE(PhysShape, 48, 8);
LAYOUT_MEMBER(PhysShape, kind, 0);
LAYOUT_MEMBER(PhysShape, data, 8);

/* Debug drawing: a context and function pointers. */
LAYOUT_TYPE(PhysDebugDraw, 64, 8);
LAYOUT_MEMBER(PhysDebugDraw, ctx, 0);
LAYOUT_MEMBER(PhysDebugDraw, line, 8);
LAYOUT_MEMBER(PhysDebugDraw, triangle, 16);
LAYOUT_MEMBER(PhysDebugDraw, oriented_box, 24);
LAYOUT_MEMBER(PhysDebugDraw, sphere, 32);
LAYOUT_MEMBER(PhysDebugDraw, capsule, 40);
LAYOUT_MEMBER(PhysDebugDraw, point, 48);
LAYOUT_MEMBER(PhysDebugDraw, text, 56);

#ifdef LAYOUT_SELF_TEST
/* A false fact: the build must fail here, naming self_test_PhysHit_normal. */
LAYOUT_ASSERT(offsetof(PhysHit, normal) == 36, self_test_PhysHit_normal);
#endif
