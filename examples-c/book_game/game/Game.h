// Game.h: the book's Game, headless: it owns the actors and the PhysWorld,
// loads the chapter-10 level, and updates the actors once per frame. The
// window, renderer, audio and the real-time loop are left out; the caller
// feeds input and a fixed time step (see ../main.cpp).
#pragma once

#include "InputState.h"
#include "Math.h"

#include <vector>

// A ball's bounce, recorded for the scripted run (not in the book).
struct Bounce
{
    Vector3 mIn;               // the ball's direction before
    Vector3 mNormal;           // the normal of the surface hit
    Vector3 mPoint;            // where the cast hit it
    Vector3 mOut;              // the ball's forward after RotateToNewForward
    const class Actor* mActor; // what was hit
};

class Game
{
public:
    Game();
    Game(const Game&) = delete;
    Game& operator=(const Game&) = delete;

    void Initialize();
    void ProcessInput(const InputState& input);
    void UpdateGame(float deltaTime);
    void Shutdown();

    void AddActor(class Actor* actor);
    void RemoveActor(class Actor* actor);

    class PhysWorld* GetPhysWorld() const { return mPhysWorld; }

    // Game-specific
    void AddPlane(class PlaneActor* plane);
    void RemovePlane(class PlaneActor* plane);
    const std::vector<class PlaneActor*>& GetPlanes() const { return mPlanes; }
    const std::vector<class TargetActor*>& GetTargets() const { return mTargets; }
    class FPSActor* GetPlayer() const { return mFPSActor; }

    // Not in the book: the bounces since the last call, for the checks.
    void RecordBounce(const Bounce& bounce) { mBounces.push_back(bounce); }
    std::vector<Bounce> TakeBounces();

private:
    void LoadData();
    void UnloadData();

    // All the actors in the game, and those created while they update
    std::vector<class Actor*> mActors;
    std::vector<class Actor*> mPendingActors;
    bool mUpdatingActors;

    class PhysWorld* mPhysWorld;

    // Game-specific
    std::vector<class PlaneActor*> mPlanes;
    std::vector<class TargetActor*> mTargets;
    class FPSActor* mFPSActor;
    std::vector<Bounce> mBounces;
};
