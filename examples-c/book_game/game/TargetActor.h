// TargetActor.h: the book's TargetActor: a board with a box, which the
// balls bounce off. The book plays a sound on a hit; this port counts them.
#pragma once

#include "Actor.h"

class TargetActor : public Actor
{
public:
    TargetActor(class Game* game);

    void AddHit() { ++mHits; }
    int GetHits() const { return mHits; }

private:
    int mHits;
};
