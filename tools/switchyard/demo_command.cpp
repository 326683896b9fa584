// `switchyard demo`: one small model through every layer of Switchyard, with a check at each step.
// ./run.sh ends with it. See demo_model.h for the model.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "absl/flags/declare.h"
#include "absl/flags/flag.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "switchyard/backends/devices/accel/accel_stats.h"
#include "switchyard/delegate/delegate_call.h"
#include "switchyard/export/emit.h"
#include "switchyard/export/lowered_module.h"
#include "switchyard/export/lowering.h"
#include "switchyard/export/partitioners.h"
#include "switchyard/fallback/profiler.h"
#include "switchyard/program/program.h"
#include "switchyard/switchyard.h"
#include "switchyard/tools/switchyard/command.h"
#include "switchyard/tools/switchyard/demo_model.h"
#include "switchyard/tools/switchyard/overhead_table.h"
#if SWITCHYARD_DEMO_XNNPACK
#include "switchyard/backends/delegates/xnnpack/aot/xnnpack_partitioner.h"
#endif

// --calls is shared with `bench` (bench_command.cpp defines it): calls per timed run of section 4.
ABSL_DECLARE_FLAG(int, calls);
ABSL_FLAG(std::string, save, "", "also write the partitioned program to this .pte file (docs/render_demo_graph.sh draws it)");

namespace sy::cli {
namespace {

void heading(const std::string& title) { std::cout << "\n== " << title << "\n\n"; }

double maxAbsDifference(const Tensor& a, const Tensor& b) {
  const Tensor ca = ops::clone(a.to(kCPU), MemoryFormat::Contiguous);
  const Tensor cb = ops::clone(b.to(kCPU), MemoryFormat::Contiguous);
  SY_CHECK(ca.sizes() == cb.sizes() && ca.scalar_type() == ScalarType::Float && cb.scalar_type() == ScalarType::Float,
           "demo: the results to compare differ in shape or are not Float");
  double worst = 0;
  for (int64_t i = 0; i < ca.numel(); ++i) {
    worst = std::max(worst, std::abs(static_cast<double>(ca.data_ptr<float>()[i]) - cb.data_ptr<float>()[i]));
  }
  return worst;
}

// Records a check's outcome; the demo exits non-zero when any failed.
struct Checks {
  int failed = 0;
  void expectClose(const char* what, double difference, double tolerance) {
    const bool ok = difference <= tolerance;
    failed += !ok;
    std::cout << absl::StrFormat("  check: %s: max abs difference %.3g (tolerance %.0e) %s\n", what, difference,
                                 tolerance, ok ? "ok" : "FAILED");
  }
};

// Median milliseconds per call of `run` over `repeats` calls.
template <class F>
double millisecondsPerCall(F&& run, int repeats) {
  std::vector<double> ms;
  for (int i = 0; i < repeats; ++i) {
    const auto start = std::chrono::steady_clock::now();
    run();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  std::nth_element(ms.begin(), ms.begin() + repeats / 2, ms.end());
  return ms[repeats / 2];
}

void printCounts(const char* what, const std::map<std::string, int64_t>& counts) {
  std::cout << "  " << what << ":\n";
  if (counts.empty()) std::cout << "    (none)\n";
  for (const auto& [op, n] : counts) std::cout << absl::StrFormat("    %-28s %3d call(s)\n", op, n);
}

// 1. The model eagerly, on CPU and on the Accel device (a partial backend: what it lacks runs on
// the CPU through one boxed fallback).
Tensor eager(const DemoCnn& model, const Tensor& x, Checks& checks) {
  heading("1. Eager: every sy::ops call through the dispatcher");
  const Tensor y = model.forward(x);
  const Tensor best = ops::argmax(y, 1);
  std::cout << "  on CPU: probabilities " << y << "\n  predicted class " << best.data_ptr<int64_t>()[0] << "\n\n";

  accel::reset_fallback_counts();
  const Tensor y_accel = model.to(kAccel).forward(x.to(kAccel));
  std::cout << "  on Accel (result on " << y_accel.device() << "): native kernels for a few operators, the CPU\n"
            << "  fallback for the rest:\n";
  printCounts("ran natively on Accel", accel::native_counts());
  printCounts("fell back to the CPU", accel::fallback_counts());
  checks.expectClose("Accel against CPU", maxAbsDifference(y_accel, y), 1e-5);
  return y;
}

// Where each operator of `lowered` runs: one line per lowered module, then what is left.
void printPartitioning(const export_::ExportedProgram& lowered) {
  for (size_t i = 0; i < lowered.lowered_modules().size(); ++i) {
    const export_::LoweredModule& m = *lowered.lowered_modules()[i];
    std::vector<std::string> ops;
    for (const export_::Node& n : m.original_program->graph().nodes()) {
      if (n.kind == export_::NodeKind::CallFunction) ops.push_back(n.op->operator_name().toString());
    }
    std::cout << absl::StrFormat("  delegate %d -> %-24s %5d bytes: %s\n", i, m.backend_id, m.processed_bytes.size(),
                                 absl::StrJoin(ops, ", "));
  }
  std::vector<std::string> portable;
  for (const export_::Node& n : lowered.graph().nodes()) {
    if (n.kind != export_::NodeKind::CallFunction || n.op->operator_name() == delegateCallOperator().operator_name()) {
      continue;
    }
    portable.push_back(n.op->operator_name().toString());
  }
  std::cout << "  left to the portable kernels: " << (portable.empty() ? "nothing" : absl::StrJoin(portable, ", "))
            << "\n";
}

// 2. Ahead of time: capture, partition to two delegates, lower, save a program file, load it and
// run it. A --save path that cannot be written is the one error a user can cause here.
absl::StatusOr<Method> exported(const DemoCnn& model, const Tensor& x, const Tensor& expected, Checks& checks) {
  heading("2. Ahead of time: capture -> partition -> lower -> .pte -> load -> run");
  export_::ExportedProgram ep = export_::capture(model.model(), {x}, model.parameters(), {"x"});
  std::cout << "  captured with the Tracer key's boxed fallback: " << ep.graph().nodes().size() << " nodes\n";
  // The demo delegate first: it takes the element-wise mul and add of the logit cap. XNNPACK could
  // take those too, and what one to_backend lowers the next never sees.
  export_::OperatorSupportPartitioner demo_partitioner(
      {"BackendWithCompilerDemo", {}},
      export_::OperatorSupportPartitioner::byOperatorNames({"aten::mul.Tensor", "aten::add.Tensor"}), "demo_");
  export_::ExportedProgram lowered = export_::to_backend(ep, demo_partitioner);
#if SWITCHYARD_DEMO_XNNPACK
  // One thread: the model is too small for a second to pay for its synchronisation.
  lowered = export_::to_backend(lowered, xnnpack::XnnpackPartitioner({export_::CompileSpec::ofString("num_threads", "1")}));
#else
  std::cout << "  (this build has no XNNPACK: only the demo delegate takes part)\n";
#endif
  printPartitioning(lowered);
  checks.expectClose("lowered program run from C++ against eager", maxAbsDifference(lowered.run({x})[0], expected),
                     1e-5);

  absl::StatusOr<export_::EmittedProgram> file = export_::emitProgram(lowered);
  SY_CHECK(file.ok(), "demo: emitting the program failed: ", file.status().message());
  const std::string path =
      (std::filesystem::temp_directory_path() / absl::StrFormat("switchyard_demo_%d.pte", getpid())).string();
  absl::Status saved = file->save(path);
  SY_CHECK(saved.ok(), "demo: ", saved.message());
  std::cout << absl::StrFormat("  saved %s: %d instructions, %d bytes; planned memory %d bytes (%d without reuse)\n",
                               path, file->methods[0].instructions, file->bytes.size(), file->methods[0].planned_bytes,
                               file->methods[0].unplanned_bytes);
  absl::StatusOr<Program> program = Program::load(path);
  std::remove(path.c_str());
  if (const std::string keep = absl::GetFlag(FLAGS_save); !keep.empty()) {
    absl::Status kept = file->save(keep);
    if (!kept.ok()) return absl::Status(kept.code(), sy::str("--save: ", kept.message()));
    std::cout << "  also saved as " << keep << " (--save)\n";
  }
  SY_CHECK(program.ok(), "demo: loading the program back failed: ", program.status().message());
  absl::StatusOr<Method> forward = program->load_method("forward");
  SY_CHECK(forward.ok(), "demo: ", forward.status().message());
  SY_CHECK(forward->set_input(0, x).ok() && forward->execute().ok(), "demo: running the loaded program failed");
  checks.expectClose("loaded program against eager", maxAbsDifference(forward->get_output(0).toTensor(), expected),
                     1e-5);

  const double eager_ms = millisecondsPerCall([&] { model.forward(x); }, 50);
  const double program_ms = millisecondsPerCall([&] { (void)forward->execute(); }, 50);
  std::cout << absl::StrFormat("  time per inference (median of 50): eager %.3f ms, delegated program %.3f ms\n",
                               eager_ms, program_ms);
  return std::move(*forward);
}

// 3. The profiler: one boxed fallback on the Profiler key times every operator call.
void profile(Method& forward) {
  heading("3. The profiler's per-operator table for one run of the program");
  Profile p;
  (void)forward.execute();
  std::cout << p.stop().table();
}

// 4. What dispatching costs.
void overhead(int calls) {
  heading("4. Dispatch overhead, measured now");
  OverheadTable table = measureOverheadTable(terminalProgress("  "), calls);
  std::cout << "  acos.out and acos on a 1-element Float tensor, median of 9 runs ± half the interquartile range;\n"
            << "  in parentheses, what the row's extra dispatch key adds to base, ~0 within the noise\n"
            << "  (`switchyard bench` also counts instructions; bench/README.md has PyTorch side by side).\n\n"
            << table.format();
}

absl::Status runDemo(const std::vector<std::string>& args) {
  if (!args.empty()) return absl::InvalidArgumentError("demo takes no arguments (see switchyard demo --help)");
  const int calls = absl::GetFlag(FLAGS_calls);
  if (calls < 1) return absl::InvalidArgumentError("--calls must be at least 1");
  std::cout << "Switchyard demo: one small convolutional classifier through every layer.\n";
  Checks checks;
  const DemoCnn model;
  const Tensor x = DemoCnn::exampleInput();
  const Tensor y = eager(model, x, checks);
  absl::StatusOr<Method> forward = exported(model, x, y, checks);
  if (!forward.ok()) return forward.status();
  profile(*forward);
  overhead(calls);
  if (checks.failed > 0) return absl::InternalError(absl::StrFormat("demo: %d check(s) failed", checks.failed));
  std::cout << "\nAll checks passed.\n";
  return absl::OkStatus();
}

}  // namespace

const Command& demoCommand() {
  static const Command command{
      "demo", "one small model through every layer of Switchyard, checked at each step",
      "usage: switchyard demo [--save MODEL.pte] [--calls N]\n\n"
      "Runs a small convolutional classifier (conv2d, relu, max_pool2d, mean, linear, soft-capped\n"
      "logits, softmax; deterministic weights) eagerly on the CPU and on the Accel device; captures\n"
      "it, partitions it between XNNPACK and BackendWithCompilerDemo (the rest stays with the portable\n"
      "kernels), lowers it, saves it as a program file, loads and runs it; profiles one run; and\n"
      "measures the dispatch overhead. Exits non-zero if any result disagrees with eager execution.",
      {"save", "calls"},
      &runDemo};
  return command;
}

}  // namespace sy::cli
