#include "io/atomic_write.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <charconv>
#include <csignal>
#include <filesystem>
#include <system_error>

namespace rlx {
namespace {

namespace fs = std::filesystem;

// Sets *error to "cannot save "<path>": <OS reason>[; the previous file is kept]", returns false.
bool fail(std::string* error, const fs::path& path, int code, bool previousKept) {
  if (error)
    *error = "cannot save \"" + path.string() + "\": " + std::generic_category().message(code) +
             (previousKept ? "; the previous file is kept" : "");
  return false;
}

// Writes all of `text` to `fd`; returns 0 or the errno of the failure.
int writeAll(int fd, std::string_view text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t written = ::write(fd, text.data() + done, text.size() - done);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return written < 0 ? errno : EIO;
    done += static_cast<std::size_t>(written);
  }
  return 0;
}

// Creates a new file next to `target` (".<name>.<pid>.<n>.tmp") that nobody else opened.
int createTemporary(const fs::path& target, fs::path& temporary) {
  static std::atomic<unsigned> counter{0};
  for (int attempt = 0; attempt < 100; ++attempt) {
    temporary = target.parent_path() /
                ("." + target.filename().string() + "." + std::to_string(::getpid()) + "." +
                 std::to_string(counter++) + ".tmp");
    const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0 || errno != EEXIST) return fd;
  }
  return -1;
}

// Makes the rename itself durable; a directory that cannot be synced does not fail the save.
void syncDirectory(const fs::path& directory) {
  const int fd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

// Removes the temporary files that saves of `target` by processes no longer running left behind
// (killed between write and rename): ".<name>.<pid>.<n>.tmp" with <pid> gone.
void removeStaleTemporaries(const fs::path& target) {
  const std::string prefix = "." + target.filename().string() + ".";
  const std::string suffix = ".tmp";
  std::error_code code;
  for (fs::directory_iterator it(target.parent_path(), code), end; !code && it != end;
       it.increment(code)) {
    const std::string name = it->path().filename().string();
    if (name.size() <= prefix.size() + suffix.size() || !name.starts_with(prefix) ||
        !name.ends_with(suffix))
      continue;
    const char* first = name.data() + prefix.size();
    const char* last = name.data() + name.size() - suffix.size();
    pid_t pid = 0;
    unsigned counter = 0;
    const auto [afterPid, pidError] = std::from_chars(first, last, pid);
    if (pidError != std::errc() || pid <= 0 || afterPid == last || *afterPid != '.') continue;
    const auto [afterCounter, counterError] = std::from_chars(afterPid + 1, last, counter);
    if (counterError != std::errc() || afterCounter != last) continue;
    if (::kill(pid, 0) != 0 && errno == ESRCH) fs::remove(it->path(), code);
  }
}

}  // namespace

bool writeFileAtomically(const std::string& path, std::string_view text, std::string* error) {
  // A symbolic link keeps pointing at the file: the file it names is the one replaced.
  std::error_code ignored;
  fs::path target = path;
  if (fs::is_symlink(target, ignored)) target = fs::weakly_canonical(target, ignored);
  if (target.empty()) target = path;
  if (!target.has_parent_path()) target = fs::path(".") / target;
  struct stat existing {};
  const bool previous = ::stat(target.c_str(), &existing) == 0 && S_ISREG(existing.st_mode);

  // Write and sync a temporary file in the same directory (a rename stays within one file system).
  fs::path temporary;
  const int fd = createTemporary(target, temporary);
  if (fd < 0) return fail(error, path, errno, previous);
  int code = writeAll(fd, text);
  if (code == 0 && ::fsync(fd) != 0) code = errno;

  // The new file keeps the permissions of the file it replaces.
  if (code == 0 && previous && ::fchmod(fd, existing.st_mode & 07777) != 0) code = errno;
  if (::close(fd) != 0 && code == 0) code = errno;

  // Replace the file in one step; on failure the original stays as it was.
  if (code == 0 && ::rename(temporary.c_str(), target.c_str()) != 0) code = errno;
  if (code != 0) {
    ::unlink(temporary.c_str());
    return fail(error, path, code, previous);
  }
  syncDirectory(target.parent_path());
  removeStaleTemporaries(target);
  return true;
}

}  // namespace rlx
