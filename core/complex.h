// Complex<T>: a complex number of two T, laid out as std::complex<T> and c10::complex<T> are (real,
// then imaginary), the element type of ComplexHalf, ComplexFloat and ComplexDouble tensors.
//
//   sy::Complex<float> z{1.0f, -2.0f};
//   z.real();  z.imag();                 // 1, -2
//   sy::Complex<double> w = z;           // converts each part
//
//   z + w;  z - w;  z * w;  acc += z;    // as c10::complex computes them (no C99 Annex G rescue
//                                        // of infinities in *: PyTorch's CPU kernels have none)
//
// Complex tensors load, copy, convert (part by part, to a real dtype as the real part: See Note
// [Complex values convert as PyTorch's do] in backends/devices/cpu/copy.cpp) and print; the kernels
// that move elements take them (ExecuTorch's ALL family), and so do those ExecuTorch computes on
// complex values (bmm, sum.IntList_out); the others refuse them by name.
#pragma once

namespace sy {

template <class T>
struct alignas(2 * sizeof(T)) Complex {
  T real_{};
  T imag_{};

  Complex() = default;
  constexpr Complex(T re, T im = T()) : real_(re), imag_(im) {}  // NOLINT: a real converts implicitly
  template <class U>
  explicit constexpr Complex(const Complex<U>& other)
      : real_(static_cast<T>(static_cast<float>(other.real()))), imag_(static_cast<T>(static_cast<float>(other.imag()))) {}

  constexpr T real() const { return real_; }
  constexpr T imag() const { return imag_; }
  friend constexpr bool operator==(const Complex& a, const Complex& b) {
    return static_cast<double>(a.real_) == static_cast<double>(b.real_) &&
           static_cast<double>(a.imag_) == static_cast<double>(b.imag_);
  }
  friend constexpr bool operator!=(const Complex& a, const Complex& b) { return !(a == b); }

  friend constexpr Complex operator+(const Complex& a, const Complex& b) {
    return Complex(static_cast<T>(a.real_ + b.real_), static_cast<T>(a.imag_ + b.imag_));
  }
  friend constexpr Complex operator-(const Complex& a, const Complex& b) {
    return Complex(static_cast<T>(a.real_ - b.real_), static_cast<T>(a.imag_ - b.imag_));
  }
  friend constexpr Complex operator*(const Complex& a, const Complex& b) {
    return Complex(static_cast<T>(a.real_ * b.real_ - a.imag_ * b.imag_),
                   static_cast<T>(a.real_ * b.imag_ + a.imag_ * b.real_));
  }
  constexpr Complex& operator+=(const Complex& b) { return *this = *this + b; }
};

}  // namespace sy
