#include "report_page.h"

#include <QFontMetricsF>
#include <QPageLayout>
#include <QPageSize>

#include <algorithm>

namespace pm::gui {

using namespace report_colors;

namespace {
constexpr double kMarginLeft = 20, kMarginRight = 18, kMarginTop = 16, kMarginBottom = 16;  // mm
constexpr double kHeaderH = 10, kFooterH = 10;                                                 // mm

// A column header in pieces a line may end after: spaces, "(", "_", and a
// "." before a letter, so "max(dock.normal_force) [N]" can stand on three
// lines ("max(dock.", "normal_force)", "[N]") instead of being cut.
QStringList headerPieces(const QString& text) {
  QStringList pieces{QString()};
  for (qsizetype i = 0; i < text.size(); ++i) {
    const QChar c = text[i];
    pieces.back() += c;
    const bool dotWord = c == '.' && i + 1 < text.size() && text[i + 1].isLetter();
    if ((c == ' ' || c == '(' || c == '_' || dotWord) && i + 1 < text.size()) pieces << QString();
  }
  return pieces;
}

// `text` on as few lines as fit `w` (greedy), joined by newlines.
QString wrapHeader(const QString& text, const QFontMetricsF& fm, double w) {
  QStringList lines{QString()};
  for (const QString& piece : headerPieces(text)) {
    const QString joined = lines.back() + piece;
    if (!lines.back().isEmpty() && fm.horizontalAdvance(joined.trimmed()) > w) lines << piece;
    else lines.back() = joined;
  }
  for (QString& l : lines) l = l.trimmed();
  return lines.join('\n');
}

// The widest piece a line cannot be broken inside.
double widestPiece(const QStringList& pieces, const QFontMetricsF& fm) {
  double m = 0;
  for (const QString& piece : pieces) m = std::max(m, fm.horizontalAdvance(piece.trimmed()));
  return m;
}

// The narrowest width on which `text` wraps (wrapHeader) to at most
// `lines` lines: a header with units ("max(catch.energy_lost) [J]") stays
// readable however the columns share the page.
double headerLeast(const QString& text, const QFontMetricsF& fm, int lines = 3) {
  const double full = fm.horizontalAdvance(text);
  double w = widestPiece(headerPieces(text), fm);
  while (w < full && wrapHeader(text, fm, w).count('\n') >= lines) w += 0.25 * fm.averageCharWidth();
  return std::min(w, full);
}
}  // namespace

ReportPage::ReportPage(QIODevice* out, const QString& title, const QString& headerRight, const QString& footerLeft,
                       int totalPages)
    : writer_(std::make_unique<QPdfWriter>(out)), title_(title), headerRight_(headerRight), footerLeft_(footerLeft),
      total_(totalPages) {
  writer_->setResolution(kDpi);
  writer_->setPageLayout(QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Portrait, QMarginsF(0, 0, 0, 0)));
  writer_->setTitle(title);
  writer_->setCreator(QStringLiteral("PneuMech Studio ") + PM_VERSION);
  painter_.begin(writer_.get());
  painter_.setRenderHint(QPainter::Antialiasing);
  painter_.setRenderHint(QPainter::TextAntialiasing);
  const double w = mm(210), h = mm(297);
  content_ = QRectF(QPointF(mm(kMarginLeft), mm(kMarginTop + kHeaderH)),
                    QPointF(w - mm(kMarginRight), h - mm(kMarginBottom + kFooterH)));
  y_ = content_.top();
}

ReportPage::~ReportPage() {
  if (painter_.isActive()) {
    decorate();
    painter_.end();
  }
}

QFont ReportPage::font(double pt, bool bold, bool italic) const {
  QFont f(QStringLiteral("DejaVu Sans"));
  f.setStyleHint(QFont::SansSerif);
  f.setPointSizeF(pt);
  f.setBold(bold);
  f.setItalic(italic);
  return f;
}

void ReportPage::decorate() {
  if (decorated_) return;
  decorated_ = true;
  QPainter& p = painter_;
  p.save();
  const double left = content_.left(), right = content_.right();
  if (header_) {
    const double base = mm(kMarginTop + kHeaderH - 3);
    p.setFont(font(7.5));
    p.setPen(kMuted);
    const QFontMetricsF fm(p.font(), writer_.get());
    const double rightW = fm.horizontalAdvance(headerRight_);
    const QString t = fm.elidedText(title_, Qt::ElideRight, right - left - rightW - mm(8));
    p.drawText(QPointF(left, base), t);
    p.drawText(QPointF(right - rightW, base), headerRight_);
    p.setPen(QPen(kRule, mm(0.25)));
    p.drawLine(QPointF(left, base + mm(1.5)), QPointF(right, base + mm(1.5)));
  }
  const double fy = mm(297 - kMarginBottom - kFooterH + 5);
  p.setPen(QPen(kRule, mm(0.25)));
  p.drawLine(QPointF(left, fy - mm(3.5)), QPointF(right, fy - mm(3.5)));
  p.setFont(font(7.5));
  p.setPen(kMuted);
  p.drawText(QPointF(left, fy), footerLeft_);
  const QString n = total_ > 0 ? QStringLiteral("Page %1 of %2").arg(page_).arg(total_) : QStringLiteral("Page %1").arg(page_);
  const QFontMetricsF fm(p.font(), writer_.get());
  p.drawText(QPointF(right - fm.horizontalAdvance(n), fy), n);
  p.restore();
}

void ReportPage::newPage() {
  decorate();
  layout_.fill.push_back((std::max(fill_, content_.top()) - content_.top()) / content_.height());
  fill_ = 0.0;
  writer_->newPage();
  ++page_;
  header_ = true;
  decorated_ = false;
  y_ = content_.top();
}

void ReportPage::ensureSpace(double h) {
  if (y_ > content_.top() && y_ + h > content_.bottom()) newPage();
}

double ReportPage::textHeight(const QString& text, const QFont& f, double w) const {
  const QFontMetricsF fm(f, writer_.get());
  return fm.boundingRect(QRectF(0, 0, w, 1e9), Qt::TextWordWrap, text).height();
}

ReportLayout ReportPage::layout() const {
  ReportLayout l = layout_;
  l.fill.push_back((std::max(fill_, content_.top()) - content_.top()) / content_.height());
  return l;
}

void ReportPage::heading(const QString& text, double keepWith) {
  QPainter& p = painter_;
  p.setFont(font(14, true));
  const QString t = QStringLiteral("%1  %2").arg(section_ + 1).arg(text);
  const double h = textHeight(t, p.font(), content_.width());
  ensureSpace(std::max(mm(40), mm(5) + h + mm(5.2) + keepWith));
  if (y_ > content_.top()) y_ += mm(5);
  ++section_;
  p.setPen(kAccent);
  p.drawText(QRectF(content_.left(), y_, content_.width(), h), Qt::TextWordWrap, t);
  y_ += h + mm(1.2);
  p.setPen(QPen(kAccent, mm(0.4)));
  p.drawLine(QPointF(content_.left(), y_), QPointF(content_.right(), y_));
  used();
  y_ += mm(4);
}

void ReportPage::subheading(const QString& text) {
  ensureSpace(mm(25));
  y_ += mm(2);
  QPainter& p = painter_;
  p.setFont(font(10.5, true));
  p.setPen(kInk);
  const double h = textHeight(text, p.font(), content_.width());
  p.drawText(QRectF(content_.left(), y_, content_.width(), h), Qt::TextWordWrap, text);
  y_ += h;
  used();
  y_ += mm(2);
}

void ReportPage::paragraph(const QString& text, double pt, const QColor& color) {
  QPainter& p = painter_;
  p.setFont(font(pt));
  const double h = textHeight(text, p.font(), content_.width());
  ensureSpace(h);
  p.setPen(color);
  p.drawText(QRectF(content_.left(), y_, content_.width(), h), Qt::TextWordWrap, text);
  y_ += h;
  used();
  y_ += mm(2.5);
}

void ReportPage::bullets(const QStringList& items, double pt) {
  QPainter& p = painter_;
  const QFont f = font(pt);
  const double indent = mm(5);
  for (const QString& it : items) {
    const double h = textHeight(it, f, content_.width() - indent);
    ensureSpace(h);
    p.setFont(f);
    p.setPen(kInk);
    p.drawText(QRectF(content_.left(), y_, indent, h), Qt::AlignLeft | Qt::AlignTop, QStringLiteral("•"));
    p.drawText(QRectF(content_.left() + indent, y_, content_.width() - indent, h), Qt::TextWordWrap, it);
    y_ += h;
    used();
    y_ += mm(1.5);
  }
  y_ += mm(1.5);
}

std::vector<double> ReportPage::columnWidths(const ReportTable& t, const QFont& body, const QFont& head,
                                             double pad) const {
  const QFontMetricsF fb(body, writer_.get()), fh(head, writer_.get());
  const size_t nc = t.header.size();
  const double W = content_.width();
  // least: no word and no header piece cut, headers on at most three lines;
  // want: every cell and header on one line.
  std::vector<double> least(nc), want(nc), w(nc);
  for (size_t c = 0; c < nc; ++c) {
    least[c] = headerLeast(t.header[int(c)], fh);
    want[c] = fh.horizontalAdvance(t.header[int(c)]);
    for (const QStringList& row : t.rows)
      if (c < size_t(row.size())) {
        least[c] = std::max(least[c], widestPiece(row[int(c)].split(' '), fb));
        want[c] = std::max(want[c], fb.horizontalAdvance(row[int(c)]));
      }
    least[c] += 2 * pad + 1, want[c] += 2 * pad + 1;
  }
  double sumLeast = 0, sumWant = 0, sumGiven = 0;
  for (size_t c = 0; c < nc; ++c)
    sumLeast += least[c], sumWant += want[c], sumGiven += c < t.widths.size() ? t.widths[c] : 1.0;
  for (size_t c = 0; c < nc; ++c) {
    if (sumLeast >= W) w[c] = W * least[c] / sumLeast;  // too many columns: cut evenly (the layout records it)
    else if (!t.widths.empty()) w[c] = W * t.widths[std::min(c, t.widths.size() - 1)] / sumGiven;
    else if (sumWant <= W) w[c] = want[c] * W / sumWant;
    else w[c] = least[c] + (W - sumLeast) * (want[c] - least[c]) / (sumWant - sumLeast);
  }
  if (t.widths.empty() || sumLeast >= W) return w;
  // Given widths: a column narrower than its least takes it from those with room to spare.
  double deficit = 0, spare = 0;
  for (size_t c = 0; c < nc; ++c) deficit += std::max(0.0, least[c] - w[c]), spare += std::max(0.0, w[c] - least[c]);
  if (deficit <= 0) return w;
  for (size_t c = 0; c < nc; ++c)
    w[c] = w[c] < least[c] ? least[c] : w[c] - (w[c] - least[c]) * deficit / spare;
  return w;
}

void ReportPage::table(const ReportTable& t, double pt) {
  QPainter& p = painter_;
  const QFont body = font(pt), head = font(pt, true);
  const size_t nc = t.header.size();
  const double pad = mm(1.4);
  const std::vector<double> w = columnWidths(t, body, head, pad);
  std::vector<double> x(nc);
  double acc = content_.left();
  for (size_t c = 0; c < nc; ++c) {
    x[c] = acc;
    acc += w[c];
  }
  const QFontMetricsF fh(head, writer_.get());
  QStringList header;
  for (size_t c = 0; c < nc; ++c) header << wrapHeader(t.header[int(c)], fh, w[c] - 2 * pad);
  auto rowHeight = [&](const QStringList& cells, const QFont& f) {
    double h = 0;
    for (size_t c = 0; c < nc && c < size_t(cells.size()); ++c)
      h = std::max(h, textHeight(cells[int(c)], f, w[c] - 2 * pad));
    return h + 2 * pad;
  };
  auto right = [&](size_t c) { return c < t.rightAligned.size() && t.rightAligned[c]; };
  auto drawHeader = [&]() {
    const double h = rowHeight(header, head);
    p.fillRect(QRectF(content_.left(), y_, content_.width(), h), kHeaderFill);
    p.setFont(head);
    p.setPen(kInk);
    for (size_t c = 0; c < nc; ++c) {
      const QRectF cell(x[c] + pad, y_ + pad, w[c] - 2 * pad, h - 2 * pad);
      const int flags = Qt::TextWordWrap | (right(c) ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter;
      p.drawText(cell, flags, header[int(c)]);
      const QRectF laid = fh.boundingRect(QRectF(0, 0, cell.width(), 1e9), flags & ~Qt::AlignVCenter, header[int(c)]);
      layout_.headers.push_back({t.header[int(c)], page_, cell.width(), cell.height(), laid.width(), laid.height(),
                                 int(header[int(c)].count('\n')) + 1});
    }
    y_ += h;
    used();
    p.setPen(QPen(kAccent, mm(0.3)));
    p.drawLine(QPointF(content_.left(), y_), QPointF(content_.right(), y_));
  };
  const double capH = t.caption.isEmpty() ? 0 : textHeight(t.caption, font(pt + 1, true), content_.width()) + mm(1.5);
  ensureSpace(capH + rowHeight(header, head) + (t.rows.empty() ? 0 : rowHeight(t.rows.front(), body)));
  if (!t.caption.isEmpty()) {
    p.setFont(font(pt + 1, true));
    p.setPen(kInk);
    p.drawText(QRectF(content_.left(), y_, content_.width(), capH), Qt::TextWordWrap, t.caption);
    y_ += capH;
  }
  drawHeader();
  for (size_t r = 0; r < t.rows.size(); ++r) {
    const double h = rowHeight(t.rows[r], body);
    if (y_ + h > content_.bottom()) {
      newPage();
      drawHeader();
    }
    if (r % 2 == 1) p.fillRect(QRectF(content_.left(), y_, content_.width(), h), kStripe);
    p.setFont(body);
    p.setPen(kInk);
    for (size_t c = 0; c < nc && c < size_t(t.rows[r].size()); ++c)
      p.drawText(QRectF(x[c] + pad, y_ + pad, w[c] - 2 * pad, h - 2 * pad),
                 Qt::TextWordWrap | (right(c) ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignTop, t.rows[r][int(c)]);
    y_ += h;
    used();
  }
  p.setPen(QPen(kRule, mm(0.25)));
  p.drawLine(QPointF(content_.left(), y_), QPointF(content_.right(), y_));
  used();
  y_ += mm(5);
}

void ReportPage::block(double h, const std::function<void(QPainter&, const QRectF&)>& draw) {
  ensureSpace(h);
  painter_.save();
  draw(painter_, QRectF(content_.left(), y_, content_.width(), h));
  painter_.restore();
  y_ += h;
  used();
  y_ += mm(3);
}

double ReportPage::captionHeight(const QString& caption) const {
  return caption.isEmpty() ? 0.0 : mm(3) + textHeight(caption, font(8), content_.width());
}

void ReportPage::figure(double h, double minH, const std::function<void(QPainter&, const QRectF&)>& draw,
                        const QString& caption, bool captionInside) {
  const double cap = captionInside ? 0.0 : captionHeight(caption);
  const double room = remaining() - cap;
  // Shrink to end this page when the figure nearly fits; a new page otherwise.
  const double drawn = y_ > content_.top() && h > room && room >= minH ? room : h;
  ensureSpace(drawn + cap);
  layout_.figures.push_back({caption, page_, page_, drawn / h});
  block(drawn, draw);
  if (cap > 0) {
    // (the caption's own height was reserved above: no break between them)
    QPainter& p = painter_;
    p.setFont(font(8));
    p.setPen(kMuted);
    const double ch = cap - mm(3);
    p.drawText(QRectF(content_.left(), y_, content_.width(), ch), Qt::TextWordWrap, caption);
    y_ += ch;
    used();
    layout_.figures.back().captionPage = page_;
    y_ += mm(2.5);
  }
}

}  // namespace pm::gui
