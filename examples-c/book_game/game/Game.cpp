#include "Game.h"

#include "Actor.h"
#include "FPSActor.h"
#include "PhysWorld.h"
#include "PlaneActor.h"
#include "TargetActor.h"

#include <algorithm>
#include <utility>

Game::Game() : mUpdatingActors(false), mPhysWorld(nullptr), mFPSActor(nullptr) {}

void Game::Initialize()
{
    mPhysWorld = new PhysWorld();
    LoadData();
}

void Game::ProcessInput(const InputState& input)
{
    mUpdatingActors = true;
    for (auto actor : mActors)
    {
        actor->ProcessInput(input);
    }
    mUpdatingActors = false;

    // The book's HandleKeyPress: the left mouse button fires
    if (input.mFire)
    {
        mFPSActor->Shoot();
    }
}

void Game::UpdateGame(float deltaTime)
{
    // Update all actors
    mUpdatingActors = true;
    for (auto actor : mActors)
    {
        actor->Update(deltaTime);
    }
    mUpdatingActors = false;

    // Move any pending actors to mActors
    for (auto pending : mPendingActors)
    {
        pending->ComputeWorldTransform();
        mActors.emplace_back(pending);
    }
    mPendingActors.clear();

    // Delete dead actors (which removes them from mActors)
    std::vector<Actor*> deadActors;
    for (auto actor : mActors)
    {
        if (actor->GetState() == Actor::EDead)
        {
            deadActors.emplace_back(actor);
        }
    }
    for (auto actor : deadActors)
    {
        delete actor;
    }
}

void Game::Shutdown()
{
    UnloadData();
    delete mPhysWorld;
    mPhysWorld = nullptr;
}

void Game::AddActor(Actor* actor)
{
    // If we're updating actors, need to add to pending
    if (mUpdatingActors)
    {
        mPendingActors.emplace_back(actor);
    }
    else
    {
        mActors.emplace_back(actor);
    }
}

void Game::RemoveActor(Actor* actor)
{
    // Is it in pending actors?
    auto iter = std::find(mPendingActors.begin(), mPendingActors.end(), actor);
    if (iter != mPendingActors.end())
    {
        // Swap to end of vector and pop off (avoid erase copies)
        std::iter_swap(iter, mPendingActors.end() - 1);
        mPendingActors.pop_back();
    }

    // Is it in actors?
    iter = std::find(mActors.begin(), mActors.end(), actor);
    if (iter != mActors.end())
    {
        std::iter_swap(iter, mActors.end() - 1);
        mActors.pop_back();
    }
}

void Game::AddPlane(PlaneActor* plane)
{
    mPlanes.emplace_back(plane);
}

void Game::RemovePlane(PlaneActor* plane)
{
    auto iter = std::find(mPlanes.begin(), mPlanes.end(), plane);
    mPlanes.erase(iter);
}

std::vector<Bounce> Game::TakeBounces()
{
    return std::exchange(mBounces, {});
}

void Game::LoadData()
{
    // The floor: 10 x 10 tiles of 250 x 250 covering [-1250, 1250]^2, top
    // face at z = -100
    const float start = -1125.0f;
    const float size = 250.0f;
    for (int i = 0; i < 10; i++)
    {
        for (int j = 0; j < 10; j++)
        {
            Actor* a = new PlaneActor(this);
            a->SetPosition(Vector3(start + i * size, start + j * size, -105.0f));
        }
    }

    // The walls: planes stood on edge (250 wide, 250 high from z = -105,
    // 10 thick), inner faces at |x| = 1249 and |y| = 1249 so that they
    // overlap the floor's edge by a unit. Standing them up about x (y) keeps
    // their x (y) extent exact, so neighbours along a side touch exactly.
    Quaternion q(Vector3::UnitX, Math::PiOver2);
    for (int i = 0; i < 10; i++)
    {
        Actor* a = new PlaneActor(this);
        a->SetPosition(Vector3(start + i * size, -1254.0f, 20.0f));
        a->SetRotation(q);

        a = new PlaneActor(this);
        a->SetPosition(Vector3(start + i * size, 1254.0f, 20.0f));
        a->SetRotation(q);
    }
    q = Quaternion(Vector3::UnitY, Math::PiOver2);
    for (int i = 0; i < 10; i++)
    {
        Actor* a = new PlaneActor(this);
        a->SetPosition(Vector3(-1254.0f, start + i * size, 20.0f));
        a->SetRotation(q);

        a = new PlaneActor(this);
        a->SetPosition(Vector3(1254.0f, start + i * size, 20.0f));
        a->SetRotation(q);
    }

    // The player, at the centre facing +x
    mFPSActor = new FPSActor(this);

    // The targets: four on the east side (one above the wall), one each on
    // the south and north sides facing the centre
    const Vector3 targets[] = {
        Vector3(1200.0f, 0.0f, 100.0f),  Vector3(1200.0f, 0.0f, 300.0f), Vector3(1200.0f, -500.0f, 100.0f),
        Vector3(1200.0f, 500.0f, 100.0f), Vector3(0.0f, -1200.0f, 100.0f), Vector3(0.0f, 1200.0f, 100.0f),
    };
    for (const Vector3& position : targets)
    {
        TargetActor* t = new TargetActor(this);
        t->SetPosition(position);
        mTargets.emplace_back(t);
    }
    mTargets[4]->SetRotation(Quaternion(Vector3::UnitZ, Math::PiOver2));
    mTargets[5]->SetRotation(Quaternion(Vector3::UnitZ, -Math::PiOver2));
}

void Game::UnloadData()
{
    // ~Actor calls RemoveActor, which shrinks mActors
    while (!mActors.empty())
    {
        delete mActors.back();
    }
    mTargets.clear();
    mFPSActor = nullptr;
}
