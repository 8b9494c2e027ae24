// Editing helpers on the Project (no Qt widgets): fresh ids and ISO 1219-2
// codes, new components with default parameters, deleting, copying and
// pasting a selection with its inner connections. The editor calls these
// inside Document::edit, so each one is a single undoable change.
#pragma once

#include "model/project.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace pm::gui {

// A free id for a new component of `type` ("cyl1", "v2", ...) or connection ("l3").
std::string freshComponentId(const Project& p, const std::string& type);
std::string freshConnectionId(const Project& p);
// A free ISO 1219-2 identification code for `type` ("1A1", "1V2", "0Z1").
std::string freshLabel(const Project& p, const std::string& type);

// A component of `type` at `pos` (snapped to the grid) with a fresh id and
// label; parameters take the type defaults (stored empty).
Component newComponent(const Project& p, const std::string& type, double x, double y);

// Puts component `c` into line `connection` in one change: the line goes,
// and two lines take its place, from its first end to c's port `toFrom` and
// from c's port `toTo` to its second end. False (nothing changed) when the
// line does not exist.
bool insertIntoConnection(Project& p, const Component& c, const std::string& connection, const std::string& toFrom,
                          const std::string& toTo);

// The signal sources a solenoid field offers to add in place: a push
// button, a time switch, a step of a sequence.
const std::vector<std::string>& solenoidSourceTypes();
// Adds a signal source of `type` (one of solenoidSourceTypes()) for input
// `input` of component `reader`, placed beside it on that input's side, and
// sets the input to read it. A step sequence already in the project gets a
// new output and a step setting it instead of a second sequence. Returns the
// reference now in the input ("pb1.out", "seq.Y2"); empty when `reader` or
// `type` is unknown.
std::string addSignalSourceFor(Project& p, const std::string& reader, const std::string& input,
                               const std::string& type);

// Removes components (and every connection touching them), connections,
// and signal references to removed components.
void removeObjects(Project& p, const std::set<std::string>& components, const std::set<std::string>& connections);

// The selected components and the connections with both ends inside them.
Project copySelection(const Project& p, const std::set<std::string>& components);
// Adds `fragment` with fresh ids (and codes) moved by (dx, dy); connections
// and signal references inside the fragment (inputs, and references inside
// `data`: a sequence's conditions, a script's inputs) follow the renaming.
// Returns the new component ids.
std::vector<std::string> pasteFragment(Project& p, const Project& fragment, double dx, double dy);

// Renames the "<id>.<channel>" strings anywhere in a component's data whose
// id is a key of `rename` (the program text, data.script and data.file, is
// left alone).
void renameDataReferences(nlohmann::json& data, const std::map<std::string, std::string>& rename);

// Rotation by +90 degrees (clockwise on screen) and mirror of components.
void rotateComponents(Project& p, const std::set<std::string>& ids);
void mirrorComponents(Project& p, const std::set<std::string>& ids);

double snapToGrid(double v);

}  // namespace pm::gui
