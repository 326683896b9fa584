// A model captured with a dynamic batch (export_::captureDynamic) and lowered to XNNPACK: the
// delegate is written at the bound, and the program, saved and loaded, runs at the bound and below
// it, the delegate taking the real sizes from the method (See Note [A method's tensors change sizes
// within the memory planned for them]).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "export/export_models.h"
#include "switchyard/backends/delegates/xnnpack/aot/xnnpack_partitioner.h"
#include "switchyard/export/lowering.h"
#include "xnnpack_test_support.h"

namespace sy::testing {
namespace {

TEST(XnnpackDynamicShapes, AnMlpWithADynamicBatchLoweredToXnnpackRunsBelowItsBound) {
  Mlp mlp;
  const export_::ExportedProgram ep = export_::captureDynamic(mlp.model(), {randomTensor({8, 4}, 31)}, {{0, 0, 1}},
                                                              mlp.parameters());
  const export_::ExportedProgram lowered = export_::to_backend(ep, xnnpack::XnnpackPartitioner());
  EXPECT_THAT(callsOf(lowered), ::testing::ElementsAre("higher_order::executorch_call_delegate"));
  for (int64_t batch : {8, 3, 1}) {
    const Tensor x = randomTensor({batch, 4}, 32 + static_cast<uint32_t>(batch));
    const std::vector<Tensor> out = savedLoadedAndRun(lowered, {x});
    ASSERT_EQ(out.size(), 1u) << batch;
    EXPECT_EQ(out[0].sizes(), IntArrayRef({batch, 3}));
    expectCloseTo(out[0], mlp.forward(x), 1e-4);
  }
}

}  // namespace
}  // namespace sy::testing
