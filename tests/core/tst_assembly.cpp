// Assembly (initial conditions): from perturbed guesses, with held inputs, branch choice,
// redundancy and the failures that must name the joints.
#include "solve/assembly/assembly.h"
#include "solve/equations/constraints.h"
#include "test_support.h"

#include <QtTest>

#include <algorithm>
#include <filesystem>
#include <random>
#include <regex>

using namespace rlx;

namespace {

AssemblyReport assembleFile(const std::string& path, Model* modelOut = nullptr, State* stateOut = nullptr) {
  Model model = test::compileOrFail(test::loadSpec(path));
  Workspace ws(model);
  State state{0.0, model.q0, model.v0};
  AssemblyReport report = assemble(model, state, ws);
  if (modelOut) *modelOut = model;
  if (stateOut) *stateOut = state;
  return report;
}

bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace

class TestAssembly : public QObject {
  Q_OBJECT

 private slots:
  void perturbedExamples_data();
  void perturbedExamples();
  void heldCrankBarelyMoves();
  void heldRockerChoosesNearestBranch();
  void duplicatedRevoluteIsRedundant();
  void conflictingDistancesNameBoth();
  void loopThatCannotCloseNamesItsJoints();
  void velocitiesAreConsistent();
};

void TestAssembly::perturbedExamples_data() {
  QTest::addColumn<QString>("file");
  for (const auto& entry : std::filesystem::directory_iterator(test::examplesDir()))
    if (entry.path().extension() == ".rlx")
      QTest::newRow(entry.path().filename().c_str()) << QString::fromStdString(entry.path().string());
}

void TestAssembly::perturbedExamples() {
  QFETCH(QString, file);
  const Model model = test::compileOrFail(test::loadSpec(file.toStdString()));
  Workspace ws(model);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> unit(-1, 1);
  // Gears: a quarter of the span of the bodies' centres and the ground's origin at most.
  double reach = 0.2;
  if (std::any_of(model.joints.begin(), model.joints.end(), [](const Joint& j) {
        return j.type == JointType::Gear || j.type == JointType::InternalGear;
      })) {
    double span = 0;
    for (const Body& a : model.bodies) {
      span = std::max(span, model.q0.segment<2>(a.q).norm());
      for (const Body& b : model.bodies)
        span = std::max(span, (model.q0.segment<2>(a.q) - model.q0.segment<2>(b.q)).norm());
    }
    reach = std::min(reach, span / 4);
  }
  for (int trial = 0; trial < 10; ++trial) {
    // Up to 0.2 m and 0.3 rad off, held inputs excepted. With gears, less: from a guess the
    // size of a 45 mm planetary set away, the least-change steps can pull the planet's centre
    // onto the sun's, where the line of centres has no direction (docs/joints.md).
    State state{0.0, model.q0, model.v0};
    for (const Body& b : model.bodies)
      for (int k = 0; k < 3; ++k)
        if (!model.holdQ[static_cast<std::size_t>(b.v + k)])
          state.q(b.q + k) += (k < 2 ? reach : 0.3) * unit(rng);
    const AssemblyReport report = assemble(model, state, ws);
    QVERIFY2(report.ok(), report.message.c_str());
    const ConstraintErrors errors = constraintErrors(model, state, ws);
    QVERIFY(errors.position < 1e-10);
    QVERIFY(errors.velocity < 1e-10);
    for (Eigen::Index i = 0; i < model.nv; ++i)
      if (model.holdQ[static_cast<std::size_t>(i)]) QVERIFY(std::abs(state.q(i) - model.q0(i)) < 1e-8);
  }
}

void TestAssembly::heldCrankBarelyMoves() {
  Model model;
  State state;
  const AssemblyReport report = assembleFile(test::examplePath("crank_rocker.rlx"), &model, &state);
  QVERIFY2(report.ok(), report.message.c_str());
  QVERIFY(model.holdQ[2]);
  QVERIFY(std::abs(state.q(2) - model.q0(2)) < 1e-8);
  // The description gives the expected assembly: rocker at 1.795774973 rad.
  QVERIFY(std::abs(state.q(model.bodies[2].q + 2) - 1.795774973) < 1e-8);
}

void TestAssembly::heldRockerChoosesNearestBranch() {
  const std::string path = test::testDataPath("four_bar_held_rocker.rlx");
  const Spec spec = test::loadSpec(path);
  std::smatch match;
  QVERIFY(std::regex_search(spec.description, match, std::regex("expected crank angle: ([-0-9.eE]+) rad")));
  const double expected = std::stod(match[1]);
  Model model;
  State state;
  const AssemblyReport report = assembleFile(path, &model, &state);
  QVERIFY2(report.ok(), report.message.c_str());
  int crank = -1;
  for (std::size_t i = 0; i < model.bodies.size(); ++i)
    if (model.bodies[i].name == "crank") crank = static_cast<int>(i);
  QVERIFY(crank >= 0);
  QVERIFY2(std::abs(state.q(model.bodies[static_cast<std::size_t>(crank)].q + 2) - expected) < 1e-8,
           QByteArray::number(state.q(model.bodies[static_cast<std::size_t>(crank)].q + 2), 'g', 12));
}

void TestAssembly::duplicatedRevoluteIsRedundant() {
  const AssemblyReport report = assembleFile(test::testDataPath("four_bar_duplicate_pin.rlx"));
  QVERIFY2(report.ok(), report.message.c_str());
  QCOMPARE(report.redundancy.redundant.size(), std::size_t(2));
  for (const RedundantEquation& r : report.redundancy.redundant) QCOMPARE(r.element, std::string("rocker_pin_copy"));
  QCOMPARE(report.redundancy.dof, 0);
  QCOMPARE(report.redundancy.dofGrubler, -2);
}

void TestAssembly::conflictingDistancesNameBoth() {
  const AssemblyReport report = assembleFile(test::testDataPath("conflicting_distances.rlx"));
  QCOMPARE(report.status, SolveStatus::Inconsistent);
  QVERIFY(contains(report.elements, "tether_short"));
  QVERIFY(contains(report.elements, "tether_long"));
  QVERIFY(report.message.find("contradict") != std::string::npos);
}

void TestAssembly::loopThatCannotCloseNamesItsJoints() {
  const AssemblyReport report = assembleFile(test::testDataPath("four_bar_cannot_close.rlx"));
  QCOMPARE(report.status, SolveStatus::Inconsistent);
  QVERIFY2(report.message.find("cannot close") != std::string::npos, report.message.c_str());
  for (const char* joint : {"crank_pin", "crank_coupler_pin", "coupler_rocker_pin", "rocker_pin"})
    QVERIFY2(contains(report.elements, joint), report.message.c_str());
}

void TestAssembly::velocitiesAreConsistent() {
  // A guess with wrong velocities: the assembly corrects them with the least change.
  Spec spec = test::loadSpec(test::examplePath("four_bar.rlx"));
  for (BodySpec& b : spec.bodies) b.velocity = {0.3, -0.2};
  Model model = test::compileOrFail(spec);
  Workspace ws(model);
  State state{0.0, model.q0, model.v0};
  QVERIFY(assemble(model, state, ws).ok());
  QVERIFY(constraintErrors(model, state, ws).velocity < 1e-12);
  QVERIFY(std::abs(state.v(2) - 2 * M_PI) < 1e-12);  // the crank's rate is the motion's
}

QTEST_GUILESS_MAIN(TestAssembly)
#include "tst_assembly.moc"
