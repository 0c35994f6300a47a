// BallMove.h: the book's BallMove: each frame, a 30-unit segment cast along
// the ball's forward; the ball bounces off whatever it would hit, except the
// player who fired it.
#pragma once

#include "MoveComponent.h"

class BallMove : public MoveComponent
{
public:
    BallMove(class Actor* owner);

    void SetPlayer(class Actor* player) { mPlayer = player; }
    void Update(float deltaTime) override;

private:
    class Actor* mPlayer;
};
