#pragma once
// The edits a user makes to a spec, as plain functions: spec in, spec out (or the reason the edit
// is refused). Undo commands (commands.h) wrap them; tests call them directly. Elements are
// addressed by kind and name, the identity a user sees.

#include "model/diagnostic.h"
#include "model/model.h"
#include "model/spec.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace rlx::ui {

enum class ElementKind { Body, Joint, Motion, Force, Constraint, Parameter };

// A typed id across the UI: what kind of element, and its name.
struct ElementId {
  ElementKind kind = ElementKind::Body;
  std::string name;
  bool operator==(const ElementId&) const = default;
};

// The key of an element list in a .rlx file ("bodies", "joints", ...).
const char* elementListKey(ElementKind kind);
const char* elementKindName(ElementKind kind);  // "body", "joint", ...

// Every element of the spec, in file order.
std::vector<ElementId> elements(const Spec& spec);
bool contains(const Spec& spec, const ElementId& id);

// A name not used by any element: `base` followed by the smallest free number ("bar1").
std::string freeName(const Spec& spec, const std::string& base);

// The outcome of an edit: the new spec, or why it cannot be made (the spec is then unchanged).
struct EditResult {
  std::optional<Spec> spec;
  Diagnostics diagnostics;
};

// An element as the JSON object of a .rlx file, and its replacement by another such object.
// The new object is read with the same strict checks as a file; refusals name the element and
// the field.
nlohmann::ordered_json elementJson(const Spec& spec, const ElementId& id);
EditResult replaceElement(const Spec& spec, const ElementId& id,
                          const nlohmann::ordered_json& object);

// Sets one top-level field of an element ("mass", "position", "function" ...); a null value
// removes the field (its default applies).
EditResult setElementField(const Spec& spec, const ElementId& id, const std::string& field,
                           const nlohmann::ordered_json& value);

// The model as the JSON object of a .rlx file, and one of its top-level fields set ("name",
// "description", "gravity", "analysis"); a null value removes the field.
nlohmann::ordered_json modelJson(const Spec& spec);
EditResult setModelField(const Spec& spec, const std::string& field,
                         const nlohmann::ordered_json& value);

// Appends an element given as its JSON object (it must carry a new, valid "name").
EditResult addElement(const Spec& spec, ElementKind kind, const nlohmann::ordered_json& object);

// The elements that must go with `ids`: joints, motions, forces and constraints that name a
// removed body or joint, recursively. Includes `ids` themselves, in file order.
std::vector<ElementId> withDependents(const Spec& spec, const std::vector<ElementId>& ids);
Spec removeElements(const Spec& spec, const std::vector<ElementId>& ids);  // with dependents

// Renames an element and every reference to it (body1/body2, joint, body fields, and the
// variables of expressions: `crank.x` becomes `arm.x`).
EditResult renameElement(const Spec& spec, const ElementId& id, const std::string& newName);

// Writes the positions and angles (and velocities) of an assembled state back into the bodies'
// initial guesses, as a drag leaves them.
Spec withBodyPoses(const Spec& spec, const Model& model, const State& state);

Spec withAnalysis(const Spec& spec, const AnalysisSpec& analysis);

}  // namespace rlx::ui
