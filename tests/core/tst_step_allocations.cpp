// No allocation inside a time step: malloc, calloc and realloc of this program count their calls
// (operator new and Eigen allocate through them), and a window of hht steps after the first ones
// must make none, on the slider-crank (dense path) and on a chain of 60 links (sparse path); bdf
// steps on that chain (its sparse path); corrected-rk steps, dense (slider-crank) and through the
// normal equations (a chain of four-bar loops, a spatial chain).
#include "bench_common.h"
#include "model/compile.h"
#include "solve/assembly/assembly.h"
#include "solve/integrators/bdf_step.h"
#include "solve/integrators/braun_goldfarb.h"
#include "solve/integrators/hht_step.h"
#include "test_support.h"

#include <QtTest>

#include <atomic>
#include <cstddef>

namespace {

std::atomic<bool> counting{false};
std::atomic<long> allocations{0};

void count() {
  if (counting.load(std::memory_order_relaxed)) allocations.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace

#ifdef __SANITIZE_ADDRESS__
// AddressSanitizer owns malloc (replacing it would free its memory with the C library's): its
// allocation hook counts instead, called for every malloc, calloc, realloc and operator new.
// (declared here: gcc installs no sanitizer/allocator_interface.h)
extern "C" int __sanitizer_install_malloc_and_free_hooks(
    void (*allocated)(const volatile void*, std::size_t), void (*freed)(const volatile void*));
namespace {
void countAllocation(const volatile void*, std::size_t) { count(); }
void ignoreFree(const volatile void*) {}
[[maybe_unused]] const int hooksInstalled =
    __sanitizer_install_malloc_and_free_hooks(countAllocation, ignoreFree);
}  // namespace
#else
extern "C" {
void* __libc_malloc(std::size_t size);
void* __libc_calloc(std::size_t count, std::size_t size);
void* __libc_realloc(void* pointer, std::size_t size);

void* malloc(std::size_t size) {
  count();
  return __libc_malloc(size);
}
void* calloc(std::size_t count_, std::size_t size) {
  count();
  return __libc_calloc(count_, size);
}
void* realloc(void* pointer, std::size_t size) {
  count();
  return __libc_realloc(pointer, size);
}
}
#endif

using namespace rlx;

namespace {

// The allocations made by `steps` accepted hht steps of h = 1e-3 after `warmup` others.
long allocationsInSteps(const Model& model, bool sparse, int warmup, int steps, int& formed) {
  Workspace ws(model);
  State state{0.0, model.q0, model.v0};
  if (const AssemblyReport a = assemble(model, state, ws); !a.ok()) throw std::runtime_error(a.message);
  solveAccelerations(model, state, ws);
  HHTStep step(model, ws, -0.1, 1e-6, sparse);
  step.start();
  RunStats stats;
  const auto advance = [&]() {
    if (step.solve(state, 1e-3, state.t + 1e-3, stats) != StepOutcome::Converged)
      throw std::runtime_error("hht step failed");
    step.accept(state);
  };
  for (int k = 0; k < warmup; ++k) advance();
  const int formedBefore = stats.iterationMatrices;
  allocations = 0;
  counting = true;
  for (int k = 0; k < steps; ++k) advance();
  counting = false;
  formed = stats.iterationMatrices - formedBefore;
  return allocations;
}

// The allocations made by `steps` bdf steps of order 2 and h = 1e-4 with their error estimates,
// after `warmup` others; `evaluations`: the right-hand sides they took.
long allocationsInBdfSteps(const Model& model, int warmup, int steps, int& evaluations) {
  Workspace ws(model);
  State state{0.0, model.q0, model.v0};
  if (const AssemblyReport a = assemble(model, state, ws); !a.ok())
    throw std::runtime_error(a.message);
  RunStats stats;
  BdfStep step(model, ws, 1e-6, stats, true);
  step.start(state);
  const auto advance = [&](int k) {
    const double tNew = state.t + 1e-4;
    if (step.solve(k, tNew) != BdfStep::Outcome::Converged)
      throw std::runtime_error("bdf step failed at t = " + std::to_string(tNew));
    step.error(k, tNew);
    if (k > 1) step.errorBelow(k, tNew);
    step.accept(state, true);
  };
  advance(1);
  advance(1);  // order 2 needs three points
  for (int k = 0; k < warmup; ++k) advance(2);
  const int before = stats.rhsEvaluations;
  allocations = 0;
  counting = true;
  for (int k = 0; k < steps; ++k) advance(2);
  counting = false;
  evaluations = stats.rhsEvaluations - before;
  return allocations;
}

// The allocations made by `steps` corrected-rk (RK4) steps of h = 1e-3 after `warmup` others.
long allocationsInCorrectedSteps(const Model& model, bool sparse, int warmup, int steps) {
  Workspace ws(model);
  State state{0.0, model.q0, model.v0};
  if (const AssemblyReport a = assemble(model, state, ws); !a.ok())
    throw std::runtime_error(a.message);
  CorrectedEquation equation(model, sparse);
  std::string body;
  if (!equation.factorMassMatrix(body)) throw std::runtime_error("singular mass of " + body);
  equation.setStart(state, true);
  equation.setActiveRows(ws.active);
  ExplicitRungeKutta rk(model, classicalRK4());
  const RkFunction f = [&](const RkPoint& y, RkRate& k) { equation.evaluate(y, k); };
  RkPoint y{state.t, state.q, state.v, 0.0}, yNew = y;
  RkRate k, kNew;
  f(y, k);
  const auto advance = [&]() {
    rk.step(f, y, k, 1e-3, yNew, kNew);
    std::swap(y, yNew);
    std::swap(k, kNew);
  };
  for (int s = 0; s < warmup; ++s) advance();
  allocations = 0;
  counting = true;
  for (int s = 0; s < steps; ++s) advance();
  counting = false;
  if (!y.q.allFinite() || equation.rankRevealingEvaluations() > 0)
    throw std::runtime_error("not the path under test");
  return allocations;
}

}  // namespace

class TestStepAllocations : public QObject {
  Q_OBJECT

 private slots:
  void counterSeesAllocations() {
    counting = true;
    allocations = 0;
    const Eigen::VectorXd x = Eigen::VectorXd::Ones(64);
    const std::vector<int> y(10, 1);
    counting = false;
    QCOMPARE(allocations.load(), 2L);
    QCOMPARE(x.sum() + y.size(), 74.0);
  }

  void denseStepDoesNotAllocate() {
    const Model model =
        test::compileOrFail(test::loadSpec(test::examplePath("braun_goldfarb_slider_crank.rlx")));
    int formed = 0;
    const long count = allocationsInSteps(model, false, 20, 500, formed);
    qInfo("slider-crank, 500 steps: %ld allocations, J formed %d times", count, formed);
    QCOMPARE(count, 0L);
  }

  void sparseStepDoesNotAllocate() {
    // J in closed form (a plain chain) and by differences (a spring law at the tip).
    Spec withLaw = bench::pendulumChain(60);
    ForceSpec tip;
    tip.name = "tip";
    tip.type = ForceType::SpringDamper;
    tip.body1 = "ground";
    tip.body2 = "link59";
    tip.at1 = Vector{1.0, -0.5};
    tip.point2 = Vector{1.0 / 120, 0.0};
    tip.function = "-0.2*(length - 1) - 0.01*rate";
    withLaw.forces.push_back(tip);
    for (const Spec& spec : {bench::pendulumChain(60), withLaw}) {
      const Model model = test::compileOrFail(spec);
      int formed = 0;
      const long count = allocationsInSteps(model, true, 20, 100, formed);
      qInfo("chain of 60 links%s, 100 steps: %ld allocations, J formed %d times",
            model.forces.empty() ? "" : " with a spring law", count, formed);
      QVERIFY(formed > 0);  // J was formed again inside the window
      QCOMPARE(count, 0L);
    }
  }

  void sparseBdfStepDoesNotAllocate() {
    const Model model = test::compileOrFail(bench::pendulumChain(60));
    int evaluations = 0;
    long count = 0;
    try {
      count = allocationsInBdfSteps(model, 20, 100, evaluations);
    } catch (const std::exception& e) {
      QFAIL(e.what());
    }
    // bdf forms J at the first iteration of every step (here in closed form).
    qInfo("chain of 60 links, 100 bdf steps: %ld allocations, %d evaluations", count, evaluations);
    QVERIFY(evaluations >= 100);
    QCOMPARE(count, 0L);
  }

  void correctedStepDoesNotAllocate_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<bool>("sparse");
    QTest::newRow("slider-crank, dense") << "slider-crank" << false;
    QTest::newRow("15 four-bar loops, normal equations") << "loops" << true;
    QTest::newRow("spatial chain, normal equations") << "spatial" << true;
  }

  void correctedStepDoesNotAllocate() {
    QFETCH(QString, model);
    QFETCH(bool, sparse);
    const Spec spec =
        model == "loops" ? bench::fourBarChain(15)
        : model == "spatial"
            ? test::loadSpec(test::testDataPath("spatial_chain.rlx"))
            : test::loadSpec(test::examplePath("braun_goldfarb_slider_crank.rlx"));
    long count = 0;
    try {
      count = allocationsInCorrectedSteps(test::compileOrFail(spec), sparse, 5, 50);
    } catch (const std::exception& e) {
      QFAIL(e.what());
    }
    qInfo("%s, 50 corrected-rk steps: %ld allocations", model.toUtf8().constData(), count);
    QCOMPARE(count, 0L);
  }
};

QTEST_GUILESS_MAIN(TestStepAllocations)
#include "tst_step_allocations.moc"
