/*
 * bullets.c: the book's BallMove::Update (Game Programming in C++, ch. 10)
 * over collide's C ABI, in C99.
 *
 * It builds a small level (a floor, four walls, four targets, a sphere and a
 * capsule, each tagged with a user-data word), fires a few bullets as
 * 30-unit segment casts, reflects each bullet about the normal of what it
 * hit (v - 2(v.n)n) and casts again from the hit point, and prints every
 * cast in a line-oriented, key=value format that tests/c_examples.rs parses:
 *
 *   version lib=0.1.0 header=0.1.0 number=256
 *   collider user=103 min=x,y,z max=x,y,z
 *   hit bullet=B cast=C user=U from=x,y,z to=x,y,z t=T point=x,y,z normal=x,y,z
 *   miss bullet=B cast=C from=x,y,z to=x,y,z
 *   end bullet=B hits=H reason=bounces|escaped|casts
 *   error op=NAME status=S | phys_status_string(S) | phys_last_error_message()
 *   summary bullets=N casts=N hits=N target_hits=N escaped=N colliders=N
 *
 * Every PhysStatus is checked: an unexpected failure prints its description
 * and message to stderr and exits with status 1.
 *
 * The only collide header is collide.h; the rest is the C standard library.
 */
#include "collide.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* ------------------------------------------------------------------------ */
/* The book's math types, and proof that collide's mirror them.             */
/* ------------------------------------------------------------------------ */

/* C99 has no _Static_assert: a negative array size fails the build. */
#define STATIC_ASSERT(cond, name) typedef char static_assert_##name[(cond) ? 1 : -1]

/* The book's Vector3, Quaternion, AABB and LineSegment, as plain C. */
typedef struct Vector3 {
    float x, y, z;
} Vector3;
typedef struct Quaternion {
    float x, y, z, w;
} Quaternion;
typedef struct AABB {
    Vector3 mMin, mMax;
} AABB;
typedef struct LineSegment {
    Vector3 mStart, mEnd;
} LineSegment;

STATIC_ASSERT(sizeof(PhysVec3) == 12, vec3_is_12_bytes);
STATIC_ASSERT(offsetof(PhysVec3, z) == 8, vec3_z_at_8);
STATIC_ASSERT(sizeof(PhysQuat) == 16, quat_is_16_bytes);
STATIC_ASSERT(offsetof(PhysQuat, w) == 12, quat_w_is_last);
STATIC_ASSERT(sizeof(PhysAabb) == 24, aabb_is_24_bytes);
STATIC_ASSERT(offsetof(PhysAabb, max) == 12, aabb_max_at_12);
STATIC_ASSERT(sizeof(PhysSegment) == 24, segment_is_24_bytes);
STATIC_ASSERT(offsetof(PhysSegment, end) == 12, segment_end_at_12);

STATIC_ASSERT(sizeof(Vector3) == sizeof(PhysVec3), vec3_matches_book);
STATIC_ASSERT(sizeof(Quaternion) == sizeof(PhysQuat), quat_matches_book);
STATIC_ASSERT(offsetof(Quaternion, w) == offsetof(PhysQuat, w), quat_w_matches_book);
STATIC_ASSERT(sizeof(AABB) == sizeof(PhysAabb), aabb_matches_book);
STATIC_ASSERT(offsetof(AABB, mMax) == offsetof(PhysAabb, max), aabb_max_matches_book);
STATIC_ASSERT(sizeof(LineSegment) == sizeof(PhysSegment), segment_matches_book);
STATIC_ASSERT(offsetof(LineSegment, mEnd) == offsetof(PhysSegment, end), segment_end_matches_book);

/* ------------------------------------------------------------------------ */
/* Small helpers.                                                           */
/* ------------------------------------------------------------------------ */

/* Exits with a description of an unexpected failure. */
static void check(PhysStatus status, const char *what) {
    if (status != PHYS_OK) {
        fprintf(stderr, "bullets: %s failed: %s (status %u): %s\n", what, phys_status_string(status),
                (unsigned)status, phys_last_error_message());
        exit(1);
    }
}
#define CHECK(call) check((call), #call)

/* Exits with a message when a condition the program relies on is false. */
static void require(int ok, const char *what) {
    if (!ok) {
        fprintf(stderr, "bullets: expectation failed: %s\n", what);
        exit(1);
    }
}

static Vector3 v3(float x, float y, float z) {
    Vector3 v;
    v.x = x;
    v.y = y;
    v.z = z;
    return v;
}
static Vector3 add(Vector3 a, Vector3 b) { return v3(a.x + b.x, a.y + b.y, a.z + b.z); }
static Vector3 scale(Vector3 a, float s) { return v3(a.x * s, a.y * s, a.z * s); }
static float dot(Vector3 a, Vector3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static Vector3 normalize(Vector3 a) { return scale(a, 1.0f / sqrtf(dot(a, a))); }
static Vector3 from_phys(PhysVec3 p) { return v3(p.x, p.y, p.z); }
static PhysVec3 pv3(float x, float y, float z) {
    PhysVec3 v;
    v.x = x;
    v.y = y;
    v.z = z;
    return v;
}

/* The book's reflection: v - 2(v.n)n. */
static Vector3 reflect(Vector3 v, Vector3 n) { return add(v, scale(n, -2.0f * dot(v, n))); }

/* Prints a vector as x,y,z with -0 shown as 0, so the output is stable. */
static void print_vec(const char *key, Vector3 v) {
    printf(" %s=%.6f,%.6f,%.6f", key, v.x + 0.0f, v.y + 0.0f, v.z + 0.0f);
}

/* ------------------------------------------------------------------------ */
/* The level.                                                               */
/* ------------------------------------------------------------------------ */

/* Collision categories. */
#define CATEGORY_BULLET ((uint64_t)1 << 0)
#define CATEGORY_LEVEL ((uint64_t)1 << 1)
#define CATEGORY_TARGET ((uint64_t)1 << 2)
#define CATEGORY_PROP ((uint64_t)1 << 3)

/* User data: 1 floor, 2..5 walls (west, east, south, north), 101..104
 * targets, 201 the sphere, 301 the capsule. */
#define USER_FLOOR 1u
#define USER_WEST 2u
#define USER_EAST 3u
#define USER_SOUTH 4u
#define USER_NORTH 5u
#define USER_TARGET_FIRST 101u
#define USER_TARGET_LAST 199u
#define USER_SPHERE 201u
#define USER_CAPSULE 301u

/* A description placing a collider at `translation` with a uniform scale. */
static PhysColliderDesc place(uint64_t user, uint64_t category, Vector3 translation, Vector3 scale3) {
    PhysColliderDesc desc = phys_collider_desc_default();
    desc.transform.translation = pv3(translation.x, translation.y, translation.z);
    desc.transform.scale = pv3(scale3.x, scale3.y, scale3.z);
    desc.user_data = user;
    desc.category_bits = category;
    return desc;
}

/* The object-space box of half extents (hx, hy, hz) around the origin. */
static PhysAabb box(float hx, float hy, float hz) {
    PhysAabb out;
    out.min = pv3(-hx, -hy, -hz);
    out.max = pv3(hx, hy, hz);
    return out;
}

static PhysCollider add_box(PhysWorld *world, PhysAabb object_box, const PhysColliderDesc *desc) {
    PhysCollider handle;
    CHECK(phys_add_box(world, &object_box, desc, &handle));
    return handle;
}

/* The level: a 40 x 44 floor with its top at y = 0, walls 10 high around it
 * (x = +-20, z = -20 and z = 24), and the targets and props. */
static void build_level(PhysWorld *world) {
    Vector3 one = v3(1.0f, 1.0f, 1.0f);
    PhysColliderDesc desc;
    PhysSphere sphere;
    PhysCapsule capsule;
    PhysCollider handle;
    /* 45 degrees about y: (0, sin 22.5, 0, cos 22.5). */
    PhysQuat quarter_turn = {0.0f, 0.38268343f, 0.0f, 0.92387953f};

    /* The floor: a unit box scaled to 40 x 1 x 44, as the book's plane actors are. */
    desc = place(USER_FLOOR, CATEGORY_LEVEL, v3(0.0f, -0.5f, 2.0f), v3(40.0f, 1.0f, 44.0f));
    add_box(world, box(0.5f, 0.5f, 0.5f), &desc);

    desc = place(USER_WEST, CATEGORY_LEVEL, v3(-20.5f, 5.0f, 2.0f), one);
    add_box(world, box(0.5f, 5.0f, 23.0f), &desc);
    desc = place(USER_EAST, CATEGORY_LEVEL, v3(20.5f, 5.0f, 2.0f), one);
    add_box(world, box(0.5f, 5.0f, 23.0f), &desc);
    desc = place(USER_SOUTH, CATEGORY_LEVEL, v3(0.0f, 5.0f, -20.5f), one);
    add_box(world, box(20.0f, 5.0f, 0.5f), &desc);
    desc = place(USER_NORTH, CATEGORY_LEVEL, v3(0.0f, 5.0f, 24.5f), one);
    add_box(world, box(20.0f, 5.0f, 0.5f), &desc);

    /* Targets: two plain 2 x 2 x 2 boxes, then the same box turned 45
     * degrees about y, once rotated with it (PHYS_COLLIDER_SHOULD_ROTATE: the
     * world box grows to +-sqrt 2) and once not (the book's mShouldRotate). */
    desc = place(101, CATEGORY_TARGET, v3(10.0f, 2.0f, 0.0f), one);
    add_box(world, box(1.0f, 1.0f, 1.0f), &desc);
    desc = place(102, CATEGORY_TARGET, v3(-10.0f, 2.0f, 5.0f), one);
    add_box(world, box(1.0f, 1.0f, 1.0f), &desc);
    desc = place(103, CATEGORY_TARGET, v3(0.0f, 2.0f, -10.0f), one);
    desc.transform.rotation = quarter_turn;
    desc.flags = PHYS_COLLIDER_SHOULD_ROTATE;
    add_box(world, box(1.0f, 1.0f, 1.0f), &desc);
    desc = place(104, CATEGORY_TARGET, v3(10.0f, 2.0f, -10.0f), one);
    desc.transform.rotation = quarter_turn;
    desc.flags = 0;
    add_box(world, box(1.0f, 1.0f, 1.0f), &desc);

    /* A unit sphere scaled to radius 1.5 at (0, 2, 10). */
    sphere.center = pv3(0.0f, 0.0f, 0.0f);
    sphere.radius = 1.0f;
    desc = place(USER_SPHERE, CATEGORY_PROP, v3(0.0f, 2.0f, 10.0f), v3(1.5f, 1.5f, 1.5f));
    CHECK(phys_add_sphere(world, &sphere, &desc, &handle));

    /* An upright capsule of radius 1, its axis from y = 1 to y = 4 at (-10, -10). */
    capsule.segment.start = pv3(0.0f, -1.5f, 0.0f);
    capsule.segment.end = pv3(0.0f, 1.5f, 0.0f);
    capsule.radius = 1.0f;
    desc = place(USER_CAPSULE, CATEGORY_PROP, v3(-10.0f, 2.5f, -10.0f), one);
    CHECK(phys_add_capsule(world, &capsule, &desc, &handle));
}

/* Prints the world box of the collider with user data `user`, found with a
 * short downward cast onto its top. */
static void print_world_box(const PhysWorld *world, uint64_t user, Vector3 above) {
    LineSegment down;
    PhysHit hit;
    PhysAabb aabb;
    bool did_hit = false;
    down.mStart = above;
    down.mEnd = add(above, v3(0.0f, -3.0f, 0.0f));
    /* The book's LineSegment is passed as is: the layouts are asserted equal. */
    CHECK(phys_segment_cast(world, (const PhysSegment *)&down, NULL, &did_hit, &hit));
    require(did_hit && hit.user_data == user, "the probe cast finds the collider");
    CHECK(phys_get_world_aabb(world, hit.collider, &aabb));
    printf("collider user=%llu", (unsigned long long)user);
    print_vec("min", from_phys(aabb.min));
    print_vec("max", from_phys(aabb.max));
    printf("\n");
}

/* ------------------------------------------------------------------------ */
/* Bullets.                                                                 */
/* ------------------------------------------------------------------------ */

#define SEGMENT_LENGTH 30.0f
#define MAX_BOUNCES 4
#define MAX_CASTS 8

typedef struct Bullet {
    Vector3 start;
    Vector3 direction; /* need not be unit length */
    uint64_t mask;     /* the categories it hits */
} Bullet;

typedef struct Tally {
    unsigned casts, hits, target_hits, escaped;
} Tally;

/* Whether a point has left the level's box (the bullet flew out). */
static int outside_level(Vector3 p) {
    return p.x < -22.0f || p.x > 22.0f || p.y < -2.0f || p.y > 12.0f || p.z < -22.0f || p.z > 26.0f;
}

/* Flies one bullet: cast SEGMENT_LENGTH ahead; on a hit, reflect about the
 * normal and go on from the hit point, ignoring the collider just hit (the
 * hit point lies on its surface, so a new cast would start "inside" it). */
static void fire(const PhysWorld *world, unsigned index, Bullet bullet, Tally *tally) {
    Vector3 position = bullet.start;
    Vector3 direction = normalize(bullet.direction);
    PhysCollider last_hit = {0};
    unsigned hits = 0;
    unsigned cast;
    const char *reason = "casts";

    for (cast = 0; cast < MAX_CASTS; ++cast) {
        LineSegment segment;
        PhysQueryFilter filter;
        PhysHit hit;
        bool did_hit = false;

        segment.mStart = position;
        segment.mEnd = add(position, scale(direction, SEGMENT_LENGTH));
        filter.category_bits = CATEGORY_BULLET;
        filter.mask_bits = bullet.mask;
        filter.exclude = last_hit;
        CHECK(phys_segment_cast(world, (const PhysSegment *)&segment, &filter, &did_hit, &hit));
        tally->casts++;

        if (!did_hit) {
            printf("miss bullet=%u cast=%u", index, cast);
            print_vec("from", segment.mStart);
            print_vec("to", segment.mEnd);
            printf("\n");
            position = segment.mEnd;
            last_hit.bits = 0;
            if (outside_level(position)) {
                reason = "escaped";
                tally->escaped++;
                break;
            }
            continue;
        }

        printf("hit bullet=%u cast=%u user=%llu", index, cast, (unsigned long long)hit.user_data);
        print_vec("from", segment.mStart);
        print_vec("to", segment.mEnd);
        printf(" t=%.6f", hit.t);
        print_vec("point", from_phys(hit.point));
        print_vec("normal", from_phys(hit.normal));
        printf("\n");

        tally->hits++;
        if (hit.user_data >= USER_TARGET_FIRST && hit.user_data <= USER_TARGET_LAST) {
            tally->target_hits++;
        }
        position = from_phys(hit.point);
        direction = normalize(reflect(direction, from_phys(hit.normal)));
        last_hit = hit.collider;
        if (++hits == MAX_BOUNCES) {
            reason = "bounces";
            break;
        }
    }
    printf("end bullet=%u hits=%u reason=%s\n", index, hits, reason);
}

/* ------------------------------------------------------------------------ */
/* The error path, on purpose.                                              */
/* ------------------------------------------------------------------------ */

/* Prints a failure we asked for, and exits unless it is the expected one. */
static void expect_error(const char *op, PhysStatus status, PhysStatus expected) {
    printf("error op=%s status=%u | %s | %s\n", op, (unsigned)status, phys_status_string(status),
           phys_last_error_message());
    if (status != expected) {
        fprintf(stderr, "bullets: %s: expected status %u (%s), got %u\n", op, (unsigned)expected,
                phys_status_string(expected), (unsigned)status);
        exit(1);
    }
}

static void error_demos(PhysWorld *world) {
    const PhysCollider sentinel = {0xDEADBEEFDEADBEEFull};
    PhysCollider handle = sentinel;
    PhysAabb inverted;
    PhysSphere sphere;
    PhysSegment nan_segment;
    PhysHit hit;
    bool did_hit = false;
    uint64_t user = 77;
    size_t before = 0, after = 0;

    CHECK(phys_world_count(world, &before));

    /* min > max on x: refused, nothing added, the handle not written. */
    inverted.min = pv3(1.0f, 0.0f, 0.0f);
    inverted.max = pv3(0.0f, 1.0f, 1.0f);
    expect_error("add_inverted_box", phys_add_box(world, &inverted, NULL, &handle), PHYS_ERROR_INVERTED_BOX);
    require(handle.bits == sentinel.bits, "a failed add leaves *out alone");

    /* A removed collider's handle is stale, never aliased. */
    sphere.center = pv3(0.0f, 50.0f, 0.0f);
    sphere.radius = 1.0f;
    CHECK(phys_add_sphere(world, &sphere, NULL, &handle));
    CHECK(phys_remove(world, handle));
    require(!phys_collider_is_alive(world, handle), "a removed collider is dead");
    expect_error("get_user_data_removed", phys_get_user_data(world, handle, &user), PHYS_ERROR_STALE_HANDLE);
    require(user == 77, "a failed get leaves *out alone");
    expect_error("remove_twice", phys_remove(world, handle), PHYS_ERROR_STALE_HANDLE);

    /* A NaN coordinate is refused, not treated as a hit (the book's bug). */
    nan_segment.start = pv3(0.0f, 2.0f, 0.0f);
    nan_segment.end = pv3((float)NAN, 2.0f, 0.0f);
    expect_error("cast_nan_segment", phys_segment_cast(world, &nan_segment, NULL, &did_hit, &hit),
                 PHYS_ERROR_NON_FINITE);

    CHECK(phys_world_count(world, &after));
    require(before == after, "failed calls leave the world as it was");
}

int main(void) {
    static const Bullet bullets[] = {
        /* Straight at target 101, then back and forth to the west wall. */
        {{0.0f, 2.0f, 0.0f}, {1.0f, 0.0f, 0.0f}, ~(uint64_t)0},
        /* At the sphere, then between it and the turned target 103. */
        {{0.0f, 2.0f, 0.0f}, {0.0f, 0.0f, 1.0f}, ~(uint64_t)0},
        /* Diagonally at the capsule's side, then around the room. */
        {{0.0f, 2.0f, 0.0f}, {-1.0f, 0.0f, -1.0f}, ~(uint64_t)0},
        /* Down at the floor, then up over the north wall. */
        {{0.0f, 2.0f, 0.0f}, {0.0f, -1.0f, 1.0f}, ~(uint64_t)0},
        /* A ghost that hits only the level: through 101 to the east wall. */
        {{0.0f, 2.0f, 0.0f}, {1.0f, 0.0f, 0.0f}, CATEGORY_LEVEL},
        /* Fired from inside target 101: a hit at t = 0, then floor and target. */
        {{10.0f, 2.0f, 0.0f}, {0.0f, 1.0f, 0.0f}, ~(uint64_t)0},
        /* At target 102's face, glancing off onto the sphere. */
        {{0.0f, 2.0f, 0.0f}, {-2.0f, 0.0f, 1.0f}, ~(uint64_t)0},
    };
    const unsigned bullet_count = (unsigned)(sizeof bullets / sizeof bullets[0]);
    PhysWorld *world = NULL;
    Tally tally = {0, 0, 0, 0};
    size_t colliders = 0;
    unsigned i;

    printf("version lib=%s header=%s number=%u\n", phys_version(), PHYS_VERSION_STRING,
           (unsigned)phys_version_number());
    require(phys_version_number() == PHYS_VERSION_NUMBER, "the library matches the header");

    CHECK(phys_world_create(&world));
    build_level(world);
    CHECK(phys_world_count(world, &colliders));

    print_world_box(world, 101, v3(10.0f, 5.0f, 0.0f));
    print_world_box(world, 103, v3(0.0f, 5.0f, -10.0f));
    print_world_box(world, 104, v3(10.0f, 5.0f, -10.0f));

    for (i = 0; i < bullet_count; ++i) {
        fire(world, i, bullets[i], &tally);
    }

    error_demos(world);

    printf("summary bullets=%u casts=%u hits=%u target_hits=%u escaped=%u colliders=%lu\n", bullet_count,
           tally.casts, tally.hits, tally.target_hits, tally.escaped, (unsigned long)colliders);
    phys_world_destroy(world);
    return 0;
}
