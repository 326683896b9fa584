#include "switchyard/export/source_scope.h"

namespace sy::export_ {
namespace {

struct RawFrame {
  const char* file;
  uint32_t line;
  const char* function;
};

thread_local bool capturing = false;
thread_local std::vector<RawFrame> open_frames;

}  // namespace

SourceScope::SourceScope(const char* file, uint32_t line, const char* function) {
  if (!capturing) return;
  open_frames.push_back({file, line, function});
  pushed_ = true;
}

SourceScope::~SourceScope() {
  if (pushed_ && !open_frames.empty()) open_frames.pop_back();
}

namespace detail {

std::vector<SourceFrame> currentSourceStack() {
  std::vector<SourceFrame> out;
  out.reserve(open_frames.size());
  for (const RawFrame& f : open_frames) {
    out.push_back(SourceFrame{f.file == nullptr ? "" : f.file, f.line, f.function == nullptr ? "" : f.function});
  }
  return out;
}

bool captureActiveOnThisThread() { return capturing; }

void setCaptureActiveOnThisThread(bool active) {
  capturing = active;
  if (!active) open_frames.clear();
}

}  // namespace detail
}  // namespace sy::export_
