#pragma once
// The result channels as a tree: Bodies -> each body -> x, y, angle, ...; Joints -> each joint ->
// fx, fy, tz; Motions -> efforts; Energy (with the derived energy_drift); Constraint errors.
// Units in the second column. Double-click or Enter on a channel (channelActivated), or drag it
// onto a PlotView.

#include <QStringList>
#include <QTreeWidget>

namespace rlx::ui {

class ChannelTree : public QTreeWidget {
  Q_OBJECT
 public:
  explicit ChannelTree(QWidget* parent = nullptr);

  // Shows these columns (CSV names, one unit each); energy_drift is added when energy and
  // work_nonconservative are there. Expanded groups stay expanded.
  void setChannels(const QStringList& columns, const QStringList& units);

  // The channel names shown, in order (leaves only).
  QStringList channels() const;
  // The selected channels.
  QStringList selectedChannels() const;
  // The item of a channel, or null.
  QTreeWidgetItem* itemOf(const QString& column) const;

  // Shows only the channels whose full name contains `text` (case-insensitive).
  void setFilter(const QString& text);

 signals:
  void channelActivated(const QString& column);

 protected:
  QStringList mimeTypes() const override;
  QMimeData* mimeData(const QList<QTreeWidgetItem*>& items) const override;

 private:
  QTreeWidgetItem* group(const QString& title);
  QTreeWidgetItem* child(QTreeWidgetItem* parent, const QString& title);
};

}  // namespace rlx::ui
