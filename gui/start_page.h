// What the studio shows without a project: New / Open, the example projects
// (projects/*.pneumech.json, installed under share/pneumech/projects) and the
// recently used files.
#pragma once

#include <QWidget>

class QListWidget;

namespace pm::gui {

class StartPage : public QWidget {
  Q_OBJECT
 public:
  explicit StartPage(QWidget* parent = nullptr);

  void setRecentFiles(const QStringList& files);
  QListWidget* examples() const { return examples_; }
  QListWidget* recent() const { return recent_; }
  static QString examplesDirectory();

 signals:
  void openRequested(const QString& path);
  void newRequested();
  void openDialogRequested();

 private:
  QListWidget* examples_;
  QListWidget* recent_;
};

}  // namespace pm::gui
