// `switchyard run`: load a program, give its method inputs, execute it, print its outputs.
#include <iostream>
#include <memory>

#include "absl/flags/flag.h"
#include "switchyard/core/error.h"
#include "switchyard/fallback/profiler.h"
#include "switchyard/program/program.h"
#include "switchyard/program/training.h"
#include "switchyard/tools/switchyard/command.h"
#include "switchyard/tools/switchyard/json_text.h"
#include "switchyard/tools/switchyard/method_meta_text.h"
#include "switchyard/tools/switchyard/method_setup.h"
#include "switchyard/tools/switchyard/run_recording.h"
#include "switchyard/tools/switchyard/value_json.h"

ABSL_FLAG(std::string, data, "", "ExecuTorch data files (.ptd) holding the program's external tensors, comma-separated");
ABSL_FLAG(std::string, method, "",
          "run: the method to run (forward when not given); inspect: the one method to show (all when not given)");
ABSL_FLAG(std::string, inputs, "",
          "a JSON file with one entry per method input: tensors as {\"dtype\": \"Float\", \"sizes\": [2, 2], "
          "\"data\": [...]}, other values as plain JSON; floats may be NaN, Infinity, -Infinity");
ABSL_FLAG(std::optional<int64_t>, random, std::nullopt,
          "make pseudo-random inputs of the declared dtypes and sizes from this seed (a non-negative integer)");
ABSL_FLAG(std::string, format, "text",
          "run: text or json ({\"outputs\": [...]}); inspect: text or dot (one Graphviz graph, a cluster per method, "
          "for `dot -Tsvg`)");
ABSL_FLAG(bool, profile, false, "print the profiler's per-operator table for the run");
ABSL_FLAG(bool, verbose, false,
          "delegates say on stderr, when the method loads, where each of their operations runs (the XNNPACK "
          "delegate: in XNNPACK or on the host, and why); the run-time option verbose=1 for every backend");
ABSL_FLAG(bool, method_meta, false,
          "print the method's inputs and outputs (dtype, sizes, dynamism and bounds, bytes) and its planned memory "
          "first; without --inputs or --random, print only that (the method is not loaded)");
ABSL_FLAG(std::string, etdump, "",
          "write the run as ETDump, ExecuTorch devtools' profile format (an event per instruction and per delegate "
          "step, with their debug handles), to this file, for ExecuTorch's Inspector");
ABSL_FLAG(std::string, debug_outputs, "",
          "keep every intermediate output (each tensor a kernel call writes, and the method's outputs) and write them "
          "to this directory: etdump.etdp and debug_buffer.bin for ExecuTorch's Inspector, intermediates.json to "
          "compare with a reference");
ABSL_FLAG(std::string, trace, "",
          "with --profile: also write the run's operator calls as a Chrome trace to this JSON file (open it in "
          "ui.perfetto.dev or chrome://tracing)");

namespace sy::cli {
namespace {

using nlohmann::json;

absl::Status run(const std::vector<std::string>& args) {
  if (args.size() != 1) return absl::InvalidArgumentError("run takes one program file (see switchyard run --help)");
  const std::string format = absl::GetFlag(FLAGS_format);
  if (format != "text" && format != "json") {
    return absl::InvalidArgumentError(sy::str("--format must be text or json, not '", format, "'"));
  }
  absl::StatusOr<Program> program = Program::load(args[0]);
  if (!program.ok()) return program.status();
  const std::string method_name = absl::GetFlag(FLAGS_method).empty() ? "forward" : absl::GetFlag(FLAGS_method);
  absl::StatusOr<MethodMeta> meta = program->method_meta(method_name);
  if (!meta.ok()) return meta.status();
  json result = json::object();
  if (absl::GetFlag(FLAGS_method_meta)) {
    if (format == "json") {
      result["method_meta"] = methodMetaJson(*meta);
    } else {
      std::cout << methodMetaText(*meta, program->name());
    }
    if (absl::GetFlag(FLAGS_inputs).empty() && !absl::GetFlag(FLAGS_random)) {
      if (format == "json") std::cout << dumpJson(result) << "\n";
      return absl::OkStatus();
    }
    if (format == "text") std::cout << "\n";
  }

  absl::StatusOr<MethodOptions> options = methodOptions(absl::GetFlag(FLAGS_data), absl::GetFlag(FLAGS_verbose));
  if (!options.ok()) return options.status();
  // Loading first: a missing operator, backend or data file is the error a user needs to see,
  // whatever the inputs.
  absl::StatusOr<Method> method = program->load_method(method_name, *options);
  if (!method.ok()) return method.status();
  absl::StatusOr<std::vector<IValue>> inputs =
      methodInputs(*meta, absl::GetFlag(FLAGS_inputs), absl::GetFlag(FLAGS_random));
  if (!inputs.ok()) return inputs.status();
  if (absl::Status s = setInputs(*method, *inputs); !s.ok()) return s;

  const std::string trace = absl::GetFlag(FLAGS_trace);
  if (!trace.empty() && !absl::GetFlag(FLAGS_profile)) {
    return absl::InvalidArgumentError("--trace needs --profile (the trace is the profile's timeline)");
  }
  const std::string etdump_path = absl::GetFlag(FLAGS_etdump), debug_dir = absl::GetFlag(FLAGS_debug_outputs);
  std::unique_ptr<ETDumpRecorder> recorder;
  if (!etdump_path.empty() || !debug_dir.empty()) {
    ETDumpRecorder::Options recording;
    // Reserved, not touched until used: room for what a large model's run writes.
    if (!debug_dir.empty()) recording.debug_buffer_bytes = size_t{1} << 28;
    recorder = std::make_unique<ETDumpRecorder>(recording);
    if (absl::Status s = method->set_event_tracer(recorder.get()); !s.ok()) return s;
  }
  std::optional<ProfileReport> report;
  {
    std::unique_ptr<Profile> profile = absl::GetFlag(FLAGS_profile) ? std::make_unique<Profile>() : nullptr;
    absl::Status s = method->execute();
    if (profile) report = profile->stop();
    if (!s.ok()) return s;
  }
  if (recorder) {
    if (absl::Status s = method->set_event_tracer(nullptr); !s.ok()) return s;
    if (absl::Status s = writeRecording(*recorder, *meta, etdump_path, debug_dir); !s.ok()) return s;
    if (recorder->dropped_events() > 0) {
      std::cerr << "switchyard: " << recorder->dropped_events()
                << " events or intermediate outputs did not fit the recorder and were left out\n";
    }
  }
  if (report && !trace.empty()) {
    absl::Status saved = report->export_chrome_trace(trace);
    if (!saved.ok()) return saved;
  }

  // A training program's gradients and parameters are named (See Note [Training state lives in
  // the method's memory]); any other program's outputs are only numbered.
  std::vector<std::string> labels(method->outputs_size());
  absl::StatusOr<TrainingLayout> training = trainingLayout(*program, method_name);
  if (!training.ok() && !absl::IsNotFound(training.status())) return training.status();
  if (training.ok()) {
    for (size_t i = 0; i < training->names.size(); ++i) {
      labels[training->gradients_start + i] = sy::str("gradient of ", training->names[i]);
      labels[training->parameters_start + i] = sy::str("parameter ", training->names[i]);
    }
  }
  if (format == "json") {
    if (training.ok()) {
      json gradients = json::object(), parameters = json::object();
      for (size_t i = 0; i < training->names.size(); ++i) {
        gradients[training->names[i]] = training->gradients_start + i;
        parameters[training->names[i]] = training->parameters_start + i;
      }
      result["training"] = {{"gradients", std::move(gradients)}, {"parameters", std::move(parameters)}};
    }
    json outputs = json::array();
    for (size_t i = 0; i < method->outputs_size(); ++i) outputs.push_back(valueToJson(method->get_output(i)));
    result["outputs"] = std::move(outputs);
    if (report) {
      json ops = json::array();
      for (const OperatorProfile& op : report->operators()) {
        ops.push_back({{"operator", op.name}, {"calls", op.count}, {"total_ns", op.total_ns}, {"self_ns", op.self_ns}});
      }
      result["profile"] = std::move(ops);
    }
    std::cout << dumpJson(result) << "\n";
    return absl::OkStatus();
  }
  for (size_t i = 0; i < method->outputs_size(); ++i) {
    const IValue& out = method->get_output(i);
    std::cout << "output " << i << (labels[i].empty() ? "" : " (" + labels[i] + ")") << ": ";
    if (out.isTensor()) {
      std::cout << out.toTensor() << "\n";
    } else {
      std::cout << dumpJson(valueToJson(out)) << "\n";
    }
  }
  if (report) std::cout << "\n" << report->table();
  return absl::OkStatus();
}

}  // namespace

const Command& runCommand() {
  static const Command command{
      "run",
      "run a method of a program and print its outputs",
      "usage: switchyard run PROGRAM.pte [--data FILE.ptd] [--method NAME] [--inputs FILE.json | --random SEED]\n"
      "                      [--format text|json] [--profile [--trace FILE.json]] [--verbose] [--method-meta]\n"
      "                      [--etdump FILE.etdp] [--debug-outputs DIR]\n\n"
      "Loads PROGRAM.pte, gives the method its inputs, runs it with every operator through Switchyard's\n"
      "dispatcher and every delegate through its registered backend, and prints the outputs (a training\n"
      "program's gradients and parameters by name, from its __et_training_* methods). A dynamic\n"
      "input (DYNAMIC_BOUND) takes any sizes up to its bound from --inputs; --random makes it at its bound.",
      {"data", "method", "inputs", "random", "format", "profile", "trace", "verbose", "method_meta", "etdump",
       "debug_outputs"},
      &run};
  return command;
}

}  // namespace sy::cli
