#include "FPSActor.h"

#include "BallActor.h"
#include "BoxComponent.h"
#include "Game.h"
#include "MoveComponent.h"
#include "PlaneActor.h"

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

    const AABB& playerBox = mBoxComp->GetWorldBox();
    Vector3 pos = GetPosition();

    for (auto pa : GetGame()->GetPlanes())
    {
        // Do we collide with this PlaneActor?
        const AABB& planeBox = pa->GetBox()->GetWorldBox();
        if (Intersect(playerBox, planeBox))
        {
            // Calculate all our differences
            float dx1 = planeBox.mMax.x - playerBox.mMin.x;
            float dx2 = planeBox.mMin.x - playerBox.mMax.x;
            float dy1 = planeBox.mMax.y - playerBox.mMin.y;
            float dy2 = planeBox.mMin.y - playerBox.mMax.y;
            float dz1 = planeBox.mMax.z - playerBox.mMin.z;
            float dz2 = planeBox.mMin.z - playerBox.mMax.z;

            // Set dx to whichever of dx1/dx2 have a lower abs
            float dx = Math::Abs(dx1) < Math::Abs(dx2) ? dx1 : dx2;
            // Ditto for dy
            float dy = Math::Abs(dy1) < Math::Abs(dy2) ? dy1 : dy2;
            // Ditto for dz
            float dz = Math::Abs(dz1) < Math::Abs(dz2) ? dz1 : dz2;

            // Whichever is closest, adjust x/y/z position
            if (Math::Abs(dx) <= Math::Abs(dy) && Math::Abs(dx) <= Math::Abs(dz))
            {
                pos.x += dx;
            }
            else if (Math::Abs(dy) <= Math::Abs(dx) && Math::Abs(dy) <= Math::Abs(dz))
            {
                pos.y += dy;
            }
            else
            {
                pos.z += dz;
            }

            // Need to set position and update box component
            SetPosition(pos);
            mBoxComp->OnUpdateWorldTransform();
        }
    }
}
