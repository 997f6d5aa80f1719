#include "model/integrator.h"

namespace rlx {

const char* integratorName(Integrator integrator) {
  switch (integrator) {
    case Integrator::HHT:
      return "hht";
    case Integrator::BDF:
      return "bdf";
    case Integrator::CorrectedRK:
      return "corrected-rk";
    case Integrator::CorrectedRK45:
      return "corrected-rk45";
  }
  return "?";
}

std::optional<Integrator> integratorFromName(const std::string& name) {
  for (const Integrator integrator : kIntegrators)
    if (name == integratorName(integrator)) return integrator;
  return std::nullopt;
}

std::string integratorNameList() {
  std::string list;
  for (const Integrator integrator : kIntegrators)
    list += (list.empty() ? "" : ", ") + std::string(integratorName(integrator));
  return list;
}

}  // namespace rlx
