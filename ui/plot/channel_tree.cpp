#include "plot/channel_tree.h"

#include "plot/channels.h"
#include "plot/plot_view.h"
#include "plot/run_series.h"

#include <QHeaderView>
#include <QMimeData>
#include <QSet>

namespace rlx::ui {
namespace {

constexpr int kColumnRole = Qt::UserRole;

QString groupTitle(ChannelGroup group) {
  switch (group) {
    case ChannelGroup::Body:
      return QObject::tr("Bodies");
    case ChannelGroup::Joint:
      return QObject::tr("Joints");
    case ChannelGroup::Motion:
      return QObject::tr("Motions");
    case ChannelGroup::Energy:
      return QObject::tr("Energy");
    case ChannelGroup::ConstraintError:
      return QObject::tr("Constraint errors");
    case ChannelGroup::Time:
    case ChannelGroup::Other:
      return QObject::tr("Other");
  }
  return {};
}

// "Bodies/crank" for a group item's place in the tree.
QString pathOf(const QTreeWidgetItem* item) {
  QString path = item->text(0);
  for (const QTreeWidgetItem* p = item->parent(); p; p = p->parent())
    path = p->text(0) + "/" + path;
  return path;
}

}  // namespace

ChannelTree::ChannelTree(QWidget* parent) : QTreeWidget(parent) {
  setColumnCount(2);
  setHeaderLabels({tr("Channel"), tr("Unit")});
  header()->setStretchLastSection(false);
  header()->setSectionResizeMode(0, QHeaderView::Stretch);
  header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
  setSelectionMode(QAbstractItemView::ExtendedSelection);
  setDragEnabled(true);
  setDragDropMode(QAbstractItemView::DragOnly);
  setUniformRowHeights(true);
  setAlternatingRowColors(true);
  connect(this, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item) {
    const QString column = item->data(0, kColumnRole).toString();
    if (!column.isEmpty()) emit channelActivated(column);
  });
}

void ChannelTree::setChannels(const QStringList& columns, const QStringList& units) {
  // Remember which groups were open.
  QSet<QString> expanded;
  const bool first = topLevelItemCount() == 0;
  for (QTreeWidgetItemIterator it(this); *it; ++it)
    if ((*it)->isExpanded()) expanded.insert(pathOf(*it));
  clear();

  // The columns, then the derived channel, each under its group (and element).
  QStringList names = columns;
  QStringList nameUnits = units;
  if (columns.contains("energy") && columns.contains("work_nonconservative") &&
      !columns.contains(kEnergyDrift)) {
    names.append(kEnergyDrift);
    nameUnits.append("J");
  }
  for (int i = 0; i < names.size(); ++i) {
    const ChannelName name = classifyChannel(names[i]);
    if (name.group == ChannelGroup::Time) continue;
    QTreeWidgetItem* parent = group(groupTitle(name.group));
    if (!name.element.isEmpty()) parent = child(parent, name.element);
    auto* item = new QTreeWidgetItem(parent, {name.quantity, nameUnits.value(i)});
    item->setData(0, kColumnRole, names[i]);
    item->setToolTip(0, withUnit(names[i], nameUnits.value(i)) +
                            tr("\nDouble-click or drag onto a plot to add it"));
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsDragEnabled);
  }

  // Groups open as before; on first show, the top level and small groups.
  for (QTreeWidgetItemIterator it(this); *it; ++it) {
    QTreeWidgetItem* item = *it;
    if (item->childCount() == 0) continue;
    const bool small = item->parent() && item->parent()->childCount() <= 2;
    item->setExpanded(first ? (!item->parent() || small) : expanded.contains(pathOf(item)));
  }
}

QStringList ChannelTree::channels() const {
  QStringList out;
  for (QTreeWidgetItemIterator it(const_cast<ChannelTree*>(this)); *it; ++it) {
    const QString column = (*it)->data(0, kColumnRole).toString();
    if (!column.isEmpty()) out.append(column);
  }
  return out;
}

QStringList ChannelTree::selectedChannels() const {
  QStringList out;
  for (const QTreeWidgetItem* item : selectedItems()) {
    const QString column = item->data(0, kColumnRole).toString();
    if (!column.isEmpty()) out.append(column);
  }
  return out;
}

QTreeWidgetItem* ChannelTree::itemOf(const QString& column) const {
  for (QTreeWidgetItemIterator it(const_cast<ChannelTree*>(this)); *it; ++it)
    if ((*it)->data(0, kColumnRole).toString() == column) return *it;
  return nullptr;
}

void ChannelTree::setFilter(const QString& text) {
  // Leaves match by full name; a group shows when any of its leaves does.
  for (QTreeWidgetItemIterator it(this, QTreeWidgetItemIterator::All); *it; ++it) {
    QTreeWidgetItem* item = *it;
    const QString column = item->data(0, kColumnRole).toString();
    if (column.isEmpty()) continue;
    item->setHidden(!column.contains(text, Qt::CaseInsensitive));
  }
  for (int pass = 0; pass < 2; ++pass)
    for (QTreeWidgetItemIterator it(this, QTreeWidgetItemIterator::All); *it; ++it) {
      QTreeWidgetItem* item = *it;
      if (item->childCount() == 0) continue;
      bool any = false;
      for (int c = 0; c < item->childCount(); ++c) any = any || !item->child(c)->isHidden();
      item->setHidden(!any);
      if (!text.isEmpty() && any) item->setExpanded(true);
    }
}

QStringList ChannelTree::mimeTypes() const {
  return {kChannelMimeType};
}

QMimeData* ChannelTree::mimeData(const QList<QTreeWidgetItem*>& items) const {
  for (const QTreeWidgetItem* item : items) {
    const QString column = item->data(0, kColumnRole).toString();
    if (column.isEmpty()) continue;
    auto* mime = new QMimeData;
    mime->setData(kChannelMimeType, column.toUtf8());
    mime->setText(column);
    return mime;
  }
  return nullptr;
}

QTreeWidgetItem* ChannelTree::group(const QString& title) {
  for (int i = 0; i < topLevelItemCount(); ++i)
    if (topLevelItem(i)->text(0) == title) return topLevelItem(i);
  auto* item = new QTreeWidgetItem(this, {title});
  item->setFlags(Qt::ItemIsEnabled);
  QFont bold = item->font(0);
  bold.setBold(true);
  item->setFont(0, bold);
  return item;
}

QTreeWidgetItem* ChannelTree::child(QTreeWidgetItem* parent, const QString& title) {
  for (int i = 0; i < parent->childCount(); ++i)
    if (parent->child(i)->text(0) == title) return parent->child(i);
  auto* item = new QTreeWidgetItem(parent, {title});
  item->setFlags(Qt::ItemIsEnabled);
  return item;
}

}  // namespace rlx::ui
