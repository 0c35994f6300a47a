/* workloads.c: the cast and frames workloads of WORKLOADS.md through
 * collide's C ABI, driven as a C game drives it (run by benches/c_workloads.rs).
 *
 *   workloads DIR SCENE RUNS
 *
 * reads DIR/boxes-SCENE.f32, DIR/segs-bullets-SCENE.f32 and
 * DIR/moves-SCENE.bin and prints
 *
 *   cast-bullets ns=NS hits=N sumt=T     one phys_segment_cast per bullet
 *   frames ms=MS pairs=SUM               per frame: one phys_set_transform per
 *                                        moved collider, then phys_find_pairs_into
 *
 * each time the median of RUNS runs. The world is built by one
 * phys_add_boxes call (identity transforms: the world box is the box); a
 * moved collider's translation is the sum of its moves in float. Exits
 * with status 1 on a failed call. */
#include "collide.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void *read_file(const char *dir, const char *prefix, const char *scene, const char *ext, size_t *size) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s-%s.%s", dir, prefix, scene, ext);
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        exit(1);
    }
    fseek(f, 0, SEEK_END);
    long length = ftell(f);
    fseek(f, 0, SEEK_SET);
    void *data = malloc((size_t)length + 1);
    if (!data || fread(data, 1, (size_t)length, f) != (size_t)length) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(1);
    }
    fclose(f);
    *size = (size_t)length;
    return data;
}

static double seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *values, int count) {
    qsort(values, (size_t)count, sizeof *values, by_value);
    return values[count / 2];
}

static void check(PhysStatus status, const char *call) {
    if (status != PHYS_OK) {
        fprintf(stderr, "%s: %s\n", call, phys_last_error_message());
        exit(1);
    }
}

/* One moved box of a frame, as moves-SCENE.bin stores it. */
typedef struct {
    uint32_t index;
    float d[3];
} Move;

static PhysWorld *build(const PhysAabb *boxes, size_t n, PhysCollider *colliders) {
    PhysWorld *world = NULL;
    check(phys_world_create(&world), "phys_world_create");
    /* One thread, as the Rust path: the rows measure the boundary. */
    check(phys_world_set_thread_count(world, 1), "phys_world_set_thread_count");
    check(phys_add_boxes(world, boxes, NULL, n, colliders), "phys_add_boxes");
    return world;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: workloads DIR SCENE RUNS\n");
        return 2;
    }
    const char *dir = argv[1], *scene = argv[2];
    int runs = atoi(argv[3]);
    if (runs < 1) {
        runs = 1;
    }
    size_t size = 0;
    PhysAabb *boxes = read_file(dir, "boxes", scene, "f32", &size);
    size_t n = size / sizeof(PhysAabb);
    PhysSegment *bullets = read_file(dir, "segs-bullets", scene, "f32", &size);
    size_t bullet_count = size / sizeof(PhysSegment);
    Move *moves = read_file(dir, "moves", scene, "bin", &size);
    size_t move_count = size / sizeof(Move);
    size_t per_frame = n / 10;
    size_t frames = per_frame ? move_count / per_frame : 0;
    PhysCollider *colliders = malloc(n * sizeof *colliders);
    double *times = malloc((size_t)runs * sizeof *times);

    /* Casts: one call per bullet. */
    PhysWorld *world = build(boxes, n, colliders);
    size_t hits = 0;
    double sum_t = 0.0;
    for (int run = 0; run < runs; ++run) {
        hits = 0;
        sum_t = 0.0;
        double start = seconds();
        for (size_t i = 0; i < bullet_count; ++i) {
            bool hit = false;
            PhysHit h;
            check(phys_segment_cast(world, &bullets[i], NULL, &hit, &h), "phys_segment_cast");
            if (hit) {
                ++hits;
                sum_t += h.t;
            }
        }
        times[run] = (seconds() - start) / (double)bullet_count * 1e9;
    }
    printf("cast-bullets ns=%.3f hits=%zu sumt=%.3f\n", median(times, runs), hits, sum_t);
    phys_world_destroy(world);

    /* Frames: one set_transform per moved collider, then the pairs. */
    size_t capacity = 1024;
    PhysPair *pairs = malloc(capacity * sizeof *pairs);
    float *offsets = malloc(n * 3 * sizeof *offsets);
    unsigned long long pair_sum = 0;
    for (int run = 0; run < runs; ++run) {
        world = build(boxes, n, colliders);
        memset(offsets, 0, n * 3 * sizeof *offsets);
        PhysTransform moved = phys_collider_desc_default().transform;
        pair_sum = 0;
        double start = seconds();
        for (size_t f = 0; f < frames; ++f) {
            for (size_t k = 0; k < per_frame; ++k) {
                const Move *m = &moves[f * per_frame + k];
                float *t = &offsets[3 * (size_t)m->index];
                t[0] += m->d[0];
                t[1] += m->d[1];
                t[2] += m->d[2];
                moved.translation = (PhysVec3){t[0], t[1], t[2]};
                check(phys_set_transform(world, colliders[m->index], &moved), "phys_set_transform");
            }
            size_t written = 0, total = 0;
            PhysStatus status = phys_find_pairs_into(world, pairs, capacity, &written, &total);
            if (status == PHYS_ERROR_BUFFER_TOO_SMALL) {
                capacity = total * 2;
                pairs = realloc(pairs, capacity * sizeof *pairs);
                status = phys_find_pairs_into(world, pairs, capacity, &written, &total);
            }
            check(status, "phys_find_pairs_into");
            pair_sum += written;
        }
        times[run] = (seconds() - start) / (double)(frames ? frames : 1) * 1e3;
        phys_world_destroy(world);
    }
    printf("frames ms=%.4f pairs=%llu\n", median(times, runs), pair_sum);

    free(offsets);
    free(pairs);
    free(times);
    free(colliders);
    free(moves);
    free(bullets);
    free(boxes);
    return 0;
}
