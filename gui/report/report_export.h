// The PDF report a sales engineer hands to a customer: title page, circuit
// diagram, key results, plots, bill of materials and assumptions. Used by
// `pneumech report` (offscreen platform) and by the studio (File -> Export
// report). Needs a QApplication and runs on its thread (the circuit is drawn
// by the schematic scene, a QGraphicsScene).
#pragma once

#include "model/project.h"
#include "engine/engine.h"

#include <QString>

namespace pm::gui {

struct StudySummary;
struct ReportLayout;  // report_page.h

// Writes the report of a finished run to `pdfPath` (atomically). Report
// settings come from project.extra["report"] (see core/results/report_settings.h);
// a relative logo path is taken relative to `projectFile`'s folder. Returns
// false with `error` set (bad report settings, unreadable logo, unwritable
// file). `pages`, when given, receives the page count. `study`, when given
// and run, adds its section (gui/report/report_study.h). `keyRows`, when
// given, holds every row of the channels key results read
// (engine::keyResultChannels): the key results and conclusions come from it,
// the plots and pictures from `results` (the studio's plotting copy).
// `layout`, when given, receives how full each page is and where each figure
// and its caption went.
bool exportReport(const Project& project, const ResultStore& results, const QString& pdfPath, QString* error,
                  const QString& projectFile = {}, int* pages = nullptr, const StudySummary* study = nullptr,
                  const ResultStore* keyRows = nullptr, ReportLayout* layout = nullptr);

// Writes the report of a study alone (`pneumech report --study`): title
// page with the study at a glance, the circuit, the study section (its
// description, constraints, plot, table and chosen design) and how the
// variants were computed. Same settings, logo, errors and layout as exportReport.
bool exportStudyReport(const Project& project, const StudySummary& study, const QString& pdfPath, QString* error,
                       const QString& projectFile = {}, int* pages = nullptr, ReportLayout* layout = nullptr);

}  // namespace pm::gui
