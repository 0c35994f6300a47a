// PhysWorld.cpp (book): the book's PhysWorld, with its geometry done right
// (see shared/BOOK.md for what the book gets wrong): the reference the port
// onto collide is compared with.
#include "PhysWorld.h"

#include "Actor.h"
#include "BoxComponent.h"

#include <algorithm>
#include <cstddef>
#include <utility>

// The book's Intersect(LineSegment, AABB) from Collision.cpp, done right:
// the slab method against the closed, solid box. A segment starting inside
// hits at t = 0 with the normal pointing back along it (as collide does);
// otherwise the normal is the outward normal of the face entered.
static bool Intersect(const LineSegment& l, const AABB& b, float& outT, Vector3& outNorm)
{
    const Vector3 dir = l.mEnd - l.mStart;
    const float start[3] = {l.mStart.x, l.mStart.y, l.mStart.z};
    const float delta[3] = {dir.x, dir.y, dir.z};
    const float min[3] = {b.mMin.x, b.mMin.y, b.mMin.z};
    const float max[3] = {b.mMax.x, b.mMax.y, b.mMax.z};

    float tNear = -Math::Infinity;
    float tFar = Math::Infinity;
    int entryAxis = 0;
    for (int i = 0; i < 3; i++)
    {
        if (delta[i] == 0.0f)
        {
            // Parallel to this slab: inside it or a miss
            if (!(min[i] <= start[i] && start[i] <= max[i]))
            {
                return false;
            }
            continue;
        }
        float t1 = (min[i] - start[i]) / delta[i];
        float t2 = (max[i] - start[i]) / delta[i];
        if (t1 > t2)
        {
            std::swap(t1, t2);
        }
        if (t1 > tNear)
        {
            tNear = t1;
            entryAxis = i;
        }
        tFar = Math::Min(tFar, t2);
    }
    // Written so that NaN coordinates miss
    if (!(tNear <= tFar && tFar >= 0.0f && tNear <= 1.0f))
    {
        return false;
    }

    outNorm = Vector3::Zero;
    if (tNear < 0.0f)
    {
        outT = 0.0f;
        float length = dir.Length();
        if (length > 0.0f)
        {
            outNorm = dir * (-1.0f / length);
        }
    }
    else
    {
        outT = tNear;
        float* axis[3] = {&outNorm.x, &outNorm.y, &outNorm.z};
        *axis[entryAxis] = delta[entryAxis] < 0.0f ? 1.0f : -1.0f;
    }
    return true;
}

bool PhysWorld::SegmentCast(const LineSegment& l, CollisionInfo& outColl)
{
    bool collided = false;
    // The first intersection always updates closestT
    float closestT = Math::Infinity;
    Vector3 norm;
    // Test against all boxes
    for (auto box : mBoxes)
    {
        float t;
        // Does the segment intersect with the box, closer than before?
        if (Intersect(l, box->GetWorldBox(), t, norm) && t < closestT)
        {
            closestT = t;
            outColl.mPoint = l.PointOnSegment(t);
            outColl.mNormal = norm;
            outColl.mBox = box;
            outColl.mActor = box->GetOwner();
            collided = true;
        }
    }
    return collided;
}

void PhysWorld::TestPairwise(std::function<void(Actor*, Actor*)> f)
{
    for (std::size_t i = 0; i < mBoxes.size(); i++)
    {
        // Don't need to test vs itself and any previous i values
        for (std::size_t j = i + 1; j < mBoxes.size(); j++)
        {
            BoxComponent* a = mBoxes[i];
            BoxComponent* b = mBoxes[j];
            if (Intersect(a->GetWorldBox(), b->GetWorldBox()))
            {
                f(a->GetOwner(), b->GetOwner());
            }
        }
    }
}

void PhysWorld::TestSweepAndPrune(std::function<void(Actor*, Actor*)> f)
{
    // Sort by min.x. The book sorts mBoxes itself, with an unstable sort,
    // which reorders SegmentCast's ties; sort a copy, stably.
    std::vector<BoxComponent*> boxes(mBoxes);
    std::stable_sort(boxes.begin(), boxes.end(), [](BoxComponent* a, BoxComponent* b) {
        return a->GetWorldBox().mMin.x < b->GetWorldBox().mMin.x;
    });

    for (std::size_t i = 0; i < boxes.size(); i++)
    {
        // Get max.x for current box
        BoxComponent* a = boxes[i];
        float max = a->GetWorldBox().mMax.x;
        for (std::size_t j = i + 1; j < boxes.size(); j++)
        {
            BoxComponent* b = boxes[j];
            // If AABB[j] min is past the max bounds of AABB[i],
            // then there aren't any other possible intersections
            // against AABB[i]
            if (b->GetWorldBox().mMin.x > max)
            {
                break;
            }
            if (Intersect(a->GetWorldBox(), b->GetWorldBox()))
            {
                f(a->GetOwner(), b->GetOwner());
            }
        }
    }
}

void PhysWorld::AddBox(BoxComponent* box)
{
    mBoxes.emplace_back(box);
}

void PhysWorld::RemoveBox(BoxComponent* box)
{
    auto iter = std::find(mBoxes.begin(), mBoxes.end(), box);
    if (iter != mBoxes.end())
    {
        // Swap to end of vector and pop off (avoid erase copies)
        std::iter_swap(iter, mBoxes.end() - 1);
        mBoxes.pop_back();
    }
}
