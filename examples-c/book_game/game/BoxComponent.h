// BoxComponent.h: the book's BoxComponent: an object-space box (the mesh's
// bounds) and the world-space box it becomes under the owner's transform.
// Its constructor adds it to the PhysWorld and its destructor removes it.
// BoxComponent.cpp lives next to the PhysWorld it reports to: ../collide/
// for collide, ../book/ for the book's own PhysWorld.
#pragma once

#include "Collision.h"
#include "Component.h"

class BoxComponent : public Component
{
public:
    BoxComponent(class Actor* owner, int updateOrder = 100);
    ~BoxComponent() override;

    void OnUpdateWorldTransform() override;

    void SetObjectBox(const AABB& model) { mObjectBox = model; }
    const AABB& GetWorldBox() const { return mWorldBox; }

    void SetShouldRotate(bool value) { mShouldRotate = value; }

private:
    AABB mObjectBox;
    AABB mWorldBox;
    bool mShouldRotate;
};
