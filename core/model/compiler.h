#pragma once
// Internal to compile(): the state of one compilation and its helpers, shared by the files
// compile.cpp (bodies, joints, motions, analysis), compile_functions.cpp (numbers, expressions,
// measures) and compile_forces.cpp.

#include "model/compile.h"

#include <map>
#include <optional>
#include <string>

namespace rlx::detail {

// Local names an expression may use besides t, parameters and measures.
struct LocalNames {
  int spring = -1;      // `length`, `rate` of this spring_damper
  int joint = -1;       // `q`, `qd` of this joint (joint_force)
  bool allowTime = true;
  bool allowState = true;  // measures such as crank.x
};

struct Compiler {
  const Spec& spec;
  Model model;
  Diagnostics diagnostics;
  std::map<std::string, double> parameters;
  std::map<std::string, int> bodies;  // name -> index (ground: kGround)
  std::map<std::string, int> joints;

  explicit Compiler(const Spec& s) : spec(s) {}

  void error(const std::string& element, const std::string& field, const std::string& message);

  // Numbers: literal or expression of parameters.
  std::optional<double> number(const Number& n, const std::string& element, const std::string& field);
  // A vector of exactly `size` numbers.
  std::optional<Eigen::Vector3d> vector(const Vector& v, int size, const std::string& element,
                                        const std::string& field);
  // The parsed text, or nullptr with its syntax error reported under element's field.
  expr::Expr parsed(const std::string& text, const std::string& element, const std::string& field);
  // An expression of t, parameters and state measures, with its derivatives.
  std::optional<Function> function(const std::string& text, const LocalNames& locals,
                                   const std::string& element, const std::string& field);

  // The function of a bound expression (its text for messages): the slots it uses and its
  // first and second derivatives.
  Function compiled(const std::string& text, const expr::Expr& bound) const;
  // Finds or adds a measure; returns its slot (measure index + 1).
  int slotOf(const Measure& measure);
  // A coupler's equation, sum_i ratio_i * joint_i.q, into c (with its period in 3-D); false
  // once it has said why not.
  bool coupler(const ConstraintSpec& s, const std::string& element, UserConstraint& c);

  // A body's pose in the file's configuration (ground: origin).
  Eigen::Vector3d filePosition(int body) const;
  Eigen::Matrix3d fileRotation(int body) const;
  // A point given in body coordinates (`point`) or globally (`at`), in body coordinates.
  std::optional<Eigen::Vector3d> bodyPoint(int body, const std::optional<Vector>& point,
                                           const std::optional<Vector>& at,
                                           const std::string& element, const std::string& pointField,
                                           const std::string& atField);

  void compileParameters();
  void checkNames();
  void compileBodies();
  // A shape's `axis` (drawing only): the model's dimension, finite, not zero.
  void checkShapeAxis(const BodySpec& s, const std::string& element);
  void compileSpatialBodies();
  // Spatial joints: frame1, frame2, a1, a2 and the coordinate's zero q0 (compile_spatial.cpp).
  // The joint's frames, its coordinate's zero and (when its numbers are valid) the family's
  // preparation in the file's configuration.
  void compileSpatialJointFrames(const JointSpec& s, Joint& j, const std::string& element,
                                 bool numbersOk);
  void compileJoints();
  // The family's own numbers (joints/family.h) into j.numbers; false when one is missing or bad.
  bool compileFamilyNumbers(const JointSpec& s, Joint& j, const std::string& element);
  void compileCurves(const JointSpec& s, Joint& j, const std::string& element);  // compile_curves.cpp
  void compileMotions();
  void compileForces();
  void compileLimit(const ForceSpec& s, const std::string& element, Force& f);  // compile_forces.cpp
  void compileConstraints();  // compile_constraints.cpp
  void nameConstraintRows();  // after the joints' and motions' row names
  void compileAnalysis();
};

std::string label(const char* list, std::size_t index, const std::string& name);

}  // namespace rlx::detail
