// The bytecode of a user component's expressions (core/user/expression.h):
// an operand's Load or Const fused with the arithmetic after it computes
// what the two instructions did, also where a branch of if() jumps to or
// past such a pair, and a division by zero still stops the run.
#include "user/expression.h"

#include <QtTest>

#include <stdexcept>

using namespace pm;
using namespace pm::user;

namespace {

// a, b, c, z at slots 0-3 with the values in `v`.
const double v[] = {1.7, -0.3, 2.5, 0.0};

Symbols symbols() {
  Symbols s;
  const char* names[] = {"a", "b", "c", "z"};
  for (int i = 0; i < 4; ++i) s[names[i]] = {i, Dim::number(), false};
  return s;
}

double eval(const std::string& text) {
  Where w;
  w.file = "probe.json", w.line = 3, w.field = "value";
  return compileExpression(text, w, symbols(), nullptr).run(v, 0.25);
}

std::string divisionError(const std::string& text) {
  try {
    eval(text);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

// Bit for bit (QCOMPARE's doubles compare fuzzily).
#define SAME(text, value) QVERIFY2(eval(text) == (value), text)

}  // namespace

class TestUserExpression : public QObject {
  Q_OBJECT

 private slots:
  // Every fused form (+ - * / of a slot and of a number), in the text's
  // order of operations: the same bits as the C++ expression.
  void fusedArithmeticKeepsTheBits() {
    const double a = v[0], b = v[1], c = v[2];
    SAME("a + b - c * a / b", a + b - c * a / b);
    SAME("a + 0.1 - 3 * b / 7 + c", a + 0.1 - 3 * b / 7 + c);
    SAME("(a - 2) * 0.3 / (c + 1)", (a - 2) * 0.3 / (c + 1));
    SAME("2 / a * b", 2 / a * b);
  }

  // The if() branches end where the operation after them starts: that
  // operation reads the branch's value, so its operand pair is not fused
  // there; a jump to a fused pair does both halves.
  void branchesJumpPastAndIntoFusedPairs() {
    const double a = v[0], b = v[1], c = v[2];
    SAME("a - if(c > 0, b, c)", a - b);
    SAME("a - if(b > 0, b, c)", a - c);
    SAME("a * if(c > 0, b, c) / if(b > 0, a, c + 1)", a * b / (c + 1));
    SAME("if(c > 0, b, c) + 2", b + 2);
    SAME("if(b > 0, b, c) * a", c * a);
    SAME("if(c > 0 && b < 0, a - 1, b + 2) - c", a - 1 - c);
    SAME("if(c < 0 || b > 0, a - 1, b + 2) - c", b + 2 - c);
  }

  // A zero divisor, loaded or written, stops the run with the message.
  void divisionByZeroStillStops() {
    const std::string m = divisionError("a / z");
    QVERIFY2(m.find("probe.json: line 3, value: 'a / z': division by zero at t = 0.25 s") != std::string::npos, m.c_str());
    QVERIFY(divisionError("a / 0").find("division by zero") != std::string::npos);
    QVERIFY(divisionError("a / (b - b)").find("division by zero") != std::string::npos);
  }
};

QTEST_APPLESS_MAIN(TestUserExpression)
#include "test_user_expression.moc"
