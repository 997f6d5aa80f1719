#include "io/identifiers.h"

namespace rlx {
namespace {

bool isIdentifierChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

}  // namespace

std::string toIdentifier(const std::string& text) {
  std::string result;
  bool replaced = false;
  for (const char c : text) {
    if (isIdentifierChar(c)) {
      result += c;
      replaced = false;
    } else if (!replaced) {
      result += '_';
      replaced = true;
    }
  }
  if (!result.empty() && result.front() >= '0' && result.front() <= '9') result.insert(0, "_");
  return result;
}

std::string UniqueNames::claim(const std::string& wanted) {
  std::string name = wanted;
  for (int n = 2; used_.count(name); ++n) name = wanted + "_" + std::to_string(n);
  used_.insert(name);
  return name;
}

}  // namespace rlx
