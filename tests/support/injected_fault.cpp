#include "injected_fault.h"

#include <QTemporaryDir>
#include <QtGlobal>

#include <fcntl.h>
#include <unistd.h>

namespace rlx::test {

InjectedFault::InjectedFault(const QString& directory, const QString& fault) {
  qputenv("REULEAUX_FAULT_DIR", directory.toUtf8());
  qputenv("REULEAUX_FAULT", fault.toUtf8());
}

InjectedFault::~InjectedFault() {
  qunsetenv("REULEAUX_FAULT");
  qunsetenv("REULEAUX_FAULT_DIR");
}

bool faultInjectionWorks() {
  QTemporaryDir directory;
  if (!directory.isValid()) return false;
  const QByteArray probe = directory.filePath("probe").toUtf8();
  int fd = -1;
  {
    const InjectedFault fault(directory.path(), "open:EACCES");
    fd = ::open(probe.constData(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  }
  if (fd < 0) return true;
  ::close(fd);
  return false;
}

}  // namespace rlx::test
