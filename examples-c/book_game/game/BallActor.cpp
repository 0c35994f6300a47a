#include "BallActor.h"

#include "BallMove.h"
#include "TargetActor.h"

BallActor::BallActor(Game* game) : Actor(game), mLifeSpan(2.0f)
{
    mMyMove = new BallMove(this);
    mMyMove->SetForwardSpeed(1500.0f);
}

void BallActor::UpdateActor(float deltaTime)
{
    Actor::UpdateActor(deltaTime);

    mLifeSpan -= deltaTime;
    if (mLifeSpan < 0.0f)
    {
        SetState(EDead);
    }
}

void BallActor::SetPlayer(Actor* player)
{
    mMyMove->SetPlayer(player);
}

void BallActor::HitTarget(TargetActor* target)
{
    target->AddHit();
}
