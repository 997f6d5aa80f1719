#include "solve/equations/user_constraints.h"

#include "solve/equations/measures.h"

#include <cmath>
#include <span>

namespace rlx {
namespace {

// The measures of one equation's variables, by slot (slot 0: time, rate 1). Reused across calls
// so that an evaluation does not allocate once the largest model has been seen.
std::vector<MeasureJet>& jetScratch(const Model& model) {
  thread_local std::vector<MeasureJet> jets;
  if (jets.size() < model.measures.size() + 1) jets.resize(model.measures.size() + 1);
  return jets;
}

// Evaluates the variables of f at the state: their jets and the slot values.
void prepare(const Model& model, const State& state, const Function& f, Workspace& ws,
             std::vector<MeasureJet>& jets) {
  ws.slotValues(0) = state.t;
  for (const int slot : f.variables) {
    if (slot == 0) {
      jets[0] = MeasureJet{};
      jets[0].value = state.t;
      jets[0].rate = 1.0;
      continue;
    }
    jets[static_cast<std::size_t>(slot)] = evaluateMeasure(model, state, slot - 1);
    ws.slotValues(slot) = jets[static_cast<std::size_t>(slot)].value;
  }
}

double value(const expr::Expr& e, const Workspace& ws) {
  return expr::evaluate(e, std::span<const double>(ws.slotValues.data(),
                                                   static_cast<std::size_t>(ws.slotValues.size())));
}

// Phi_q.row(row) += coefficient * g of a measure.
void scatter(const Model& model, const MeasureJet& jet, double coefficient, Eigen::Index row,
             SparseMatrix& Phi_q) {
  const int d = model.bodyDofs();
  for (int i = 0; i < 2; ++i)
    if (jet.body[i] != kGround) {
      const int v = model.bodies[static_cast<std::size_t>(jet.body[i])].v;
      addBlock(Phi_q, row, v, coefficient * jet.gradient[i].head(d).transpose());
    }
}

// Calls visit(equation, row) for every equation of every user constraint.
template <typename Visit>
void forEachEquation(const Model& model, Visit visit) {
  for (const UserConstraint& c : model.constraints)
    for (std::size_t e = 0; e < c.equations.size(); ++e)
      visit(c, c.equations[e], static_cast<Eigen::Index>(c.row) + static_cast<Eigen::Index>(e));
}

}  // namespace

void evaluateUserPhi(const Model& model, const State& state, Workspace& ws) {
  std::vector<MeasureJet>& jets = jetScratch(model);
  forEachEquation(model, [&](const UserConstraint& c, const Function& f, Eigen::Index row) {
    if (c.nonholonomic) return;
    prepare(model, state, f, ws, jets);
    const double phi = value(f.value, ws);
    ws.Phi(row) = c.period > 0 ? std::remainder(phi, c.period) : phi;
  });
}

void evaluateUserConstraintDerivatives(const Model& model, const State& state, Workspace& ws) {
  std::vector<MeasureJet>& jets = jetScratch(model);
  forEachEquation(model, [&](const UserConstraint& c, const Function& f, Eigen::Index row) {
    prepare(model, state, f, ws, jets);
    const std::size_t n = f.variables.size();
    double nu = 0.0, gamma = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
      const MeasureJet& ji = jets[static_cast<std::size_t>(f.variables[i])];
      const double fi = value(f.d[i], ws);
      if (!c.nonholonomic) {
        // Holonomic: Phi_q = sum f_i g_i, nu = -f_t, gamma = -(f_ij mdot_i mdot_j + f_i c_i).
        scatter(model, ji, fi, row, ws.Phi_q);
        if (f.variables[i] == 0) nu = -fi;
        gamma -= fi * ji.convective;
        for (std::size_t j = 0; j < n; ++j)
          gamma -=
              value(f.dd[i][j], ws) * ji.rate * jets[static_cast<std::size_t>(f.variables[j])].rate;
      } else if (ji.velocity) {
        // Nonholonomic, velocity measure: A += f_u G, b += f_u u, gamma -= f_u c.
        scatter(model, ji, fi, row, ws.Phi_q);
        nu += fi * ji.value;
        gamma -= fi * ji.convective;
      } else {
        // Nonholonomic, position measure or time: gamma -= f_i mdot_i.
        gamma -= fi * ji.rate;
      }
    }
    ws.nu(row) = c.nonholonomic ? nu - value(f.value, ws) : nu;
    ws.gamma(row) = gamma;
  });
}

void userConstraintConvective(const Model& model, const State& state, const Eigen::VectorXd& w,
                              Workspace& ws, Eigen::VectorXd& out) {
  std::vector<MeasureJet>& jets = jetScratch(model);
  forEachEquation(model, [&](const UserConstraint& c, const Function& f, Eigen::Index row) {
    prepare(model, state, f, ws, jets);
    const std::size_t n = f.variables.size();
    // Rate along w (time: 1) and B(v, w) of each variable.
    const auto along = [&](std::size_t i) {
      const int slot = f.variables[i];
      return slot == 0 ? 1.0 : measureRateAlong(model, jets[static_cast<std::size_t>(slot)], w);
    };
    const auto curvature = [&](std::size_t i) {
      const int slot = f.variables[i];
      return slot == 0 ? 0.0 : measureCurvature(model, state, slot - 1, w);
    };
    double b = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
      const MeasureJet& ji = jets[static_cast<std::size_t>(f.variables[i])];
      const double fi = value(f.d[i], ws);
      if (!c.nonholonomic) {
        b -= fi * curvature(i);
        for (std::size_t j = 0; j < n; ++j) b -= value(f.dd[i][j], ws) * ji.rate * along(j);
      } else if (ji.velocity) {
        b -= fi * curvature(i);
      } else {
        b -= fi * along(i);
      }
    }
    out(row) = b;
  });
}

std::vector<Reaction> userConstraintReactions(const Model& model, const Workspace& ws,
                                              int constraint) {
  const UserConstraint& c = model.constraints[static_cast<std::size_t>(constraint)];
  const auto rows = static_cast<Eigen::Index>(c.equations.size());
  const int d = model.bodyDofs();
  std::vector<Reaction> out;
  for (const int body : c.bodies) {
    const int v = model.bodies[static_cast<std::size_t>(body)].v;
    // -Phi_q^T lambda on the body's velocities: force, then the moment about the centre of mass.
    const Eigen::VectorXd wrench =
        -denseBlock(ws.Phi_q, c.row, v, rows, d).transpose() * ws.lambda.segment(c.row, rows);
    Reaction r;
    if (model.dimension == 2) {
      r.force.head<2>() = wrench.head<2>();
      r.torque.z() = wrench(2);
    } else {
      r.force = wrench.head<3>();
      r.torque = wrench.tail<3>();
    }
    out.push_back(r);
  }
  return out;
}

}  // namespace rlx
