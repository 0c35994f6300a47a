#include "PlaneActor.h"

#include "BoxComponent.h"
#include "Game.h"

// The bounds of the plane mesh (headless, a constant): 25 x 25 x 1, scaled
// by 10 into a 250 x 250 tile 10 units thick.
static const AABB kPlaneMeshBox(Vector3(-12.5f, -12.5f, -0.5f), Vector3(12.5f, 12.5f, 0.5f));

PlaneActor::PlaneActor(Game* game) : Actor(game)
{
    SetScale(10.0f);
    // Add collision box
    mBox = new BoxComponent(this);
    mBox->SetObjectBox(kPlaneMeshBox);

    game->AddPlane(this);
}

PlaneActor::~PlaneActor()
{
    GetGame()->RemovePlane(this);
}
