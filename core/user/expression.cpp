#include "user/expression.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <sstream>

namespace pm::user {

namespace {

constexpr int kMaxDepth = 64;

enum Fn1 { Sqrt, Exp, Log, Log10, Sin, Cos, Tan, Asin, Acos, Atan, Abs, Sign };
enum Fn2 { Min, Max, PowF, Atan2 };

const std::map<std::string, int> kFn1 = {{"sqrt", Sqrt}, {"exp", Exp},   {"log", Log},   {"log10", Log10},
                                         {"sin", Sin},   {"cos", Cos},   {"tan", Tan},   {"asin", Asin},
                                         {"acos", Acos}, {"atan", Atan}, {"abs", Abs},   {"sign", Sign}};
const std::map<std::string, int> kFn2 = {{"min", Min}, {"max", Max}, {"pow", PowF}, {"atan2", Atan2}};

double fn1(int f, double x) {
  switch (f) {
    case Sqrt: return std::sqrt(x);
    case Exp: return std::exp(x);
    case Log: return std::log(x);
    case Log10: return std::log10(x);
    case Sin: return std::sin(x);
    case Cos: return std::cos(x);
    case Tan: return std::tan(x);
    case Asin: return std::asin(x);
    case Acos: return std::acos(x);
    case Atan: return std::atan(x);
    case Abs: return std::abs(x);
    default: return x > 0.0 ? 1.0 : x < 0.0 ? -1.0 : 0.0;
  }
}

double fn2(int f, double a, double b) {
  switch (f) {
    case Min: return std::min(a, b);
    case Max: return std::max(a, b);
    case PowF: return std::pow(a, b);
    default: return std::atan2(a, b);
  }
}

// The parsed tree, used only while compiling.
struct Node {
  enum Kind { Num, Name, Neg, Not, Bin, Call, If } kind = Num;
  std::string op;  // Bin: + - * / ^ < <= > >= == != ; Call/Name: the name
  double value = 0.0;
  std::vector<Node> kids;
  size_t begin = 0, end = 0;  // text range
};

class Parser {
 public:
  Parser(const std::string& s, const Where& w) : s_(s), w_(w) {}

  Node parseAll() {
    Node n = orExpr();
    skip();
    if (i_ < s_.size()) fail("unexpected '" + s_.substr(i_, 1) + "'");
    return n;
  }

 private:
  [[noreturn]] void fail(const std::string& why) const {
    throw ExpressionError(w_, w_.whole.empty() ? s_ : w_.whole,
                          "syntax error at column " + std::to_string(w_.column0 + i_ + 1) + ": " + why);
  }
  void skip() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  bool eat(const char* tok) {
    skip();
    const size_t n = std::char_traits<char>::length(tok);
    if (s_.compare(i_, n, tok) != 0) return false;
    // "<" must not take the first half of "<=", nor "=" of "==".
    if (n == 1 && i_ + 1 < s_.size() && s_[i_ + 1] == '=' && std::string("<>=!").find(tok[0]) != std::string::npos)
      return false;
    i_ += n;
    return true;
  }
  Node bin(std::string op, Node a, Node b) {
    Node n;
    n.kind = Node::Bin;
    n.op = std::move(op);
    n.begin = a.begin;
    n.end = b.end;
    n.kids.push_back(std::move(a));
    n.kids.push_back(std::move(b));
    return n;
  }
  // a && b -> if(a, b != 0, 0); a || b -> if(a, 1, b != 0)
  Node logic(bool isAnd, Node a, Node b) {
    Node zero, one, test;
    zero.kind = one.kind = Node::Num;
    one.value = 1.0;
    zero.begin = zero.end = one.begin = one.end = b.begin;
    test = bin("!=", std::move(b), zero);
    Node n;
    n.kind = Node::If;
    n.begin = a.begin;
    n.end = test.end;
    n.kids.push_back(std::move(a));
    if (isAnd) {
      n.kids.push_back(std::move(test));
      n.kids.push_back(zero);
    } else {
      n.kids.push_back(one);
      n.kids.push_back(std::move(test));
    }
    return n;
  }
  Node orExpr() {
    Node a = andExpr();
    while (eat("||")) a = logic(false, std::move(a), andExpr());
    return a;
  }
  Node andExpr() {
    Node a = compare();
    while (eat("&&")) a = logic(true, std::move(a), compare());
    return a;
  }
  Node compare() {
    Node a = sum();
    for (const char* op : {"<=", ">=", "==", "!=", "<", ">"})
      if (eat(op)) return bin(op, std::move(a), sum());
    return a;
  }
  Node sum() {
    Node a = product();
    while (true) {
      if (eat("+")) a = bin("+", std::move(a), product());
      else if (eat("-")) a = bin("-", std::move(a), product());
      else return a;
    }
  }
  Node product() {
    Node a = unary();
    while (true) {
      if (eat("*")) a = bin("*", std::move(a), unary());
      else if (eat("/")) a = bin("/", std::move(a), unary());
      else return a;
    }
  }
  Node unary() {
    skip();
    const size_t at = i_;
    if (eat("-") || eat("!")) {
      Node n;
      n.kind = s_[at] == '-' ? Node::Neg : Node::Not;
      n.kids.push_back(unary());
      n.begin = at;
      n.end = n.kids[0].end;
      return n;
    }
    if (eat("+")) return unary();
    Node a = primary();
    if (eat("^")) return bin("^", std::move(a), unary());  // right-associative, -x^2 = -(x^2)
    return a;
  }
  Node primary() {
    skip();
    Node n;
    n.begin = i_;
    if (i_ >= s_.size()) fail("expression ends where an operand is expected");
    const char c = s_[i_];
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') {
      const char* start = s_.c_str() + i_;
      char* stop = nullptr;
      n.value = std::strtod(start, &stop);  // the same conversion as the JSON reader's
      if (stop == start) fail("malformed number");
      i_ += static_cast<size_t>(stop - start);
      n.kind = Node::Num;
    } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      size_t j = i_;
      while (j < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[j])) || s_[j] == '_')) ++j;
      n.op = s_.substr(i_, j - i_);
      i_ = j;
      n.kind = Node::Name;
      if (eat("(")) {
        n.kind = n.op == "if" ? Node::If : Node::Call;
        skip();
        if (!(i_ < s_.size() && s_[i_] == ')')) {
          do n.kids.push_back(orExpr());
          while (eat(","));
        }
        if (!eat(")")) fail("expected ',' or ')' in the arguments of " + n.op + "()");
      }
    } else if (eat("(")) {
      n = orExpr();
      if (!eat(")")) fail("expected ')'");
      n.begin = n.begin > 0 ? n.begin - 1 : 0;
    } else {
      fail("unexpected '" + std::string(1, c) + "'");
    }
    n.end = i_;
    return n;
  }

  const std::string& s_;
  const Where& w_;
  size_t i_ = 0;
};

}  // namespace

ExpressionError::ExpressionError(const Where& w, const std::string& text, const std::string& why)
    : std::runtime_error(w.file + ": line " + std::to_string(w.line) + (w.field.empty() ? "" : ", " + w.field) +
                         ": '" + text + "': " + why),
      text_(text), why_(why) {}

bool isIdentifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

// Checks and emits the tree (one pass: each node's dimension, then its code).
class Compiler {
 public:
  Compiler(const std::string& text, const Where& w, const Symbols& syms, Program& p)
      : text_(text), w_(w), syms_(syms), p_(p) {}

  Dim emit(const Node& n) {
    switch (n.kind) {
      case Node::Num:
        push({Program::Const, 0, n.value});
        return Dim::number();
      case Node::Name: return load(n, n.op);
      case Node::Neg: {
        const Dim d = emit(n.kids[0]);
        code({Program::Neg}, 0);
        return d;
      }
      case Node::Not:
        emit(n.kids[0]);
        code({Program::Not}, 0);
        return Dim();
      case Node::Bin: return binary(n);
      case Node::If: return conditional(n);
      case Node::Call: return call(n);
    }
    return Dim();
  }

 private:
  [[noreturn]] void fail(const std::string& why) const {
    throw ExpressionError(w_, w_.whole.empty() ? text_ : w_.whole, why);
  }
  std::string part(const Node& n) const { return text_.substr(n.begin, n.end - n.begin); }
  static std::string unit(const Dim& d) { return d.free ? std::string("a bare number") : dimText(d); }

  void code(Program::Instr in, int stackChange) {
    p_.code_.push_back(in);
    depth_ += stackChange;
    if (depth_ > kMaxDepth) fail("nested too deeply (more than " + std::to_string(kMaxDepth) + " operands pending)");
    p_.depth_ = std::max(p_.depth_, depth_);
  }
  void push(Program::Instr in) { code(in, 1); }

  Dim load(const Node& n, const std::string& name) {
    auto it = syms_.find(name);
    if (it == syms_.end()) fail("unknown name '" + name + "'");
    push({Program::Load, it->second.slot});
    p_.reads_.push_back(it->second.slot);
    (void)n;
    return it->second.dim;
  }

  // Sums, differences and comparisons need one dimension on both sides; a
  // bare number takes the other side's.
  Dim alike(const Node& n, const Dim& a, const Dim& b, const char* verb) {
    if (a.free) return b;
    if (b.free) return a;
    if (!a.same(b))
      fail("unit mismatch: '" + part(n) + "' " + verb + " " + unit(a) + " and " + unit(b));
    return a;
  }

  Dim binary(const Node& n) {
    const std::string& op = n.op;
    const Dim a = emit(n.kids[0]);
    const Dim b = emit(n.kids[1]);
    if (op == "+" || op == "-") {
      code({op == "+" ? Program::Add : Program::Sub}, -1);
      return alike(n, a, b, op == "+" ? "adds" : "subtracts");
    }
    if (op == "*") return code({Program::Mul}, -1), a.times(b);
    if (op == "/") return code({Program::Div}, -1), a.over(b);
    if (op == "^") {
      code({Program::Pow}, -1);
      return power(n, a, b, n.kids[1]);
    }
    static const std::map<std::string, Program::Op> kCmp = {{"<", Program::Lt},  {"<=", Program::Le},
                                                             {">", Program::Gt},  {">=", Program::Ge},
                                                             {"==", Program::Eq}, {"!=", Program::Ne}};
    code({kCmp.at(op)}, -1);
    alike(n, a, b, "compares");
    return Dim();
  }

  Dim power(const Node& n, const Dim& a, const Dim& b, const Node& exponent) {
    if (!b.free && !b.dimensionless()) fail("unit mismatch: the exponent in '" + part(n) + "' has the unit " + unit(b));
    if (a.free || a.dimensionless()) return a;
    if (!b.free) fail("unit mismatch: '" + part(n) + "' raises " + unit(a) + " to a power that is not a plain number");
    return a.power(fold(exponent));
  }

  // The value of an expression of numbers alone (an exponent of a quantity).
  double fold(const Node& n) const {
    auto k = [&](int i) { return fold(n.kids[static_cast<size_t>(i)]); };
    switch (n.kind) {
      case Node::Num: return n.value;
      case Node::Neg: return -k(0);
      case Node::Bin:
        if (n.op == "+") return k(0) + k(1);
        if (n.op == "-") return k(0) - k(1);
        if (n.op == "*") return k(0) * k(1);
        if (n.op == "/") return k(0) / k(1);
        if (n.op == "^") return std::pow(k(0), k(1));
        break;
      default: break;
    }
    fail("unit mismatch: the exponent '" + part(n) + "' of a quantity must be written as a number");
  }

  Dim conditional(const Node& n) {
    if (n.kids.size() != 3) fail("if() takes 3 arguments (condition, value if true, value if false)");
    emit(n.kids[0]);
    const size_t jz = p_.code_.size();
    code({Program::JumpIfZero}, -1);
    const Dim a = emit(n.kids[1]);
    const size_t j = p_.code_.size();
    code({Program::Jump}, -1);  // the false branch pushes its own value
    p_.code_[jz].arg = static_cast<int>(p_.code_.size());
    const Dim b = emit(n.kids[2]);
    p_.code_[j].arg = static_cast<int>(p_.code_.size());
    return alike(n, a, b, "chooses between");
  }

  Dim call(const Node& n) {
    const std::string& f = n.op;
    const size_t argc = n.kids.size();
    auto arity = [&](size_t k) {
      if (argc != k) fail(f + "() takes " + std::to_string(k) + " argument" + (k == 1 ? "" : "s"));
    };
    if (f == "der") {
      arity(1);
      if (n.kids[0].kind != Node::Name) fail("der() takes the name of a state");
      if (!syms_.count("der(" + n.kids[0].op + ")")) fail("der(" + n.kids[0].op + "): '" + n.kids[0].op + "' is not a state");
      return load(n, "der(" + n.kids[0].op + ")");
    }
    if (f == "clamp") {  // clamp(x, lo, hi) = min(max(x, lo), hi)
      arity(3);
      Dim d = emit(n.kids[0]);
      d = alike(n, d, emit(n.kids[1]), "clamps");
      code({Program::Call2, Max}, -1);
      d = alike(n, d, emit(n.kids[2]), "clamps");
      code({Program::Call2, Min}, -1);
      return d;
    }
    if (auto it = kFn1.find(f); it != kFn1.end()) {
      arity(1);
      const Dim a = emit(n.kids[0]);
      code({Program::Call1, it->second}, 0);
      if (f == "sqrt") return a.power(0.5);
      if (f == "abs") return a;
      if (f != "sign" && !a.free && !a.dimensionless())
        fail("unit mismatch: " + f + "() of '" + part(n.kids[0]) + "', which has the unit " + unit(a));
      return a.free ? Dim::number() : Dim();
    }
    if (auto it = kFn2.find(f); it != kFn2.end()) {
      arity(2);
      const Dim a = emit(n.kids[0]);
      const Dim b = emit(n.kids[1]);
      code({Program::Call2, it->second}, -1);
      if (f == "pow") return power(n, a, b, n.kids[1]);
      if (f == "atan2") return alike(n, a, b, "compares"), Dim();
      return alike(n, a, b, "compares");
    }
    fail("unknown function '" + f + "'");
  }

  const std::string& text_;
  const Where& w_;
  const Symbols& syms_;
  Program& p_;
  int depth_ = 0;
};

double Program::run(const double* v, double t) const {
  double st[kMaxDepth];
  int sp = 0;
  const Instr* const code = code_.data();
  const Instr* const end = code + code_.size();
  for (const Instr* ip = code; ip != end; ++ip) {
    const Instr& I = *ip;
    switch (I.op) {
      case Const: st[sp++] = I.value; break;
      case Load: st[sp++] = v[I.arg]; break;
      case Add: --sp, st[sp - 1] = st[sp - 1] + st[sp]; break;
      case Sub: --sp, st[sp - 1] = st[sp - 1] - st[sp]; break;
      case Mul: --sp, st[sp - 1] = st[sp - 1] * st[sp]; break;
      case Div:
        --sp;
        if (st[sp] == 0.0) divisionByZero(t);
        st[sp - 1] = st[sp - 1] / st[sp];
        break;
      case Neg: st[sp - 1] = -st[sp - 1]; break;
      case Pow: --sp, st[sp - 1] = std::pow(st[sp - 1], st[sp]); break;
      case Lt: --sp, st[sp - 1] = st[sp - 1] < st[sp] ? 1.0 : 0.0; break;
      case Le: --sp, st[sp - 1] = st[sp - 1] <= st[sp] ? 1.0 : 0.0; break;
      case Gt: --sp, st[sp - 1] = st[sp - 1] > st[sp] ? 1.0 : 0.0; break;
      case Ge: --sp, st[sp - 1] = st[sp - 1] >= st[sp] ? 1.0 : 0.0; break;
      case Eq: --sp, st[sp - 1] = st[sp - 1] == st[sp] ? 1.0 : 0.0; break;
      case Ne: --sp, st[sp - 1] = st[sp - 1] != st[sp] ? 1.0 : 0.0; break;
      case Not: st[sp - 1] = st[sp - 1] == 0.0 ? 1.0 : 0.0; break;
      case JumpIfZero:
        if (st[--sp] == 0.0) ip = code + I.arg - 1;
        break;
      case Jump: ip = code + I.arg - 1; break;
      case Call1: st[sp - 1] = fn1(I.arg, st[sp - 1]); break;
      case Call2: --sp, st[sp - 1] = fn2(I.arg, st[sp - 1], st[sp]); break;
      case AddL: st[sp - 1] = st[sp - 1] + v[I.arg]; break;
      case SubL: st[sp - 1] = st[sp - 1] - v[I.arg]; break;
      case MulL: st[sp - 1] = st[sp - 1] * v[I.arg]; break;
      case DivL:
        if (v[I.arg] == 0.0) divisionByZero(t);
        st[sp - 1] = st[sp - 1] / v[I.arg];
        break;
      case AddC: st[sp - 1] = st[sp - 1] + I.value; break;
      case SubC: st[sp - 1] = st[sp - 1] - I.value; break;
      case MulC: st[sp - 1] = st[sp - 1] * I.value; break;
      case DivC:
        if (I.value == 0.0) divisionByZero(t);
        st[sp - 1] = st[sp - 1] / I.value;
        break;
      default: __builtin_unreachable();
    }
  }
  return st[0];
}

// Fuses an operand's Load or Const with the arithmetic that follows it,
// unless a jump lands on that arithmetic (a jump to the Load or Const
// lands on the fused instruction, which does both). Jump targets are
// renumbered.
void Program::fuse() {
  const size_t n = code_.size();
  std::vector<char> target(n + 1, 0);
  for (const Instr& I : code_)
    if (I.op == Jump || I.op == JumpIfZero) target[static_cast<size_t>(I.arg)] = 1;
  auto fused = [](Op operand, Op op) -> int {
    const int base = operand == Load ? AddL : AddC;
    switch (op) {
      case Add: return base;
      case Sub: return base + 1;
      case Mul: return base + 2;
      case Div: return base + 3;
      default: return -1;
    }
  };
  std::vector<int> at(n + 1);
  std::vector<Instr> out;
  out.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    at[i] = static_cast<int>(out.size());
    const Instr& I = code_[i];
    const int f = (I.op == Load || I.op == Const) && i + 1 < n && !target[i + 1] ? fused(I.op, code_[i + 1].op) : -1;
    out.push_back(I);
    if (f < 0) continue;
    out.back().op = static_cast<Op>(f);
    at[++i] = static_cast<int>(out.size()) - 1;
  }
  at[n] = static_cast<int>(out.size());
  for (Instr& I : out)
    if (I.op == Jump || I.op == JumpIfZero) I.arg = at[static_cast<size_t>(I.arg)];
  code_ = std::move(out);
}

void Program::divisionByZero(double t) const {
  std::ostringstream o;
  o.precision(9);
  o << where_.file << ": line " << where_.line << (where_.field.empty() ? "" : ", " + where_.field) << ": '" << text_
    << "': division by zero at t = " << t << " s";
  throw std::runtime_error(o.str());
}

Program compileExpression(const std::string& text, const Where& where, const Symbols& symbols, Dim* dim) {
  Program p;
  p.text_ = where.whole.empty() ? text : where.whole;  // an equation's side: quote the equation
  p.where_ = where;
  const Node tree = Parser(text, where).parseAll();
  const Dim d = Compiler(text, where, symbols, p).emit(tree);
  p.fuse();
  std::sort(p.reads_.begin(), p.reads_.end());
  p.reads_.erase(std::unique(p.reads_.begin(), p.reads_.end()), p.reads_.end());
  if (dim) *dim = d;
  return p;
}

Program compileEquation(const std::string& text, const Where& where, const Symbols& symbols) {
  // The one '=' that is not part of '==', '<=', '>=' or '!='.
  size_t eq = std::string::npos;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '=') continue;
    const bool partOfOp = (i > 0 && std::string("<>=!").find(text[i - 1]) != std::string::npos) ||
                          (i + 1 < text.size() && text[i + 1] == '=');
    if (partOfOp) continue;
    if (eq != std::string::npos) throw ExpressionError(where, text, "syntax error: more than one '='");
    eq = i;
  }
  if (eq == std::string::npos)
    throw ExpressionError(where, text, "syntax error: an equation reads 'der(x) = ...' or '0 = ...'");
  const std::string lhs = text.substr(0, eq), rhs = text.substr(eq + 1);
  Dim dl, dr;
  Where wl = where, wr = where;
  wl.whole = wr.whole = text;
  wr.column0 = eq + 1;
  Program l = compileExpression(lhs, wl, symbols, &dl);
  Program r = compileExpression(rhs, wr, symbols, &dr);
  if (!dl.free && !dr.free && !dl.same(dr))
    throw ExpressionError(where, text, "unit mismatch: the left side has the unit " + dimText(dl) +
                                           ", the right side " + dimText(dr));
  // Residual lhs - rhs: both programs in sequence, then Sub.
  Program p = std::move(l);
  const int offset = static_cast<int>(p.code_.size());
  for (Program::Instr in : r.code_) {
    if (in.op == Program::Jump || in.op == Program::JumpIfZero) in.arg += offset;
    p.code_.push_back(in);
  }
  p.code_.push_back({Program::Sub});
  p.depth_ = std::max(p.depth_, r.depth_ + 1);
  if (p.depth_ > kMaxDepth) throw ExpressionError(where, text, "nested too deeply");
  p.reads_.insert(p.reads_.end(), r.reads_.begin(), r.reads_.end());
  std::sort(p.reads_.begin(), p.reads_.end());
  p.reads_.erase(std::unique(p.reads_.begin(), p.reads_.end()), p.reads_.end());
  p.text_ = text;
  p.where_ = where;
  return p;
}

}  // namespace pm::user
