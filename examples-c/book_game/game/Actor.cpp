#include "Actor.h"

#include "Component.h"
#include "Game.h"

#include <algorithm>

Actor::Actor(Game* game)
    : mState(EActive), mPosition(Vector3::Zero), mRotation(Quaternion::Identity), mScale(1.0f),
      mRecomputeWorldTransform(true), mGame(game)
{
    mGame->AddActor(this);
}

Actor::~Actor()
{
    mGame->RemoveActor(this);
    // ~Component calls RemoveComponent, which shrinks mComponents
    while (!mComponents.empty())
    {
        delete mComponents.back();
    }
}

void Actor::Update(float deltaTime)
{
    if (mState == EActive)
    {
        ComputeWorldTransform();

        UpdateComponents(deltaTime);
        UpdateActor(deltaTime);

        ComputeWorldTransform();
    }
}

void Actor::UpdateComponents(float deltaTime)
{
    for (auto comp : mComponents)
    {
        comp->Update(deltaTime);
    }
}

void Actor::UpdateActor(float /*deltaTime*/) {}

void Actor::ProcessInput(const InputState& input)
{
    if (mState == EActive)
    {
        ActorInput(input);
    }
}

void Actor::ActorInput(const InputState& /*input*/) {}

void Actor::ComputeWorldTransform()
{
    if (mRecomputeWorldTransform)
    {
        mRecomputeWorldTransform = false;
        // (The book builds the scale-rotate-translate Matrix4 here.)
        for (auto comp : mComponents)
        {
            comp->OnUpdateWorldTransform();
        }
    }
}

void Actor::RotateToNewForward(const Vector3& forward)
{
    // The rotation about the axis unit x cross forward, by the angle between
    // them. The book takes the angle from acos(dot) and treats any direction
    // within acos(0.9999) (0.8 degrees) of unit x as parallel to it, which
    // turns a ball up to 0.8 degrees off its reflected direction; atan2 is
    // accurate at every angle, so only an exactly parallel forward is special.
    float dot = Vector3::Dot(Vector3::UnitX, forward);
    Vector3 axis = Vector3::Cross(Vector3::UnitX, forward);
    float sine = axis.Length();
    if (sine == 0.0f)
    {
        // Facing down +x, or down -x: half a turn about the up axis
        SetRotation(dot > 0.0f ? Quaternion::Identity : Quaternion(Vector3::UnitZ, Math::Pi));
    }
    else
    {
        axis *= 1.0f / sine;
        SetRotation(Quaternion(axis, Math::Atan2(sine, dot)));
    }
}

void Actor::AddComponent(Component* component)
{
    // Keep the components sorted by update order
    int myOrder = component->GetUpdateOrder();
    auto iter = mComponents.begin();
    for (; iter != mComponents.end(); ++iter)
    {
        if (myOrder < (*iter)->GetUpdateOrder())
        {
            break;
        }
    }
    mComponents.insert(iter, component);
}

void Actor::RemoveComponent(Component* component)
{
    auto iter = std::find(mComponents.begin(), mComponents.end(), component);
    if (iter != mComponents.end())
    {
        mComponents.erase(iter);
    }
}
