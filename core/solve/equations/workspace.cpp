#include "solve/equations/workspace.h"

#include <set>

namespace rlx {
namespace {

// A pattern of the given size holding, for each row, every velocity of the listed bodies.
SparseMatrix pattern(const Model& model, const std::vector<std::vector<int>>& bodiesOfRow,
                     Eigen::Index cols) {
  std::vector<Eigen::Triplet<double>> entries;
  const int d = model.bodyDofs();
  for (std::size_t row = 0; row < bodiesOfRow.size(); ++row)
    for (const int body : bodiesOfRow[row])
      for (int k = 0; k < d; ++k)
        entries.emplace_back(static_cast<int>(row), model.bodies[static_cast<std::size_t>(body)].v + k,
                             0.0);
  SparseMatrix A(static_cast<Eigen::Index>(bodiesOfRow.size()), cols);
  A.setFromTriplets(entries.begin(), entries.end());
  A.makeCompressed();
  return A;
}

}  // namespace

std::vector<Eigen::Index> activeRows(const std::vector<bool>& active) {
  std::vector<Eigen::Index> rows;
  for (std::size_t i = 0; i < active.size(); ++i)
    if (active[i]) rows.push_back(static_cast<Eigen::Index>(i));
  return rows;
}

std::vector<Eigen::Index> activeRows(const Workspace& ws) { return activeRows(ws.active); }

std::vector<std::vector<int>> rowBodies(const Model& model) {
  std::vector<std::set<int>> bodies(static_cast<std::size_t>(model.nh + model.nn));
  const auto add = [&](int row, int rows, int body) {
    if (body == kGround) return;
    for (int r = row; r < row + rows; ++r) bodies[static_cast<std::size_t>(r)].insert(body);
  };
  for (const Joint& j : model.joints) {
    add(j.row, j.rows, j.body1);
    add(j.row, j.rows, j.body2);
    if (j.velocityRow >= 0) {
      add(j.velocityRow, 2, j.body1);
      add(j.velocityRow, 2, j.body2);
    }
  }
  for (const Motion& m : model.motions) {
    if (m.joint < 0) {
      add(m.row, 1, m.body);
      continue;
    }
    const Joint& j = model.joints[static_cast<std::size_t>(m.joint)];
    add(m.row, 1, j.body1);
    add(m.row, 1, j.body2);
  }
  for (const UserConstraint& c : model.constraints)
    for (const int body : c.bodies) add(c.row, static_cast<int>(c.equations.size()), body);
  std::vector<std::vector<int>> out;
  for (const std::set<int>& row : bodies) out.emplace_back(row.begin(), row.end());
  return out;
}

std::vector<std::vector<int>> bodyNeighbours(const Model& model) {
  std::vector<std::set<int>> near(model.bodies.size());
  const auto link = [&](const std::set<int>& group) {
    for (const int a : group)
      for (const int b : group) near[static_cast<std::size_t>(a)].insert(b);
  };
  for (std::size_t b = 0; b < model.bodies.size(); ++b) link({static_cast<int>(b)});
  for (const std::vector<int>& row : rowBodies(model)) link({row.begin(), row.end()});
  const auto addJoint = [&](int joint, std::set<int>& group) {
    const Joint& j = model.joints[static_cast<std::size_t>(joint)];
    group.insert({j.body1, j.body2});
  };
  for (const Force& f : model.forces) {
    std::set<int> group{f.body1, f.body2};
    if (f.joint >= 0) addJoint(f.joint, group);
    for (const Function& function : f.functions)
      for (const int slot : function.variables) {
        if (slot == 0) continue;
        const Measure& m = model.measures[static_cast<std::size_t>(slot - 1)];
        group.insert(m.body);
        if (m.joint >= 0) addJoint(m.joint, group);
        if (m.force >= 0) {
          const Force& other = model.forces[static_cast<std::size_t>(m.force)];
          group.insert({other.body1, other.body2});
        }
      }
    group.erase(kGround);
    link(group);
  }
  std::vector<std::vector<int>> out;
  for (const std::set<int>& bodies : near) out.emplace_back(bodies.begin(), bodies.end());
  return out;
}

Workspace::Workspace(const Model& model)
    : slotValues(Eigen::VectorXd::Zero(1 + static_cast<Eigen::Index>(model.measures.size()))),
      Phi(Eigen::VectorXd::Zero(model.nh)),
      Phi_q(pattern(model, rowBodies(model), model.nv)),
      nu(Eigen::VectorXd::Zero(model.nh + model.nn)),
      gamma(Eigen::VectorXd::Zero(model.nh + model.nn)),
      Q(Eigen::VectorXd::Zero(model.nv)),
      Qn(Eigen::VectorXd::Zero(model.nv)),
      vdot(Eigen::VectorXd::Zero(model.nv)),
      lambda(Eigen::VectorXd::Zero(model.nh + model.nn)),
      active(static_cast<std::size_t>(model.nh + model.nn), true) {
  // M: row k of body b holds the velocities of b.
  std::vector<std::vector<int>> bodyOfRow(static_cast<std::size_t>(model.nv));
  for (std::size_t b = 0; b < model.bodies.size(); ++b)
    for (int k = 0; k < model.bodyDofs(); ++k)
      bodyOfRow[static_cast<std::size_t>(model.bodies[b].v + k)] = {static_cast<int>(b)};
  M = pattern(model, bodyOfRow, model.nv);
}

Eigen::MatrixXd denseBlock(const SparseMatrix& A, Eigen::Index row, Eigen::Index col,
                           Eigen::Index rows, Eigen::Index cols) {
  Eigen::MatrixXd out = Eigen::MatrixXd::Zero(rows, cols);
  for (Eigen::Index r = 0; r < rows; ++r)
    for (SparseMatrix::InnerIterator it(A, row + r); it; ++it)
      if (it.col() >= col && it.col() < col + cols) out(r, it.col() - col) = it.value();
  return out;
}

}  // namespace rlx
