// The page layout of the PDF report: A4 portrait pages with a running header
// and a "page n of N" footer, and blocks (headings, paragraphs, tables,
// drawings) flowing down the page onto the next one when they do not fit.
// Coordinates are device pixels of the QPdfWriter; mm() converts.
#pragma once

#include <QFont>
#include <QPainter>
#include <QPdfWriter>
#include <QRectF>
#include <QString>
#include <QStringList>

#include <algorithm>
#include <functional>
#include <memory>
#include <vector>

class QIODevice;

namespace pm::gui {

struct ReportTable {
  QStringList header;
  std::vector<double> widths;  // relative column widths; empty: as wide as the cells and headers measure
  std::vector<QStringList> rows;
  std::vector<bool> rightAligned;  // per column (numbers)
  QString caption;                 // drawn above the table, bold
};

// What the layout did, page by page: for checking that no page is left
// mostly empty and no figure is parted from its caption.
struct ReportLayout {
  struct Figure {
    QString caption;
    int page = 0;         // where the drawing is
    int captionPage = 0;  // where its caption is
    double scale = 1.0;   // drawn height / wanted height (< 1: shrunk to fit)
  };
  // A table's header cell as drawn (each time the header is, repeats too):
  // its text's measured extent against the cell's, for checking none is cut.
  struct HeaderCell {
    QString text;
    int page = 0;
    double cellWidth = 0.0, cellHeight = 0.0;  // inside the padding
    double textWidth = 0.0, textHeight = 0.0;  // as the painter lays it out in the cell
    int lines = 0;
  };
  std::vector<double> fill;  // per page: the used fraction of the printable height (1 = full)
  std::vector<Figure> figures;
  std::vector<HeaderCell> headers;
};

class ReportPage {
 public:
  static constexpr int kDpi = 600;

  // `totalPages` is what the footer shows as N (0: "page n" only).
  ReportPage(QIODevice* out, const QString& title, const QString& headerRight, const QString& footerLeft,
             int totalPages);
  ~ReportPage();

  static double mm(double v) { return v * kDpi / 25.4; }
  QPainter& painter() { return painter_; }
  QRectF content() const { return content_; }  // printable area below the header, above the footer
  double y() const { return y_; }
  double remaining() const { return content_.bottom() - y_; }
  int pageNumber() const { return page_; }
  bool ok() const { return painter_.isActive(); }

  // Starts a new page (the first page exists from the start).
  void newPage();
  // Starts a new page unless `h` fits below the cursor.
  void ensureSpace(double h);
  void skip(double h) { y_ += h; }

  // The title page draws itself: no header on page 1.
  void setHeaderOnThisPage(bool on) { header_ = on; }

  QFont font(double pt, bool bold = false, bool italic = false) const;
  // Numbered section heading; keeps 40 mm with what follows, or `keepWith`
  // (the first block's height) when more.
  void heading(const QString& text, double keepWith = 0.0);
  void subheading(const QString& text);
  void paragraph(const QString& text, double pt = 9.5, const QColor& color = QColor(30, 30, 30));
  void bullets(const QStringList& items, double pt = 9.5);
  void table(const ReportTable& t, double pt = 8.5);
  // A block of height h drawn by `draw` into the given rectangle (full width).
  void block(double h, const std::function<void(QPainter&, const QRectF&)>& draw);
  // A figure and its caption below it, always on one page: `h` high, shrunk
  // down to `minH` to end the current page rather than leave its rest empty.
  // `captionInside`: `draw` writes the caption itself (plots, titled at the top).
  void figure(double h, double minH, const std::function<void(QPainter&, const QRectF&)>& draw,
              const QString& caption, bool captionInside = false);
  // The height a figure's caption takes (with its gap), for keepWith.
  double captionHeight(const QString& caption) const;
  // Height of wrapped text at width w.
  double textHeight(const QString& text, const QFont& f, double w) const;

 private:
  void decorate();  // header and footer of the current page
  void used() { fill_ = std::max(fill_, y_); }  // marks the cursor as drawn down to
  std::vector<double> columnWidths(const ReportTable& t, const QFont& body, const QFont& head, double pad) const;

  std::unique_ptr<QPdfWriter> writer_;
  QPainter painter_;
  QString title_, headerRight_, footerLeft_;
  int total_ = 0;
  int page_ = 1;
  int section_ = 0;
  bool header_ = true;
  bool decorated_ = false;
  QRectF content_;
  double y_ = 0.0;
  double fill_ = 0.0;  // lowest drawn point of the current page
  ReportLayout layout_;

 public:
  // The layout so far, the current page included.
  ReportLayout layout() const;
};

// Colours of the report (one accent, greys).
namespace report_colors {
inline const QColor kAccent(31, 78, 121);
inline const QColor kInk(30, 30, 30);
inline const QColor kMuted(110, 110, 110);
inline const QColor kRule(200, 205, 212);
inline const QColor kHeaderFill(228, 235, 243);
inline const QColor kStripe(246, 248, 250);
}  // namespace report_colors

}  // namespace pm::gui
