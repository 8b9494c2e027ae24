#include "user/condition.h"

#include <cctype>
#include <stdexcept>

namespace pm::user {

namespace {

bool nameChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

class ConditionParser {
 public:
  explicit ConditionParser(const std::string& s) : s_(s) {}

  ParsedCondition parse() {
    checkParentheses();
    node(0, s_.size());
    return std::move(out_);
  }

 private:
  [[noreturn]] void fail(const std::string& why) const { throw std::invalid_argument(why); }
  static std::string column(size_t at) { return "column " + std::to_string(at + 1); }
  // Quoted; appended, not an operator+ chain: GCC 12 warns (-Wrestrict) on that.
  std::string text(size_t lo, size_t hi) const {
    std::string q(1, '\'');
    q.append(s_, lo, hi - lo);
    q += '\'';
    return q;
  }

  void checkParentheses() const {
    std::vector<size_t> open;
    for (size_t k = 0; k < s_.size(); ++k) {
      if (s_[k] == '(') open.push_back(k);
      if (s_[k] != ')') continue;
      if (open.empty()) fail("')' at " + column(k) + " closes no '('");
      open.pop_back();
    }
    if (!open.empty()) fail("'(' at " + column(open.back()) + " is not closed");
  }

  // The node of s_[lo, hi): `or` of `and`s of terms; a term in parentheses
  // is a condition itself, else a comparison.
  int node(size_t lo, size_t hi) {
    while (lo < hi && std::isspace(static_cast<unsigned char>(s_[lo]))) ++lo;
    while (hi > lo && std::isspace(static_cast<unsigned char>(s_[hi - 1]))) --hi;
    if (lo == hi) fail("an empty condition");
    for (const auto& [word, symbol, kind] : {Joiner{"or", "||", ConditionNode::Or}, Joiner{"and", "&&", ConditionNode::And}}) {
      const std::vector<std::pair<size_t, size_t>> at = joiners(lo, hi, word, symbol);
      if (at.empty()) continue;
      int n = -1;
      size_t from = lo;
      for (size_t i = 0; i <= at.size(); ++i) {
        const size_t to = i < at.size() ? at[i].first : hi;
        if (!hasText(from, to)) {
          const auto& op = at[i < at.size() ? i : i - 1];
          fail(text(op.first, op.first + op.second) + " at " + column(op.first) + " has no condition " +
               (i < at.size() ? "before" : "after") + " it");
        }
        const int term = node(from, to);
        n = n < 0 ? term : add({kind, -1, n, term});
        if (i < at.size()) from = at[i].first + at[i].second;
      }
      return n;
    }
    if (s_[lo] == '(' && closing(lo) == hi - 1) return node(lo + 1, hi - 1);
    return comparison(lo, hi);
  }

  struct Joiner {
    const char* word;
    const char* symbol;
    ConditionNode::Kind kind;
  };

  // Where `word` (a whole word) or `symbol` stands outside parentheses: (position, length).
  std::vector<std::pair<size_t, size_t>> joiners(size_t lo, size_t hi, const std::string& word,
                                                 const std::string& symbol) const {
    std::vector<std::pair<size_t, size_t>> at;
    int depth = 0;
    for (size_t k = lo; k < hi; ++k) {
      depth += s_[k] == '(' ? 1 : s_[k] == ')' ? -1 : 0;
      if (depth != 0) continue;
      if (s_.compare(k, symbol.size(), symbol) == 0) {
        at.push_back({k, symbol.size()});
        k += symbol.size() - 1;
      } else if (s_.compare(k, word.size(), word) == 0 && (k == 0 || !nameChar(s_[k - 1])) &&
                 (k + word.size() >= s_.size() || !nameChar(s_[k + word.size()]))) {
        at.push_back({k, word.size()});
        k += word.size() - 1;
      }
    }
    return at;
  }

  std::string trimmed(size_t lo, size_t hi) const {
    while (lo < hi && std::isspace(static_cast<unsigned char>(s_[lo]))) ++lo;
    while (hi > lo && std::isspace(static_cast<unsigned char>(s_[hi - 1]))) --hi;
    return s_.substr(lo, hi - lo);
  }

  bool hasText(size_t lo, size_t hi) const {
    for (size_t k = lo; k < hi; ++k)
      if (!std::isspace(static_cast<unsigned char>(s_[k]))) return true;
    return false;
  }

  size_t closing(size_t open) const {
    int depth = 0;
    for (size_t k = open; k < s_.size(); ++k) {
      depth += s_[k] == '(' ? 1 : s_[k] == ')' ? -1 : 0;
      if (depth == 0) return k;
    }
    return s_.size();
  }

  int comparison(size_t lo, size_t hi) {
    std::vector<size_t> ops;
    int depth = 0;
    for (size_t k = lo; k < hi; ++k) {
      depth += s_[k] == '(' ? 1 : s_[k] == ')' ? -1 : 0;
      if (depth == 0 && (s_[k] == '<' || s_[k] == '>')) ops.push_back(k);
    }
    if (ops.empty())
      fail(text(lo, hi) + " is not a comparison: a condition is a comparison a > b, a >= b, a < b or a <= b, "
                          "or comparisons joined by and / or");
    if (ops.size() > 1)
      fail(text(lo, hi) + " chains two comparisons (at " + column(ops[0]) + " and " + column(ops[1]) +
           "): join them with and / or");
    const size_t at = ops[0];
    const size_t len = at + 1 < hi && s_[at + 1] == '=' ? 2 : 1;
    if (!hasText(lo, at)) fail("the comparison at " + column(at) + " has nothing on its left");
    if (!hasText(at + len, hi)) fail("the comparison at " + column(at) + " has nothing on its right");
    out_.comparisons.push_back({trimmed(lo, at), trimmed(at + len, hi), s_[at] == '>', len == 1});
    return add({ConditionNode::Compare, static_cast<int>(out_.comparisons.size()) - 1, -1, -1});
  }

  int add(const ConditionNode& n) {
    out_.nodes.push_back(n);
    return static_cast<int>(out_.nodes.size()) - 1;
  }

  const std::string& s_;
  ParsedCondition out_;
};

}  // namespace

ParsedCondition parseCondition(const std::string& when) { return ConditionParser(when).parse(); }

bool conditionHolds(const std::vector<ConditionNode>& nodes, const std::vector<char>& truth) {
  std::vector<char> v(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) {
    const ConditionNode& n = nodes[i];
    switch (n.kind) {
      case ConditionNode::Compare: v[i] = truth[static_cast<size_t>(n.index)]; break;
      case ConditionNode::And: v[i] = v[static_cast<size_t>(n.a)] && v[static_cast<size_t>(n.b)]; break;
      case ConditionNode::Or: v[i] = v[static_cast<size_t>(n.a)] || v[static_cast<size_t>(n.b)]; break;
    }
  }
  return !v.empty() && v.back();
}

}  // namespace pm::user
