// What `switchyard run --etdump FILE --debug-outputs DIR` writes from the run it recorded: the ETDump
// (program/etdump.h) and, with --debug-outputs, the intermediate outputs three ways: DIR/etdump.etdp
// and DIR/debug_buffer.bin, which ExecuTorch's Inspector reads (etdump_path, debug_buffer_path), and
// DIR/intermediates.json, every recorded tensor in the JSON form of `run`'s outputs, to compare with a
// reference:
//
//   {"runs": 1, "dropped": 0, "intermediates": [
//     {"instruction": 0, "chain": 0, "operator": "aten::add.out", "value": 3,
//      "tensor": {"dtype": "Float", "sizes": [2], "data": [2, 4]}}, ...,
//     {"output": 0, "value": 4, "tensor": {...}}]}
#pragma once

#include <string>

#include "absl/status/status.h"
#include "nlohmann/json.hpp"
#include "switchyard/program/etdump.h"
#include "switchyard/program/method_meta.h"

namespace sy::cli {

// The recorded intermediate outputs, as above.
nlohmann::json intermediatesJson(const ETDumpRecorder& recorder, const MethodMeta& meta);

// Writes the ETDump to `etdump_path` (when not empty) and the three files of `debug_dir` (when not
// empty, creating it); errors name the path.
absl::Status writeRecording(const ETDumpRecorder& recorder, const MethodMeta& meta, const std::string& etdump_path,
                            const std::string& debug_dir);

}  // namespace sy::cli
