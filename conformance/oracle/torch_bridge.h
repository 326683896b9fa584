// The oracle's one door to PyTorch: calls a PyTorch operator boxed, by name, through
// c10::Dispatcher, on arguments given as Switchyard values, and hands the outcome back as
// Switchyard values. Only torch_bridge.cpp includes libtorch's headers (they take seconds to
// parse; See Note [The oracle parses libtorch's headers once]), and this header includes none, so
// the case files and the harness compile against Switchyard alone. <switchyard/compat/torch.h>
// may not be included with libtorch's headers: its c10:: and at:: names would clash.
//
//   sy::oracle::Outcome o = sy::oracle::callTorch(schema, args);   // by the Switchyard schema's names
//   std::vector<sy::IValue> r = sy::oracle::torchCall("aten::squeeze_copy.dim", {t, int64_t{0}});
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "switchyard/conformance/oracle/oracle_outcome.h"
#include "switchyard/dispatcher/function_schema.h"
#include "switchyard/ivalue/ivalue.h"

namespace sy::oracle {

// PyTorch 1.13's schema of an operator ("aten::add.out(Tensor self, ...) -> Tensor(a!)"), or
// nullopt when it has none.
std::optional<std::string> torchSchema(const OperatorName& name);

// Calls PyTorch's operator of the same name with `arguments`, matched to PyTorch's schema by
// argument name (an argument PyTorch has and Switchyard lacks takes PyTorch's default). The
// tensors are copied byte for byte, storage, strides and offset alike, before the call.
Outcome callTorch(const FunctionSchema& schema, const std::vector<IValue>& arguments);

// For references: PyTorch's `op` ("aten::squeeze_copy.dim") on positional arguments; returns its
// results, raises sy::Error with PyTorch's message when it raises.
std::vector<IValue> torchCall(const std::string& op, std::vector<IValue> arguments);

// The Switchyard dtype of PyTorch's dtype number (what a boxed `ScalarType` result is in PyTorch).
ScalarType fromTorchScalarType(int64_t code);

// Seeds PyTorch's default CPU generator (for the random operators' checks).
void torchManualSeed(uint64_t seed);

}  // namespace sy::oracle
