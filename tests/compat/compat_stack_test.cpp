// torch::jit::Stack through compat/torch.h: code written for PyTorch's Stack (a std::vector of
// IValues there) compiles and behaves the same on Switchyard's.
#include <gtest/gtest.h>

#include <switchyard/compat/torch.h>

#include <cstdint>
#include <vector>

namespace {

std::vector<int64_t> stackIntsOf(const torch::jit::Stack& stack) {
  std::vector<int64_t> values;
  for (const c10::IValue& v : stack) values.push_back(v.toInt());
  return values;
}

TEST(TorchStack, BuildsFromABracedListOrAVector) {
  torch::jit::Stack braced{1, 2, 3};
  EXPECT_EQ(stackIntsOf(braced), (std::vector<int64_t>{1, 2, 3}));
  std::vector<c10::IValue> inputs{c10::IValue(4), c10::IValue(5)};
  torch::jit::Stack from_vector = inputs;
  EXPECT_EQ(stackIntsOf(from_vector), (std::vector<int64_t>{4, 5}));
  torch::jit::Stack from_range(inputs.begin(), inputs.end());
  EXPECT_EQ(stackIntsOf(from_range), (std::vector<int64_t>{4, 5}));
  c10::Stack moved_in(std::move(inputs));
  EXPECT_EQ(stackIntsOf(moved_in), (std::vector<int64_t>{4, 5}));
}

TEST(TorchStack, PushPopPeekLastAndDropWorkThroughAPointer) {
  torch::jit::Stack values;
  torch::jit::Stack* stack = &values;
  torch::jit::push(stack, 1, 2.5, true);
  torch::jit::push(*stack, at::ones({2}));
  EXPECT_EQ(stack->size(), 4u);
  EXPECT_EQ(stack->at(0).toInt(), 1);
  EXPECT_EQ(torch::jit::peek(stack, 1, 4).toDouble(), 2.5);
  EXPECT_EQ(torch::jit::last(stack, 2)[0].toBool(), true);
  EXPECT_EQ(torch::jit::pop(stack).toTensor().numel(), 2);
  std::vector<c10::IValue> two = torch::jit::pop(stack, 2);
  ASSERT_EQ(two.size(), 2u);
  EXPECT_EQ(two[0].toDouble(), 2.5);
  EXPECT_EQ(two[1].toBool(), true);
  torch::jit::drop(stack, 1);
  EXPECT_TRUE(stack->empty());
}

TEST(TorchStack, InsertEraseAndEmplaceBackAsOnAVector) {
  torch::jit::Stack stack{1, 4};
  stack.insert(stack.begin() + 1, c10::IValue(2));
  std::vector<c10::IValue> more{c10::IValue(3)};
  stack.insert(stack.begin() + 2, more.begin(), more.end());
  stack.emplace_back(5);
  EXPECT_EQ(stackIntsOf(stack), (std::vector<int64_t>{1, 2, 3, 4, 5}));
  stack.erase(stack.begin());
  stack.erase(stack.end() - 2, stack.end());
  EXPECT_EQ(stackIntsOf(stack), (std::vector<int64_t>{2, 3}));
  int64_t sum = 0;
  for (auto& v : stack) sum += v.toInt();
  EXPECT_EQ(sum, 5);
}

TEST(TorchStack, InsertingAStacksOwnValuesCopiesThemFirst) {
  torch::jit::Stack stack{1, 2, 3, 4, 5, 6, 7, 8};  // full inline storage: inserting grows it
  stack.insert(stack.begin(), stack.begin(), stack.end());
  EXPECT_EQ(stackIntsOf(stack), (std::vector<int64_t>{1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6, 7, 8}));
}

TEST(TorchStack, AtOutOfRangeRaisesAC10Error) {
  torch::jit::Stack stack{1};
  EXPECT_THROW(stack.at(1), c10::Error);
  EXPECT_THROW(torch::jit::pop(stack, 2), c10::Error);
}

}  // namespace
