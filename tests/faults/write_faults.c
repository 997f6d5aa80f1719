// A preloaded library (LD_PRELOAD) for the tests of failed saves: it makes the system calls that
// write a file fail as a full disk, a lost permission, a failing device or a killed process would.
//
//   REULEAUX_FAULT_DIR  only files in this directory (or below) are affected
//   REULEAUX_FAULT      CALL:EFFECT[:BYTES]
//     CALL    open (creating a file), write, fsync (also fdatasync), rename
//     EFFECT  an errno name (ENOSPC, EACCES, EIO, EDQUOT, EROFS) or KILL (SIGKILL at that call)
//     BYTES   write only: a file grows to this many bytes, then the write fails (default 0)
//
// Without both variables every call goes straight to the C library. The variables are read at
// each call, so a test may change them between saves.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

enum Call { kOpen, kWrite, kFsync, kRename };

struct Fault {
  int error;  // errno to set, or 0 for SIGKILL
  long long bytes;
};

// The errno an effect names; -1 if unknown.
static int effectCode(const char* name) {
  static const struct {
    const char* name;
    int code;
  } kNames[] = {{"KILL", 0},     {"ENOSPC", ENOSPC}, {"EACCES", EACCES},
                {"EIO", EIO},    {"EDQUOT", EDQUOT}, {"EROFS", EROFS}};
  for (size_t i = 0; i < sizeof kNames / sizeof kNames[0]; ++i)
    if (strcmp(name, kNames[i].name) == 0) return kNames[i].code;
  return -1;
}

// The fault set for `call`, if any: 1 and *fault filled, else 0.
static int faultFor(enum Call call, struct Fault* fault) {
  static const char* const kCalls[] = {"open", "write", "fsync", "rename"};
  const char* spec = getenv("REULEAUX_FAULT");
  if (!spec || !getenv("REULEAUX_FAULT_DIR")) return 0;
  char text[64];
  char* rest = NULL;
  snprintf(text, sizeof text, "%s", spec);
  const char* name = strtok_r(text, ":", &rest);
  const char* effect = strtok_r(NULL, ":", &rest);
  const char* bytes = strtok_r(NULL, ":", &rest);
  if (!name || !effect || strcmp(name, kCalls[call]) != 0) return 0;
  fault->error = effectCode(effect);
  fault->bytes = bytes ? atoll(bytes) : 0;
  if (fault->error < 0) {
    // A mistyped fault must not let a test pass without it.
    fprintf(stderr, "write_faults: unknown effect \"%s\" in REULEAUX_FAULT\n", effect);
    abort();
  }
  return 1;
}

// 1 if `path` lies in $REULEAUX_FAULT_DIR.
static int inFaultDir(const char* path) {
  const char* dir = getenv("REULEAUX_FAULT_DIR");
  const size_t n = dir ? strlen(dir) : 0;
  return n > 0 && path && strncmp(path, dir, n) == 0 && (path[n] == '/' || path[n] == '\0');
}

// 1 if the open file `fd` lies in $REULEAUX_FAULT_DIR (an unnamed O_TMPFILE file too).
static int fdInFaultDir(int fd) {
  char link[64], path[4096];
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  const ssize_t n = readlink(link, path, sizeof path - 1);
  if (n <= 0) return 0;
  path[n] = '\0';
  return inFaultDir(path);
}

// Applies a fault: SIGKILL, or errno set and -1 returned.
static int fail(const struct Fault* fault) {
  if (fault->error == 0) raise(SIGKILL);
  errno = fault->error;
  return -1;
}

static void* next(const char* name) { return dlsym(RTLD_NEXT, name); }

// 1 if `open` creates a file (O_CREAT, or O_TMPFILE: an unnamed file in a directory).
static int creates(int flags) { return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE; }

// A new file in the directory cannot be created.
static int openFails(const char* path, int flags, struct Fault* fault) {
  return creates(flags) && faultFor(kOpen, fault) && inFaultDir(path);
}

static mode_t modeOf(int flags, va_list args) {
  return creates(flags) ? (mode_t)va_arg(args, int) : 0;
}

// open and open64; openat and openat64 with the directory argument first (AT_DIR, AT_DIR_FD).
#define AT_DIR int dirfd,
#define AT_DIR_FD dirfd,
#define OPEN_WRAPPER(NAME, DIR_PARAMETER, DIR_ARGUMENT)                      \
  int NAME(DIR_PARAMETER const char* path, int flags, ...) {                 \
    va_list args;                                                            \
    va_start(args, flags);                                                   \
    const mode_t mode = modeOf(flags, args);                                 \
    va_end(args);                                                            \
    struct Fault fault;                                                      \
    if (openFails(path, flags, &fault)) return fail(&fault);                 \
    int (*real)(DIR_PARAMETER const char*, int, ...) = next(#NAME);          \
    return real(DIR_ARGUMENT path, flags, mode);                             \
  }
OPEN_WRAPPER(open, , )
OPEN_WRAPPER(open64, , )
OPEN_WRAPPER(openat, AT_DIR, AT_DIR_FD)
OPEN_WRAPPER(openat64, AT_DIR, AT_DIR_FD)

// Writes reach the file until it holds BYTES bytes (the last one in part), then fail.
ssize_t write(int fd, const void* buffer, size_t count) {
  ssize_t (*real)(int, const void*, size_t) = next("write");
  struct Fault fault;
  struct stat file;
  if (fd <= STDERR_FILENO || !faultFor(kWrite, &fault) || !fdInFaultDir(fd) ||
      fstat(fd, &file) != 0)
    return real(fd, buffer, count);
  const long long left = fault.bytes - (long long)file.st_size;
  if (left <= 0) return fail(&fault);
  return real(fd, buffer, count < (size_t)left ? count : (size_t)left);
}

#define SYNC_WRAPPER(NAME)                                                   \
  int NAME(int fd) {                                                         \
    struct Fault fault;                                                      \
    if (faultFor(kFsync, &fault) && fdInFaultDir(fd)) return fail(&fault);   \
    int (*real)(int) = next(#NAME);                                          \
    return real(fd);                                                         \
  }
SYNC_WRAPPER(fsync)
SYNC_WRAPPER(fdatasync)

int rename(const char* from, const char* to) {
  struct Fault fault;
  if (faultFor(kRename, &fault) && inFaultDir(to)) return fail(&fault);
  int (*real)(const char*, const char*) = next("rename");
  return real(from, to);
}

int renameat(int fromDir, const char* from, int toDir, const char* to) {
  struct Fault fault;
  if (faultFor(kRename, &fault) && inFaultDir(to)) return fail(&fault);
  int (*real)(int, const char*, int, const char*) = next("renameat");
  return real(fromDir, from, toDir, to);
}

int renameat2(int fromDir, const char* from, int toDir, const char* to, unsigned flags) {
  struct Fault fault;
  if (faultFor(kRename, &fault) && inFaultDir(to)) return fail(&fault);
  int (*real)(int, const char*, int, const char*, unsigned) = next("renameat2");
  return real(fromDir, from, toDir, to, flags);
}
