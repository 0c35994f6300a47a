// Collision.h: the book's LineSegment and AABB (same members, same order as
// collide's PhysSegment and PhysAabb) and the box-box overlap test that
// FPSActor::FixCollisions uses. The book's other geometry (spheres, planes,
// capsules, segment casts, swept spheres) is what collide replaces.
#pragma once

#include "Math.h"

struct LineSegment
{
    LineSegment(const Vector3& start, const Vector3& end) : mStart(start), mEnd(end) {}
    // start + (end - start) t, for t in [0, 1]
    Vector3 PointOnSegment(float t) const { return mStart + (mEnd - mStart) * t; }

    Vector3 mStart;
    Vector3 mEnd;
};

struct AABB
{
    AABB(const Vector3& min, const Vector3& max) : mMin(min), mMax(max) {}
    // Grow the box to contain point.
    void UpdateMinMax(const Vector3& point);
    // Replace the box by the bounds of its eight corners rotated by q.
    void Rotate(const Quaternion& q);

    Vector3 mMin;
    Vector3 mMax;
};

// Whether two closed boxes overlap (touching counts). Written so that a NaN
// coordinate means no overlap; the book's negated test reports one.
bool Intersect(const AABB& a, const AABB& b);
