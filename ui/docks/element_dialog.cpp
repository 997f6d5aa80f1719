#include "docks/element_dialog.h"

#include "document/commands.h"
#include "docks/value_text.h"
#include "joints/family.h"
#include "model/compile.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>

namespace rlx::ui {
namespace {

using Json = nlohmann::ordered_json;

// The first selected element of a kind, or the first such element of the spec, or "".
std::string pick(const Spec& spec, const std::vector<ElementId>& near, ElementKind kind,
                 bool (*accept)(const Spec&, const std::string&) = nullptr) {
  for (const ElementId& id : near)
    if (id.kind == kind && (!accept || accept(spec, id.name))) return id.name;
  for (const ElementId& id : elements(spec))
    if (id.kind == kind && (!accept || accept(spec, id.name))) return id.name;
  return "";
}

bool drivable(const Spec& spec, const std::string& name) {
  for (const JointSpec& j : spec.joints)
    if (j.name == name)
      return hasCoordinate(j.type);
  return false;
}

bool rotational(const Spec& spec, const std::string& name) {
  for (const JointSpec& j : spec.joints)
    if (j.name == name) return coordinateIsAngle(j.type);
  return false;
}

Json zeros(const Spec& spec) { return spec.dimension == 2 ? Json::array({0, 0}) : Json::array({0, 0, 0}); }

}  // namespace

Json newMotion(const Spec& spec, const std::vector<ElementId>& near) {
  const std::string joint = pick(spec, near, ElementKind::Joint, drivable);
  Json m{{"name", freeName(spec, "motion")}};
  if (!joint.empty()) {
    m["joint"] = joint;
    m["function"] = rotational(spec, joint) ? "2*pi*t" : "0.1*sin(2*pi*t)";
  } else {
    m["body"] = pick(spec, near, ElementKind::Body);
    m["coordinate"] = "x";
    m["function"] = "0.1*sin(2*pi*t)";
  }
  return m;
}

Json newForce(const Spec& spec, ForceType type, const std::vector<ElementId>& near) {
  const std::string body = pick(spec, near, ElementKind::Body);
  Json f{{"name", freeName(spec, type == ForceType::SpringDamper ? "spring"
                                      : type == ForceType::Limit     ? "stop"
                                                                     : forceTypeName(type))},
         {"type", forceTypeName(type)}};
  switch (type) {
    case ForceType::SpringDamper:
      f["body1"] = "ground";
      f["body2"] = body;
      f["point1"] = zeros(spec);
      f["point2"] = zeros(spec);
      f["stiffness"] = 100;
      f["damping"] = 1;
      break;
    case ForceType::TorsionSpring:
      f["joint"] = pick(spec, near, ElementKind::Joint, rotational);
      f["stiffness"] = 10;
      f["damping"] = 0.1;
      break;
    case ForceType::Force:
      f["body"] = body;
      f["point"] = zeros(spec);
      f["vector"] = spec.dimension == 2 ? Json::array({"0", "-10"}) : Json::array({"0", "0", "-10"});
      f["frame"] = "global";
      break;
    case ForceType::Torque:
      f["body"] = body;
      if (spec.dimension == 2)
        f["value"] = "1";
      else
        f["vector"] = Json::array({"0", "0", "1"});
      break;
    case ForceType::JointForce:
      f["joint"] = pick(spec, near, ElementKind::Joint, drivable);
      f["value"] = "0";
      break;
    case ForceType::Limit: {
      // Bounds a quarter turn or 0.1 length units either side of the file's configuration.
      const std::string joint = pick(spec, near, ElementKind::Joint, drivable);
      const double reach = !joint.empty() && rotational(spec, joint) ? 0.785 : 0.1;
      f["joint"] = joint;
      f["lower"] = -reach;
      f["upper"] = reach;
      f["stiffness"] = 1e5;
      f["exponent"] = 1.5;
      f["damping"] = 10;
      f["penetration"] = 1e-3;
      break;
    }
  }
  return f;
}

Json newParameter(const Spec& spec) { return Json{{"name", freeName(spec, "p")}, {"value", 1.0}}; }

Json newConstraint(const Spec& spec, bool holonomic) {
  return Json{{"name", freeName(spec, "constraint")},
              {"type", constraintTypeName(holonomic ? ConstraintType::Holonomic : ConstraintType::Nonholonomic)},
              {"equations", Json::array({""})}};
}

ElementDialog::ElementDialog(Document* document, ElementKind kind, const Json& object,
                             const QString& title, QWidget* parent)
    : QDialog(parent), document_(document), kind_(kind) {
  setWindowTitle(title);
  auto* form = new QFormLayout;
  for (const auto& [key, value] : object.items()) {
    auto* edit = new QLineEdit(textOfValue(value), this);
    edit->setObjectName(QString::fromStdString(key));
    form->addRow(QString::fromStdString(key), edit);
    fields_.emplace_back(key, edit);
  }
  message_ = new QLabel(this);
  message_->setWordWrap(true);
  message_->setStyleSheet("color: #b00020;");
  message_->hide();
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  connect(buttons, &QDialogButtonBox::accepted, this, &ElementDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &ElementDialog::reject);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addWidget(message_);
  layout->addWidget(buttons);
  setMinimumWidth(420);
}

QLineEdit* ElementDialog::field(const QString& key) const {
  for (const auto& [name, edit] : fields_)
    if (QString::fromStdString(name) == key) return edit;
  return nullptr;
}

void ElementDialog::accept() {
  Json object = Json::object();
  for (const auto& [key, edit] : fields_) {
    Json value = valueOfText(edit->text());
    if (key == "name" || key == "body" || key == "body1" || key == "body2" || key == "joint" ||
        key == "function" || key == "value")
      value = edit->text().trimmed().toStdString();  // names and expressions are text
    if (kind_ == ElementKind::Parameter && key == "value") value = valueOfText(edit->text());
    if (key.ends_with(".x") || key.ends_with(".y")) value = edit->text().trimmed().toStdString();
    if (value.is_null() || (value.is_string() && value.get<std::string>().empty())) continue;
    // "curve2.x": a field of a nested object.
    if (const auto dot = key.find('.'); dot != std::string::npos)
      object[key.substr(0, dot)][key.substr(dot + 1)] = value;
    else
      object[key] = value;
  }
  const EditResult result = addElement(document_->spec(), kind_, object);
  if (!result.spec) {
    message_->setText(QString::fromStdString(result.diagnostics.front().text()));
    message_->show();
    return;
  }
  // An element that does not compile (a name that does not resolve, say) is explained, not added.
  const std::string name = object.value("name", "");
  for (const Diagnostic& d : compile(*result.spec).diagnostics)
    if (d.severity == Severity::Error && d.element.find("\"" + name + "\"") != std::string::npos) {
      message_->setText(QString::fromStdString(d.text()));
      message_->show();
      return;
    }
  added_ = QString::fromStdString(name);
  pushEdit(document_, *result.spec, tr("Add %1 %2").arg(elementKindName(kind_), added_));
  QDialog::accept();
}

}  // namespace rlx::ui
