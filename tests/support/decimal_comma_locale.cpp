#include "decimal_comma_locale.h"

#include <QProcess>

#include <clocale>

namespace rlx::test {

bool useDecimalCommaLocale(const QString& dir) {
  for (const char* name : {"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "fr_FR.utf8"})
    if (std::setlocale(LC_NUMERIC, name)) return true;
  const QString built = dir + "/de_DE.UTF-8";
  if (QProcess::execute("localedef", {"-i", "de_DE", "-f", "UTF-8", built}) != 0) return false;
  qputenv("LOCPATH", dir.toLocal8Bit());
  return std::setlocale(LC_NUMERIC, "de_DE.UTF-8") != nullptr;
}

}  // namespace rlx::test
