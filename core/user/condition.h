// An event's condition (docs/user-components.md, `events[].when`):
// comparisons a > b, a >= b, a < b or a <= b joined by `and` and `or`
// (also written && and ||; `and` binds tighter), grouped by parentheses.
// Only the split is done here: each comparison's two sides are expressions
// the caller compiles, and the solver locates each comparison's root a - b
// on its own, so the whole condition is found turning true exactly.
#pragma once

#include <string>
#include <vector>

namespace pm::user {

// A node of a condition: a comparison, or `and` / `or` of two nodes.
struct ConditionNode {
  enum Kind { Compare, And, Or } kind = Compare;
  int index = -1;      // Compare: the comparison
  int a = -1, b = -1;  // And, Or: the two nodes joined
};

struct ParsedCondition {
  struct Comparison {
    std::string lhs, rhs;  // the two sides' text
    bool rising = true;    // > or >=: true when lhs - rhs is positive
    bool strict = true;    // > or <
  };
  std::vector<Comparison> comparisons;
  std::vector<ConditionNode> nodes;  // each after the nodes it joins; the whole condition last
};

// Throws std::invalid_argument saying what is wrong and where (1-based
// column): a part that is no comparison, two comparisons chained without
// and/or, an and/or without a condition on one side, unbalanced parentheses.
ParsedCondition parseCondition(const std::string& when);

// Whether the condition holds, given each comparison's truth.
bool conditionHolds(const std::vector<ConditionNode>& nodes, const std::vector<char>& truth);

}  // namespace pm::user
