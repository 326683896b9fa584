#include "switchyard/conformance/oracle/cases/cases.h"

#include "switchyard/conformance/oracle/cases/references.h"
#include "switchyard/dispatcher/declared_dtypes.h"

namespace sy::oracle {

Deviation resizesOut(std::string functional) {
  return Deviation::referenced(
      "PyTorch 1.13's generated out= form copies into out without resizing it; 2.0 resizes, as Switchyard does",
      whenOutVariant("empty out"), outOfFunctional(std::move(functional)));
}

std::vector<std::string> threeForms(const std::string& op) { return {op, op + ".out", op + "_"}; }

namespace {

bool declaresComplex(const std::string& op) {
  const std::optional<unsigned> bits = declaredDtypes(parseOperatorName(op));
  return bits && ((*bits >> static_cast<int>(ScalarType::ComplexFloat)) & 1u) != 0;
}

// Note [The complex dtypes a kernel declares are checked too]
// An entry that tries every real dtype (dtypes::kEvery) of an operator whose kernel YAML also
// declares the complex dtypes (the element-moving kernels of ExecuTorch's ALL family, _to_copy's
// conversions, bmm, sum) is tried again on ComplexHalf, ComplexFloat and ComplexDouble, with the same
// shapes, arguments and deviations, so that what the YAML declares is what PyTorch agrees with.
void addComplexVariants(std::vector<OpCase>& all) {
  const size_t real_entries = all.size();
  for (size_t i = 0; i < real_entries; ++i) {
    const OpCase& entry = all[i];
    if (entry.caseDtypes() != dtypes::kEvery || entry.ops().empty() || !declaresComplex(entry.ops().front())) continue;
    OpCase complex = entry;
    complex.dtypes(dtypes::kComplex).label(entry.label().empty() ? "complex" : entry.label() + ", complex");
    all.push_back(std::move(complex));
  }
}

}  // namespace

const std::vector<OpCase>& allCases() {
  static const std::vector<OpCase> cases = [] {
    std::vector<OpCase> all;
    addUnaryCases(all);
    addBinaryCases(all);
    addComparisonCases(all);
    addReductionCases(all);
    addShapeCases(all);
    addViewCopyCases(all);
    addCreationCases(all);
    addIndexCases(all);
    addAdvancedIndexCases(all);
    addSamplingCases(all);
    addLinalgCases(all);
    addNnCases(all);
    addQuantizedCases(all);
    addMiscOpsCases(all);
    addConvolutionBackwardCases(all);
    addComplexVariants(all);
    return all;
  }();
  return cases;
}

const std::vector<Exclusion>& exclusions() {
  static const std::vector<Exclusion> excluded{
      {"higher_order::executorch_call_delegate",
       "runs a delegate's compiled blob; it computes nothing PyTorch could be asked about (the delegate tests cover it)"},
  };
  // The prim operators (backends/devices/cpu/prim_ops.cpp) compute on numbers or on a tensor's
  // metadata. PyTorch's dispatcher has no executorch_prim:: operators (an exported graph's SymInt
  // arithmetic is Python's), and 1.13 has neither sym_size.int nor sym_numel: they are checked
  // against Python's and PyTorch's semantics in tests/backends/devices/cpu/prim_ops_test.cpp.
  static const std::vector<Exclusion> all = [] {
    std::vector<Exclusion> out = excluded;
    const char* why = "a prim operator: PyTorch 1.13's dispatcher has no counterpart; checked against Python's "
                      "semantics in tests/backends/devices/cpu/prim_ops_test.cpp";
    for (const char* op : {"aten::_copy_from", "aten::_copy_from_and_resize"}) {
      out.push_back({op, "a device backend's copy hook, which PyTorch 1.13 registers for device keys only (its CPU "
                         "has no kernel to ask); Switchyard's CPU kernel copies as copy_ does, checked in "
                         "tests/compat/device_kit_test.cpp"});
    }
    for (const char* op : {"et_copy::_h2d_copy.out", "et_copy::_d2h_copy.out"}) {
      out.push_back({op, "ExecuTorch's host/device copy, which PyTorch's dispatcher does not have; a copy_ of self "
                         "into out, checked in tests/backends/devices/cpu/device_copy_test.cpp"});
    }
    for (const char* op : {"aten::rand", "aten::randn", "aten::native_dropout"}) {
      out.push_back({op, "the functional form of an operator the random oracle (random_check.cpp) checks against "
                         "PyTorch number for number; the form itself is checked in "
                         "tests/backends/devices/cpu/random_ops_test.cpp"});
    }
    out.push_back({"aten::_local_scalar_dense",
                   "returns a Scalar, which the oracle's comparison of tensors does not take; checked on Float, Long "
                   "and Bool tensors and refused for several elements, as PyTorch's item(), in "
                   "tests/backends/devices/cpu/prim_ops_test.cpp"});
    for (const char* op : {"aten::sym_size.int", "aten::sym_numel", "executorch_prim::et_view.default", "executorch_prim::et_copy_index.tensor",
                           "executorch_prim::floordiv.int", "executorch_prim::mod.int"}) {
      out.push_back({op, why});
    }
    for (const char* name : {"add", "sub", "mul", "truediv", "floordiv", "mod", "sym_max", "sym_min", "eq", "gt", "lt",
                             "ge", "le", "neg", "ceil", "round", "trunc", "sym_float", "sym_int", "sym_not", "sym_ite"}) {
      out.push_back({sy::str("executorch_prim::", name, ".Scalar"), why});
    }
    // The quantized_decomposed:: operators (backends/kernels/quantized/): PyTorch 1.13 has no
    // quantized_decomposed library (it came with PT2E quantization), and its aten::quantize_per_tensor
    // returns a quantized tensor the oracle's comparison does not take; each is checked against a
    // reference of its own in double in tests/backends/kernels/quantized/.
    const char* why_quantized = "PyTorch 1.13 has no quantized_decomposed library; checked against an independent "
                                "double reference of PyTorch's arithmetic in tests/backends/kernels/quantized/";
    // Each out variant of quantized.yaml, then its functional form.
    for (const char* op :
         {"quantize_per_tensor.out", "quantize_per_tensor", "quantize_per_tensor.Tensor_out", "quantize_per_tensor.tensor",
          "dequantize_per_tensor.out", "dequantize_per_tensor", "dequantize_per_tensor.Tensor_out",
          "dequantize_per_tensor.tensor", "quantize_per_channel.out", "quantize_per_channel", "dequantize_per_channel.out",
          "dequantize_per_channel", "quantize_per_token.out", "quantize_per_token", "dequantize_per_token.out",
          "dequantize_per_token", "choose_qparams.Tensor_out", "choose_qparams.tensor",
          "choose_qparams_per_token_asymmetric.out", "choose_qparams_per_token_asymmetric", "embedding_byte.out",
          "embedding_byte", "embedding_byte.dtype_out", "embedding_byte.dtype", "embedding_2bit.out", "embedding_2bit",
          "embedding_2bit.dtype_out", "embedding_2bit.dtype", "embedding_4bit.out", "embedding_4bit",
          "embedding_4bit.dtype_out", "embedding_4bit.dtype", "add.out", "add", "mixed_mm.out", "mixed_mm",
          "mixed_linear.out", "mixed_linear"}) {
      out.push_back({sy::str("quantized_decomposed::", op), why_quantized});
    }
    return out;
  }();
  return all;
}

}  // namespace sy::oracle
