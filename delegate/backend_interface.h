// BackendInterface: what a delegate backend implements to run the subgraphs lowered to it
// (ExecuTorch's model; the ahead-of-time half, preprocess, lives in export/).
//
//   class MyBackend final : public sy::BackendInterface {
//    public:
//     bool is_available() const override { return true; }
//     absl::StatusOr<sy::DelegateHandle*> init(sy::BackendInitContext& context, sy::FreeableBuffer* processed,
//                                             absl::Span<const sy::CompileSpec> specs) const override {
//       return new MyCompiledGraph(processed->data(), processed->size());  // parse the blob
//     }
//     absl::Status execute(sy::BackendExecutionContext& context, sy::DelegateHandle* handle,
//                          absl::Span<sy::IValue*> args) const override { ... }  // inputs, then outputs
//     void destroy(sy::DelegateHandle* handle) const override { delete static_cast<MyCompiledGraph*>(handle); }
//   };
//   static MyBackend my_backend;
//   static const absl::Status registered = sy::register_backend({"MyBackend", &my_backend});
//
// Lifecycle, per delegate of a loaded method: init once when the method loads (its processed blob
// is freed right after, unless the backend takes it: `FreeableBuffer kept = std::move(*processed)`),
// execute once per DelegateCall, destroy exactly once when the method goes. `args` point at the
// method's own values: the backend reads the inputs and writes its outputs' data in place.
//
// What init gets besides the blob and the compile specs (BackendInitContext), as ExecuTorch's
// BackendInitContext gives it:
// - method_name and delegate_index: which delegate of which method this is;
// - named_data_map: the data a blob may name by key rather than carry (weights the exporter put in
//   the program's named data, NamedData in program.fbs), merged with the named data of the .ptd
//   files the method was loaded with (MethodOptions::data_files). A key is looked up in the
//   program first, then in each data file in order; the first match wins. The bytes it returns
//   stay valid as long as the FreeableBuffer (which shares ownership of the file) is kept. Never
//   null during Program::load_method; may be null when a test or tool calls init directly;
// - runtime_specs: the key/value options the caller gave this backend for this load
//   (MethodOptions::backend_options, keyed by backend id; ExecuTorch's LoadBackendOptionsMap),
//   valid during init only. A backend documents the keys it reads (XnnpackBackend: num_threads).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "switchyard/delegate/event_tracer.h"
#include "switchyard/ivalue/ivalue.h"

namespace sy {

// Whatever a backend's init returns and its execute and destroy take back.
using DelegateHandle = void;

// Bytes that can be released before their owner is destroyed: a delegate's processed blob.
// Moving one transfers it (the moved-from buffer is empty); Free releases it early.
class FreeableBuffer {
 public:
  FreeableBuffer() = default;
  // `owner` keeps `data` alive (null when the caller guarantees that itself).
  FreeableBuffer(const void* data, size_t size, std::shared_ptr<const void> owner)
      : data_(data), size_(size), owner_(std::move(owner)) {}
  FreeableBuffer(FreeableBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)), owner_(std::move(other.owner_)) {}
  FreeableBuffer& operator=(FreeableBuffer&& other) noexcept {
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    owner_ = std::move(other.owner_);
    return *this;
  }

  const void* data() const { return data_; }
  size_t size() const { return size_; }
  bool freed() const { return data_ == nullptr; }
  // True when the buffer itself keeps its bytes alive (moving it keeps them); false when the
  // caller guarantees them only for as long as it says (a blob during init).
  bool has_owner() const { return owner_ != nullptr; }
  void Free() {
    data_ = nullptr;
    size_ = 0;
    owner_.reset();
  }

 private:
  const void* data_ = nullptr;
  size_t size_ = 0;
  std::shared_ptr<const void> owner_;
};

// One key/value option the exporter recorded for the backend; valid during init only.
struct CompileSpec {
  std::string_view key;
  absl::Span<const uint8_t> value;
};

// Named blobs of bytes a delegate's blob may refer to by key (ExecuTorch's NamedDataMap).
class NamedDataMap {
 public:
  virtual ~NamedDataMap() = default;
  // The bytes stored under `key`, owned by the returned buffer; NotFound when no source has it,
  // InvalidArgument when its entry is corrupt (a segment past the end of the file).
  virtual absl::StatusOr<FreeableBuffer> get_data(std::string_view key) const = 0;
  virtual size_t num_keys() const = 0;
  // Key `index` (0 to num_keys() - 1) in lookup order; duplicates shadowed by an earlier source
  // are listed too. Valid as long as the map.
  virtual absl::StatusOr<std::string_view> get_key(size_t index) const = 0;
};

struct BackendInitContext {
  std::string_view method_name;
  size_t delegate_index = 0;
  const NamedDataMap* named_data_map = nullptr;
  absl::Span<const CompileSpec> runtime_specs;
};

struct BackendExecutionContext {
  std::string_view method_name;
  size_t delegate_index = 0;
  // Where to report the delegate's own steps while a recorder is attached to the method
  // (Method::set_event_tracer); null otherwise, which costs a delegate one test per call.
  EventTracer* event_tracer = nullptr;
};

class BackendInterface {
 public:
  virtual ~BackendInterface() = default;
  // False when the backend cannot run here (missing hardware or driver): methods needing it fail to load.
  virtual bool is_available() const = 0;
  virtual absl::StatusOr<DelegateHandle*> init(BackendInitContext& context, FreeableBuffer* processed,
                                               absl::Span<const CompileSpec> compile_specs) const = 0;
  virtual absl::Status execute(BackendExecutionContext& context, DelegateHandle* handle,
                               absl::Span<IValue*> args) const = 0;
  virtual void destroy(DelegateHandle* handle) const {}
  // What the processed blob holds, for `switchyard inspect` (MethodMeta's DelegateInfo): one line
  // per operation, or one line saying why the blob cannot be read. Nothing is initialised or run;
  // `named_data` is the program's own named data (no data files). Empty by default.
  virtual std::vector<std::string> describe(absl::Span<const uint8_t> processed, const NamedDataMap* named_data) const {
    return {};
  }
};

}  // namespace sy
