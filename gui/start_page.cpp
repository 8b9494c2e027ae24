#include "start_page.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

#include <memory>

namespace pm::gui {

namespace {
QString projectTitle(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return {};
  return QJsonDocument::fromJson(f.readAll()).object().value("meta").toObject().value("title").toString();
}

QListWidget* makeList(const QString& name) {
  auto* l = new QListWidget;
  l->setObjectName(name);
  l->setFrameShape(QFrame::NoFrame);
  l->setSpacing(2);
  l->setStyleSheet("QListWidget { background: transparent; } QListWidget::item { padding: 6px; border-radius: 4px; }"
                   " QListWidget::item:hover { background: #e6f0fb; }");
  return l;
}
}  // namespace

QString StartPage::examplesDirectory() {
  const QString app = QCoreApplication::applicationDirPath();
  for (const QString& c : {app + "/../share/pneumech/projects", QString(PM_SOURCE_DIR) + "/projects"})
    if (QFileInfo(c).isDir()) return QDir(c).absolutePath();
  return {};
}

StartPage::StartPage(QWidget* parent) : QWidget(parent) {
  setObjectName("startPage");
  setStyleSheet("#startPage { background: #f7f8fa; }");
  auto* title = new QLabel(tr("<span style='font-size:22pt;font-weight:600'>PneuMech Studio</span><br>"
                              "<span style='color:#666'>Pneumatic circuits and mechanisms, simulated</span>"));
  auto* btnNew = new QPushButton(tr("New circuit"));
  auto* btnOpen = new QPushButton(tr("Open..."));
  btnNew->setObjectName("startNew");
  for (QPushButton* b : {btnNew, btnOpen}) b->setMinimumHeight(32);
  connect(btnNew, &QPushButton::clicked, this, &StartPage::newRequested);
  connect(btnOpen, &QPushButton::clicked, this, &StartPage::openDialogRequested);

  examples_ = makeList("startExamples");
  recent_ = makeList("startRecent");
  const QDir dir(examplesDirectory());
  for (const QFileInfo& fi : dir.entryInfoList({"*.pneumech.json"}, QDir::Files, QDir::Name)) {
    const QString t = projectTitle(fi.absoluteFilePath());
    auto* item = new QListWidgetItem(QString("%1\n%2").arg(fi.fileName(), t.isEmpty() ? QString() : t), examples_);
    item->setData(Qt::UserRole, fi.absoluteFilePath());
    item->setToolTip(fi.absoluteFilePath());
  }
  // One click opens, as on a web page; Enter too. A click's own activation
  // (single-click styles, the second click of a double click) opens nothing more.
  auto clicked = std::make_shared<QElapsedTimer>();
  for (QListWidget* l : {examples_, recent_}) {
    connect(l, &QListWidget::itemClicked, this, [this, clicked](QListWidgetItem* item) {
      clicked->start();
      emit openRequested(item->data(Qt::UserRole).toString());
    });
    connect(l, &QListWidget::itemActivated, this, [this, clicked](QListWidgetItem* item) {
      if (clicked->isValid() && clicked->elapsed() < 2 * QApplication::doubleClickInterval()) return;
      emit openRequested(item->data(Qt::UserRole).toString());
    });
  }

  auto* buttons = new QHBoxLayout;
  buttons->addWidget(btnNew);
  buttons->addWidget(btnOpen);
  buttons->addStretch();
  auto* lists = new QHBoxLayout;
  auto column = [&](const QString& head, QListWidget* list) {
    auto* v = new QVBoxLayout;
    auto* h = new QLabel(QString("<b>%1</b>").arg(head));
    v->addWidget(h);
    v->addWidget(list, 1);
    lists->addLayout(v, 1);
  };
  column(tr("Examples"), examples_);
  column(tr("Recent files"), recent_);
  auto* lay = new QVBoxLayout(this);
  lay->setContentsMargins(48, 36, 48, 36);
  lay->setSpacing(16);
  lay->addWidget(title);
  lay->addLayout(buttons);
  lay->addLayout(lists, 1);
}

void StartPage::setRecentFiles(const QStringList& files) {
  recent_->clear();
  for (const QString& f : files) {
    if (!QFileInfo::exists(f)) continue;
    auto* item = new QListWidgetItem(QString("%1\n%2").arg(QFileInfo(f).fileName(), QFileInfo(f).absolutePath()), recent_);
    item->setData(Qt::UserRole, f);
  }
  if (recent_->count() == 0) {
    auto* item = new QListWidgetItem(tr("(none yet)"), recent_);
    item->setFlags(Qt::NoItemFlags);
  }
}

}  // namespace pm::gui
