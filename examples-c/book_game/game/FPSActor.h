// FPSActor.h: the book's first-person player: WASD and mouse movement, a
// box kept out of the walls by FixCollisions, and balls fired along the
// view direction. The camera, the rifle model, footsteps and audio are left
// out; the camera's pitch stays, since Shoot fires along the view.
#pragma once

#include "Actor.h"

class FPSActor : public Actor
{
public:
    FPSActor(class Game* game);

    void UpdateActor(float deltaTime) override;
    void ActorInput(const InputState& input) override;

    void Shoot();
    // The book's FPSCamera pitch: the rotation of the view about the right
    // axis, > 0 looking down.
    void SetPitch(float pitch) { mPitch = pitch; }

    // Push the player out of every wall its box overlaps.
    void FixCollisions();

    class BoxComponent* GetBox() const { return mBoxComp; }

private:
    class MoveComponent* mMoveComp;
    class BoxComponent* mBoxComp;
    float mPitch;
};
