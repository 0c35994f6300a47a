// PhysWorld.h (book): the book's PhysWorld: a list of boxes, tested one by
// one. The game builds with this file or with ../collide/PhysWorld.h, the
// port onto collide; PORT.md compares the two.
#pragma once

#include "Collision.h"

#include <functional>
#include <vector>

class PhysWorld
{
public:
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

private:
    std::vector<class BoxComponent*> mBoxes;
};
