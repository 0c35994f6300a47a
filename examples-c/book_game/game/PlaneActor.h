// PlaneActor.h: the book's PlaneActor: a 250 x 250 plane (the floor tiles
// and the walls), with a box, registered with the game for FixCollisions.
#pragma once

#include "Actor.h"

class PlaneActor : public Actor
{
public:
    PlaneActor(class Game* game);
    ~PlaneActor() override;

    class BoxComponent* GetBox() const { return mBox; }

private:
    class BoxComponent* mBox;
};
