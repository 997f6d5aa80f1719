#include "document/edits.h"

#include "io/json_text.h"
#include "io/model_file.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace rlx::ui {
namespace {

constexpr ElementKind kListKinds[] = {ElementKind::Body, ElementKind::Joint, ElementKind::Motion,
                                      ElementKind::Force, ElementKind::Constraint};

Json specJson(const Spec& spec) { return *parseJson(writeRlx(spec), "model").document; }

EditResult specFromJson(const Json& document) {
  LoadResult loaded = readRlx(formatJson(document), "edit");
  return {std::move(loaded.spec), std::move(loaded.diagnostics)};
}

EditResult refused(const ElementId& id, const std::string& field, const std::string& message) {
  return {std::nullopt,
          {Diagnostic{Severity::Error, std::string(elementKindName(id.kind)) + " \"" + id.name + "\"",
                      field, message}}};
}

// The array element (or parameter entry) of `id` in a .rlx document, or null.
Json* find(Json& document, const ElementId& id) {
  if (id.kind == ElementKind::Parameter) {
    Json& parameters = document["parameters"];
    return parameters.contains(id.name) ? &parameters[id.name] : nullptr;
  }
  Json& list = document[elementListKey(id.kind)];
  for (Json& element : list)
    if (element.value("name", "") == id.name) return &element;
  return nullptr;
}

bool isIdentifierChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Replaces the identifier `from` by `to` in an expression: element names only where they are
// followed by '.', parameter names only where they are not.
std::string renameInExpression(const std::string& text, const std::string& from,
                               const std::string& to, bool parameter) {
  std::string out;
  std::size_t i = 0;
  while (i < text.size()) {
    const bool starts = (std::isalpha(static_cast<unsigned char>(text[i])) || text[i] == '_') &&
                        (i == 0 || !isIdentifierChar(text[i - 1]));
    if (!starts) {
      out += text[i++];
      continue;
    }
    std::size_t end = i;
    while (end < text.size() && isIdentifierChar(text[end])) ++end;
    const std::string word = text.substr(i, end - i);
    const bool dotted = end < text.size() && text[end] == '.';
    out += (word == from && dotted != parameter) ? to : word;
    i = end;
  }
  return out;
}

// Keys whose strings are names of kinds or options, never expressions.
bool isKeywordKey(const std::string& key) {
  static const std::set<std::string> keys{"name",   "type",       "frame",       "coordinate",
                                          "hold",   "integrator", "file",        "description",
                                          "body1",  "body2",      "body",        "joint"};
  return keys.count(key) > 0;
}

void renameReferences(Json& value, const std::string& key, const std::string& from,
                      const std::string& to, bool parameter) {
  if (value.is_string()) {
    const std::string text = value.get<std::string>();
    if (key == "body1" || key == "body2" || key == "body" || key == "joint") {
      if (!parameter && text == from) value = to;
    } else if (!isKeywordKey(key)) {
      value = renameInExpression(text, from, to, parameter);
    }
  } else if (value.is_array()) {
    for (Json& item : value) renameReferences(item, key, from, to, parameter);
  } else if (value.is_object()) {
    for (auto& [k, item] : value.items()) renameReferences(item, k, from, to, parameter);
  }
}

// Whether an element refers to one of `names` by a reference field.
bool refersTo(const Json& element, const std::set<std::string>& names) {
  for (const char* key : {"body1", "body2", "body", "joint"})
    if (element.contains(key) && element[key].is_string() &&
        names.count(element[key].get<std::string>()))
      return true;
  return false;
}

Number keepExpression(const Number& old, double value) {
  return std::abs(old.value - value) <= 1e-12 * std::max(1.0, std::abs(value)) ? old : Number(value);
}

}  // namespace

const char* elementListKey(ElementKind kind) {
  switch (kind) {
    case ElementKind::Body: return "bodies";
    case ElementKind::Joint: return "joints";
    case ElementKind::Motion: return "motions";
    case ElementKind::Force: return "forces";
    case ElementKind::Constraint: return "constraints";
    case ElementKind::Parameter: return "parameters";
  }
  return "";
}

const char* elementKindName(ElementKind kind) {
  switch (kind) {
    case ElementKind::Body: return "body";
    case ElementKind::Joint: return "joint";
    case ElementKind::Motion: return "motion";
    case ElementKind::Force: return "force";
    case ElementKind::Constraint: return "constraint";
    case ElementKind::Parameter: return "parameter";
  }
  return "";
}

std::vector<ElementId> elements(const Spec& spec) {
  std::vector<ElementId> out;
  for (const Parameter& p : spec.parameters) out.push_back({ElementKind::Parameter, p.name});
  for (const BodySpec& b : spec.bodies) out.push_back({ElementKind::Body, b.name});
  for (const JointSpec& j : spec.joints) out.push_back({ElementKind::Joint, j.name});
  for (const MotionSpec& m : spec.motions) out.push_back({ElementKind::Motion, m.name});
  for (const ForceSpec& f : spec.forces) out.push_back({ElementKind::Force, f.name});
  for (const ConstraintSpec& c : spec.constraints) out.push_back({ElementKind::Constraint, c.name});
  return out;
}

bool contains(const Spec& spec, const ElementId& id) {
  const std::vector<ElementId> all = elements(spec);
  return std::find(all.begin(), all.end(), id) != all.end();
}

std::string freeName(const Spec& spec, const std::string& base) {
  std::set<std::string> used{"ground"};
  for (const ElementId& id : elements(spec)) used.insert(id.name);
  for (int k = 1;; ++k)
    if (!used.count(base + std::to_string(k))) return base + std::to_string(k);
}

Json modelJson(const Spec& spec) { return specJson(spec); }

EditResult setModelField(const Spec& spec, const std::string& field, const Json& value) {
  Json document = specJson(spec);
  if (value.is_null())
    document.erase(field);
  else
    document[field] = value;
  return specFromJson(document);
}

Json elementJson(const Spec& spec, const ElementId& id) {
  Json document = specJson(spec);
  const Json* element = find(document, id);
  return element ? *element : Json();
}

EditResult replaceElement(const Spec& spec, const ElementId& id, const Json& object) {
  Json document = specJson(spec);
  Json* element = find(document, id);
  if (!element) return refused(id, "", "no such element");
  *element = object;
  return specFromJson(document);
}

EditResult setElementField(const Spec& spec, const ElementId& id, const std::string& field,
                           const Json& value) {
  Json object = elementJson(spec, id);
  if (object.is_null()) return refused(id, field, "no such element");
  if (id.kind == ElementKind::Parameter) return replaceElement(spec, id, value);
  if (field == "name") return refused(id, field, "rename the element instead");
  if (value.is_null())
    object.erase(field);
  else
    object[field] = value;
  return replaceElement(spec, id, object);
}

EditResult addElement(const Spec& spec, ElementKind kind, const Json& object) {
  Json document = specJson(spec);
  if (kind == ElementKind::Parameter) {
    const std::string name = object.value("name", "");
    if (document["parameters"].contains(name))
      return refused({kind, name}, "name", "the name is already used");
    document["parameters"][name] = object.value("value", Json(0.0));
  } else {
    document[elementListKey(kind)].push_back(object);
  }
  EditResult result = specFromJson(document);
  // A name used twice is a compile error; the editor refuses it at once.
  if (result.spec) {
    const std::string name = object.value("name", "");
    int uses = 0;
    for (const ElementId& id : elements(*result.spec)) uses += id.name == name;
    if (uses > 1 || name == "ground") return refused({kind, name}, "name", "the name is already used");
  }
  return result;
}

std::vector<ElementId> withDependents(const Spec& spec, const std::vector<ElementId>& ids) {
  const Json document = specJson(spec);
  std::set<std::string> removed;
  for (const ElementId& id : ids) removed.insert(id.name);
  // Grow the set until no element refers to a removed one.
  for (bool grew = true; grew;) {
    grew = false;
    for (ElementKind kind : kListKinds)
      for (const Json& element : document.value(elementListKey(kind), Json::array())) {
        const std::string name = element.value("name", "");
        if (!removed.count(name) && refersTo(element, removed)) grew = removed.insert(name).second;
      }
  }
  std::vector<ElementId> out;
  for (const ElementId& id : elements(spec))
    if (removed.count(id.name)) out.push_back(id);
  return out;
}

Spec removeElements(const Spec& spec, const std::vector<ElementId>& ids) {
  Json document = specJson(spec);
  for (const ElementId& id : withDependents(spec, ids)) {
    if (id.kind == ElementKind::Parameter) {
      document["parameters"].erase(id.name);
      continue;
    }
    Json& list = document[elementListKey(id.kind)];
    for (std::size_t i = 0; i < list.size(); ++i)
      if (list[i].value("name", "") == id.name) {
        list.erase(i);
        break;
      }
  }
  EditResult result = specFromJson(document);
  return result.spec ? *result.spec : spec;
}

EditResult renameElement(const Spec& spec, const ElementId& id, const std::string& newName) {
  if (!contains(spec, id)) return refused(id, "name", "no such element");
  if (newName == id.name) return {spec, {}};
  const std::vector<ElementId> all = elements(spec);
  if (newName == "ground" ||
      std::any_of(all.begin(), all.end(), [&](const ElementId& e) { return e.name == newName; }))
    return refused(id, "name", "the name \"" + newName + "\" is already used");
  Json document = specJson(spec);
  const bool parameter = id.kind == ElementKind::Parameter;
  if (parameter) {
    Json renamed = Json::object();
    for (auto& [key, value] : document["parameters"].items()) renamed[key == id.name ? newName : key] = value;
    document["parameters"] = renamed;
  } else {
    (*find(document, id))["name"] = newName;
  }
  for (auto& [key, value] : document.items())
    if (key != "view") renameReferences(value, key, id.name, newName, parameter);
  return specFromJson(document);
}

Spec withBodyPoses(const Spec& spec, const Model& model, const State& state) {
  Spec out = spec;
  for (const Body& body : model.bodies) {
    auto it = std::find_if(out.bodies.begin(), out.bodies.end(),
                           [&](const BodySpec& b) { return b.name == body.name; });
    if (it == out.bodies.end()) continue;
    const int n = model.dimension == 2 ? 2 : 3;
    it->position.resize(static_cast<std::size_t>(n), Number(0.0));
    for (int i = 0; i < n; ++i)
      it->position[static_cast<std::size_t>(i)] =
          keepExpression(it->position[static_cast<std::size_t>(i)], state.q(body.q + i));
    if (model.dimension == 2) {
      it->angle = keepExpression(it->angle, state.q(body.q + 2));
    } else {
      it->orientation.reset();
      it->quaternion = std::vector<Number>{state.q(body.q + 3), state.q(body.q + 4),
                                           state.q(body.q + 5), state.q(body.q + 6)};
    }
  }
  return out;
}

Spec withAnalysis(const Spec& spec, const AnalysisSpec& analysis) {
  Spec out = spec;
  out.analysis = analysis;
  return out;
}

}  // namespace rlx::ui
