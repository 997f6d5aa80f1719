#pragma once
// How a field's value is typed and shown in the editors: JSON when the text reads as JSON
// (5, [0.5, 0], {"type": "bar"}), otherwise the text itself as a string (an expression such as
// l/2 or 2*pi*t); an empty text is null (the field's default).

#include <nlohmann/json.hpp>

#include <QString>

namespace rlx::ui {

nlohmann::ordered_json valueOfText(const QString& text);
QString textOfValue(const nlohmann::ordered_json& value);

}  // namespace rlx::ui
