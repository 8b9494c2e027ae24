// The expressions of a user component (docs/user-components.md): parsed
// once when the component is loaded, checked (names, dimensions), and
// compiled to a small stack bytecode that the run evaluates without any
// tree. Evaluation follows the text's order of operations exactly, so an
// expression written as a built-in component computes gives the same bits
// (docs/decisions/0019-user-component-expressions.md).
#pragma once

#include "user/units.h"

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace pm::user {

// Where an expression stands, for messages: "file, line N".
struct Where {
  std::string file;
  int line = 0;
  std::string field;  // "equations[1]"
  size_t column0 = 0;  // where the parsed text starts in the message's text
  std::string whole;   // the text the message quotes, when more than the parsed one
};

// Refused expression; what() reads "<file>: line N, <field>: '<text>': why".
class ExpressionError : public std::runtime_error {
 public:
  ExpressionError(const Where& w, const std::string& text, const std::string& why);
  const std::string& why() const { return why_; }
  const std::string& text() const { return text_; }

 private:
  std::string text_, why_;
};

// A name an expression may read: its slot in the evaluation array and its
// dimension. `constant`: known before the run (a parameter, a physical
// constant), so the expression may serve as an initial value.
struct Symbol {
  int slot = -1;
  Dim dim;
  bool constant = false;
};
using Symbols = std::map<std::string, Symbol>;

class Program;
Program compileExpression(const std::string& text, const Where& where, const Symbols& symbols, Dim* dim);
Program compileEquation(const std::string& text, const Where& where, const Symbols& symbols);

class Program {
 public:
  // Value at the slots `v` (time `t` for the message on a division by zero).
  double run(const double* v, double t) const;
  const std::string& text() const { return text_; }
  const std::vector<int>& reads() const { return reads_; }  // slots read, sorted, unique
  const Where& where() const { return where_; }

 private:
  friend class Compiler;
  friend Program compileExpression(const std::string&, const Where&, const Symbols&, Dim*);
  friend Program compileEquation(const std::string&, const Where&, const Symbols&);
  enum Op : unsigned char {
    Const, Load, Add, Sub, Mul, Div, Neg, Pow, Lt, Le, Gt, Ge, Eq, Ne, Not,
    JumpIfZero, Jump, Call1, Call2,
    // "Load s; op" and "Const c; op" fused (fuse()): the same operation on
    // the same operands, one dispatch fewer.
    AddL, SubL, MulL, DivL, AddC, SubC, MulC, DivC
  };
  struct Instr {
    Op op;
    int arg = 0;       // slot, jump target, function id
    double value = 0;  // constant
  };
  [[noreturn]] void divisionByZero(double t) const;
  void fuse();
  std::vector<Instr> code_;
  std::vector<int> reads_;
  std::string text_;
  Where where_;
  int depth_ = 0;
};

// Parses and checks `text` against `symbols`. `der(x)` reads the symbol
// "der(x)". Returns the program and writes the result's dimension.
Program compileExpression(const std::string& text, const Where& where, const Symbols& symbols, Dim* dim);

// An equation "lhs = rhs" compiled as the residual lhs - rhs, both sides of
// one dimension.
Program compileEquation(const std::string& text, const Where& where, const Symbols& symbols);

// Whether a name can be a symbol ([A-Za-z_][A-Za-z0-9_]*).
bool isIdentifier(const std::string& s);

}  // namespace pm::user
