#include "help_menu.h"

#include "model/component_type.h"

#include <QAction>
#include <QApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTextBrowser>
#include <QToolBar>
#include <QVBoxLayout>

namespace pm::gui {

namespace {

QString plainText(const QAction* a) {
  QString t = a->text();
  t.remove('&');
  if (t.endsWith("...")) t.chop(3);
  return t;
}

void collectShortcuts(const QMenu* menu, const QString& path, QStringList& lines) {
  for (const QAction* a : menu->actions()) {
    if (a->menu()) {
      collectShortcuts(a->menu(), path + plainText(a) + " > ", lines);
      continue;
    }
    if (a->isSeparator() || a->shortcuts().isEmpty()) continue;
    QStringList keys;
    for (const QKeySequence& k : a->shortcuts()) keys << k.toString(QKeySequence::NativeText);
    lines << path + plainText(a) + "\t" + keys.join(", ");
  }
}

QDialog* textDialog(QWidget* parent, const QString& name, const QString& title, QWidget* body) {
  auto* d = new QDialog(parent);
  d->setObjectName(name);
  d->setWindowTitle(title);
  d->setAttribute(Qt::WA_DeleteOnClose);
  auto* lay = new QVBoxLayout(d);
  lay->addWidget(body);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
  QObject::connect(buttons, &QDialogButtonBox::rejected, d, &QDialog::reject);
  lay->addWidget(buttons);
  d->resize(760, 560);
  return d;
}

}  // namespace

QString gettingStartedHtml() {
  return QObject::tr(
      "<h2>Your first circuit</h2>"
      "<p>A double-acting cylinder that extends when a timer switches a 5/2 valve, with its speed set by a "
      "meter-out flow control. About 15 actions.</p>"
      "<ol>"
      "<li><b>File &gt; New</b> (Ctrl+N) gives an empty sheet.</li>"
      "<li>From the <b>library</b> on the left, drag onto the sheet: <i>Supply</i> (Supply), "
      "<i>5/2-way valve</i> (Directional valves), <i>One-way flow control</i> (Flow valves), "
      "<i>Double-acting cylinder</i> (Actuators) and <i>Time switch</i> (Signals). "
      "Type in the library's search box to find a component by name.</li>"
      "<li>Connect ports by dragging from one port to another: supply 1 to valve 1, valve 4 to cylinder A, "
      "valve 2 to the flow control's 1, the flow control's 2 to cylinder B. Lines route themselves. "
      "A flow control (or any part with two ports) dropped onto a line goes into it.</li>"
      "<li>Select the valve. In <b>Properties</b>, under Inputs, set <i>sol14</i> to the time switch's "
      "output: the valve switches when the timer does.</li>"
      "<li>Select the cylinder and type its bore, stroke and load in the property table "
      "(units are shown; values outside the valid range are refused with the range; Tab goes on to "
      "the next parameter).</li>"
      "<li><b>Simulation &gt; Check Circuit</b> lists what is missing; click a message to select the object.</li>"
      "<li><b>Simulation &gt; Run</b> (F5). The run plays at real speed in the schematic (pressures colour "
      "the lines) and the 3D view; the <i>Speed</i> box under the schematic changes the pace. With "
      "<b>Interactive</b> (toolbar) on, push buttons and manual valves can be clicked while it runs.</li>"
      "<li>In the <b>Results</b> tree, double-click <i>cyl1.x</i> and <i>cyl1.pA</i> to plot them; drag the time "
      "slider to see any instant in every view.</li>"
      "<li><b>File &gt; Export Report (PDF)</b> writes the report a customer receives.</li>"
      "</ol>"
      "<p>The same circuit, finished, is the example <i>seed003_meter_out</i>: "
      "use the button below to open it.</p>");
}

QString shortcutsText(const QMainWindow* window) {
  QStringList lines;
  for (const QAction* a : window->menuBar()->actions())
    if (a->menu()) collectShortcuts(a->menu(), plainText(a) + " > ", lines);
  return lines.join('\n');
}

void describeToolBar(QToolBar* bar) {
  for (QAction* a : bar->actions()) {
    if (a->isSeparator()) continue;
    QString what = a->statusTip().isEmpty() ? plainText(a) : a->statusTip();
    if (!a->shortcut().isEmpty()) what += " (" + a->shortcut().toString(QKeySequence::NativeText) + ")";
    a->setToolTip(what);
  }
}

QMenu* addHelpMenu(QMainWindow* window, std::function<void()> openExample) {
  QMenu* help = window->menuBar()->addMenu(QObject::tr("&Help"));
  help->setObjectName("helpMenu");

  QAction* start = help->addAction(QObject::tr("&Getting Started"), window, [window, openExample] {
    auto* page = new QTextBrowser;
    page->setHtml(gettingStartedHtml());
    QDialog* d = textDialog(window, "gettingStartedDialog", QObject::tr("Getting started"), page);
    auto* open = new QPushButton(QObject::tr("Open the Finished Example"));
    open->setObjectName("openExampleButton");
    d->layout()->addWidget(open);
    QObject::connect(open, &QPushButton::clicked, d, [d, openExample] {
      d->close();
      if (openExample) openExample();
    });
    d->show();
  });
  start->setShortcut(QKeySequence::HelpContents);
  start->setObjectName("actionGettingStarted");

  help->addAction(QObject::tr("&Component Reference"), window, [window] {
    auto* text = new QPlainTextEdit(QString::fromStdString(Registry::instance().reference()));
    text->setReadOnly(true);
    text->setObjectName("componentReferenceText");
    text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    text->setLineWrapMode(QPlainTextEdit::NoWrap);
    textDialog(window, "componentReferenceDialog", QObject::tr("Component reference"), text)->show();
  })->setObjectName("actionComponentReference");

  help->addAction(QObject::tr("&Keyboard Shortcuts"), window, [window] {
    auto* text = new QPlainTextEdit(shortcutsText(window));
    text->setReadOnly(true);
    text->setObjectName("shortcutsText");
    text->setTabStopDistance(320);
    textDialog(window, "shortcutsDialog", QObject::tr("Keyboard shortcuts"), text)->show();
  })->setObjectName("actionShortcuts");

  help->addSeparator();
  help->addAction(QObject::tr("&About PneuMech Studio"), window, [window] {
    QMessageBox::about(window, QObject::tr("About PneuMech Studio"),
                       QObject::tr("<h3>PneuMech Studio %1</h3>"
                                   "<p>Pneumatic circuits (ISO 1219-1) coupled to 3D mechanisms, simulated "
                                   "together: SUNDIALS IDA, Eigen, OpenSceneGraph, Qt %2.</p>"
                                   "<p>Inside: SI units, absolute pressures; flows to ISO 6358 "
                                   "(&rho;<sub>0</sub> = 1.185 kg/m&sup3;, T<sub>0</sub> = 293.15 K), "
                                   "Nl/min to ISO 8778.</p>")
                           .arg(QApplication::applicationVersion(), QString::fromLatin1(qVersion())));
  })->setObjectName("actionAbout");
  return help;
}

}  // namespace pm::gui
