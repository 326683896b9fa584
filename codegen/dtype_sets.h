// The `dtypes:` of a kernel YAML entry: the dtypes its default kernel computes, declared beside the
// operator rather than written as a switch in the kernel, by ExecuTorch's family names or by dtype.
//
//   - func: abs.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
//     dtypes: REALHBBF16                # or [Float, Double], or [REALHBF16, Bool]
//     kernels: [{arg_meta: null, kernel_name: sy::cpu::abs_out_cpu}]
//
// The generator writes the set into NativeFunctions.h beside the kernel's declaration
// (`inline constexpr unsigned abs_out_cpu_dtypes`), and the kernel instantiates its loops for those
// dtypes only (backends/devices/cpu/dtype_dispatch.h): a dtype left out of the YAML is refused by
// name at run time and costs no code. See Note [A kernel's dtypes are declared in its YAML].
#pragma once

#include <string>

#include "switchyard/codegen/kernel_yaml.h"
#include "switchyard/dispatcher/declared_dtypes.h"
#include "yaml-cpp/yaml.h"

namespace sy::codegen {

// The set `node` names, as bits indexed by ScalarType: a family (BOOL, INT, INTB, FLOAT, FLOATH,
// FLOATHBF16, REAL, REALB, REALH, REALHBF16, REALHBBF16, ALL), a dtype (Float), or a list of either.
// An unknown name, an empty list or a name given twice is an error at its line.
unsigned readDtypeSet(const std::string& file, const YAML::Node& node);

// With `--require-dtypes` (Switchyard's own kernel libraries): raises at the first entry with a
// default kernel and no `dtypes:`, so that every kernel's dtypes are data the tools can report.
void requireDeclaredDtypes(const KernelLibrary& library);

// The text of a set ("Byte, Char, Short") is sy::dtypeSetText (dispatcher/declared_dtypes.h).
using ::sy::dtypeSetText;

}  // namespace sy::codegen
