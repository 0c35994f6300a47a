/* Segment casts against solid axis-aligned boxes in Embree 3, for the
 * cast benchmark (vs-parry/benches/embree.rs): the boxes are one user
 * geometry (Embree builds its BVH over their bounds), and each primitive's
 * intersection callback is the workloads' slab test in double precision
 * on the closed box, a start inside hitting at t = 0 (WORKLOADS.md, "cast").
 */

#include <embree3/rtcore.h>
#include <stdlib.h>

/* A box: min x y z, max x y z. */
typedef struct {
    float min[3];
    float max[3];
} BenchBox;

/* The intersection context of one cast, with the segment in double
 * precision: the callback tests the exact segment, not the ray's float
 * direction (Embree's tutorials extend the context this way). */
typedef struct {
    struct RTCIntersectContext base;
    double org[3];
    double dir[3];
} CastContext;

typedef struct {
    RTCDevice device;
    RTCScene scene;
    BenchBox *boxes;
} BoxScene;

static void box_bounds(const struct RTCBoundsFunctionArguments *args) {
    const BenchBox *b = (const BenchBox *)args->geometryUserPtr + args->primID;
    struct RTCBounds *o = args->bounds_o;
    o->lower_x = b->min[0];
    o->lower_y = b->min[1];
    o->lower_z = b->min[2];
    o->upper_x = b->max[0];
    o->upper_y = b->max[1];
    o->upper_z = b->max[2];
}

/* The slab test of the closed box against the ray's [tnear, tfar]: the
 * entry t, or t = tnear (0) when the start is inside. */
static void box_intersect(const struct RTCIntersectFunctionNArguments *args) {
    if (!args->valid[0]) {
        return;
    }
    const BenchBox *b = (const BenchBox *)args->geometryUserPtr + args->primID;
    struct RTCRayHit *rayhit = (struct RTCRayHit *)args->rayhit; /* N == 1: rtcIntersect1 */
    struct RTCRay *ray = &rayhit->ray;
    const CastContext *cast = (const CastContext *)args->context;
    const double *org = cast->org, *dir = cast->dir;
    double t0 = ray->tnear, t1 = ray->tfar;
    for (int axis = 0; axis < 3; axis++) {
        const double lo = (double)b->min[axis] - org[axis], hi = (double)b->max[axis] - org[axis];
        if (dir[axis] == 0.0) {
            if (lo > 0.0 || hi < 0.0) {
                return;
            }
            continue;
        }
        double a = lo / dir[axis], c = hi / dir[axis];
        if (a > c) {
            const double s = a;
            a = c;
            c = s;
        }
        t0 = a > t0 ? a : t0;
        t1 = c < t1 ? c : t1;
        if (t0 > t1) {
            return;
        }
    }
    /* t0 <= t1 <= tfar, and rounding to float keeps the order. */
    ray->tfar = (float)t0;
    rayhit->hit.geomID = args->geomID;
    rayhit->hit.primID = args->primID;
    rayhit->hit.Ng_x = rayhit->hit.Ng_y = rayhit->hit.Ng_z = 0.0f;
    rayhit->hit.u = rayhit->hit.v = 0.0f;
}

void bench_embree_free(BoxScene *s);

/* A scene of `count` boxes (6 floats each, copied), built at Embree's high
 * quality on one thread (no worker threads left spinning beside the timed
 * casts); NULL on failure. */
BoxScene *bench_embree_scene(const float *boxes, unsigned count) {
    BoxScene *s = calloc(1, sizeof *s);
    if (!s) {
        return NULL;
    }
    s->boxes = malloc((size_t)count * sizeof *s->boxes);
    s->device = rtcNewDevice("threads=1");
    if (!s->boxes || !s->device) {
        bench_embree_free(s);
        return NULL;
    }
    for (unsigned i = 0; i < count; i++) {
        for (int k = 0; k < 3; k++) {
            s->boxes[i].min[k] = boxes[6 * (size_t)i + k];
            s->boxes[i].max[k] = boxes[6 * (size_t)i + 3 + k];
        }
    }
    s->scene = rtcNewScene(s->device);
    RTCGeometry g = rtcNewGeometry(s->device, RTC_GEOMETRY_TYPE_USER);
    if (!s->scene || !g) {
        if (g) {
            rtcReleaseGeometry(g);
        }
        bench_embree_free(s);
        return NULL;
    }
    rtcSetSceneBuildQuality(s->scene, RTC_BUILD_QUALITY_HIGH);
    rtcSetSceneFlags(s->scene, RTC_SCENE_FLAG_ROBUST);
    rtcSetGeometryUserPrimitiveCount(g, count);
    rtcSetGeometryUserData(g, s->boxes);
    rtcSetGeometryBoundsFunction(g, box_bounds, NULL);
    rtcSetGeometryIntersectFunction(g, box_intersect);
    rtcCommitGeometry(g);
    rtcAttachGeometry(s->scene, g);
    rtcReleaseGeometry(g);
    rtcCommitScene(s->scene);
    if (rtcGetDeviceError(s->device) != RTC_ERROR_NONE) {
        bench_embree_free(s);
        return NULL;
    }
    return s;
}

/* The closest hit of the segment start + t·(end − start), t in [0, 1]:
 * 1 and its t in `t`, or 0 for none. */
int bench_embree_cast(const BoxScene *s, const float start[3], const float end[3], float *t) {
    CastContext context;
    rtcInitIntersectContext(&context.base);
    for (int k = 0; k < 3; k++) {
        context.org[k] = start[k];
        context.dir[k] = (double)end[k] - (double)start[k];
    }
    struct RTCRayHit rh;
    rh.ray.org_x = start[0];
    rh.ray.org_y = start[1];
    rh.ray.org_z = start[2];
    rh.ray.dir_x = end[0] - start[0];
    rh.ray.dir_y = end[1] - start[1];
    rh.ray.dir_z = end[2] - start[2];
    rh.ray.tnear = 0.0f;
    rh.ray.tfar = 1.0f;
    rh.ray.time = 0.0f;
    rh.ray.mask = 0xFFFFFFFFu;
    rh.ray.id = 0;
    rh.ray.flags = 0;
    rh.hit.geomID = RTC_INVALID_GEOMETRY_ID;
    rh.hit.primID = RTC_INVALID_GEOMETRY_ID;
    rh.hit.instID[0] = RTC_INVALID_GEOMETRY_ID;
    rtcIntersect1(s->scene, &context.base, &rh);
    if (rh.hit.geomID == RTC_INVALID_GEOMETRY_ID) {
        return 0;
    }
    *t = rh.ray.tfar;
    return 1;
}

void bench_embree_free(BoxScene *s) {
    if (!s) {
        return;
    }
    if (s->scene) {
        rtcReleaseScene(s->scene);
    }
    if (s->device) {
        rtcReleaseDevice(s->device);
    }
    free(s->boxes);
    free(s);
}
