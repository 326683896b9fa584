#include "switchyard/autograd/gradcheck.h"

#include <cmath>

#include "switchyard/autograd/autograd.h"
#include "switchyard/ops/ops.h"
#include "switchyard/ops/reduction_ops.h"

namespace sy::autograd {
namespace {

// Fixed weights w_k = 1 + 0.37 k (mod 1.9), so no two output elements weigh the same and a
// gradient sent to the wrong element shows.
Tensor weightsLike(const Tensor& y) {
  std::vector<double> w(static_cast<size_t>(y.numel()));
  for (size_t k = 0; k < w.size(); ++k) w[k] = 0.5 + std::fmod(0.37 * static_cast<double>(k), 1.9);
  return sy::tensor<double>(w, y.sizes());
}

Tensor weightedSum(const Tensor& y, const Tensor& weights) {
  return ops::sum(ops::mul(ops::_to_copy(y, ScalarType::Double), weights));
}

}  // namespace

std::string gradcheck(const std::function<Tensor(const std::vector<Tensor>&)>& fn, const std::vector<Tensor>& inputs,
                      GradcheckOptions options) {
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Tensor& x = inputs[i];
    SY_CHECK(x.defined() && x.scalar_type() == ScalarType::Double && x.is_cpu() && x.is_contiguous(),
             "gradcheck: input ", i, " must be a contiguous Double CPU tensor");
    if (x.requires_grad()) x.mutable_grad() = Tensor();
  }
  const Tensor y = fn(inputs);
  const Tensor weights = weightsLike(y);
  backward(weightedSum(y, weights));

  NoGradGuard no_grad;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Tensor& x = inputs[i];
    if (!x.requires_grad()) continue;
    const Tensor analytic = x.grad().defined() ? ops::contiguous(x.grad()) : Tensor();
    double* data = x.data_ptr<double>();
    for (int64_t k = 0; k < x.numel(); ++k) {
      const double original = data[k];
      data[k] = original + options.eps;
      const double plus = weightedSum(fn(inputs), weights).item<double>();
      data[k] = original - options.eps;
      const double minus = weightedSum(fn(inputs), weights).item<double>();
      data[k] = original;
      const double numeric = (plus - minus) / (2 * options.eps);
      const double got = analytic.defined() ? analytic.data_ptr<double>()[k] : 0.0;
      if (!(std::abs(got - numeric) <= options.atol + options.rtol * std::abs(numeric))) {
        return str("input ", i, ", element ", k, ": backward gives ", got, " but finite differences give ", numeric);
      }
    }
  }
  return "";
}

}  // namespace sy::autograd
