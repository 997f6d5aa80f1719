#include "docks/model_tree.h"

#include "document/commands.h"

#include <QHeaderView>
#include <QKeyEvent>
#include <QMessageBox>

namespace rlx::ui {
namespace {

constexpr int kKindRole = Qt::UserRole;
constexpr int kNameRole = Qt::UserRole + 1;
constexpr int kAnalysisItem = -1;

struct Group {
  ElementKind kind;
  const char* title;
};
constexpr Group kGroups[] = {{ElementKind::Parameter, "Parameters"}, {ElementKind::Body, "Bodies"},
                             {ElementKind::Joint, "Joints"},         {ElementKind::Motion, "Motions"},
                             {ElementKind::Force, "Forces"},
                             {ElementKind::Constraint, "Constraints"}};

QString detail(const Spec& spec, const ElementId& id) {
  switch (id.kind) {
    case ElementKind::Joint:
      for (const JointSpec& j : spec.joints)
        if (j.name == id.name)
          return QStringLiteral("%1: %2 – %3").arg(jointTypeName(j.type), QString::fromStdString(j.body1),
                                                   QString::fromStdString(j.body2));
      break;
    case ElementKind::Force:
      for (const ForceSpec& f : spec.forces)
        if (f.name == id.name) return forceTypeName(f.type);
      break;
    case ElementKind::Motion:
      for (const MotionSpec& m : spec.motions)
        if (m.name == id.name) return QString::fromStdString(m.function);
      break;
    case ElementKind::Body:
      for (const BodySpec& b : spec.bodies)
        if (b.name == id.name) return QString::fromStdString(b.shape.type);
      break;
    case ElementKind::Parameter:
      for (const Parameter& p : spec.parameters)
        if (p.name == id.name)
          return p.value.expression.empty() ? QString::number(p.value.value, 'g', 10)
                                            : QString::fromStdString(p.value.expression);
      break;
    case ElementKind::Constraint:
      for (const ConstraintSpec& c : spec.constraints)
        if (c.name == id.name) return constraintTypeName(c.type);
      break;
  }
  return {};
}

}  // namespace

ModelTree::ModelTree(Document* document, Selection* selection, QWidget* parent)
    : QTreeWidget(parent), document_(document), selection_(selection) {
  setColumnCount(2);
  setHeaderLabels({tr("Element"), tr("Details")});
  header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
  setSelectionMode(QAbstractItemView::ExtendedSelection);
  setEditTriggers(QAbstractItemView::EditKeyPressed | QAbstractItemView::SelectedClicked);
  connect(document_, &Document::specChanged, this, &ModelTree::rebuild);
  connect(selection_, &Selection::changed, this, &ModelTree::showSelection);
  connect(this, &QTreeWidget::itemSelectionChanged, this, &ModelTree::takeSelection);
  connect(this, &QTreeWidget::itemChanged, this, &ModelTree::renamed);
  connect(this, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item) {
    if (item->data(0, kKindRole).toInt() == kAnalysisItem) emit analysisRequested();
  });
  rebuild();
}

QTreeWidgetItem* ModelTree::itemOf(const ElementId& id) const {
  for (QTreeWidgetItemIterator it(const_cast<ModelTree*>(this)); *it; ++it)
    if ((*it)->parent() && (*it)->data(0, kKindRole).toInt() == static_cast<int>(id.kind) &&
        (*it)->data(0, kNameRole).toString().toStdString() == id.name)
      return *it;
  return nullptr;
}

void ModelTree::rebuild() {
  syncing_ = true;
  const Spec& spec = document_->spec();
  clear();
  for (const Group& group : kGroups) {
    auto* top = new QTreeWidgetItem(this, {tr(group.title)});
    top->setFlags(Qt::ItemIsEnabled);
    QFont bold = top->font(0);
    bold.setBold(true);
    top->setFont(0, bold);
    for (const ElementId& id : elements(spec)) {
      if (id.kind != group.kind) continue;
      auto* item = new QTreeWidgetItem(top, {QString::fromStdString(id.name), detail(spec, id)});
      item->setData(0, kKindRole, static_cast<int>(id.kind));
      item->setData(0, kNameRole, QString::fromStdString(id.name));
      item->setFlags(item->flags() | Qt::ItemIsEditable);
    }
    top->setText(1, top->childCount() ? QString::number(top->childCount()) : QString());
    top->setExpanded(top->childCount() > 0);
  }
  auto* analysis = new QTreeWidgetItem(this, {tr("Analysis")});
  analysis->setData(0, kKindRole, kAnalysisItem);
  if (spec.analysis) analysis->setText(1, analysisTypeName(spec.analysis->type));
  syncing_ = false;
  showSelection();
}

void ModelTree::showSelection() {
  syncing_ = true;
  clearSelection();
  for (const ElementId& id : selection_->ids())
    if (QTreeWidgetItem* item = itemOf(id)) {
      item->setSelected(true);
      scrollToItem(item);
    }
  syncing_ = false;
}

void ModelTree::takeSelection() {
  if (syncing_) return;
  std::vector<ElementId> ids;
  for (QTreeWidgetItem* item : selectedItems()) {
    const int kind = item->data(0, kKindRole).toInt();
    if (!item->parent() || kind == kAnalysisItem) continue;
    ids.push_back({static_cast<ElementKind>(kind), item->data(0, kNameRole).toString().toStdString()});
  }
  selection_->set(ids);
}

void ModelTree::renamed(QTreeWidgetItem* item) {
  if (syncing_ || !item->parent()) return;
  const ElementId id{static_cast<ElementKind>(item->data(0, kKindRole).toInt()),
                     item->data(0, kNameRole).toString().toStdString()};
  const std::string newName = item->text(0).trimmed().toStdString();
  // The edit rebuilds the tree, so it runs after this item's signal has returned.
  QMetaObject::invokeMethod(this, [this, id, newName] { rename(id, newName); }, Qt::QueuedConnection);
}

void ModelTree::rename(const ElementId& id, const std::string& newName) {
  const Diagnostics refused = pushRename(document_, id, newName);
  if (refused.empty()) return;
  QMessageBox::warning(this, tr("Rename"), QString::fromStdString(refused.front().text()));
  rebuild();
}

}  // namespace rlx::ui
