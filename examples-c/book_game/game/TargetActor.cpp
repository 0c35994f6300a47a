#include "TargetActor.h"

#include "BoxComponent.h"

// The bounds of the target mesh (headless, a constant): a 100 x 100 board,
// 10 thick along its forward axis.
static const AABB kTargetMeshBox(Vector3(-5.0f, -50.0f, -50.0f), Vector3(5.0f, 50.0f, 50.0f));

TargetActor::TargetActor(Game* game) : Actor(game), mHits(0)
{
    // Face down -x
    SetRotation(Quaternion(Vector3::UnitZ, Math::Pi));
    // Add collision box
    BoxComponent* bc = new BoxComponent(this);
    bc->SetObjectBox(kTargetMeshBox);
}
