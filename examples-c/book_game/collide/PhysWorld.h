// PhysWorld.h (collide): the book's PhysWorld interface over collide (its
// C++ wrapper, collide.hpp): the port onto collide is this file,
// PhysWorld.cpp and one line of BoxComponent.cpp (see PORT.md). The book's
// version is ../book/PhysWorld.h.
#pragma once

#include "Collision.h"

// collide.h names its opaque world PhysWorld, as the book names this class:
// include it (through the wrapper) with the C type renamed to CollideWorld.
#define PhysWorld CollideWorld
#include "collide.hpp"
#undef PhysWorld

#include <functional>
#include <unordered_map>

class PhysWorld
{
public:
    PhysWorld() = default;

    // Used to give helpful information about collision results
    struct CollisionInfo
    {
        // Point of collision
        Vector3 mPoint;
        // Normal at collision
        Vector3 mNormal;
        // Component collided with
        class BoxComponent* mBox;
        // Owning actor of component
        class Actor* mActor;
    };

    // Test a line segment against boxes
    // Returns true if it collides against a box
    bool SegmentCast(const LineSegment& l, CollisionInfo& outColl);

    // Tests collisions using naive pairwise
    void TestPairwise(std::function<void(class Actor*, class Actor*)> f);
    // Test collisions using sweep and prune
    void TestSweepAndPrune(std::function<void(class Actor*, class Actor*)> f);

    // Add/remove box components from world
    void AddBox(class BoxComponent* box);
    void RemoveBox(class BoxComponent* box);
    // Place a box's collider: its object box and mShouldRotate, under its
    // owner's transform (called by BoxComponent::OnUpdateWorldTransform)
    void UpdateBox(class BoxComponent* box, const AABB& objectBox, bool shouldRotate);
    // How far to move a box's owner to take its world box out of every
    // PlaneActor's box it overlaps (FPSActor::FixCollisions)
    Vector3 PushOutOfPlanes(const class BoxComponent* box) const;

private:
    collide::World mWorld;
    std::unordered_map<const class BoxComponent*, collide::Collider> mColliders;
};
