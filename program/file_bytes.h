// Reading a whole file into memory: the one way Switchyard reads the files a user names (programs,
// data files, and the command line's JSON inputs), so every failure to read is an absl::Status
// saying what and where.
//
//   absl::StatusOr<sy::FileBytes> file = sy::readFileBytes("model.pte", "program");
//   if (!file.ok()) return file.status();   // "program 'model.pte': is a directory, not a file"
//
// Note [Only regular files are read]
// A path may name a directory, a FIFO, a socket or a device. Reading a directory through a stream
// reports a size no allocation can meet; opening a FIFO waits for a writer that may never come;
// /dev/zero never ends. So the file is opened without blocking (O_NONBLOCK, which changes nothing
// for a regular file), its type checked with fstat on the open descriptor (no race with a rename),
// and anything but a regular file is refused naming what it is. Its size comes from the same
// fstat, the buffer is allocated without throwing (a file too large for memory is an error, not
// std::bad_alloc), and a file that shrinks while it is read is an error too.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace sy {

// A file's bytes, in a buffer of at least one byte (so never a null array).
struct FileBytes {
  std::unique_ptr<uint8_t[]> bytes;
  size_t size = 0;
  std::string_view text() const { return {reinterpret_cast<const char*>(bytes.get()), size}; }
};

// The whole regular file at `path` (See Note [Only regular files are read]). `what` ("program",
// "data file", "inputs file") starts the error messages: "program 'x.pte': cannot open the file: No
// such file or directory".
absl::StatusOr<FileBytes> readFileBytes(const std::string& path, std::string_view what);

// A copy of `bytes` in the same form.
FileBytes copyBytes(absl::Span<const uint8_t> bytes);

}  // namespace sy
