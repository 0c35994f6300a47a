#include "BallMove.h"

#include "Actor.h"
#include "BallActor.h"
#include "Game.h"
#include "PhysWorld.h"
#include "TargetActor.h"

BallMove::BallMove(Actor* owner) : MoveComponent(owner), mPlayer(nullptr) {}

void BallMove::Update(float deltaTime)
{
    // Construct segment in direction of travel
    const float segmentLength = 30.0f;
    Vector3 start = mOwner->GetPosition();
    Vector3 dir = mOwner->GetForward();
    Vector3 end = start + dir * segmentLength;
    LineSegment l(start, end);

    // Test segment vs world (don't collide vs player)
    PhysWorld* phys = mOwner->GetGame()->GetPhysWorld();
    PhysWorld::CollisionInfo info;
    if (phys->SegmentCast(l, info) && info.mActor != mPlayer)
    {
        // If we collided, reflect the ball about the normal
        Vector3 in = dir;
        dir = Vector3::Reflect(dir, info.mNormal);
        mOwner->RotateToNewForward(dir);
        // (Not in the book: record the bounce for the scripted run's checks.)
        mOwner->GetGame()->RecordBounce({in, info.mNormal, info.mPoint, mOwner->GetForward(), info.mActor});
        // Did we hit a target?
        TargetActor* target = dynamic_cast<TargetActor*>(info.mActor);
        if (target)
        {
            static_cast<BallActor*>(mOwner)->HitTarget(target);
        }
    }

    // Base class update moves based on forward speed
    MoveComponent::Update(deltaTime);
}
