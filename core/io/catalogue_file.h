// The component catalogue (issue 23; format in docs/catalogue.md): JSON
// files of entries, each a generic part number, a price a company fills in,
// the component type it is and the parameters it sets on that type (SI).
// Valves give their flow as vendors do, in Nl/min (ANR, ISO 8778) at a
// stated rating, and the loader turns it into the sonic conductance C and
// critical ratio b of ISO 6358 the valve types take. Tubes give outer and
// inner diameter (the tube's d is the inner one).
//
// A project object references an entry by "part" (build/project_input.h
// fills its parameters); a study can range over a family's parts.
#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace pm::catalogue {

// Conditions of a valve's rated flow: upstream and downstream absolute
// pressure and upstream temperature. Default: 6 bar gauge to 5 bar gauge
// over the standard atmosphere of 101325 Pa, as the bill of materials
// quotes nominal flow (results/bill_of_materials.h), so a catalogue
// valve's qn reads back there unchanged.
struct FlowRating {
  double p1 = 701325.0;
  double p2 = 601325.0;
  double T1 = 293.15;
};

// The sonic conductance C [m3/(s Pa)] of a path that passes qn [Nl/min,
// ANR] at the rating with critical pressure ratio b (ISO 6358, m = 0.5):
// qn/60000 = C p1 sqrt(T0/T1) phi(p2/p1, b). Throws std::invalid_argument
// when the rating is choked (p2/p1 <= b: then qn fixes C, b stays free, but
// a vendor's rating never is) or not a flow from 1 to 2.
double sonicConductance(double qnNlPerMin, double b, const FlowRating& rating = {});

struct Entry {
  std::string part;                     // generic part number, unique over the catalogue
  std::string type;                     // registered component type
  std::string family;                   // the file's name without .json, e.g. "cylinders_iso15552"
  std::string file;                     // the file it came from (messages)
  std::optional<double> price;          // null in the file: not given
  std::map<std::string, double> params; // what it sets on the type (SI), valve flows converted
  double strokeMin = 0.0, strokeMax = 0.0;  // cylinders: the strokes made (max 0: not given)
  nlohmann::json source;                // the entry as written (threads, od, notes)
};

class Catalogue {
 public:
  // Reads every *.json of `dir` (sorted by name). Throws ProjectError
  // naming the file, the entry ("entries[3] (ISO15552-40)") and the field.
  void addFolder(const std::string& dir);
  void addFile(const std::string& path);

  const Entry* find(const std::string& part) const;
  // A family's entries in file order (empty: no such family).
  std::vector<const Entry*> family(const std::string& name) const;
  const std::vector<Entry>& entries() const { return entries_; }
  const std::vector<std::string>& folders() const { return folders_; }

 private:
  std::vector<Entry> entries_;
  std::vector<std::string> folders_;
};

// The catalogue runs use: the folder shipped with the program (the source
// tree's catalogue/ or the installed share/pneumech/catalogue), then the
// folders added with addFolder (--catalogue DIR), loaded on first use.
// Thread-safe; add folders before the runs start.
const Catalogue& processCatalogue();
void addFolder(const std::string& dir);

}  // namespace pm::catalogue
