#pragma once
// Periodic autosave of unsaved work to a recovery folder, and recovery after a crash.
//
// While the document has unsaved edits, every `interval` its spec is written atomically to
// <folder>/<session>.rlx with <folder>/<session>.json beside it ({"file": the document's path,
// "pid": this process, "time": ISO time}). Saving the document or closing cleanly removes both.
// Files whose process no longer runs were left by a crash and are offered back at start-up.
// An autosave that fails keeps the previous recovery files and emits failed().

#include "document/document.h"

#include <QDateTime>
#include <QObject>
#include <QString>
#include <QTimer>

#include <vector>

namespace rlx::ui {

struct Recovery {
  QString modelPath;     // the recovery .rlx
  QString originalPath;  // the file the edits belong to ("" for an unsaved model)
  QDateTime time;        // when it was written
};

class Autosave : public QObject {
  Q_OBJECT
 public:
  // The default folder: the application's data location + "/recovery".
  static QString defaultFolder();

  Autosave(Document* document, QString folder, int intervalMs = 30000, QObject* parent = nullptr);
  ~Autosave() override;  // a clean exit leaves no recovery file

  // Writes the recovery file now if there are unsaved edits (else removes it).
  void saveNow();
  QString recoveryPath() const { return folder_ + "/" + session_ + ".rlx"; }

  // Recovery files left by processes that no longer run, newest first.
  static std::vector<Recovery> leftBehind(const QString& folder);
  // Deletes a recovery (after it was restored or declined).
  static void discard(const Recovery& recovery);

 signals:
  // The recovery file could not be written: `message` names it and gives the reason.
  void failed(const QString& message);

 private:
  void remove();

  Document* document_;
  QString folder_, session_;
  QTimer timer_;
};

}  // namespace rlx::ui
