#include "plot/channels.h"

#include "plot/run_series.h"

#include <QHash>

namespace rlx::ui {
namespace {

// Quantities of body columns (planar and spatial) with their units.
const QHash<QString, QString>& bodyUnits() {
  static const QHash<QString, QString> units{
      {"x", "m"},       {"y", "m"},          {"z", "m"},         {"angle", "rad"},
      {"qw", ""},       {"qx", ""},          {"qy", ""},         {"qz", ""},
      {"psi", "rad"},   {"theta", "rad"},    {"phi", "rad"},     {"vx", "m/s"},
      {"vy", "m/s"},    {"vz", "m/s"},       {"omega", "rad/s"}, {"wx", "rad/s"},
      {"wy", "rad/s"},  {"wz", "rad/s"},     {"ax", "m/s²"},     {"ay", "m/s²"},
      {"az", "m/s²"},   {"alpha", "rad/s²"}, {"alx", "rad/s²"},  {"aly", "rad/s²"},
      {"alz", "rad/s²"}};
  return units;
}

// Quantities of joint reaction columns with their units.
const QHash<QString, QString>& jointUnits() {
  static const QHash<QString, QString> units{{"fx", "N"},   {"fy", "N"},   {"fz", "N"},
                                             {"tx", "N·m"}, {"ty", "N·m"}, {"tz", "N·m"}};
  return units;
}

}  // namespace

ChannelName classifyChannel(const QString& column) {
  // Whole-system columns.
  if (column == "t") return {ChannelGroup::Time, {}, column};
  if (column == "kinetic" || column == "potential" || column == "energy" ||
      column == "work_nonconservative" || column == kEnergyDrift)
    return {ChannelGroup::Energy, {}, column};
  if (column == "constraint_error" || column == "velocity_constraint_error")
    return {ChannelGroup::ConstraintError, {}, column};

  // Element columns: element.quantity.
  const auto dot = column.lastIndexOf('.');
  if (dot <= 0) return {ChannelGroup::Other, {}, column};
  const QString element = column.left(dot);
  const QString quantity = column.mid(dot + 1);
  if (bodyUnits().contains(quantity)) return {ChannelGroup::Body, element, quantity};
  if (jointUnits().contains(quantity)) return {ChannelGroup::Joint, element, quantity};
  if (quantity == "effort") return {ChannelGroup::Motion, element, quantity};
  return {ChannelGroup::Other, {}, column};
}

QString columnUnit(const QString& column) {
  const ChannelName name = classifyChannel(column);
  switch (name.group) {
    case ChannelGroup::Time:
      return "s";
    case ChannelGroup::Body:
      return bodyUnits().value(name.quantity);
    case ChannelGroup::Joint:
      return jointUnits().value(name.quantity);
    case ChannelGroup::Motion:
      return "N or N·m";
    case ChannelGroup::Energy:
      return "J";
    case ChannelGroup::ConstraintError:
      return column == "constraint_error" ? "m or rad" : "m/s or rad/s";
    case ChannelGroup::Other:
      return {};
  }
  return {};
}

QStringList defaultChannels(const QStringList& columns) {
  // The first motion's effort.
  for (const QString& column : columns)
    if (classifyChannel(column).group == ChannelGroup::Motion) return {column};
  // Else the position of the body of the first body column.
  QString body;
  QStringList position;
  for (const QString& column : columns) {
    const ChannelName name = classifyChannel(column);
    if (name.group != ChannelGroup::Body) continue;
    if (body.isEmpty()) body = name.element;
    const bool positional = QStringList{"x", "y", "z", "angle"}.contains(name.quantity);
    if (name.element == body && positional) position.append(column);
  }
  return position;
}

QString withUnit(const QString& name, const QString& unit) {
  return unit.isEmpty() ? name : name + " [" + unit + "]";
}

}  // namespace rlx::ui
