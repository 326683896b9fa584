// sy::Error carries a kind, as c10's error classes do (see Note [Error kinds], core/error.h).
#include <gtest/gtest.h>

#include "switchyard/core/error.h"

namespace {

TEST(ErrorKinds, PlainCheckRaisesTheGenericKind) {
  try {
    SY_CHECK(1 + 1 == 3, "arithmetic is broken: ", 2);
    FAIL() << "SY_CHECK did not raise";
  } catch (const sy::Error& e) {
    EXPECT_EQ(e.kind(), sy::ErrorKind::Generic);
    EXPECT_STREQ(e.what(), "arithmetic is broken: 2");
  }
}

TEST(ErrorKinds, IndexCheckCanBeCaughtAsIndexErrorAndAsError) {
  EXPECT_THROW(SY_CHECK_INDEX(false, "dimension ", 3, " out of range"), sy::IndexError);
  try {
    SY_CHECK_INDEX(false, "dimension ", 3, " out of range");
  } catch (const sy::Error& e) {
    EXPECT_EQ(e.kind(), sy::ErrorKind::Index);
    EXPECT_STREQ(e.what(), "dimension 3 out of range");
  }
}

TEST(ErrorKinds, EachCheckMacroRaisesItsOwnSubclass) {
  EXPECT_THROW(SY_CHECK_VALUE(false, "v"), sy::ValueError);
  EXPECT_THROW(SY_CHECK_TYPE(false, "t"), sy::TypeError);
  EXPECT_THROW(SY_CHECK_NOT_IMPLEMENTED(false, "n"), sy::NotImplementedError);
  EXPECT_THROW(SY_ERROR_KIND(Value, "v"), sy::ValueError);
  // A subclass of one kind is not caught as another.
  try {
    SY_CHECK_TYPE(false, "wrong dtype");
  } catch (const sy::ValueError&) {
    FAIL() << "a TypeError was caught as a ValueError";
  } catch (const sy::TypeError& e) {
    EXPECT_EQ(e.kind(), sy::ErrorKind::Type);
  }
}

TEST(ErrorKinds, PassingChecksCostNothingButTheCondition) {
  int evaluated = 0;
  SY_CHECK_INDEX((++evaluated, true), "never built");
  EXPECT_EQ(evaluated, 1);
}

TEST(ErrorKinds, KindsPrintWithPyTorchsClassNames) {
  EXPECT_EQ(sy::toString(sy::ErrorKind::Index), "IndexError");
  EXPECT_EQ(sy::toString(sy::ErrorKind::NotImplemented), "NotImplementedError");
  EXPECT_EQ(sy::str(sy::ErrorKind::Type), "TypeError");
}

}  // namespace
