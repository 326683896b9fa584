#include "switchyard/export/emit_delegates_internal.h"

#include <string>

#include "switchyard/delegate/delegate_debug_handle.h"
#include "switchyard/core/error.h"

namespace sy::export_ {

using flatbuffers::FlatBufferBuilder;
using flatbuffers::Offset;

uint32_t DelegateBlobs::add(const LoweredModule& m) {
  if (auto it = index_of.find(&m); it != index_of.end()) return it->second;
  std::vector<std::vector<uint8_t>>& into = in_segments ? segments : inline_data;
  into.push_back(m.processed_bytes);
  const uint32_t index = static_cast<uint32_t>(into.size() - 1);
  index_of.emplace(&m, index);
  for (const auto& [key, bytes] : m.named_data) {
    const auto [it, added] = named_index.emplace(key, named.size());
    if (added) {
      named.emplace_back(key, &bytes);
    } else if (*named[it->second].second != bytes && error.ok()) {
      error = absl::InvalidArgumentError(sy::str("emitProgram: two delegates store different bytes under the named data key '",
                                                 key, "'"));
    }
  }
  return index;
}

Offset<pte::BackendDelegate> emitBackendDelegate(FlatBufferBuilder& fb, DelegateBlobs& blobs, const LoweredModule& m) {
  const uint32_t index = blobs.add(m);
  auto processed = pte::CreateBackendDelegateDataReference(
      fb, blobs.in_segments ? pte::DataLocation::SEGMENT : pte::DataLocation::INLINE, index);
  std::vector<Offset<pte::CompileSpec>> specs;
  for (const CompileSpec& spec : m.compile_specs) specs.push_back(pte::CreateCompileSpecDirect(fb, spec.key.c_str(), &spec.value));
  return pte::CreateBackendDelegateDirect(fb, m.backend_id.c_str(), processed, &specs);
}

Offset<pte::Instruction> emitDelegateCall(FlatBufferBuilder& fb, const Node& n) {
  std::vector<int32_t> args(n.args[2].values.begin(), n.args[2].values.end());
  args.insert(args.end(), n.outputs.begin(), n.outputs.end());
  const int64_t index = n.args[1].constant.toInt();
  return pte::CreateInstruction(fb, pte::InstructionArguments::DelegateCall,
                                pte::CreateDelegateCallDirect(fb, static_cast<int32_t>(index), &args).Union());
}

std::vector<Offset<pte::Frame>> emitDelegateFrames(FlatBufferBuilder& fb, const ExportedProgram& program, const Node& n) {
  std::vector<Offset<pte::Frame>> frames;
  const LoweredModule& m = *program.lowered_modules()[static_cast<size_t>(n.args[1].constant.toInt())];
  const Graph& sub = m.original_program->graph();
  for (const auto& [own, handles] : m.debug_handle_map) {
    for (int64_t h : handles) {
      std::optional<NodeId> id = sub.findByDebugHandle(h);
      if (!id) continue;
      const Node& original = sub.node(*id);
      const SourceFrame* at = original.meta.location();
      const std::string context = delegateFrameContext(own, describeLoweredNode(original));
      frames.push_back(pte::CreateFrameDirect(fb, at ? at->file.c_str() : "", at ? static_cast<int32_t>(at->line) : 0,
                                              at ? at->function.c_str() : "", context.c_str()));
    }
  }
  return frames;
}

}  // namespace sy::export_
