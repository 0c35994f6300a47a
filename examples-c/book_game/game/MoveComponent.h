// MoveComponent.h: the book's MoveComponent: turns its owner about the up
// axis (z) and moves it along its forward and right vectors.
#pragma once

#include "Component.h"

class MoveComponent : public Component
{
public:
    // Updates early, before the components that follow the owner
    MoveComponent(class Actor* owner, int updateOrder = 10);
    void Update(float deltaTime) override;

    void SetAngularSpeed(float speed) { mAngularSpeed = speed; }
    void SetForwardSpeed(float speed) { mForwardSpeed = speed; }
    void SetStrafeSpeed(float speed) { mStrafeSpeed = speed; }

protected:
    float mAngularSpeed;  // radians/second
    float mForwardSpeed;  // units/second
    float mStrafeSpeed;   // units/second
};
