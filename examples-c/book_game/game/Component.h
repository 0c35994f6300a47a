// Component.h: the book's Component, without ProcessInput (no ported
// component reads input).
#pragma once

class Component
{
public:
    // The lower the update order, the earlier the component updates.
    Component(class Actor* owner, int updateOrder = 100);
    virtual ~Component();
    Component(const Component&) = delete;
    Component& operator=(const Component&) = delete;

    virtual void Update(float deltaTime);
    // Called when the owner's world transform changes.
    virtual void OnUpdateWorldTransform() {}

    class Actor* GetOwner() const { return mOwner; }
    int GetUpdateOrder() const { return mUpdateOrder; }

protected:
    class Actor* mOwner;
    int mUpdateOrder;
};
