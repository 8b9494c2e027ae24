// The user component library folder the studio reads (issue 24,
// docs/user-components.md): chosen in Edit > Preferences and remembered in
// QSettings ("library/folder"); never chosen, the core's default
// (engine::userComponentFolder(): $XDG_DATA_HOME/PneuMech/components, else
// ~/.local/share/PneuMech/components). Its types are registered beside the
// built-in ones; the library panel lists them and projects that use them
// load.
#pragma once

#include <QString>
#include <QStringList>

namespace pm::gui::library_folder {

// The remembered folder, else the default.
QString current();
// Whether a folder was chosen (else current() is the default).
bool chosen();

// Registers the types of `folder` (every *.json there); their names. The
// good files are registered when others are bad; `problem` then gets the
// bad ones' messages (file, line, expression).
QStringList load(const QString& folder, QString* problem);

// Makes `folder` the library: it must be an existing, readable folder, else
// false with `error` naming it and what is wrong, and the old setting is
// kept. Otherwise its types are registered, the folder is remembered and
// true returned (`problem` as for load()).
bool choose(const QString& folder, QString* error, QString* problem);

// At the studio's start: loads current() when it is a folder. A chosen
// folder that has gone is a problem; the default that does not exist is not.
QStringList loadAtStart(QString* problem);

}  // namespace pm::gui::library_folder
