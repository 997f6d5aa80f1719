#include "docks/properties_dock.h"

#include "document/commands.h"
#include "docks/value_text.h"
#include "io/json_text.h"
#include "joints/family.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

namespace rlx::ui {
namespace {

// The fields a user can set, per element kind, in the order the file writes them.
std::vector<std::string> knownFields(ElementKind kind, const std::string& type, int dimension) {
  const bool planar = dimension == 2;
  switch (kind) {
    case ElementKind::Body:
      if (planar) return {"name", "mass", "inertia", "position", "angle", "velocity", "angular_velocity", "hold", "shape"};
      return {"name", "mass", "inertia", "position", "orientation", "quaternion", "velocity", "angular_velocity", "hold", "shape"};
    case ElementKind::Joint: {
      const auto known = jointTypeNamed(type);
      if (!known)  // an unknown type: everything a joint may have
        return {"name", "type", "body1", "body2", "at", "axis", "point1", "point2", "axis1", "axis2", "length", "radius", "curve1", "curve2"};
      // What the family reads (model/compile.cpp): its points, its axes, its numbers.
      const JointFamily& family = jointFamily(*known);
      const bool ownOrigins = family.points == JointPoints::OwnOrigins;
      const SpatialAxes axes3 = family.spatial ? family.spatial->axes : SpatialAxes::None;
      // The global axis, body1's, body2's.
      const bool axis = planar ? family.planar && family.planar->axis
                               : axes3 != SpatialAxes::None && axes3 != SpatialAxes::CrossAxes;
      const bool axis1 = planar ? axis : axes3 != SpatialAxes::None;
      const bool axis2 = !planar && axes3 != SpatialAxes::None &&
                         axes3 != SpatialAxes::OptionalAxis && axes3 != SpatialAxes::OneAxis;
      std::vector<std::string> fields{"name", "type", "body1", "body2"};
      if (!ownOrigins) fields.emplace_back("at");
      if (axis) fields.emplace_back("axis");
      fields.insert(fields.end(), {"point1", "point2"});
      if (axis1) fields.emplace_back("axis1");
      if (axis2) fields.emplace_back("axis2");
      if (family.length) fields.emplace_back("length");
      if (family.radius) fields.emplace_back("radius");
      for (const FamilyNumber& n : family.numbers) fields.emplace_back(n.key);  // a gear's radii
      if (family.curves == JointCurves::Both) fields.emplace_back("curve1");  // a cam's
      if (family.curves != JointCurves::None) fields.emplace_back("curve2");
      return fields;
    }
    case ElementKind::Motion:
      return {"name", "joint", "body", "coordinate", "point", "at", "function"};
    case ElementKind::Force:
      if (type == "spring_damper")
        return {"name", "type", "body1", "body2", "point1", "point2", "at1", "at2", "stiffness", "damping", "free_length", "preload", "function"};
      if (type == "torsion_spring") return {"name", "type", "joint", "stiffness", "damping", "free_angle", "preload"};
      if (type == "force") return {"name", "type", "body", "point", "at", "vector", "frame"};
      if (type == "torque") return {"name", "type", "body", planar ? "value" : "vector"};
      if (type == "limit")
        return {"name", "type", "joint", "lower", "upper", "stiffness", "exponent", "damping", "penetration"};
      return {"name", "type", "joint", "value"};
    case ElementKind::Constraint:
      if (type == "coupler") return {"name", "type", "joints", "ratios"};
      return {"name", "type", "equations"};
    case ElementKind::Parameter:
      return {"value"};
  }
  return {};
}

const std::vector<std::string> kModelFields{"name", "description", "gravity"};

}  // namespace

QString fieldUnit(const QString& kind, const QString& type, const QString& field) {
  const bool torsion = type == "torsion_spring";
  if (type == "limit") {  // along a sliding or a turning joint
    if (field == "lower" || field == "upper" || field == "penetration") return "m or rad";
    if (field == "stiffness") return "N/mᵉ or N·m/radᵉ";
    if (field == "damping") return "N·s/m or N·m·s/rad";
    return {};
  }
  if (field == "mass") return "kg";
  if (field == "inertia") return "kg·m²";
  if (field == "position" || field == "at" || field.startsWith("point") || field.startsWith("at") ||
      field == "length" || field.startsWith("radius") || field == "pitch_radius" ||
      field == "pitch" || field == "free_length")
    return "m";
  if (field == "angle" || field == "orientation" || field == "free_angle" ||
      field == "pressure_angle")
    return "rad";
  if (field == "velocity") return "m/s";
  if (field == "angular_velocity") return "rad/s";
  if (field == "gravity") return "m/s²";
  if (field == "stiffness") return torsion ? "N·m/rad" : "N/m";
  if (field == "damping") return torsion ? "N·m·s/rad" : "N·s/m";
  if (field == "preload") return torsion ? "N·m" : "N";
  if (field == "vector") return type == "torque" ? "N·m" : "N";
  if (field == "value" && type == "torque") return "N·m";
  if (field == "function" && kind == "motion") return "m or rad";
  return {};
}

PropertiesDock::PropertiesDock(Document* document, Selection* selection, QWidget* parent)
    : QWidget(parent), document_(document), selection_(selection) {
  title_ = new QLabel(this);
  QFont bold = title_->font();
  bold.setBold(true);
  title_->setFont(bold);
  table_ = new QTableWidget(0, 3, this);
  table_->setHorizontalHeaderLabels({tr("Field"), tr("Value"), tr("Unit")});
  table_->verticalHeader()->hide();
  table_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
  table_->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
  table_->horizontalHeader()->setSectionResizeMode(2, QHeaderView::ResizeToContents);
  table_->setAlternatingRowColors(true);
  message_ = new QLabel(this);
  message_->setWordWrap(true);
  message_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addWidget(title_);
  layout->addWidget(table_, 1);
  layout->addWidget(message_);
  connect(document_, &Document::specChanged, this, &PropertiesDock::rebuild);
  connect(selection_, &Selection::changed, this, &PropertiesDock::rebuild);
  connect(table_, &QTableWidget::cellChanged, this, &PropertiesDock::cellEdited);
  rebuild();
}

QString PropertiesDock::message() const { return message_->text(); }

void PropertiesDock::rebuild() {
  syncing_ = true;
  const Spec& spec = document_->spec();
  const ElementId* id = selection_->single();
  Json object = id ? elementJson(spec, *id) : Json();
  if (object.is_null()) id = nullptr;  // the document keeps the selection in the spec; be sure
  std::vector<std::string> fields;
  QString kind = "model", type;
  if (id) {
    if (id->kind == ElementKind::Parameter) object = Json{{"value", object}};
    const auto typeField = object.find("type");
    if (typeField != object.end() && typeField->is_string()) type = QString::fromStdString(typeField->get<std::string>());
    kind = elementKindName(id->kind);
    fields = knownFields(id->kind, type.toStdString(), spec.dimension);
    title_->setText(tr("%1 \"%2\"").arg(kind, QString::fromStdString(id->name)));
  } else {
    object = modelJson(spec);
    fields = kModelFields;
    title_->setText(selection_->isEmpty() ? tr("Model") : tr("%1 elements selected").arg(selection_->ids().size()));
  }
  // Fields present in the element but not in the known list (none for valid files) still show.
  for (const auto& [key, value] : object.items())
    if (std::find(fields.begin(), fields.end(), key) == fields.end() && id) fields.push_back(key);
  table_->setRowCount(0);
  if (id || selection_->isEmpty()) {
    table_->setRowCount(static_cast<int>(fields.size()));
    for (int row = 0; row < static_cast<int>(fields.size()); ++row) {
      const std::string& field = fields[static_cast<std::size_t>(row)];
      auto* name = new QTableWidgetItem(QString::fromStdString(field));
      name->setFlags(Qt::ItemIsEnabled);
      auto* value = new QTableWidgetItem(object.contains(field) ? textOfValue(object[field]) : QString());
      if (!object.contains(field)) value->setToolTip(tr("default"));
      const bool fixed = field == "type" && id;  // a different type is a different element
      if (fixed) value->setFlags(Qt::ItemIsEnabled);
      auto* unit = new QTableWidgetItem(fieldUnit(kind, type, QString::fromStdString(field)));
      unit->setFlags(Qt::ItemIsEnabled);
      table_->setItem(row, 0, name);
      table_->setItem(row, 1, value);
      table_->setItem(row, 2, unit);
    }
  }
  // What the compiler says about the shown element.
  QStringList notes;
  for (const Diagnostic& d : document_->diagnostics())
    if (id && d.element.find("\"" + id->name + "\"") != std::string::npos)
      notes << QString::fromStdString(d.text());
  showMessage(notes.join("\n"), !notes.isEmpty());
  syncing_ = false;
}

void PropertiesDock::cellEdited(int row, int column) {
  if (syncing_ || column != 1 || !table_->item(row, 0) || !table_->item(row, 1)) return;
  const QString field = table_->item(row, 0)->text();
  const QString text = table_->item(row, 1)->text();
  // The edit rebuilds the table, so it runs after this cell's signal has returned, and only if
  // the dock still shows what was edited.
  const std::vector<ElementId> shown = selection_->ids();
  QMetaObject::invokeMethod(
      this, [this, field, text, shown] { if (selection_->ids() == shown) editField(field, text); },
      Qt::QueuedConnection);
}

void PropertiesDock::editField(const QString& field, const QString& text) {
  const Spec& spec = document_->spec();
  const ElementId* id = selection_->single();
  Diagnostics refused;
  if (id && field == "name") {
    refused = pushRename(document_, *id, text.trimmed().toStdString());
  } else if (id) {
    const QString what = tr("Set %1.%2").arg(QString::fromStdString(id->name), field);
    refused = pushEdit(document_, setElementField(spec, *id, field.toStdString(), valueOfText(text)), what, what);
  } else {
    const Json value = field == "gravity" ? valueOfText(text) : Json(text.toStdString());
    const QString what = tr("Set model %1").arg(field);
    refused = pushEdit(document_, setModelField(spec, field.toStdString(), value), what, what);
  }
  if (refused.empty()) return;
  // Keep the user's text in the cell, marked, with the reason below.
  rebuild();
  syncing_ = true;
  for (int row = 0; row < table_->rowCount(); ++row)
    if (table_->item(row, 0) && table_->item(row, 1) && table_->item(row, 0)->text() == field) {
      table_->item(row, 1)->setText(text);
      table_->item(row, 1)->setBackground(QColor(255, 220, 220));
    }
  syncing_ = false;
  showMessage(tr("Not changed: %1").arg(QString::fromStdString(refused.front().text())), true);
}

void PropertiesDock::showMessage(const QString& text, bool error) {
  message_->setText(text);
  message_->setStyleSheet(error ? "color: #b00020;" : "");
  message_->setVisible(!text.isEmpty());
}

}  // namespace rlx::ui
