#pragma once
// Structural reading of the objects of a .rlx file. A FieldReader walks one JSON object: each
// take/read marks a key as known for that element, reads it with the type the format gives it and
// reports problems under the element's label (`bodies[1] "rod": mass must be ...`); finish()
// reports every key that was never taken as unknown. Meaning (names resolve, values in range) is
// left to compile().

#include "io/json_text.h"
#include "model/diagnostic.h"
#include "model/spec.h"

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rlx {

// What every reader of one file shares.
struct ReadContext {
  int dimension = 2;
  Diagnostics diagnostics;
};

// Whether a missing key is an error.
enum class Need { Optional, Required };

// A letter or `_`, then letters, digits and `_`.
bool isIdentifier(std::string_view text);

class FieldReader {
 public:
  // `element` labels diagnostics (`joints[0]`); `prefix` names nested fields ("shape.").
  FieldReader(const Json& object, std::string element, ReadContext& context,
              std::string prefix = {});

  const std::string& element() const { return element_; }
  bool has(std::string_view key) const;

  // Marks `key` as known and returns its value (nullptr when absent; an error if required).
  const Json* take(std::string_view key, Need need = Need::Optional);

  // Reads the element's `name` (required, an identifier) and adds it to the label.
  std::string name();

  // Numbers: a JSON number or a non-empty expression string. Absent keys keep `out`.
  void number(std::string_view key, Number& out, Need need = Need::Optional);
  void number(std::string_view key, std::optional<Number>& out);
  // A vector of the model's dimension.
  void vector(std::string_view key, Vector& out);
  void vector(std::string_view key, std::optional<Vector>& out);
  // A list of numbers whose length is one of `lengths`.
  std::optional<std::vector<Number>> numbers(std::string_view key,
                                             std::initializer_list<std::size_t> lengths);

  // Plain text.
  void text(std::string_view key, std::string& out, Need need = Need::Optional);
  // true or false. Absent keys keep `out`.
  void flag(std::string_view key, bool& out);
  // A function field: an expression string (a JSON number is kept as its text).
  void function(std::string_view key, std::string& out, Need need = Need::Optional);
  // A list of function fields, of `length` entries when given.
  void functions(std::string_view key, std::vector<std::string>& out, Need need,
                 std::optional<std::size_t> length = std::nullopt);
  // One of a fixed set of words.
  void choice(std::string_view key, std::string& out, const std::vector<std::string>& allowed,
              Need need = Need::Optional);

  // Reports `key` when it is present: it is known to the format but `reason` ("is not used in a
  // 2-D model") says why it does not belong here.
  void misplaced(std::string_view key, const std::string& reason);
  // Reports when both alternatives are given.
  void exclusive(std::string_view first, std::string_view second);

  void error(std::string_view key, const std::string& message);
  // Takes every key: after an unknown `type` the keys that belong to it cannot be told apart.
  void takeAll();
  // Reports the keys that no take/read asked for.
  void finish();

  // Conversions of one value, reported under `field` (the full field name, "hold[2]").
  std::optional<Number> asNumber(const Json& value, const std::string& field);
  std::optional<Vector> asVector(const Json& value, const std::string& field, std::size_t length);
  std::optional<std::string> asFunction(const Json& value, const std::string& field);
  std::optional<std::string> asChoice(const Json& value, const std::string& field,
                                      const std::vector<std::string>& allowed);

 private:
  const Json& object_;
  std::string element_;
  ReadContext& context_;
  std::string prefix_;
  std::vector<std::string> known_;

  std::string field(std::string_view key) const;
  void report(const std::string& field, const std::string& message);
};

}  // namespace rlx
