// Helpers for the program-runtime tests: where ExecuTorch's reference programs are, and reading
// files. The reference programs are read in place from ../shared/programs (relative to the source
// root; the SWITCHYARD_PROGRAMS_DIR environment variable or CMake cache variable overrides it) and
// never copied into the project; tests that need one skip, saying why, when it is absent.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace sy {
namespace testing {

inline std::string referenceProgramsDir() {
  if (const char* env = std::getenv("SWITCHYARD_PROGRAMS_DIR")) return env;
#ifdef SWITCHYARD_PROGRAMS_DIR
  return SWITCHYARD_PROGRAMS_DIR;
#else
  return "../shared/programs";
#endif
}

inline std::string referenceProgram(const std::string& file) { return referenceProgramsDir() + "/" + file; }

inline std::vector<uint8_t> readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace testing
}  // namespace sy

// Declares `var` as the path of reference program `file`, or skips the test when it is absent.
#define SY_REFERENCE_PROGRAM_OR_SKIP(var, file)                                                                   \
  const std::string var = ::sy::testing::referenceProgram(file);                                                  \
  if (!std::filesystem::exists(var)) {                                                                            \
    GTEST_SKIP() << "reference program " << var << " is absent (ExecuTorch's exported programs live in "          \
                 << "../shared/programs; set SWITCHYARD_PROGRAMS_DIR to point elsewhere)";                        \
  }
