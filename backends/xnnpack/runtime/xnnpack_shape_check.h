// The shape rules of each XNNPACK node kind the blob can hold, checked by init before XNNPACK sees
// a node: the 2022-02 XNNPACK takes its values' dims as given and trusts them to fit the node, so
// a blob whose dims do not fit would make it read or write outside its buffers. See Note [An
// XNNPACK blob is checked before XNNPACK sees it].
//
//   std::string why = sy::xnnpack::shapeMismatch(syxn::NodeKind::Clamp, {{4}}, {}, {5});  // "..." (empty: fits)
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "switchyard/backends/xnnpack/schema/syxn_graph_generated.h"

namespace sy::xnnpack {

using SyxnDims = std::vector<size_t>;

// Empty when a node of `kind` reading `inputs` (an absent bias as an empty entry flagged by
// `has_bias` false) with `params` can write `output`; else what does not fit.
std::string shapeMismatch(syxn::NodeKind kind, const std::vector<SyxnDims>& inputs, bool has_bias,
                          const std::vector<uint64_t>& params, const SyxnDims& output);

}  // namespace sy::xnnpack
