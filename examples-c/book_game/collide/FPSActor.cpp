#include "FPSActor.h"

#include "BallActor.h"
#include "BoxComponent.h"
#include "Game.h"
#include "MoveComponent.h"
#include "PhysWorld.h"

FPSActor::FPSActor(Game* game) : Actor(game), mPitch(0.0f)
{
    mMoveComp = new MoveComponent(this);

    // Add a box component
    mBoxComp = new BoxComponent(this);
    AABB myBox(Vector3(-25.0f, -25.0f, -87.5f), Vector3(25.0f, 25.0f, 87.5f));
    mBoxComp->SetObjectBox(myBox);
    mBoxComp->SetShouldRotate(false);
}

void FPSActor::UpdateActor(float deltaTime)
{
    Actor::UpdateActor(deltaTime);

    FixCollisions();
}

void FPSActor::ActorInput(const InputState& input)
{
    // WASD movement
    float forwardSpeed = 0.0f;
    float strafeSpeed = 0.0f;
    if (input.mKeyW)
    {
        forwardSpeed += 400.0f;
    }
    if (input.mKeyS)
    {
        forwardSpeed -= 400.0f;
    }
    if (input.mKeyA)
    {
        strafeSpeed -= 400.0f;
    }
    if (input.mKeyD)
    {
        strafeSpeed += 400.0f;
    }
    mMoveComp->SetForwardSpeed(forwardSpeed);
    mMoveComp->SetStrafeSpeed(strafeSpeed);

    // Mouse movement: assume it is usually in [-500, 500] per frame, and
    // turn at up to four turns a second
    const int maxMouseSpeed = 500;
    const float maxAngularSpeed = Math::Pi * 8;
    float angularSpeed = 0.0f;
    if (input.mMouseX != 0)
    {
        angularSpeed = static_cast<float>(input.mMouseX) / maxMouseSpeed;
        angularSpeed *= maxAngularSpeed;
    }
    mMoveComp->SetAngularSpeed(angularSpeed);
}

void FPSActor::Shoot()
{
    // The book unprojects the centre of the screen; without a renderer, the
    // view direction is the FPSCamera's: forward pitched about the right axis.
    Vector3 start = GetPosition();
    Vector3 dir = Vector3::Transform(GetForward(), Quaternion(GetRight(), mPitch));
    // Spawn a ball
    BallActor* ball = new BallActor(GetGame());
    ball->SetPlayer(this);
    ball->SetPosition(start + dir * 20.0f);
    // Rotate the ball to face new direction
    ball->RotateToNewForward(dir);
}

void FPSActor::FixCollisions()
{
    // Need to recompute my world transform to update world box
    ComputeWorldTransform();

    // collide: push the player's box out of the planes it overlaps
    SetPosition(GetPosition() + GetGame()->GetPhysWorld()->PushOutOfPlanes(mBoxComp));
    mBoxComp->OnUpdateWorldTransform();
}
