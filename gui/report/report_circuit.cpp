#include "report_circuit.h"

#include "document.h"
#include "schematic_scene.h"

namespace pm::gui {

namespace {

class PrintScene : public SchematicScene {
 public:
  explicit PrintScene(Document* doc) : SchematicScene(doc) {}

 protected:
  void drawBackground(QPainter* p, const QRectF& rect) override { p->fillRect(rect, Qt::white); }
};

}  // namespace

QRectF circuitBounds(const Project& project) {
  if (project.components.empty()) return {};
  Document doc;
  doc.reset(project, QString());
  PrintScene scene(&doc);
  scene.sync();
  return scene.drawingBounds();
}

void paintCircuit(QPainter& p, const Project& project, const QRectF& target) {
  if (project.components.empty()) return;
  Document doc;
  doc.reset(project, QString());
  PrintScene scene(&doc);
  scene.sync();
  const QRectF src = scene.drawingBounds().adjusted(-5, -5, 5, 5);
  scene.render(&p, target, src, Qt::KeepAspectRatio);
}

}  // namespace pm::gui
