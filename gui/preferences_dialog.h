// Edit > Preferences: the studio's own settings, kept per user in QSettings
// (not in a project). For now the user component library folder
// (library_folder.h): typed or chosen with Browse; OK registers its types
// at once (no restart) and the caller lists them (libraryChanged). A path
// that is no readable folder is refused in the dialog, which stays open,
// and the old folder is kept.
#pragma once

#include <QDialog>

class QLabel;
class QLineEdit;
class QPushButton;
class QToolButton;

namespace pm::gui {

class PreferencesDialog : public QDialog {
  Q_OBJECT
 public:
  explicit PreferencesDialog(QWidget* parent = nullptr);

  QLineEdit* libraryFolderEdit() const { return folder_; }
  QToolButton* browseButton() const { return browse_; }
  QPushButton* okButton() const { return ok_; }
  // Why the last OK was refused (empty when it was not).
  QString errorText() const;

  void accept() override;

 signals:
  // OK took a new folder; `problem` lists its bad files (empty when none).
  void libraryChanged(const QString& folder, const QString& problem);

 private:
  QLineEdit* folder_;
  QToolButton* browse_;
  QPushButton* ok_;
  QLabel* error_;
};

}  // namespace pm::gui
