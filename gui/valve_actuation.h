// What a directional valve's symbol shows of its actuation (ISO 1219-1), as
// its parameters and lines say: a valve is drawn as it is built.
//  Side 14: a solenoid, unless the valve is operated by hand (manual = 1: a
//    push-button with a spring, a lever with detent without) or only by a
//    pilot line (port 14 connected, sol14 empty); the pilot triangle when
//    port 14 is connected; the signal stub where a signal drives it.
//  Side 12 (5/2, 5/3): the spring of a spring-return (monostable) valve; a
//    solenoid where sol12 is driven, or where the valve is not worked by
//    hand and has neither a spring (bistable, double solenoid; a 5/3) nor a
//    pilot line on 12; the pilot triangle when port 12
//    is connected. A 5/3 valve is spring-centred: springs on both sides.
//  2/2 and 3/2 valves: the spring when spring_return = 1.
//  Exhausts 3 and 5: the exhaust triangle while nothing is connected there
//    (a silencer or a line, when fitted, is drawn by that component).
// The glyphs are groups of the symbol's SVG (Symbol::switchable).
#pragma once

#include "model/project.h"

#include <QStringList>

namespace pm::gui {

struct Symbol;

// The switchable groups of `sym` drawn for `c`; `project` (may be null)
// tells which of its ports are connected.
QStringList valveGlyphs(const Component& c, const Symbol& sym, const Project* project);

}  // namespace pm::gui
