// Memory planning: tensors with disjoint lifetimes share bytes, tensors alive together never do.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "switchyard/export/memory_planning.h"
#include "test_support.h"

namespace sy::export_ {
namespace {

using ::testing::ElementsAre;
using sy::testing::errorMessageOf;

TEST(ExportMemoryPlanning, AChainOfTensorsReusesTheBytesOfTheOneBeforeLast) {
  // a -> b -> c -> d: each step reads the previous tensor and writes the next.
  MemoryPlan plan = planMemory({{64, -1, 0}, {64, 0, 1}, {64, 1, 2}, {64, 2, 3}});
  EXPECT_THAT(plan.offsets, ElementsAre(0, 64, 0, 64));
  EXPECT_EQ(plan.planned_bytes, 128u);
  EXPECT_EQ(plan.unplanned_bytes, 256u);
}

TEST(ExportMemoryPlanning, TensorsAliveAtTheSameStepNeverShareBytes) {
  // Written at step 2 while the first is read at step 2: an out= kernel's input and output.
  MemoryPlan plan = planMemory({{100, 0, 2}, {100, 2, 3}});
  EXPECT_NE(plan.offsets[0], plan.offsets[1]);
  EXPECT_EQ(plan.planned_bytes, 224u);  // two sizes rounded up to 16
}

TEST(ExportMemoryPlanning, PlacesLargeTensorsFirstAndFillsGapsWithSmallOnes) {
  // A large tensor alive throughout, and small ones one after another beside it.
  MemoryPlan plan = planMemory({{16, 0, 0}, {1000, 0, 3}, {16, 1, 1}, {16, 2, 2}});
  EXPECT_EQ(plan.offsets[1], 0u);
  EXPECT_EQ(plan.offsets[0], 1008u);
  EXPECT_EQ(plan.offsets[2], 1008u);
  EXPECT_EQ(plan.offsets[3], 1008u);
  EXPECT_EQ(plan.planned_bytes, 1024u);
}

TEST(ExportMemoryPlanning, AlignsEveryOffsetToTheAlignmentAsked) {
  MemoryPlan plan = planMemory({{3, 0, 5}, {5, 0, 5}, {7, 0, 5}}, 64);
  for (uint64_t offset : plan.offsets) EXPECT_EQ(offset % 64, 0u);
  EXPECT_EQ(plan.planned_bytes, 192u);
}

TEST(ExportMemoryPlanning, RefusesALifetimeThatEndsBeforeItStartsAndABadAlignment) {
  EXPECT_EQ(errorMessageOf([] { planMemory({{8, 0, 1}, {8, 3, 2}}); }),
            "memory plan: tensor 1 is last read at step 2, before it is written at step 3");
  EXPECT_EQ(errorMessageOf([] { planMemory({{8, 0, 1}}, 12); }), "memory plan: alignment 12 is not a power of two");
}

}  // namespace
}  // namespace sy::export_
