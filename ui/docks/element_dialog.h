#pragma once
// A dialog that adds one element (a motion, a force, a spring, a parameter, a user constraint, a
// body or a joint) from a form prefilled with sensible values for the current model and
// selection. OK adds it as one undoable edit; a refused element keeps the dialog open with the
// reason shown.

#include "document/document.h"
#include "document/edits.h"

#include <nlohmann/json.hpp>

#include <QDialog>

#include <vector>

class QFormLayout;
class QLabel;
class QLineEdit;

namespace rlx::ui {

class ElementDialog : public QDialog {
  Q_OBJECT
 public:
  // `object`: the new element's fields in file order, prefilled.
  ElementDialog(Document* document, ElementKind kind, const nlohmann::ordered_json& object,
                const QString& title, QWidget* parent = nullptr);

  QLineEdit* field(const QString& key) const;  // for tests and keyboard users
  QString addedName() const { return added_; }

  void accept() override;

 private:
  Document* document_;
  ElementKind kind_;
  std::vector<std::pair<std::string, QLineEdit*>> fields_;
  QLabel* message_;
  QString added_;
};

// Prefilled objects for new elements of the spec; `near` names the selected elements.
nlohmann::ordered_json newMotion(const Spec& spec, const std::vector<ElementId>& near);
nlohmann::ordered_json newForce(const Spec& spec, ForceType type, const std::vector<ElementId>& near);
nlohmann::ordered_json newParameter(const Spec& spec);
nlohmann::ordered_json newConstraint(const Spec& spec, bool holonomic);
// Gearing and cams (docks/new_gearing.cpp), between the two selected bodies or the first two of the spec.
// A gear pair (2-D) whose pitch circles touch at the bodies' origins: a disk keeps its radius.
nlohmann::ordered_json newGearPair(const Spec& spec, const std::vector<ElementId>& near);
// A rack (the body on a translational joint to ground, along that joint's axis) and a pinion
// (2-D) whose pitch circle touches the rack's line through the rack's origin.
nlohmann::ordered_json newRackPinion(const Spec& spec, const std::vector<ElementId>& near);
// A coupler of the two selected joints with a coordinate (or the first two of the spec): an open
// belt, the pulleys' disk or cylinder radii as ratios of opposite signs (1 and -1 without).
nlohmann::ordered_json newCoupler(const Spec& spec, const std::vector<ElementId>& near);
// A screw (3-D) at body2's origin along z, pitch 5 mm.
nlohmann::ordered_json newScrew(const Spec& spec, const std::vector<ElementId>& near);
// A cam (2-D): body1's origin (the follower) on a circle of body2 (the cam) round its origin
// through that point, given as curve2.x and curve2.y for the user to change into the cam's law.
nlohmann::ordered_json newCam(const Spec& spec, const std::vector<ElementId>& near);

}  // namespace rlx::ui
