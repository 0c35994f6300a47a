// PhysWorld.cpp (collide): the book's PhysWorld as a thin shim over
// collide's C++ wrapper. Each BoxComponent owns a box collider whose user
// data is the BoxComponent*; the book's Vector3, Quaternion and AABB reach
// collide through the wrapper's adapters (any type with members x, y, z and
// w). A failed collide call (invalid input or a stale handle: a bug in the
// game) throws collide::Error.
#include "PhysWorld.h"

#include "Actor.h"
#include "BoxComponent.h"
#include "PlaneActor.h"

#include <cstdint>

namespace
{
// The collision category of the planes (every collider is in category 1)
constexpr std::uint64_t kPlanes = 2;

Actor* OwnerOf(std::uint64_t userData)
{
    return collide::from_user_data<BoxComponent>(userData)->GetOwner();
}
} // namespace

bool PhysWorld::SegmentCast(const LineSegment& l, CollisionInfo& outColl)
{
    const auto hit = mWorld.segment_cast(l.mStart, l.mEnd);
    if (hit)
    {
        outColl.mPoint = collide::vec3_as<Vector3>(hit->point);
        outColl.mNormal = collide::vec3_as<Vector3>(hit->normal);
        outColl.mBox = collide::from_user_data<BoxComponent>(hit->user_data);
        outColl.mActor = outColl.mBox->GetOwner();
    }
    return hit.has_value();
}

void PhysWorld::TestPairwise(std::function<void(Actor*, Actor*)> f)
{
    mWorld.test_pairwise([&f](const collide::Pair& p) { f(OwnerOf(p.user_a), OwnerOf(p.user_b)); });
}

void PhysWorld::TestSweepAndPrune(std::function<void(Actor*, Actor*)> f)
{
    mWorld.test_sweep_and_prune([&f](const collide::Pair& p) { f(OwnerOf(p.user_a), OwnerOf(p.user_b)); });
}

void PhysWorld::AddBox(BoxComponent* box)
{
    // Like the book's world box, the collider is a point at the origin until
    // the owner's first transform update places it. A PlaneActor adds its
    // box from its constructor, where its owner is already a PlaneActor.
    const bool plane = dynamic_cast<const PlaneActor*>(box->GetOwner()) != nullptr;
    const collide::ColliderDesc desc = collide::ColliderDesc()
                                           .with_user_data(collide::to_user_data(box))
                                           .with_filter(plane ? kPlanes : 1, ~std::uint64_t{0});
    mColliders.emplace(box, mWorld.add_box(collide::aabb(Vector3::Zero, Vector3::Zero), desc));
}

void PhysWorld::RemoveBox(BoxComponent* box)
{
    auto iter = mColliders.find(box);
    if (iter != mColliders.end())
    {
        mWorld.remove(iter->second);
        mColliders.erase(iter);
    }
}

void PhysWorld::UpdateBox(BoxComponent* box, const AABB& objectBox, bool shouldRotate)
{
    const collide::Collider collider = mColliders.at(box);
    const Actor* owner = box->GetOwner();
    mWorld.set_box(collider, collide::aabb(objectBox.mMin, objectBox.mMax));
    mWorld.set_should_rotate(collider, shouldRotate);
    mWorld.set_transform(collider, collide::transform(owner->GetPosition(), owner->GetRotation(), owner->GetScale()));
}

Vector3 PhysWorld::PushOutOfPlanes(const BoxComponent* box) const
{
    // A move and slide by nothing only pushes the box out of what it overlaps
    const AABB& worldBox = box->GetWorldBox();
    const collide::Shape shape = collide::Shape::box(collide::aabb(worldBox.mMin, worldBox.mMax));
    const collide::Slide slide =
        mWorld.move_and_slide(shape, collide::vec3(Vector3::Zero), 4, collide::QueryFilter::with_bits(~std::uint64_t{0}, kPlanes));
    return collide::vec3_as<Vector3>(slide.delta);
}
