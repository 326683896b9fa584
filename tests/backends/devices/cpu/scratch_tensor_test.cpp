// The kernels' scratch tensors (scratch_tensor.h): what lets an out kernel that converts, stages or
// accumulates allocate nothing once warm. See Note [Kernel scratch is reused, not allocated].
#include <gtest/gtest.h>

#include "allocation_counter.h"
#include "switchyard/backends/devices/cpu/scratch_tensor.h"
#include "switchyard/ivalue/tensor_factories.h"

namespace sy::cpu {
namespace {

TEST(ScratchTensor, IsReusedOnceItsHolderLetsGo) {
  const void* first = nullptr;
  {
    Tensor t = scratchTensor("test", {2, 3}, ScalarType::Float);
    EXPECT_EQ(t.sizes(), IntArrayRef({2, 3}));
    EXPECT_EQ(t.scalar_type(), ScalarType::Float);
    EXPECT_TRUE(t.is_contiguous());
    first = t.data_ptr();
  }
  long allocations = sy::testing::allocationsDuring([&] {
    Tensor again = scratchTensor("test", {3, 2}, ScalarType::Float);
    EXPECT_EQ(again.data_ptr(), first);
    EXPECT_EQ(again.sizes(), IntArrayRef({3, 2}));
  });
  EXPECT_EQ(allocations, 0);
}

TEST(ScratchTensor, IsNeverHandedOutTwiceWhileHeld) {
  Tensor a = scratchTensor("test", {4}, ScalarType::Int);
  Tensor b = scratchTensor("test", {4}, ScalarType::Int);
  EXPECT_NE(a.data_ptr(), b.data_ptr());
  // A view of a slot keeps its storage busy too.
  Tensor view = sy::empty({0}, ScalarType::Int);
  view.unsafeGetTensorImpl()->set_storage(a.storage());
  a = Tensor();
  Tensor c = scratchTensor("test", {4}, ScalarType::Int);
  EXPECT_NE(c.storage().get(), view.storage().get());
}

TEST(ScratchTensor, GrowsItsStorageAndKeepsIt) {
  { Tensor small = scratchTensor("test", {2}, ScalarType::Double); }
  { Tensor large = scratchTensor("test", {1000}, ScalarType::Double); }
  EXPECT_EQ(sy::testing::allocationsDuring([] {
              Tensor t = scratchTensor("test", {1000}, ScalarType::Double);
              static_cast<double*>(t.data_ptr())[999] = 1.0;  // the whole extent is there
            }),
            0);
}

TEST(ScratchTensor, TooLargeForASlotIsAFreshTensor) {
  const int64_t elements = static_cast<int64_t>(kScratchSlotBytes) + 1;
  Tensor big = scratchTensor("test", {elements}, ScalarType::Byte);
  EXPECT_EQ(big.numel(), elements);
  EXPECT_EQ(big.use_count(), 1);  // nothing of this thread's keeps it
}

TEST(ScratchTensor, SizesThatOverflowAreRefusedNamingTheOperator) {
  try {
    scratchTensor("aten::test.out", {int64_t{1} << 62, 16}, ScalarType::Float);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("aten::test.out"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace sy::cpu
