// main.cpp: a scripted, headless run of the chapter-10 game (not in the
// book), built twice: on collide (collide/PhysWorld.*) and on the book's own
// PhysWorld (book/PhysWorld.*). At a fixed time step of 1/60 s the player
// fires at every target from the centre of the level, banks shots off a wall
// and the floor, walks into the east wall, slides along it, pushes into the
// north-east corner and backs out. Every frame it checks that
//   - every bounce obeys the law of reflection: the ball's new forward is
//     v - 2(v.n)n, and the angle out equals the angle in;
//   - the player's box ends the frame in no wall (FixCollisions' job);
//   - TestPairwise and TestSweepAndPrune report the same set of pairs;
// and at the end that the targets were hit as the script aims. It prints
//
//   level boxes=N planes=N targets=N
//   shot frame=F at=LABEL point=x,y,z
//   bounce frame=F hit=NAME point=x,y,z normal=x,y,z in=x,y,z out=x,y,z angle_in=DEG angle_out=DEG
//   pairs frame=F pairwise=N sweep_and_prune=N KIND-KIND=N...
//   target name=T1 hits=N expected=N
//   summary frames=N shots=N bounces=N reflections_ok=N target_hits=N frames_without_penetration=N
//           contact_frames=N max_overlap=D pair_frames_agree=N ok|FAILED
//
// and exits non-zero when a check fails (the failures go to stderr). Frames
// count from 1; a line about frame F reports what happened during it.
//
// The level (Game::LoadData) uses the book's axes: +z up and, facing +x
// ("east"), +y ("north") on the right.

#include "Actor.h"
#include "BoxComponent.h"
#include "FPSActor.h"
#include "Game.h"
#include "PhysWorld.h"
#include "PlaneActor.h"
#include "TargetActor.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace
{
constexpr float kTimeStep = 1.0f / 60.0f;
// How far the ball's new forward may be from v - 2(v.n)n
constexpr float kDirectionTolerance = 1e-4f;
// How far apart the angles in and out may be, in radians
constexpr float kAngleTolerance = 1e-3f;
// How deep the player's box may end a frame in a wall (FixCollisions moves
// it to touching, up to rounding)
constexpr float kPenetrationTolerance = 1e-3f;
// How far apart the player's box and a wall may be for a frame to count as
// in contact: the book's FixCollisions leaves the boxes touching, collide's
// push-out leaves them MOVE_AND_SLIDE_SKIN (1e-3) apart
constexpr float kContactGap = 2e-3f;

// How deep two boxes overlap: the least overlap over the axes, < 0 when apart.
float Overlap(const AABB& a, const AABB& b)
{
    float x = Math::Min(a.mMax.x, b.mMax.x) - Math::Max(a.mMin.x, b.mMin.x);
    float y = Math::Min(a.mMax.y, b.mMax.y) - Math::Max(a.mMin.y, b.mMin.y);
    float z = Math::Min(a.mMax.z, b.mMax.z) - Math::Max(a.mMin.z, b.mMin.z);
    return Math::Min(x, Math::Min(y, z));
}

// The angle between two unit vectors, in radians.
float Angle(const Vector3& a, const Vector3& b)
{
    return Math::Atan2(Vector3::Cross(a, b).Length(), Vector3::Dot(a, b));
}

float Degrees(float radians)
{
    return radians * 180.0f / Math::Pi;
}

std::string Format(const Vector3& v)
{
    char text[64];
    std::snprintf(text, sizeof text, "%.4f,%.4f,%.4f", v.x, v.y, v.z);
    return text;
}

// An unordered pair of actors, as addresses, smaller first.
using ActorPair = std::pair<std::uintptr_t, std::uintptr_t>;

// PhysWorld::TestPairwise or PhysWorld::TestSweepAndPrune
using PairTest = void (PhysWorld::*)(std::function<void(Actor*, Actor*)>);

std::vector<ActorPair> SortedPairs(PhysWorld& phys, PairTest test)
{
    std::vector<ActorPair> pairs;
    (phys.*test)([&pairs](Actor* a, Actor* b) {
        pairs.push_back(std::minmax(reinterpret_cast<std::uintptr_t>(a), reinterpret_cast<std::uintptr_t>(b)));
    });
    std::sort(pairs.begin(), pairs.end());
    return pairs;
}

class ScriptedRun
{
public:
    explicit ScriptedRun(Game& game) : mGame(game), mPlayer(*game.GetPlayer()) {}

    // Runs frames with the same keys and mouse.
    void Play(int frames, const InputState& input)
    {
        for (int i = 0; i < frames; i++)
        {
            mGame.ProcessInput(input);
            Step();
        }
    }

    // Looks at point (a turn for the yaw, the camera's pitch for the rest),
    // fires one ball, and lets `frames` frames pass, the first included.
    void FireAt(const Vector3& point, const std::string& label, int frames)
    {
        Vector3 toPoint = point - mPlayer.GetPosition();
        Vector3 level(toPoint.x, toPoint.y, 0.0f);
        mPlayer.RotateToNewForward(Vector3::Normalize(level));
        // A positive pitch looks down
        mPlayer.SetPitch(-Math::Atan2(toPoint.z, level.Length()));
        std::printf("shot frame=%d at=%s point=%s\n", mFrame + 1, label.c_str(), Format(point).c_str());
        mShots++;

        InputState fire;
        fire.mFire = true;
        mGame.ProcessInput(fire);
        Step();
        Play(frames - 1, InputState());
    }

    // Prints how many pairs the two pair tests report now, and what kinds of
    // actor the pairs join.
    void PrintPairs()
    {
        PhysWorld& phys = *mGame.GetPhysWorld();
        std::map<std::string, int> kinds;
        phys.TestPairwise([this, &kinds](Actor* a, Actor* b) {
            std::string first = Kind(a);
            std::string second = Kind(b);
            if (second < first)
            {
                std::swap(first, second);
            }
            kinds[first + "-" + second]++;
        });
        std::printf("pairs frame=%d pairwise=%zu sweep_and_prune=%zu", mFrame,
                    SortedPairs(phys, &PhysWorld::TestPairwise).size(),
                    SortedPairs(phys, &PhysWorld::TestSweepAndPrune).size());
        for (const auto& [kind, count] : kinds)
        {
            std::printf(" %s=%d", kind.c_str(), count);
        }
        std::printf("\n");
    }

    // Checks the hits against the expected counts, prints the summary, and
    // returns whether every check passed.
    bool Finish(const std::vector<int>& expectedHits)
    {
        int targetHits = 0;
        const auto& targets = mGame.GetTargets();
        for (std::size_t i = 0; i < targets.size(); i++)
        {
            int hits = targets[i]->GetHits();
            targetHits += hits;
            std::printf("target name=T%zu hits=%d expected=%d\n", i + 1, hits, expectedHits[i]);
            if (hits != expectedHits[i])
            {
                Fail("target T" + std::to_string(i + 1) + " was hit " + std::to_string(hits) + " times, expected " +
                     std::to_string(expectedHits[i]));
            }
        }
        if (targetHits == 0)
        {
            Fail("no target was hit");
        }
        if (mContactFrames == 0)
        {
            Fail("the player never touched a wall: the penetration check tested nothing");
        }
        std::printf("summary frames=%d shots=%d bounces=%d reflections_ok=%d target_hits=%d "
                    "frames_without_penetration=%d contact_frames=%d max_overlap=%.6f pair_frames_agree=%d %s\n",
                    mFrame, mShots, mBounces, mReflectionsOk, targetHits, mFramesWithoutPenetration, mContactFrames,
                    mMaxOverlap, mPairFramesAgree, mFailures == 0 ? "ok" : "FAILED");
        return mFailures == 0;
    }

private:
    void Step()
    {
        mGame.UpdateGame(kTimeStep);
        mFrame++;
        for (const Bounce& bounce : mGame.TakeBounces())
        {
            CheckBounce(bounce);
        }
        CheckPlayer();
        CheckPairs();
    }

    void CheckBounce(const Bounce& b)
    {
        mBounces++;
        // The angle between the incoming ray (reversed) and the normal, and
        // between the normal and the outgoing ray
        float angleIn = Angle(b.mIn * -1.0f, b.mNormal);
        float angleOut = Angle(b.mOut, b.mNormal);
        Vector3 expected = b.mIn - 2.0f * Vector3::Dot(b.mIn, b.mNormal) * b.mNormal;
        std::printf("bounce frame=%d hit=%s point=%s normal=%s in=%s out=%s angle_in=%.4f angle_out=%.4f\n", mFrame,
                    Name(b.mActor).c_str(), Format(b.mPoint).c_str(), Format(b.mNormal).c_str(),
                    Format(b.mIn).c_str(), Format(b.mOut).c_str(), Degrees(angleIn), Degrees(angleOut));

        bool ok = true;
        if (Math::Abs(b.mNormal.Length() - 1.0f) > kDirectionTolerance || Vector3::Dot(b.mIn, b.mNormal) >= 0.0f)
        {
            ok = Fail("bounce at frame " + std::to_string(mFrame) + ": the normal is not a unit vector facing it");
        }
        if ((b.mOut - expected).Length() > kDirectionTolerance)
        {
            ok = Fail("bounce at frame " + std::to_string(mFrame) + ": the ball turned to " + Format(b.mOut) +
                      ", not v - 2(v.n)n = " + Format(expected));
        }
        if (Math::Abs(angleIn - angleOut) > kAngleTolerance)
        {
            ok = Fail("bounce at frame " + std::to_string(mFrame) + ": angle in != angle out");
        }
        mReflectionsOk += ok;
    }

    void CheckPlayer()
    {
        const AABB& player = mPlayer.GetBox()->GetWorldBox();
        float deepest = -Math::Infinity;
        for (const PlaneActor* wall : mGame.GetPlanes())
        {
            deepest = Math::Max(deepest, Overlap(player, wall->GetBox()->GetWorldBox()));
        }
        mMaxOverlap = Math::Max(mMaxOverlap, deepest);
        mContactFrames += deepest >= -kContactGap;
        if (deepest > kPenetrationTolerance)
        {
            Fail("frame " + std::to_string(mFrame) + ": the player ends the frame " + std::to_string(deepest) +
                 " deep in a wall");
        }
        else
        {
            mFramesWithoutPenetration++;
        }
    }

    void CheckPairs()
    {
        PhysWorld& phys = *mGame.GetPhysWorld();
        std::vector<ActorPair> pairwise = SortedPairs(phys, &PhysWorld::TestPairwise);
        std::vector<ActorPair> sweep = SortedPairs(phys, &PhysWorld::TestSweepAndPrune);
        if (pairwise == sweep)
        {
            mPairFramesAgree++;
        }
        else
        {
            Fail("frame " + std::to_string(mFrame) + ": TestPairwise found " + std::to_string(pairwise.size()) +
                 " pairs, TestSweepAndPrune " + std::to_string(sweep.size()) + ", not the same set");
        }
    }

    // T1..T6, floor, wall, player or ball.
    std::string Name(const Actor* actor) const
    {
        const auto& targets = mGame.GetTargets();
        auto target = std::find(targets.begin(), targets.end(), actor);
        if (target != targets.end())
        {
            return "T" + std::to_string(target - targets.begin() + 1);
        }
        return Kind(actor);
    }

    // target, floor, wall, player or ball.
    std::string Kind(const Actor* actor) const
    {
        if (dynamic_cast<const TargetActor*>(actor))
        {
            return "target";
        }
        if (dynamic_cast<const PlaneActor*>(actor))
        {
            // The floor tiles lie below z = -100, the walls stand above it
            return actor->GetPosition().z < -100.0f ? "floor" : "wall";
        }
        return actor == &mPlayer ? "player" : "ball";
    }

    bool Fail(const std::string& what)
    {
        std::fprintf(stderr, "FAIL: %s\n", what.c_str());
        mFailures++;
        return false;
    }

    Game& mGame;
    FPSActor& mPlayer;
    int mFrame = 0;
    int mShots = 0;
    int mBounces = 0;
    int mReflectionsOk = 0;
    int mFramesWithoutPenetration = 0;
    int mContactFrames = 0;
    float mMaxOverlap = -Math::Infinity;
    int mPairFramesAgree = 0;
    int mFailures = 0;
};

// The input of a frame in which the keys (some of "WASD") are held down and
// the mouse moves mouseX to the right.
InputState Hold(const char* keys, int mouseX = 0)
{
    InputState input;
    input.mKeyW = std::strchr(keys, 'W') != nullptr;
    input.mKeyA = std::strchr(keys, 'A') != nullptr;
    input.mKeyS = std::strchr(keys, 'S') != nullptr;
    input.mKeyD = std::strchr(keys, 'D') != nullptr;
    input.mMouseX = mouseX;
    return input;
}
} // namespace

int main()
{
    Game game;
    game.Initialize();
    const auto& targets = game.GetTargets();
    // Every plane, every target and the player have a box
    std::printf("level boxes=%zu planes=%zu targets=%zu\n", game.GetPlanes().size() + targets.size() + 1,
                game.GetPlanes().size(), targets.size());

    ScriptedRun run(game);
    run.Play(1, InputState());
    run.PrintPairs();

    // 1. From the centre, a shot at each target, half a second apart: each
    //    hits its target's face and flies back over the player.
    for (std::size_t i = 0; i < targets.size(); i++)
    {
        run.FireAt(targets[i]->GetPosition(), "T" + std::to_string(i + 1), 30);
    }
    // 2. Bank shots, aimed at the mirror image of a target's face centre: T4
    //    (face at x = 1195) off the north wall (inner face y = 1249), T2 off
    //    the floor (top face z = -100).
    run.FireAt(Vector3(1195.0f, 2 * 1249.0f - 500.0f, 100.0f), "T4_off_north_wall", 60);
    run.FireAt(Vector3(1195.0f, 0.0f, 2 * -100.0f - 300.0f), "T2_off_floor", 60);
    // 3. A level shot 60 degrees from east towards north, off the north wall
    //    and then the east wall; and one steeply into the floor.
    run.FireAt(Vector3(500.0f, 866.0f, 0.0f), "walls", 30);
    run.FireAt(Vector3(100.0f, 0.0f, -100.0f), "floor", 120);

    // 4. Walk east into the wall (contact after about 3 s), slide north along
    //    it across three wall seams, turn right while walking into the
    //    north-east corner, push into it, and back out.
    run.Play(240, Hold("W"));
    run.Play(120, Hold("WD"));
    run.Play(30, Hold("W", 25));
    run.Play(180, Hold("W"));
    run.Play(120, Hold("S"));
    run.PrintPairs();

    // One hit per target from the centre, and the two bank shots.
    bool ok = run.Finish({1, 2, 1, 2, 1, 1});
    game.Shutdown();
    return ok ? 0 : 1;
}
