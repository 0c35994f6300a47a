/*
 * scale.c: how a PhysTransform's scale places round shapes, checked from C.
 *
 * Points map by rotation·(scale∘p) + translation; the radius of a sphere,
 * capsule, cylinder or cone scales by the largest |scale_i|. Each shape is
 * added with scale (1, 2, 3) (the cone with (-1, 2, -3): a mirror counts by
 * its magnitude) and a translation along x, and its world box is compared
 * with the one that rule gives. A segment dropped onto the sphere meets it
 * at the scaled radius. It prints
 *
 *   shape name=NAME min=x,y,z max=x,y,z
 *   cast name=sphere t=T
 *   summary checks=N failed=N
 *
 * and exits with status 1 when a check fails.
 */
#include "collide.h"

#include <math.h>
#include <stdio.h>

static int checks = 0, failed = 0;

static void expect(int ok, const char *what) {
    ++checks;
    if (!ok) {
        ++failed;
        fprintf(stderr, "scale: FAIL: %s (%s)\n", what, phys_last_error_message());
    }
}

static PhysVec3 v3(float x, float y, float z) {
    PhysVec3 v;
    v.x = x;
    v.y = y;
    v.z = z;
    return v;
}

static int near3(PhysVec3 a, PhysVec3 b) {
    return fabsf(a.x - b.x) <= 1e-5f && fabsf(a.y - b.y) <= 1e-5f && fabsf(a.z - b.z) <= 1e-5f;
}

static PhysColliderDesc placed(float x, PhysVec3 scale) {
    PhysColliderDesc desc = phys_collider_desc_default();
    desc.transform.translation = v3(x, 0.0f, 0.0f);
    desc.transform.scale = scale;
    return desc;
}

static void check_box(PhysWorld *world, PhysCollider c, const char *name, PhysVec3 min, PhysVec3 max) {
    PhysAabb box;
    expect(phys_get_world_aabb(world, c, &box) == PHYS_OK, name);
    printf("shape name=%s min=%g,%g,%g max=%g,%g,%g\n", name, box.min.x, box.min.y, box.min.z, box.max.x,
           box.max.y, box.max.z);
    expect(near3(box.min, min) && near3(box.max, max), name);
}

int main(void) {
    PhysWorld *world = NULL;
    PhysCollider sphere_c, capsule_c, cylinder_c, cone_c;
    const PhysVec3 stretch = v3(1.0f, 2.0f, 3.0f);
    PhysSphere sphere;
    PhysCapsule capsule;
    PhysCylinder cylinder;
    PhysCone cone;
    PhysColliderDesc desc;
    PhysSegment drop;
    PhysHit hit;
    bool did_hit = false;

    expect(phys_world_create(&world) == PHYS_OK, "phys_world_create");

    /* A unit sphere at (1, 0, 0): centre (1, 0, 0), radius 3. */
    sphere.center = v3(1.0f, 0.0f, 0.0f);
    sphere.radius = 1.0f;
    desc = placed(0.0f, stretch);
    expect(phys_add_sphere(world, &sphere, &desc, &sphere_c) == PHYS_OK, "add sphere");
    check_box(world, sphere_c, "sphere", v3(-2, -3, -3), v3(4, 3, 3));

    /* A capsule along y, ends at y = -1 and 1, radius 0.5: ends at y = -2
     * and 2, radius 1.5. */
    capsule.segment.start = v3(0.0f, -1.0f, 0.0f);
    capsule.segment.end = v3(0.0f, 1.0f, 0.0f);
    capsule.radius = 0.5f;
    desc = placed(20.0f, stretch);
    expect(phys_add_capsule(world, &capsule, &desc, &capsule_c) == PHYS_OK, "add capsule");
    check_box(world, capsule_c, "capsule", v3(18.5f, -3.5f, -1.5f), v3(21.5f, 3.5f, 1.5f));

    /* The same axis and radius as a cylinder: flat caps at y = -2 and 2. */
    cylinder.segment = capsule.segment;
    cylinder.radius = 0.5f;
    desc = placed(40.0f, stretch);
    expect(phys_add_cylinder(world, &cylinder, &desc, &cylinder_c) == PHYS_OK, "add cylinder");
    check_box(world, cylinder_c, "cylinder", v3(38.5f, -2.0f, -1.5f), v3(41.5f, 2.0f, 1.5f));

    /* A cone, base at the origin, apex at y = 1, radius 1, mirrored in x and
     * z: apex at y = 2, radius 3. */
    cone.base_center = v3(0.0f, 0.0f, 0.0f);
    cone.apex = v3(0.0f, 1.0f, 0.0f);
    cone.radius = 1.0f;
    desc = placed(60.0f, v3(-1.0f, 2.0f, -3.0f));
    expect(phys_add_cone(world, &cone, &desc, &cone_c) == PHYS_OK, "add cone");
    check_box(world, cone_c, "cone", v3(57.0f, 0.0f, -3.0f), v3(63.0f, 2.0f, 3.0f));

    /* Dropped from y = 10 to -10 above the sphere's centre: the surface is
     * at y = 3, t = 7/20. */
    drop.start = v3(1.0f, 10.0f, 0.0f);
    drop.end = v3(1.0f, -10.0f, 0.0f);
    expect(phys_segment_cast(world, &drop, NULL, &did_hit, &hit) == PHYS_OK, "cast");
    expect(did_hit && hit.collider.bits == sphere_c.bits, "the drop hits the sphere");
    printf("cast name=sphere t=%.7g\n", did_hit ? hit.t : -1.0f);
    expect(did_hit && fabsf(hit.t - 0.35f) <= 1e-6f && near3(hit.point, v3(1, 3, 0)), "at the scaled radius");

    phys_world_destroy(world);
    printf("summary checks=%d failed=%d\n", checks, failed);
    return failed == 0 ? 0 : 1;
}
