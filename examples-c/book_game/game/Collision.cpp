#include "Collision.h"

#include <array>
#include <cstddef>

void AABB::UpdateMinMax(const Vector3& point)
{
    mMin.x = Math::Min(mMin.x, point.x);
    mMin.y = Math::Min(mMin.y, point.y);
    mMin.z = Math::Min(mMin.z, point.z);
    mMax.x = Math::Max(mMax.x, point.x);
    mMax.y = Math::Max(mMax.y, point.y);
    mMax.z = Math::Max(mMax.z, point.z);
}

void AABB::Rotate(const Quaternion& q)
{
    // The eight corners of the box
    std::array<Vector3, 8> points = {
        mMin,
        Vector3(mMax.x, mMin.y, mMin.z),
        Vector3(mMin.x, mMax.y, mMin.z),
        Vector3(mMin.x, mMin.y, mMax.z),
        Vector3(mMin.x, mMax.y, mMax.z),
        Vector3(mMax.x, mMin.y, mMax.z),
        Vector3(mMax.x, mMax.y, mMin.z),
        mMax,
    };
    // Reset min/max to the first corner rotated, then grow by the others
    Vector3 p = Vector3::Transform(points[0], q);
    mMin = p;
    mMax = p;
    for (std::size_t i = 1; i < points.size(); i++)
    {
        UpdateMinMax(Vector3::Transform(points[i], q));
    }
}

bool Intersect(const AABB& a, const AABB& b)
{
    return a.mMin.x <= b.mMax.x && b.mMin.x <= a.mMax.x &&
           a.mMin.y <= b.mMax.y && b.mMin.y <= a.mMax.y &&
           a.mMin.z <= b.mMax.z && b.mMin.z <= a.mMax.z;
}
