#include "switchyard/conformance/oracle/random_check.h"

#include <cmath>
#include <cstring>

#include "absl/strings/str_join.h"
#include "switchyard/conformance/oracle/oracle_runner.h"
#include "switchyard/conformance/oracle/torch_bridge.h"
#include "switchyard/dispatcher/dispatcher.h"
#include "switchyard/core/error.h"
#include "switchyard/ivalue/cpu_generator.h"
#include "switchyard/ivalue/tensor_factories.h"

namespace sy::oracle {

namespace {

// One side of the oracle: calls the operator on positional arguments, returns its results.
struct Side {
  std::string name;
  std::function<std::vector<IValue>(std::vector<IValue>)> call;
  std::function<void(uint64_t)> seed;
};

const Shape kSampleShape{100, 100};  // 10000 draws: five standard errors are about 5% of sigma

std::vector<IValue> argumentsFor(const RandomCase& c, ScalarType dtype, const Shape& sizes, double p,
                                 const IValue& train) {
  if (c.kind == RandomCase::Kind::Dropout) {
    return {ones(sizes, dtype), p, train, empty({0}, dtype), empty({0}, ScalarType::Bool)};
  }
  return {IValue(sizes), empty({0}, dtype)};
}

std::vector<double> valuesOf(const Tensor& t) {
  std::vector<double> out;
  SY_CHECK(t.is_contiguous(), "oracle: a random operator returned a non-contiguous tensor");
  visitScalarType(t.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* data = static_cast<const T*>(t.data_ptr());
    for (int64_t i = 0; i < t.numel(); ++i) out.push_back(static_cast<double>(data[i]));
  });
  return out;
}

std::string bytesOf(const std::vector<IValue>& results) {
  std::string bytes;
  for (const IValue& r : results) {
    if (!r.isTensor()) continue;
    const Tensor& t = r.toTensor();
    bytes.append(static_cast<const char*>(t.data_ptr()), static_cast<size_t>(t.numel()) * t.element_size());
  }
  return bytes;
}

// "" when the sample's mean and variance are within five standard errors of the distribution's.
std::string checkMoments(const std::vector<double>& v, double mean, double variance, double variance_of_variance) {
  const double n = static_cast<double>(v.size());
  double m = 0;
  for (double x : v) m += x;
  m /= n;
  double s = 0;
  for (double x : v) s += (x - m) * (x - m);
  s /= n - 1;
  if (std::abs(m - mean) > 5 * std::sqrt(variance / n)) return str("sample mean ", m, ", expected ", mean);
  if (std::abs(s - variance) > 5 * std::sqrt(variance_of_variance / n)) return str("sample variance ", s, ", expected ", variance);
  return "";
}

std::string checkSample(const RandomCase& c, ScalarType dtype, double p, bool train, const std::vector<IValue>& results) {
  const size_t expected_results = c.kind == RandomCase::Kind::Dropout ? 2 : 1;
  if (results.size() != expected_results) return str("returned ", results.size(), " values, expected ", expected_results);
  const Tensor& t = results[0].toTensor();
  if (t.scalar_type() != dtype) return str("dtype ", t.scalar_type(), ", expected ", dtype);
  if (!sameSizes(t.sizes(), kSampleShape)) return str("sizes [", absl::StrJoin(t.sizes(), ", "), "]");
  const std::vector<double> v = valuesOf(t);
  switch (c.kind) {
    case RandomCase::Kind::Uniform:
      for (double x : v) {
        if (!(x >= 0 && x < 1)) return str("value ", x, " outside [0, 1)");
      }
      return checkMoments(v, 0.5, 1.0 / 12, 1.0 / 180);
    case RandomCase::Kind::Normal: return checkMoments(v, 0, 1, 2);
    case RandomCase::Kind::Dropout: {
      const Tensor& mask = results[1].toTensor();
      if (mask.scalar_type() != ScalarType::Bool || !sameSizes(mask.sizes(), kSampleShape)) return "the mask is not a Bool tensor of input's shape";
      const std::vector<double> kept = valuesOf(mask);
      const double scale = p < 1 ? 1 / (1 - p) : 0;
      // The scale is rounded to the dtype's precision in the product.
      const double precision = dtype == ScalarType::Half ? 1e-3 : dtype == ScalarType::BFloat16 ? 8e-3 : 1e-6;
      double count = 0;
      for (size_t i = 0; i < v.size(); ++i) {
        const double want = !train ? 1.0 : (kept[i] != 0 ? scale : 0.0);
        if (!train && kept[i] == 0) return str("element ", i, " dropped although train is false");
        if (std::abs(v[i] - want) > precision * std::max(1.0, want)) return str("element ", i, " is ", v[i], ", its mask says ", want);
        count += kept[i];
      }
      if (!train) return "";
      const double n = static_cast<double>(v.size());
      if (std::abs(count / n - (1 - p)) > 5 * std::sqrt(p * (1 - p) / n) + 1e-12) {
        return str("kept ", count / n, " of the elements, expected ", 1 - p);
      }
      return "";
    }
  }
  return "";
}

std::string checkSide(const RandomCase& c, const Side& side) {
  for (ScalarType dtype : c.dtypes) {
    const std::vector<std::pair<double, IValue>> settings =
        c.kind == RandomCase::Kind::Dropout
            ? std::vector<std::pair<double, IValue>>{{0.3, true}, {0.0, true}, {1.0, true}, {0.5, IValue()}, {0.3, false}}
            : std::vector<std::pair<double, IValue>>{{0.0, IValue()}};
    for (const auto& [p, train] : settings) {
      const std::string context = str(side.name, ", ", c.op, " ", dtype, c.kind == RandomCase::Kind::Dropout ? str(" p=", p) : "");
      side.seed(7);
      std::vector<IValue> first;
      try {
        first = side.call(argumentsFor(c, dtype, kSampleShape, p, train));
      } catch (const std::exception& e) {
        return str(context, ": raised ", e.what());
      }
      const bool training = train.isNone() || train.toBool();
      if (std::string problem = checkSample(c, dtype, p, training, first); !problem.empty()) return str(context, ": ", problem);
      side.seed(7);
      if (bytesOf(side.call(argumentsFor(c, dtype, kSampleShape, p, train))) != bytesOf(first)) {
        return str(context, ": the same seed gave other values");
      }
      side.seed(8);
      const bool degenerate = c.kind == RandomCase::Kind::Dropout && (p == 0 || p == 1 || !training);
      if (!degenerate && bytesOf(side.call(argumentsFor(c, dtype, kSampleShape, p, train))) == bytesOf(first)) {
        return str(context, ": another seed gave the same values");
      }
    }
    // Shapes: a 0-dim, an empty and a small one come back as asked.
    for (const Shape& sizes : {Shape{}, Shape{0}, Shape{3, 0}, Shape{2, 3}}) {
      const std::vector<IValue> results = side.call(argumentsFor(c, dtype, sizes, 0.5, true));
      if (results.empty() || !results[0].isTensor() || !sameSizes(results[0].toTensor().sizes(), sizes) ||
          results[0].toTensor().scalar_type() != dtype) {
        return str(side.name, ", ", c.op, " ", dtype, ": for sizes [", absl::StrJoin(sizes, ", "), "] the result is not of them");
      }
    }
  }
  return "";
}

// The largest difference allowed between Switchyard's and PyTorch's numbers after the same seed,
// relative to max(1, |PyTorch's|): none, except where PyTorch's normal blocks compute in
// approximations (Float's AVX2 log, sin and cos) or round through Half and BFloat16.
double agreementTolerance(const RandomCase& c, ScalarType dtype) {
  if (c.kind != RandomCase::Kind::Normal) return 0;
  switch (dtype) {
    case ScalarType::Float: return 1e-5;
    case ScalarType::Half: return 1e-2;
    case ScalarType::BFloat16: return 2e-2;
    default: return 0;
  }
}

// "" when both sides, seeded alike, draw the same numbers (See Note [The CPU generator draws as
// PyTorch's does] in ivalue/cpu_generator.h): the sample shape, and sizes below randn's blocks of 16.
std::string checkAgreement(const RandomCase& c, const Side& torch, const Side& ours) {
  for (ScalarType dtype : c.dtypes) {
    for (const Shape& sizes : {kSampleShape, Shape{5}, Shape{3, 7}}) {
      for (const auto& [p, train] : std::vector<std::pair<double, IValue>>{{0.3, true}, {0.5, IValue()}}) {
        const std::string context = str(c.op, " ", dtype, " [", absl::StrJoin(sizes, ", "), "]");
        torch.seed(11);
        ours.seed(11);
        // Two calls in a row: the second starts where the first left the generator.
        for (int call = 0; call < 2; ++call) {
          const std::vector<IValue> want = torch.call(argumentsFor(c, dtype, sizes, p, train));
          const std::vector<IValue> got = ours.call(argumentsFor(c, dtype, sizes, p, train));
          for (size_t r = 0; r < want.size() && r < got.size(); ++r) {
            const std::vector<double> a = valuesOf(got[r].toTensor());
            const std::vector<double> b = valuesOf(want[r].toTensor());
            if (a.size() != b.size()) return str(context, ": ", a.size(), " values against PyTorch's ", b.size());
            const double tolerance = agreementTolerance(c, dtype);
            for (size_t i = 0; i < a.size(); ++i) {
              if (std::abs(a[i] - b[i]) > tolerance * std::max(1.0, std::abs(b[i]))) {
                return str(context, ", call ", call + 1, ", result ", r, ", element ", i, ": ", a[i], " against PyTorch's ",
                           b[i]);
              }
            }
          }
        }
        if (c.kind != RandomCase::Kind::Dropout) break;  // p and train are dropout's
      }
    }
  }
  return "";
}

}  // namespace

const std::vector<RandomCase>& randomCases() {
  static const std::vector<RandomCase> cases{
      {"aten::rand.out", RandomCase::Kind::Uniform, dtypes::kEveryFloating, manualSeed},
      {"aten::randn.out", RandomCase::Kind::Normal, dtypes::kEveryFloating, manualSeed},
      {"aten::native_dropout.out", RandomCase::Kind::Dropout, dtypes::kEveryFloating, manualSeed},
  };
  return cases;
}

RandomReport checkRandom(const RandomCase& c) {
  RandomReport report;
  const Side torch{"PyTorch 1.13", [&](std::vector<IValue> args) { return torchCall(c.op, std::move(args)); },
                   torchManualSeed};
  if (std::string problem = checkSide(c, torch); !problem.empty()) {
    report.failure = str("the oracle's own check fails on PyTorch: ", problem);
    return report;
  }
  std::optional<OperatorHandle> handle = Dispatcher::singleton().findSchema(parseOperatorName(c.op));
  if (!handle) return report;
  report.switchyard_ran = true;
  if (!c.seed_switchyard) {
    report.failure = str(c.op, " is registered: give its RandomCase the function that seeds Switchyard's generator");
    return report;
  }
  const Side ours{"Switchyard",
                  [&](std::vector<IValue> args) {
                    Stack stack(std::move(args));
                    handle->callBoxed(&stack);
                    return std::vector<IValue>(stack.begin(), stack.end());
                  },
                  c.seed_switchyard};
  report.failure = checkSide(c, ours);
  if (report.failure.empty()) report.failure = checkAgreement(c, torch, ours);
  return report;
}

}  // namespace sy::oracle
