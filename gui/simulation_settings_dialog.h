// Simulation settings (Simulation -> Settings): end time, output interval,
// tolerances, maximum step, the wall-time limit of a run, and how circuit
// and mechanism are coupled (monolithic, or co-simulated with an exchange
// interval). Values are typed in engineering units (ms, mm) and checked by
// the core's validateSimulation (build/validation.h) on OK: a bad value
// keeps the dialog open with a message naming the field.
#pragma once

#include "model/project.h"

#include <QDialog>

#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;

namespace pm::gui {

class Document;

class SimulationSettingsDialog : public QDialog {
  Q_OBJECT
 public:
  explicit SimulationSettingsDialog(const SimulationSettings& settings, QWidget* parent = nullptr);

  // The settings as typed; false with `error` set when a field is not a
  // number or the core rejects the values.
  bool read(SimulationSettings* out, QString* error) const;
  SimulationSettings settings() const;  // valid after accept()

  // The widgets, by the SimulationSettings field they edit ("t_end",
  // "output_interval", ..., "exchange_interval").
  QLineEdit* field(const QString& name) const;
  QComboBox* couplingBox() const { return coupling_; }
  QLabel* messageLabel() const { return message_; }

 private:
  struct Field {
    const char* name;
    QString label;
    QString unit;
    double scale;  // display = SI * scale
    double SimulationSettings::*member;
    QLineEdit* edit;
  };
  std::vector<Field> fields_;
  SimulationSettings base_, accepted_;
  QComboBox* coupling_;
  QLabel* message_;
};

// Opens the dialog (window-modal, deleted on close) on the document's
// project; OK applies it as one undoable edit "Simulation settings".
SimulationSettingsDialog* openSimulationSettings(QWidget* parent, Document* doc);

}  // namespace pm::gui
