// The joint family table (joints/family.h): every JointType has a complete record, its name reads
// back, and the predicates the UI asks follow from the family's coordinate.
#include "joints/family.h"
#include "model/spec.h"

#include <QtTest>

#include <set>
#include <string>

using namespace rlx;

class TestJointFamilies : public QObject {
  Q_OBJECT
 private slots:
  void everyTypeIsListed();
  void namesReadBack();
  void recordsAreComplete();
  void predicates();
};

void TestJointFamilies::everyTypeIsListed() {
  // The list runs from the first enumerator to the last, each once, in order.
  const std::vector<JointType>& types = jointTypes();
  QVERIFY(!types.empty());
  QCOMPARE(types.front(), JointType::Revolute);
  QCOMPARE(types.back(), JointType::ConstantVelocity);
  for (std::size_t i = 0; i < types.size(); ++i) QCOMPARE(static_cast<std::size_t>(types[i]), i);
}

void TestJointFamilies::namesReadBack() {
  std::set<std::string> names;
  for (const JointType type : jointTypes()) {
    const std::string name = jointTypeName(type);
    QVERIFY2(names.insert(name).second, name.c_str());
    QCOMPARE(jointTypeFromName(name), std::optional<JointType>(type));
  }
  QCOMPARE(jointTypeName(JointType::PointOnLine), "point_on_line");
  QCOMPARE(jointTypeFromName("hinge"), std::optional<JointType>());
}

void TestJointFamilies::recordsAreComplete() {
  for (const JointType type : jointTypes()) {
    const JointFamily& family = jointFamily(type);
    const QByteArray name(family.name);
    QVERIFY2(family.planar || family.spatial, name);
    // Its own numbers fit Joint::numbers, with distinct keys that no other field uses.
    QVERIFY2(family.numbers.size() <= static_cast<std::size_t>(kMaxFamilyNumbers), name);
    std::set<std::string> keys{"name", "type", "body1", "body2", "at", "axis", "point1",
                               "point2", "axis1", "axis2", "length", "radius", "curve1", "curve2"};
    for (const FamilyNumber& n : family.numbers) {
      QVERIFY2(keys.insert(n.key).second, name + " " + n.key);
      QVERIFY2(n.meaning[0] != '\0', name + " " + n.key);
    }
    const bool coordinate = family.coordinate != JointCoordinate::None;
    if (const PlanarFamily* planar = family.planar) {
      QVERIFY2(planar->rows > 0 && planar->rows <= kMaxJointRows, name);
      for (int r = 0; r < planar->rows; ++r) QVERIFY2(planar->rowNames[r][0] != '\0', name);
      QVERIFY2(planar->evaluate && planar->gamma && planar->stiffness, name);
      QCOMPARE(planar->coordinate != nullptr, coordinate);
      QCOMPARE(planar->coordinateHessian != nullptr, coordinate);
    }
    if (const SpatialFamily* spatial = family.spatial) {
      QVERIFY2(spatial->rows > 0 && spatial->rows + spatial->velocityRows <= kMaxJointRows, name);
      for (int r = 0; r < spatial->rows + spatial->velocityRows; ++r)
        QVERIFY2(spatial->rowNames[r][0] != '\0', name);
      QVERIFY2(spatial->evaluate, name);
      QCOMPARE(spatial->coordinate != nullptr, coordinate);
      // Velocity rows act where the family says (a rolling disk's contact).
      if (spatial->velocityRows > 0) QVERIFY2(spatial->reactionPoint, name);
    }
  }
}

void TestJointFamilies::predicates() {
  // What the element dialog offers to drive and measures in degrees.
  for (const JointType type : {JointType::Revolute, JointType::Translational,
                               JointType::Cylindrical, JointType::PointOnLine})
    QVERIFY(hasCoordinate(type));
  for (const JointType type : {JointType::Fixed, JointType::Distance, JointType::Spherical,
                               JointType::RollingDisk})
    QVERIFY(!hasCoordinate(type));
  QVERIFY(coordinateIsAngle(JointType::Revolute));
  QVERIFY(coordinateIsAngle(JointType::Cylindrical));
  QVERIFY(!coordinateIsAngle(JointType::Translational));
  QVERIFY(!coordinateIsAngle(JointType::PointOnLine));
  // A family says which dimensions it exists in.
  QVERIFY(jointFamily(JointType::Revolute).planar && jointFamily(JointType::Revolute).spatial);
  QVERIFY(!jointFamily(JointType::Spherical).planar);
  QVERIFY(!jointFamily(JointType::RollingDisk).planar);
  // Gearing: the gears and the rack in both dimensions, the screw in space, driven by its rotation.
  for (const JointType type : {JointType::Gear, JointType::InternalGear, JointType::RackPinion}) {
    QVERIFY(!hasCoordinate(type));
    QVERIFY(jointFamily(type).planar && jointFamily(type).spatial);
  }
  // Cams: in the plane, with their curves, no coordinate.
  QVERIFY(jointFamily(JointType::PointOnCurve).curves == JointCurves::Curve2);
  QVERIFY(jointFamily(JointType::CurveOnCurve).curves == JointCurves::Both);
  for (const JointType type : {JointType::PointOnCurve, JointType::CurveOnCurve})
    QVERIFY(!hasCoordinate(type) && jointFamily(type).planar && !jointFamily(type).spatial);
  QVERIFY(coordinateIsAngle(JointType::Screw));
  QVERIFY(!jointFamily(JointType::Screw).planar && jointFamily(JointType::Screw).spatial);
}

QTEST_GUILESS_MAIN(TestJointFamilies)
#include "tst_joint_families.moc"
