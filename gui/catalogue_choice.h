// "Choose from catalogue" in the property editor (issue 23): the catalogue
// entries that fit a component's type, a one-line description of each, and
// the edit that makes an object that part (its parameters and its part
// number, which the bill of materials shows).
#pragma once

#include "engine/engine.h"

#include <QString>

#include <string>
#include <vector>

namespace pm::gui {

// The process catalogue's entries of component type `type`, in catalogue order.
std::vector<const catalogue::Entry*> catalogueEntriesFor(const std::string& type);

// "ISO15552-50: bore 50 mm, rod 20 mm", "V52-G18: 700 Nl/min, b 0.3", "PU-8x5.5: 8 x 5.5 mm".
QString catalogueEntryText(const catalogue::Entry& e);

// Makes `c` the part `e` (nullptr: no part; the values stay): the parameters
// the old part set are replaced by the new part's, and a cylinder's stroke
// outside the part's stroke range is moved to its nearest end.
void applyCataloguePart(Component& c, const catalogue::Entry* e);

// After a parameter edit: an object whose value no longer is its part's
// stops being that part (the project would be refused otherwise). True when
// the part was dropped.
bool dropPartIfEdited(Component& c);

}  // namespace pm::gui
