#pragma once
// The timeline bar: play, pause, step, loop, speed, a slider that scrubs to any frame, and the
// current time. Playback runs in real time scaled by the speed: each tick shows the last frame at
// or before the playback clock.

#include <QElapsedTimer>
#include <QTimer>
#include <QWidget>

#include <vector>

class QComboBox;
class QLabel;
class QSlider;
class QToolButton;

namespace rlx::ui {

class Timeline : public QWidget {
  Q_OBJECT
 public:
  explicit Timeline(QWidget* parent = nullptr);

  // The frame times of the shown run (ascending); shows frame 0.
  void setTimes(std::vector<double> times);
  int frame() const { return frame_; }
  int frameCount() const { return static_cast<int>(times_.size()); }
  bool isPlaying() const { return timer_.isActive(); }
  double speed() const;

  // The frame at or just before time t.
  int frameAt(double t) const;

 public slots:
  void setFrame(int index);  // scrub: emits frameChanged when it changes
  void setTime(double t);    // the frame at or before t
  void play();
  void pause();
  void stepForward();
  void stepBackward();
  void setLoop(bool loop);

 signals:
  void frameChanged(int index, double t);

 private:
  void tick();
  void updateLabel();

  std::vector<double> times_;
  int frame_ = 0;
  bool loop_ = false;
  double playStart_ = 0.0;  // simulation time when play was pressed
  QElapsedTimer clock_;
  QTimer timer_;
  QToolButton *play_, *back_, *forward_, *loopButton_;
  QSlider* slider_;
  QComboBox* speedBox_;
  QLabel* label_;
};

}  // namespace rlx::ui
