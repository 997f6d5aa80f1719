#include "model/model.h"

namespace rlx {

bool isVelocityMeasure(MeasureKind kind) {
  switch (kind) {
    case MeasureKind::BodyVx:
    case MeasureKind::BodyVy:
    case MeasureKind::BodyVz:
    case MeasureKind::BodyOmega:
    case MeasureKind::BodyWx:
    case MeasureKind::BodyWy:
    case MeasureKind::BodyWz:
    case MeasureKind::JointQd:
    case MeasureKind::SpringRate:
      return true;
    case MeasureKind::BodyX:
    case MeasureKind::BodyY:
    case MeasureKind::BodyZ:
    case MeasureKind::BodyAngle:
    case MeasureKind::BodyR:
    case MeasureKind::JointQ:
    case MeasureKind::SpringLength:
      return false;
  }
  return false;
}

}  // namespace rlx
