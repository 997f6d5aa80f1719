// One image test per joint family, in 2-D and 3-D: a tiny model with that joint, rendered by the
// real viewport. Selecting the joint turns its symbol orange and nothing else, so the pixels that
// turn orange between the two renders are the symbol's: there must be some at each expected
// place (the joint point, along a guide, on a plane, at a rolling contact). A missing symbol
// fails its row. REULEAUX_SCREENSHOTS=folder saves the selected renders.
#include "io/model_file.h"
#include "test_support.h"
#include "viewport/viewport.h"

#include <QtTest>

#include <cmath>

using namespace rlx;
using namespace rlx::ui;

namespace {

// A model with bodies away from the joint (small spheres or disks) and the joints given.
QString planarModel(const QString& joints) {
  return R"({"reuleaux": 1, "dimension": 2,
    "bodies": [{"name": "a", "position": [-0.5, 0.4], "shape": {"type": "disk", "radius": 0.03}},
               {"name": "b", "position": [0.5, 0.4], "shape": {"type": "disk", "radius": 0.03}}],
    "joints": [)" + joints + "]}";
}

QString spatialModel(const QString& joints) {
  return R"({"reuleaux": 1, "dimension": 3,
    "bodies": [{"name": "a", "position": [-0.5, 0.4, 0.3], "shape": {"type": "sphere", "radius": 0.03}},
               {"name": "b", "position": [0.5, 0.4, 0.3], "shape": {"type": "sphere", "radius": 0.03}}],
    "joints": [)" + joints + "]}";
}

// Pixels within `radius` of `at` that are orange in `selected` and were not before.
int turnedOrange(const QImage& before, const QImage& selected, QPointF at, double radius) {
  int count = 0;
  const double dpr = selected.devicePixelRatio();
  at *= dpr;
  radius *= dpr;
  for (int y = int(at.y() - radius); y <= int(at.y() + radius); ++y)
    for (int x = int(at.x() - radius); x <= int(at.x() + radius); ++x) {
      if (!selected.rect().contains(x, y) || std::hypot(x - at.x(), y - at.y()) > radius) continue;
      const QColor c = selected.pixelColor(x, y);
      count += before.pixel(x, y) != selected.pixel(x, y) && c.red() > c.blue() + 40 &&
               c.red() > c.green();
    }
  return count;
}

}  // namespace

class TestJointSymbols : public QObject {
  Q_OBJECT

 public:
  static void initMain() { Viewport::setDefaultSurfaceFormat(); }

 private slots:
  void drawsEverySymbol_data();
  void drawsEverySymbol();
};

void TestJointSymbols::drawsEverySymbol_data() {
  QTest::addColumn<QString>("model");
  QTest::addColumn<QList<QVector3D>>("probes");  // global points where the symbol must show
  const QString g = R"({"name": "j", "body1": "ground", "body2": "b", )";
  const QString ab = R"({"name": "j", "body1": "a", "body2": "b", )";
  // Planar families: revolute, translational, point_on_line, fixed, distance.
  QTest::newRow("2-D revolute") << planarModel(ab + R"("type": "revolute", "at": [0, 0]})")
                                << QList<QVector3D>{{0, 0, 0}};
  // On ground: the triangle's base line and hatching below the pin.
  QTest::newRow("2-D grounded revolute")
      << planarModel(g + R"("type": "revolute", "at": [0, 0]})")
      << QList<QVector3D>{{0, 0, 0}, {0, -0.036f, 0}};
  // A pendulum hanging from the pin: the ground mark goes above it, clear of the body.
  QTest::newRow("2-D grounded revolute above a pendulum")
      << QString(R"({"reuleaux": 1, "dimension": 2,
           "bodies": [{"name": "b", "position": [0, -0.5], "shape": {"type": "disk", "radius": 0.03}}],
           "joints": [{"name": "j", "type": "revolute", "body1": "ground", "body2": "b", "at": [0, 0]}]})")
      << QList<QVector3D>{{0, 0.028f, 0}};
  QTest::newRow("2-D translational")
      << planarModel(g + R"("type": "translational", "at": [0, 0], "axis": [1, 0]})")
      << QList<QVector3D>{{0.0225f, 0, 0}, {0.3f, 0.018f, 0}, {-0.3f, -0.018f, 0}};
  QTest::newRow("2-D point_on_line")
      << planarModel(g + R"("type": "point_on_line", "at": [0, 0], "axis": [0, 1]})")
      << QList<QVector3D>{{0, 0, 0}, {0, 0.3f, 0}, {0, -0.3f, 0}};
  QTest::newRow("2-D fixed") << planarModel(ab + R"("type": "fixed", "at": [0, 0]})")
                             << QList<QVector3D>{{0, 0, 0}};
  QTest::newRow("2-D distance")
      << planarModel(ab + R"("type": "distance", "point1": [0.2, -0.4], "point2": [-0.2, -0.4]})")
      << QList<QVector3D>{{-0.3f, 0, 0}, {0, 0, 0}, {0.3f, 0, 0}};
  // Spatial families.
  QTest::newRow("3-D revolute")
      << spatialModel(ab + R"("type": "revolute", "at": [0, 0, 0], "axis": [0, 0, 1]})")
      << QList<QVector3D>{{0, 0, 0}};
  QTest::newRow("3-D translational")
      << spatialModel(g + R"("type": "translational", "at": [0, 0, 0], "axis": [1, 0, 0]})")
      << QList<QVector3D>{{0, 0, 0}, {0.4f, 0, 0}, {-0.4f, 0, 0}};
  QTest::newRow("3-D cylindrical")
      << spatialModel(g + R"("type": "cylindrical", "at": [0, 0, 0], "axis": [1, 0, 0]})")
      << QList<QVector3D>{{0, 0, 0}, {0.4f, 0, 0}};
  QTest::newRow("3-D point_on_line")
      << spatialModel(g + R"("type": "point_on_line", "at": [0, 0, 0], "axis": [0, 1, 0]})")
      << QList<QVector3D>{{0, 0, 0}, {0, 0.4f, 0}};
  QTest::newRow("3-D spherical")
      << spatialModel(ab + R"("type": "spherical", "at": [0, 0, 0]})") << QList<QVector3D>{{0, 0, 0}};
  QTest::newRow("3-D universal")
      << spatialModel(ab + R"("type": "universal", "at": [0, 0, 0], "axis1": [1, 0, 0], "axis2": [0, 1, 0]})")
      << QList<QVector3D>{{0.04f, 0, 0}, {0, 0.04f, 0}};
  QTest::newRow("3-D point_on_plane")
      << spatialModel(g + R"("type": "point_on_plane", "at": [0, 0, 0], "axis": [0, 0, 1]})")
      << QList<QVector3D>{{0, 0, 0}, {0.15f, 0.15f, 0}};
  QTest::newRow("3-D planar")
      << spatialModel(g + R"("type": "planar", "at": [0, 0, 0], "axis": [0, 0, 1]})")
      << QList<QVector3D>{{0, 0, 0}, {0.15f, -0.15f, 0}};
  QTest::newRow("3-D parallel_axes")
      << spatialModel(ab + R"("type": "parallel_axes", "axis": [0, 0, 1]})")
      << QList<QVector3D>{{-0.5f, 0.4f, 0.336f}, {0.5f, 0.4f, 0.336f}};
  QTest::newRow("3-D perpendicular")
      << spatialModel(ab + R"("type": "perpendicular", "axis1": [0, 0, 1], "axis2": [1, 0, 0]})")
      << QList<QVector3D>{{-0.5f, 0.4f, 0.336f}, {0.536f, 0.4f, 0.3f}};
  QTest::newRow("3-D fixed") << spatialModel(ab + R"("type": "fixed", "at": [0, 0, 0]})")
                             << QList<QVector3D>{{0, 0, 0}};
  QTest::newRow("3-D distance")
      << spatialModel(ab + R"("type": "distance", "point1": [0.2, -0.4, -0.3], "point2": [-0.2, -0.4, -0.3]})")
      << QList<QVector3D>{{-0.3f, 0, 0}, {0, 0, 0}, {0.3f, 0, 0}};
  // A disk of radius 0.1 standing on the ground plane, its axis along x: contact at the origin.
  QTest::newRow("3-D rolling_disk")
      << QString(R"({"reuleaux": 1, "dimension": 3,
           "bodies": [{"name": "b", "position": [0, 0, 0.1], "shape": {"type": "sphere", "radius": 0.02}}],
           "joints": [{"name": "j", "type": "rolling_disk", "body1": "ground", "body2": "b",
                       "axis2": [1, 0, 0], "radius": 0.1}]})")
      << QList<QVector3D>{{0, 0, 0}, {0.15f, 0.1f, 0}};
}

void TestJointSymbols::drawsEverySymbol() {
  QFETCH(QString, model);
  QFETCH(QList<QVector3D>, probes);
  const LoadResult loaded = readRlx(model.toStdString(), "symbol.rlx");
  QVERIFY(loaded.spec);
  const Model compiled = test::compileOrFail(*loaded.spec);
  Viewport view;
  view.resize(800, 600);
  view.setMultiSamples(0);
  view.setModel(*loaded.spec, &compiled);
  view.show();
  QVERIFY(QTest::qWaitForWindowExposed(&view));
  view.fitToModel();
  const QImage before = view.grabFrame();
  view.setSelection({"j"});
  const QImage selected = view.grabFrame();
  if (const QString dir = qEnvironmentVariable("REULEAUX_SCREENSHOTS"); !dir.isEmpty())
    QVERIFY(selected.save(dir + "/symbol_" + QString(QTest::currentDataTag()).replace(' ', '_') +
                          ".png"));
  for (const QVector3D& probe : probes) {
    const QPointF at = view.widgetPosOf(probe);
    const int orange = turnedOrange(before, selected, at, 8);
    QVERIFY2(orange >= 4, qPrintable(QString("%1 orange pixels near (%2, %3, %4), widget (%5, %6)")
                                         .arg(orange)
                                         .arg(double(probe.x()))
                                         .arg(double(probe.y()))
                                         .arg(double(probe.z()))
                                         .arg(at.x())
                                         .arg(at.y())));
  }
}

QTEST_MAIN(TestJointSymbols)

#include "tst_joint_symbols.moc"
