#pragma once
// What a result column is: its group in the channel tree (bodies, joints, motions, energy,
// constraint errors), the element it belongs to and its unit, from the column name alone
// (core/output/csv.h: "B.x", "J.fx", "M.effort", "kinetic", ...).

#include <QString>
#include <QStringList>

namespace rlx::ui {

enum class ChannelGroup { Time, Body, Joint, Motion, Energy, ConstraintError, Other };

struct ChannelName {
  ChannelGroup group = ChannelGroup::Other;
  QString element;   // "crank" for "crank.omega"; empty for energies and errors
  QString quantity;  // "omega"; the whole name for energies and errors
};

// Splits a column name at its last dot and classifies it by the quantity; the suffixes of
// bodies, joints and motions are distinct.
ChannelName classifyChannel(const QString& column);

// The unit of a column ("crank.omega" -> "rad/s", "kinetic" -> "J"); motion efforts are
// "N or N·m" (the column alone does not say which); "" for quaternion parts and unknown names.
QString columnUnit(const QString& column);

// What a plot shows right after a run, from the run's columns: the first motion's effort or,
// without a motion, the first body's position (x, y, z and the planar angle that it has);
// nothing when the run has neither.
QStringList defaultChannels(const QStringList& columns);

// "crank.omega [rad/s]", or the name alone without a unit.
QString withUnit(const QString& name, const QString& unit);

}  // namespace rlx::ui
