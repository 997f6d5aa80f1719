#include "viewport/animation_export.h"

#include "io/atomic_write.h"
#include "viewport/viewport.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QProcess>
#include <QStandardPaths>

#include <vtkImageData.h>
#include <vtkOggTheoraWriter.h>
#include <vtkSmartPointer.h>

#include <fcntl.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <memory>

namespace rlx::ui {
namespace {

// Video encoders want even sizes: drop a last odd row or column.
QImage evenRgb(const QImage& image) {
  const QImage rgb = image.convertToFormat(QImage::Format_RGB888);
  return rgb.copy(0, 0, rgb.width() & ~1, rgb.height() & ~1);
}

// A frame into VTK's image (rows bottom-up).
void copyToVtk(const QImage& rgb, vtkImageData* image) {
  auto* out = static_cast<unsigned char*>(image->GetScalarPointer());
  const int w = rgb.width(), h = rgb.height();
  for (int y = 0; y < h; ++y)
    std::memcpy(out + static_cast<std::size_t>(y) * static_cast<std::size_t>(w) * 3,
                rgb.constScanLine(h - 1 - y), static_cast<std::size_t>(w) * 3);
  image->Modified();
}

// Where a video is written until it is complete: ".<name>.<pid>.partial.<suffix>" beside it (the
// suffix tells ffmpeg the format), so that a failed or cancelled export keeps the previous file.
QString partialPath(const QString& path) {
  const QFileInfo info(path);
  return info.dir().filePath(QStringLiteral(".%1.%2.partial.%3")
                                 .arg(info.fileName())
                                 .arg(QCoreApplication::applicationPid())
                                 .arg(info.suffix()));
}

// Syncs the complete video and renames it over `path`; on failure removes it and says so.
bool replaceWith(const QString& partial, const QString& path, QString* error) {
  const QByteArray from = QFile::encodeName(partial);
  const int fd = ::open(from.constData(), O_RDONLY | O_CLOEXEC);
  const bool synced = fd >= 0 && ::fsync(fd) == 0;
  if (fd >= 0) ::close(fd);
  std::error_code code;
  if (synced) std::filesystem::rename(from.constData(), QFile::encodeName(path).constData(), code);
  if (synced && !code) return true;
  QFile::remove(partial);
  *error = QStringLiteral("cannot save \"%1\": the video could not be completed%2")
               .arg(path, QFileInfo(path).isFile() ? "; the previous file is kept" : "");
  return false;
}

// One sink per format: open with the first frame's size, write frames, close.
class Sink {
 public:
  virtual ~Sink() = default;
  virtual bool open(const QSize& size, QString* error) = 0;
  virtual bool write(const QImage& frame, int index, QString* error) = 0;
  virtual bool close(QString* error) = 0;
  virtual void abort() = 0;
};

class PngSink : public Sink {
 public:
  explicit PngSink(QString dir) : dir_(std::move(dir)) {}
  bool open(const QSize&, QString* error) override {
    if (QDir().mkpath(dir_)) return true;
    *error = QStringLiteral("cannot create the folder %1").arg(dir_);
    return false;
  }
  bool write(const QImage& frame, int index, QString* error) override {
    const QString file =
        QDir(dir_).filePath(QStringLiteral("frame_%1.png").arg(index, 4, 10, QChar('0')));
    QBuffer png;
    png.open(QIODevice::WriteOnly);
    if (!frame.save(&png, "PNG")) {
      *error = QStringLiteral("cannot encode %1 as PNG").arg(file);
      return false;
    }
    std::string message;
    if (writeFileAtomically(file.toStdString(), png.data().toStdString(), &message)) return true;
    *error = QString::fromStdString(message);
    return false;
  }
  bool close(QString*) override { return true; }
  void abort() override {}

 private:
  QString dir_;
};

class OggSink : public Sink {
 public:
  OggSink(QString path, double fps)
      : path_(std::move(path)), partial_(partialPath(path_)), fps_(fps) {}
  bool open(const QSize& size, QString*) override {
    image_ = vtkSmartPointer<vtkImageData>::New();
    image_->SetDimensions(size.width(), size.height(), 1);
    image_->AllocateScalars(VTK_UNSIGNED_CHAR, 3);
    writer_ = vtkSmartPointer<vtkOggTheoraWriter>::New();
    writer_->SetInputData(image_);
    writer_->SetFileName(QFile::encodeName(partial_).constData());
    writer_->SetRate(static_cast<int>(fps_ + 0.5));
    writer_->SetQuality(2);
    writer_->SetSubsampling(1);
    writer_->Start();
    return true;
  }
  bool write(const QImage& frame, int, QString* error) override {
    copyToVtk(frame, image_);
    writer_->Write();
    if (writer_->GetError()) {
      *error = QStringLiteral("the Ogg Theora writer failed on %1").arg(path_);
      return false;
    }
    return true;
  }
  bool close(QString* error) override {
    writer_->End();
    if (QFile(partial_).size() > 0) return replaceWith(partial_, path_, error);
    QFile::remove(partial_);
    *error = QStringLiteral("the Ogg Theora writer produced no data for %1").arg(path_);
    return false;
  }
  void abort() override {
    if (writer_) writer_->End();
    QFile::remove(partial_);
  }

 private:
  QString path_, partial_;
  double fps_;
  vtkSmartPointer<vtkImageData> image_;
  vtkSmartPointer<vtkOggTheoraWriter> writer_;
};

class FfmpegSink : public Sink {
 public:
  FfmpegSink(QString path, double fps)
      : path_(std::move(path)), partial_(partialPath(path_)), fps_(fps) {}
  bool open(const QSize& size, QString* error) override {
    const QString program = AnimationExporter::ffmpegPath();
    if (program.isEmpty()) {
      *error = QStringLiteral("MP4 export needs the ffmpeg program, which was not found on PATH");
      return false;
    }
    process_.setProgram(program);
    process_.setArguments({"-y", "-loglevel", "error", "-f", "rawvideo", "-pix_fmt", "rgb24", "-s",
                           QStringLiteral("%1x%2").arg(size.width()).arg(size.height()), "-r",
                           QString::number(fps_), "-i", "-", "-c:v", "libx264", "-pix_fmt",
                           "yuv420p", partial_});
    process_.start();
    if (process_.waitForStarted(10000)) return true;
    *error = QStringLiteral("cannot start %1: %2").arg(program, process_.errorString());
    return false;
  }
  bool write(const QImage& frame, int, QString* error) override {
    for (int y = 0; y < frame.height(); ++y)
      process_.write(reinterpret_cast<const char*>(frame.constScanLine(y)), frame.width() * 3);
    if (process_.waitForBytesWritten(30000) || process_.bytesToWrite() == 0) return true;
    *error = QStringLiteral("ffmpeg stopped reading frames: %1")
                 .arg(QString::fromUtf8(process_.readAllStandardError()));
    return false;
  }
  bool close(QString* error) override {
    process_.closeWriteChannel();
    process_.waitForFinished(120000);
    if (process_.exitStatus() == QProcess::NormalExit && process_.exitCode() == 0)
      return replaceWith(partial_, path_, error);
    QFile::remove(partial_);
    *error = QStringLiteral("ffmpeg failed: %1")
                 .arg(QString::fromUtf8(process_.readAllStandardError()).trimmed());
    return false;
  }
  void abort() override {
    process_.kill();
    process_.waitForFinished(5000);
    QFile::remove(partial_);
  }

 private:
  QString path_, partial_;
  double fps_;
  QProcess process_;
};

}  // namespace

QString AnimationExporter::ffmpegPath() {
  return QStandardPaths::findExecutable("ffmpeg");
}

bool AnimationExporter::ffmpegAvailable() {
  return !ffmpegPath().isEmpty();
}

bool AnimationExporter::run(Viewport& viewport, const AnimationExportOptions& options,
                            const ShowFrame& showFrame, QString* error) {
  cancelled_ = false;
  std::unique_ptr<Sink> sink;
  switch (options.format) {
    case AnimationFormat::PngSequence:
      sink = std::make_unique<PngSink>(options.path);
      break;
    case AnimationFormat::OggTheora:
      sink = std::make_unique<OggSink>(options.path, options.fps);
      break;
    case AnimationFormat::Mp4:
      sink = std::make_unique<FfmpegSink>(options.path, options.fps);
      break;
  }
  const bool video = options.format != AnimationFormat::PngSequence;
  QSize size;
  for (int k = 0; k < options.frameCount; ++k) {
    // Show the frame, render it, hand it to the sink; let the UI breathe between frames.
    showFrame(k);
    QImage frame = viewport.grabFrame();
    if (video) frame = evenRgb(frame);
    if (k == 0) {
      size = frame.size();
      if (!sink->open(size, error)) return false;
    } else if (frame.size() != size) {
      frame = frame.scaled(size);
    }
    if (!sink->write(frame, k, error)) {
      sink->abort();
      return false;
    }
    emit progress(k + 1, options.frameCount);
    QCoreApplication::processEvents();
    if (cancelled_) {
      sink->abort();
      *error = QStringLiteral("export cancelled after %1 of %2 frames")
                   .arg(k + 1)
                   .arg(options.frameCount);
      return false;
    }
  }
  if (options.frameCount == 0) {
    *error = QStringLiteral("there are no frames to export");
    return false;
  }
  return sink->close(error);
}

}  // namespace rlx::ui
