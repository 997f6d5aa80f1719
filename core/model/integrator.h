#pragma once
// The time integrators of a dynamic analysis (solve/integrators/dynamics.h) and their names in
// files, on the command line and in the GUI: the one place that converts between the two.

#include <array>
#include <optional>
#include <string>

namespace rlx {

enum class Integrator { HHT, BDF, CorrectedRK, CorrectedRK45 };

// Every integrator, in the order messages and the GUI list them.
inline constexpr std::array<Integrator, 4> kIntegrators{
    Integrator::HHT, Integrator::BDF, Integrator::CorrectedRK, Integrator::CorrectedRK45};

// "hht", "bdf", "corrected-rk", "corrected-rk45".
const char* integratorName(Integrator integrator);
std::optional<Integrator> integratorFromName(const std::string& name);

// The names joined for a message: "hht, bdf, corrected-rk, corrected-rk45".
std::string integratorNameList();

}  // namespace rlx
