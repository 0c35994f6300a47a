// InputState.h: a headless stand-in for what the book reads from SDL each
// frame (SDL_GetKeyboardState, SDL_GetRelativeMouseState and the left mouse
// button); the scripted run fills it in.
#pragma once

struct InputState
{
    bool mKeyW = false;  // forward
    bool mKeyS = false;  // back
    bool mKeyA = false;  // strafe left
    bool mKeyD = false;  // strafe right
    int mMouseX = 0;     // relative mouse motion this frame, > 0 to the right
    bool mFire = false;  // left mouse button pressed this frame
};
