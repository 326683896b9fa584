// Program::load_method: everything that can be decided before a method runs, decided once.
// See method.h for what a loaded method guarantees, and See Note [Prepared kernel calls].
#include <algorithm>
#include <cstring>

#include "switchyard/core/error.h"
#include "switchyard/core/error_status.h"
#include "absl/strings/str_join.h"
#include "switchyard/delegate/backend_registry.h"
#include "switchyard/delegate/delegate_debug_handle.h"
#include "switchyard/dispatcher/dispatcher.h"
#include "switchyard/dispatcher/partial_kernels.h"
#include "switchyard/program/method_state.h"
#include "switchyard/program/named_data_internal.h"
#include "switchyard/program/program.h"
#include "switchyard/program/tensor_memory.h"

namespace sy {

using namespace program_internal;  // NOLINT: this file builds the internal state

namespace {

absl::Status invalid(const MethodState& m, const std::string& what) {
  return absl::InvalidArgumentError(sy::str(m.where, ": ", what));
}


// " at model.cpp:12 (in forward)": where the chain's stack trace says instruction `i` came from
// (its innermost frame), or "" when the program has no stack traces or no frame for it.
std::string sourceOf(const pte::Chain& chain, size_t i) {
  const auto* traces = chain.stacktrace();
  if (traces == nullptr || i >= traces->size()) return "";
  const pte::FrameList* frames = traces->Get(static_cast<uint32_t>(i));
  if (frames == nullptr || frames->items() == nullptr || frames->items()->size() == 0) return "";
  const pte::Frame* frame = frames->items()->Get(frames->items()->size() - 1);
  if (frame == nullptr || frame->filename() == nullptr) return "";
  std::string out = sy::str(" at ", view(frame->filename()), ":", frame->lineno());
  if (frame->name() != nullptr && frame->name()->size() > 0) out += sy::str(" (in ", view(frame->name()), ")");
  return out;
}

// The delegate debug handles the frames of instruction `i` map back to, with where each came
// from (See Note [A program file keeps a delegate's debug-handle map in its stack traces]).
std::map<int64_t, std::string> delegateDebugHandleSources(const pte::Chain& chain, size_t i) {
  std::map<int64_t, std::string> sources;
  const auto* traces = chain.stacktrace();
  if (traces == nullptr || i >= traces->size()) return sources;
  const pte::FrameList* frames = traces->Get(static_cast<uint32_t>(i));
  if (frames == nullptr || frames->items() == nullptr) return sources;
  for (const pte::Frame* frame : *frames->items()) {
    if (frame == nullptr || frame->context() == nullptr) continue;
    std::optional<std::pair<int64_t, std::string>> parsed = parseDelegateFrameContext(view(frame->context()));
    if (!parsed) continue;
    std::string origin = std::move(parsed->second);
    if (frame->filename() != nullptr && frame->filename()->size() > 0) {
      origin += sy::str(" at ", view(frame->filename()), ":", frame->lineno());
      if (frame->name() != nullptr && frame->name()->size() > 0) origin += sy::str(" (in ", view(frame->name()), ")");
    }
    std::string& text = sources[parsed->first];
    text += (text.empty() ? "" : "; ") + origin;
  }
  return sources;
}

class MethodBuilder {
 public:
  MethodBuilder(std::shared_ptr<const ProgramData> program, const pte::ExecutionPlan& plan, const MethodOptions& options)
      : plan_(plan), options_(options), state_(std::make_unique<MethodState>()) {
    state_->program = std::move(program);
    state_->data_files = options.data_files;
    state_->name = std::string(view(plan.name()));
    state_->where = state_->program->where(plan);
  }

  absl::StatusOr<std::unique_ptr<MethodState>> build() {
    if (auto s = refuseOtherDevices(plan_, state_->where); !s.ok()) return s;
    if (auto s = resolveOperatorsAndBackends(); !s.ok()) return s;
    if (auto s = layOutMemory(); !s.ok()) return s;
    if (auto s = buildValues(); !s.ok()) return s;
    if (auto s = initDelegates(); !s.ok()) return s;
    if (auto s = buildInstructions(); !s.ok()) return s;
    bindInputsAndOutputs();
    if (auto s = findReusedInputs(); !s.ok()) return s;
    return std::move(state_);
  }

 private:
  // Every operator and backend the method needs, looked up once; everything missing in one error.
  absl::Status resolveOperatorsAndBackends() {
    std::vector<std::string> problems;
    std::vector<std::string> missing_operators;
    if (plan_.operators() != nullptr) {
      for (const pte::Operator* op : *plan_.operators()) {
        OperatorName name{std::string(view(op->name())), std::string(view(op->overload()))};
        std::optional<OperatorHandle> handle = Dispatcher::singleton().findSchema(name);
        // A CPU kernel or partial kernels (See Note [Kernel calls resolve their kernel key at load]).
        if (!handle || !(handle->hasKernelForDispatchKey(DispatchKey::CPU) ||
                         !PartialKernelRegistry::singleton().keysFor(name).empty())) {
          missing_operators.push_back(handle ? name.toString() + " (defined, but with no CPU kernel)" : name.toString());
          operators_.emplace_back(nullptr);
        } else {
          operators_.push_back(*handle);
        }
      }
    }
    if (!missing_operators.empty()) {
      problems.push_back(sy::str("method '", state_->name, "' needs ", missing_operators.size(),
                                      missing_operators.size() == 1 ? " operator" : " operators",
                                      " that Switchyard does not have: ", absl::StrJoin(missing_operators, ", "),
                                      " (register kernels for them, or re-export without them)"));
    }
    if (plan_.delegates() != nullptr) {
      for (size_t i = 0; i < plan_.delegates()->size(); ++i) {
        const std::string id(view(plan_.delegates()->Get(static_cast<uint32_t>(i))->id()));
        BackendInterface* backend = get_backend_class(id);
        if (backend == nullptr || !backend->is_available()) {
          std::vector<std::string> names = registered_backend_names();
          problems.push_back(sy::str("method '", state_->name, "' needs backend '", id, "' (delegate ", i, "), which ",
                                          backend == nullptr ? "is not registered" : "is registered but not available here",
                                          "; registered backends: ", names.empty() ? "none" : absl::StrJoin(names, ", ")));
        }
        backends_.push_back(backend);
      }
    }
    if (problems.empty()) return absl::OkStatus();
    // Unimplemented: the program is fine, Switchyard lacks what it needs (See Note [An error keeps
    // its kind across every boundary]).
    return absl::UnimplementedError(sy::str("program '", state_->program->name, "': ", absl::StrJoin(problems, "; ")));
  }

  absl::Status layOutMemory() {
    const auto* sizes = plan_.non_const_buffer_sizes();
    const size_t count = sizes == nullptr ? 0 : sizes->size();
    buffers_.assign(count, absl::Span<uint8_t>());
    for (size_t id = 1; id < count; ++id) {
      const uint64_t size = static_cast<uint64_t>(elementAt(sizes, id));
      if (options_.planned_memory != nullptr) {
        const auto& given = options_.planned_memory->buffers;
        if (id >= given.size() || given[id].size() < size) {
          return invalid(*state_, sy::str("planned buffer ", id, " needs ", size, " bytes, but the PlannedMemory given ",
                                               id >= given.size() ? "has no such buffer" : sy::str("has ", given[id].size())));
        }
        buffers_[id] = given[id];
      } else {
        if (auto s = reserve(size, sy::str("planned buffer ", id)); !s.ok()) return s;
        ZeroedBuffer buffer(static_cast<uint8_t*>(std::calloc(static_cast<size_t>(size) + 1, 1)));
        if (buffer == nullptr) {
          return absl::ResourceExhaustedError(sy::str(state_->where, ": cannot allocate the ", size, " bytes of planned buffer ", id));
        }
        buffers_[id] = absl::Span<uint8_t>(buffer.get(), static_cast<size_t>(size));
        state_->owned_buffers.push_back(std::move(buffer));
      }
    }
    return absl::OkStatus();
  }

  absl::StatusOr<absl::Span<const uint8_t>> externalData(const pte::Tensor& t, const TensorGeometry& g, size_t index) {
    const std::string key(view(t.extra_tensor_info()->fully_qualified_name()));
    for (const auto& file : options_.data_files) {
      const DataFile::Entry* entry = file == nullptr ? nullptr : file->find(key);
      if (entry == nullptr) continue;
      if ((entry->dtype && *entry->dtype != g.dtype) || (entry->dtype && entry->sizes != g.sizes) || entry->bytes.size() < g.nbytes) {
        return invalid(*state_, sy::str("value ", index, " ('", key, "') is a ", toString(g.dtype), " tensor of ",
                                             g.nbytes, " bytes, but data file '", file->name(), "' holds ",
                                             entry->dtype ? std::string(toString(*entry->dtype)) : "untyped data", " of ",
                                             entry->bytes.size(), " bytes under that name"));
      }
      return entry->bytes.subspan(0, g.nbytes);
    }
    std::vector<std::string> names;
    for (const auto& file : options_.data_files) names.push_back(file == nullptr ? "<null>" : file->name());
    return absl::NotFoundError(sy::str(state_->where, ": external tensor '", key, "' (value ", index, ") is in none of the data files given (",
                                            names.empty() ? "none" : absl::StrJoin(names, ", "),
                                            "); pass the .ptd file that holds it"));
  }

  absl::StatusOr<IValue> buildTensor(const pte::Tensor& t, size_t index) {
    absl::StatusOr<TensorGeometry> g = tensorGeometry(t);  // validated at load; cannot fail here
    if (!g.ok()) return g.status();
    std::optional<ScalarType> dtype = toSwitchyardScalarType(g->dtype);
    if (!dtype) {
      // Validation refused unknown codes, and every code the format defines is a ScalarType (See
      // Note [Every scalar type of the format loads]).
      return invalid(*state_, sy::str("value ", index, " has dtype code ", static_cast<int>(g->dtype),
                                      ", which the format does not define"));
    }
    const pte::ExtraTensorInfo* extra = t.extra_tensor_info();
    const bool external = extra != nullptr && extra->location() == pte::TensorDataLocation::EXTERNAL;
    absl::Span<const uint8_t> initial;
    if (external) {
      absl::StatusOr<absl::Span<const uint8_t>> data = externalData(t, *g, index);
      if (!data.ok()) return data.status();
      initial = *data;
    } else {
      absl::StatusOr<absl::Span<const uint8_t>> data = state_->program->storedTensorData(t, g->nbytes);
      if (!data.ok()) return invalid(*state_, sy::str("value ", index, ": ", data.status().message()));
      initial = *data;
    }
    const size_t nbytes = static_cast<size_t>(g->nbytes);
    TensorBound bound{t.shape_dynamism(), SizesVector(g->sizes.begin(), g->sizes.end()),
                      SizesVector(g->dim_order.begin(), g->dim_order.end())};
    const pte::AllocationDetails* alloc = t.allocation_info();
    if (bound.dynamism == pte::TensorShapeDynamism::DYNAMIC_UNBOUND && (alloc != nullptr || initial.empty())) {
      // See Note [Unbounded tensors get memory at run time].
      if (auto s = reserve(nbytes, sy::str("value ", index)); !s.ok()) return s;
      auto storage = make_intrusive<StorageImpl>(nbytes, getAllocator(DeviceType::CPU), kCPU);
      if (!initial.empty()) std::memcpy(storage->data(), initial.data(), nbytes);
      return IValue(tensorOn(std::move(storage), *dtype, *g, t.storage_offset()));
    }
    uint8_t* data = nullptr;
    if (alloc != nullptr) {
      // Planned memory, in range (checked at load); an initial value is copied in.
      const uint64_t offset = static_cast<uint64_t>(alloc->memory_offset_high()) << 32 | alloc->memory_offset_low();
      data = buffers_[alloc->memory_id()].data() + offset;
      if (auto s = checkAligned(data, *dtype, index, sy::str("offset ", offset, " of planned buffer ", alloc->memory_id()));
          !s.ok()) {
        return s;
      }
      if (!initial.empty()) std::memcpy(data, initial.data(), nbytes);
    } else if (!initial.empty()) {
      // Constant data read in place. Kernels do not write their inputs; the bytes are the program's own copy.
      if (auto s = checkAligned(initial.data(), *dtype, index, external ? "its data file" : "the program's constant data");
          !s.ok()) {
        return s;
      }
      DataPtr constant{const_cast<uint8_t*>(initial.data()), nullptr, nullptr, kCPU};
      return IValue(tensorOn(make_intrusive<StorageImpl>(std::move(constant), nbytes), *dtype, *g, t.storage_offset()));
    } else {
      // No plan: memory of the method's own from the CPU allocator, at the tensor's bound.
      if (auto s = reserve(nbytes, sy::str("value ", index)); !s.ok()) return s;
      Storage& own = state_->owned_storages.emplace_back(make_intrusive<StorageImpl>(nbytes, getAllocator(DeviceType::CPU), kCPU));
      data = static_cast<uint8_t*>(own->data());
    }
    // See Note [A method's tensors change sizes within the memory planned for them].
    state_->tensor_memory.push_back(std::make_unique<BoundedMemory>(data, nbytes, index, std::move(bound)));
    return IValue(tensorOver(*dtype, *g, state_->tensor_memory.back().get(), nbytes, t.storage_offset()));
  }

  // See Note [Tensor data is aligned for its dtype]: data placed by the file (a planned offset, a
  // constant's offset in its segment) or by the caller (a PlannedMemory buffer, a data file) is
  // checked here, since kernels read it through typed pointers.
  absl::Status checkAligned(const uint8_t* data, ScalarType dtype, size_t index, const std::string& where) const {
    const size_t alignment = elementSize(dtype);
    if (reinterpret_cast<uintptr_t>(data) % alignment == 0) return absl::OkStatus();
    return invalid(*state_, sy::str("value ", index, ": the ", toString(dtype), " data at ", where, " is not aligned to ",
                                    alignment, " bytes, as ", toString(dtype),
                                    " elements must be (the exporter aligns every tensor; a hand-edited or corrupt file, "
                                    "or a PlannedMemory buffer at an odd address, does not)"));
  }

  // Counts `bytes` against kMaxMethodAllocationBytes, so that a hostile file cannot make loading
  // exhaust memory.
  absl::Status reserve(uint64_t bytes, const std::string& what) {
    if (bytes > kMaxMethodAllocationBytes - allocated_) {
      return absl::ResourceExhaustedError(sy::str(state_->where, ": ", what, " needs ", bytes, " bytes, which would take the method past ",
                                                  kMaxMethodAllocationBytes, " bytes of memory allocated at load"));
    }
    allocated_ += bytes;
    return absl::OkStatus();
  }

  absl::Status buildValues() {
    const auto* values = plan_.values();
    const size_t n = values == nullptr ? 0 : values->size();
    state_->values.resize(n);
    state_->list_items.resize(n);
    // Scalars and tensors first: lists refer to them by index, in either direction.
    for (size_t i = 0; i < n; ++i) {
      const pte::EValue* v = values->Get(static_cast<uint32_t>(i));
      IValue& out = state_->values[i];
      switch (v->val_type()) {
        case pte::KernelTypes::Int: out = IValue(v->val_as_Int()->int_val()); break;
        case pte::KernelTypes::Bool: out = IValue(v->val_as_Bool()->bool_val()); break;
        case pte::KernelTypes::Double: out = IValue(v->val_as_Double()->double_val()); break;
        case pte::KernelTypes::String: out = IValue(std::string(view(v->val_as_String()->string_val()))); break;
        case pte::KernelTypes::DoubleList: {
          const auto* items = v->val_as_DoubleList()->items();
          out = IValue(elementsOf(items));
          break;
        }
        case pte::KernelTypes::BoolList: {
          const auto* items = v->val_as_BoolList()->items();
          std::vector<bool> list;
          for (size_t k = 0; items != nullptr && k < items->size(); ++k) list.push_back(items->Get(static_cast<uint32_t>(k)) != 0);
          out = IValue(std::move(list));
          break;
        }
        case pte::KernelTypes::Tensor: {
          absl::StatusOr<IValue> t = buildTensor(*v->val_as_Tensor(), i);
          if (!t.ok()) return t.status();
          out = std::move(*t);
          break;
        }
        default: break;  // Null stays None; lists below
      }
    }
    for (size_t i = 0; i < n; ++i) {
      const pte::EValue* v = values->Get(static_cast<uint32_t>(i));
      std::vector<int32_t>& items = state_->list_items[i];
      if (const pte::IntList* list = v->val_as_IntList()) {
        std::vector<int64_t> ints;
        for (int64_t ref : elementsOf(list->items())) {
          items.push_back(static_cast<int32_t>(ref));
          ints.push_back(state_->values[static_cast<size_t>(ref)].toInt());
        }
        state_->values[i] = IValue(ints);
      } else if (const pte::TensorList* list = v->val_as_TensorList()) {
        std::vector<Tensor> tensors;
        for (int32_t ref : elementsOf(list->items())) {
          items.push_back(ref);
          tensors.push_back(state_->values[static_cast<size_t>(ref)].toTensor());
        }
        state_->values[i] = IValue(std::move(tensors));
      } else if (const pte::OptionalTensorList* list = v->val_as_OptionalTensorList()) {
        std::vector<IValue> elements;
        for (int32_t ref : elementsOf(list->items())) {
          items.push_back(ref);
          elements.push_back(state_->values[static_cast<size_t>(ref)]);
        }
        state_->values[i] = IValue(std::move(elements));
      }
    }
    return absl::OkStatus();
  }

  absl::Status initDelegates() {
    if (plan_.delegates() == nullptr) return absl::OkStatus();
    const MethodNamedData named_data(state_->program, options_.data_files);
    for (size_t i = 0; i < plan_.delegates()->size(); ++i) {
      const pte::BackendDelegate* d = plan_.delegates()->Get(static_cast<uint32_t>(i));
      absl::StatusOr<absl::Span<const uint8_t>> blob = state_->program->delegateData(*d);
      if (!blob.ok()) return invalid(*state_, sy::str("delegate ", i, ": ", blob.status().message()));
      FreeableBuffer processed(blob->data(), blob->size(), std::shared_ptr<const void>(state_->program));
      std::vector<CompileSpec> specs;
      if (d->compile_specs() != nullptr) {
        for (const pte::CompileSpec* spec : *d->compile_specs()) {
          absl::Span<const uint8_t> value;
          if (spec->value() != nullptr) value = absl::Span<const uint8_t>(spec->value()->data(), spec->value()->size());
          specs.push_back(CompileSpec{view(spec->key()), value});
        }
      }
      std::vector<CompileSpec> runtime_specs;
      if (auto found = options_.backend_options.find(view(d->id())); found != options_.backend_options.end()) {
        for (const MethodOptions::BackendOption& o : found->second) {
          runtime_specs.push_back(CompileSpec{o.key, absl::Span<const uint8_t>(
                                                         reinterpret_cast<const uint8_t*>(o.value.data()), o.value.size())});
        }
      }
      BackendInitContext context{state_->name, i, &named_data, runtime_specs};
      absl::StatusOr<DelegateHandle*> handle = backends_[i]->init(context, &processed, specs);
      processed.Free();  // a no-op when the backend took the buffer
      if (!handle.ok()) {
        return absl::Status(handle.status().code(),
                            sy::str(state_->where, ": delegate ", i, " (backend '", view(d->id()),
                                         "') failed to initialise: ", handle.status().message()));
      }
      auto instance = std::make_unique<DelegateInstance>();
      instance->backend = backends_[i];
      instance->handle = *handle;
      instance->backend_name = std::string(view(d->id()));
      state_->delegates.push_back(std::move(instance));
    }
    return absl::OkStatus();
  }

  absl::Status buildInstructions() {
    if (plan_.chains() == nullptr) return absl::OkStatus();
    size_t num_delegate_calls = 0;
    for (const pte::Chain* chain : *plan_.chains()) {
      if (chain->instructions() == nullptr) continue;
      for (const pte::Instruction* ins : *chain->instructions()) {
        num_delegate_calls += ins->instr_args_type() == pte::InstructionArguments::DelegateCall;
      }
    }
    state_->delegate_calls.reserve(num_delegate_calls);  // frames point into their own elements
    // The numbers that change at run time (See Note [Prepared kernel calls]): inputs, which
    // set_input replaces, and what instructions write.
    std::vector<bool> changing(state_->values.size(), false);
    if (plan_.inputs() != nullptr) {
      for (int32_t i : *plan_.inputs()) {
        if (!state_->values[static_cast<size_t>(i)].isTensor()) changing[static_cast<size_t>(i)] = true;
      }
    }
    for (const pte::Chain* chain : *plan_.chains()) {
      if (chain->instructions() == nullptr) continue;
      for (const pte::Instruction* ins : *chain->instructions()) {
        if (const pte::MoveCall* move = ins->instr_args_as_MoveCall()) {
          const IValue& from = state_->values[static_cast<size_t>(move->move_from())];
          const IValue& to = state_->values[static_cast<size_t>(move->move_to())];
          // Kernel calls hold the address of a tensor value's Tensor (See Note [Prepared kernel
          // calls]): a tensor value must stay a tensor.
          if (from.isTensor() != to.isTensor()) {
            return invalid(*state_, sy::str("a MoveCall moves value ", move->move_from(), " (", from.typeName(),
                                            ") into value ", move->move_to(), " (", to.typeName(),
                                            "); a tensor value can only be moved into and out of another tensor value"));
          }
          changing[static_cast<size_t>(move->move_to())] = !to.isTensor();
        } else if (const pte::KernelCall* call = ins->instr_args_as_KernelCall()) {
          const OperatorHandle& op = operators_[static_cast<size_t>(call->op_index())];
          const size_t num_arguments = op.schema().arguments().size();
          for (size_t k = num_arguments; call->args() != nullptr && k < call->args()->size(); ++k) {
            const size_t v = static_cast<size_t>(call->args()->Get(static_cast<uint32_t>(k)));
            if (!state_->values[v].isTensor() && !state_->values[v].isTensorList()) changing[v] = true;
          }
        }
      }
    }
    size_t max_stack = 3;
    uint32_t chain_index = 0;
    for (const pte::Chain* chain : *plan_.chains()) {
      const uint32_t chain_start = static_cast<uint32_t>(state_->instructions.size());
      ++chain_index;
      if (chain->instructions() == nullptr) continue;
      for (const pte::Instruction* ins : *chain->instructions()) {
        const size_t pc = state_->instructions.size();
        state_->instruction_places.emplace_back(chain_index - 1, static_cast<int32_t>(pc - chain_start));
        state_->instruction_ops.emplace_back();
        state_->instruction_writes.emplace_back();
        switch (ins->instr_args_type()) {
          case pte::InstructionArguments::KernelCall: {
            const pte::KernelCall* call = ins->instr_args_as_KernelCall();
            const OperatorHandle& op = operators_[static_cast<size_t>(call->op_index())];
            std::string what = sy::str(state_->where, ": instruction ", pc, " (", op.operator_name().toString(), ")");
            absl::Span<const int32_t> args;
            if (call->args() != nullptr) args = absl::Span<const int32_t>(call->args()->data(), call->args()->size());
            absl::StatusOr<PreparedKernelCall> prepared = prepareKernelCall(op, args, state_->values, state_->list_items, changing, what);
            if (!prepared.ok()) return prepared.status();
            max_stack = std::max<size_t>(max_stack, std::max(prepared->arguments.size(), size_t{prepared->num_results}));
            state_->instructions.push_back({InstructionKind::Kernel, static_cast<uint32_t>(state_->kernel_calls.size()), 0,
                                            0, prepared->shaped.get()});
            state_->instruction_names.push_back(sy::str("instruction ", pc, " (", op.operator_name().toString(), ")",
                                                        sourceOf(*chain, pc - chain_start)));
            state_->kernel_calls.push_back(std::move(*prepared));
            state_->instruction_ops.back() = op.operator_name().toString();
            state_->instruction_writes.back() = tensorsWritten(op, args, state_->values, state_->list_items);
            break;
          }
          case pte::InstructionArguments::DelegateCall: {
            const pte::DelegateCall* call = ins->instr_args_as_DelegateCall();
            const size_t index = static_cast<size_t>(call->delegate_index());
            const DelegateInstance& instance = *state_->delegates[index];
            PreparedDelegateCall& prepared = state_->delegate_calls.emplace_back();
            std::vector<Tensor> tensors;
            if (call->args() != nullptr) {
              for (int32_t ref : *call->args()) {
                IValue* value = &state_->values[static_cast<size_t>(ref)];
                prepared.args.push_back(value);
                if (value->isTensor()) tensors.push_back(value->toTensor());
              }
            }
            prepared.arguments.emplace_back(instance.backend_name);
            prepared.arguments.emplace_back(static_cast<int64_t>(index));
            prepared.arguments.emplace_back(std::move(tensors));
            prepared.frame.backend = instance.backend;
            prepared.frame.handle = instance.handle;
            prepared.frame.context = BackendExecutionContext{state_->name, index};
            prepared.frame.args = absl::MakeSpan(prepared.args);
            prepared.debug_handle_sources = delegateDebugHandleSources(*chain, pc - chain_start);
            prepared.frame.debug_handle_sources = &prepared.debug_handle_sources;
            state_->instructions.push_back(
                {InstructionKind::Delegate, static_cast<uint32_t>(state_->delegate_calls.size() - 1), 0});
            state_->instruction_names.push_back(sy::str("instruction ", pc, " (delegate ", index, ", backend '",
                                                             instance.backend_name, "')"));
            state_->instruction_ops.back() = instance.backend_name;
            break;
          }
          case pte::InstructionArguments::MoveCall: {
            const pte::MoveCall* call = ins->instr_args_as_MoveCall();
            state_->instructions.push_back({InstructionKind::Move, static_cast<uint32_t>(call->move_from()),
                                            static_cast<uint32_t>(call->move_to())});
            state_->instruction_names.push_back(sy::str("instruction ", pc, " (move)"));
            break;
          }
          case pte::InstructionArguments::JumpFalseCall: {
            const pte::JumpFalseCall* call = ins->instr_args_as_JumpFalseCall();
            state_->instructions.push_back({InstructionKind::JumpFalse, static_cast<uint32_t>(call->cond_value_index()),
                                            chain_start + static_cast<uint32_t>(call->destination_instruction())});
            state_->instruction_names.push_back(sy::str("instruction ", pc, " (jump if false)"));
            break;
          }
          default:  // FreeCall: planned memory is reused by plan, not freed
            state_->instructions.push_back({InstructionKind::Free, 0, 0});
            state_->instruction_names.push_back(sy::str("instruction ", pc, " (free)"));
            break;
        }
      }
    }
    uint32_t shaped_run = 0;
    for (auto it = state_->instructions.rbegin(); it != state_->instructions.rend(); ++it) {
      shaped_run = it->shaped != nullptr ? shaped_run + 1 : 0;
      it->shaped_run = shaped_run;
    }
    state_->stack.reserve(max_stack);
    return absl::OkStatus();
  }

  void bindInputsAndOutputs() {
    if (plan_.inputs() != nullptr) {
      for (int32_t i : *plan_.inputs()) {
        const pte::Tensor* t = plan_.values()->Get(static_cast<uint32_t>(i))->val_as_Tensor();
        state_->inputs.push_back(static_cast<uint32_t>(i));
        state_->input_bindings.push_back(t == nullptr ? InputBinding::Value
                                         : t->allocation_info() != nullptr || t->data_buffer_idx() != 0 ? InputBinding::Copy
                                                                                                        : InputBinding::Share);
        TensorBound& bound = state_->input_bounds.emplace_back();
        if (absl::StatusOr<TensorGeometry> g = t == nullptr ? absl::NotFoundError("") : tensorGeometry(*t); g.ok()) {
          bound.dynamism = t->shape_dynamism();
          bound.sizes = SizesVector(g->sizes.begin(), g->sizes.end());
          bound.dim_order = SizesVector(g->dim_order.begin(), g->dim_order.end());
        }
      }
    }
    if (plan_.outputs() != nullptr) {
      for (int32_t i : *plan_.outputs()) state_->outputs.push_back(static_cast<uint32_t>(i));
    }
  }

  // The planned inputs whose bytes the plan gives another value too: See Note [Inputs whose memory
  // the plan reuses are restored before each execute] (method.cpp). Each gets a copy of its own.
  absl::Status findReusedInputs() {
    for (const auto& [k, j] : inputsSharingTheirBytes(plan_)) {
      const Tensor& input = state_->values[state_->inputs[k]].toTensor();
      const size_t nbytes = input.storage()->nbytes();  // at the bound
      if (auto s = reserve(nbytes, sy::str("the copy of input ", k)); !s.ok()) return s;
      ZeroedBuffer copy(static_cast<uint8_t*>(std::calloc(nbytes + 1, 1)));
      if (copy == nullptr) {
        return absl::ResourceExhaustedError(sy::str(state_->where, ": cannot allocate the ", nbytes, " bytes of input ", k,
                                                    "'s copy"));
      }
      const size_t input_bytes = static_cast<size_t>(input.numel()) * input.element_size();
      if (input_bytes > 0) std::memcpy(copy.get(), input.data_ptr(), input_bytes);
      state_->reused_inputs.push_back({k, j, std::move(copy), nbytes, true});
    }
    return absl::OkStatus();
  }

  const pte::ExecutionPlan& plan_;
  const MethodOptions& options_;
  std::unique_ptr<MethodState> state_;
  std::vector<OperatorHandle> operators_;
  std::vector<BackendInterface*> backends_;
  std::vector<absl::Span<uint8_t>> buffers_;
  uint64_t allocated_ = 0;
};

}  // namespace

absl::StatusOr<Method> Program::load_method(std::string_view method, const MethodOptions& options) const {
  const pte::ExecutionPlan* plan = data_->findPlan(method);
  if (plan == nullptr) {
    return absl::NotFoundError(sy::str(data_->where(), " has no method '", method, "'; its methods: ",
                                            absl::StrJoin(method_names(), ", ")));
  }
  try {
    absl::StatusOr<std::unique_ptr<MethodState>> state = MethodBuilder(data_, *plan, options).build();
    if (!state.ok()) return state.status();
    return Method(std::move(*state));
  } catch (const std::exception& e) {
    // See Note [An error keeps its kind across every boundary]
    return statusOf(e, sy::str(data_->where(*plan), ": loading the method failed: "));
  }
}

}  // namespace sy
