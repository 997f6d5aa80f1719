#pragma once
// Faults injected into the file writes of one directory by the preloaded library
// tests/faults/write_faults.c (the tests that use it are given LD_PRELOAD in tests/CMakeLists.txt).

#include <QString>

namespace rlx::test {

// While it lives, the calls that write files in `directory` fail as `fault` says
// ("write:ENOSPC:100", "fsync:EIO", "open:EACCES", "rename:KILL", ...), in this process and in the
// processes it starts.
class InjectedFault {
 public:
  InjectedFault(const QString& directory, const QString& fault);
  ~InjectedFault();
  InjectedFault(const InjectedFault&) = delete;
  InjectedFault& operator=(const InjectedFault&) = delete;
};

// True when the fault library is preloaded and works: creating a file under an injected EACCES
// fails. A test of failed saves checks it first, so that it cannot pass without faults.
bool faultInjectionWorks();

}  // namespace rlx::test
