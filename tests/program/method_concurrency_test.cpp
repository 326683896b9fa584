// One Method used from several threads (this binary also runs under ThreadSanitizer): a Method
// runs one call at a time, and a call made while another thread's execute() runs is refused with
// an error naming the method (See Note [A Method runs one call at a time], program/method.cpp).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "switchyard/ivalue/tensor_factories.h"
#include "switchyard/program/program.h"
#include "switchyard/program/testing/program_builder.h"
#include "switchyard/switchyard.h"

namespace sy {
namespace {

using testing::ProgramBuilder;

// Where method_race::hold.out waits while a test holds it.
struct KernelGate {
  std::mutex mutex;
  std::condition_variable changed;
  bool held = false;
  int waiting = 0;
};

KernelGate& kernelGate() {
  static KernelGate gate;
  return gate;
}

// out = self, after waiting for the gate to open (or 10 s: a second call let in by mistake
// makes the test fail instead of hang).
Tensor& holdThenCopyOut(const Tensor& self, Tensor& out) {
  KernelGate& gate = kernelGate();
  {
    std::unique_lock<std::mutex> lock(gate.mutex);
    ++gate.waiting;
    gate.changed.notify_all();
    gate.changed.wait_for(lock, std::chrono::seconds(10), [&gate] { return !gate.held; });
    --gate.waiting;
  }
  out.copy_(self);
  return out;
}

SY_LIBRARY(method_race, m) { m.def("hold.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)"); }
SY_LIBRARY_IMPL(method_race, CPU, m) { m.impl("hold.out", &holdThenCopyOut); }

// forward(x: Float[4]) = hold(x) + hold(x), in planned memory.
std::vector<uint8_t> holdingProgram() {
  ProgramBuilder b;
  const int x = b.plannedTensor(ScalarType::Float, {4}, 1, 0);
  const int held = b.plannedTensor(ScalarType::Float, {4}, 1, 16);
  const int y = b.plannedTensor(ScalarType::Float, {4}, 1, 32);
  b.kernelCall(b.op("method_race::hold", "out"), {x, held, held});
  b.kernelCall(b.op("aten::add", "out"), {held, held, b.intValue(1), y, y});
  b.inputs({x}).outputs({y}).bufferSizes({0, 48});
  return b.finish();
}

std::vector<float> outputFloats(const Tensor& t) { return std::vector<float>(t.data_ptr<float>(), t.data_ptr<float>() + t.numel()); }

bool messageContains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The error of `call` made while another thread is inside execute() of race.pte's method.
std::string busyMethodMessage(const std::string& call) {
  return "program 'race.pte': method 'forward': " + call + " refused: another thread is running execute() or "
         "set_input() on this method; a Method runs one call at a time (load one Method per thread with "
         "Program::load_method to run the program on several threads)";
}

TEST(MethodConcurrency, ACallWhileAnotherThreadExecutesTheMethodIsRefusedNamingTheMethod) {
  absl::StatusOr<Program> program = Program::loadFromBuffer(holdingProgram(), "race.pte");
  ASSERT_TRUE(program.ok()) << program.status();
  absl::StatusOr<Method> m = program->load_method("forward");
  ASSERT_TRUE(m.ok()) << m.status();
  ASSERT_TRUE(m->set_input(0, tensor(std::vector<float>{1, 2, 3, 4}, {4})).ok());

  KernelGate& gate = kernelGate();
  {
    std::lock_guard<std::mutex> lock(gate.mutex);
    gate.held = true;
  }
  absl::Status first;
  std::thread executing([&] { first = m->execute(); });
  {
    std::unique_lock<std::mutex> lock(gate.mutex);
    gate.changed.wait(lock, [&gate] { return gate.waiting == 1; });  // the other thread is inside execute()
  }
  const absl::Status second = m->execute();
  EXPECT_EQ(second.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(second.message(), busyMethodMessage("execute()"));
  const absl::Status input = m->set_input(0, tensor(std::vector<float>{5, 6, 7, 8}, {4}));
  EXPECT_EQ(input.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(input.message(), busyMethodMessage("set_input(0)"));
  std::string output_error;
  try {
    (void)m->get_output(0);
  } catch (const Error& e) {
    output_error = e.what();
  }
  EXPECT_EQ(output_error, busyMethodMessage("get_output(0)"));
  {
    std::lock_guard<std::mutex> lock(gate.mutex);
    gate.held = false;
  }
  gate.changed.notify_all();
  executing.join();
  ASSERT_TRUE(first.ok()) << first;
  // The refused calls changed nothing, and once execute() returned the method is free again.
  EXPECT_EQ(outputFloats(m->get_output(0).toTensor()), (std::vector<float>{2, 4, 6, 8}));
  ASSERT_TRUE(m->set_input(0, tensor(std::vector<float>{5, 6, 7, 8}, {4})).ok());
  ASSERT_TRUE(m->execute().ok());
  EXPECT_EQ(outputFloats(m->get_output(0).toTensor()), (std::vector<float>{10, 12, 14, 16}));
}

TEST(MethodConcurrency, TwoThreadsExecutingOneMethodEachRunOrAreRefusedAndNeverRace) {
  absl::StatusOr<Program> program = Program::loadFromBuffer(holdingProgram(), "race.pte");
  ASSERT_TRUE(program.ok()) << program.status();
  absl::StatusOr<Method> m = program->load_method("forward");
  ASSERT_TRUE(m.ok()) << m.status();
  constexpr int kRuns = 1000;
  std::atomic<int> started{0};
  std::atomic<int> ran{0};
  std::vector<std::string> unexpected(2);
  std::vector<std::thread> threads;
  for (int t = 0; t < 2; ++t) {
    threads.emplace_back([&, t] {
      started.fetch_add(1);
      while (started.load() < 2) std::this_thread::yield();
      const float v = static_cast<float>(t + 1);
      for (int run = 0; run < kRuns; ++run) {
        absl::Status s = m->set_input(0, tensor(std::vector<float>{v, v, v, v}, {4}));
        if (s.ok()) s = m->execute();
        if (s.ok()) {
          ran.fetch_add(1);
        } else if (s.code() != absl::StatusCode::kFailedPrecondition ||
                   !messageContains(std::string(s.message()), "refused: another thread is running execute() or set_input()")) {
          unexpected[t] = std::string(s.message());
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(unexpected[0], "");
  EXPECT_EQ(unexpected[1], "");
  EXPECT_GT(ran.load(), 0);
}

}  // namespace
}  // namespace sy
