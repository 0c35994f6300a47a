// Math.h: the part of the book's Math.h that the chapter-10 game logic uses.
// Vector3 and Quaternion keep the book's layout (plain floats: x, y, z and
// x, y, z, w with w last), names and formulas; Vector2 and Matrix4 serve the
// renderer, which this headless port leaves out.
#pragma once

#include <cmath>
#include <limits>

namespace Math
{
constexpr float Pi = 3.1415926535f;
constexpr float PiOver2 = Pi / 2.0f;
constexpr float Infinity = std::numeric_limits<float>::infinity();

inline float Abs(float value) { return std::fabs(value); }
inline float Min(float a, float b) { return a < b ? a : b; }
inline float Max(float a, float b) { return a < b ? b : a; }
inline float Sqrt(float value) { return std::sqrt(value); }
inline float Sin(float angle) { return std::sin(angle); }
inline float Cos(float angle) { return std::cos(angle); }
inline float Atan2(float y, float x) { return std::atan2(y, x); }
inline bool NearZero(float value, float epsilon = 0.001f) { return Abs(value) <= epsilon; }
} // namespace Math

class Quaternion;

class Vector3
{
public:
    float x;
    float y;
    float z;

    Vector3() : x(0.0f), y(0.0f), z(0.0f) {}
    Vector3(float inX, float inY, float inZ) : x(inX), y(inY), z(inZ) {}

    friend Vector3 operator+(const Vector3& a, const Vector3& b) { return Vector3(a.x + b.x, a.y + b.y, a.z + b.z); }
    friend Vector3 operator-(const Vector3& a, const Vector3& b) { return Vector3(a.x - b.x, a.y - b.y, a.z - b.z); }
    friend Vector3 operator*(const Vector3& vec, float scalar)
    {
        return Vector3(vec.x * scalar, vec.y * scalar, vec.z * scalar);
    }
    friend Vector3 operator*(float scalar, const Vector3& vec) { return vec * scalar; }
    Vector3& operator+=(const Vector3& right) { return *this = *this + right; }
    Vector3& operator*=(float scalar) { return *this = *this * scalar; }

    float LengthSq() const { return x * x + y * y + z * z; }
    float Length() const { return Math::Sqrt(LengthSq()); }
    void Normalize() { *this *= 1.0f / Length(); }
    static Vector3 Normalize(const Vector3& vec)
    {
        Vector3 temp = vec;
        temp.Normalize();
        return temp;
    }

    static float Dot(const Vector3& a, const Vector3& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
    static Vector3 Cross(const Vector3& a, const Vector3& b)
    {
        return Vector3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
    }

    // Reflect v about the (unit) normal n: v - 2(v.n)n.
    static Vector3 Reflect(const Vector3& v, const Vector3& n) { return v - 2.0f * Vector3::Dot(v, n) * n; }

    // Rotate v by the unit quaternion q.
    static Vector3 Transform(const Vector3& v, const Quaternion& q);

    static const Vector3 Zero;
    static const Vector3 UnitX;
    static const Vector3 UnitY;
    static const Vector3 UnitZ;
};

inline const Vector3 Vector3::Zero(0.0f, 0.0f, 0.0f);
inline const Vector3 Vector3::UnitX(1.0f, 0.0f, 0.0f);
inline const Vector3 Vector3::UnitY(0.0f, 1.0f, 0.0f);
inline const Vector3 Vector3::UnitZ(0.0f, 0.0f, 1.0f);

// A rotation; the default is the identity.
class Quaternion
{
public:
    float x;
    float y;
    float z;
    float w;

    Quaternion() : x(0.0f), y(0.0f), z(0.0f), w(1.0f) {}
    Quaternion(float inX, float inY, float inZ, float inW) : x(inX), y(inY), z(inZ), w(inW) {}

    // The rotation by angle (radians) about the unit vector axis.
    Quaternion(const Vector3& axis, float angle)
    {
        float scalar = Math::Sin(angle / 2.0f);
        x = axis.x * scalar;
        y = axis.y * scalar;
        z = axis.z * scalar;
        w = Math::Cos(angle / 2.0f);
    }

    // Rotate by q, then by p.
    static Quaternion Concatenate(const Quaternion& q, const Quaternion& p)
    {
        Vector3 qv(q.x, q.y, q.z);
        Vector3 pv(p.x, p.y, p.z);
        Vector3 newVec = p.w * qv + q.w * pv + Vector3::Cross(pv, qv);
        return Quaternion(newVec.x, newVec.y, newVec.z, p.w * q.w - Vector3::Dot(pv, qv));
    }

    static const Quaternion Identity;
};

inline const Quaternion Quaternion::Identity(0.0f, 0.0f, 0.0f, 1.0f);

// v + 2 cross(q.xyz, cross(q.xyz, v) + q.w v)
inline Vector3 Vector3::Transform(const Vector3& v, const Quaternion& q)
{
    Vector3 qv(q.x, q.y, q.z);
    return v + 2.0f * Vector3::Cross(qv, Vector3::Cross(qv, v) + q.w * v);
}
