// Every operator whose Switchyard schema is not PyTorch 1.13's, and why.
#include "switchyard/conformance/oracle/cases/cases.h"

namespace sy::oracle {

const std::vector<SchemaDifference>& schemaDifferences() {
  static const std::vector<SchemaDifference> differences{
      {"aten::avg_pool2d", "the int[] default is spelled as the list it stands for ([0, 0], [1, 1]), as ExecuTorch's schemas do; 1.13 writes the scalar that expands to it"},
      {"aten::avg_pool2d.out", "the int[] default is spelled as the list it stands for ([0, 0], [1, 1]), as ExecuTorch's schemas do; 1.13 writes the scalar that expands to it"},
      {"aten::constant_pad_nd", "PyTorch 2.x spells this size argument SymInt (ExecuTorch's schemas follow it); 1.13 spells it int"},
      {"aten::constant_pad_nd.out", "PyTorch 2.x spells this size argument SymInt (ExecuTorch's schemas follow it); 1.13 spells it int"},
      {"aten::contiguous", "the MemoryFormat default is spelled contiguous_format, as PyTorch 2.x prints it; 1.13 prints its number, 0"},
      {"aten::conv2d", "PyTorch 2.x spells this size argument SymInt (ExecuTorch's schemas follow it); 1.13 spells it int; the int[] default is spelled as the list it stands for ([0, 0], [1, 1]), as ExecuTorch's schemas do; 1.13 writes the scalar that expands to it"},
      {"aten::convolution", "PyTorch 2.x spells this size argument SymInt (ExecuTorch's schemas follow it); 1.13 spells it int"},
      {"aten::convolution.out", "PyTorch 2.x spells this size argument SymInt (ExecuTorch's schemas follow it); 1.13 spells it int"},
      {"aten::embedding", "PyTorch 2.x spells this size argument SymInt (ExecuTorch's schemas follow it); 1.13 spells it int"},
      {"aten::embedding.out", "PyTorch 2.x spells this size argument SymInt (ExecuTorch's schemas follow it); 1.13 spells it int"},
      {"aten::gelu", "a string default is quoted with ' as PyTorch 2.x prints it; 1.13 prints \""},
      {"aten::gelu.out", "a string default is quoted with ' as PyTorch 2.x prints it; 1.13 prints \""},
      {"aten::gelu_", "a string default is quoted with ' as PyTorch 2.x prints it; 1.13 prints \""},
      {"aten::layer_norm", "PyTorch 2.x spells this size argument SymInt (ExecuTorch's schemas follow it); 1.13 spells it int; eps prints as 1e-05 rather than 1.13's 1.0000000000000001e-05 (the same double)"},
      {"aten::_native_batch_norm_legit", "PyTorch 2.1's batch norm for export (ExecuTorch's portable kernel); PyTorch 1.13 lacks it, and the oracle's reference is its aten::native_batch_norm (nn_cases.cpp)"},
      {"aten::_native_batch_norm_legit.out", "PyTorch 2.1's batch norm for export (ExecuTorch's portable kernel); PyTorch 1.13 lacks it, and the oracle's reference is its aten::native_batch_norm (nn_cases.cpp)"},
      {"aten::_native_batch_norm_legit.no_stats", "PyTorch 2.1's batch norm for export (ExecuTorch's portable kernel); PyTorch 1.13 lacks it, and the oracle's reference is its aten::native_batch_norm (nn_cases.cpp)"},
      {"aten::_native_batch_norm_legit.no_stats_out", "PyTorch 2.1's batch norm for export (ExecuTorch's portable kernel); PyTorch 1.13 lacks it, and the oracle's reference is its aten::native_batch_norm (nn_cases.cpp)"},
      {"aten::_native_batch_norm_legit_no_training", "PyTorch 2.1's batch norm for export (ExecuTorch's portable kernel); PyTorch 1.13 lacks it, and the oracle's reference is its aten::native_batch_norm (nn_cases.cpp)"},
      {"aten::_native_batch_norm_legit_no_training.out", "PyTorch 2.1's batch norm for export (ExecuTorch's portable kernel); PyTorch 1.13 lacks it, and the oracle's reference is its aten::native_batch_norm (nn_cases.cpp)"},
      {"aten::any.dims", "PyTorch 2.2's any over a list of dims; PyTorch 1.13 lacks it"},
      {"aten::any.dims_out", "PyTorch 2.2's any over a list of dims; PyTorch 1.13 lacks it"},
      {"aten::max.unary_out", "PyTorch 2.1's out= form of max(); PyTorch 1.13 lacks it"},
      {"aten::min.unary_out", "PyTorch 2.1's out= form of min(); PyTorch 1.13 lacks it"},
      {"aten::max_pool2d", "the int[] default is spelled as the list it stands for ([0, 0], [1, 1]), as ExecuTorch's schemas do; 1.13 writes the scalar that expands to it"},
      {"aten::max_pool2d.out", "ExecuTorch's out= form of max_pool2d (PyTorch 1.13 has only the functional one); the int[] default is spelled as the list it stands for ([0, 0], [1, 1]), as ExecuTorch's schemas do; 1.13 writes the scalar that expands to it"},
      {"aten::max_pool2d_with_indices", "the int[] default is spelled as the list it stands for ([0, 0], [1, 1]), as ExecuTorch's schemas do; 1.13 writes the scalar that expands to it"},
      {"aten::max_pool2d_with_indices.out", "the int[] default is spelled as the list it stands for ([0, 0], [1, 1]), as ExecuTorch's schemas do; 1.13 writes the scalar that expands to it"},
      {"aten::mean.dtype_out", "PyTorch 2.x's generated out= form of mean (ExecuTorch's mean.dtype_out); PyTorch 1.13 lacks it"},
      {"aten::roll", "PyTorch 2.x spells this size argument SymInt (ExecuTorch's schemas follow it); 1.13 spells it int"},
      {"aten::roll.out", "PyTorch 2.x spells this size argument SymInt (ExecuTorch's schemas follow it); 1.13 spells it int"},
      {"aten::select.int", "PyTorch 2.x spells this size argument SymInt (ExecuTorch's schemas follow it); 1.13 spells it int"},
      {"aten::select_copy.int_out", "PyTorch 2.x spells this size argument SymInt (ExecuTorch's schemas follow it); 1.13 spells it int"},
      {"aten::select_scatter", "PyTorch 2.x spells this size argument SymInt (ExecuTorch's schemas follow it); 1.13 spells it int"},
      {"aten::select_scatter.out", "PyTorch 2.x spells this size argument SymInt (ExecuTorch's schemas follow it); 1.13 spells it int"},
      {"aten::split_copy.Tensor_out", "PyTorch 2.x spells this size argument SymInt (ExecuTorch's schemas follow it); 1.13 spells it int"},
      {"aten::split_with_sizes_copy.out", "PyTorch 2.x spells this size argument SymInt (ExecuTorch's schemas follow it); 1.13 spells it int"},
      {"aten::squeeze.dims", "PyTorch 2.0's squeeze of several dims; PyTorch 1.13 lacks it"},
      {"aten::squeeze_copy.dims_out", "PyTorch 2.0's squeeze_copy of several dims; PyTorch 1.13 lacks it"},
      {"aten::var.correction", "PyTorch 2.x's schema (ExecuTorch's): dim defaults to None and correction is a Scalar?; 1.13 has no dim default and an int? correction"},
      {"aten::var.correction_out", "PyTorch 2.x's schema (ExecuTorch's): dim defaults to None and correction is a Scalar?; 1.13 has no dim default and an int? correction"},
      {"aten::var_mean.correction", "PyTorch 2.x's schema (ExecuTorch's): dim defaults to None and correction is a Scalar?; 1.13 has no dim default and an int? correction"},
      {"aten::var_mean.correction_out", "PyTorch 2.x's schema (ExecuTorch's): dim defaults to None and correction is a Scalar?; 1.13 has no dim default and an int? correction"},
      {"dim_order_ops::_clone_dim_order.out", "ExecuTorch's dim-order operator, no PyTorch one"},
      {"dim_order_ops::_empty_dim_order.out", "ExecuTorch's dim-order operator, no PyTorch one"},
      {"dim_order_ops::_to_dim_order_copy.out", "ExecuTorch's dim-order operator, no PyTorch one"}};
  return differences;
}

}  // namespace sy::oracle
