#include "switchyard/export/emit.h"

#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <unordered_map>

#include "switchyard/dispatcher/dispatcher.h"
#include "switchyard/export/emit_delegates_internal.h"
#include "switchyard/export/lowered_module.h"
#include "switchyard/export/memory_planning.h"
#include "switchyard/export/operator_variants.h"
#include "switchyard/export/program_file.h"
#include "switchyard/core/error.h"
#include "switchyard/core/program_scalar_type.h"
#include "switchyard/program/schema/program_generated.h"

namespace sy::export_ {
namespace {

using flatbuffers::FlatBufferBuilder;
using flatbuffers::Offset;

constexpr uint32_t kPlannedMemoryId = 1;  // id 0 of non_const_buffer_sizes is reserved, as ExecuTorch does

// The program's constant segment: every parameter and constant once, 16-byte aligned.
struct ConstantPool {
  std::vector<uint8_t> segment;
  std::vector<uint64_t> offsets{0};  // offsets[0] stands for data_buffer_idx 0, which means "no data"
  std::unordered_map<const TensorImpl*, uint32_t> index_of;

  uint32_t add(const Tensor& t) {
    if (auto it = index_of.find(t.unsafeGetTensorImpl()); it != index_of.end()) return it->second;
    const size_t start = (segment.size() + kSegmentAlignment - 1) / kSegmentAlignment * kSegmentAlignment;
    segment.resize(start, 0);
    const Tensor& dense = t;  // graph state tensors are read through their strides below
    const size_t element = dense.element_size();
    std::vector<int64_t> index(static_cast<size_t>(dense.dim()), 0);
    const auto* base = static_cast<const uint8_t*>(dense.data_ptr());
    for (int64_t n = 0; n < dense.numel(); ++n) {
      int64_t offset = 0;
      for (int64_t d = 0; d < dense.dim(); ++d) offset += index[static_cast<size_t>(d)] * dense.stride(d);
      const uint8_t* p = base + offset * static_cast<int64_t>(element);
      segment.insert(segment.end(), p, p + element);
      for (int64_t d = dense.dim() - 1; d >= 0; --d) {
        if (++index[static_cast<size_t>(d)] < dense.size(d)) break;
        index[static_cast<size_t>(d)] = 0;
      }
    }
    offsets.push_back(start);
    const uint32_t idx = static_cast<uint32_t>(offsets.size() - 1);
    index_of.emplace(t.unsafeGetTensorImpl(), idx);
    return idx;
  }
};

class MethodEmitter {
 public:
  MethodEmitter(FlatBufferBuilder& fb, ConstantPool& pool, DelegateBlobs& blobs, const MethodToEmit& method)
      : fb_(fb), pool_(pool), blobs_(blobs), name_(method.name), ep_(*method.program), g_(method.program->graph()) {}

  // The parameters and constants the method reads (after emit()).
  size_t constantsRead() const { return constants_read_.size(); }

  absl::StatusOr<Offset<pte::ExecutionPlan>> emit(EmittedMethod* report) {
    report->name = name_;
    if (auto s = planValues(report); !s.ok()) return s;
    for (ValueId v = 0; v < static_cast<ValueId>(g_.numValues()); ++v) {
      absl::StatusOr<Offset<pte::EValue>> t = graphValue(v);
      if (!t.ok()) return t.status();
      values_.push_back(*t);
    }
    std::vector<Offset<pte::Instruction>> instructions;
    std::vector<Offset<pte::FrameList>> stacktraces;
    bool any_source = false;
    for (NodeId id = 0; id < static_cast<NodeId>(g_.nodes().size()); ++id) {
      const Node& n = g_.node(id);
      if (n.kind != NodeKind::CallFunction) continue;
      absl::StatusOr<Offset<pte::Instruction>> ins = isDelegateCall(n) ? emitDelegateCall(fb_, n) : kernelCall(n);
      if (!ins.ok()) return ins.status();
      instructions.push_back(*ins);
      std::vector<Offset<pte::Frame>> frames = isDelegateCall(n) ? emitDelegateFrames(fb_, ep_, n) : std::vector<Offset<pte::Frame>>{};
      for (const SourceFrame& f : n.meta.stack) {
        frames.push_back(pte::CreateFrameDirect(fb_, f.file.c_str(), static_cast<int32_t>(f.line), f.function.c_str(),
                                                n.name.c_str()));
      }
      any_source = any_source || !frames.empty();
      stacktraces.push_back(pte::CreateFrameListDirect(fb_, &frames));
    }
    report->instructions = instructions.size();
    std::vector<int32_t> inputs, outputs;
    for (ValueId v : g_.placeholders(InputKind::User)) inputs.push_back(v);
    for (ValueId v : g_.outputs()) outputs.push_back(v);
    auto chain = pte::CreateChainDirect(fb_, &inputs, &outputs, &instructions, any_source ? &stacktraces : nullptr);
    std::vector<Offset<pte::Chain>> chains{chain};
    std::vector<Offset<pte::Operator>> operators;
    for (const OperatorName& op : operator_names_) {
      operators.push_back(pte::CreateOperatorDirect(fb_, op.name.c_str(), op.overload_name.c_str()));
    }
    std::vector<int64_t> buffer_sizes{0, static_cast<int64_t>(report->planned_bytes)};
    std::vector<Offset<pte::BackendDelegate>> delegates;
    for (const std::shared_ptr<const LoweredModule>& m : ep_.lowered_modules()) {
      delegates.push_back(emitBackendDelegate(fb_, blobs_, *m));
    }
    report->delegates = delegates.size();
    return pte::CreateExecutionPlanDirect(fb_, name_.c_str(), 0, &values_, &inputs, &outputs, &chains, &operators,
                                          &delegates, &buffer_sizes);
  }

 private:
  absl::Status error(const std::string& what) const {
    return absl::InvalidArgumentError(sy::str("emitting method '", name_, "': ", what));
  }

  // Offsets in the planned buffer for user inputs and node results. See Note [Memory plans reuse
  // bytes of tensors whose lifetimes are disjoint].
  absl::Status planValues(EmittedMethod* report) {
    std::vector<int64_t> step_of_node(g_.nodes().size(), -1);
    int64_t steps = 0;
    for (size_t i = 0; i < g_.nodes().size(); ++i) {
      if (g_.nodes()[i].kind == NodeKind::CallFunction) step_of_node[i] = steps++;
    }
    std::vector<PlannedTensor> tensors;
    for (ValueId v = 0; v < static_cast<ValueId>(g_.numValues()); ++v) {
      const Node& producer = g_.node(g_.producer(v));
      if (producer.kind == NodeKind::Placeholder && producer.input_kind != InputKind::User) continue;
      PlannedTensor t;
      try {
        t.bytes = g_.value(v).meta.nbytes();
      } catch (const Error& e) {
        return error(sy::str("%", g_.value(v).name, ": ", e.what()));
      }
      t.first = producer.kind == NodeKind::Placeholder ? -1 : step_of_node[static_cast<size_t>(g_.producer(v))];
      t.last = t.first;
      for (NodeId user : g_.usersOf(v)) {
        const int64_t s = g_.node(user).kind == NodeKind::Output ? steps : step_of_node[static_cast<size_t>(user)];
        t.last = std::max(t.last, s);
      }
      planned_index_[v] = tensors.size();
      tensors.push_back(t);
    }
    try {
      plan_ = planMemory(tensors);
    } catch (const Error& e) {
      return error(e.what());
    }
    report->planned_bytes = plan_.planned_bytes;
    report->unplanned_bytes = plan_.unplanned_bytes;
    return absl::OkStatus();
  }

  absl::StatusOr<Offset<pte::EValue>> tensorValue(const TensorMeta& meta, const std::string& what,
                                                  std::optional<uint64_t> planned_offset, uint32_t data_buffer_idx) {
    std::optional<ProgramScalarType> dtype = toProgramScalarType(meta.dtype);
    if (!dtype) return error(sy::str(what, " is a ", toString(meta.dtype), " tensor, which the program format cannot hold"));
    if (meta.sizes.size() > std::numeric_limits<uint8_t>::max()) {
      return error(sy::str(what, " has ", meta.sizes.size(), " dimensions; the format holds at most 255"));
    }
    std::vector<int32_t> sizes;
    std::vector<uint8_t> dim_order;
    for (size_t d = 0; d < meta.sizes.size(); ++d) {
      if (meta.sizes[d] > std::numeric_limits<int32_t>::max()) {
        return error(sy::str(what, " has size ", meta.sizes[d], " in dimension ", d, "; the format holds 32-bit sizes"));
      }
      sizes.push_back(static_cast<int32_t>(meta.sizes[d]));
      dim_order.push_back(static_cast<uint8_t>(d));
    }
    auto sizes_v = fb_.CreateVector(sizes);
    auto dim_order_v = fb_.CreateVector(dim_order);
    Offset<pte::AllocationDetails> alloc = 0;
    if (planned_offset) {
      alloc = pte::CreateAllocationDetails(fb_, kPlannedMemoryId, static_cast<uint32_t>(*planned_offset),
                                           static_cast<uint32_t>(*planned_offset >> 32));
    }
    // See Note [Dynamic dimensions are found by capturing twice]: sizes are the bound.
    const pte::TensorShapeDynamism dynamism =
        meta.isDynamic() ? pte::TensorShapeDynamism::DYNAMIC_BOUND : pte::TensorShapeDynamism::STATIC;
    auto tensor = pte::CreateTensor(fb_, static_cast<pte::ScalarType>(*dtype), 0, sizes_v, dim_order_v, false,
                                    data_buffer_idx, alloc, 0, dynamism, 0);
    return pte::CreateEValue(fb_, pte::KernelTypes::Tensor, tensor.Union());
  }

  absl::StatusOr<Offset<pte::EValue>> graphValue(ValueId v) {
    const Value& value = g_.value(v);
    const Node& producer = g_.node(g_.producer(v));
    const std::string what = sy::str("%", value.name);
    if (producer.kind == NodeKind::Placeholder && producer.input_kind != InputKind::User) {
      const Tensor& t = ep_.stateOf(v);
      if (!t.is_cpu()) return error(sy::str(what, " ('", producer.target, "') is on ", t.device().str(), "; constants must be CPU tensors"));
      constants_read_.insert(t.unsafeGetTensorImpl());
      return tensorValue(value.meta, what, std::nullopt, pool_.add(t));
    }
    return tensorValue(value.meta, what, plan_.offsets[planned_index_.at(v)], 0);
  }

  int32_t append(Offset<pte::EValue> v) {
    values_.push_back(v);
    return static_cast<int32_t>(values_.size() - 1);
  }

  // A non-tensor argument as the format's value.
  absl::StatusOr<int32_t> constantValue(const IValue& c, const std::string& what) {
    if (c.isNone()) return append(pte::CreateEValue(fb_, pte::KernelTypes::Null, pte::CreateNull(fb_).Union()));
    if (c.isInt()) return append(pte::CreateEValue(fb_, pte::KernelTypes::Int, pte::CreateInt(fb_, c.toInt()).Union()));
    if (c.isDouble()) return append(pte::CreateEValue(fb_, pte::KernelTypes::Double, pte::CreateDouble(fb_, c.toDouble()).Union()));
    if (c.isBool()) return append(pte::CreateEValue(fb_, pte::KernelTypes::Bool, pte::CreateBool(fb_, c.toBool()).Union()));
    if (c.isString()) {
      return append(pte::CreateEValue(fb_, pte::KernelTypes::String, pte::CreateStringDirect(fb_, c.toStringRef().c_str()).Union()));
    }
    if (c.isScalarType()) {
      std::optional<ProgramScalarType> code = toProgramScalarType(c.toScalarType());
      if (!code) return error(sy::str(what, " is dtype ", toString(c.toScalarType()), ", which the format cannot name"));
      return append(pte::CreateEValue(fb_, pte::KernelTypes::Int, pte::CreateInt(fb_, static_cast<int64_t>(*code)).Union()));
    }
    if (c.isIntList()) {
      std::vector<int64_t> items;
      for (int64_t x : c.toIntList()) items.push_back(append(pte::CreateEValue(fb_, pte::KernelTypes::Int, pte::CreateInt(fb_, x).Union())));
      return append(pte::CreateEValue(fb_, pte::KernelTypes::IntList, pte::CreateIntListDirect(fb_, &items).Union()));
    }
    if (c.isDoubleList()) {
      std::vector<double> items = c.toDoubleList();
      return append(pte::CreateEValue(fb_, pte::KernelTypes::DoubleList, pte::CreateDoubleListDirect(fb_, &items).Union()));
    }
    if (c.isBoolList()) {
      std::vector<uint8_t> items(c.toBoolList().begin(), c.toBoolList().end());
      auto v = fb_.CreateVector(items);
      return append(pte::CreateEValue(fb_, pte::KernelTypes::BoolList, pte::CreateBoolList(fb_, v).Union()));
    }
    return error(sy::str(what, " is a ", c.typeName(), ", which the program format has no value for"));
  }

  uint32_t operatorIndex(const OperatorName& name) {
    for (size_t i = 0; i < operator_names_.size(); ++i) {
      if (operator_names_[i] == name) return static_cast<uint32_t>(i);
    }
    operator_names_.push_back(name);
    return static_cast<uint32_t>(operator_names_.size() - 1);
  }

  absl::StatusOr<Offset<pte::Instruction>> kernelCall(const Node& n) {
    const FunctionSchema& schema = n.op->schema();
    std::optional<OperatorHandle> out_variant;
    try {
      out_variant = findOutVariant(schema);
    } catch (const Error& e) {
      return error(sy::str("node '", n.name, "': ", e.what()));
    }
    if (!out_variant && keepsElementOrder(schema)) return viewCopyCall(n);
    if (!out_variant) {
      return error(sy::str("node '", n.name, "' calls ", schema.operator_name(),
                           ", which has no out variant registered (a program calls out= variants only; define ",
                           isViewOperator(schema) ? schema.name() + "_copy" : schema.name(), ".out, or avoid the operator)"));
    }
    std::vector<int32_t> args;
    for (size_t i = 0; i < n.args.size(); ++i) {
      const NodeArgument& a = n.args[i];
      const std::string what = sy::str("argument '", schema.arguments()[i].name, "' of node '", n.name, "'");
      switch (a.kind) {
        case NodeArgument::Kind::Value: args.push_back(a.value); break;
        case NodeArgument::Kind::ValueList: {
          std::vector<int32_t> items(a.values.begin(), a.values.end());
          args.push_back(append(pte::CreateEValue(fb_, pte::KernelTypes::TensorList, pte::CreateTensorListDirect(fb_, &items).Union())));
          break;
        }
        case NodeArgument::Kind::OptionalValueList: {
          std::vector<int32_t> items(a.values.begin(), a.values.end());
          args.push_back(append(pte::CreateEValue(fb_, pte::KernelTypes::OptionalTensorList,
                                                  pte::CreateOptionalTensorListDirect(fb_, &items).Union())));
          break;
        }
        case NodeArgument::Kind::Constant: {
          absl::StatusOr<int32_t> v = constantValue(a.constant, what);
          if (!v.ok()) return v.status();
          args.push_back(*v);
          break;
        }
      }
    }
    for (ValueId v : n.outputs) args.push_back(v);  // the out= arguments
    for (ValueId v : n.outputs) args.push_back(v);  // the results: the same values
    const uint32_t op = operatorIndex(out_variant->operator_name());
    return pte::CreateInstruction(fb_, pte::InstructionArguments::KernelCall,
                                  pte::CreateKernelCallDirect(fb_, static_cast<int32_t>(op), &args).Union());
  }

  // Note [Views that keep element order are emitted as view_copy]
  // Some view operators have no `_copy` out variant (reshape, contiguous, squeeze, flatten), but
  // their result lists the input's elements in the same row-major order, only with other sizes. In
  // a functional graph such a node is a copy into a tensor of the result's sizes, which is what
  // view_copy.out writes, so it is emitted as view_copy.out(self, sizes of the result). Which views
  // keep the order is a property of what the operator does, not of its schema, hence the list.
  static bool keepsElementOrder(const FunctionSchema& schema) {
    static const char* const kOrderKeepingViews[] = {"aten::reshape", "aten::contiguous", "aten::squeeze",
                                                     "aten::unsqueeze", "aten::flatten", "aten::alias", "aten::view"};
    if (!isViewOperator(schema)) return false;
    for (const char* name : kOrderKeepingViews) {
      if (schema.name() == name) return true;
    }
    return false;
  }

  absl::StatusOr<Offset<pte::Instruction>> viewCopyCall(const Node& n) {
    std::optional<OperatorHandle> view_copy = Dispatcher::singleton().findSchema(OperatorName{"aten::view_copy", "out"});
    if (!view_copy) return error(sy::str("node '", n.name, "' (", n.op->operator_name(), ") needs aten::view_copy.out, which is not registered"));
    if (n.args.empty() || n.args[0].kind != NodeArgument::Kind::Value || n.outputs.size() != 1) {
      return error(sy::str("node '", n.name, "' (", n.op->operator_name(), ") does not read one tensor and write one"));
    }
    // A dynamic dimension's size is inferred at run time (See Note [Dynamic dimensions are found by
    // capturing twice]); view_copy infers at most one.
    const TensorMeta& result = g_.value(n.outputs[0]).meta;
    std::vector<int64_t> result_sizes = result.sizes;
    size_t inferred = 0;
    for (size_t d = 0; d < result_sizes.size(); ++d) {
      if (result.isDynamic(d)) result_sizes[d] = -1, ++inferred;
    }
    if (inferred > 1) {
      return error(sy::str("node '", n.name, "' (", n.op->operator_name(), ") makes ", result.str(), ", with ", inferred,
                           " dynamic dimensions; view_copy infers at most one"));
    }
    absl::StatusOr<int32_t> sizes = constantValue(IValue(result_sizes), "the sizes of node '" + n.name + "'");
    if (!sizes.ok()) return sizes.status();
    std::vector<int32_t> args{n.args[0].value, *sizes, n.outputs[0], n.outputs[0]};
    const uint32_t op = operatorIndex(view_copy->operator_name());
    return pte::CreateInstruction(fb_, pte::InstructionArguments::KernelCall,
                                  pte::CreateKernelCallDirect(fb_, static_cast<int32_t>(op), &args).Union());
  }

  FlatBufferBuilder& fb_;
  ConstantPool& pool_;
  DelegateBlobs& blobs_;
  std::string name_;
  const ExportedProgram& ep_;
  const Graph& g_;
  std::vector<Offset<pte::EValue>> values_;
  std::vector<OperatorName> operator_names_;
  std::unordered_map<ValueId, size_t> planned_index_;
  MemoryPlan plan_;
  std::set<const TensorImpl*> constants_read_;
};

}  // namespace

absl::StatusOr<EmittedProgram> emitProgram(const std::vector<MethodToEmit>& methods, const EmitOptions& options) {
  if (methods.empty()) return absl::InvalidArgumentError("emitProgram: no methods to emit");
  std::set<std::string> names;
  for (const MethodToEmit& m : methods) {
    if (m.name.empty()) return absl::InvalidArgumentError("emitProgram: a method has an empty name");
    if (!names.insert(m.name).second) return absl::InvalidArgumentError(sy::str("emitProgram: two methods are called '", m.name, "'"));
    if (m.program == nullptr) return absl::InvalidArgumentError(sy::str("emitProgram: method '", m.name, "' has no program"));
  }
  FlatBufferBuilder fb;
  ConstantPool pool;
  DelegateBlobs blobs;
  blobs.in_segments = options.delegate_blobs_in_segments;
  EmittedProgram result;
  std::vector<Offset<pte::ExecutionPlan>> plans;
  for (const MethodToEmit& m : methods) {
    MethodEmitter emitter(fb, pool, blobs, m);
    EmittedMethod report;
    absl::StatusOr<Offset<pte::ExecutionPlan>> plan = emitter.emit(&report);
    if (!plan.ok()) return plan.status();
    report.constants = emitter.constantsRead();
    plans.push_back(*plan);
    result.methods.push_back(std::move(report));
  }
  if (!blobs.error.ok()) return blobs.error;
  // Delegate segments first, then named data, then the constant segment (See Note [How the
  // emitter lays out a program file]).
  std::vector<std::vector<uint8_t>> segments = std::move(blobs.segments);
  std::vector<Offset<pte::NamedData>> named_data;
  for (const auto& [key, bytes] : blobs.named) {
    named_data.push_back(pte::CreateNamedDataDirect(fb, key.c_str(), static_cast<uint32_t>(segments.size())));
    segments.push_back(*bytes);
  }
  // See Note [A program always has its constant segment] in program_file.h.
  const Offset<pte::SubsegmentOffsets> constant_segment =
      pte::CreateSubsegmentOffsetsDirect(fb, static_cast<uint32_t>(segments.size()), &pool.offsets);
  segments.push_back(pool.segment);
  result.constant_bytes = pool.segment.size();
  std::vector<Offset<pte::DataSegment>> segment_table;
  const std::vector<uint64_t> offsets = segmentOffsets(segments);
  for (size_t i = 0; i < segments.size(); ++i) segment_table.push_back(pte::CreateDataSegment(fb, offsets[i], segments[i].size()));
  std::vector<Offset<pte::Buffer>> constant_buffer;
  std::vector<Offset<pte::BackendDelegateInlineData>> inline_data;
  for (const std::vector<uint8_t>& blob : blobs.inline_data) {
    inline_data.push_back(pte::CreateBackendDelegateInlineDataDirect(fb, &blob));
  }
  auto root = pte::CreateProgramDirect(fb, 0, &plans, &constant_buffer, &inline_data, &segment_table, constant_segment,
                                       nullptr, named_data.empty() ? nullptr : &named_data);
  pte::FinishProgramBuffer(fb, root);
  result.bytes = assembleProgramFile(fb.GetBufferPointer(), fb.GetSize(), segments);
  return result;
}

absl::StatusOr<EmittedProgram> emitProgram(const ExportedProgram& program, std::string method, const EmitOptions& options) {
  return emitProgram(std::vector<MethodToEmit>{{std::move(method), &program}}, options);
}

absl::Status EmittedProgram::save(const std::string& path) const {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return absl::NotFoundError(sy::str("cannot open '", path, "' for writing"));
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) return absl::DataLossError(sy::str("writing the ", bytes.size(), " bytes of the program to '", path, "' failed"));
  return absl::OkStatus();
}

}  // namespace sy::export_
