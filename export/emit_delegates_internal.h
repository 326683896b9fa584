// The emitter's delegate half (internal: export/emit.cpp uses it, and it is not installed): a
// lowered module's entry in the program's BackendDelegate table, the DelegateCall instruction that
// runs it, and the stack frames that carry its debug-handle map into the file.
//
//   DelegateBlobs blobs;                                     // shared by every method of the file
//   Offset<pte::BackendDelegate> entry = emitBackendDelegate(fb, blobs, lowered_module);
//   Offset<pte::Instruction> call = emitDelegateCall(fb, node);
//   std::vector<Offset<pte::Frame>> frames = emitDelegateFrames(fb, program, node);
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "absl/status/status.h"

#include "switchyard/export/exported_program.h"
#include "switchyard/export/lowered_module.h"
#include "switchyard/program/schema/program_generated.h"

namespace sy::export_ {

// The processed blobs of every method's delegates, each stored once (a module two methods share
// is one blob), inline in the FlatBuffers data or as data segments.
struct DelegateBlobs {
  bool in_segments = true;
  std::vector<std::vector<uint8_t>> inline_data;
  std::vector<std::vector<uint8_t>> segments;
  std::unordered_map<const LoweredModule*, uint32_t> index_of;
  // The modules' named data, each key once, in the order first seen; always data segments, after
  // the blobs' (See Note [How the emitter lays out a program file]).
  std::vector<std::pair<std::string, const std::vector<uint8_t>*>> named;
  std::map<std::string, size_t> named_index;
  // Set when two modules store different bytes under one key.
  absl::Status error;

  // The blob's index among inline_data or segments, adding it (and its named data) the first time.
  uint32_t add(const LoweredModule& m);
};

// The BackendDelegate entry of `m`: its backend id, compile specs and processed blob.
flatbuffers::Offset<pte::BackendDelegate> emitBackendDelegate(flatbuffers::FlatBufferBuilder& fb, DelegateBlobs& blobs,
                                                              const LoweredModule& m);

// DelegateCall(index, inputs then outputs) for an executorch_call_delegate node. See Note [A
// delegate call defines its outputs].
flatbuffers::Offset<pte::Instruction> emitDelegateCall(flatbuffers::FlatBufferBuilder& fb, const Node& n);

// One frame per (delegate debug handle, original node) of the node's lowered module. See Note [A
// program file keeps a delegate's debug-handle map in its stack traces].
std::vector<flatbuffers::Offset<pte::Frame>> emitDelegateFrames(flatbuffers::FlatBufferBuilder& fb,
                                                                const ExportedProgram& program, const Node& n);

}  // namespace sy::export_
