// ProgramBuilder: writes small program files (.pte) by hand, for the tests of the loader and the
// method runtime (tests/program_*_test.cpp) and for the program benchmark (bench/program_bench.cpp).
// Header-only and not installed: it includes flatc's output, which only the build tree has.
//
//   sy::testing::ProgramBuilder b;
//   int x = b.plannedTensor(sy::ScalarType::Float, {2}, 1, 0);
//   int y = b.plannedTensor(sy::ScalarType::Float, {2}, 1, 16);
//   int alpha = b.intValue(1);
//   int add = b.op("aten::add", "out");
//   b.kernelCall(add, {x, x, alpha, y, y});     // y = x + x
//   b.inputs({x}).outputs({y}).bufferSizes({0, 32});
//   std::vector<uint8_t> bytes = b.finish();    // a complete file
//
// Constants go into constant_buffer, or with constantsInSegment() into a data segment behind an
// extended header (See Note [Extended header layouts]); delegates' blobs are inline or in segments.
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "switchyard/core/scalar_type.h"
#include "switchyard/core/program_scalar_type.h"
#include "switchyard/program/schema/program_generated.h"

namespace sy {
namespace testing {

class ProgramBuilder {
 public:
  using Offset = flatbuffers::Offset<pte::EValue>;

  explicit ProgramBuilder(std::string method = "forward") : method_(std::move(method)) {}

  // ---- values (each returns its index) --------------------------------------------------------
  int plannedTensor(ScalarType dtype, std::vector<int32_t> sizes, uint32_t memory_id, uint64_t offset,
                    std::vector<uint8_t> dim_order = {},
                    pte::TensorShapeDynamism dynamism = pte::TensorShapeDynamism::STATIC) {
    TensorSpec t = tensorSpec(dtype, std::move(sizes), std::move(dim_order));
    t.dynamism = dynamism;
    t.planned = true;
    t.memory_id = memory_id;
    t.offset = offset;
    return addTensor(std::move(t));
  }
  template <class T>
  int constantTensor(ScalarType dtype, std::vector<int32_t> sizes, const std::vector<T>& data) {
    TensorSpec t = tensorSpec(dtype, std::move(sizes), {});
    constants_.emplace_back(reinterpret_cast<const uint8_t*>(data.data()),
                            reinterpret_cast<const uint8_t*>(data.data()) + data.size() * sizeof(T));
    t.data_buffer_idx = static_cast<uint32_t>(constants_.size());  // entry 0 is reserved
    return addTensor(std::move(t));
  }
  // A tensor with no memory of its own (an input bound at run time, or a delegate's value).
  int unplannedTensor(ScalarType dtype, std::vector<int32_t> sizes) { return addTensor(tensorSpec(dtype, std::move(sizes), {})); }
  // A tensor stored in a .ptd file under `name`; planned when memory_id > 0.
  int externalTensor(ScalarType dtype, std::vector<int32_t> sizes, std::string name, uint32_t memory_id = 0,
                     uint64_t offset = 0) {
    TensorSpec t = tensorSpec(dtype, std::move(sizes), {});
    t.external_name = std::move(name);
    t.planned = memory_id > 0;
    t.memory_id = memory_id;
    t.offset = offset;
    return addTensor(std::move(t));
  }
  // A planned tensor whose ExtraTensorInfo places it on another device (device_type: 1 is CUDA).
  int plannedTensorOnDevice(ScalarType dtype, std::vector<int32_t> sizes, uint32_t memory_id, uint64_t offset,
                            int8_t device_type, int8_t device_index = 0) {
    TensorSpec t = tensorSpec(dtype, std::move(sizes), {});
    t.planned = true;
    t.memory_id = memory_id;
    t.offset = offset;
    t.device_type = device_type;
    t.device_index = device_index;
    return addTensor(std::move(t));
  }
  // Full control over the raw fields, for hostile programs.
  int rawTensor(int8_t scalar_type, std::vector<int32_t> sizes, std::vector<uint8_t> dim_order, bool planned,
                uint32_t memory_id, uint64_t offset, uint32_t data_buffer_idx = 0) {
    TensorSpec t;
    t.scalar_type = scalar_type;
    t.sizes = std::move(sizes);
    t.dim_order = std::move(dim_order);
    t.planned = planned;
    t.memory_id = memory_id;
    t.offset = offset;
    t.data_buffer_idx = data_buffer_idx;
    return addTensor(std::move(t));
  }
  int intValue(int64_t v) { return addValue([v](flatbuffers::FlatBufferBuilder& fb) {
      return pte::CreateEValue(fb, pte::KernelTypes::Int, pte::CreateInt(fb, v).Union()); }); }
  int doubleValue(double v) { return addValue([v](flatbuffers::FlatBufferBuilder& fb) {
      return pte::CreateEValue(fb, pte::KernelTypes::Double, pte::CreateDouble(fb, v).Union()); }); }
  int boolValue(bool v) { return addValue([v](flatbuffers::FlatBufferBuilder& fb) {
      return pte::CreateEValue(fb, pte::KernelTypes::Bool, pte::CreateBool(fb, v).Union()); }); }
  int noneValue() { return addValue([](flatbuffers::FlatBufferBuilder& fb) {
      return pte::CreateEValue(fb, pte::KernelTypes::Null, pte::CreateNull(fb).Union()); }); }
  int stringValue(std::string s) { return addValue([s](flatbuffers::FlatBufferBuilder& fb) {
      return pte::CreateEValue(fb, pte::KernelTypes::String, pte::CreateStringDirect(fb, s.c_str()).Union()); }); }
  // Items are indices of Int values.
  int intList(std::vector<int64_t> items) { return addValue([items](flatbuffers::FlatBufferBuilder& fb) {
      return pte::CreateEValue(fb, pte::KernelTypes::IntList, pte::CreateIntListDirect(fb, &items).Union()); }); }
  int doubleList(std::vector<double> items) { return addValue([items](flatbuffers::FlatBufferBuilder& fb) {
      return pte::CreateEValue(fb, pte::KernelTypes::DoubleList, pte::CreateDoubleListDirect(fb, &items).Union()); }); }
  // Items are indices of Tensor values.
  int tensorList(std::vector<int32_t> items) { return addValue([items](flatbuffers::FlatBufferBuilder& fb) {
      return pte::CreateEValue(fb, pte::KernelTypes::TensorList, pte::CreateTensorListDirect(fb, &items).Union()); }); }

  // ---- operators, delegates, instructions -----------------------------------------------------
  int op(std::string name, std::string overload) {
    operators_.emplace_back(std::move(name), std::move(overload));
    return static_cast<int>(operators_.size() - 1);
  }
  int delegate(std::string backend, std::vector<uint8_t> blob, std::vector<std::pair<std::string, std::vector<uint8_t>>> specs = {},
               bool in_segment = false) {
    delegates_.push_back({std::move(backend), std::move(blob), std::move(specs), in_segment});
    return static_cast<int>(delegates_.size() - 1);
  }
  ProgramBuilder& kernelCall(int op_index, std::vector<int32_t> args) {
    instructions_.push_back({pte::InstructionArguments::KernelCall, op_index, std::move(args), 0});
    return *this;
  }
  ProgramBuilder& delegateCall(int delegate_index, std::vector<int32_t> args) {
    instructions_.push_back({pte::InstructionArguments::DelegateCall, delegate_index, std::move(args), 0});
    return *this;
  }
  ProgramBuilder& moveCall(int from, int to) {
    instructions_.push_back({pte::InstructionArguments::MoveCall, from, {}, to});
    return *this;
  }
  ProgramBuilder& jumpFalseCall(int condition, int destination) {
    instructions_.push_back({pte::InstructionArguments::JumpFalseCall, condition, {}, destination});
    return *this;
  }
  ProgramBuilder& freeCall(int value) {
    instructions_.push_back({pte::InstructionArguments::FreeCall, value, {}, 0});
    return *this;
  }
  ProgramBuilder& inputs(std::vector<int32_t> v) { inputs_ = std::move(v); return *this; }
  ProgramBuilder& outputs(std::vector<int32_t> v) { outputs_ = std::move(v); return *this; }
  ProgramBuilder& bufferSizes(std::vector<int64_t> v) { buffer_sizes_ = std::move(v); return *this; }
  // An ExecutionPlan.non_const_buffer_device entry: planned buffer `buffer` on `device_type` (1: CUDA).
  ProgramBuilder& bufferDevice(int32_t buffer, int8_t device_type, int8_t device_index = 0) {
    buffer_devices_.push_back({buffer, device_type, device_index});
    return *this;
  }
  // Constants in a data segment (constant_segment) rather than constant_buffer.
  ProgramBuilder& constantsInSegment(bool v = true) { constants_in_segment_ = v; return *this; }
  // Bytes of padding before each constant in the data segment: a test's way to place constant data
  // at an offset misaligned for its dtype.
  ProgramBuilder& constantPadding(size_t bytes) { constant_padding_ = bytes; return *this; }
  // Bytes stored in a segment of their own under `key` in the program's named_data, for delegates
  // to look up by key (BackendInitContext::named_data_map).
  ProgramBuilder& namedData(std::string key, std::vector<uint8_t> bytes) {
    named_data_.emplace_back(std::move(key), std::move(bytes));
    return *this;
  }
  // Program.version (0, as ExecuTorch writes it, unless a test says otherwise).
  ProgramBuilder& version(uint32_t v) { version_ = v; return *this; }
  // 24 for the older extended header, 32 for the newer (only used when there are segments).
  ProgramBuilder& extendedHeaderLength(uint32_t v) { header_length_ = v; return *this; }

  std::vector<uint8_t> finish() {
    flatbuffers::FlatBufferBuilder fb;
    std::vector<std::vector<uint8_t>> segments;
    std::vector<flatbuffers::Offset<pte::EValue>> values;
    for (auto& make : values_) values.push_back(make(fb, *this));
    std::vector<flatbuffers::Offset<pte::Instruction>> instructions;
    for (const InstructionSpec& ins : instructions_) instructions.push_back(makeInstruction(fb, ins));
    std::vector<flatbuffers::Offset<pte::Operator>> operators;
    for (const auto& [name, overload] : operators_) {
      operators.push_back(pte::CreateOperatorDirect(fb, name.c_str(), overload.c_str()));
    }
    std::vector<flatbuffers::Offset<pte::BackendDelegate>> delegates;
    std::vector<flatbuffers::Offset<pte::BackendDelegateInlineData>> inline_data;
    for (const DelegateSpec& d : delegates_) {
      uint32_t index;
      if (d.in_segment) {
        segments.push_back(d.blob);
        index = static_cast<uint32_t>(segments.size() - 1);
      } else {
        inline_data.push_back(pte::CreateBackendDelegateInlineDataDirect(fb, &d.blob));
        index = static_cast<uint32_t>(inline_data.size() - 1);
      }
      std::vector<flatbuffers::Offset<pte::CompileSpec>> specs;
      for (const auto& [key, value] : d.specs) specs.push_back(pte::CreateCompileSpecDirect(fb, key.c_str(), &value));
      auto ref = pte::CreateBackendDelegateDataReference(
          fb, d.in_segment ? pte::DataLocation::SEGMENT : pte::DataLocation::INLINE, index);
      delegates.push_back(pte::CreateBackendDelegateDirect(fb, d.backend.c_str(), ref, &specs));
    }
    std::vector<flatbuffers::Offset<pte::Chain>> chains{pte::CreateChainDirect(fb, nullptr, nullptr, &instructions)};
    std::vector<flatbuffers::Offset<pte::NonConstBufferDevice>> buffer_devices;
    for (const BufferDevice& d : buffer_devices_) {
      buffer_devices.push_back(pte::CreateNonConstBufferDevice(fb, d.buffer, static_cast<pte::DeviceType>(d.type), d.index));
    }
    auto plan = pte::CreateExecutionPlanDirect(fb, method_.c_str(), 0, &values, &inputs_, &outputs_, &chains, &operators,
                                               &delegates, &buffer_sizes_,
                                               buffer_devices.empty() ? nullptr : &buffer_devices);
    std::vector<flatbuffers::Offset<pte::ExecutionPlan>> plans{plan};

    std::vector<flatbuffers::Offset<pte::Buffer>> constant_buffer;
    flatbuffers::Offset<pte::SubsegmentOffsets> constant_segment = 0;
    if (!constants_.empty() && constants_in_segment_) {
      std::vector<uint8_t> segment;
      std::vector<uint64_t> offsets{0};
      for (const auto& c : constants_) {
        segment.resize(segment.size() + constant_padding_);
        offsets.push_back(segment.size());
        segment.insert(segment.end(), c.begin(), c.end());
        segment.resize((segment.size() + 15) / 16 * 16);
      }
      segments.push_back(std::move(segment));
      constant_segment = pte::CreateSubsegmentOffsetsDirect(fb, static_cast<uint32_t>(segments.size() - 1), &offsets);
    } else if (!constants_.empty()) {
      constant_buffer.push_back(pte::CreateBufferDirect(fb, nullptr));
      for (const auto& c : constants_) {
        fb.ForceVectorAlignment(c.size(), 1, 16);
        constant_buffer.push_back(pte::CreateBufferDirect(fb, &c));
      }
    }
    std::vector<flatbuffers::Offset<pte::NamedData>> named_data;
    for (const auto& [key, bytes] : named_data_) {
      segments.push_back(bytes);
      named_data.push_back(pte::CreateNamedDataDirect(fb, key.c_str(), static_cast<uint32_t>(segments.size() - 1)));
    }
    std::vector<flatbuffers::Offset<pte::DataSegment>> segment_table;
    uint64_t segment_offset = 0;
    for (const auto& s : segments) {
      segment_table.push_back(pte::CreateDataSegment(fb, segment_offset, s.size()));
      segment_offset += (s.size() + 15) / 16 * 16;
    }
    auto root = pte::CreateProgramDirect(fb, version_, &plans, &constant_buffer, &inline_data, &segment_table, constant_segment,
                                         nullptr, named_data.empty() ? nullptr : &named_data);
    pte::FinishProgramBuffer(fb, root);
    std::vector<uint8_t> file(fb.GetBufferPointer(), fb.GetBufferPointer() + fb.GetSize());
    if (segments.empty()) return file;

    // Insert the extended header at byte 8, padded to 32 bytes so alignment inside is kept.
    constexpr uint32_t kPadded = 32;
    std::vector<uint8_t> out(file.begin(), file.begin() + 8);
    out.resize(8 + kPadded, 0);
    out.insert(out.end(), file.begin() + 8, file.end());
    uint32_t root_offset;
    std::memcpy(&root_offset, out.data(), 4);
    root_offset += kPadded;
    std::memcpy(out.data(), &root_offset, 4);
    const uint64_t program_size = out.size();
    const uint64_t base = (program_size + 15) / 16 * 16;
    std::memcpy(out.data() + 8, "eh00", 4);
    std::memcpy(out.data() + 12, &header_length_, 4);
    std::memcpy(out.data() + 16, &program_size, 8);
    std::memcpy(out.data() + 24, &base, 8);
    if (header_length_ >= 32) std::memcpy(out.data() + 32, &segment_offset, 8);
    out.resize(base, 0);
    for (const auto& s : segments) {
      out.insert(out.end(), s.begin(), s.end());
      out.resize((out.size() + 15) / 16 * 16, 0);
    }
    return out;
  }

 private:
  struct TensorSpec {
    int8_t scalar_type = 6;
    std::vector<int32_t> sizes;
    std::vector<uint8_t> dim_order;
    bool planned = false;
    uint32_t memory_id = 0;
    uint64_t offset = 0;
    uint32_t data_buffer_idx = 0;
    std::string external_name;
    pte::TensorShapeDynamism dynamism = pte::TensorShapeDynamism::STATIC;
    int8_t device_type = 0;  // pte::DeviceType::CPU
    int8_t device_index = 0;
  };
  struct InstructionSpec {
    pte::InstructionArguments kind;
    int a;
    std::vector<int32_t> args;
    int b;
  };
  struct DelegateSpec {
    std::string backend;
    std::vector<uint8_t> blob;
    std::vector<std::pair<std::string, std::vector<uint8_t>>> specs;
    bool in_segment;
  };
  using ValueMaker = std::function<flatbuffers::Offset<pte::EValue>(flatbuffers::FlatBufferBuilder&, ProgramBuilder&)>;

  static TensorSpec tensorSpec(ScalarType dtype, std::vector<int32_t> sizes, std::vector<uint8_t> dim_order) {
    TensorSpec t;
    t.scalar_type = static_cast<int8_t>(*toProgramScalarType(dtype));
    if (dim_order.empty()) {
      for (size_t d = 0; d < sizes.size(); ++d) dim_order.push_back(static_cast<uint8_t>(d));
    }
    t.sizes = std::move(sizes);
    t.dim_order = std::move(dim_order);
    return t;
  }
  template <class F>
  int addValue(F make) {
    values_.push_back([make](flatbuffers::FlatBufferBuilder& fb, ProgramBuilder&) { return make(fb); });
    return static_cast<int>(values_.size() - 1);
  }
  int addTensor(TensorSpec t) {
    return addValue([t](flatbuffers::FlatBufferBuilder& fb) {
      auto sizes = fb.CreateVector(t.sizes);
      auto dim_order = fb.CreateVector(t.dim_order);
      flatbuffers::Offset<pte::AllocationDetails> alloc = 0;
      if (t.planned) {
        alloc = pte::CreateAllocationDetails(fb, t.memory_id, static_cast<uint32_t>(t.offset),
                                             static_cast<uint32_t>(t.offset >> 32));
      }
      flatbuffers::Offset<pte::ExtraTensorInfo> extra = 0;
      if (!t.external_name.empty() || t.device_type != 0 || t.device_index != 0) {
        extra = pte::CreateExtraTensorInfoDirect(
            fb, 0, t.external_name.empty() ? nullptr : t.external_name.c_str(),
            t.external_name.empty() ? pte::TensorDataLocation::CONSTANT_SEGMENT : pte::TensorDataLocation::EXTERNAL,
            static_cast<pte::DeviceType>(t.device_type), t.device_index);
      }
      auto tensor = pte::CreateTensor(fb, static_cast<pte::ScalarType>(t.scalar_type), 0, sizes, dim_order, false,
                                      t.data_buffer_idx, alloc, 0, t.dynamism, extra);
      return pte::CreateEValue(fb, pte::KernelTypes::Tensor, tensor.Union());
    });
  }
  static flatbuffers::Offset<pte::Instruction> makeInstruction(flatbuffers::FlatBufferBuilder& fb, const InstructionSpec& ins) {
    switch (ins.kind) {
      case pte::InstructionArguments::KernelCall:
        return pte::CreateInstruction(fb, ins.kind, pte::CreateKernelCallDirect(fb, ins.a, &ins.args).Union());
      case pte::InstructionArguments::DelegateCall:
        return pte::CreateInstruction(fb, ins.kind, pte::CreateDelegateCallDirect(fb, ins.a, &ins.args).Union());
      case pte::InstructionArguments::MoveCall:
        return pte::CreateInstruction(fb, ins.kind, pte::CreateMoveCall(fb, ins.a, ins.b).Union());
      case pte::InstructionArguments::JumpFalseCall:
        return pte::CreateInstruction(fb, ins.kind, pte::CreateJumpFalseCall(fb, ins.a, ins.b).Union());
      default:
        return pte::CreateInstruction(fb, ins.kind, pte::CreateFreeCall(fb, ins.a).Union());
    }
  }

  std::string method_;
  std::vector<ValueMaker> values_;
  std::vector<std::vector<uint8_t>> constants_;
  size_t constant_padding_ = 0;
  std::vector<std::pair<std::string, std::string>> operators_;
  std::vector<DelegateSpec> delegates_;
  std::vector<std::pair<std::string, std::vector<uint8_t>>> named_data_;
  std::vector<InstructionSpec> instructions_;
  std::vector<int32_t> inputs_;
  std::vector<int32_t> outputs_;
  std::vector<int64_t> buffer_sizes_;
  struct BufferDevice {
    int32_t buffer;
    int8_t type;
    int8_t index;
  };
  std::vector<BufferDevice> buffer_devices_;
  bool constants_in_segment_ = false;
  uint32_t header_length_ = 32;
  uint32_t version_ = 0;
};

}  // namespace testing
}  // namespace sy
