// sy::Module, ExecuTorch's extension/module for Switchyard: a program and its methods behind one
// object, read and loaded on first use and kept, every failure an absl::Status naming what failed.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "program/program_test_support.h"
#include "switchyard/ivalue/tensor_factories.h"
#include "switchyard/program/module.h"
#include "test_support.h"

namespace sy {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(Module, ReadsTheProgramAndLoadsAMethodOnFirstUseAndKeepsThem) {
  SY_REFERENCE_PROGRAM_OR_SKIP(path, "add.pte");
  Module m(path);
  EXPECT_FALSE(m.is_loaded());
  absl::StatusOr<std::vector<std::string>> names = m.method_names();
  ASSERT_TRUE(names.ok()) << names.status();
  EXPECT_THAT(*names, ElementsAre("forward"));
  EXPECT_TRUE(m.is_loaded());
  EXPECT_FALSE(m.is_method_loaded("forward"));
  absl::StatusOr<std::vector<IValue>> out = m.forward({tensor(std::vector<float>{1}, {1}), tensor(std::vector<float>{2}, {1})});
  ASSERT_TRUE(out.ok()) << out.status();
  ASSERT_EQ(out->size(), 1u);
  EXPECT_EQ(testing::valuesOf<float>((*out)[0].toTensor()), (std::vector<float>{3}));
  EXPECT_TRUE(m.is_method_loaded("forward"));
  absl::StatusOr<Method*> first = m.method("forward");
  ASSERT_TRUE(first.ok());
  out = m.execute("forward", {tensor(std::vector<float>{5}, {1}), tensor(std::vector<float>{2}, {1})});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(testing::valuesOf<float>((*out)[0].toTensor()), (std::vector<float>{7}));
  EXPECT_EQ(*m.method("forward"), *first);  // the same Method: loaded once
  // Fewer inputs than the method takes: the others keep what was set before.
  out = m.forward({tensor(std::vector<float>{10}, {1})});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(testing::valuesOf<float>((*out)[0].toTensor()), (std::vector<float>{12}));
}

TEST(Module, MethodMetaGivesDtypesSizesDynamismAndBounds) {
  SY_REFERENCE_PROGRAM_OR_SKIP(path, "wild/executorch-numpy-runtime__dynamic.pte");
  Module m(path);
  absl::StatusOr<MethodMeta> meta = m.method_meta("forward");
  ASSERT_TRUE(meta.ok()) << meta.status();
  ASSERT_EQ(meta->inputs.size(), 1u);
  EXPECT_EQ(toString(meta->inputs[0]), "Float[<=8] dynamic (bounded)");
  EXPECT_EQ(meta->inputs[0].sizes, (std::vector<int64_t>{8}));
  EXPECT_EQ(meta->planned_buffer_sizes, (std::vector<int64_t>{0, 128}));
  EXPECT_FALSE(m.is_method_loaded("forward"));  // read from the file, not loaded
  absl::StatusOr<std::vector<IValue>> out = m.forward({tensor(std::vector<float>{1, 2, 3}, {3})});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ((*out)[0].toTensor().sizes(), IntArrayRef({3}));
}

TEST(Module, ReadsTheDataFilesItIsGiven) {
  SY_REFERENCE_PROGRAM_OR_SKIP(path, "wild/executorch-rs__data_map_model.pte");
  SY_REFERENCE_PROGRAM_OR_SKIP(data, "wild/executorch-rs__data_map__default_external_constant.ptd");
  Module m(path, {.data_files = {data}});
  absl::StatusOr<std::vector<IValue>> out = m.forward({ones({2, 2})});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ((*out)[0].toTensor().sizes(), IntArrayRef({2, 2}));
  Module without(path);
  EXPECT_THAT(without.forward({ones({2, 2})}).status().message(),
              HasSubstr("external tensor 'a' (value 0) is in none of the data files given (none); pass the .ptd file "
                        "that holds it"));
}

TEST(Module, RunsAnyMethodByName) {
  SY_REFERENCE_PROGRAM_OR_SKIP(path, "wild/executorch-numpy-runtime__const_methods.pte");
  Module m(path);
  absl::StatusOr<std::vector<std::string>> names = m.method_names();
  ASSERT_TRUE(names.ok()) << names.status();
  for (const std::string& name : *names) {
    absl::StatusOr<MethodMeta> meta = m.method_meta(name);
    ASSERT_TRUE(meta.ok()) << meta.status();
    if (!meta->inputs.empty()) continue;
    absl::StatusOr<std::vector<IValue>> out = m.execute(name);
    ASSERT_TRUE(out.ok()) << name << ": " << out.status();
    EXPECT_EQ(out->size(), meta->outputs.size()) << name;
  }
}

TEST(Module, EveryFailureIsAStatusNamingWhatFailed) {
  Module missing("/nonexistent/model.pte");
  EXPECT_THAT(missing.forward({}).status().message(), HasSubstr("/nonexistent/model.pte"));
  EXPECT_FALSE(missing.is_loaded());
  SY_REFERENCE_PROGRAM_OR_SKIP(path, "add.pte");
  Module m(path);
  absl::Status s = m.load_method("backward");
  EXPECT_EQ(s.code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(s.message(), HasSubstr("has no method 'backward'; its methods: forward"));
  absl::StatusOr<std::vector<IValue>> out = m.forward({ones({1}), ones({1}), ones({1})});
  EXPECT_THAT(out.status().message(), HasSubstr("method 'forward' takes 2 input(s), but 3 were given"));
  out = m.forward({ones({2})});
  EXPECT_THAT(out.status().message(), HasSubstr("input 0 expects sizes (1,), but the tensor given has sizes (2,)"));
  Module bad_data(path, {.data_files = {"/nonexistent/weights.ptd"}});
  EXPECT_THAT(bad_data.load().message(), HasSubstr("/nonexistent/weights.ptd"));
}

}  // namespace
}  // namespace sy
