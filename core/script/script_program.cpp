#include "script/script_program.h"

#include <QCoreApplication>
#include <QJSEngine>
#include <QJSValueIterator>

#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <fcntl.h>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <unistd.h>

namespace pm::script {

namespace {

// QJSEngine refuses to exist without an application object; the command
// line tool has none (it makes a QApplication only to paint a report, after
// its run). One is made here, once, and lives until the process ends.
// Once only, also when a study builds scripted variants on several threads.
void ensureApplication() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (QCoreApplication::instance()) return;
    static int argc = 1;
    static char name[] = "pneumech";
    static char* argv[] = {name, nullptr};
    static auto* app = new QCoreApplication(argc, argv);
    (void)app;
  });
}


std::string fmt(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

// Calls `f` with its first `n` (at most 3) of a, b, c inside try/catch so
// that any thrown value (not only Error objects) is told apart from a
// returned one. The arguments are passed one by one: an array for apply()
// would be built at every call.
const char* kTrampoline = R"JS((function (f, n, a, b, c) {
  try {
    return { ok: true, value: n === 0 ? f() : n === 1 ? f(a) : n === 2 ? f(a, b) : f(a, b, c) };
  } catch (e) { return { ok: false, error: e }; }
}))JS";

// Global variables with JSON values, apart from the engine's own names.
// `skip` is an object without prototype whose keys are those names: a
// property lookup is hashed, where a Set's has() compares with every
// element (QV4's Set is a list), at every sample instant.
const char* kSave = R"JS((function (g, skip) {
  var s = {};
  for (var k of Object.keys(g)) {
    if (skip[k] === true) continue;
    var v = g[k];
    if (typeof v === 'function') continue;
    s[k] = v === undefined ? undefined : JSON.stringify(v);
  }
  return s;
}))JS";
const char* kRestore = R"JS((function (g, skip, s) {
  for (var k of Object.keys(g))
    if (skip[k] !== true && typeof g[k] !== 'function' && !(k in s)) delete g[k];
  for (var k in s) g[k] = s[k] === undefined ? undefined : JSON.parse(s[k]);
}))JS";

// Resident set size of the process [bytes] (-1 if unknown), read from one
// open /proc/self/statm by pread, so the script's thread and the watchdog
// can both read it cheaply.
class ResidentSize {
 public:
  ResidentSize() : fd_(::open("/proc/self/statm", O_RDONLY | O_CLOEXEC)), page_(::sysconf(_SC_PAGESIZE)) {}
  ~ResidentSize() {
    if (fd_ >= 0) ::close(fd_);
  }
  ResidentSize(const ResidentSize&) = delete;
  ResidentSize& operator=(const ResidentSize&) = delete;
  long long bytes() const {
    char buf[128];
    const ssize_t n = fd_ >= 0 ? ::pread(fd_, buf, sizeof buf - 1, 0) : -1;
    if (n <= 0) return -1;
    // "size resident ...": the second field, digits read by hand (this
    // runs around every sample instant; strtoll's locale handling costs
    // more than the rest of the parse).
    ssize_t i = 0;
    while (i < n && buf[i] >= '0' && buf[i] <= '9') ++i;  // size
    if (i == 0 || i >= n || buf[i] != ' ') return -1;
    const ssize_t first = ++i;
    long long resident = 0;
    for (; i < n && buf[i] >= '0' && buf[i] <= '9'; ++i) resident = 10 * resident + (buf[i] - '0');
    if (i == first) return -1;
    return resident * page_;
  }

 private:
  int fd_;
  long long page_;
};

std::string megabytes(double bytes) { return fmt(bytes / 1e6) + " MB"; }

}  // namespace

struct ScriptProgram::Impl {
  std::string origin;
  std::vector<std::string> inputs, outputs;
  QJSEngine engine;
  QJSValue trampoline, saveFn, restoreFn, skip, initFn, stepFn, saved;
  QStringList inputNames;

  // Watchdog: a call running longer than `limit` is taken for an endless loop,
  // and one that makes the process grow by more than `memoryLimit` (added
  // over all calls) for a runaway allocation; either is interrupted, so the
  // run fails instead of hanging or eating the machine. QJSEngine has no heap
  // cap of its own, so the growth of the process's resident size while the
  // script runs stands for the script's memory: other threads allocate
  // little during a call, and an RLIMIT would hit the whole process.
  std::chrono::duration<double> limit{10.0};
  double memoryLimit = 256e6;
  ResidentSize rss;
  std::mutex m;
  std::condition_variable cv;
  bool busy = false, quit = false;
  std::atomic<bool> timedOut{false}, overMemory{false};
  std::chrono::steady_clock::time_point since;
  long long rssAtCall = -1;  // at the start of the current call
  long long grown = 0;       // growth over the finished calls, >= 0
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

  bool stopped() const { return timedOut || overMemory; }

  void startWatchdog() {
    watchdog = std::thread([this] {
      std::unique_lock<std::mutex> l(m);
      // Polls rather than being woken at every call: a wake-up per call (a
      // controller steps every sample) costs more than the call itself.
      while (!quit) {
        if (busy && !stopped()) {
          const long long now = rss.bytes();
          if (std::chrono::steady_clock::now() - since > limit) {
            timedOut = true;
            engine.setInterrupted(true);
          } else if (now >= 0 && rssAtCall >= 0 && double(grown + (now - rssAtCall)) > memoryLimit) {
            overMemory = true;
            engine.setInterrupted(true);
          }
        }
        // Often enough that a runaway allocation is stopped near the limit.
        cv.wait_for(l, std::chrono::milliseconds(10), [this] { return quit; });
      }
    });
  }

  // Marks one call into the engine (the watchdog watches only these). The
  // calls of one sample instant nest in an outer mark (sample()): each call
  // restarts the time limit's clock, but the resident size is read only at
  // the outer mark's two ends (a read costs a system call).
  struct Busy {
    Impl& d;
    const bool outer;
    explicit Busy(Impl& impl) : d(impl), outer(impl.depth == 0) {
      const long long r = outer ? d.rss.bytes() : 0;
      ++d.depth;
      std::lock_guard<std::mutex> l(d.m);
      d.busy = true;
      d.since = std::chrono::steady_clock::now();
      if (outer) d.rssAtCall = r;
    }
    ~Busy() {
      --d.depth;
      if (!outer) return;
      const long long r = d.rss.bytes();
      std::lock_guard<std::mutex> l(d.m);
      d.busy = false;
      if (r >= 0 && d.rssAtCall >= 0) d.grown = std::max(0LL, d.grown + (r - d.rssAtCall));
    }
    Busy(const Busy&) = delete;
    Busy& operator=(const Busy&) = delete;
  };
  int depth = 0;  // nesting of Busy marks; the calling thread's alone

  // Runs `f` (which calls into the engine) under the watchdog. A call it
  // stopped fails with the limit's message, whatever `f` made of the aborted
  // call, and also when the call returned just as the limit was reached
  // (the engine stays interrupted).
  template <class F>
  void guarded(const char* what, F&& f) {
    {
      Busy b(*this);
      try {
        f();
      } catch (const std::runtime_error& e) {
        // Rethrown as it is when it already says why (with the line).
        if (!stopped() || std::string(e.what()).find(stopReason()) != std::string::npos) throw;
      }
    }
    if (stopped()) throw std::runtime_error(origin + ": " + stopReason() + (what ? std::string(" (in ") + what + ")" : ""));
  }

  std::string stopReason() const {
    if (overMemory)
      return "used more than " + megabytes(memoryLimit) +
             " of memory (memory_limit) and was stopped (a runaway allocation?)";
    return "did not return within " + fmt(limit.count()) + " s (an endless loop?)";
  }

  [[noreturn]] void fail(const std::string& msg) const { throw std::runtime_error(origin + ": " + msg); }
  // A JavaScript error: "<origin> line N: TypeError: ...".
  [[noreturn]] void failAt(const QJSValue& error, const std::string& where) const {
    throw std::runtime_error(origin + describe(error) + where);
  }

  // " line N: TypeError: message" for an Error object, the value otherwise.
  std::string describe(const QJSValue& error) const {
    if (stopped()) {
      const int line = error.property("lineNumber").toInt();
      return (line > 0 ? " line " + std::to_string(line) : std::string()) + ": " + stopReason();
    }
    if (error.isError()) {
      const int line = error.property("lineNumber").toInt();
      return (line > 0 ? " line " + std::to_string(line) + ": " : std::string(": ")) + error.toString().toStdString();
    }
    return ": uncaught exception '" + error.toString().toStdString() + "' (not an Error object, so no line number)";
  }

  // fn(args...) through the trampoline, at most three arguments; only
  // inside guarded().
  QJSValue call(const QJSValue& fn, const QJSValueList& args, const char* what) {
    QJSValueList all;
    all.reserve(2 + args.size());
    all << fn << QJSValue(static_cast<int>(args.size()));
    all.append(args);
    const QJSValue r = trampoline.call(all);
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
                             std::vector<std::string> outputs, double Ts, double timeLimit, double memoryLimit) {
  ensureApplication();
  d_ = std::make_unique<Impl>();
  d_->limit = std::chrono::duration<double>(timeLimit);
  d_->memoryLimit = memoryLimit;
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
  d_->skip = js.evaluate("(function (a) { var o = Object.create(null); for (var k of a) o[k] = true; return o; })")
                .call({builtins});

  d_->startWatchdog();
  // The top level, and reading init and step (a getter is the user's code).
  d_->guarded(nullptr, [&] {
    QStringList trace;
    const QJSValue r = js.evaluate(QString::fromStdString(source), QString::fromStdString(origin), 1, &trace);
    if (r.isError() || !trace.isEmpty()) d_->failAt(r, "");
    d_->initFn = js.globalObject().property("init");
    d_->stepFn = js.globalObject().property("step");
    if (!d_->stepFn.isCallable()) d_->fail("defines no function step(t, inputs)");
    if (!d_->initFn.isUndefined() && !d_->initFn.isCallable()) d_->fail("'init' is not a function");
  });
}

ScriptProgram::~ScriptProgram() = default;

// Every call into the engine below runs under guarded(): the user's code
// may run in a call, a getter, a setter or a toString().
void ScriptProgram::init(std::vector<double>& out) {
  d_->guarded("init()", [&] {
    if (!d_->initFn.isCallable()) return;
    d_->takeOutputs(d_->call(d_->initFn, {}, "init()"), out, "init()");
  });
}

void ScriptProgram::step(double t, const std::vector<double>& in, std::vector<double>& out) {
  d_->guarded("step()", [&] {
    QJSValue u = d_->engine.newObject();
    for (size_t k = 0; k < in.size(); ++k) u.setProperty(d_->inputNames[static_cast<qsizetype>(k)], in[k]);
    d_->takeOutputs(d_->call(d_->stepFn, {QJSValue(t), u}, "step()"), out, "step()");
  });
}

void ScriptProgram::sample(double t, const std::vector<double>& in, std::vector<double>& out, bool fresh,
                           bool withInit) {
  Impl::Busy watched(*d_);
  if (fresh)
    save();
  else
    restore();
  if (withInit) init(out);
  step(t, in, out);
}

void ScriptProgram::save() {
  const char* what = "saving the script's state";
  d_->guarded(what, [&] { d_->saved = d_->call(d_->saveFn, {d_->engine.globalObject(), d_->skip}, what); });
}

void ScriptProgram::restore() {
  const char* what = "restoring the script's state";
  d_->guarded(what, [&] { d_->call(d_->restoreFn, {d_->engine.globalObject(), d_->skip, d_->saved}, what); });
}

}  // namespace pm::script
