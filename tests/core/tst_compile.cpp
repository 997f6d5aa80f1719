// compile(): every check of meaning names the element and the field; corrupted models never
// crash the loader or the compiler; a simEngine2D import runs like the native model.
#include "io/model_file.h"
#include "solve/assembly/assembly.h"
#include "solve/equations/constraints.h"
#include "solve/equations/reactions.h"
#include "solve/kinematics/kinematics.h"
#include "test_support.h"

#include <QtTest>

#include <filesystem>
#include <random>

using namespace rlx;

namespace {

Spec fourBar() { return test::loadSpec(test::examplePath("four_bar.rlx")); }

std::string allText(const Diagnostics& diagnostics) {
  std::string out;
  for (const Diagnostic& d : diagnostics) out += d.text() + "\n";
  return out;
}

Results runKinematicsOf(const Spec& spec) {
  const Model model = test::compileOrFail(spec);
  Workspace ws(model);
  State state{0.0, model.q0, model.v0};
  if (!assemble(model, state, ws).ok()) throw std::runtime_error("assembly failed");
  KinematicsOptions options;
  options.endTime = model.endTime;
  options.step = model.step;
  options.outputStep = model.outputStep;
  options.tolerance = 1e-12;
  Results results;
  runKinematics(model, state, ws, options, results);
  return results;
}

}  // namespace

class TestCompile : public QObject {
  Q_OBJECT

 private slots:
  void badInput_data();
  void badInput();
  void examplesCompile();
  void corruptedModelsNeverCrash();
  void simEngine2DImportRunsLikeNative();
};

void TestCompile::badInput_data() {
  QTest::addColumn<int>("mutation");
  QTest::addColumn<QString>("expected");
  QTest::newRow("unknown body") << 0 << R"(joints[1] "crank_coupler_pin": body2 names an unknown body "couplr")";
  QTest::newRow("non-positive mass") << 1 << R"(bodies[0] "crank": mass must be positive)";
  QTest::newRow("duplicate name") << 2 << R"(joints[2] "crank_pin": name "crank_pin" is already used by joints[0] "crank_pin")";
  QTest::newRow("expression syntax") << 3 << R"(motions[0] "crank_drive": function has a syntax error in "2*pi*(t")";
  QTest::newRow("unknown variable") << 4 << R"(motions[0] "crank_drive": function "2*pi*speed": unknown variable 'speed')";
  QTest::newRow("over-driven joint") << 5 << R"(motions[1] "second_drive": over-drives joint "crank_pin", which motions[0] "crank_drive" already drives)";
  QTest::newRow("unknown joint") << 6 << R"(motions[0] "crank_drive": joint names an unknown joint "crank_pn")";
  QTest::newRow("zero-length axis") << 7 << R"(joints[4] "slide": axis1 must not be zero)";
  QTest::newRow("motion on state") << 8 << R"(motions[0] "crank_drive": function "crank.x": may depend only on t and parameters, not on "crank.x")";
  QTest::newRow("3-D joint in 2-D") << 9 << R"(joints[4] "slide": type "spherical" needs a 3-D model)";
  QTest::newRow("NaN parameter") << 10 << R"(parameters[0] "l_crank": value "0/0" is not a finite number)";
  QTest::newRow("zero shape axis") << 11 << R"(bodies[0] "crank": shape.axis must not be zero)";
  QTest::newRow("3-D shape axis in 2-D") << 12 << R"(bodies[0] "crank": shape.axis must have 2 numbers, got 3)";
}

void TestCompile::badInput() {
  QFETCH(int, mutation);
  QFETCH(QString, expected);
  Spec spec = fourBar();
  JointSpec slide;
  slide.name = "slide";
  slide.type = JointType::Translational;
  slide.body2 = "rocker";
  slide.point1 = Vector{0.0, 0.0};
  slide.point2 = Vector{0.0, 0.0};
  switch (mutation) {
    case 0: spec.joints[1].body2 = "couplr"; break;
    case 1: spec.bodies[0].mass = -1.0; break;
    case 2: spec.joints[2].name = "crank_pin"; break;
    case 3: spec.motions[0].function = "2*pi*(t"; break;
    case 4: spec.motions[0].function = "2*pi*speed"; break;
    case 5: {
      MotionSpec second = spec.motions[0];
      second.name = "second_drive";
      spec.motions.push_back(second);
      break;
    }
    case 6: spec.motions[0].joint = "crank_pn"; break;
    case 7: slide.axis1 = Vector{0.0, 0.0}; spec.joints.push_back(slide); break;
    case 8: spec.motions[0].function = "crank.x"; break;
    case 9: slide.type = JointType::Spherical; spec.joints.push_back(slide); break;
    case 10: spec.parameters[0].value = Number::expr("0/0"); break;
    case 11: spec.bodies[0].shape.axis = Vector{0.0, Number::expr("0*l_crank")}; break;
    case 12: spec.bodies[0].shape.axis = Vector{1.0, 0.0, 0.0}; break;
    default: QFAIL("no such mutation");
  }
  const CompileResult result = compile(spec);
  QVERIFY(!result.model);
  const std::string text = allText(result.diagnostics);
  QVERIFY2(text.find(expected.toStdString()) != std::string::npos, text.c_str());
}

void TestCompile::examplesCompile() {
  for (const auto& entry : std::filesystem::directory_iterator(test::examplesDir())) {
    const CompileResult result = compile(test::loadSpec(entry.path().string()));
    QVERIFY2(result.model && result.diagnostics.empty(), allText(result.diagnostics).c_str());
    QVERIFY(!result.model->description.empty());
  }
}

void TestCompile::corruptedModelsNeverCrash() {
  // 1,000 corrupted copies of the examples: load, compile and assemble what compiles.
  std::vector<std::string> texts;
  for (const auto& entry : std::filesystem::directory_iterator(test::examplesDir()))
    texts.push_back(test::readFile(entry.path().string()));
  std::mt19937 rng(2026);
  int compiled = 0;
  for (int i = 0; i < 1000; ++i) {
    std::string text = texts[rng() % texts.size()];
    for (int edits = 1 + static_cast<int>(rng() % 3); edits > 0; --edits) {
      const std::size_t at = rng() % text.size();
      switch (rng() % 4) {
        case 0: text[at] = static_cast<char>(rng() % 128); break;
        case 1: text.erase(at, 1 + rng() % 8); break;
        case 2: text.insert(at, 1, "0123456789-.e\"[]{},:"[rng() % 20]); break;
        case 3: text.resize(at); break;
      }
      if (text.empty()) text = "{";
    }
    const LoadResult loaded = readRlx(text, "corrupt.rlx");
    QVERIFY(loaded.spec || !loaded.diagnostics.empty());
    if (!loaded.spec) continue;
    const CompileResult result = compile(*loaded.spec);
    QVERIFY(result.model || hasErrors(result.diagnostics));
    if (!result.model || result.model->nv > 60) continue;
    ++compiled;
    Workspace ws(*result.model);
    State state{0.0, result.model->q0, result.model->v0};
    assemble(*result.model, state, ws);  // any status, but it returns
  }
  QVERIFY(compiled > 0);
}

void TestCompile::simEngine2DImportRunsLikeNative() {
  // The simEngine2D slider-crank and pendulum give the motion of their native .rlx twins, and
  // the absolute constraints' efforts equal the native pins' reactions and driver efforts.
  for (const char* name : {"slider_crank_kin", "pendulum_kin"}) {
    const Spec imported = test::loadSpec(test::testDataPath(std::string(name) + ".adm"));
    const Spec native = test::loadSpec(test::testDataPath(std::string(name) + ".rlx"));
    const Results a = runKinematicsOf(imported), b = runKinematicsOf(native);
    QVERIFY(a.report.ok() && b.report.ok());
    QCOMPARE(a.frames.size(), b.frames.size());
    const Model modelA = test::compileOrFail(imported), modelB = test::compileOrFail(native);
    Workspace wsA(modelA), wsB(modelB);
    const auto effort = [](const Model& model, const Frame& frame, const std::string& motion) {
      for (const Motion& m : model.motions)
        if (m.name == motion) return -frame.lambda(m.row);
      throw std::runtime_error("no motion " + motion);
    };
    for (std::size_t k = 0; k < a.frames.size(); ++k) {
      const Frame& fa = a.frames[k];
      const Frame& fb = b.frames[k];
      QVERIFY(std::abs(fa.state.t - fb.state.t) < 1e-12);
      QVERIFY(test::relativeError(fa.state.q, fb.state.q) < 1e-9);
      QVERIFY(test::relativeError(fa.state.v, fb.state.v) < 1e-9);
      QVERIFY(test::relativeError(fa.vdot, fb.vdot) < 1e-8);
      QVERIFY(std::abs(effort(modelA, fa, "driver") - effort(modelB, fb, "driver")) < 1e-8);
      // The pivot: AbsoluteX/AbsoluteY efforts are the force of the native pin on the body.
      const std::string suffix = std::string(name) == "pendulum_kin" ? "pivot" : "crank";
      evaluateConstraintDerivatives(modelB, fb.state, wsB);
      wsB.lambda = fb.lambda;
      const Reaction pin = jointReaction(modelB, fb.state, wsB, 0);
      QVERIFY(std::abs(effort(modelA, fa, "absX_" + suffix) - pin.force.x()) < 1e-8);
      QVERIFY(std::abs(effort(modelA, fa, "absY_" + suffix) - pin.force.y()) < 1e-8);
    }
  }
}

QTEST_GUILESS_MAIN(TestCompile)
#include "tst_compile.moc"
