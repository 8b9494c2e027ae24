#include "script/script_program.h"

#include <QCoreApplication>
#include <QJSEngine>
#include <QJSValueIterator>

#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace pm::script {

namespace {

// QJSEngine refuses to exist without an application object; the command
// line tool has none (it makes a QApplication only to paint a report, after
// its run). One is made here, once, and lives until the process ends.
void ensureApplication() {
  if (QCoreApplication::instance()) return;
  static int argc = 1;
  static char name[] = "pneumech";
  static char* argv[] = {name, nullptr};
  static auto* app = new QCoreApplication(argc, argv);
  (void)app;
}


// Calls `f(a, b)` inside try/catch so that any thrown value (not only Error
// objects) is told apart from a returned one.
std::string fmt(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

const char* kTrampoline = R"JS((function (f, a, b) {
  try { return { ok: true, value: f(a, b) }; } catch (e) { return { ok: false, error: e }; }
}))JS";

// Global variables with JSON values, apart from the engine's own names.
const char* kSave = R"JS((function (g, skip) {
  var s = {};
  for (var k of Object.keys(g)) {
    if (skip.has(k)) continue;
    var v = g[k];
    if (typeof v === 'function') continue;
    s[k] = v === undefined ? undefined : JSON.stringify(v);
  }
  return s;
}))JS";
const char* kRestore = R"JS((function (g, skip, s) {
  for (var k of Object.keys(g))
    if (!skip.has(k) && typeof g[k] !== 'function' && !(k in s)) delete g[k];
  for (var k in s) g[k] = s[k] === undefined ? undefined : JSON.parse(s[k]);
}))JS";

}  // namespace

struct ScriptProgram::Impl {
  std::string origin;
  std::vector<std::string> inputs, outputs;
  QJSEngine engine;
  QJSValue trampoline, saveFn, restoreFn, skip, initFn, stepFn, saved;
  QStringList inputNames;

  // Watchdog: a call running longer than `limit` is taken for an endless loop
  // and interrupted, so the run fails instead of hanging.
  std::chrono::duration<double> limit{10.0};
  std::mutex m;
  std::condition_variable cv;
  bool busy = false, quit = false;
  std::atomic<bool> interrupted{false};
  std::chrono::steady_clock::time_point since;
  std::thread watchdog;

  Impl() = default;
  ~Impl() {
    {
      std::lock_guard<std::mutex> l(m);
      quit = true;
    }
    cv.notify_all();
    if (watchdog.joinable()) watchdog.join();
  }

  void startWatchdog() {
    watchdog = std::thread([this] {
      std::unique_lock<std::mutex> l(m);
      while (!quit) {
        if (busy && std::chrono::steady_clock::now() - since > limit && !interrupted) {
          interrupted = true;
          engine.setInterrupted(true);
        }
        cv.wait_for(l, std::min(std::chrono::duration<double>(0.2), limit / 4));
      }
    });
  }

  [[noreturn]] void fail(const std::string& msg) const { throw std::runtime_error(origin + ": " + msg); }
  // A JavaScript error: "<origin> line N: TypeError: ...".
  [[noreturn]] void failAt(const QJSValue& error, const std::string& where) const {
    throw std::runtime_error(origin + describe(error) + where);
  }

  // " line N: TypeError: message" for an Error object, the value otherwise.
  std::string describe(const QJSValue& error) const {
    if (interrupted) {
      const int line = error.property("lineNumber").toInt();
      return (line > 0 ? " line " + std::to_string(line) : std::string()) + ": did not return within " +
             fmt(limit.count()) + " s (an endless loop?)";
    }
    if (error.isError()) {
      const int line = error.property("lineNumber").toInt();
      return (line > 0 ? " line " + std::to_string(line) + ": " : std::string(": ")) + error.toString().toStdString();
    }
    return ": uncaught exception '" + error.toString().toStdString() + "' (not an Error object, so no line number)";
  }

  QJSValue call(const QJSValue& fn, const QJSValue& a, const QJSValue& b, const char* what) {
    {
      std::lock_guard<std::mutex> l(m);
      busy = true;
      since = std::chrono::steady_clock::now();
    }
    const QJSValue r = trampoline.call({fn, a, b});
    {
      std::lock_guard<std::mutex> l(m);
      busy = false;
    }
    if (r.isError()) failAt(r, std::string(" (in ") + what + ")");  // interrupted outside the try
    if (!r.property("ok").toBool()) failAt(r.property("error"), std::string(" (in ") + what + ")");
    return r.property("value");
  }

  void takeOutputs(const QJSValue& v, std::vector<double>& out, const char* what) const {
    if (v.isUndefined() || v.isNull()) return;
    if (!v.isObject() || v.isArray() || v.isCallable())
      fail(std::string(what) + " must return an object {output: value} or nothing, not '" + v.toString().toStdString() +
           "'");
    QJSValueIterator it(v);
    while (it.hasNext()) {
      it.next();
      const std::string name = it.name().toStdString();
      size_t k = 0;
      while (k < outputs.size() && outputs[k] != name) ++k;
      if (k == outputs.size()) {
        std::string known;
        for (const auto& o : outputs) known += (known.empty() ? "" : ", ") + o;
        fail(std::string(what) + " returned '" + name + "', which is not a declared output (data.outputs: " +
             (known.empty() ? "none" : known) + ")");
      }
      const QJSValue x = it.value();
      if (!x.isNumber() && !x.isBool())
        fail(std::string(what) + " returned output '" + name + "' = '" + x.toString().toStdString() +
             "': not a number or boolean");
      const double d = x.toNumber();
      if (!std::isfinite(d)) fail(std::string(what) + " returned output '" + name + "' = " + x.toString().toStdString());
      out[k] = d;
    }
  }
};

ScriptProgram::ScriptProgram(const std::string& source, const std::string& origin, std::vector<std::string> inputs,
                             std::vector<std::string> outputs, double Ts, double timeLimit) {
  ensureApplication();
  d_ = std::make_unique<Impl>();
  d_->limit = std::chrono::duration<double>(timeLimit);
  d_->origin = origin;
  d_->inputs = std::move(inputs);
  d_->outputs = std::move(outputs);
  for (const auto& n : d_->inputs) d_->inputNames << QString::fromStdString(n);
  QJSEngine& js = d_->engine;
  js.installExtensions(QJSEngine::ConsoleExtension);
  d_->trampoline = js.evaluate(kTrampoline);
  d_->saveFn = js.evaluate(kSave);
  d_->restoreFn = js.evaluate(kRestore);
  js.globalObject().setProperty("Ts", Ts);
  // Names present before the user's program are the engine's: never saved.
  QJSValue builtins = js.newArray();
  quint32 n = 0;
  QJSValueIterator it(js.globalObject());
  while (it.hasNext()) {
    it.next();
    builtins.setProperty(n++, it.name());
  }
  d_->skip = js.evaluate("(function (a) { return new Set(a); })").call({builtins});

  d_->startWatchdog();
  QStringList trace;
  {
    std::lock_guard<std::mutex> l(d_->m);
    d_->busy = true;
    d_->since = std::chrono::steady_clock::now();
  }
  const QJSValue r = js.evaluate(QString::fromStdString(source), QString::fromStdString(origin), 1, &trace);
  {
    std::lock_guard<std::mutex> l(d_->m);
    d_->busy = false;
  }
  if (r.isError() || !trace.isEmpty()) d_->failAt(r, "");
  d_->initFn = js.globalObject().property("init");
  d_->stepFn = js.globalObject().property("step");
  if (!d_->stepFn.isCallable()) d_->fail("defines no function step(t, inputs)");
  if (!d_->initFn.isUndefined() && !d_->initFn.isCallable()) d_->fail("'init' is not a function");
}

ScriptProgram::~ScriptProgram() = default;

void ScriptProgram::init(std::vector<double>& out) {
  if (!d_->initFn.isCallable()) return;
  d_->takeOutputs(d_->call(d_->initFn, QJSValue(), QJSValue(), "init()"), out, "init()");
}

void ScriptProgram::step(double t, const std::vector<double>& in, std::vector<double>& out) {
  QJSValue u = d_->engine.newObject();
  for (size_t k = 0; k < in.size(); ++k) u.setProperty(d_->inputNames[static_cast<qsizetype>(k)], in[k]);
  d_->takeOutputs(d_->call(d_->stepFn, QJSValue(t), u, "step()"), out, "step()");
}

void ScriptProgram::save() {
  d_->saved = d_->call(d_->saveFn, d_->engine.globalObject(), d_->skip, "saving the script's state");
}

void ScriptProgram::restore() {
  d_->restoreFn.call({d_->engine.globalObject(), d_->skip, d_->saved});
}

}  // namespace pm::script
