#pragma once
// The one sync layer between a model and the VTK scene: element names -> actors. setModel
// rebuilds every actor (bodies from their shapes, ground marks, joint symbols, springs, motion
// markers); setState only moves them (one matrix per body), so animation frames and scrubbing
// are cheap. Selection highlight, traces of body points, reaction arrows and the time text are
// layered on top. Picking in the plane is exact, from the same outlines that are drawn.

#include "model/model.h"
#include "model/spec.h"
#include "results/results.h"
#include "viewport/geometry.h"
#include "viewport/spec_numbers.h"
#include "viewport/viewport_types.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <vtkSmartPointer.h>
#include <Eigen/Dense>

#include <array>
#include <map>
#include <memory>
#include <optional>
#include <vector>

class vtkActor;
class vtkMatrix4x4;
class vtkPolyData;
class vtkProp;
class vtkRenderer;
class vtkTextActor;

namespace rlx::ui {

class SceneSync {
 public:
  explicit SceneSync(vtkRenderer* renderer);
  ~SceneSync();
  SceneSync(const SceneSync&) = delete;
  SceneSync& operator=(const SceneSync&) = delete;

  // Rebuilds the scene. `model` may be null (the spec did not compile): bodies are then drawn
  // at their spec positions without joints. The scene shows model->q0 until setState.
  void setModel(const Spec& spec, const Model* model);
  // Moves the actors to a state of the current model (fast: transforms and springs only).
  void setState(const State& state);
  const State& state() const { return state_; }
  const Model* model() const { return model_.get(); }

  void setSelection(const QStringList& names);
  QStringList selection() const { return selection_; }

  // Reaction arrows of every joint at a frame (force on body2 at the joint point), length
  // |F| x scale; nullptr hides them.
  void setReactions(const Frame* frame);
  void setReactionScale(double metresPerNewton);
  double reactionScale() const { return reactionScale_; }

  // Paths of body points, drawn through frames[0..current].
  void setTraces(const QList<TracePoint>& points);
  void setTraceHistory(const std::vector<Frame>* frames, int current);

  void setTimeText(const QString& text);  // empty hides it
  // The first steps, centred in the view while the model has no bodies.
  bool showsEmptyGuide() const;
  void setGridVisible(bool visible);
  void setGridSpacing(double spacing);
  double gridSpacing() const { return gridSpacing_; }

  // Bars and links are drawn at least this wide (planar; the viewport passes 6 pixels).
  void setMinimumWidth(double metres);

  // Model size used for symbol sizes (m): the larger of the bodies' spread and joint offsets.
  double modelSize() const { return size_; }
  // Bounds of the model's actors (xmin, xmax, ymin, ymax, zmin, zmax); empty model: unit box.
  std::array<double, 6> bounds() const;

  // Planar picking at a global point: joints first, then motions, springs, bodies (top first).
  QString elementAt(const Eigen::Vector2d& p, double tolerance) const;
  // The bodies whose outline contains p (top first); ground is not listed.
  QStringList bodiesAt(const Eigen::Vector2d& p, double tolerance) const;
  // The element an actor draws (3-D picking), or empty.
  QString elementOf(vtkProp* prop) const;

 private:
  struct BodyActors;
  void clear();
  void buildBodies(const Spec& spec);
  std::vector<Eigen::Vector3d> attachmentPoints(int body) const;
  void rebuildOutline(BodyActors& body);
  // Joint symbols (scene_joints.cpp): one builder per dimension; rolling contacts move per state.
  void buildJoints();
  void buildPlanarJoint(const Joint& joint);
  void buildSpatialJoint(const Joint& joint);
  void addPin(const QString& name, int body, const Eigen::Vector2d& at, double radius, double z);
  void addTie(const QString& name, const Joint& joint);
  // Gear wheels and racks of a gear or rack_pinion joint at height z; returns where it is picked
  // (global, the file's configuration): a gear pair's pitch point, a point of the rack's teeth.
  Eigen::Vector3d addGearing(const QString& name, const Joint& joint, double z);
  // A 3-D gear pair or rack and pinion; returns where it is picked (the caller sets the radius).
  struct JointMark;
  JointMark addSpatialGearing(const QString& name, const Joint& joint);
  void updateContacts();
  void buildSprings();
  void buildMotions();
  void buildStops();  // scene_stops.cpp
  void buildBelts(const Spec& spec);  // scene_belts.cpp: couplers of two turning joints
  void updateBelts();
  void buildGrid();
  void updateSprings();
  void updateTraces();
  void applySelection();
  vtkActor* addActor(vtkPolyData* data, const QString& element, vtkMatrix4x4* pose);
  // Colours a symbol's actor and remembers the colour for deselection.
  void paint(vtkActor* actor, const double colour[3]);
  vtkMatrix4x4* poseOf(int body) const;
  Eigen::Vector3d globalPoint(int body, const Eigen::Vector3d& local) const;

  vtkRenderer* renderer_;
  std::unique_ptr<Model> model_;
  std::unique_ptr<SpecNumbers> numbers_;
  double minWidth_ = 0.0;
  State state_;
  int dimension_ = 2;
  double size_ = 1.0;
  double layer_ = 0.0;  // z spacing of body layers in the plane
  std::vector<std::unique_ptr<BodyActors>> bodies_;
  std::map<QString, std::vector<vtkSmartPointer<vtkActor>>> elementActors_;  // name -> actors
  std::map<vtkProp*, QString> propNames_;
  std::vector<vtkSmartPointer<vtkProp>> props_;  // every model actor, for clearing
  struct Spring {
    QString name;
    int body1, body2;
    Eigen::Vector3d s1, s2;
    vtkSmartPointer<vtkPolyData> data;
    bool zigzag = true;  // a spring; else a straight tie (distance joint)
  };
  std::vector<Spring> springs_;
  struct Belt {
    QString name;             // the coupler's
    int body[2];              // the pulleys
    Eigen::Vector3d centre[2];  // on them
    Eigen::Vector3d axis[2];    // the joints' axes on them (3-D)
    double radius[2];
    bool crossed;
    vtkSmartPointer<vtkPolyData> data;
    std::vector<Eigen::Vector2d> spans;  // the straight runs' ends (global), for planar picking
  };
  std::vector<Belt> belts_;
  struct JointMark {
    QString name;
    int body;               // the body the symbol moves with
    Eigen::Vector3d point;  // on that body
    double radius;
  };
  std::vector<JointMark> jointMarks_;
  std::vector<JointMark> wheelExtents_;  // gear wheels, racks, cams' curves: discs the view must show
  std::vector<JointMark> motionMarks_;
  std::vector<JointMark> stopMarks_;  // end stops: their walls' middles
  struct CamCurve {  // a cam's curve, picked along its line
    QString name;
    int body;
    std::shared_ptr<const Curve> curve;
  };
  std::vector<CamCurve> camCurves_;
  struct Contact {  // rolling disk: the contact point's marker
    int joint;
    vtkSmartPointer<vtkMatrix4x4> pose;
  };
  std::vector<Contact> contacts_;
  std::map<vtkActor*, std::array<double, 3>> inkOf_;  // symbol actor -> its own colour
  QStringList selection_;
  // Reactions.
  vtkSmartPointer<vtkActor> reactionActor_;
  double reactionScale_ = 0.01;
  std::optional<Frame> reactionFrame_;
  // Traces.
  QList<TracePoint> traces_;
  const std::vector<Frame>* history_ = nullptr;
  int historyCurrent_ = -1;
  std::vector<vtkSmartPointer<vtkActor>> traceActors_;
  // Grid and text.
  vtkSmartPointer<vtkActor> gridMinor_, gridMajor_;
  bool gridVisible_ = true;
  double gridSpacing_ = 0.05;
  vtkSmartPointer<vtkTextActor> timeText_;
  vtkSmartPointer<vtkTextActor> emptyGuide_;
};

}  // namespace rlx::ui
