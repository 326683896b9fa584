#include "switchyard/program/file_bytes.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <new>

#include "absl/status/status.h"
#include "switchyard/core/error.h"

namespace sy {

namespace {

// Closes a descriptor when it goes out of scope.
class Descriptor {
 public:
  explicit Descriptor(int fd) : fd_(fd) {}
  ~Descriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

// What a non-regular file is, for the error.
const char* fileKind(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  return "not a regular file";
}

absl::Status failure(int error, std::string message) {
  if (error == ENOENT || error == ENOTDIR) return absl::NotFoundError(std::move(message));
  if (error == EACCES || error == EPERM) return absl::PermissionDeniedError(std::move(message));
  return absl::UnavailableError(std::move(message));
}

}  // namespace

absl::StatusOr<FileBytes> readFileBytes(const std::string& path, std::string_view what) {
  const std::string where = sy::str(what, " '", path, "'");
  // See Note [Only regular files are read].
  Descriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
  if (fd.get() < 0) {
    const int error = errno;
    return failure(error, sy::str(where, ": cannot open the file: ", std::strerror(error)));
  }
  struct stat st;
  if (::fstat(fd.get(), &st) != 0) {
    const int error = errno;
    return failure(error, sy::str(where, ": cannot read the file's type and size: ", std::strerror(error)));
  }
  if (!S_ISREG(st.st_mode)) {
    return absl::InvalidArgumentError(
        sy::str(where, ": is ", fileKind(st.st_mode), ", not a file (only regular files are read)"));
  }
  FileBytes file;
  file.size = static_cast<size_t>(st.st_size);
  file.bytes.reset(new (std::nothrow) uint8_t[file.size + 1]);
  if (file.bytes == nullptr) {
    return absl::ResourceExhaustedError(sy::str(where, ": the file's ", file.size, " bytes do not fit in memory"));
  }
  file.bytes[file.size] = 0;
  size_t done = 0;
  while (done < file.size) {
    const ssize_t n = ::read(fd.get(), file.bytes.get() + done, file.size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int error = errno;
      return failure(error, sy::str(where, ": reading ", file.size, " bytes failed: ", std::strerror(error)));
    }
    if (n == 0) {
      return absl::DataLossError(
          sy::str(where, ": the file ended after ", done, " of its ", file.size, " bytes (changed while read?)"));
    }
    done += static_cast<size_t>(n);
  }
  return file;
}

FileBytes copyBytes(absl::Span<const uint8_t> bytes) {
  FileBytes file;
  file.size = bytes.size();
  file.bytes = std::make_unique<uint8_t[]>(file.size + 1);
  if (!bytes.empty()) std::memcpy(file.bytes.get(), bytes.data(), bytes.size());
  return file;
}

}  // namespace sy
