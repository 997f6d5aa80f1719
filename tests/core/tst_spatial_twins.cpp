// Planar examples rebuilt as 3-D models (all motion in the x-y plane, tests/data/*_3d.rlx) give
// the planar results with every integrator, in kinematics and in statics: positions, angles,
// velocities and energies within 1e-8, and the spatial bodies stay in the plane.
#include "joints/rotation.h"
#include "solve/assembly/assembly.h"
#include "solve/equations/reactions.h"
#include "solve/integrators/dynamics.h"
#include "solve/kinematics/kinematics.h"
#include "solve/statics/statics.h"
#include "test_support.h"

#include <QtTest>

#include <cmath>
#include <numbers>

using namespace rlx;

namespace {

struct Run {
  Model model;
  Results results;
  Redundancy redundancy;
};

enum class Analysis { Assembly, Kinematics, Statics, Dynamics };

Run run(const std::string& path, Analysis analysis, const std::string& integrator, double endTime,
        double tolerance = 1e-10) {
  Run out{test::compileOrFail(test::loadSpec(path)), {}, {}};
  Workspace ws(out.model);
  State state{0.0, out.model.q0, out.model.v0};
  const AssemblyReport assembly = assemble(out.model, state, ws);
  if (!assembly.ok()) throw std::runtime_error(assembly.message);
  out.redundancy = assembly.redundancy;
  switch (analysis) {
    case Analysis::Assembly:
      return out;
    case Analysis::Kinematics: {
      KinematicsOptions options;
      options.endTime = endTime;
      options.step = out.model.step;
      options.outputStep = out.model.outputStep;
      runKinematics(out.model, state, ws, options, out.results);
      break;
    }
    case Analysis::Statics: {
      StaticsOptions options;
      options.endTime = 0.0;
      runStatics(out.model, state, ws, options, out.results);
      break;
    }
    case Analysis::Dynamics: {
      DynamicsOptions options;
      options.integrator = *integratorFromName(integrator);
      options.endTime = endTime;
      options.step = out.model.step;
      options.outputStep = 0.05;
      options.tolerance = tolerance;
      runDynamics(out.model, state, ws, options, out.results);
      break;
    }
  }
  if (!out.results.report.ok()) throw std::runtime_error(out.results.report.message);
  return out;
}

// Largest difference between the planar run and its 3-D twin over all frames; and the largest
// excursion of the twin out of the plane (z, vz, wx, wy, tilt of the body z axis).
struct Comparison {
  double difference = 0.0, outOfPlane = 0.0;
  int frames = 0;
};

Comparison compare(const Run& planar, const Run& spatial) {
  Comparison c;
  const auto& a = planar.results.frames;
  const auto& b = spatial.results.frames;
  if (a.size() != b.size()) throw std::runtime_error("different frame counts");
  c.frames = static_cast<int>(a.size());
  for (std::size_t k = 0; k < a.size(); ++k) {
    const State& p = a[k].state;
    const State& s = b[k].state;
    c.difference = std::max(c.difference, std::abs(p.t - s.t));
    for (std::size_t i = 0; i < planar.model.bodies.size(); ++i) {
      const Body& bp = planar.model.bodies[i];
      const Body& bs = test::body(spatial.model, bp.name);
      const Eigen::Matrix3d R =
          rotation::fromCoordinates(s.q.segment<4>(bs.q + 3)).toRotationMatrix();
      const double angle = std::atan2(R(1, 0), R(0, 0));
      const double dAngle = std::remainder(p.q(bp.q + 2) - angle, 2 * std::numbers::pi);
      c.difference = std::max(
          {c.difference, (p.q.segment<2>(bp.q) - s.q.segment<2>(bs.q)).cwiseAbs().maxCoeff(),
           std::abs(dAngle), (p.v.segment<2>(bp.v) - s.v.segment<2>(bs.v)).cwiseAbs().maxCoeff(),
           std::abs(p.v(bp.v + 2) - s.v(bs.v + 5))});
      c.outOfPlane =
          std::max({c.outOfPlane, std::abs(s.q(bs.q + 2)), std::abs(s.v(bs.v + 2)),
                    std::abs(s.v(bs.v + 3)), std::abs(s.v(bs.v + 4)), std::abs(R(2, 2) - 1)});
    }
    c.difference = std::max({c.difference, std::abs(a[k].kinetic - b[k].kinetic),
                             std::abs(a[k].potential - b[k].potential)});
  }
  return c;
}

// Largest difference of positions, angles and velocities between two runs of the same planar
// model over all frames.
double planarDifference(const Run& a, const Run& b) {
  double worst = 0.0;
  const auto& fa = a.results.frames;
  const auto& fb = b.results.frames;
  if (fa.size() != fb.size()) throw std::runtime_error("different frame counts");
  for (std::size_t k = 0; k < fa.size(); ++k)
    for (const Body& body : a.model.bodies) {
      const Eigen::Vector3d dq =
          fa[k].state.q.segment<3>(body.q) - fb[k].state.q.segment<3>(body.q);
      const Eigen::Vector3d dv =
          fa[k].state.v.segment<3>(body.v) - fb[k].state.v.segment<3>(body.v);
      worst = std::max({worst, dq.head<2>().cwiseAbs().maxCoeff(),
                        std::abs(std::remainder(dq(2), 2 * std::numbers::pi)),
                        dv.cwiseAbs().maxCoeff()});
    }
  return worst;
}

}  // namespace

class TestSpatialTwins : public QObject {
  Q_OBJECT

 private slots:
  void dynamics_data();
  void dynamics();
  void kinematics();
  void statics();
  void redundancy();
};

void TestSpatialTwins::dynamics_data() {
  QTest::addColumn<QString>("model");
  QTest::addColumn<QString>("integrator");
  QTest::addColumn<double>("endTime");
  for (const char* integrator : {"hht", "corrected-rk", "corrected-rk45", "bdf"}) {
    QTest::newRow(qPrintable(QString("pendulum ") + integrator))
        << "simple_pendulum" << integrator << 2.0;
    QTest::newRow(qPrintable(QString("braun-goldfarb ") + integrator))
        << "braun_goldfarb_slider_crank" << integrator << 2.0;
  }
}

void TestSpatialTwins::dynamics() {
  QFETCH(QString, model);
  QFETCH(QString, integrator);
  QFETCH(double, endTime);
  const std::string name = model.toStdString();
  const Run planar =
      run(test::examplePath(name + ".rlx"), Analysis::Dynamics, integrator.toStdString(), endTime);
  const Run spatial = run(test::testDataPath(name + "_3d.rlx"), Analysis::Dynamics,
                          integrator.toStdString(), endTime);
  const Comparison c = compare(planar, spatial);
  qInfo("%s, %s, %d frames over %.1f s: largest difference %.3g, out of plane %.3g (steps %d / %d)",
        qPrintable(model), qPrintable(integrator), c.frames, endTime, c.difference, c.outOfPlane,
        planar.results.stats.steps, spatial.results.stats.steps);
  QVERIFY(c.frames > 10);
  QVERIFY(c.outOfPlane < 1e-12);
  if (integrator != "bdf") {
    QVERIFY(c.difference < 1e-8);
    return;
  }
  // BDF's steps and orders follow its error estimates, whose rounding differs between the twins
  // (the spatial chart resolves rotations as increments): both runs are checked against a
  // tight-tolerance reference of the planar model (1e-11: below about 5e-12 corrected-rk45 may
  // stall at the slider-crank's singular configuration, docs/integrators-corrected-rk.md).
  const Run reference =
      run(test::examplePath(name + ".rlx"), Analysis::Dynamics, "corrected-rk45", endTime, 1e-11);
  const double planarError = planarDifference(planar, reference);
  const double spatialError = compare(reference, spatial).difference;
  qInfo("against corrected-rk45 at tolerance 1e-11: planar %.3g, spatial %.3g", planarError,
        spatialError);
  QVERIFY(planarError < 1e-7);
  QVERIFY(spatialError < 1e-7);
  QVERIFY(c.difference < 2 * std::max(planarError, spatialError));
}

void TestSpatialTwins::kinematics() {
  const Run planar = run(test::examplePath("slider_crank.rlx"), Analysis::Kinematics, "", 2.0);
  const Run spatial = run(test::testDataPath("slider_crank_3d.rlx"), Analysis::Kinematics, "", 2.0);
  const Comparison c = compare(planar, spatial);
  // The driving torque is the same whatever the redundant reactions are.
  double effort = 0.0;
  for (std::size_t k = 0; k < planar.results.frames.size(); ++k) {
    const Model& pm = planar.model;
    const Model& sm = spatial.model;
    effort = std::max(effort, std::abs(planar.results.frames[k].lambda(pm.motions[0].row) -
                                       spatial.results.frames[k].lambda(sm.motions[0].row)));
  }
  qInfo(
      "slider-crank kinematics, %d frames: largest difference %.3g, out of plane %.3g, effort %.3g "
      "N m",
      c.frames, c.difference, c.outOfPlane, effort);
  QCOMPARE(c.frames, 201);
  QVERIFY(c.difference < 1e-8);
  QVERIFY(c.outOfPlane < 1e-12);
  QVERIFY(effort < 1e-8);
}

void TestSpatialTwins::statics() {
  const Run planar =
      run(test::testDataPath("statics_pendulum_spring.rlx"), Analysis::Statics, "", 0.0);
  const Run spatial =
      run(test::testDataPath("statics_pendulum_spring_3d.rlx"), Analysis::Statics, "", 0.0);
  const Comparison c = compare(planar, spatial);
  const State& s = spatial.results.frames.back().state;
  const Eigen::Matrix3d R = rotation::fromCoordinates(s.q.segment<4>(3)).toRotationMatrix();
  const double theta = std::atan2(R(1, 0), R(0, 0));
  qInfo("pendulum on a torsion spring, statics: largest difference %.3g; sag %.9f rad",
        c.difference, theta);
  QVERIFY(c.difference < 1e-8);
  // m g (l / 2) cos(theta) = -k theta.
  QVERIFY(std::abs(9.81 * 0.5 * std::cos(theta) + 10.0 * theta) < 1e-8);
}

void TestSpatialTwins::redundancy() {
  // The planar loops closed in 3-D: the out-of-plane equations are redundant, found and named.
  const Run crank = run(test::testDataPath("slider_crank_3d.rlx"), Analysis::Assembly, "", 0.0);
  QCOMPARE(crank.redundancy.dof, 0);
  QCOMPARE(crank.redundancy.dofGrubler, -3);
  QCOMPARE(static_cast<int>(crank.redundancy.redundant.size()), 3);
  const Run bg =
      run(test::testDataPath("braun_goldfarb_slider_crank_3d.rlx"), Analysis::Assembly, "", 0.0);
  QCOMPARE(bg.redundancy.dof, 1);
  QCOMPARE(bg.redundancy.dofGrubler, 0);
  QCOMPARE(static_cast<int>(bg.redundancy.redundant.size()), 1);
  qInfo("redundant equations: slider-crank %s, %s, %s; Braun-Goldfarb %s",
        crank.redundancy.redundant[0].equation.c_str(),
        crank.redundancy.redundant[1].equation.c_str(),
        crank.redundancy.redundant[2].equation.c_str(),
        bg.redundancy.redundant[0].equation.c_str());
}

QTEST_GUILESS_MAIN(TestSpatialTwins)
#include "tst_spatial_twins.moc"
