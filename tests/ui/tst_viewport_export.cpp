// Animation export from the viewport: a PNG frame sequence (files of the widget's size, not
// blank, different from frame to frame) and an Ogg Theora video (an Ogg stream); cancelling stops
// the export, removes the partial video and keeps the previous file of that name.
#include "injected_fault.h"
#include "test_support.h"
#include "viewport/animation_export.h"
#include "viewport/viewport.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace rlx;
using namespace rlx::ui;

class TestViewportExport : public QObject {
  Q_OBJECT

 public:
  static void initMain() { Viewport::setDefaultSurfaceFormat(); }

 private slots:
  void init();
  void cleanup() { view_.reset(); }
  void pngSequence();
  void video_data();
  void video();
  void cancelRemovesThePartialVideo();
  void failedVideoKeepsThePreviousFile();

 private:
  // Frame k: the four-bar's crank turned by k x 30 degrees (rigidly, for the picture only).
  void showFrame(int k);
  std::unique_ptr<Viewport> view_;
  Model model_;
};

void TestViewportExport::init() {
  view_ = std::make_unique<Viewport>();
  view_->resize(320, 240);
  const Spec spec = test::loadSpec(test::examplePath("four_bar.rlx"));
  model_ = test::compileOrFail(spec);
  view_->setModel(spec, &model_);
  view_->show();
  QVERIFY(QTest::qWaitForWindowExposed(view_.get()));
}

void TestViewportExport::showFrame(int k) {
  State state{0.1 * k, model_.q0, model_.v0};
  state.q(model_.bodies[0].q + 2) += k * M_PI / 6;
  Frame frame;
  frame.state = state;
  view_->setFrame(frame);
}

void TestViewportExport::pngSequence() {
  QTemporaryDir dir;
  AnimationExporter exporter;
  QSignalSpy progress(&exporter, &AnimationExporter::progress);
  QString error;
  const AnimationExportOptions options{AnimationFormat::PngSequence, dir.path() + "/frames", 3, 30};
  QVERIFY2(exporter.run(
               *view_, options, [&](int k) { showFrame(k); }, &error),
           qPrintable(error));
  QCOMPARE(progress.count(), 3);
  QCOMPARE(progress.last()[0].toInt(), 3);
  QImage previous;
  for (int k = 0; k < 3; ++k) {
    const QImage image(dir.path() +
                       QStringLiteral("/frames/frame_%1.png").arg(k, 4, 10, QChar('0')));
    QVERIFY(!image.isNull());
    QCOMPARE(image.size(), view_->size() * view_->devicePixelRatio());
    // Not blank: the bodies' colours are there, and the picture changes with the frame.
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 2)
      for (int x = 0; x < image.width(); x += 2) colours.insert(image.pixel(x, y));
    QVERIFY(colours.size() > 20);
    if (k > 0) QVERIFY(image != previous);
    previous = image;
  }
}

// Each video format: a file of six frames that starts with its container's signature.
void TestViewportExport::video_data() {
  QTest::addColumn<int>("format");
  QTest::addColumn<QString>("file");
  QTest::addColumn<int>("signatureAt");
  QTest::addColumn<QByteArray>("signature");
  QTest::newRow("ogg theora") << int(AnimationFormat::OggTheora) << "four_bar.ogv" << 0
                              << QByteArray("OggS");
  QTest::newRow("mp4 (ffmpeg)") << int(AnimationFormat::Mp4) << "four_bar.mp4" << 4
                                << QByteArray("ftyp");  // an ISO media file
}

void TestViewportExport::video() {
  QFETCH(int, format);
  QFETCH(QString, file);
  QFETCH(int, signatureAt);
  QFETCH(QByteArray, signature);
  if (format == int(AnimationFormat::Mp4) && !AnimationExporter::ffmpegAvailable())
    QSKIP("no ffmpeg program on PATH");
  QTemporaryDir dir;
  AnimationExporter exporter;
  QString error;
  const QString path = dir.path() + "/" + file;
  const AnimationExportOptions options{AnimationFormat(format), path, 6, 10};
  QVERIFY2(exporter.run(
               *view_, options, [&](int k) { showFrame(k); }, &error),
           qPrintable(error));
  QFile video(path);
  QVERIFY(video.open(QIODevice::ReadOnly));
  QVERIFY(video.size() > 1000);
  QCOMPARE(video.read(signatureAt + signature.size()).mid(signatureAt), signature);
}

void TestViewportExport::cancelRemovesThePartialVideo() {
  QTemporaryDir dir;
  AnimationExporter exporter;
  QString error;
  const QString path = dir.path() + "/cancelled.ogv";
  QFile previous(path);
  QVERIFY(previous.open(QIODevice::WriteOnly) && previous.write("the previous video") > 0);
  previous.close();
  const AnimationExportOptions options{AnimationFormat::OggTheora, path, 10, 10};
  const bool ok = exporter.run(
      *view_, options,
      [&](int k) {
        showFrame(k);
        if (k == 2) exporter.cancel();
      },
      &error);
  QVERIFY(!ok);
  QCOMPARE(error, QString("export cancelled after 3 of 10 frames"));
  QVERIFY(previous.open(QIODevice::ReadOnly));
  QCOMPARE(previous.readAll(), QByteArray("the previous video"));
  QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{"cancelled.ogv"});
}

// The finished video cannot replace the previous file (the rename fails, injected by the
// preloaded tests/faults/write_faults.c): the previous file stays and the error says so.
void TestViewportExport::failedVideoKeepsThePreviousFile() {
  QVERIFY2(test::faultInjectionWorks(), "tests/faults/write_faults.c is not preloaded");
  QTemporaryDir dir;
  const QString path = dir.path() + "/refused.ogv";
  QFile previous(path);
  QVERIFY(previous.open(QIODevice::WriteOnly) && previous.write("the previous video") > 0);
  previous.close();
  AnimationExporter exporter;
  QString error;
  const AnimationExportOptions options{AnimationFormat::OggTheora, path, 3, 10};
  {
    const test::InjectedFault fault(dir.path(), "rename:EACCES");
    QVERIFY(!exporter.run(*view_, options, [&](int k) { showFrame(k); }, &error));
  }
  QCOMPARE(error, "cannot save \"" + path +
                      "\": the video could not be completed; the previous file is kept");
  QVERIFY(previous.open(QIODevice::ReadOnly));
  QCOMPARE(previous.readAll(), QByteArray("the previous video"));
  QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{"refused.ogv"});
}

QTEST_MAIN(TestViewportExport)
#include "tst_viewport_export.moc"
