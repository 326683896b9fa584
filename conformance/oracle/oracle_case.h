// The PyTorch oracle's case entries: for each operator, how the suite makes its arguments, which
// dtypes and shapes it tries, how it compares, and where Switchyard deliberately differs from
// PyTorch 1.13. The suite (oracle_test.cpp) runs every generated call boxed, by name, through
// Switchyard's dispatcher and through PyTorch's c10::Dispatcher on identical bytes, and compares.
//
// How to add an operator's cases
// ------------------------------
// Add one entry to the family's file in cases/ (unary_cases.cpp, binary_cases.cpp, ...; a new
// family gets a file listed in oracle/CMakeLists.txt and in cases.h / cases.cpp). An entry names
// the overloads it covers, its tensor arguments, dtypes and shapes, and values for the other
// arguments; everything else is derived from the schema:
//
//   add(cases, OpCase({"aten::add.Tensor", "aten::add.out", "aten::add_.Tensor"})
//                  .tensors({"self", "other"})          // by schema name, in the order shapes give them
//                  .dtypes(dtypes::kAll)                 // tried for every tensor ...
//                  .promote("other", dtypes::kAll)      // ... but `other`, which tries each of these
//                  .shapes(shapes::kBroadcast)          // one shape per tensor, per set
//                  .arg("alpha", {1, 2}));               // each value tried with the others at their first
//
// - Out arguments (`*, Tensor(a!) out`) are made by the harness, of the operands' result type
//   (`.out("out", OutDtype::fixed(Bool))` for a comparison, `OutDtype::caseDtype()`...), both
//   empty (the operator resizes them) and of the right size; in-place forms (`add_.Tensor`)
//   write the `self` the entry describes. Each returned alias is checked.
//   An out list (`*, Tensor(a!)[] out`, split_copy) takes its length from `.outList("out", 3)`.
// - Arguments the entry does not name take their schema default, None when optional, or a value
//   of their type the harness picks (See Note [How the harness picks the other arguments] in
//   conformance_inputs.h). `.arg` gives the values to try instead; `.product()` tries every
//   combination rather than one argument at a time.
// - Values: `.tensor("index", Values::range(0, 3), OutDtype::fixed(Long))` for indices; the default
//   mixes random values with NaN, infinities and signed zeros (floating) or small integers.
// - Every input is also tried transposed and strided unless `.contiguousOnly()`; shape sets should
//   include a 0-dim, an empty and (for several operands) a broadcasting case.
// - Tolerances: exact for integers and Bool, `kDefaultTolerances` for the floating dtypes;
//   `.tolerance(Float, rtol, atol)` for an operator that sums in another order; an integral dtype
//   may be given an atol (`.tolerance(Byte, 0, 1)`) where a result rounds from a computed real.
// - Where Switchyard deliberately differs (a dtype it refuses), or PyTorch 1.13 lacks the operator
//   or has since changed its semantics: `.deviation(...)` with the reason; see Deviation below.
//   Operators PyTorch 1.13 lacks need `.reference(fn)`, which computes the expected outcome itself
//   (often by calling PyTorch operators through torchCall).
// - An out variant must allocate nothing once its outs have their sizes: checked on every call it
//   compares (See Note [An out kernel allocates nothing] in oracle_runner.cpp).
// A failure names the operator, the case, the dtypes, shapes, layout, the call's seed and the first
// differing element. `switchyard_oracle_tests --gtest_filter='*aten_add_out*'` runs one operator.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "switchyard/dispatcher/function_schema.h"
#include "switchyard/ivalue/ivalue.h"
#include "switchyard/core/scalar_type.h"
#include "switchyard/ivalue/stack.h"

namespace sy::oracle {

// Dtype lists are data: a new dtype (issue 29) is added to the lists of the operators that take it.
using Dtypes = std::vector<ScalarType>;
namespace dtypes {
// The five dtypes every kernel computes (See Note [Kernels take the new dtypes once PyTorch agrees]
// in backends/devices/cpu/dtype_dispatch.h) ...
inline const Dtypes kAll{ScalarType::Bool, ScalarType::Int, ScalarType::Long, ScalarType::Float, ScalarType::Double};
inline const Dtypes kNumeric{ScalarType::Int, ScalarType::Long, ScalarType::Float, ScalarType::Double};
inline const Dtypes kFloating{ScalarType::Float, ScalarType::Double};
inline const Dtypes kIntegral{ScalarType::Int, ScalarType::Long};
// ... and every computed dtype, for the kernels that take them all (ExecuTorch's REALHBBF16).
inline const Dtypes kEvery{ScalarType::Bool,   ScalarType::Byte,    ScalarType::Char,  ScalarType::Short,
                           ScalarType::Int,    ScalarType::Long,    ScalarType::Half,  ScalarType::Float,
                           ScalarType::Double, ScalarType::BFloat16};
inline const Dtypes kEveryFloating{ScalarType::Half, ScalarType::Float, ScalarType::Double, ScalarType::BFloat16};
inline const Dtypes kEveryIntegral{ScalarType::Byte, ScalarType::Char, ScalarType::Short, ScalarType::Int, ScalarType::Long};
// The complex dtypes, for the kernels that compute on them (bmm, sum) and those that move them.
inline const Dtypes kComplex{ScalarType::ComplexHalf, ScalarType::ComplexFloat, ScalarType::ComplexDouble};
// The partners a second operand of such a kernel tries (.promote): one of each class and width that
// changes the result type, so that the pairs stay few (every pair of kEvery would be 100 per shape).
inline const Dtypes kPartners{ScalarType::Bool, ScalarType::Byte, ScalarType::Int, ScalarType::Long,
                              ScalarType::Half, ScalarType::Float, ScalarType::Double};
}  // namespace dtypes

using Shape = std::vector<int64_t>;
// One shape per tensor the entry names, in its order (a tensor list takes as many as its length).
using ShapeSet = std::vector<Shape>;

// Shape sets most entries use. Each has a 0-dim and an empty case; kBroadcast broadcasts both ways.
namespace shapes {
inline const std::vector<ShapeSet> kOne{{{2, 3}}, {{}}, {{0, 3}}, {{3, 37}}, {{2, 3, 4}}};
inline const std::vector<ShapeSet> kBroadcast{{{2, 3}, {2, 3}}, {{2, 3}, {3}}, {{3, 1}, {1, 4}}, {{}, {2, 3}},
                                              {{2, 3}, {}},     {{}, {}},      {{0, 3}, {3}},   {{2, 1, 4}, {3, 1}},
                                              {{3, 37}, {3, 37}}};
// Condition, self, other (where; clamp with both bounds).
inline const std::vector<ShapeSet> kBroadcast3{{{2, 3}, {2, 3}, {2, 3}}, {{2, 3}, {3}, {}}, {{3, 1}, {1, 4}, {3, 4}},
                                               {{}, {2, 3}, {2, 1}},     {{}, {}, {}},      {{0, 3}, {3}, {1, 3}}};
// In a Tensor?[] list's shapes (index.Tensor's indices), this shape passes None for that element.
inline const Shape kNoneTensor{-1};
}  // namespace shapes

// How the elements of an input tensor are drawn (per storage element, from the call's seed).
struct Values {
  double lo = -4, hi = 4;           // floating values, uniform in [lo, hi)
  int64_t int_lo = -50, int_hi = 50;  // integral values, uniform in [int_lo, int_hi]
  bool edges = true;                // the edge-value fill sprinkles NaN, ±inf, ±0 (floating) or 0, ±1
  bool nonzero = false;             // never 0 (integral divisors)
  // The default: both signs, edge values included.
  static Values any() { return {}; }
  // Every value in [lo, hi] (integers in the integral range), no edge values: indices, sizes.
  static Values range(int64_t lo, int64_t hi) {
    return {static_cast<double>(lo), static_cast<double>(hi), lo, hi, false};
  }
  // Divisors: integers in [-50, 50] but 0; floating values as any().
  static Values nonzeroIntegers() {
    Values v;
    v.nonzero = true;
    return v;
  }
};

// The dtype of a tensor argument, as a rule over the call's dtypes.
struct OutDtype {
  enum class Kind : uint8_t {
    Case,            // the dtype the call tries (from .dtypes)
    Second,          // the second dtype the call tries (from .promote)
    Fixed,           // always `fixed`
    ResultType,      // PyTorch's result type of the entry's tensors (and `scalar`): the default for outs
    Floating,        // the call's dtype when floating, else Float (acos of an Int tensor)
    IntegralToLong,  // Long for Bool and integral dtypes, else the call's dtype (sum)
    RealPart,        // a complex call dtype's part (Float for ComplexFloat), else the call's dtype (view_as_real)
  };
  Kind kind = Kind::Case;
  ScalarType fixed = ScalarType::Undefined;
  std::string scalar;  // ResultType: a Scalar argument that takes part, as a wrapped number ("other")
  std::string argument;  // a ScalarType? argument ("dtype") whose value, when given, is the dtype instead
  static OutDtype of(Kind kind, ScalarType fixed = ScalarType::Undefined, std::string scalar = "") {
    OutDtype d;
    d.kind = kind;
    d.fixed = fixed;
    d.scalar = std::move(scalar);
    return d;
  }
  static OutDtype caseDtype() { return of(Kind::Case); }
  static OutDtype second() { return of(Kind::Second); }
  static OutDtype fixedTo(ScalarType t) { return of(Kind::Fixed, t); }
  static OutDtype resultType(std::string scalar = "") { return of(Kind::ResultType, ScalarType::Undefined, std::move(scalar)); }
  static OutDtype floating() { return of(Kind::Floating); }
  static OutDtype integralToLong() { return of(Kind::IntegralToLong); }
  static OutDtype realPart() { return of(Kind::RealPart); }
  // This rule unless the call gives ScalarType argument `name` a value, which is then the dtype.
  OutDtype orArgument(std::string name) const {
    OutDtype d = *this;
    d.argument = std::move(name);
    return d;
  }
};

struct TensorArgument {
  std::string name;
  Values values;
  OutDtype dtype;
  int list_length = 0;  // > 0: a Tensor[] argument of this many tensors, each taking a shape
};

// One generated call, as a deviation's predicate and a failure message see it.
struct CallDescription {
  std::string op;                                   // "aten::add.out"
  std::map<std::string, ScalarType> dtypes;         // per tensor argument
  std::map<std::string, Shape> shapes;              // per tensor argument (tensor lists: "tensors[1]")
  std::string layout;                               // "contiguous", "transposed", "strided"
  std::string fill;                                 // "random", "edge values"
  std::string out_variant;                          // "", "empty out", "sized out"
  std::set<std::string> outs;                       // the out= arguments' names
  std::vector<std::pair<std::string, IValue>> arguments;  // the other arguments' values
  uint64_t seed = 0;
  const IValue* argument(const std::string& name) const;
  std::string describe() const;
};

// Computes the expected outcome of a call itself (arguments in, results out, as a boxed kernel;
// raises sy::Error to refuse). Used where PyTorch 1.13 lacks the operator or its semantics changed.
using Reference = std::function<void(const FunctionSchema& schema, Stack& stack)>;

// A documented difference between Switchyard and PyTorch 1.13 on the calls `applies` selects.
struct Deviation {
  enum class Kind : uint8_t {
    SwitchyardRefuses,   // Switchyard raises where PyTorch computes (checked: Switchyard raises)
    SwitchyardComputes,  // Switchyard computes where PyTorch raises (checked: PyTorch raises, and
                         // Switchyard's outcome against `reference`)
    UseReference,        // PyTorch 1.13's answer is not the one Switchyard follows: compared with `reference`
    Skip,                // not comparable at all (say why)
  };
  Kind kind;
  std::string why;
  std::function<bool(const CallDescription&)> applies;
  Reference reference;  // SwitchyardComputes and UseReference; the entry's when empty

  static Deviation refuses(std::string why, std::function<bool(const CallDescription&)> when) {
    return {Kind::SwitchyardRefuses, std::move(why), std::move(when), nullptr};
  }
  static Deviation computes(std::string why, std::function<bool(const CallDescription&)> when, Reference reference) {
    return {Kind::SwitchyardComputes, std::move(why), std::move(when), std::move(reference)};
  }
  static Deviation referenced(std::string why, std::function<bool(const CallDescription&)> when,
                              Reference reference = nullptr) {
    return {Kind::UseReference, std::move(why), std::move(when), std::move(reference)};
  }
  static Deviation skip(std::string why, std::function<bool(const CallDescription&)> when) {
    return {Kind::Skip, std::move(why), std::move(when), nullptr};
  }
};
using When = std::function<bool(const CallDescription&)>;
// Predicates for deviations.
When always();
When whenDtype(const std::string& tensor, Dtypes dtypes);
When whenArgument(const std::string& name, IValue value);
When whenEmpty();        // some tensor argument (out= ones aside) has no elements
When whenEdgeValues();   // the call's inputs include the edge values (NaN, infinities)
When whenOutVariant(const std::string& variant);  // "empty out" or "sized out"
When whenDtypesDiffer(const std::string& a, const std::string& b);
When allOf(When a, When b);
When anyOf(When a, When b);
When whenNot(When a);

struct Tolerance {
  double rtol = 0;
  double atol = 0;
};
// |switchyard - pytorch| <= atol + rtol * |pytorch|; NaN agrees with NaN; integers and Bool exact.
std::map<ScalarType, Tolerance> defaultTolerances();

class OpCase {
 public:
  explicit OpCase(std::vector<std::string> ops) : ops_(std::move(ops)) {}

  OpCase& label(std::string l) { label_ = std::move(l); return *this; }
  OpCase& tensors(const std::vector<std::string>& names);
  OpCase& tensor(std::string name, Values values = Values::any(), OutDtype dtype = OutDtype::caseDtype());
  // A Tensor[] (or Tensor?[], whose elements may be shapes::kNoneTensor) of `length` tensors, of the
  // call's dtype unless `dtype` says otherwise.
  OpCase& tensorList(std::string name, int length, Values values = Values::any(), OutDtype dtype = OutDtype::caseDtype());
  OpCase& values(const std::string& tensor, Values v);
  OpCase& dtypes(Dtypes d) { dtypes_ = std::move(d); return *this; }
  OpCase& promote(const std::string& tensor, Dtypes second);
  // The second dtypes alone, for an out argument with OutDtype::second() (a converting copy).
  OpCase& second(Dtypes second) { second_ = std::move(second); return *this; }
  OpCase& out(std::string name, OutDtype dtype) { outs_[std::move(name)] = dtype; return *this; }
  // A `Tensor(a!)[] out` argument: the harness passes `length` tensors (split_copy's pieces).
  OpCase& outList(std::string name, int length) { out_lists_[std::move(name)] = length; return *this; }
  OpCase& shapes(std::vector<ShapeSet> s) { shapes_ = std::move(s); return *this; }
  OpCase& arg(std::string name, std::vector<IValue> values) { args_[std::move(name)] = std::move(values); return *this; }
  OpCase& product() { product_ = true; return *this; }
  OpCase& contiguousOnly() { non_contiguous_ = false; return *this; }
  OpCase& noEdgeValues() { edge_fill_ = false; return *this; }
  // Every call is expected to raise on both sides (the entry checks that errors agree); otherwise
  // an entry of which no call ran on both sides fails.
  OpCase& errorsOnly() { errors_only_ = true; return *this; }
  // Results and outs hold unspecified values (empty, empty_like): compare dtypes and sizes only.
  OpCase& valuesUnspecified() { values_unspecified_ = true; return *this; }
  OpCase& tolerance(ScalarType dtype, double rtol, double atol) { tolerances_[dtype] = {rtol, atol}; return *this; }
  OpCase& deviation(Deviation d) { deviations_.push_back(std::move(d)); return *this; }
  OpCase& reference(std::string why, Reference fn) { reference_why_ = std::move(why); reference_ = std::move(fn); return *this; }

  const std::vector<std::string>& ops() const { return ops_; }
  const std::string& label() const { return label_; }
  const std::vector<TensorArgument>& tensorArguments() const { return tensors_; }
  const Dtypes& caseDtypes() const { return dtypes_; }
  const Dtypes& secondDtypes() const { return second_; }
  const std::map<std::string, OutDtype>& outs() const { return outs_; }
  const std::map<std::string, int>& outListLengths() const { return out_lists_; }
  const std::vector<ShapeSet>& shapeSets() const { return shapes_; }
  const std::map<std::string, std::vector<IValue>>& argumentValues() const { return args_; }
  bool isProduct() const { return product_; }
  bool nonContiguous() const { return non_contiguous_; }
  bool edgeFill() const { return edge_fill_; }
  bool valuesAreUnspecified() const { return values_unspecified_; }
  bool onlyErrors() const { return errors_only_; }
  Tolerance toleranceFor(ScalarType dtype) const;
  const std::vector<Deviation>& deviations() const { return deviations_; }
  const Reference& referenceFn() const { return reference_; }
  const std::string& referenceWhy() const { return reference_why_; }

 private:
  TensorArgument* find(const std::string& tensor);

  std::vector<std::string> ops_;
  std::string label_;
  std::vector<TensorArgument> tensors_;
  Dtypes dtypes_ = dtypes::kAll;
  Dtypes second_;
  std::map<std::string, OutDtype> outs_;
  std::map<std::string, int> out_lists_;
  std::vector<ShapeSet> shapes_;
  std::map<std::string, std::vector<IValue>> args_;
  bool product_ = false;
  bool non_contiguous_ = true;
  bool edge_fill_ = true;
  bool values_unspecified_ = false;
  bool errors_only_ = false;
  std::map<ScalarType, Tolerance> tolerances_;
  std::vector<Deviation> deviations_;
  Reference reference_;
  std::string reference_why_;
};

// Operators the oracle does not run, with the reason (an operator that only calls a delegate).
struct Exclusion {
  std::string op;
  std::string why;
};

}  // namespace sy::oracle
