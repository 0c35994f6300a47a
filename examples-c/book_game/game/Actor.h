// Actor.h: the book's Actor. Its transform is a position, a rotation and a
// uniform scale; whenever one changes, ComputeWorldTransform tells the
// components (BoxComponent recomputes its world box then). The book also
// builds a Matrix4 there for the renderer, which this headless port leaves out.
#pragma once

#include "InputState.h"
#include "Math.h"

#include <vector>

class Actor
{
public:
    enum State
    {
        EActive,
        EPaused,
        EDead
    };

    Actor(class Game* game);
    virtual ~Actor();
    Actor(const Actor&) = delete;
    Actor& operator=(const Actor&) = delete;

    // Called from Game each frame (not overridable)
    void Update(float deltaTime);
    // Updates the components in update order (not overridable)
    void UpdateComponents(float deltaTime);
    // Actor-specific update (overridable)
    virtual void UpdateActor(float deltaTime);

    // Called from Game each frame (not overridable)
    void ProcessInput(const InputState& input);
    // Actor-specific input (overridable)
    virtual void ActorInput(const InputState& input);

    const Vector3& GetPosition() const { return mPosition; }
    void SetPosition(const Vector3& pos)
    {
        mPosition = pos;
        mRecomputeWorldTransform = true;
    }
    float GetScale() const { return mScale; }
    void SetScale(float scale)
    {
        mScale = scale;
        mRecomputeWorldTransform = true;
    }
    const Quaternion& GetRotation() const { return mRotation; }
    void SetRotation(const Quaternion& rotation)
    {
        mRotation = rotation;
        mRecomputeWorldTransform = true;
    }

    void ComputeWorldTransform();

    Vector3 GetForward() const { return Vector3::Transform(Vector3::UnitX, mRotation); }
    Vector3 GetRight() const { return Vector3::Transform(Vector3::UnitY, mRotation); }

    // Rotate so that the forward vector (unit x) becomes forward (unit length).
    void RotateToNewForward(const Vector3& forward);

    State GetState() const { return mState; }
    void SetState(State state) { mState = state; }

    class Game* GetGame() const { return mGame; }

    void AddComponent(class Component* component);
    void RemoveComponent(class Component* component);

private:
    State mState;

    Vector3 mPosition;
    Quaternion mRotation;
    float mScale;
    bool mRecomputeWorldTransform;

    std::vector<class Component*> mComponents;
    class Game* mGame;
};
