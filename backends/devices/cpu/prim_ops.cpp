// The prim operators of ExecuTorch programs: what a program computes about sizes while it runs
// (aten::sym_size.int, aten::sym_numel, the executorch_prim:: arithmetic and comparisons on the
// numbers they give), a tensor's one element as a number (aten::_local_scalar_dense), and the two
// tensor operations ExecuTorch's emitter inserts itself (executorch_prim::et_view.default, which
// makes its output a view of its input, and et_copy_index.tensor, which fills a stacked output row
// by row in the loops of torch's map). A program names them as ExecuTorch's runtime registers them
// (kernels/prim_ops/register_prim_ops.cpp), and their results go into the method's Int, Double and
// Bool values (See Note [Lists of numbers that change] in program/kernel_call.h).
//
// Note [Prim arithmetic has Python's semantics]
// These operators stand for Python arithmetic on SymInts and SymFloats in the exported graph, so
// they compute what Python would: int op int is an int (an overflow of 64 bits is an error rather
// than a wrap), anything with a float is a float, truediv is always a float, floordiv rounds toward
// minus infinity and mod takes the divisor's sign (Python's //, %), and an integer division by zero
// is an error naming the operator. ExecuTorch's runtime takes C's truncating / and % for the .int
// overloads and mod.Scalar, which differ only for negative operands (sizes never are) and crash on
// a zero divisor. round rounds half to even, as Python's round. A number of the wrong kind (a
// bool where arithmetic wants a number, a float for sym_not) is an error naming the operator and
// the kinds.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <algorithm>
#include <limits>

#include "switchyard/backends/devices/cpu/elementwise.h"
#include "switchyard/core/error.h"
#include "switchyard/dispatcher/derived_kernels.h"
#include "switchyard/dispatcher/kernel_context.h"
#include "switchyard/dispatcher/library.h"
#include "switchyard/ivalue/scalar.h"
#include "switchyard/ivalue/tensor.h"
#include "switchyard/ivalue/wrap_dim.h"

namespace sy::cpu {
namespace {

const char* kindOf(const Scalar& s) { return s.isBoolean() ? "bool" : s.isFloatingPoint() ? "float" : "int"; }

// A number arithmetic accepts: an int or a float (a bool is refused, as ExecuTorch does).
void checkNumber(const KernelContext& ctx, const Scalar& s, const char* argument) {
  SY_CHECK_TYPE(!s.isBoolean(), ctx.op, ": argument '", argument, "' is a bool, where an int or a float is expected");
}

bool bothInts(const KernelContext& ctx, const Scalar& a, const Scalar& b) {
  checkNumber(ctx, a, "a");
  checkNumber(ctx, b, "b");
  return a.isIntegral(false) && b.isIntegral(false);
}

int64_t checkedInt(const KernelContext& ctx, bool overflowed, int64_t value, const Scalar& a, const Scalar& b) {
  SY_CHECK_VALUE(!overflowed, ctx.op, ": ", a.toLong(), " and ", b.toLong(), " give a result beyond 64-bit integers");
  return value;
}

void checkDivisor(const KernelContext& ctx, int64_t b) { SY_CHECK_VALUE(b != 0, ctx.op, ": integer division by zero"); }

// Python's a // b and a % b for ints (floor division; the remainder takes b's sign).
int64_t floorDivide(const KernelContext& ctx, int64_t a, int64_t b) {
  checkDivisor(ctx, b);
  SY_CHECK_VALUE(!(a == std::numeric_limits<int64_t>::min() && b == -1), ctx.op, ": ", a, " // -1 is beyond 64-bit integers");
  const int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
int64_t floorModulo(const KernelContext& ctx, int64_t a, int64_t b) {
  checkDivisor(ctx, b);
  if (b == -1) return 0;  // also the one case where a % b would overflow
  const int64_t r = a % b;
  return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}
// Python's float // and %: b == 0 gives an infinity of a's sign (as ExecuTorch; Python raises).
double floorDivide(double a, double b) {
  if (b == 0) return std::signbit(a) ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
  const double mod = std::fmod(a, b);
  const double div = (a - mod) / b;
  return (mod != 0 && std::signbit(b) != std::signbit(mod)) ? div - 1 : div;
}

// A float's value as an int, or an error naming the operator when it has none.
int64_t intOfFloat(const KernelContext& ctx, double v) {
  SY_CHECK_VALUE(std::isfinite(v) && v >= -9.2233720368547758e18 && v < 9.2233720368547758e18, ctx.op, ": ", v,
                 " has no 64-bit integer value");
  return static_cast<int64_t>(v);
}

}  // namespace

// ---- Sizes and elements ------------------------------------------------------------------------

int64_t sym_size_int(const Tensor& self, int64_t dim, const KernelContext& ctx) {
  return self.size(wrapDim(dim, self.dim(), ctx.op));
}

int64_t sym_numel(const Tensor& self, const KernelContext&) { return self.numel(); }

Scalar local_scalar_dense(const Tensor& self, const KernelContext& ctx) {
  checkOnCPU(ctx.op, "self", self);
  SY_CHECK_VALUE(self.numel() == 1, ctx.op, ": a tensor with ", self.numel(),
                 " elements has no single value (it needs exactly one)");
  const ScalarType dtype = self.scalar_type();
  if (dtype == ScalarType::Bool) return self.item<bool>();
  if (isFloatingType(dtype)) return self.item<double>();
  return self.item<int64_t>();
}

// ---- Arithmetic --------------------------------------------------------------------------------

Scalar prim_add(const Scalar& a, const Scalar& b, const KernelContext& ctx) {
  if (!bothInts(ctx, a, b)) return a.toDouble() + b.toDouble();
  int64_t r;
  const bool overflowed = __builtin_add_overflow(a.toLong(), b.toLong(), &r);
  return checkedInt(ctx, overflowed, r, a, b);
}
Scalar prim_sub(const Scalar& a, const Scalar& b, const KernelContext& ctx) {
  if (!bothInts(ctx, a, b)) return a.toDouble() - b.toDouble();
  int64_t r;
  const bool overflowed = __builtin_sub_overflow(a.toLong(), b.toLong(), &r);
  return checkedInt(ctx, overflowed, r, a, b);
}
Scalar prim_mul(const Scalar& a, const Scalar& b, const KernelContext& ctx) {
  if (!bothInts(ctx, a, b)) return a.toDouble() * b.toDouble();
  int64_t r;
  const bool overflowed = __builtin_mul_overflow(a.toLong(), b.toLong(), &r);
  return checkedInt(ctx, overflowed, r, a, b);
}
Scalar prim_truediv(const Scalar& a, const Scalar& b, const KernelContext& ctx) {
  bothInts(ctx, a, b);
  return a.toDouble() / b.toDouble();
}
Scalar prim_floordiv(const Scalar& a, const Scalar& b, const KernelContext& ctx) {
  if (bothInts(ctx, a, b)) return floorDivide(ctx, a.toLong(), b.toLong());
  return floorDivide(a.toDouble(), b.toDouble());
}
Scalar prim_mod(const Scalar& a, const Scalar& b, const KernelContext& ctx) {
  if (bothInts(ctx, a, b)) return floorModulo(ctx, a.toLong(), b.toLong());
  const double x = a.toDouble(), y = b.toDouble();
  return x - floorDivide(x, y) * y;
}
int64_t prim_floordiv_int(int64_t a, int64_t b, const KernelContext& ctx) { return floorDivide(ctx, a, b); }
int64_t prim_mod_int(int64_t a, int64_t b, const KernelContext& ctx) { return floorModulo(ctx, a, b); }

Scalar prim_neg(const Scalar& a, const KernelContext& ctx) {
  checkNumber(ctx, a, "a");
  if (a.isFloatingPoint()) return -a.toDouble();
  SY_CHECK_VALUE(a.toLong() != std::numeric_limits<int64_t>::min(), ctx.op, ": -(", a.toLong(),
                 ") is beyond 64-bit integers");
  return -a.toLong();
}

// ceil, round and trunc give ints (Python's math.ceil, round, math.trunc); an int is itself.
Scalar prim_ceil(const Scalar& a, const KernelContext& ctx) {
  checkNumber(ctx, a, "a");
  return a.isFloatingPoint() ? intOfFloat(ctx, std::ceil(a.toDouble())) : a.toLong();
}
Scalar prim_round(const Scalar& a, const KernelContext& ctx) {
  checkNumber(ctx, a, "a");
  return a.isFloatingPoint() ? intOfFloat(ctx, std::nearbyint(a.toDouble())) : a.toLong();  // half to even
}
Scalar prim_trunc(const Scalar& a, const KernelContext& ctx) {
  checkNumber(ctx, a, "a");
  return a.isFloatingPoint() ? intOfFloat(ctx, std::trunc(a.toDouble())) : a.toLong();
}

Scalar sym_float(const Scalar& a, const KernelContext&) { return a.toDouble(); }
Scalar sym_int(const Scalar& a, const KernelContext& ctx) {
  return a.isFloatingPoint() ? intOfFloat(ctx, a.toDouble()) : a.toLong();
}
Scalar sym_max(const Scalar& a, const Scalar& b, const KernelContext& ctx) {
  if (bothInts(ctx, a, b)) return std::max(a.toLong(), b.toLong());
  return std::fmax(a.toDouble(), b.toDouble());
}
Scalar sym_min(const Scalar& a, const Scalar& b, const KernelContext& ctx) {
  if (bothInts(ctx, a, b)) return std::min(a.toLong(), b.toLong());
  return std::fmin(a.toDouble(), b.toDouble());
}
Scalar sym_not(const Scalar& a, const KernelContext& ctx) {
  SY_CHECK_TYPE(a.isBoolean(), ctx.op, ": argument 'a' is a", a.isFloatingPoint() ? " float" : "n int",
                ", where a bool is expected");
  return !a.toBool();
}
Scalar sym_ite(const Scalar& condition, const Scalar& if_true, const Scalar& if_false, const KernelContext& ctx) {
  SY_CHECK_TYPE(condition.isBoolean(), ctx.op, ": the condition is a", condition.isFloatingPoint() ? " float" : "n int",
                ", where a bool is expected");
  return condition.toBool() ? if_true : if_false;
}

// ---- Comparisons -------------------------------------------------------------------------------

// Two bools compare as bools, two ints as ints, anything with a float as floats; a bool beside a
// number is refused (ExecuTorch refuses it too).
template <class Compare>
bool compareScalars(const KernelContext& ctx, const Scalar& a, const Scalar& b, Compare compare) {
  if (a.isBoolean() || b.isBoolean()) {
    SY_CHECK_TYPE(a.isBoolean() && b.isBoolean(), ctx.op, ": cannot compare a ", kindOf(a), " with a ", kindOf(b));
    return compare(static_cast<int64_t>(a.toBool()), static_cast<int64_t>(b.toBool()));
  }
  if (a.isIntegral(false) && b.isIntegral(false)) return compare(a.toLong(), b.toLong());
  return compare(a.toDouble(), b.toDouble());
}
bool prim_eq(const Scalar& a, const Scalar& b, const KernelContext& ctx) {
  return compareScalars(ctx, a, b, [](auto x, auto y) { return x == y; });
}
bool prim_gt(const Scalar& a, const Scalar& b, const KernelContext& ctx) {
  return compareScalars(ctx, a, b, [](auto x, auto y) { return x > y; });
}
bool prim_lt(const Scalar& a, const Scalar& b, const KernelContext& ctx) {
  return compareScalars(ctx, a, b, [](auto x, auto y) { return x < y; });
}
bool prim_ge(const Scalar& a, const Scalar& b, const KernelContext& ctx) {
  return compareScalars(ctx, a, b, [](auto x, auto y) { return x >= y; });
}
bool prim_le(const Scalar& a, const Scalar& b, const KernelContext& ctx) {
  return compareScalars(ctx, a, b, [](auto x, auto y) { return x <= y; });
}

// ---- Registrations -----------------------------------------------------------------------------

namespace prim {
constexpr OutputForm kValue = OutputForm::Functional;
extern const KernelContext kSymSize{"aten::sym_size.int", kValue};
extern const KernelContext kSymNumel{"aten::sym_numel", kValue};
extern const KernelContext kLocalScalarDense{"aten::_local_scalar_dense", kValue};
extern const KernelContext kAdd{"executorch_prim::add.Scalar", kValue};
extern const KernelContext kSub{"executorch_prim::sub.Scalar", kValue};
extern const KernelContext kMul{"executorch_prim::mul.Scalar", kValue};
extern const KernelContext kTrueDiv{"executorch_prim::truediv.Scalar", kValue};
extern const KernelContext kFloorDiv{"executorch_prim::floordiv.Scalar", kValue};
extern const KernelContext kMod{"executorch_prim::mod.Scalar", kValue};
extern const KernelContext kFloorDivInt{"executorch_prim::floordiv.int", kValue};
extern const KernelContext kModInt{"executorch_prim::mod.int", kValue};
extern const KernelContext kNeg{"executorch_prim::neg.Scalar", kValue};
extern const KernelContext kCeil{"executorch_prim::ceil.Scalar", kValue};
extern const KernelContext kRound{"executorch_prim::round.Scalar", kValue};
extern const KernelContext kTrunc{"executorch_prim::trunc.Scalar", kValue};
extern const KernelContext kSymFloat{"executorch_prim::sym_float.Scalar", kValue};
extern const KernelContext kSymInt{"executorch_prim::sym_int.Scalar", kValue};
extern const KernelContext kSymMax{"executorch_prim::sym_max.Scalar", kValue};
extern const KernelContext kSymMin{"executorch_prim::sym_min.Scalar", kValue};
extern const KernelContext kSymNot{"executorch_prim::sym_not.Scalar", kValue};
extern const KernelContext kSymIte{"executorch_prim::sym_ite.Scalar", kValue};
extern const KernelContext kEq{"executorch_prim::eq.Scalar", kValue};
extern const KernelContext kGt{"executorch_prim::gt.Scalar", kValue};
extern const KernelContext kLt{"executorch_prim::lt.Scalar", kValue};
extern const KernelContext kGe{"executorch_prim::ge.Scalar", kValue};
extern const KernelContext kLe{"executorch_prim::le.Scalar", kValue};
}  // namespace prim

}  // namespace sy::cpu

// The schemas: ExecuTorch's runtime registers these without one, so they are written here as the
// exported graph calls them (PyTorch's for the aten:: ones).
SY_LIBRARY_FRAGMENT(aten, m) {
  m.def("sym_size.int(Tensor self, int dim) -> SymInt");
  m.def("sym_numel(Tensor self) -> SymInt");
  m.def("_local_scalar_dense(Tensor self) -> Scalar");
}

SY_LIBRARY_FRAGMENT(executorch_prim, m) {
  for (const char* name : {"add", "sub", "mul", "truediv", "floordiv", "mod", "sym_max", "sym_min"}) {
    m.def(sy::str(name, ".Scalar(Scalar a, Scalar b) -> Scalar"));
  }
  for (const char* name : {"eq", "gt", "lt", "ge", "le"}) m.def(sy::str(name, ".Scalar(Scalar a, Scalar b) -> bool"));
  for (const char* name : {"neg", "ceil", "round", "trunc", "sym_float", "sym_int", "sym_not"}) {
    m.def(sy::str(name, ".Scalar(Scalar a) -> Scalar"));
  }
  m.def("sym_ite.Scalar(Scalar b, Scalar t, Scalar f) -> Scalar");
  m.def("floordiv.int(int a, int b) -> int");
  m.def("mod.int(int a, int b) -> int");
}

// Sizes are metadata: any device's tensor has them.
SY_LIBRARY_IMPL(aten, CompositeExplicit, m) {
  using namespace sy::cpu;
  using sy::withContext;
  m.impl(prim::kSymSize.op, withContext<&sym_size_int, &prim::kSymSize>());
  m.impl(prim::kSymNumel.op, withContext<&sym_numel, &prim::kSymNumel>());
}

SY_LIBRARY_IMPL(aten, CPU, m) {
  using namespace sy::cpu;
  m.impl(prim::kLocalScalarDense.op, sy::withContext<&local_scalar_dense, &prim::kLocalScalarDense>());
}

// Operators of numbers alone have no tensor to take a dispatch key from: their kernels are
// composite, the kernel a call without keys runs.
SY_LIBRARY_IMPL(executorch_prim, CompositeExplicit, m) {
  using namespace sy::cpu;
  using sy::withContext;
  m.impl(prim::kAdd.op, withContext<&prim_add, &prim::kAdd>());
  m.impl(prim::kSub.op, withContext<&prim_sub, &prim::kSub>());
  m.impl(prim::kMul.op, withContext<&prim_mul, &prim::kMul>());
  m.impl(prim::kTrueDiv.op, withContext<&prim_truediv, &prim::kTrueDiv>());
  m.impl(prim::kFloorDiv.op, withContext<&prim_floordiv, &prim::kFloorDiv>());
  m.impl(prim::kMod.op, withContext<&prim_mod, &prim::kMod>());
  m.impl(prim::kFloorDivInt.op, withContext<&prim_floordiv_int, &prim::kFloorDivInt>());
  m.impl(prim::kModInt.op, withContext<&prim_mod_int, &prim::kModInt>());
  m.impl(prim::kNeg.op, withContext<&prim_neg, &prim::kNeg>());
  m.impl(prim::kCeil.op, withContext<&prim_ceil, &prim::kCeil>());
  m.impl(prim::kRound.op, withContext<&prim_round, &prim::kRound>());
  m.impl(prim::kTrunc.op, withContext<&prim_trunc, &prim::kTrunc>());
  m.impl(prim::kSymFloat.op, withContext<&sym_float, &prim::kSymFloat>());
  m.impl(prim::kSymInt.op, withContext<&sym_int, &prim::kSymInt>());
  m.impl(prim::kSymMax.op, withContext<&sym_max, &prim::kSymMax>());
  m.impl(prim::kSymMin.op, withContext<&sym_min, &prim::kSymMin>());
  m.impl(prim::kSymNot.op, withContext<&sym_not, &prim::kSymNot>());
  m.impl(prim::kSymIte.op, withContext<&sym_ite, &prim::kSymIte>());
  m.impl(prim::kEq.op, withContext<&prim_eq, &prim::kEq>());
  m.impl(prim::kGt.op, withContext<&prim_gt, &prim::kGt>());
  m.impl(prim::kLt.op, withContext<&prim_lt, &prim::kLt>());
  m.impl(prim::kGe.op, withContext<&prim_ge, &prim::kGe>());
  m.impl(prim::kLe.op, withContext<&prim_le, &prim::kLe>());
}
