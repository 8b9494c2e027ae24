// A user component's event condition (issue 24, docs/user-components.md):
// comparisons joined by and / or and grouped by parentheses, each
// comparison's root located by the solver, so a compound condition fires
// exactly when it turns true; bad syntax is refused naming the file, the
// type, the field, the line and what is wrong where.
#include "support/test_project.h"
#include "support/user_library.h"

#include <QtTest>

using namespace pm;
using namespace pm::test;

namespace {

// A latch and a counter of type `name`, the input `s` a time switch: the
// latch is set when "time > 0.2 and s > 0.5" turns true and reset by
// `reset`; `count` counts "time > 0.3 and time < 0.6" turning true. y and
// z integrate the latch and the count. Line 9 holds the first condition.
std::string definition(const std::string& name, const std::string& set, const std::string& reset) {
  return "{\n"                                                                                         // 1
         "  \"name\": \"" + name + "\",\n"                                                              // 2
         "  \"ports\": [{\"name\": \"s\", \"domain\": \"signal\"}],\n"                                   // 3
         "  \"parameters\": [{\"name\": \"x_m\", \"unit\": \"m\", \"default\": 0.1}],\n"                 // 4
         "  \"discrete\": [{\"name\": \"latched\"}, {\"name\": \"count\"}],\n"                           // 5
         "  \"states\": [{\"name\": \"y\", \"unit\": \"s\", \"abs_tol\": 1e-10}, {\"name\": \"z\", \"unit\": \"s\", \"abs_tol\": 1e-10}],\n"
         "  \"equations\": [\"der(y) = latched\", \"der(z) = count\"],\n"                                // 7
         "  \"events\": [\n"                                                                            // 8
         "    {\"when\": \"" + set + "\", \"set\": {\"latched\": 1}},\n"                                 // 9
         "    {\"when\": \"" + reset + "\", \"set\": {\"latched\": 0}},\n"                               // 10
         "    {\"when\": \"time > 0.3 and time < 0.6\", \"set\": {\"count\": \"count + 1\"}}\n"          // 11
         "  ],\n"
         "  \"outputs\": [{\"name\": \"latched\", \"unit\": \"1\", \"value\": \"latched\"},\n"
         "              {\"name\": \"count\", \"unit\": \"1\", \"value\": \"count\"},\n"
         "              {\"name\": \"y\", \"unit\": \"s\", \"value\": \"y\"}, {\"name\": \"z\", \"unit\": \"s\", \"value\": \"z\"}]\n"
         "}\n";
}

// The message for a first condition `when` (a fresh type name each time).
std::string whenError(const std::string& when, std::string* file = nullptr) {
  static int n = 0;
  return libraryError(definition("probe_bad_when" + std::to_string(n++), when, "s < 0.5"), file, "conditions.json");
}

}  // namespace

class TestUserConditions : public QObject {
  Q_OBJECT
 private slots:
  // s is on from 0.4 s to 0.7 s. "time > 0.2 and s > 0.5" turns true at
  // 0.4 s; "(s < 0.5 and time > 0.5) or time > 0.95" at 0.7 s (at 0.5 s s
  // is on; before 0.4 s time is short of 0.5), so y(1) = 0.7 - 0.4 = 0.3.
  // "time > 0.3 and time < 0.6" turns true once, at 0.3 s, so count = 1
  // from 0.3 s and z(1) = 1 - 0.3 = 0.7. The times come from located
  // roots: y and z are exact to the integration tolerance.
  void compoundConditionsFireWhenTheyTurnTrue() {
    QCOMPARE(libraryError(definition("probe_cond", "time > 0.2 and s > 0.5", "(s < 0.5 && time > 0.5) || time > 0.95"),
                          nullptr, "conditions.json"),
             std::string());
    Project p;
    p.components.push_back(comp("sw", "time_switch", {{"t_on", 0.4}, {"t_off", 0.7}}));
    p.components.push_back(comp("u", "probe_cond", {}, {{"s", "sw.out"}}));
    settings(p, 1.0, 0.01, Tolerances{1e-9});
    auto r = simulate(p, "conditions");
    REQUIRE_OK(r);
    QCOMPARE(r->at("u.latched", 0.39), 0.0);
    QCOMPARE(r->at("u.latched", 0.41), 1.0);
    QCOMPARE(r->at("u.latched", 0.69), 1.0);
    QCOMPARE(r->at("u.latched", 0.71), 0.0);
    QCOMPARE(r->at("u.count", 0.29), 0.0);
    QCOMPARE(r->at("u.count", 0.31), 1.0);
    QCOMPARE(r->col("u.count").back(), 1.0);  // not again when time < 0.6 turns false
    CHECK_ABS(r->at("u.y", 1.0), 0.3, 1e-8);
    CHECK_ABS(r->at("u.z", 1.0), 0.7, 1e-8);
    // `and` binds tighter than `or`: "time > 0.1 or s > 0.5 and time > 0.45"
    // is time > 0.1 or (s on and time > 0.45), true from 0.1 s (grouped the
    // other way, from 0.45 s); reset at 0.8 s: y(1) = 0.8 - 0.1 = 0.7.
    QCOMPARE(libraryError(definition("probe_cond2", "time > 0.1 or s > 0.5 and time > 0.45", "time > 0.8"), nullptr,
                          "conditions.json"),
             std::string());
    p.components[1].type = "probe_cond2";
    auto q = simulate(p, "precedence");
    REQUIRE_OK(q);
    CHECK_ABS(q->at("u.y", 1.0), 0.7, 1e-8);
  }

  // Bad syntax names the file, the type, the field and its line, and says
  // what is wrong where (1-based columns in the condition).
  void badSyntaxIsNamed() {
    std::string file;
    std::string m = whenError("time > 0.2 and", &file);
    qInfo("%s", m.c_str());
    QVERIFY2(m.find(file) != std::string::npos, m.c_str());
    QVERIFY2(m.find("field 'events[0].when'") != std::string::npos, m.c_str());
    QVERIFY2(m.find("line 9: 'time > 0.2 and': 'and' at column 12 has no condition after it") != std::string::npos,
             m.c_str());
    m = whenError("or time > 0.2");
    QVERIFY2(m.find("'or' at column 1 has no condition before it") != std::string::npos, m.c_str());
    m = whenError("(time > 0.2 or s > 0.5");
    QVERIFY2(m.find("'(' at column 1 is not closed") != std::string::npos, m.c_str());
    m = whenError("time > 0.2 and s > 0.5)");
    QVERIFY2(m.find("')' at column 23 closes no '('") != std::string::npos, m.c_str());
    m = whenError("time > 0.2 or s");
    QVERIFY2(m.find("'s' is not a comparison: a condition is a comparison") != std::string::npos, m.c_str());
    m = whenError("0.1 < time < 0.2");
    QVERIFY2(m.find("chains two comparisons (at column 5 and column 12): join them with and / or") != std::string::npos,
             m.c_str());
    m = whenError("time > 0.2 and ()");
    QVERIFY2(m.find("an empty condition") != std::string::npos, m.c_str());
    m = whenError("time > 0.2 and s >");
    QVERIFY2(m.find("the comparison at column 18 has nothing on its right") != std::string::npos, m.c_str());
    // A side's own error and a unit mismatch name the comparison.
    m = whenError("time > 0.2 and s > q");
    QVERIFY2(m.find("unknown name 'q'") != std::string::npos, m.c_str());
    m = whenError("s > 0.5 or time > x_m");
    QVERIFY2(m.find("unit mismatch: 'time' against 'x_m' compares") != std::string::npos, m.c_str());
  }
};

QTEST_APPLESS_MAIN(TestUserConditions)
#include "test_user_conditions.moc"
