// c10's checks, warnings, strings, device strings and list values as PyTorch backend code uses
// them, through <switchyard/compat/torch.h> alone: TORCH_CHECK and TORCH_INTERNAL_ASSERT with
// PyTorch's messages, TORCH_WARN, c10::str, c10::toString, c10::Device("cpu"), Layout and
// MemoryFormat, and IValue(std::vector<at::Tensor>) read back as a list.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <type_traits>
#include <vector>

#include <switchyard/compat/torch.h>

namespace {

using ::testing::HasSubstr;

// The message of the c10::Error `fn` raises, as backend code's own tests catch it ("" if none).
template <class Fn>
std::string errorMessageOf(Fn&& fn) {
  try {
    fn();
  } catch (const c10::Error& e) {
    return e.what();
  }
  return "";
}

TEST(TorchCheckIdioms, TorchCheckRaisesTheCallersMessageOrPyTorchsDefault) {
  const int rank = 3;
  EXPECT_EQ(errorMessageOf([&] { TORCH_CHECK(rank == 2, "expected a matrix, got ", rank, " dimensions"); }),
            "expected a matrix, got 3 dimensions");
  EXPECT_EQ(errorMessageOf([&] { TORCH_CHECK(rank == 2); }),
            "Expected rank == 2 to be true, but got false.  (Could this error message be improved?  If so, please "
            "report an enhancement request to PyTorch.)");
  TORCH_CHECK(rank == 3, "not raised");
  try {
    TORCH_CHECK_VALUE(rank < 0, "rank ", rank);
    ADD_FAILURE() << "TORCH_CHECK_VALUE did not raise";
  } catch (const c10::Error& e) {
    EXPECT_EQ(e.kind(), sy::ErrorKind::Value);
    EXPECT_STREQ(e.what_without_backtrace(), "rank 3");
  }
}

TEST(TorchCheckIdioms, TorchInternalAssertNamesTheConditionAndWhere) {
  const int* missing = nullptr;
  const std::string message = errorMessageOf([&] { TORCH_INTERNAL_ASSERT(missing != nullptr, "no buffer"); });
  EXPECT_THAT(message, HasSubstr("missing != nullptr INTERNAL ASSERT FAILED at \""));
  EXPECT_THAT(message, HasSubstr("check_idioms_test.cpp\":"));
  EXPECT_THAT(message, HasSubstr(", please report a bug to PyTorch. no buffer"));
  EXPECT_THAT(errorMessageOf([&] { TORCH_INTERNAL_ASSERT(missing); }),
              HasSubstr("missing INTERNAL ASSERT FAILED at"));
  TORCH_INTERNAL_ASSERT(missing == nullptr);
}

struct IdiomWarningCollector : c10::WarningHandler {
  std::vector<std::string> messages;
  void process(const c10::Warning& warning) override { messages.push_back(warning.msg()); }
};

TEST(TorchCheckIdioms, TorchWarnGoesToTheThreadsWarningHandler) {
  IdiomWarningCollector collector;
  {
    c10::WarningUtils::WarningHandlerGuard guard(&collector);
    EXPECT_EQ(c10::WarningUtils::get_warning_handler(), &collector);
    TORCH_WARN("falling back to the CPU for ", "aten::sin");
    for (int i = 0; i < 3; ++i) TORCH_WARN_ONCE("once");
  }
  EXPECT_NE(c10::WarningUtils::get_warning_handler(), &collector);
  EXPECT_EQ(collector.messages, (std::vector<std::string>{"falling back to the CPU for aten::sin", "once"}));
}

TEST(TorchCheckIdioms, StrConcatenatesAndToStringGivesTheDtypesName) {
  EXPECT_EQ(c10::str("npu:", 0, ' ', 1.5), "npu:0 1.5");
  EXPECT_EQ(c10::str(), "");
  static_assert(std::is_same_v<decltype(c10::toString(at::kFloat)), const char*>);
  EXPECT_STREQ(c10::toString(at::kFloat), "Float");
  EXPECT_STREQ(c10::toString(at::kLong), "Long");
  EXPECT_EQ(std::string("dtype ") + c10::toString(at::kBool), "dtype Bool");
}

TEST(TorchCheckIdioms, DeviceStringsParseAsInPyTorch) {
  EXPECT_EQ(c10::Device("cpu"), c10::Device(c10::kCPU));
  EXPECT_EQ(c10::Device("cpu:0"), c10::Device(c10::kCPU, 0));
  EXPECT_EQ(c10::Device("privateuseone:1"), c10::Device(c10::kPrivateUse1, 1));
  EXPECT_EQ(c10::Device("cpu:0").str(), "cpu:0");
  EXPECT_EQ(errorMessageOf([] { c10::Device d("cpu:01"); }), "Invalid device string: 'cpu:01'");
  EXPECT_THAT(errorMessageOf([] { c10::Device d("gpu"); }),
              HasSubstr("device type at start of device string: gpu"));
}

TEST(TorchCheckIdioms, LayoutAndMemoryFormatHavePyTorchsNames) {
  at::Layout layout = at::kStrided;
  EXPECT_EQ(layout, c10::Layout::Strided);
  EXPECT_EQ(at::ones({1}).layout(), c10::kStrided);
  c10::MemoryFormat format = c10::MemoryFormat::ChannelsLast;
  EXPECT_NE(format, at::MemoryFormat::Contiguous);
  EXPECT_NE(at::MemoryFormat::Preserve, at::MemoryFormat::Contiguous);
}

TEST(TorchCheckIdioms, ATensorListValueReadsBackAsTensorsOrAsValues) {
  at::Tensor a = at::ones({1});
  at::Tensor b = at::zeros({2});
  c10::IValue list(std::vector<at::Tensor>{a, b});
  EXPECT_TRUE(list.isTensorList());
  auto elements = list.toListRef();
  ASSERT_EQ(elements.size(), 2u);
  EXPECT_TRUE(elements[0].toTensor().is_same(a));
  EXPECT_TRUE(elements[1].toTensor().is_same(b));
  EXPECT_EQ(list.toListRef().data(), elements.data());  // boxed once, not per call
  at::TensorList tensors = list.toTensorList();
  ASSERT_EQ(tensors.size(), 2u);
  EXPECT_TRUE(tensors[1].is_same(b));
  int64_t total = 0;
  for (const c10::IValue& v : list.toListRef()) total += v.toTensor().numel();
  EXPECT_EQ(total, 3);
}

}  // namespace
