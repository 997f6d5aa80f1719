#pragma once
// Small types shared by the viewport, its sync layer and the code that connects to them.

#include "model/spec.h"

#include <QMetaType>
#include <QString>
#include <QVector3D>

namespace rlx::ui {

// What a mouse press in the viewport does.
enum class Tool {
  Select,            // click selects, drag on a body moves the mechanism, drag on empty space pans
  AddBar,            // drag from one end to the other
  AddBox,            // click (default size) or drag a corner to the opposite corner
  AddDisk,           // click (default radius) or drag from the centre to the rim
  AddRevolute,       // click a point: the bodies at it (or one body and ground)
  AddTranslational,  // click a point: as revolute; planar axis x
  AddSpring,         // click a point on one body, then a point on another (or ground)
};

enum class ShapeKind { Bar, Box, Disk };

// Planar: parallel projection onto the x-y plane, grid, snapping. Spatial: trackball camera.
enum class ViewMode { Planar, Spatial };

// A body drawn with a building tool (global points, metres). A bar whose end was on another
// body's end or centre names that body: it is pinned there in the same edit.
struct BodyRequest {
  ShapeKind kind = ShapeKind::Bar;
  QVector3D start, end;       // bar: its ends; box: two opposite corners; disk: centre and rim
  QString startPin, endPin;   // the body to pin each bar end to, or empty
  QVector3D startAxis, endAxis;  // 3-D: those pins' axes
};

// A joint clicked with a joint tool: body1 is "ground" when only one body is at the point.
struct JointRequest {
  JointType type = JointType::Revolute;
  QString body1, body2;
  QVector3D at;    // global
  QVector3D axis;  // unit: planar sliders along x; 3-D the snapped axis
};

// A point of a body whose path is drawn (body coordinates).
struct TracePoint {
  QString body;
  QVector3D point;
};

}  // namespace rlx::ui

Q_DECLARE_METATYPE(rlx::ui::BodyRequest)
Q_DECLARE_METATYPE(rlx::ui::JointRequest)
