#pragma once
// The text of an Adams/Solver dataset (.adm) as statements (shared/docs/adams-datasets.md,
// "Grammar"): the first line is the title; `NAME/id, ARG, ...` statements, continued on lines
// whose first non-blank character is a comma; `!` comments, whose `adams_view_name='...'` names
// the statement after it; `END` ends the dataset. This layer knows no statement's meaning, only
// the shapes of arguments: a keyword (`GROUND`), an assignment (`QP = 0, -0.4, 0`, `IP=1:2:3`), an
// expression (`FUNCTION = ...`, running to a backslash, to the end of the statement or to a comma
// that starts another assignment), or a comment's text (`COMMENT = ...` to the end of its line).

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rlx::adams {

struct Argument {
  std::string key;                  // upper case: the keyword, or the assignment's key
  std::vector<std::string> values;  // as written, trimmed; empty for a keyword
  bool assignment = false;          // KEY=...
  bool expression = false;          // values holds one expression's text
  int line = 0;                     // where the argument starts (1-based)
};

struct Statement {
  std::string name;             // upper case, as written (abbreviations resolved later)
  std::optional<long long> id;  // PART/02 -> 2; none for UNITS/, ACCGRAV/, END ...
  std::vector<Argument> arguments;
  std::string viewName;  // from the adams_view_name comment above it, or empty
  int line = 0;
};

struct Text {
  std::string title;
  std::vector<Statement> statements;  // up to END (not included)
  bool ended = false;                 // END was found
};

// Thrown for a dataset that cannot be read: the line and why.
struct DatasetError {
  int line = 0;
  std::string message;
};

// Thrown for what the importer does not import (a statement or argument not read yet, a user
// subroutine): refused, or skipped with a warning when the user asks (--ignore-unsupported).
struct Unsupported : DatasetError {};

// Splits a dataset's text into statements. Throws DatasetError.
Text readText(std::string_view text);

// True when the text reads as a dataset: after the title line, the first statement line (not
// blank, not a comment) starts with a statement name and a slash. JSON never does.
bool looksLikeDataset(std::string_view text);

// A Fortran number as Adams writes it (`1.5E-3`, `1D0`, `-8.3E-03`, `.5`); a trailing D or d
// means degrees, returned in radians (`90D`, `30.0d`). Empty when `text` is not one.
std::optional<double> number(std::string_view text);

// A statement's or marker's id: digits, leading zeros allowed (`0102` is 102).
std::optional<long long> identifier(std::string_view text);

}  // namespace rlx::adams
