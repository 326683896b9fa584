// The fixture of the kernel YAML rule tests: YAML written to a temporary directory and parsed as
// switchyard_codegen parses it, with the error it raises as a string.
#pragma once

#include <filesystem>
#include <fstream>
#include <string>

#include "gtest/gtest.h"
#include "switchyard/codegen/kernel_yaml.h"

namespace sy::codegen {

class KernelYamlRules : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("sy_codegen_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    std::filesystem::create_directories(dir_);
    existing_.emplace("aten::mul.out", parseSchema("aten::mul.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)"));
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string write(const std::string& yaml) {
    const std::string path = (dir_ / "kernels.yaml").string();
    std::ofstream(path) << yaml;
    return path;
  }
  // The error parsing `yaml` raises ("" when it parses).
  std::string errorOf(const std::string& yaml) {
    KernelLibrary library = empty();
    try {
      parseKernelYaml(write(yaml), existing_, library);
    } catch (const CodegenError& e) {
      return e.what();
    }
    return "";
  }
  KernelLibrary parse(const std::string& yaml) {
    KernelLibrary library = empty();
    parseKernelYaml(write(yaml), existing_, library);
    return library;
  }

  // A kernel library, or the library owning its operators when dispatch_key_ is set.
  KernelLibrary empty() const {
    KernelLibrary library;
    library.dispatch_key = dispatch_key_;
    library.site_root = site_root_;
    return library;
  }

  std::filesystem::path dir_;
  SchemaIndex existing_;
  std::string dispatch_key_;
  std::string site_root_;
};

// The YAML of a library that owns its operators, as backends/devices/cpu/*.yaml is for the aten:: operators. See
// Note [A library's own operators register their default kernels on its dispatch key].
class OwnedOperatorYaml : public KernelYamlRules {
 protected:
  void SetUp() override {
    KernelYamlRules::SetUp();
    dispatch_key_ = "CPU";
    site_root_ = dir_.string();
  }
};

}  // namespace sy::codegen
