#pragma once
// The joint families by name. The enumerators run from 0 without gaps (no explicit values):
// joints/family.cpp's table has one case per enumerator and counts them from there.

namespace rlx {

enum class JointType {
  Revolute,
  Translational,
  Fixed,
  Distance,
  PointOnLine,
  Spherical,
  Cylindrical,
  Universal,
  Planar,
  PointOnPlane,
  ParallelAxes,
  Perpendicular,
  RollingDisk,
  Gear,
  InternalGear,
  RackPinion,
  Screw,
  PointOnCurve,
  CurveOnCurve,
  Orientation,
  ConstantVelocity,
};

}  // namespace rlx
