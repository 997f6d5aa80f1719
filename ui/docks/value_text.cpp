#include "docks/value_text.h"

#include "io/json_text.h"

namespace rlx::ui {

Json valueOfText(const QString& text) {
  const QString trimmed = text.trimmed();
  if (trimmed.isEmpty()) return Json();
  ParsedJson parsed = parseJson(trimmed.toStdString(), "value");
  if (parsed.document && parsed.diagnostics.empty()) return *parsed.document;
  return Json(trimmed.toStdString());
}

QString textOfValue(const Json& value) {
  if (value.is_null()) return {};
  if (value.is_string()) return QString::fromStdString(value.get<std::string>());
  return QString::fromStdString(value.dump());
}

}  // namespace rlx::ui
