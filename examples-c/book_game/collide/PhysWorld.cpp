// PhysWorld.cpp (collide): the book's PhysWorld as a thin shim over
// collide's C ABI. Each BoxComponent owns a box collider whose user data is
// the BoxComponent*; the book's Vector3, AABB and LineSegment go to collide
// by pointer as they are, since they have the layout of PhysVec3, PhysAabb
// and PhysSegment.
#include "PhysWorld.h"

#include "Actor.h"
#include "BoxComponent.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <type_traits>

// The layouts match: same size, same member offsets (collide asserts the same
// numbers for its types in src/ffi/types.rs).
static_assert(sizeof(Vector3) == 12 && sizeof(PhysVec3) == 12);
static_assert(offsetof(Vector3, y) == 4 && offsetof(PhysVec3, y) == 4);
static_assert(offsetof(Vector3, z) == 8 && offsetof(PhysVec3, z) == 8);
static_assert(sizeof(AABB) == 24 && sizeof(PhysAabb) == 24);
static_assert(offsetof(AABB, mMax) == 12 && offsetof(PhysAabb, max) == 12);
static_assert(sizeof(LineSegment) == 24 && sizeof(PhysSegment) == 24);
static_assert(offsetof(LineSegment, mEnd) == 12 && offsetof(PhysSegment, end) == 12);
static_assert(std::is_standard_layout_v<AABB> && std::is_trivially_copyable_v<AABB>);
static_assert(std::is_standard_layout_v<LineSegment> && std::is_trivially_copyable_v<LineSegment>);

namespace
{
const PhysAabb* AsPhys(const AABB& box)
{
    return reinterpret_cast<const PhysAabb*>(&box);
}

const PhysSegment* AsPhys(const LineSegment& segment)
{
    return reinterpret_cast<const PhysSegment*>(&segment);
}

Vector3 FromPhys(const PhysVec3& v)
{
    return Vector3(v.x, v.y, v.z);
}

BoxComponent* BoxOf(std::uint64_t userData)
{
    return reinterpret_cast<BoxComponent*>(static_cast<std::uintptr_t>(userData));
}

// collide fails only on invalid input (NaN, an inverted box) or a stale
// handle: here, a bug in the game. Stop, saying what collide said.
void Check(PhysStatus status, const char* call)
{
    if (status != PHYS_OK)
    {
        std::fprintf(stderr, "%s: %s: %s\n", call, phys_status_string(status), phys_last_error_message());
        std::abort();
    }
}

// Hands collide's pairs to the book's std::function. A callback must not
// throw into collide: an exception is held, the remaining pairs are skipped,
// and it is rethrown once collide has returned.
struct PairContext
{
    const std::function<void(Actor*, Actor*)>& mFunc;
    std::exception_ptr mError;
};

void DeliverPair(void* ctx, PhysCollider /*a*/, std::uint64_t userA, PhysCollider /*b*/, std::uint64_t userB)
{
    auto* context = static_cast<PairContext*>(ctx);
    if (context->mError)
    {
        return;
    }
    try
    {
        context->mFunc(BoxOf(userA)->GetOwner(), BoxOf(userB)->GetOwner());
    }
    catch (...)
    {
        context->mError = std::current_exception();
    }
}

template <class PairFinder>
void ReportPairs(PairFinder finder, CollideWorld* world, const std::function<void(Actor*, Actor*)>& f,
                 const char* call)
{
    PairContext context{f, nullptr};
    Check(finder(world, DeliverPair, &context), call);
    if (context.mError)
    {
        std::rethrow_exception(context.mError);
    }
}
} // namespace

PhysWorld::PhysWorld() : mWorld(nullptr)
{
    Check(phys_world_create(&mWorld), "phys_world_create");
}

PhysWorld::~PhysWorld()
{
    phys_world_destroy(mWorld);
}

bool PhysWorld::SegmentCast(const LineSegment& l, CollisionInfo& outColl)
{
    bool hit = false;
    PhysHit closest;
    Check(phys_segment_cast(mWorld, AsPhys(l), nullptr, &hit, &closest), "phys_segment_cast");
    if (hit)
    {
        outColl.mPoint = FromPhys(closest.point);
        outColl.mNormal = FromPhys(closest.normal);
        outColl.mBox = BoxOf(closest.user_data);
        outColl.mActor = outColl.mBox->GetOwner();
    }
    return hit;
}

void PhysWorld::TestPairwise(std::function<void(Actor*, Actor*)> f)
{
    ReportPairs(phys_test_pairwise, mWorld, f, "phys_test_pairwise");
}

void PhysWorld::TestSweepAndPrune(std::function<void(Actor*, Actor*)> f)
{
    ReportPairs(phys_test_sweep_and_prune, mWorld, f, "phys_test_sweep_and_prune");
}

void PhysWorld::AddBox(BoxComponent* box)
{
    // Like the book's world box, the collider is a point at the origin until
    // the owner's first transform update places it
    const AABB empty(Vector3::Zero, Vector3::Zero);
    PhysColliderDesc desc = phys_collider_desc_default();
    desc.user_data = reinterpret_cast<std::uintptr_t>(box);
    PhysCollider collider;
    Check(phys_add_box(mWorld, AsPhys(empty), &desc, &collider), "phys_add_box");
    mColliders.emplace(box, collider);
}

void PhysWorld::RemoveBox(BoxComponent* box)
{
    auto iter = mColliders.find(box);
    if (iter != mColliders.end())
    {
        Check(phys_remove(mWorld, iter->second), "phys_remove");
        mColliders.erase(iter);
    }
}

void PhysWorld::UpdateBox(BoxComponent* box, const AABB& objectBox, bool shouldRotate)
{
    const PhysCollider collider = mColliders.at(box);
    const Actor* owner = box->GetOwner();
    const Vector3& pos = owner->GetPosition();
    const Quaternion& rot = owner->GetRotation();
    const float scale = owner->GetScale();
    const PhysTransform transform{{pos.x, pos.y, pos.z}, {rot.x, rot.y, rot.z, rot.w}, {scale, scale, scale}};
    Check(phys_set_box(mWorld, collider, AsPhys(objectBox)), "phys_set_box");
    Check(phys_set_should_rotate(mWorld, collider, shouldRotate), "phys_set_should_rotate");
    Check(phys_set_transform(mWorld, collider, &transform), "phys_set_transform");
}
