// The linear solver IDA factorises with is chosen through the element
// contract (IntegrationNeeds::linearSolver), not by the solver knowing what
// an element is: an element may ask for a sparse or a dense Jacobian, the
// system's size decides otherwise (solver/matched_klu.h's kSparseFrom), and
// Sparse wins over Dense. Each choice must also give the same answer: a
// test element integrates dx/dt = -x/tau, whose closed form is exp(-t/tau).
#include "element/element.h"
#include "element/system_builder.h"
#include "model/component_type.h"
#include "solver/matched_klu.h"
#include "support/test_project.h"

#include <QtTest/QtTest>

#include <cmath>
#include <string>

using namespace pm;
using namespace pm::test;

namespace {

// dx/dt = -x/tau, x(0) = 1, asking for the linear solver its `choice`
// parameter names (0 Auto, 1 Dense, 2 Sparse).
class Decay : public Element {
 public:
  explicit Decay(const Component& c) : Element(c.id) {
    Params P(c);
    tau_ = P("tau");
    choice_ = static_cast<int>(P("choice"));
  }
  static ComponentType declare() {
    ComponentType t;
    t.name = "test_decay";
    t.category = "Test";
    t.params = {{"tau", "s", 0.25, 1e-6, 1e6, false, false, "time constant"},
                {"choice", "1", 0.0, 0.0, 2.0, false, false, "0 Auto, 1 Dense, 2 Sparse"}};
    t.channels = {{"x", "1", "decaying state"}};
    t.create = [](const Component& c) { return std::make_unique<Decay>(c); };
    return t;
  }
  void setup(SystemBuilder& b) override {
    slot_ = b.state("x", "1", StateKind::Differential, 1.0, 1e-10, "dx/dt + x/tau");
    b.channel("x", "1");
  }
  void evaluate(Eval& e) override { e.res[slot_] = e.yp[slot_] + e.y[slot_] / tau_; }
  void output(const Eval& e, double* ch) override { ch[0] = e.y[slot_]; }
  IntegrationNeeds integrationNeeds() const override {
    IntegrationNeeds n;
    n.linearSolver = static_cast<IntegrationNeeds::LinearSolver>(choice_);
    return n;
  }

 private:
  double tau_ = 0.25;
  int choice_ = 0;
  int slot_ = -1;
};

// `count` decays, the first asking for `first`, the others for `others`.
Project decays(int count, int first, int others) {
  Project p;
  p.simulation.t_end = 1.0;
  p.simulation.rel_tol = 1e-8;
  for (int i = 0; i < count; ++i)
    p.components.push_back(comp("d" + std::to_string(i), "test_decay",
                                {{"tau", 0.25 * (1 + i % 3)}, {"choice", double(i == 0 ? first : others)}}));
  return p;
}

}  // namespace

class TestLinearSolverChoice : public QObject {
  Q_OBJECT

  // Runs the project; checks every decay against exp(-t/tau) at t_end
  // (tolerance 2e-6 relative: IDA at rel_tol 1e-8 over 4 time constants)
  // and returns whether the Jacobian was sparse.
  static bool runSparse(const Project& p, const char* what) {
    const auto r = runProject(p, what, OutputRows::Solver);
    if (!r->ok()) qFatal("%s: %s", what, r->message().c_str());
    for (const Component& c : p.components) {
      const double tau = c.params.at("tau");
      const double x = r->col(c.id + ".x").back();
      const double exact = std::exp(-1.0 / tau);
      if (std::abs(x - exact) > 2e-6 * exact)
        qFatal("%s: %s.x(1) = %.12g, exp(-1/tau) = %.12g", what, c.id.c_str(), x, exact);
    }
    return r->result.stats.sparseJacobian;
  }

 private slots:
  void initTestCase() { Registry::instance().add(Decay::declare()); }

  void sizeDecidesWhenNobodyAsks() {
    QVERIFY(!runSparse(decays(3, 0, 0), "3 states, auto"));
    QVERIFY(runSparse(decays(kSparseFrom, 0, 0), "kSparseFrom states, auto"));
    QVERIFY(!runSparse(decays(kSparseFrom - 1, 0, 0), "kSparseFrom - 1 states, auto"));
  }

  void anElementAsksForSparse() { QVERIFY(runSparse(decays(3, 2, 0), "3 states, one asks sparse")); }

  void anElementAsksForDense() {
    QVERIFY(!runSparse(decays(kSparseFrom + 20, 1, 0), "kSparseFrom + 20 states, one asks dense"));
  }

  void sparseWinsOverDense() {
    QVERIFY(runSparse(decays(4, 2, 1), "one asks sparse, the others dense"));
    QVERIFY(runSparse(decays(4, 1, 2), "one asks dense, the others sparse"));
  }
};

QTEST_GUILESS_MAIN(TestLinearSolverChoice)
#include "test_linear_solver_choice.moc"
