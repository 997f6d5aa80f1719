#include "timeline/timeline.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>
#include <QStyle>
#include <QToolButton>

#include <algorithm>

namespace rlx::ui {
namespace {

QToolButton* button(QWidget* parent, QStyle::StandardPixmap icon, const QString& tip) {
  auto* b = new QToolButton(parent);
  b->setIcon(parent->style()->standardIcon(icon));
  b->setToolTip(tip);
  b->setAutoRaise(true);
  return b;
}

}  // namespace

Timeline::Timeline(QWidget* parent) : QWidget(parent) {
  back_ = button(this, QStyle::SP_MediaSkipBackward, tr("Previous frame"));
  play_ = button(this, QStyle::SP_MediaPlay, tr("Play (Space)"));
  forward_ = button(this, QStyle::SP_MediaSkipForward, tr("Next frame"));
  loopButton_ = button(this, QStyle::SP_BrowserReload, tr("Loop"));
  loopButton_->setCheckable(true);
  slider_ = new QSlider(Qt::Horizontal, this);
  slider_->setToolTip(tr("Drag to scrub through the frames"));
  speedBox_ = new QComboBox(this);
  for (double s : {0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 10.0}) speedBox_->addItem(QStringLiteral("%1×").arg(s), s);
  speedBox_->setCurrentIndex(3);
  speedBox_->setToolTip(tr("Playback speed relative to real time"));
  label_ = new QLabel(this);
  label_->setMinimumWidth(label_->fontMetrics().horizontalAdvance("t = 00000.000 s   frame 000000 / 000000"));

  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(4, 2, 4, 2);
  for (QWidget* w : std::initializer_list<QWidget*>{back_, play_, forward_, loopButton_}) layout->addWidget(w);
  layout->addWidget(slider_, 1);
  layout->addWidget(speedBox_);
  layout->addWidget(label_);

  timer_.setInterval(16);
  connect(&timer_, &QTimer::timeout, this, &Timeline::tick);
  connect(play_, &QToolButton::clicked, this, [this] { isPlaying() ? pause() : play(); });
  connect(back_, &QToolButton::clicked, this, &Timeline::stepBackward);
  connect(forward_, &QToolButton::clicked, this, &Timeline::stepForward);
  connect(loopButton_, &QToolButton::toggled, this, &Timeline::setLoop);
  connect(slider_, &QSlider::valueChanged, this, &Timeline::setFrame);
  connect(speedBox_, &QComboBox::currentIndexChanged, this, [this] {
    if (isPlaying()) play();  // restart the clock at the new speed
  });
  setTimes({});
}

double Timeline::speed() const { return speedBox_->currentData().toDouble(); }

void Timeline::setTimes(std::vector<double> times) {
  pause();
  times_ = std::move(times);
  frame_ = 0;
  const QSignalBlocker block(slider_);
  slider_->setRange(0, std::max(0, frameCount() - 1));
  slider_->setValue(0);
  setEnabled(!times_.empty());
  updateLabel();
  if (!times_.empty()) emit frameChanged(0, times_[0]);
}

int Timeline::frameAt(double t) const {
  if (times_.empty()) return 0;
  const auto it = std::upper_bound(times_.begin(), times_.end(), t + 1e-12);
  return std::max(0, static_cast<int>(it - times_.begin()) - 1);
}

void Timeline::setFrame(int index) {
  if (times_.empty()) return;
  index = std::clamp(index, 0, frameCount() - 1);
  if (slider_->value() != index) {
    const QSignalBlocker block(slider_);
    slider_->setValue(index);
  }
  if (index == frame_) return;
  frame_ = index;
  updateLabel();
  emit frameChanged(frame_, times_[static_cast<std::size_t>(frame_)]);
}

void Timeline::setTime(double t) { setFrame(frameAt(t)); }

void Timeline::play() {
  if (times_.size() < 2) return;
  if (frame_ == frameCount() - 1) setFrame(0);
  playStart_ = times_[static_cast<std::size_t>(frame_)];
  clock_.start();
  timer_.start();
  play_->setIcon(style()->standardIcon(QStyle::SP_MediaPause));
  play_->setToolTip(tr("Pause (Space)"));
}

void Timeline::pause() {
  timer_.stop();
  play_->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
  play_->setToolTip(tr("Play (Space)"));
}

void Timeline::stepForward() {
  pause();
  setFrame(frame_ + 1);
}

void Timeline::stepBackward() {
  pause();
  setFrame(frame_ - 1);
}

void Timeline::setLoop(bool loop) {
  loop_ = loop;
  if (loopButton_->isChecked() != loop) loopButton_->setChecked(loop);
}

void Timeline::tick() {
  const double t = playStart_ + speed() * static_cast<double>(clock_.nsecsElapsed()) * 1e-9;
  if (t >= times_.back()) {
    if (loop_) {
      setFrame(0);
      playStart_ = times_.front();
      clock_.restart();
      return;
    }
    setFrame(frameCount() - 1);
    pause();
    return;
  }
  setFrame(frameAt(t));
}

void Timeline::updateLabel() {
  const double t = times_.empty() ? 0.0 : times_[static_cast<std::size_t>(frame_)];
  label_->setText(tr("t = %1 s   frame %2 / %3")
                      .arg(t, 0, 'f', 3)
                      .arg(times_.empty() ? 0 : frame_ + 1)
                      .arg(frameCount()));
}

}  // namespace rlx::ui
