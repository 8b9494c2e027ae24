// The report's section on the modes of the coupled machine (issue #22): the
// operating point and a table of the lowest oscillating modes (frequency,
// damping ratio, where the mode's energy sits), when the project's report
// settings ask for it ("report": {"modes": N}).
#pragma once

#include "engine/engine.h"
#include "report_page.h"

#include <QString>

namespace pm::gui {

// The modes of `project` as its report settings ask (engine::modal); throws
// what engine::modal throws.
ModalResult reportModes(const Project& project, const std::string& file, const ReportSettings& settings);

// The section: `modes` as computed, or `error` (why there are none).
void modesSection(ReportPage& pg, const ModalResult* modes, const QString& error, int count);

}  // namespace pm::gui
