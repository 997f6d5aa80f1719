// loadModelFile: reads a model file of either format, recognised by its content.
#include "io/model_file.h"

#include "io/adams_text.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace rlx {
namespace {

std::optional<std::string> readText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return text.str();
}

LoadResult failure(const std::string& path, const std::string& message) {
  LoadResult result;
  result.diagnostics.push_back({Severity::Error, path, "", message});
  return result;
}

}  // namespace

LoadResult loadModelFile(const std::string& path, const std::string& acfPath, AdamsImport adams) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::exists(path, ec)) return failure(path, "no such file");
  if (fs::is_directory(path, ec)) return failure(path, "is a directory, not a model file");
  const auto text = readText(path);
  if (!text) return failure(path, "cannot be read");

  // Statements after a title line are an Adams dataset; a JSON object with "bodies" and no
  // "reuleaux" key is a simEngine2D model; everything else goes to the .rlx reader, which
  // explains what is wrong with it.
  if (adams::looksLikeDataset(*text)) return readAdams(*text, path, adams);
  const nlohmann::json probe = nlohmann::json::parse(*text, nullptr, false);
  const bool simEngine2D = !probe.is_discarded() && probe.is_object() &&
                           !probe.contains("reuleaux") && probe.contains("bodies");
  if (!simEngine2D) return readRlx(*text, path);

  std::string acf = acfPath;
  if (acf.empty()) {
    fs::path beside = path;
    beside.replace_extension(".acf");
    if (fs::exists(beside, ec)) acf = beside.string();
  }
  if (acf.empty()) return readSimEngine2D(*text, std::nullopt, path);
  const auto acfText = readText(acf);
  if (!acfText) return failure(acf, "cannot be read (the analysis file for " + path + ")");
  return readSimEngine2D(*text, *acfText, path);
}

}  // namespace rlx
