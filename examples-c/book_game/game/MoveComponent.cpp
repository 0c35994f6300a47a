#include "MoveComponent.h"

#include "Actor.h"

MoveComponent::MoveComponent(Actor* owner, int updateOrder)
    : Component(owner, updateOrder), mAngularSpeed(0.0f), mForwardSpeed(0.0f), mStrafeSpeed(0.0f)
{
}

void MoveComponent::Update(float deltaTime)
{
    if (!Math::NearZero(mAngularSpeed))
    {
        // Incremental rotation about the up axis, after the current one
        float angle = mAngularSpeed * deltaTime;
        Quaternion inc(Vector3::UnitZ, angle);
        mOwner->SetRotation(Quaternion::Concatenate(mOwner->GetRotation(), inc));
    }

    if (!Math::NearZero(mForwardSpeed) || !Math::NearZero(mStrafeSpeed))
    {
        Vector3 pos = mOwner->GetPosition();
        pos += mOwner->GetForward() * mForwardSpeed * deltaTime;
        pos += mOwner->GetRight() * mStrafeSpeed * deltaTime;
        mOwner->SetPosition(pos);
    }
}
