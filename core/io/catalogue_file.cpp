#include "io/catalogue_file.h"

#include "io/json_limits.h"
#include "model/component_type.h"
#include "model/message_text.h"
#include "model/project_error.h"
#include "pneumatics/flow.h"
#include "pneumatics/gas.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <set>
#include <sstream>
#include <stdexcept>

namespace pm::catalogue {

namespace fs = std::filesystem;
using nlohmann::json;

double sonicConductance(double qn, double b, const FlowRating& r) {
  const double pr = r.p2 / r.p1;
  if (!(r.p1 > 0.0 && pr < 1.0 && pr >= 0.0)) throw std::invalid_argument("the rating needs 0 <= p2 < p1");
  if (!(b >= 0.0 && b < 1.0)) throw std::invalid_argument("b must be in [0, 1)");
  if (pr <= b) throw std::invalid_argument("the rating is choked (p2/p1 <= b): it does not fix C and b together");
  const double phi = flow::isoPhi(pr, b, 0.5);
  // Volume flow at the reference density rho0, i.e. the mass flow / rho0.
  return qn / 60000.0 / (r.p1 * std::sqrt(gas::T0 / r.T1) * phi);
}

namespace {

struct Reader {
  std::string file, object;
  [[noreturn]] void fail(const std::string& field, const std::string& msg) const {
    throw ProjectError(file, object, field, msg);
  }
  double number(const json& o, const std::string& key, const std::string& prefix = {}) const {
    if (!o.contains(key)) fail(prefix + key, "missing");
    const json& v = o.at(key);
    if (!v.is_number() || !std::isfinite(v.get<double>())) fail(prefix + key, "expected a finite number");
    return v.get<double>();
  }
};

FlowRating readRating(const Reader& r, const json& d) {
  FlowRating fr;
  if (!d.contains("flow_rating")) return fr;
  const json& o = d.at("flow_rating");
  if (!o.is_object()) r.fail("flow_rating", "expected {\"p1\": Pa, \"p2\": Pa, \"T1\": K} (absolute)");
  for (auto it = o.begin(); it != o.end(); ++it)
    if (it.key() != "p1" && it.key() != "p2" && it.key() != "T1" && it.key() != "note")
      r.fail("flow_rating." + it.key(), "unknown field (known: p1, p2, T1, note)");
  fr.p1 = r.number(o, "p1", "flow_rating.");
  fr.p2 = r.number(o, "p2", "flow_rating.");
  if (o.contains("T1")) fr.T1 = r.number(o, "T1", "flow_rating.");
  if (!(fr.p1 > fr.p2 && fr.p2 > 0.0 && fr.T1 > 0.0))
    r.fail("flow_rating", "needs p1 > p2 > 0 (absolute Pa) and T1 > 0 K");
  return fr;
}

// "flow": {"qn": Nl/min, "b": ratio[, "qn_exhaust", "b_exhaust"]} -> C_supply, b_supply, C_exhaust, b_exhaust.
void readValveFlow(const Reader& r, const json& f, const FlowRating& rating, Entry& e) {
  if (!f.is_object()) r.fail("flow", "expected {\"qn\": Nl/min, \"b\": critical ratio}");
  for (auto it = f.begin(); it != f.end(); ++it)
    if (it.key() != "qn" && it.key() != "b" && it.key() != "qn_exhaust" && it.key() != "b_exhaust")
      r.fail("flow." + it.key(), "unknown field (known: qn, b, qn_exhaust, b_exhaust)");
  auto path = [&](const char* qnKey, const char* bKey, const char* side) {
    const double qn = r.number(f, qnKey, "flow.");
    const double b = r.number(f, bKey, "flow.");
    if (!(qn > 0.0)) r.fail(std::string("flow.") + qnKey, "must be > 0 (Nl/min, ANR)");
    try {
      e.params[std::string("C_") + side] = sonicConductance(qn, b, rating);
    } catch (const std::invalid_argument& x) {
      r.fail(std::string("flow.") + bKey, x.what());
    }
    e.params[std::string("b_") + side] = b;
  };
  path("qn", "b", "supply");
  path(f.contains("qn_exhaust") ? "qn_exhaust" : "qn", f.contains("b_exhaust") ? "b_exhaust" : "b", "exhaust");
}

// The parameters an entry sets must be the type's and within its ranges.
void checkParams(const Reader& r, const Entry& e) {
  const ComponentType* t = Registry::instance().find(e.type);
  if (!t) r.fail("type", "unknown component type '" + e.type + "'");
  for (const auto& [name, v] : e.params) {
    const ParamDecl* d = t->param(name);
    if (!d) r.fail("params." + name, "type '" + e.type + "' has no parameter '" + name + "'");
    if (!d->accepts(v)) r.fail("params." + name, "value " + numberText(v) + " " + d->unit + " is outside " + d->rangeText());
  }
  auto has = [&](const char* k) { return e.params.count(k) > 0; };
  if (has("rod") && has("bore") && !(e.params.at("rod") < e.params.at("bore")))
    r.fail("params.rod", "the rod must be thinner than the bore");
}

Entry readEntry(const Reader& fileReader, const json& j, size_t i, const std::string& family, const FlowRating& rating) {
  Reader r{fileReader.file, "entries[" + std::to_string(i) + "]"};
  if (!j.is_object()) r.fail("", "expected an object with part, type, price and params");
  Entry e;
  e.family = family;
  e.file = r.file;
  e.source = j;
  if (!j.contains("part") || !j["part"].is_string() || j["part"].get<std::string>().empty())
    r.fail("part", "expected the generic part number (a non-empty string)");
  e.part = j["part"].get<std::string>();
  r.object += " (" + e.part + ")";
  if (!j.contains("type") || !j["type"].is_string()) r.fail("type", "expected the component type (a string)");
  e.type = j["type"].get<std::string>();
  if (!j.contains("price")) r.fail("price", "missing (null when not given)");
  if (!j["price"].is_null()) {
    e.price = r.number(j, "price");
    if (*e.price < 0.0) r.fail("price", "must be >= 0");
  }
  if (j.contains("params")) {
    if (!j["params"].is_object()) r.fail("params", "expected an object of name: value (SI)");
    for (auto it = j["params"].begin(); it != j["params"].end(); ++it)
      e.params[it.key()] = r.number(j["params"], it.key(), "params.");
  }
  if (j.contains("flow")) readValveFlow(r, j["flow"], rating, e);
  if (j.contains("od") || j.contains("id")) {  // tubes: outer and inner diameter
    const double od = r.number(j, "od"), id = r.number(j, "id");
    if (!(id > 0.0 && od > id)) r.fail("id", "needs 0 < id < od (m)");
    e.params["d"] = id;
  }
  if (j.contains("strokes")) {
    const json& s = j["strokes"];
    if (!s.is_object()) r.fail("strokes", "expected {\"min\": m, \"max\": m}");
    e.strokeMin = r.number(s, "min", "strokes.");
    e.strokeMax = r.number(s, "max", "strokes.");
    if (!(e.strokeMin >= 0.0 && e.strokeMax >= e.strokeMin && e.strokeMax > 0.0))
      r.fail("strokes", "needs 0 <= min <= max, max > 0");
  }
  checkParams(r, e);
  return e;
}

}  // namespace

void Catalogue::addFile(const std::string& path) {
  Reader r{path, ""};
  std::ifstream in(path, std::ios::binary);
  if (!in) r.fail("", "cannot be read");
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string text = ss.str();
  checkJsonLimits(text, path);
  json d;
  try {
    d = json::parse(text);
  } catch (const std::exception& e) {
    r.fail("", std::string("not valid JSON: ") + e.what());
  }
  if (!d.is_object() || !d.contains("format") || d.at("format") != "pneumech-catalogue")
    r.fail("format", "expected \"pneumech-catalogue\"");
  if (!d.contains("sources") || !d["sources"].is_array() || d["sources"].empty())
    r.fail("sources", "expected a non-empty list of where the data come from");
  if (!d.contains("entries") || !d["entries"].is_array()) r.fail("entries", "expected a list");
  const FlowRating rating = readRating(r, d);
  const std::string family = fs::path(path).stem().string();
  for (size_t i = 0; i < d["entries"].size(); ++i) {
    Entry e = readEntry(r, d["entries"][i], i, family, rating);
    if (const Entry* other = find(e.part))
      r.fail("entries[" + std::to_string(i) + "].part", "part '" + e.part + "' is also in " + other->file);
    entries_.push_back(std::move(e));
  }
}

void Catalogue::addFolder(const std::string& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw ProjectError(dir, "", "", "catalogue folder not found");
  std::vector<std::string> files;
  for (const auto& f : fs::directory_iterator(dir, ec))
    if (f.is_regular_file() && f.path().extension() == ".json") files.push_back(f.path().string());
  std::sort(files.begin(), files.end());
  for (const std::string& f : files) addFile(f);
  folders_.push_back(dir);
}

const Entry* Catalogue::find(const std::string& part) const {
  for (const Entry& e : entries_)
    if (e.part == part) return &e;
  return nullptr;
}

std::vector<const Entry*> Catalogue::family(const std::string& name) const {
  std::vector<const Entry*> out;
  for (const Entry& e : entries_)
    if (e.family == name) out.push_back(&e);
  return out;
}

namespace {

std::mutex gMutex;
std::vector<std::string> gExtra;
std::unique_ptr<Catalogue> gCatalogue;

std::string shippedFolder() {
  for (const char* dir : {PM_CATALOGUE_SOURCE_DIR, PM_CATALOGUE_INSTALL_DIR}) {
    std::error_code ec;
    if (fs::is_directory(dir, ec)) return dir;
  }
  return {};
}

}  // namespace

const Catalogue& processCatalogue() {
  std::lock_guard<std::mutex> lock(gMutex);
  if (!gCatalogue) {
    auto c = std::make_unique<Catalogue>();
    if (const std::string dir = shippedFolder(); !dir.empty()) c->addFolder(dir);
    for (const std::string& dir : gExtra) c->addFolder(dir);
    gCatalogue = std::move(c);
  }
  return *gCatalogue;
}

void addFolder(const std::string& dir) {
  std::lock_guard<std::mutex> lock(gMutex);
  gExtra.push_back(dir);
  if (gCatalogue) gCatalogue->addFolder(dir);  // already in use: add to it
}

}  // namespace pm::catalogue
