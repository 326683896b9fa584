// Runs one operator of a case entry (oracle_case.h) against PyTorch 1.13: generates every call the
// entry asks for (See Note [Which calls the oracle makes]), runs each through Switchyard's
// dispatcher and, on identical bytes, through PyTorch's (or the entry's reference), and compares.
//
//   sy::oracle::Report r = sy::oracle::runCase(entry, "aten::add.out");
//   if (!r.ok()) std::cerr << r.failure;   // the operator, call, dtypes, shapes, seed, element
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "switchyard/conformance/oracle/oracle_case.h"

namespace sy::oracle {

struct Report {
  std::string op;
  int compared = 0;            // calls both sides ran, and agreed on
  int refused_by_both = 0;     // calls both sides raised on (errors agree)
  int switchyard_refuses = 0;  // documented: Switchyard raises where PyTorch computes
  int by_reference = 0;        // compared against the entry's reference instead of PyTorch
  int skipped = 0;             // documented as not comparable
  int allocation_free = 0;     // out calls repeated on sized outs that allocated nothing
  std::string failure;         // the first disagreement; empty when ok
  bool ok() const { return failure.empty(); }
  std::string summary() const;
};

// The seed every call's seed derives from: SWITCHYARD_ORACLE_SEED when set (to explore other
// inputs), else a fixed one, so a run is reproducible.
uint64_t oracleSeed();

// Counts the heap allocations `fn` makes (the test binary's allocation_counter.h); given to
// runCase, it checks that an out variant allocates nothing once its outs have their sizes (See
// Note [An out kernel allocates nothing]).
using AllocationCounter = std::function<long(const std::function<void()>& fn)>;

Report runCase(const OpCase& entry, const std::string& op, uint64_t seed = oracleSeed(),
               const AllocationCounter& count_allocations = nullptr);

// "aten::add.out" -> {"aten::add", "out"}.
OperatorName parseOperatorName(const std::string& op);

}  // namespace sy::oracle
