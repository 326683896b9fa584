#include "switchyard/conformance/oracle/random_check.h"

#include <cmath>
#include <cstring>

#include "absl/strings/str_join.h"
#include "switchyard/conformance/oracle/oracle_runner.h"
#include "switchyard/conformance/oracle/torch_bridge.h"
#include "switchyard/dispatcher/dispatcher.h"
#include "switchyard/core/error.h"
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
      double count = 0;
      for (size_t i = 0; i < v.size(); ++i) {
        const double want = !train ? 1.0 : (kept[i] != 0 ? scale : 0.0);
        if (!train && kept[i] == 0) return str("element ", i, " dropped although train is false");
        if (std::abs(v[i] - want) > 1e-6 * std::max(1.0, want)) return str("element ", i, " is ", v[i], ", its mask says ", want);
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

}  // namespace

const std::vector<RandomCase>& randomCases() {
  static const std::vector<RandomCase> cases{
      {"aten::rand.out", RandomCase::Kind::Uniform, dtypes::kFloating, nullptr},
      {"aten::randn.out", RandomCase::Kind::Normal, dtypes::kFloating, nullptr},
      {"aten::native_dropout.out", RandomCase::Kind::Dropout, dtypes::kFloating, nullptr},
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
  return report;
}

}  // namespace sy::oracle
