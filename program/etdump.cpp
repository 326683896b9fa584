// See Note [Profiles cost nothing when off and allocate nothing when on] (etdump.h).
#include "switchyard/program/etdump.h"

#include <cstring>
#include <fstream>

#include "switchyard/core/error.h"
#include "switchyard/core/program_scalar_type.h"
#include "switchyard/ivalue/checked_size.h"
#include "switchyard/program/schema/etdump_generated.h"

namespace sy {

namespace {

constexpr uint32_t kETDumpVersion = 0;  // what ExecuTorch writes (ETDUMP_VERSION)
constexpr uint32_t kMethodExecute = 0;  // names_[0], interned first
constexpr size_t kDebugAlignment = 16;

absl::Status writeBytes(const std::string& path, absl::Span<const uint8_t> bytes, const char* what) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return absl::NotFoundError(sy::str("cannot open '", path, "' to write the ", what));
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) return absl::DataLossError(sy::str("writing the ", bytes.size(), " bytes of the ", what, " to '", path, "' failed"));
  return absl::OkStatus();
}

}  // namespace

ETDumpRecorder::ETDumpRecorder(Options options) : options_(options) {
  events_.reserve(options_.max_events);
  debug_.reserve(options_.debug_buffer_bytes);
  dims_.reserve(options_.debug_buffer_bytes == 0 ? 0 : options_.max_events * 8);
  step_names_.reserve(options_.max_step_name_bytes);
  intern("Method::execute");
}

uint32_t ETDumpRecorder::intern(std::string_view name) {
  for (size_t i = 0; i < names_.size(); ++i) {
    if (names_[i] == name) return static_cast<uint32_t>(i);
  }
  names_.emplace_back(name);
  return static_cast<uint32_t>(names_.size() - 1);
}

bool ETDumpRecorder::room() {
  if (events_.size() < events_.capacity()) return true;
  ++dropped_;
  return false;
}

void ETDumpRecorder::beginRun() {
  ++runs_;
  chain_ = 0;
  instruction_ = -1;
  run_start_ns_ = now();
}

void ETDumpRecorder::endRun() {
  const uint64_t end = now();
  instruction_ = -1;
  if (!room()) return;
  Event e;
  e.kind = Event::Kind::Run;
  e.run = static_cast<uint32_t>(runs_ - 1);
  e.name = kMethodExecute;
  e.start_ns = run_start_ns_;
  e.end_ns = end;
  events_.push_back(e);
}

void ETDumpRecorder::recordInstruction(uint32_t name, uint64_t start_ns, uint64_t end_ns) {
  if (!room()) return;
  Event e;
  e.kind = Event::Kind::Instruction;
  e.run = static_cast<uint32_t>(runs_ - 1);
  e.chain = chain_;
  e.instruction = instruction_;
  e.name = name;
  e.start_ns = start_ns;
  e.end_ns = end_ns;
  events_.push_back(e);
}

void ETDumpRecorder::log_profiling_delegate(std::string_view name, int64_t delegate_debug_id, uint64_t start_ns,
                                            uint64_t end_ns) {
  if (runs_ == 0 || !room()) return;
  Event e;
  e.kind = Event::Kind::DelegateStep;
  e.run = static_cast<uint32_t>(runs_ - 1);
  e.chain = chain_;
  e.instruction = instruction_;
  e.delegate_debug_id = delegate_debug_id;
  if (delegate_debug_id == -1 && !name.empty()) {
    if (step_names_.size() + name.size() > step_names_.capacity()) {
      ++dropped_;
      return;
    }
    e.name = static_cast<uint32_t>(step_names_.size());
    e.name_length = static_cast<uint32_t>(name.size());
    step_names_.insert(step_names_.end(), name.begin(), name.end());  // within the reserved capacity
  }
  e.start_ns = start_ns;
  e.end_ns = end_ns;
  events_.push_back(e);
}

void ETDumpRecorder::log_intermediate_output_delegate(std::string_view, int64_t delegate_debug_id, const Tensor& value) {
  if (runs_ == 0) return;
  const size_t before = events_.size();
  recordOutput(/*name=*/0, UINT32_MAX, value, false);
  if (events_.size() > before) {
    events_.back().delegate_debug_id = delegate_debug_id;
    events_.back().name = UINT32_MAX;  // named by its debug handle
  }
}

void ETDumpRecorder::recordOutput(uint32_t name, uint32_t value, const Tensor& t, bool method_output) {
  if (!keepsOutputs() || !t.defined() || !t.is_cpu()) return;
  const std::optional<ProgramScalarType> dtype = toProgramScalarType(t.scalar_type());
  const size_t rank = static_cast<size_t>(t.dim());
  const size_t nbytes = static_cast<size_t>(t.numel()) * t.element_size();
  const size_t offset = (debug_.size() + kDebugAlignment - 1) / kDebugAlignment * kDebugAlignment;
  // A dense tensor (contiguous in some dim order, as a method's are) is its numel elements from its
  // first: copied as they lie, with its strides. Others, and what does not fit, are dropped.
  const bool dense = t.numel() == 0 || checkedStridedExtent("ETDumpRecorder", t.sizes(), t.strides()) == t.numel();
  if (!dtype || !dense || offset + nbytes > debug_.capacity() || dims_.size() + 2 * rank > dims_.capacity()) {
    ++dropped_;
    return;
  }
  if (!room()) return;
  Event e;
  e.kind = Event::Kind::Output;
  e.method_output = method_output;
  e.dtype = static_cast<int8_t>(*dtype);
  e.run = static_cast<uint32_t>(runs_ - 1);
  e.chain = chain_;
  e.instruction = method_output ? -1 : instruction_;
  e.name = name;
  e.value = value;
  e.dims = static_cast<uint32_t>(dims_.size());
  e.rank = static_cast<uint32_t>(rank);
  e.debug_offset = offset;
  debug_.resize(offset + nbytes);  // within the reserved capacity
  if (nbytes > 0) std::memcpy(debug_.data() + offset, t.data_ptr(), nbytes);
  dims_.insert(dims_.end(), t.sizes().begin(), t.sizes().end());
  dims_.insert(dims_.end(), t.strides().begin(), t.strides().end());
  events_.push_back(e);
}

std::vector<uint8_t> ETDumpRecorder::etdump() const {
  flatbuffers::FlatBufferBuilder fb;
  std::vector<flatbuffers::Offset<etdump::RunData>> runs;
  std::vector<flatbuffers::Offset<etdump::Event>> events;
  size_t i = 0;
  while (i < events_.size()) {
    const uint32_t run = events_[i].run;
    events.clear();
    for (; i < events_.size() && events_[i].run == run; ++i) {
      const Event& e = events_[i];
      const int32_t chain = static_cast<int32_t>(e.chain);
      switch (e.kind) {
        case Event::Kind::Run:
        case Event::Kind::Instruction: {
          auto p = etdump::CreateProfileEventDirect(fb, names_[e.name].c_str(), chain, e.instruction, -1, nullptr, nullptr,
                                                    e.start_ns, e.end_ns);
          events.push_back(etdump::CreateEvent(fb, p));
          break;
        }
        case Event::Kind::DelegateStep: {
          const std::string name(stepName(e));
          const std::vector<uint8_t> no_metadata;  // ExecuTorch writes an empty vector
          auto p = etdump::CreateProfileEventDirect(fb, nullptr, chain, e.instruction,
                                                    static_cast<int32_t>(e.delegate_debug_id),
                                                    name.empty() ? nullptr : name.c_str(), &no_metadata, e.start_ns, e.end_ns);
          events.push_back(etdump::CreateEvent(fb, p));
          break;
        }
        case Event::Kind::Output: {
          const std::vector<int64_t> sizes(sizesOf(e).begin(), sizesOf(e).end());
          const std::vector<int64_t> strides(stridesOf(e).begin(), stridesOf(e).end());
          auto tensor = etdump::CreateTensorDirect(fb, static_cast<pte::ScalarType>(e.dtype), &sizes, &strides,
                                                   static_cast<int64_t>(e.debug_offset));
          auto output = e.method_output ? etdump::CreateBool(fb, true) : 0;
          auto value = etdump::CreateValue(fb, etdump::ValueType::Tensor, tensor, 0, 0, 0, 0, 0, output);
          const char* name = e.name < names_.size() && !names_[e.name].empty() ? names_[e.name].c_str() : nullptr;
          auto d = etdump::CreateDebugEventDirect(fb, e.chain, e.instruction, value, static_cast<int32_t>(e.delegate_debug_id),
                                                  nullptr, name);
          events.push_back(etdump::CreateEvent(fb, 0, 0, d));
          break;
        }
      }
    }
    runs.push_back(etdump::CreateRunDataDirect(fb, "Execute", -1, nullptr, &events));
  }
  auto root = etdump::CreateETDumpDirect(fb, kETDumpVersion, &runs);
  etdump::FinishSizePrefixedETDumpBuffer(fb, root);
  return std::vector<uint8_t>(fb.GetBufferPointer(), fb.GetBufferPointer() + fb.GetSize());
}

absl::Status ETDumpRecorder::write(const std::string& etdump_path, const std::string& debug_buffer_path) const {
  if (absl::Status s = writeBytes(etdump_path, etdump(), "ETDump"); !s.ok()) return s;
  if (debug_buffer_path.empty()) return absl::OkStatus();
  return writeBytes(debug_buffer_path, debug_, "debug buffer");
}

}  // namespace sy
