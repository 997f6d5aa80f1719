#pragma once
// What the building tools snap to: the feature points of a mechanism as it is drawn (bar ends,
// body centres, box corners, edge middles and face centres, joint points, spring ends), each
// with the bodies it belongs to. Computed from the Spec and the shown State, so it needs no
// actors; the viewport projects the points to the screen and snaps within a radius in pixels.

#include "model/model.h"
#include "model/spec.h"

#include <QPointF>
#include <QString>
#include <QStringList>

#include <Eigen/Dense>

#include <functional>
#include <optional>
#include <vector>

namespace rlx::ui {

// In the order snapping prefers them when two are equally near.
enum class FeatureKind { BarEnd, BodyCentre, JointPoint, SpringEnd, Corner, EdgeMiddle, FaceCentre };

struct FeaturePoint {
  Eigen::Vector3d at;     // global
  FeatureKind kind;
  QStringList bodies;     // the bodies it lies on (never ground)
  QString owner;          // the body, joint or spring it comes from
  std::optional<JointType> joint;       // JointPoint: the joint's type
  std::optional<Eigen::Vector3d> axis;  // 3-D: an edge's direction or a face's normal
};

// Every feature point of the spec, drawn at `state` of `model` (model null: the spec's
// positions and planar angles, as the scene draws a spec that did not compile).
std::vector<FeaturePoint> featurePoints(const Spec& spec, const Model* model, const State& state);

// The feature point nearest `pos` on the screen within `radius` pixels; between points equally
// near (within half a pixel), the earlier kind.
std::optional<FeaturePoint> nearestFeature(
    const std::vector<FeaturePoint>& features, const QPointF& pos, double radius,
    const std::function<QPointF(const Eigen::Vector3d&)>& toScreen);

// The bodies of the feature points within `tolerance` of a global point.
QStringList featureBodiesAt(const std::vector<FeaturePoint>& features, const Eigen::Vector3d& at,
                            double tolerance);

// Body names without repeats, the topmost (latest in the spec) first.
QStringList topFirst(const Spec& spec, const QStringList& bodies);

// Whether a joint of `type` already joins these two bodies at the point.
bool alreadyJoined(const std::vector<FeaturePoint>& features, const Eigen::Vector3d& at,
                   double tolerance, JointType type, const QString& body1, const QString& body2);

// A direction rounded to the nearest principal axis when within 10 degrees of it (then always
// the positive one); otherwise unit, with its largest component positive.
Eigen::Vector3d roundedAxis(const Eigen::Vector3d& direction);

}  // namespace rlx::ui
