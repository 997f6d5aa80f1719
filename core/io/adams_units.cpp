// The units Adams/Solver (C++) names in its UNITS statement, each as its size in SI. The US
// customary units from the international yard and pound (1959): 1 in = 0.0254 m, 1 lb =
// 0.45359237 kg, 1 lbf = 1 lb x 9.80665 m/s^2.
#include "io/adams_units.h"

#include "expr/node.h"

#include <array>
#include <cctype>
#include <optional>

namespace rlx::adams {
namespace {

constexpr double kInch = 0.0254, kFoot = 0.3048, kPound = 0.45359237, kStandardGravity = 9.80665;
constexpr double kPoundForce = kPound * kStandardGravity;

struct Unit {
  const char* name;
  double size;  // in SI
};

constexpr std::array kLengths{
    Unit{"ANGSTROM", 1e-10},         Unit{"CENTIMETER", 0.01},   Unit{"FOOT", kFoot},
    Unit{"KILOMETER", 1000.0},       Unit{"INCH", kInch},        Unit{"METER", 1.0},
    Unit{"MICROINCH", kInch * 1e-6}, Unit{"MICROMETER", 1e-6},   Unit{"MILE", 5280 * kFoot},
    Unit{"MILLIMETER", 1e-3},        Unit{"MILS", kInch * 1e-3}, Unit{"NANOMETER", 1e-9},
    Unit{"YARD", 3 * kFoot}};
constexpr std::array kMasses{
    Unit{"GRAM", 1e-3},
    Unit{"KILOGRAM", 1.0},
    Unit{"KPOUND_MASS", 1000 * kPound},
    Unit{"MILLIGRAM", 1e-6},
    Unit{"MICROGRAM", 1e-9},
    Unit{"NANOGRAM", 1e-12},
    Unit{"OUNCE_MASS", kPound / 16},
    Unit{"POUND_MASS", kPound},
    Unit{"SLINCH", kPoundForce / kInch},  // the mass 1 lbf accelerates at 1 in/s^2
    Unit{"SLUG", kPoundForce / kFoot},    // ... at 1 ft/s^2
    Unit{"TONNE", 1000.0},
    Unit{"US_TON", 2000 * kPound}};
constexpr std::array kForces{
    Unit{"CENTINEWTON", 0.01},
    Unit{"DYNE", 1e-5},
    Unit{"KILOGRAM_FORCE", kStandardGravity},
    Unit{"KNEWTON", 1000.0},
    Unit{"KPOUND_FORCE", 1000 * kPoundForce},
    Unit{"MEGANEWTON", 1e6},
    Unit{"MICRONEWTON", 1e-6},
    Unit{"MILLINEWTON", 1e-3},
    Unit{"NANONEWTON", 1e-9},
    Unit{"NEWTON", 1.0},
    Unit{"OUNCE_FORCE", kPoundForce / 16},
    Unit{"POUND_FORCE", kPoundForce},
    Unit{"POUNDAL", kPound* kFoot}};  // the force that accelerates 1 lb at 1 ft/s^2
constexpr std::array kTimes{Unit{"DAY", 86400.0},      Unit{"HOUR", 3600.0},
                            Unit{"MICROSECOND", 1e-6}, Unit{"MILLISECONDS", 1e-3},
                            Unit{"MINUTE", 60.0},      Unit{"NANOSECOND", 1e-9},
                            Unit{"SECOND", 1.0}};

// The SYSTEM choices: length, mass, time, force.
struct System {
  const char* name;
  const char *length, *mass, *time, *force;
};
constexpr std::array kSystems{System{"CGS", "CENTIMETER", "GRAM", "SECOND", "DYNE"},
                              System{"FPS", "FOOT", "POUND_MASS", "SECOND", "POUND_FORCE"},
                              System{"IPS", "INCH", "POUND_MASS", "SECOND", "POUND_FORCE"},
                              System{"MKS", "METER", "KILOGRAM", "SECOND", "NEWTON"},
                              System{"NONE", "", "", "", ""}};

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

template <std::size_t N>
std::vector<const char*> names(const std::array<Unit, N>& units) {
  std::vector<const char*> out;
  for (const Unit& u : units) out.push_back(u.name);
  return out;
}

template <std::size_t N>
const Unit& unitNamed(const std::array<Unit, N>& units, const std::string& name) {
  for (const Unit& u : units)
    if (name == u.name) return u;
  return units.front();  // not reached: names come from matchKeyword over these units
}

std::string joined(const std::vector<const char*>& words) {
  std::string out;
  for (const char* w : words) out += (out.empty() ? "" : ", ") + std::string(w);
  return out;
}

}  // namespace

std::string matchKeyword(const std::string& word, std::span<const char* const> keywords) {
  for (const char* k : keywords)
    if (word == k) return word;
  std::string found;
  for (const char* k : keywords) {
    if (word.empty() || !std::string_view(k).starts_with(word)) continue;
    if (!found.empty()) return {};
    found = k;
  }
  return found;
}

Units readUnits(const Statement& statement) {
  static constexpr const char* kKeys[] = {"FORCE", "LENGTH", "MASS", "SYSTEM", "TIME", "UCF"};
  std::vector<const char*> systems;
  for (const System& s : kSystems) systems.push_back(s.name);
  std::optional<std::string> chosen[4];  // length, mass, time, force
  std::optional<double> ucf;
  int ucfLine = statement.line;
  for (const Argument& a : statement.arguments) {
    const auto fail = [&a](const std::string& message) {
      return DatasetError{a.line, "UNITS: " + message};
    };
    const std::string key = matchKeyword(a.key, kKeys);
    if (key.empty())
      throw fail("unknown argument " + a.key +
                 " (expected FORCE, LENGTH, MASS, TIME, SYSTEM or UCF)");
    if (!a.assignment || a.values.size() != 1) throw fail(key + " takes one value");
    const std::string& value = a.values.front();
    if (key == "UCF") {
      ucf = number(value);
      ucfLine = a.line;
      if (!ucf || !(*ucf > 0)) throw fail("UCF must be a positive number, got " + value);
      continue;
    }
    const std::vector<const char*> options = key == "LENGTH"  ? names(kLengths)
                                             : key == "MASS"  ? names(kMasses)
                                             : key == "TIME"  ? names(kTimes)
                                             : key == "FORCE" ? names(kForces)
                                                              : systems;
    const std::string name = matchKeyword(upper(value), options);
    if (name.empty())
      throw fail("unknown " + lower(key) + " " + value + " (expected one of " + joined(options) +
                 ")");
    const int slot = key == "LENGTH" ? 0 : key == "MASS" ? 1 : key == "TIME" ? 2 : 3;
    if (key != "SYSTEM") chosen[slot] = name;
    for (const System& s : kSystems)
      if (key == "SYSTEM" && name == s.name) {
        if (name == "NONE")
          ucf = 1.0;
        else
          chosen[0] = s.length, chosen[1] = s.mass, chosen[2] = s.time, chosen[3] = s.force;
      }
  }

  Units units;
  if (!chosen[0] && !chosen[1] && !chosen[2] && !chosen[3]) {
    if (ucf) units.force = *ucf;
    units.description = ucf ? "SI, with forces times UCF = " + expr::numberText(*ucf) : "SI";
    return units;
  }
  if (ucf) throw DatasetError{ucfLine, "UNITS: UCF cannot be given beside named units"};
  static constexpr const char* kSlots[] = {"LENGTH", "MASS", "TIME", "FORCE"};
  for (int k = 0; k < 4; ++k)
    if (!chosen[k])
      throw DatasetError{statement.line,
                         std::string("UNITS: ") + kSlots[k] +
                             " is missing (FORCE, LENGTH, MASS and TIME go together)"};
  units.length = unitNamed(kLengths, *chosen[0]).size;
  units.mass = unitNamed(kMasses, *chosen[1]).size;
  units.time = unitNamed(kTimes, *chosen[2]).size;
  units.force = unitNamed(kForces, *chosen[3]).size;
  units.description = lower(*chosen[0] + ", " + *chosen[1] + ", " + *chosen[2] + ", " + *chosen[3]);
  return units;
}

}  // namespace rlx::adams
