#include "document/autosave.h"

#include "io/atomic_write.h"
#include "io/model_file.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QUuid>

#include <algorithm>
#include <csignal>

namespace rlx::ui {
namespace {

QString metaPath(const QString& modelPath) {
  return modelPath.left(modelPath.size() - 4) + ".json";
}

bool processRuns(qint64 pid) { return pid > 0 && ::kill(static_cast<pid_t>(pid), 0) == 0; }

}  // namespace

QString Autosave::defaultFolder() {
  return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + "/recovery";
}

Autosave::Autosave(Document* document, QString folder, int intervalMs, QObject* parent)
    : QObject(parent),
      document_(document),
      folder_(std::move(folder)),
      session_(QUuid::createUuid().toString(QUuid::WithoutBraces)) {
  QDir().mkpath(folder_);
  timer_.setInterval(intervalMs);
  connect(&timer_, &QTimer::timeout, this, &Autosave::saveNow);
  connect(document_->undoStack(), &QUndoStack::cleanChanged, this, [this](bool clean) {
    if (clean) remove();
  });
  timer_.start();
}

Autosave::~Autosave() { remove(); }

void Autosave::saveNow() {
  if (!document_->isModified()) {
    remove();
    return;
  }
  std::string error;
  if (!saveRlxFile(document_->spec(), recoveryPath().toStdString(), &error)) {
    emit failed(QString::fromStdString(error));
    return;
  }
  QJsonObject meta{{"file", document_->filePath()},
                   {"pid", QCoreApplication::applicationPid()},
                   {"time", QDateTime::currentDateTime().toString(Qt::ISODate)}};
  if (!writeFileAtomically(metaPath(recoveryPath()).toStdString(),
                           QJsonDocument(meta).toJson().toStdString(), &error))
    emit failed(QString::fromStdString(error));
}

void Autosave::remove() {
  QFile::remove(recoveryPath());
  QFile::remove(metaPath(recoveryPath()));
}

std::vector<Recovery> Autosave::leftBehind(const QString& folder) {
  std::vector<Recovery> out;
  for (const QFileInfo& info : QDir(folder).entryInfoList({"*.rlx"}, QDir::Files)) {
    QFile file(metaPath(info.absoluteFilePath()));
    if (!file.open(QIODevice::ReadOnly)) continue;
    const QJsonObject meta = QJsonDocument::fromJson(file.readAll()).object();
    if (processRuns(meta.value("pid").toInteger())) continue;  // another instance's live work
    out.push_back({info.absoluteFilePath(), meta.value("file").toString(),
                   QDateTime::fromString(meta.value("time").toString(), Qt::ISODate)});
  }
  std::sort(out.begin(), out.end(),
            [](const Recovery& a, const Recovery& b) { return a.time > b.time; });
  return out;
}

void Autosave::discard(const Recovery& recovery) {
  QFile::remove(recovery.modelPath);
  QFile::remove(metaPath(recovery.modelPath));
}

}  // namespace rlx::ui
