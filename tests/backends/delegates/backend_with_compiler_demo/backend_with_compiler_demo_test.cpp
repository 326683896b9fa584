// BackendWithCompilerDemo on its own: the text program its preprocess writes, and its init refusing
// versions, compile specs and malformed text with errors, never crashes.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "export/export_delegate_support.h"
#include "switchyard/export/lowering.h"

namespace sy::export_ {
namespace {

using ::testing::HasSubstr;
using sy::testing::randomTensor;

// y = mul(sin(add(x, w)), x), lowered whole; its processed text.
std::string demoText() {
  const Tensor w = sy::tensor<float>({1.5f, -2.f}, {2});
  ExportedProgram ep = capture(
      [&](const std::vector<Tensor>& in) { return std::vector<Tensor>{ops::mul(ops::sin(ops::add(in[0], w)), in[0])}; },
      {randomTensor({2}, 1)}, {{"w", w}});
  ExportedProgram lowered = to_backend("BackendWithCompilerDemo", ep, {});
  const std::vector<uint8_t>& bytes = lowered.lowered_modules().at(0)->processed_bytes;
  return std::string(bytes.begin(), bytes.end());
}

absl::StatusOr<DelegateHandle*> initOn(const std::string& text, std::vector<std::pair<std::string, std::string>> specs = {}) {
  BackendInterface* demo = get_backend_class("BackendWithCompilerDemo");
  EXPECT_NE(demo, nullptr);
  std::vector<sy::CompileSpec> views;
  for (const auto& [key, value] : specs) {
    views.push_back({key, absl::Span<const uint8_t>(reinterpret_cast<const uint8_t*>(value.data()), value.size())});
  }
  FreeableBuffer processed(text.data(), text.size(), nullptr);
  BackendInitContext context{"test", 0};
  absl::StatusOr<DelegateHandle*> handle = demo->init(context, &processed, views);
  if (handle.ok()) demo->destroy(*handle);
  return handle;
}

TEST(BackendWithCompilerDemo, SerialisesAddMulAndSinWithAVersionACountAndADebugHandleEach) {
  EXPECT_EQ(demoText(),
            "BackendWithCompilerDemo\n"
            "version 0\n"
            "values 5 2 2 2 2 2\n"
            "inputs 1 0\n"
            "constants 1 1 1.5 -2\n"
            "instructions 3\n"
            "add 2 0 1 debug_handle 1\n"
            "sin 3 2 debug_handle 2\n"
            "mul 4 3 0 debug_handle 3\n"
            "outputs 1 4\n");
  EXPECT_TRUE(initOn(demoText()).ok());
}

TEST(BackendWithCompilerDemo, RefusesAVersionOtherThanZeroAsAnIncompatibility) {
  std::string text = demoText();
  text.replace(text.find("version 0"), 9, "version 12");
  absl::StatusOr<DelegateHandle*> handle = initOn(text);
  EXPECT_EQ(handle.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(handle.status().message(), HasSubstr("program of version 12 is incompatible: this backend reads version 0"));
}

TEST(BackendWithCompilerDemo, RefusesAMaxValueAboveFourOrNotANumber) {
  EXPECT_TRUE(initOn(demoText(), {{"max_value", "4"}, {"other", "anything"}}).ok());
  EXPECT_THAT(initOn(demoText(), {{"max_value", "5"}}).status().message(),
              HasSubstr("compile spec 'max_value' is 5, larger than the 4 the backend supports"));
  EXPECT_THAT(initOn(demoText(), {{"max_value", "four"}}).status().message(),
              HasSubstr("compile spec 'max_value' is 'four', not an integer"));
}

TEST(BackendWithCompilerDemo, RefusesMalformedTextNamingWhatIsWrong) {
  const std::string good = demoText();
  auto message = [&](const std::string& from, const std::string& to) {
    std::string text = good;
    text.replace(text.find(from), from.size(), to);
    return std::string(initOn(text).status().message());
  };
  EXPECT_THAT(message("add 2 0 1", "add 2 0 9"), HasSubstr("instruction 0 names slot 9 of 5"));
  EXPECT_THAT(message("sin 3 2", "sin 3 4"), HasSubstr("instruction 1 reads slot 4 before anything defines it"));
  EXPECT_THAT(message("mul 4 3 0", "mul 2 3 0"), HasSubstr("instruction 2 defines slot 2, which is defined already"));
  EXPECT_THAT(message("sin", "tan"), HasSubstr("instruction 1 is 'tan'; the operations are add, mul and sin"));
  EXPECT_THAT(message("values 5 2", "values 5 3"), HasSubstr("instruction 0 reads slot 0 of 3 elements where 2 are needed"));
  EXPECT_THAT(message("values 5", "values 99999999"), HasSubstr("the number of slots is 99999999, more than the 65536"));
  EXPECT_THAT(message("1.5", "x"), HasSubstr("element 0 of constant 0 is 'x', not a number"));
  EXPECT_THAT(message("outputs 1 4", "outputs 1 4 7"), HasSubstr("text follows the outputs"));
  EXPECT_THAT(message("BackendWithCompilerDemo", "Other"), HasSubstr("expected 'BackendWithCompilerDemo', found 'Other'"));
}

TEST(BackendWithCompilerDemo, RefusesEveryTruncationOfAProgramWithoutCrashing) {
  const std::string good = demoText();
  for (size_t n = 0; n < good.size() - 1; ++n) {  // the last byte is a newline
    absl::StatusOr<DelegateHandle*> handle = initOn(good.substr(0, n));
    EXPECT_FALSE(handle.ok()) << "a program of its first " << n << " bytes was accepted";
  }
}

TEST(BackendWithCompilerDemo, NamesTheNodeWhoseOperandsWouldNeedBroadcasting) {
  ExportedProgram ep = capture(
      [](const std::vector<Tensor>& in) { return std::vector<Tensor>{ops::add(in[0], in[1])}; },
      {randomTensor({2, 3}, 1), randomTensor({3}, 2)});
  try {
    to_backend("BackendWithCompilerDemo", ep, {});
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("cannot lower node 'add' (aten::add.Tensor): operand 1 is Float[3] and the result "
                                    "Float[2, 3]; the backend does not broadcast"));
  }
}

}  // namespace
}  // namespace sy::export_
