#pragma once
// Small types shared by the viewport, its sync layer and the code that connects to them.

#include <QString>
#include <QVector3D>

namespace rlx::ui {

// What a mouse press in the viewport does.
enum class Tool {
  Select,            // click selects, drag on a body moves the mechanism, drag on empty space pans
  AddBar,            // drag from one end to the other
  AddBox,            // click (default size) or drag a corner to the opposite corner
  AddDisk,           // click (default radius) or drag from the centre to the rim
  AddRevolute,       // click a point: the bodies under it (or one body and ground)
  AddTranslational,  // click a point: as revolute; the axis is x
  AddSpring,         // click a point on one body, then a point on another (or ground)
};

enum class ShapeKind { Bar, Box, Disk };

// Planar: parallel projection onto the x-y plane, grid, snapping. Spatial: trackball camera.
enum class ViewMode { Planar, Spatial };

// A point of a body whose path is drawn (body coordinates).
struct TracePoint {
  QString body;
  QVector3D point;
};

}  // namespace rlx::ui
