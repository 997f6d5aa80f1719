#pragma once
// A locale whose decimal separator is a comma, for the tests that results do not depend on the
// process's locale (the desktop application takes LC_NUMERIC from the environment).

#include <QString>

namespace rlx::test {

// Sets the process's LC_NUMERIC to a locale whose decimal separator is a comma (as a German
// desktop has it): an installed one, else one built with localedef into `dir` (found through
// LOCPATH). False when neither works.
bool useDecimalCommaLocale(const QString& dir);

}  // namespace rlx::test
