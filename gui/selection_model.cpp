#include "selection_model.h"

namespace pm::gui {

void SelectionModel::select(const QString& id) {
  if (id == current_) return;
  current_ = id;
  emit changed(current_);
}

}  // namespace pm::gui
