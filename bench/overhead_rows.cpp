#include "overhead_rows.h"

#include <utility>

#include "switchyard/backends/devices/cpu/kernels.h"
#include "switchyard/dispatcher/derived_kernels.h"

namespace sy::bench {
namespace {

// The contexts the direct calls pass, as the registrations do (dispatcher/kernel_context.h).
constexpr KernelContext kAcosOut{"aten::acos.out", OutputForm::Out};
constexpr KernelContext kEmpty{"aten::empty.memory_format", OutputForm::Functional};

const auto acos_out_op = Dispatcher::singleton().staticTypedHandle<Tensor&(const Tensor&, Tensor&)>("aten::acos", "out");
const auto acos_op = Dispatcher::singleton().staticTypedHandle<Tensor(const Tensor&)>("aten::acos", "");
const TypedOperatorHandle<Tensor&(const Tensor&, Tensor&)>& acosOut() { return acos_out_op; }
const TypedOperatorHandle<Tensor(const Tensor&)>& acosFunctional() { return acos_op; }

// Per-op kernels in the style of PyTorch's per-operator wrappers: do nothing, continue below.
Tensor& acosOutRedispatch(DispatchKeySet ks, const Tensor& self, Tensor& out) {
  return acosOut().redispatch(ks.remove(kExtraKey), self, out);
}
Tensor acosRedispatch(DispatchKeySet ks, const Tensor& self) {
  return acosFunctional().redispatch(ks.remove(kExtraKey), self);
}
Tensor& acosOutExclude(const Tensor& self, Tensor& out) {
  ExcludeDispatchKeyGuard off(kExtraKey);
  return acosOut().call(self, out);
}
Tensor acosExclude(const Tensor& self) {
  ExcludeDispatchKeyGuard off(kExtraKey);
  return acosFunctional().call(self);
}

void redispatchBelowExtraKey(const OperatorHandle& op, DispatchKeySet ks, Stack* stack) {
  op.redispatchBoxed(ks.remove(kExtraKey), stack);
}
// As a fallback that inspects its arguments (a tracer, a device-copying fallback) does.
void readArgumentsThenRedispatch(const OperatorHandle& op, DispatchKeySet ks, Stack* stack) {
  for (const IValue& argument : std::as_const(*stack)) keep(argument.tag());
  op.redispatchBoxed(ks.remove(kExtraKey), stack);
}

}  // namespace

const std::vector<std::string>& rowNames() {
  static const std::vector<std::string> names{"direct",        "base",        "perop_redispatch", "perop_exclude",
                                              "fallthrough",   "fallback",    "fallback_reading",
                                              "partial_decline", "partial_exact", "no_grad"};
  return names;
}

bool parseRow(const std::string& name, Row* row) {
  const auto& names = rowNames();
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name) {
      *row = static_cast<Row>(i);
      return true;
    }
  }
  return false;
}

RowSetup::RowSetup(Row row) : row_(row) {
  auto impl = [&] { return std::make_unique<Library>(Library::Impl, "aten", kExtraKey); };
  auto fallback = [&] { return std::make_unique<Library>(Library::Impl, "_", kExtraKey); };
  switch (row) {
    case Row::Direct:
    case Row::Base:
    case Row::NoGrad:
      break;
    case Row::PerOpRedispatch:
      libraries_.push_back(impl());
      libraries_.back()->impl("acos.out", SY_FN(acosOutRedispatch));
      libraries_.back()->impl("acos", SY_FN(acosRedispatch));
      // Operators without a per-op kernel (acos's nested empty) fall through, as in PyTorch.
      libraries_.push_back(fallback());
      libraries_.back()->fallback(CppFunction::makeFallthrough());
      break;
    case Row::PerOpExclude:
      libraries_.push_back(impl());
      libraries_.back()->impl("acos.out", SY_FN(acosOutExclude));
      libraries_.back()->impl("acos", SY_FN(acosExclude));
      libraries_.push_back(fallback());
      libraries_.back()->fallback(CppFunction::makeFallthrough());
      break;
    case Row::Fallthrough:
      libraries_.push_back(fallback());
      libraries_.back()->fallback(CppFunction::makeFallthrough());
      break;
    case Row::BackendFallback:
      libraries_.push_back(fallback());
      libraries_.back()->fallback(CppFunction::makeFromBoxedFunction<&redispatchBelowExtraKey>());
      break;
    case Row::ReadingFallback:
      libraries_.push_back(fallback());
      libraries_.back()->fallback(CppFunction::makeFromBoxedFunction<&readArgumentsThenRedispatch>());
      break;
    case Row::PartialDecline:
    case Row::PartialExact: {
      const ScalarType dtype = row == Row::PartialExact ? ScalarType::Float : ScalarType::Double;
      partial_kernels_.push_back(PartialKernelRegistry::singleton().registerKernel(
          OperatorName{"aten::acos", "out"}, KernelKey({TensorMeta{dtype, {0}}, TensorMeta{dtype, {0}}}),
          withContextPointer<&cpu::acos_out_cpu, &kAcosOut>(), "sy::cpu::acos_out_cpu"));
      break;
    }
  }
  guard_ = enterRowOnThisThread();
}

RowSetup::~RowSetup() = default;

std::unique_ptr<RowGuard> RowSetup::enterRowOnThisThread() const {
  auto guard = std::make_unique<RowGuard>();
  if (row_ == Row::NoGrad) {
    guard->no_grad.emplace();
  } else if (row_ != Row::Direct && row_ != Row::Base && row_ != Row::PartialDecline && row_ != Row::PartialExact) {
    guard->extra_key.emplace(kExtraKey);
  }
  return guard;
}

void RowSetup::prepare(const Tensor& t) const {
  if (row_ == Row::NoGrad) t.requires_grad_();
}

std::vector<Column> acosColumns(const std::vector<int64_t>& sizes) {
  std::vector<Column> columns;
  for (int64_t n : sizes) {
    columns.push_back({"acos.out/" + std::to_string(n), n, [n](const RowSetup& setup) -> std::function<void()> {
                         Tensor self = sy::full({n}, 0.5);
                         Tensor out = sy::empty({n});
                         setup.prepare(self);
                         setup.prepare(out);
                         if (setup.row() == Row::Direct) {
                           return [self, out]() mutable { cpu::acos_out_cpu(self, out, kAcosOut); };
                         }
                         return [self, out]() mutable { ops::acos_out(out, self); };
                       }});
  }
  for (int64_t n : sizes) {
    columns.push_back({"acos/" + std::to_string(n), n, [n](const RowSetup& setup) -> std::function<void()> {
                         Tensor self = sy::full({n}, 0.5);
                         setup.prepare(self);
                         if (setup.row() == Row::Direct) {
                           // The floor: the same allocation and kernel, without dispatching either.
                           return [self] {
                             Tensor out =
                                 cpu::empty_memory_format_cpu(self.sizes(), ScalarType::Float, std::nullopt,
                                                              std::nullopt, std::nullopt, std::nullopt, kEmpty);
                             keep(cpu::acos_out_cpu(self, out, kAcosOut));
                           };
                         }
                         return [self] { keep(ops::acos(self)); };
                       }});
  }
  return columns;
}

}  // namespace sy::bench
