// The oracle for random operators (rand, randn, native_dropout), whose values no two libraries
// share: each side is checked on its own, for its shapes and dtypes, the moments of a large sample
// (within five standard errors of the distribution's), the structure of its result (dropout's mask
// and scale), and reproducibility: the same seed gives the same bytes, another seed other ones.
// PyTorch's side always runs, which checks the checks; Switchyard's runs once it registers the
// operator, and then needs `seed_switchyard`, its way of seeding the generator the operator uses.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "switchyard/conformance/oracle/oracle_case.h"

namespace sy::oracle {

struct RandomCase {
  enum class Kind : uint8_t {
    Uniform,  // rand.out(SymInt[] size, *, Tensor(a!) out): [0, 1)
    Normal,   // randn.out(SymInt[] size, *, Tensor(a!) out): mean 0, variance 1
    Dropout,  // native_dropout.out(Tensor input, float p, bool? train, *, Tensor(a!) out0, Tensor(b!) out1)
  };
  std::string op;
  Kind kind;
  Dtypes dtypes;
  std::function<void(uint64_t)> seed_switchyard;  // empty until Switchyard has a seed to set
};

const std::vector<RandomCase>& randomCases();

struct RandomReport {
  std::string failure;           // empty when ok
  bool switchyard_ran = false;   // false while Switchyard does not register the operator
  bool ok() const { return failure.empty(); }
};

RandomReport checkRandom(const RandomCase& c);

}  // namespace sy::oracle
