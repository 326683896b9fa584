#include "switchyard/conformance/oracle/cases/cases.h"

#include "switchyard/conformance/oracle/cases/references.h"

namespace sy::oracle {

Deviation resizesOut(std::string functional) {
  return Deviation::referenced(
      "PyTorch 1.13's generated out= form copies into out without resizing it; 2.0 resizes, as Switchyard does",
      whenOutVariant("empty out"), outOfFunctional(std::move(functional)));
}

std::vector<std::string> threeForms(const std::string& op) { return {op, op + ".out", op + "_"}; }

const std::vector<OpCase>& allCases() {
  static const std::vector<OpCase> cases = [] {
    std::vector<OpCase> all;
    addUnaryCases(all);
    addBinaryCases(all);
    addComparisonCases(all);
    addReductionCases(all);
    addShapeCases(all);
    addViewCopyCases(all);
    addCreationCases(all);
    addIndexCases(all);
    addLinalgCases(all);
    addNnCases(all);
    return all;
  }();
  return cases;
}

const std::vector<Exclusion>& exclusions() {
  static const std::vector<Exclusion> excluded{
      {"higher_order::executorch_call_delegate",
       "runs a delegate's compiled blob; it computes nothing PyTorch could be asked about (the delegate tests cover it)"},
  };
  return excluded;
}

}  // namespace sy::oracle
