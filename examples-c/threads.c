/*
 * threads.c: collide's thread rule, checked from C99 and POSIX threads.
 *
 * collide.h promises that functions taking a `const PhysWorld*` only read,
 * so any number of threads may call them at once on the same world. This
 * program holds it to that for phys_segment_cast:
 *
 * 1. It builds a world of 400 boxes (a 20 x 20 grid of pillars of five
 *    heights, in two collision categories) with one phys_add_boxes call, and
 *    2,000 segments: 400 dropped straight onto the pillars' tops, 400 dropped
 *    into the gaps between them, and 1,200 pseudo-random 30-unit segments,
 *    every other one filtered to category 1.
 * 2. Single-threaded, it casts every segment once and keeps the answers
 *    (status, hit or miss, and the whole PhysHit). The dropped segments
 *    are checked against the grid's geometry: the right pillar, its top's
 *    height, the normal +y; the gaps miss.
 * 3. Four threads, released together by a barrier, then cast every segment
 *    ROUNDS times each over the same const world, each starting at a
 *    different quarter of the list, and compare every answer with the
 *    single-threaded one, bit for bit.
 * 4. Each thread then provokes one failure (a NaN segment) and checks that
 *    phys_last_error_message() on its own thread describes it.
 * 5. The main thread casts all segments with phys_segment_cast_batch under
 *    several phys_world_set_thread_count settings and compares every answer
 *    with the single-threaded one.
 * 6. Work large enough to be shared among threads: a world of 20,000
 *    boxes, its first pairs (phys_find_pairs_into walks the tree on several
 *    threads), then 6,000 of them moved by one phys_set_transforms (their
 *    placements derived on several threads) and the pairs again (the moved
 *    colliders' queries shared), under each thread setting; the pairs, by
 *    user data, must be those of the calling thread alone.
 *
 * Usage: threads [ROUNDS]   (default 25; the sanitizer tests pass fewer)
 *
 * It prints, in the key=value format tests/c_threads.rs parses:
 *
 *   world colliders=400 segments=2000
 *   expected known_hits=400 known_misses=400 random=1200 random_hits=H
 *   random i=I filtered=F from=x,y,z to=x,y,z user=U t=T   (user=0 t=0: a miss)
 *   thread id=I casts=C mismatches=M error_status=S
 *   batch threads=T mismatches=M   (phys_segment_cast_batch with thread count T, -1: the default)
 *   shared threads=T first=N moved=M mismatches=K   (step 6 with thread count T)
 *   summary threads=4 rounds=R casts=C mismatches=M
 *
 * (one `random` line per random segment, its numbers printed with %.9g so
 * they read back exactly) and exits with status 1 on any mismatch or
 * unexpected failure.
 */
#define _POSIX_C_SOURCE 200809L

#include "collide.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define THREADS 4
#define GRID 20          /* pillars per side */
#define SPACING 4.0f     /* distance between pillar centres */
#define HALF_WIDTH 1.0f  /* pillars are 2 x h x 2 */
#define DROP_FROM 20.0f  /* the dropped segments go from y = 20 ... */
#define DROP_TO (-1.0f)  /* ... to y = -1 */
#define RANDOM_SEGMENTS 1200
#define SEGMENTS (2 * GRID * GRID + RANDOM_SEGMENTS)
#define DEFAULT_ROUNDS 25
#define SHARED_BOXES 20000 /* more than the tree size past which pairs are shared */
#define SHARED_MOVES 6000  /* more than the batch past which updates are shared */
#define SHARED_PAIRS 65536 /* room for step 6's pairs */
#define USER_BASE 1000u

/* ------------------------------------------------------------------------ */
/* Helpers.                                                                 */
/* ------------------------------------------------------------------------ */

/* Exits with a description of an unexpected failure. */
static void check(PhysStatus status, const char *what) {
    if (status != PHYS_OK) {
        fprintf(stderr, "threads: %s failed: %s (status %u): %s\n", what, phys_status_string(status),
                (unsigned)status, phys_last_error_message());
        exit(1);
    }
}
#define CHECK(call) check((call), #call)

/* Exits with a message when something the program relies on is false. */
static void require(int ok, const char *what) {
    if (!ok) {
        fprintf(stderr, "threads: expectation failed: %s\n", what);
        exit(1);
    }
}

static PhysVec3 v3(float x, float y, float z) {
    PhysVec3 v;
    v.x = x;
    v.y = y;
    v.z = z;
    return v;
}

/* Whether two floats have the same bits (so -0 differs from 0). */
static int same_float(float a, float b) {
    uint32_t x, y;
    memcpy(&x, &a, sizeof x);
    memcpy(&y, &b, sizeof y);
    return x == y;
}

static int same_vec(PhysVec3 a, PhysVec3 b) {
    return same_float(a.x, b.x) && same_float(a.y, b.y) && same_float(a.z, b.z);
}

/* A small deterministic generator (Knuth's MMIX LCG), so every run casts
 * the same segments. */
static uint64_t rng_state = 0x2545F4914F6CDD1Dull;
static float uniform(float lo, float hi) {
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return lo + (hi - lo) * (float)((rng_state >> 40) & 0xFFFFFF) / 16777216.0f;
}

/* ------------------------------------------------------------------------ */
/* The world and the segments.                                              */
/* ------------------------------------------------------------------------ */

/* Pillar `k`'s centre on the ground and its height (1 to 5). */
static float pillar_x(int k) { return (float)(k % GRID) * SPACING; }
static float pillar_z(int k) { return (float)(k / GRID) * SPACING; }
static float pillar_height(int k) { return 1.0f + (float)(k % 5); }

/* One cast's answer. */
typedef struct Answer {
    PhysStatus status;
    bool hit;
    PhysHit detail; /* meaningful only when hit */
} Answer;

typedef struct Case {
    PhysSegment segment;
    int filtered; /* 1: cast with a filter that hits category 1 only */
} Case;

static PhysWorld *world;
static Case cases[SEGMENTS];
static Answer expected[SEGMENTS];
static PhysQueryFilter category_one;

static void build_world(void) {
    PhysAabb boxes[GRID * GRID];
    PhysColliderDesc descs[GRID * GRID];
    PhysCollider handles[GRID * GRID];
    size_t count = 0;
    int k;

    for (k = 0; k < GRID * GRID; ++k) {
        boxes[k].min = v3(-HALF_WIDTH, 0.0f, -HALF_WIDTH);
        boxes[k].max = v3(HALF_WIDTH, pillar_height(k), HALF_WIDTH);
        descs[k] = phys_collider_desc_default();
        descs[k].transform.translation = v3(pillar_x(k), 0.0f, pillar_z(k));
        descs[k].user_data = USER_BASE + (uint64_t)k;
        descs[k].category_bits = (k % 2 == 0) ? 1u : 2u;
    }
    CHECK(phys_world_create(&world));
    CHECK(phys_add_boxes(world, boxes, descs, GRID * GRID, handles));
    CHECK(phys_world_count(world, &count));
    require(count == GRID * GRID, "the world holds every pillar");

    category_one.category_bits = ~(uint64_t)0;
    category_one.mask_bits = 1u;
    category_one.exclude.bits = 0;
}

static void make_segments(void) {
    int i = 0, k;
    float extent = (float)(GRID - 1) * SPACING;
    /* Onto each pillar's top. */
    for (k = 0; k < GRID * GRID; ++k, ++i) {
        cases[i].segment.start = v3(pillar_x(k), DROP_FROM, pillar_z(k));
        cases[i].segment.end = v3(pillar_x(k), DROP_TO, pillar_z(k));
        cases[i].filtered = 0;
    }
    /* Into the gap diagonally beside each pillar. */
    for (k = 0; k < GRID * GRID; ++k, ++i) {
        float gap = SPACING / 2.0f;
        cases[i].segment.start = v3(pillar_x(k) + gap, DROP_FROM, pillar_z(k) + gap);
        cases[i].segment.end = v3(pillar_x(k) + gap, DROP_TO, pillar_z(k) + gap);
        cases[i].filtered = 0;
    }
    /* Anywhere, any direction, 30 units long. */
    for (k = 0; k < RANDOM_SEGMENTS; ++k, ++i) {
        float dx, dy, dz, length;
        PhysVec3 start = v3(uniform(-5.0f, extent + 5.0f), uniform(0.0f, 8.0f), uniform(-5.0f, extent + 5.0f));
        do {
            dx = uniform(-1.0f, 1.0f);
            dy = uniform(-1.0f, 1.0f);
            dz = uniform(-1.0f, 1.0f);
            length = dx * dx + dy * dy + dz * dz;
        } while (length < 0.01f || length > 1.0f);
        length = 30.0f / sqrtf(length);
        cases[i].segment.start = start;
        cases[i].segment.end = v3(start.x + dx * length, start.y + dy * length, start.z + dz * length);
        cases[i].filtered = k % 2;
    }
    require(i == SEGMENTS, "every segment is made");
}

static Answer cast(const Case *c) {
    Answer a;
    memset(&a, 0, sizeof a);
    a.status = phys_segment_cast(world, &c->segment, c->filtered ? &category_one : NULL, &a.hit, &a.detail);
    return a;
}

static int same_answer(const Answer *a, const Answer *b) {
    if (a->status != b->status || a->hit != b->hit) {
        return 0;
    }
    if (!a->hit) {
        return 1;
    }
    return a->detail.collider.bits == b->detail.collider.bits && a->detail.user_data == b->detail.user_data &&
           same_float(a->detail.t, b->detail.t) && same_vec(a->detail.point, b->detail.point) &&
           same_vec(a->detail.normal, b->detail.normal);
}

/* The single-threaded answers, checked against the grid where it is known. */
static void compute_expected(void) {
    unsigned known_hits = 0, known_misses = 0, random_hits = 0;
    int i;
    for (i = 0; i < SEGMENTS; ++i) {
        expected[i] = cast(&cases[i]);
        CHECK(expected[i].status);
    }
    for (i = 0; i < GRID * GRID; ++i) {
        const Answer *a = &expected[i];
        float top = pillar_height(i);
        require(a->hit, "a segment dropped onto a pillar hits");
        require(a->detail.user_data == USER_BASE + (uint64_t)i, "it hits the pillar below it");
        require(fabsf(a->detail.point.y - top) < 1e-5f, "it hits the pillar's top");
        require(fabsf(a->detail.t - (DROP_FROM - top) / (DROP_FROM - DROP_TO)) < 1e-6f, "t is where the top is");
        require(a->detail.normal.x == 0.0f && a->detail.normal.y == 1.0f && a->detail.normal.z == 0.0f,
                "the top's normal is +y");
        known_hits++;
    }
    for (i = GRID * GRID; i < 2 * GRID * GRID; ++i) {
        require(!expected[i].hit, "a segment dropped into a gap misses");
        known_misses++;
    }
    for (i = 2 * GRID * GRID; i < SEGMENTS; ++i) {
        if (expected[i].hit) {
            random_hits++;
            if (cases[i].filtered) {
                require(expected[i].detail.user_data % 2 == 0, "a filtered cast hits only category 1");
            }
        }
    }
    printf("expected known_hits=%u known_misses=%u random=%d random_hits=%u\n", known_hits, known_misses,
           RANDOM_SEGMENTS, random_hits);
    for (i = 2 * GRID * GRID; i < SEGMENTS; ++i) {
        const PhysSegment *s = &cases[i].segment;
        const Answer *a = &expected[i];
        printf("random i=%d filtered=%d from=%.9g,%.9g,%.9g to=%.9g,%.9g,%.9g user=%llu t=%.9g\n", i,
               cases[i].filtered, s->start.x, s->start.y, s->start.z, s->end.x, s->end.y, s->end.z,
               a->hit ? (unsigned long long)a->detail.user_data : 0ull, a->hit ? a->detail.t : 0.0f);
    }
}

/* ------------------------------------------------------------------------ */
/* The threads.                                                             */
/* ------------------------------------------------------------------------ */

typedef struct Worker {
    pthread_t thread;
    int id;
    int rounds;
    pthread_barrier_t *start;
    /* Results, read by main after pthread_join. */
    unsigned long casts;
    unsigned long mismatches;
    PhysStatus error_status;
    int error_message_ok;
} Worker;

static void *work(void *arg) {
    Worker *w = (Worker *)arg;
    int first = w->id * (SEGMENTS / THREADS);
    int round, n;
    PhysSegment nan_segment;
    PhysHit hit;
    bool did_hit = false;
    const char *message;

    pthread_barrier_wait(w->start);
    for (round = 0; round < w->rounds; ++round) {
        for (n = 0; n < SEGMENTS; ++n) {
            int i = (first + n) % SEGMENTS;
            Answer got = cast(&cases[i]);
            w->casts++;
            if (!same_answer(&got, &expected[i])) {
                if (w->mismatches < 5) {
                    fprintf(stderr, "threads: thread %d round %d segment %d: status %u hit %d t %.9g, expected %u %d %.9g\n",
                            w->id, round, i, (unsigned)got.status, (int)got.hit, got.detail.t,
                            (unsigned)expected[i].status, (int)expected[i].hit, expected[i].detail.t);
                }
                w->mismatches++;
            }
        }
    }

    /* The last error is per thread: this one's NaN, whatever the others do. */
    nan_segment.start = v3(0.0f, 0.0f, 0.0f);
    nan_segment.end = v3(nanf(""), 0.0f, 0.0f);
    w->error_status = phys_segment_cast(world, &nan_segment, NULL, &did_hit, &hit);
    message = phys_last_error_message();
    w->error_message_ok = strstr(message, "not finite") != NULL;
    return NULL;
}

/* phys_segment_cast_batch over every segment, twice (without a filter and
 * with category_one), on the threads `thread_count` chooses (-1: the new
 * world's default), compared with the single-threaded answers: returns the
 * number that differ. Every thread collide starts for a batch is joined
 * before the call returns, which valgrind's leak check confirms. */
static unsigned long batch_mismatches(int thread_count) {
    static PhysSegment segments[SEGMENTS];
    static bool hit[SEGMENTS];
    static PhysHit detail[SEGMENTS];
    unsigned long mismatches = 0;
    int pass, i;
    if (thread_count >= 0) {
        CHECK(phys_world_set_thread_count(world, (uint32_t)thread_count));
    }
    for (i = 0; i < SEGMENTS; ++i) {
        segments[i] = cases[i].segment;
    }
    for (pass = 0; pass < 2; ++pass) {
        memset(hit, 0, sizeof hit);
        memset(detail, 0, sizeof detail);
        CHECK(phys_segment_cast_batch(world, segments, SEGMENTS, pass ? &category_one : NULL, hit, detail));
        for (i = 0; i < SEGMENTS; ++i) {
            Answer got;
            if (cases[i].filtered != pass) {
                continue;
            }
            got.status = PHYS_OK;
            got.hit = hit[i];
            got.detail = detail[i];
            mismatches += !same_answer(&got, &expected[i]);
        }
    }
    return mismatches;
}

/* Step 6 under `thread_count`: the first pairs and the pairs after the
 * moves, as user-data pairs, into `first` and `moved` (2 words a pair);
 * their counts into *first_count and *moved_count. The same boxes and moves
 * every call. */
static void shared_pairs(int thread_count, uint64_t *first, size_t *first_count, uint64_t *moved,
                         size_t *moved_count) {
    static PhysAabb boxes[SHARED_BOXES];
    static PhysColliderDesc descs[SHARED_BOXES];
    static PhysCollider handles[SHARED_BOXES];
    static PhysCollider movers[SHARED_MOVES];
    static PhysTransform transforms[SHARED_MOVES];
    static PhysPair pairs[SHARED_PAIRS];
    PhysWorld *big = NULL;
    size_t written = 0, total = 0, i;
    int pass;
    uint64_t saved_state = rng_state;
    rng_state = 0x9E3779B97F4A7C15ull;
    for (i = 0; i < SHARED_BOXES; ++i) {
        PhysVec3 c = v3(uniform(0.0f, 100.0f), uniform(0.0f, 100.0f), uniform(0.0f, 100.0f));
        PhysVec3 h = v3(uniform(0.1f, 1.5f), uniform(0.1f, 1.5f), uniform(0.1f, 1.5f));
        boxes[i].min = v3(c.x - h.x, c.y - h.y, c.z - h.z);
        boxes[i].max = v3(c.x + h.x, c.y + h.y, c.z + h.z);
        descs[i] = phys_collider_desc_default();
        descs[i].user_data = (uint64_t)i;
    }
    CHECK(phys_world_create(&big));
    CHECK(phys_world_set_thread_count(big, (uint32_t)thread_count));
    CHECK(phys_add_boxes(big, boxes, descs, SHARED_BOXES, handles));
    for (i = 0; i < SHARED_MOVES; ++i) {
        movers[i] = handles[(i * 7) % SHARED_BOXES];
        transforms[i] = phys_collider_desc_default().transform;
        transforms[i].translation = v3(uniform(-1.0f, 1.0f), uniform(-1.0f, 1.0f), uniform(-1.0f, 1.0f));
    }
    for (pass = 0; pass < 2; ++pass) {
        uint64_t *out = pass ? moved : first;
        if (pass) {
            CHECK(phys_set_transforms(big, movers, transforms, SHARED_MOVES));
        }
        CHECK(phys_find_pairs_into(big, pairs, SHARED_PAIRS, &written, &total));
        require(written == total, "room for step 6's pairs");
        for (i = 0; i < written; ++i) {
            out[2 * i] = pairs[i].user_a;
            out[2 * i + 1] = pairs[i].user_b;
        }
        *(pass ? moved_count : first_count) = written;
    }
    phys_world_destroy(big);
    rng_state = saved_state;
}

/* Step 6 under every setting against the calling thread alone: returns the
 * number of settings whose pairs differ. */
static unsigned long shared_mismatches(void) {
    static uint64_t first[2][2 * SHARED_PAIRS], moved[2][2 * SHARED_PAIRS];
    static const int settings[] = {1, 2, 3, 0};
    size_t first_count[2], moved_count[2], k;
    unsigned long mismatches = 0;
    for (k = 0; k < sizeof settings / sizeof settings[0]; ++k) {
        size_t slot = k == 0 ? 0 : 1;
        unsigned long differ;
        shared_pairs(settings[k], first[slot], &first_count[slot], moved[slot], &moved_count[slot]);
        differ = first_count[slot] != first_count[0] || moved_count[slot] != moved_count[0] ||
                 memcmp(first[slot], first[0], 2 * first_count[0] * sizeof(uint64_t)) != 0 ||
                 memcmp(moved[slot], moved[0], 2 * moved_count[0] * sizeof(uint64_t)) != 0;
        printf("shared threads=%d first=%lu moved=%lu mismatches=%lu\n", settings[k],
               (unsigned long)first_count[slot], (unsigned long)moved_count[slot], differ);
        mismatches += differ;
    }
    return mismatches;
}

int main(int argc, char **argv) {
    Worker workers[THREADS];
    pthread_barrier_t start;
    unsigned long casts = 0, mismatches = 0;
    int rounds = DEFAULT_ROUNDS;
    int failed = 0;
    int t;

    if (argc > 1) {
        rounds = atoi(argv[1]);
        require(rounds > 0, "ROUNDS is a positive number");
    }

    build_world();
    make_segments();
    printf("world colliders=%d segments=%d\n", GRID * GRID, SEGMENTS);
    compute_expected();

    require(pthread_barrier_init(&start, NULL, THREADS) == 0, "pthread_barrier_init");
    for (t = 0; t < THREADS; ++t) {
        memset(&workers[t], 0, sizeof workers[t]);
        workers[t].id = t;
        workers[t].rounds = rounds;
        workers[t].start = &start;
        require(pthread_create(&workers[t].thread, NULL, work, &workers[t]) == 0, "pthread_create");
    }
    for (t = 0; t < THREADS; ++t) {
        const Worker *w = &workers[t];
        require(pthread_join(w->thread, NULL) == 0, "pthread_join");
        printf("thread id=%d casts=%lu mismatches=%lu error_status=%u\n", w->id, w->casts, w->mismatches,
               (unsigned)w->error_status);
        casts += w->casts;
        mismatches += w->mismatches;
        if (w->error_status != PHYS_ERROR_NON_FINITE || !w->error_message_ok) {
            fprintf(stderr, "threads: thread %d: a NaN segment gave status %u (%s) and no matching message\n",
                    w->id, (unsigned)w->error_status, phys_status_string(w->error_status));
            failed = 1;
        }
    }
    pthread_barrier_destroy(&start);

    {
        static const int settings[] = {-1, 1, 2, 3, 0};
        size_t k;
        for (k = 0; k < sizeof settings / sizeof settings[0]; ++k) {
            unsigned long m = batch_mismatches(settings[k]);
            printf("batch threads=%d mismatches=%lu\n", settings[k], m);
            mismatches += m;
        }
    }
    phys_world_destroy(world);
    mismatches += shared_mismatches();

    printf("summary threads=%d rounds=%d casts=%lu mismatches=%lu\n", THREADS, rounds, casts, mismatches);
    return (mismatches == 0 && !failed) ? 0 : 1;
}
