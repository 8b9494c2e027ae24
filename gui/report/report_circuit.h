// The circuit diagram of the report: the editor's own SchematicScene (same
// ISO 1219 symbols, line routing, junctions and signal lines) over a
// throw-away Document, rendered on white without the editing grid.
#pragma once

#include "model/project.h"

#include <QPainter>
#include <QRectF>

namespace pm::gui {

// Size of the drawing in sheet mm (empty when the project has no components).
QRectF circuitBounds(const Project& project);

// Paints the circuit fitted (aspect kept, centred) into `target`.
void paintCircuit(QPainter& p, const Project& project, const QRectF& target);

}  // namespace pm::gui
