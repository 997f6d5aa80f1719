#pragma once
// Export of an animation from the viewport: a PNG frame sequence, an Ogg Theora video (VTK's
// writer) or an MP4 video (through an `ffmpeg` program on PATH, fed raw RGB frames). The caller
// says how to show frame k; the exporter renders each one, reports progress and can be cancelled.

#include <QObject>
#include <QString>

#include <functional>

namespace rlx::ui {

class Viewport;

enum class AnimationFormat { PngSequence, OggTheora, Mp4 };

struct AnimationExportOptions {
  AnimationFormat format = AnimationFormat::PngSequence;
  QString path;        // PNG: a directory (frame_0000.png, ...); video: the file
  int frameCount = 0;  // frames 0 .. frameCount - 1
  double fps = 30.0;
};

class AnimationExporter : public QObject {
  Q_OBJECT
 public:
  using ShowFrame = std::function<void(int frame)>;

  explicit AnimationExporter(QObject* parent = nullptr) : QObject(parent) {}

  // Renders every frame of `viewport` after showFrame(k). Returns false with *error on failure
  // or cancellation (a partial file is removed; written PNG frames stay).
  bool run(Viewport& viewport, const AnimationExportOptions& options, const ShowFrame& showFrame,
           QString* error);

  static bool ffmpegAvailable();
  static QString ffmpegPath();

 public slots:
  void cancel() { cancelled_ = true; }

 signals:
  void progress(int done, int total);

 private:
  bool cancelled_ = false;
};

}  // namespace rlx::ui
