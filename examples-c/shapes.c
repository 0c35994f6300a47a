/*
 * shapes.c: every shape collide knows, said one way from C (PhysShape),
 * in C99.
 *
 * A convex hull is built once and shared by three colliders; a triangle
 * mesh (a floor) likewise; one collider of every plain kind stands in a
 * row. Then a cast down onto each collider, an overlap, a shape cast, the
 * nearest collider to a probe, a world-free contact, a compound (a
 * dumbbell) in a world of its own, that world saved and loaded, and a
 * refused shape, each printed as a key=value line that tests/c_examples.rs
 * checks against the scene's geometry:
 *
 *   cast user=U hit=0|1 t=T normal=x,y,z
 *   overlap count=N users=U,U,...
 *   shape_cast user=U t=T
 *   closest user=U distance=D
 *   contact touching=0|1 depth=D normal=x,y,z
 *   compound sub_shape=I t=T
 *   snapshot same_hit=0|1 same_hash=0|1 refused=S
 *   refused status=S
 *   summary colliders=N
 *
 * Every PhysStatus is checked: an unexpected failure prints its description
 * and message to stderr and exits with status 1.
 */
#include "collide.h"

#include <stdio.h>
#include <stdlib.h>

static void check(PhysStatus status, const char* call) {
    if (status != PHYS_OK) {
        fprintf(stderr, "%s: %s: %s\n", call, phys_status_string(status), phys_last_error_message());
        exit(1);
    }
}

static PhysVec3 vec3(float x, float y, float z) {
    PhysVec3 v;
    v.x = x;
    v.y = y;
    v.z = z;
    return v;
}

static PhysColliderDesc placed(uint64_t user_data, float x, float y, float z) {
    PhysColliderDesc desc = phys_collider_desc_default();
    desc.transform.translation = vec3(x, y, z);
    desc.user_data = user_data;
    return desc;
}

/* The users of the row of plain shapes, one per kind, 3 apart along x at
 * z = 6, in this order. */
enum { ROW_BOX = 10, ROW_SPHERE, ROW_CAPSULE, ROW_OBB, ROW_TRIANGLE, ROW_CYLINDER, ROW_CONE, ROW_END };

static PhysShape row_shape(int user) {
    PhysShape shape;
    PhysSegment axis;
    axis.start = vec3(0.0f, -1.0f, 0.0f);
    axis.end = vec3(0.0f, 1.0f, 0.0f);
    switch (user) {
    case ROW_BOX:
        shape.kind = PHYS_SHAPE_BOX;
        shape.data.aabb.min = vec3(-1.0f, -1.0f, -1.0f);
        shape.data.aabb.max = vec3(1.0f, 1.0f, 1.0f);
        break;
    case ROW_SPHERE:
        shape.kind = PHYS_SHAPE_SPHERE;
        shape.data.sphere.center = vec3(0.0f, 0.0f, 0.0f);
        shape.data.sphere.radius = 1.0f;
        break;
    case ROW_CAPSULE:
        shape.kind = PHYS_SHAPE_CAPSULE;
        shape.data.capsule.segment = axis;
        shape.data.capsule.radius = 0.5f;
        break;
    case ROW_OBB:
        shape.kind = PHYS_SHAPE_OBB;
        shape.data.obb.center = vec3(0.0f, 0.0f, 0.0f);
        shape.data.obb.rotation.x = 0.0f;
        shape.data.obb.rotation.y = 0.0f;
        shape.data.obb.rotation.z = 0.0f;
        shape.data.obb.rotation.w = 1.0f;
        shape.data.obb.half_extents = vec3(1.0f, 0.5f, 0.25f);
        break;
    case ROW_TRIANGLE:
        shape.kind = PHYS_SHAPE_TRIANGLE;
        shape.data.triangle.a = vec3(-1.0f, 0.0f, -1.0f);
        shape.data.triangle.b = vec3(1.0f, 0.0f, -1.0f);
        shape.data.triangle.c = vec3(0.0f, 0.0f, 1.0f);
        break;
    case ROW_CYLINDER:
        shape.kind = PHYS_SHAPE_CYLINDER;
        shape.data.cylinder.segment = axis;
        shape.data.cylinder.radius = 0.75f;
        break;
    default:
        shape.kind = PHYS_SHAPE_CONE;
        shape.data.cone.base_center = axis.start;
        shape.data.cone.apex = axis.end;
        shape.data.cone.radius = 0.75f;
        break;
    }
    return shape;
}

static float row_x(int user) { return 3.0f * (float)(user - ROW_BOX); }

static void cast_down(const PhysWorld* world, float x, float z) {
    PhysSegment down;
    PhysHit hit;
    bool hit_something = false;
    down.start = vec3(x, 5.0f, z);
    down.end = vec3(x, -2.5f, z);
    check(phys_segment_cast(world, &down, NULL, &hit_something, &hit), "phys_segment_cast");
    if (hit_something) {
        printf("cast user=%llu hit=1 t=%.6f normal=%.6f,%.6f,%.6f\n", (unsigned long long)hit.user_data, hit.t,
               hit.normal.x, hit.normal.y, hit.normal.z);
    } else {
        printf("cast user=none hit=0 t=1 normal=0,0,0\n");
    }
}

int main(void) {
    PhysWorld* world = NULL;
    PhysHull* hull = NULL;
    PhysMesh* mesh = NULL;
    size_t colliders = 0;
    int user;
    check(phys_world_create(&world), "phys_world_create");

    /* A cube with one top corner pulled in, built once, used three times. */
    {
        PhysVec3 points[8];
        int i;
        PhysShape shape;
        for (i = 0; i < 8; ++i) {
            points[i] = vec3((i & 1) ? 1.0f : -1.0f, (i & 2) ? 1.0f : -1.0f, (i & 4) ? 1.0f : -1.0f);
        }
        points[7] = vec3(0.2f, 0.4f, 0.3f);
        check(phys_hull_create(points, 8, &hull), "phys_hull_create");
        shape.kind = PHYS_SHAPE_HULL;
        shape.data.hull = hull;
        for (i = 0; i < 3; ++i) {
            PhysColliderDesc desc = placed((uint64_t)i, 4.0f * (float)i, 0.0f, 0.0f);
            PhysCollider collider;
            check(phys_add_shape(world, &shape, &desc, &collider), "phys_add_shape");
            ++colliders;
        }
        /* The colliders keep the hull alive. */
        phys_hull_destroy(hull);
    }

    /* A floor of two triangles, 40 wide, at y = -2: a shared mesh. */
    {
        PhysVec3 vertices[4];
        uint32_t indices[6] = {0, 1, 2, 0, 2, 3};
        PhysShape shape;
        PhysColliderDesc desc = placed(99, 0.0f, -2.0f, 0.0f);
        PhysCollider collider;
        vertices[0] = vec3(-20.0f, 0.0f, -20.0f);
        vertices[1] = vec3(20.0f, 0.0f, -20.0f);
        vertices[2] = vec3(20.0f, 0.0f, 20.0f);
        vertices[3] = vec3(-20.0f, 0.0f, 20.0f);
        check(phys_mesh_create(vertices, 4, indices, 6, &mesh), "phys_mesh_create");
        shape.kind = PHYS_SHAPE_MESH;
        shape.data.mesh = mesh;
        check(phys_add_shape(world, &shape, &desc, &collider), "phys_add_shape");
        ++colliders;
        phys_mesh_destroy(mesh);
    }

    /* One collider of every plain kind. */
    for (user = ROW_BOX; user < ROW_END; ++user) {
        PhysShape shape = row_shape(user);
        PhysColliderDesc desc = placed((uint64_t)user, row_x(user), 0.0f, 6.0f);
        PhysCollider collider;
        check(phys_add_shape(world, &shape, &desc, &collider), "phys_add_shape");
        ++colliders;
    }

    /* Casts: onto each hull (off its pulled-in corner), each row shape (a
     * little off the cone's apex), and the floor between them. */
    cast_down(world, -0.5f, -0.5f);
    cast_down(world, 3.5f, -0.5f);
    cast_down(world, 7.5f, -0.5f);
    for (user = ROW_BOX; user < ROW_END; ++user) {
        cast_down(world, row_x(user) + (user == ROW_CONE ? 0.2f : 0.0f), 6.0f);
    }
    cast_down(world, 2.0f, 3.0f);

    /* An overlap: a box over the first three of the row. */
    {
        PhysShape probe;
        PhysColliderRef found[8];
        size_t written = 0, total = 0, i;
        probe.kind = PHYS_SHAPE_BOX;
        probe.data.aabb.min = vec3(-1.0f, -1.0f, 5.0f);
        probe.data.aabb.max = vec3(6.5f, 1.0f, 7.0f);
        check(phys_overlap_shape(world, &probe, NULL, found, 8, &written, &total), "phys_overlap_shape");
        printf("overlap count=%zu users=", written);
        for (i = 0; i < written; ++i) {
            printf("%s%llu", i ? "," : "", (unsigned long long)found[i].user_data);
        }
        printf("\n");
    }

    /* A ball dropped onto the row's sphere. */
    {
        PhysShape ball;
        PhysVec3 motion = vec3(0.0f, -6.0f, 0.0f);
        PhysShapeHit hit;
        bool hit_something = false;
        hit.t = 1.0f;
        hit.user_data = 0;
        ball.kind = PHYS_SHAPE_SPHERE;
        ball.data.sphere.center = vec3(row_x(ROW_SPHERE), 5.0f, 6.0f);
        ball.data.sphere.radius = 0.5f;
        check(phys_shape_cast(world, &ball, &motion, NULL, &hit_something, &hit), "phys_shape_cast");
        printf("shape_cast user=%llu t=%.6f\n", hit_something ? (unsigned long long)hit.user_data : 0ull, hit.t);
    }

    /* The collider nearest to a ball above the oriented box. */
    {
        PhysShape ball;
        PhysClosest closest;
        bool found = false;
        closest.user_data = 0;
        closest.distance.distance = -1.0f;
        ball.kind = PHYS_SHAPE_SPHERE;
        ball.data.sphere.center = vec3(row_x(ROW_OBB), 3.0f, 6.0f);
        ball.data.sphere.radius = 0.5f;
        check(phys_closest(world, &ball, 10.0f, NULL, &found, &closest), "phys_closest");
        printf("closest user=%llu distance=%.6f\n", found ? (unsigned long long)closest.user_data : 0ull,
               closest.distance.distance);
    }

    /* A world-free contact: a unit ball and a box it sinks 0.5 into. */
    {
        PhysShape ball = row_shape(ROW_SPHERE), wall;
        PhysContact contact;
        bool touching = false;
        contact.depth = -1.0f;
        contact.normal = vec3(0.0f, 0.0f, 0.0f);
        wall.kind = PHYS_SHAPE_BOX;
        wall.data.aabb.min = vec3(0.5f, -2.0f, -2.0f);
        wall.data.aabb.max = vec3(2.0f, 2.0f, 2.0f);
        check(phys_shape_contact(&ball, &wall, &touching, &contact), "phys_shape_contact");
        printf("contact touching=%d depth=%.6f normal=%.6f,%.6f,%.6f\n", touching ? 1 : 0, contact.depth,
               contact.normal.x, contact.normal.y, contact.normal.z);
    }

    /* A compound: a dumbbell (balls of radius 0.5 at x = -1 and 1 on a
     * bar) as one collider of a world of its own. A shot along it meets the
     * ball at x = 1, child 1, at x = 1.5. Then that world is saved into a
     * buffer of the size asked for and loaded: the copy answers the shot
     * under the same handle and hashes alike; a cut copy of the bytes is
     * refused. */
    {
        PhysWorld* side = NULL;
        PhysWorld* copy = NULL;
        PhysCompound* dumbbell = NULL;
        PhysShape parts[3], shape;
        PhysTransform poses[3];
        PhysCollider handle;
        PhysSegment shot;
        PhysHit hit, copy_hit;
        bool found = false, copy_found = false;
        size_t written = 0, total = 0;
        uint64_t hash = 0, copy_hash = 1;
        unsigned char* bytes;
        int i;
        for (i = 0; i < 3; ++i) {
            poses[i].translation = vec3(i == 0 ? -1.0f : i == 1 ? 1.0f : 0.0f, 0.0f, 0.0f);
            poses[i].rotation.x = poses[i].rotation.y = poses[i].rotation.z = 0.0f;
            poses[i].rotation.w = 1.0f;
            poses[i].scale = vec3(1.0f, 1.0f, 1.0f);
            parts[i].kind = PHYS_SHAPE_SPHERE;
            parts[i].data.sphere.center = vec3(0.0f, 0.0f, 0.0f);
            parts[i].data.sphere.radius = 0.5f;
        }
        parts[2].kind = PHYS_SHAPE_BOX;
        parts[2].data.aabb.min = vec3(-1.0f, -0.1f, -0.1f);
        parts[2].data.aabb.max = vec3(1.0f, 0.1f, 0.1f);
        check(phys_compound_create(parts, poses, 3, &dumbbell), "phys_compound_create");
        shape.kind = PHYS_SHAPE_COMPOUND;
        shape.data.compound = dumbbell;
        check(phys_world_create(&side), "phys_world_create");
        check(phys_add_shape(side, &shape, NULL, &handle), "phys_add_shape");
        phys_compound_destroy(dumbbell); /* the collider keeps its own */
        shot.start = vec3(5.0f, 0.0f, 0.0f);
        shot.end = vec3(-5.0f, 0.0f, 0.0f);
        check(phys_segment_cast(side, &shot, NULL, &found, &hit), "phys_segment_cast");
        printf("compound sub_shape=%u t=%.6f\n", found ? hit.sub_shape : 99u, found ? hit.t : -1.0f);

        if (phys_world_save(side, NULL, 0, &written, &total) != PHYS_ERROR_BUFFER_TOO_SMALL) {
            fprintf(stderr, "phys_world_save: the size was not asked for\n");
            exit(1);
        }
        bytes = malloc(total);
        if (bytes == NULL) {
            exit(1);
        }
        check(phys_world_save(side, bytes, total, &written, &total), "phys_world_save");
        check(phys_world_load(bytes, written, &copy), "phys_world_load");
        check(phys_segment_cast(copy, &shot, NULL, &copy_found, &copy_hit), "phys_segment_cast");
        check(phys_world_state_hash(side, &hash), "phys_world_state_hash");
        check(phys_world_state_hash(copy, &copy_hash), "phys_world_state_hash");
        printf("snapshot same_hit=%d same_hash=%d refused=%d\n",
               copy_found && copy_hit.collider.bits == handle.bits && copy_hit.t == hit.t ? 1 : 0,
               hash == copy_hash ? 1 : 0, (int)phys_world_load(bytes, written - 1, &copy));
        free(bytes);
        phys_world_destroy(copy);
        phys_world_destroy(side);
    }

    /* A kind collide does not know is refused, the world unchanged. */
    {
        PhysShape unknown = row_shape(ROW_SPHERE);
        PhysCollider collider;
        size_t count = 0;
        unknown.kind = 42;
        printf("refused status=%d\n", (int)phys_add_shape(world, &unknown, NULL, &collider));
        check(phys_world_count(world, &count), "phys_world_count");
        printf("summary colliders=%zu\n", count == colliders ? count : (size_t)0);
    }

    phys_world_destroy(world);
    return 0;
}
