#pragma once
// The 3-D view of a mechanism: a QOpenGLWidget hosting a vtkGenericOpenGLRenderWindow (VTK
// renders into its own framebuffer with the widget's context; paintGL blits it into the widget's
// default framebuffer). It shows a Spec/Model/State through its SceneSync and reports what the
// user asks for as signals; it never edits a document. Renders only when something changed.
//
// Mouse (planar mode): left = the tool (select / drag a body / build), middle or right drag =
// pan, wheel = zoom about the mouse. Spatial mode: right drag = rotate (trackball), middle = pan,
// wheel = zoom. Escape cancels the current tool action. The view moves only by fitToModel, the
// wheel and panning, never by itself while the user builds.
//
// Building tools snap to feature points (snapping.h) within 10 pixels, then to the grid; a hover
// marker shows the snapped point and what a click would make, and hintChanged tells the status
// bar the tool's next step.

#include "model/model.h"
#include "model/spec.h"
#include "results/results.h"
#include "viewport/snapping.h"
#include "viewport/viewport_types.h"

#include <QImage>
#include <QOpenGLWidget>
#include <QPointF>
#include <QStringList>
#include <QVector3D>

#include <vtkSmartPointer.h>
#include <Eigen/Dense>

#include <memory>
#include <optional>

class vtkActor;
class vtkGenericOpenGLRenderWindow;
class vtkPolyData;
class vtkRenderer;
class vtkTextActor;

namespace rlx::ui {

class SceneSync;

class Viewport : public QOpenGLWidget {
  Q_OBJECT
 public:
  explicit Viewport(QWidget* parent = nullptr);
  ~Viewport() override;

  // OpenGL 3.2 core, depth 24, stencil 8, 4x multisampling: call before QApplication exists.
  static void setDefaultSurfaceFormat();

  // Anti-aliasing samples of VTK's render framebuffer (default 4; 0 is much faster with software
  // OpenGL). Takes effect before the first frame.
  void setMultiSamples(int samples);

  // Rebuilds; fits the view only on the first model and when the dimension changes.
  void setModel(const Spec& spec, const Model* model);
  void setState(const State& state);                    // moves the actors only
  void setFrame(const Frame& frame);                    // state, time text and reaction arrows
  const State& state() const;
  // Hides the last run's overlays: time text, reaction arrows, trace history.
  void clearFrame();
  void setSelection(const QStringList& names);

  void setTool(Tool tool);
  Tool tool() const { return tool_; }
  void setViewMode(ViewMode mode);
  ViewMode viewMode() const { return mode_; }
  void fitToModel();

  void setGridVisible(bool visible);
  void setSnapToGrid(bool snap) { snap_ = snap; }
  // When on (default), a bar drawn from or to another body's end or centre is pinned there.
  void setPinBarEnds(bool pin) { pinBarEnds_ = pin; }
  void setGridSpacing(double spacing);
  void setShowReactions(bool show);
  void setReactionScale(double metresPerNewton);
  void setShowTime(bool show);
  void setTraces(const QList<TracePoint>& points);
  void setTraceHistory(const std::vector<Frame>* frames, int current);
  // When on (default), dragging a body runs the drag assembly here and shows it live.
  void setLiveDrag(bool live) { liveDrag_ = live; }

  // Renders now (synchronously) and returns the picture: for export and tests.
  QImage grabFrame();
  // Renders into VTK's framebuffer without presenting (benchmarks); update() presents it.
  void renderNow();

  // Coordinates: the global point (z = 0 plane in planar mode) under a widget position, and back.
  QVector3D worldAt(const QPointF& widgetPos) const;
  QPointF widgetPosOf(const QVector3D& world) const;
  // The element under a widget position, or empty.
  QString elementAt(const QPointF& widgetPos) const;
  // The direction the camera looks along (global, unit); -z in the planar view.
  QVector3D viewDirection() const;
  // The current tool's next step and what a click at the last hovered point would make.
  QString hint() const { return hint_; }

  SceneSync& scene() { return *scene_; }

 signals:
  void elementClicked(const QString& name, bool additive);  // empty name: clicked empty space
  void bodyRequested(const rlx::ui::BodyRequest& request);
  void jointRequested(const rlx::ui::JointRequest& request);
  void springRequested(const QString& body1, QVector3D point1, const QString& body2,
                       QVector3D point2);                      // global points
  void dragStarted(const QString& body, QVector3D grabPoint);  // grab point in body coordinates
  void dragMoved(const QString& body, QVector3D grabPoint, QVector3D target);  // target global
  void stateDragged(const rlx::State& state);  // the live drag result (each move)
  void dragFinished(const QString& body, const rlx::State& state);  // final configuration
  void toolCancelled();
  void hintChanged(const QString& hint);  // for the status bar

 protected:
  void initializeGL() override;
  void resizeGL(int w, int h) override;
  void paintGL() override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;
  void leaveEvent(QEvent* event) override;

 private:
  // What a building tool acts on at a widget position: the snapped point, the feature it
  // snapped to, and the bodies there (whose feature point or outline is at the point).
  struct Target {
    Eigen::Vector3d at = Eigen::Vector3d::Zero();
    std::optional<FeaturePoint> feature;
    QStringList bodies;         // top first
    QStringList featureBodies;  // only those with a feature point there, top first
    std::optional<Eigen::Vector3d> normal;  // 3-D: the face under the cursor
    std::vector<FeaturePoint> features;     // all of them, as they were found
  };

  void requestRender() { update(); }
  void setupCamera();
  Eigen::Vector3d gridSnapped(const Eigen::Vector3d& world) const;
  double pixelSize() const;  // metres per pixel at the focal plane
  Target targetAt(const QPointF& pos) const;
  std::optional<JointRequest> jointAt(const Target& target, QString* why) const;
  QString pinPartner(const Target& target) const;
  Eigen::Vector3d axisAt(const Target& target) const;
  QString describe(const Target& target) const;
  QString stepHint() const;
  void setHint(const QString& hint);
  void hover(const QPointF& pos);
  void showMarker(const Target& target, const QString& label, bool refused);
  void hideMarker();
  void showPreview(const std::vector<Eigen::Vector3d>& segmentEnds);
  void hidePreview();
  void finishTool(const Target& end);
  void cancelTool();
  void startDrag(const QString& body, const QVector3D& world);

  vtkSmartPointer<vtkGenericOpenGLRenderWindow> window_;
  vtkSmartPointer<vtkRenderer> renderer_;
  std::unique_ptr<SceneSync> scene_;
  std::optional<Model> model_;
  vtkSmartPointer<vtkActor> preview_;
  vtkSmartPointer<vtkPolyData> previewData_;
  // The hover marker, drawn on a layer above the model.
  vtkSmartPointer<vtkRenderer> overlay_;
  vtkSmartPointer<vtkActor> marker_;
  vtkSmartPointer<vtkPolyData> markerData_;
  vtkSmartPointer<vtkTextActor> markerLabel_;
  Spec spec_;
  QString hint_;

  Tool tool_ = Tool::Select;
  ViewMode mode_ = ViewMode::Planar;
  bool snap_ = true;
  bool pinBarEnds_ = true;
  bool liveDrag_ = true;
  bool showReactions_ = false;
  bool fitted_ = false;
  bool initialized_ = false;

  // Mouse interaction in progress.
  enum class Gesture { None, Pan, Rotate, Tool, DragBody };
  Gesture gesture_ = Gesture::None;
  QPointF pressPos_, lastPos_;
  Target toolStart_;
  bool toolPressed_ = false;
  QString springBody1_;
  std::optional<Eigen::Vector3d> springPoint1_;
  QString dragBody_;
  QVector3D dragLocal_;
  double dragPlaneDepth_ = 0.0;
  bool dragMoved_ = false;  // the drag went past the start distance: a click moves nothing
};

}  // namespace rlx::ui
