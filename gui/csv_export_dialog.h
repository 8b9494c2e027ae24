// Export CSV from the results panel: which channels (those plotted, those
// selected in the results tree, or all of the run), in which units (as the
// studio shows them, e.g. "cyl1.pA [bar (g)]", or SI as the command line
// writes them, "cyl1.pA [Pa]"), and the file. The dialog states the choice
// in words before the user confirms it.
#pragma once

#include <QDialog>
#include <QString>

class QButtonGroup;
class QLabel;
class QLineEdit;
class QRadioButton;

namespace pm::gui {

class CsvExportDialog : public QDialog {
  Q_OBJECT
 public:
  enum class Channels { Plotted, Selected, All };

  // Channel counts of each choice; `displayUnits` names the studio's units
  // ("bar (g), mm, °C") for the units choice; `path` is the file proposed.
  CsvExportDialog(int plotted, int selected, int all, const QString& displayUnits, const QString& path,
                  QWidget* parent = nullptr);

  Channels channels() const;
  bool inDisplayUnits() const;
  QString path() const;
  // "3 plotted channels in display units (bar (g), mm, °C)".
  QString summary() const;

  QRadioButton* button(Channels c) const;
  QRadioButton* displayUnitsButton() const { return display_; }
  QRadioButton* siUnitsButton() const { return si_; }
  QLineEdit* pathEdit() const { return path_; }

 private:
  void update();

  int counts_[3];
  QString unitsText_;
  QRadioButton* choice_[3] = {};
  QRadioButton* display_ = nullptr;
  QRadioButton* si_ = nullptr;
  QLineEdit* path_ = nullptr;
  QLabel* summary_ = nullptr;
};

}  // namespace pm::gui
