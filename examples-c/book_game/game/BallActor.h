// BallActor.h: the book's BallActor: a ball moved by BallMove at 1500
// units/s, which dies after two seconds.
#pragma once

#include "Actor.h"

class BallActor : public Actor
{
public:
    BallActor(class Game* game);

    void UpdateActor(float deltaTime) override;
    void SetPlayer(class Actor* player);

    // The book plays a "ding" here; this port lets the target count the hit.
    void HitTarget(class TargetActor* target);

private:
    class BallMove* mMyMove;
    float mLifeSpan;
};
