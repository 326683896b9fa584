// The oracle's case entries, one file per operator family (See "How to add an operator's cases" in
// oracle_case.h). allCases() is every entry; exclusions() the operators the oracle does not run.
#pragma once

#include <string>
#include <vector>

#include "switchyard/conformance/oracle/oracle_case.h"

namespace sy::oracle {

// For argument values: None, and an int list.
inline const IValue kNone;
inline IValue ints(std::vector<int64_t> v) { return IValue(v); }

// PyTorch 1.13's generated ("autogen") out= forms of some operators (the view copies, the *_like
// factories) copy into out without resizing it, so an empty out is an error there; PyTorch 2.0 resizes
// (resize_out_helper in CompositeViewCopyKernels.cpp). For the "empty out" calls the expected outcome
// is PyTorch's functional form written into out.
Deviation resizesOut(std::string functional);

// "aten::abs", "aten::abs.out", "aten::abs_": an operator's functional, out= and in-place forms.
std::vector<std::string> threeForms(const std::string& op);

void addUnaryCases(std::vector<OpCase>& cases);
void addBinaryCases(std::vector<OpCase>& cases);
void addComparisonCases(std::vector<OpCase>& cases);
void addReductionCases(std::vector<OpCase>& cases);
void addShapeCases(std::vector<OpCase>& cases);
void addViewCopyCases(std::vector<OpCase>& cases);
void addCreationCases(std::vector<OpCase>& cases);
void addIndexCases(std::vector<OpCase>& cases);
void addAdvancedIndexCases(std::vector<OpCase>& cases);
void addSamplingCases(std::vector<OpCase>& cases);
void addLinalgCases(std::vector<OpCase>& cases);
void addNnCases(std::vector<OpCase>& cases);
void addConvolutionBackwardCases(std::vector<OpCase>& cases);
void addQuantizedCases(std::vector<OpCase>& cases);
void addMiscOpsCases(std::vector<OpCase>& cases);

const std::vector<OpCase>& allCases();

// Where Switchyard's schema of an operator differs from PyTorch 1.13's (or PyTorch 1.13 lacks it),
// and why; the schema test prints each and fails on any difference not listed here.
struct SchemaDifference {
  std::string op;
  std::string why;
};
const std::vector<SchemaDifference>& schemaDifferences();
const std::vector<Exclusion>& exclusions();

}  // namespace sy::oracle
