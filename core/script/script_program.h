// A user's ECMAScript controller program running in its own QJSEngine:
// the top level runs once when the program is loaded, then init() once and
// step(t, inputs) at every sample instant. Qt stays behind this interface.
//
// Errors (syntax, exceptions, bad return values) are thrown as
// std::runtime_error whose text starts with "<origin> line N: ", origin being
// the script's file name or the project field it came from.
//
// A sample may have to be computed again at the same instant (an input
// changed while the event settled): save() takes the script's state before
// the first call and restore() puts it back. The state is every global
// variable (top-level `var`, implicit globals) with a JSON value; top-level
// `let`/`const` live outside the global object and are not restored, so
// they should hold constants only.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace pm::script {

class ScriptProgram {
 public:
  // Loads and runs the top level of `source`; `Ts` is visible to the script
  // as the global `Ts`. Throws on a syntax error, an exception in the top
  // level, or when step() is not defined. Every call into the script (the
  // top level, init, step, save, restore) is watched: one running longer
  // than `timeLimit` [s] of wall time is interrupted as an endless loop, and
  // the script is stopped when the process has grown by more than
  // `memoryLimit` [B] during its calls; either throws with the limit named.
  ScriptProgram(const std::string& source, const std::string& origin, std::vector<std::string> inputs,
                std::vector<std::string> outputs, double Ts, double timeLimit, double memoryLimit = 256e6);
  ~ScriptProgram();
  ScriptProgram(const ScriptProgram&) = delete;
  ScriptProgram& operator=(const ScriptProgram&) = delete;

  // Call init() if defined. Outputs it returns overwrite `out` (indexed like
  // the output names); outputs it does not mention keep their value.
  void init(std::vector<double>& out);
  // Call step(t, inputs) with inputs {name: value}; the returned object's
  // outputs overwrite `out` the same way.
  void step(double t, const std::vector<double>& in, std::vector<double>& out);

  // Throw like step() (an accessor of the user's may run in either).
  void save();
  void restore();

  // One sample instant: save() on its first pass (`fresh`) or restore() when
  // it is computed again, init() if `withInit`, then step(). The same limits
  // and messages as the calls one by one; the memory is measured once around
  // the whole instant rather than around every call.
  void sample(double t, const std::vector<double>& in, std::vector<double>& out, bool fresh, bool withInit);

 private:
  struct Impl;
  std::unique_ptr<Impl> d_;
};

}  // namespace pm::script
