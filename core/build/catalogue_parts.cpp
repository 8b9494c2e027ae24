#include "build/catalogue_parts.h"

#include "io/catalogue_file.h"
#include "model/component_type.h"
#include "model/message_text.h"
#include "model/project_error.h"

namespace pm {

namespace {

const catalogue::Entry& entryOf(const Component& c, const std::string& file) {
  const catalogue::Catalogue& cat = catalogue::processCatalogue();
  const catalogue::Entry* e = cat.find(c.part);
  if (!e) {
    std::string where;
    for (const std::string& f : cat.folders()) where += (where.empty() ? "" : ", ") + f;
    throw ProjectError(file, c.id, "part",
                       "no catalogue entry '" + c.part + "' (catalogue folders: " + (where.empty() ? "none" : where) +
                           "; add one with --catalogue DIR)");
  }
  if (e->type != c.type)
    throw ProjectError(file, c.id, "part", "'" + c.part + "' is a " + e->type + " (" + e->file + "), not a " + c.type);
  return *e;
}

void checkOne(const Component& c, const catalogue::Entry& e, const std::string& file) {
  for (const auto& [name, v] : e.params) {
    const auto it = c.params.find(name);
    if (it != c.params.end() && it->second != v)
      throw ProjectError(file, c.id, "params." + name,
                         numberText(it->second) + " differs from part " + e.part + "'s " + numberText(v) +
                             ": choose another part or remove \"part\"");
  }
  if (e.strokeMax > 0.0) {
    const ComponentType* t = Registry::instance().find(c.type);
    const double stroke = t && t->param("stroke") ? paramValue(c, *t, "stroke") : 0.0;
    if (stroke < e.strokeMin || stroke > e.strokeMax)
      throw ProjectError(file, c.id, "params.stroke",
                         numberText(stroke) + " m is outside part " + e.part + "'s strokes " + numberText(e.strokeMin) +
                             " to " + numberText(e.strokeMax) + " m");
  }
}

}  // namespace

void fillCatalogueParts(Project& pr, const std::string& file) {
  for (Component& c : pr.components) {
    if (c.part.empty()) continue;
    const catalogue::Entry& e = entryOf(c, file);
    checkOne(c, e, file);
    for (const auto& [name, v] : e.params) c.params[name] = v;
  }
}

void checkCatalogueParts(const Project& pr, const std::string& file) {
  for (const Component& c : pr.components) {
    if (c.part.empty()) continue;
    const catalogue::Entry& e = entryOf(c, file);
    for (const auto& [name, v] : e.params)
      if (!c.params.count(name))
        throw ProjectError(file, c.id, "params." + name, "missing: part " + e.part + " sets it to " + numberText(v));
    checkOne(c, e, file);
  }
}

void setCataloguePart(Project& pr, Component& c, const std::string& part, const std::string& source) {
  Component changed = c;
  if (!c.part.empty())
    if (const catalogue::Entry* old = catalogue::processCatalogue().find(c.part))
      for (const auto& kv : old->params) changed.params.erase(kv.first);
  changed.part = part;
  if (!part.empty()) {
    const catalogue::Entry& e = entryOf(changed, source);
    for (const auto& [name, v] : e.params) changed.params[name] = v;
    checkOne(changed, e, source);
  }
  (void)pr;
  c = std::move(changed);
}

}  // namespace pm
