// The direct convolution: a stride-1 2-D convolution of one image and group computed in AVX-512 or
// AVX2 registers, without unfolding the input into a matrix. The optimized convolution
// (convolution_ops.cpp) takes it when this CPU has either and the geometry pays (directPays), and
// unfolds for OpenBLAS otherwise.
//
//   DirectGeometry g{/*channels=*/32, /*height=*/56, /*width=*/56, /*filters=*/64, 3, 3,
//                    /*pad_h=*/1, /*pad_w=*/1, /*dilation_h=*/1, /*dilation_w=*/1};
//   if (directAvailable() && directPays(g)) directConvolution(g, input, weight, bias, out);
//
// `input` is (channels, height, width), `weight` (filters, channels, kernel_h, kernel_w), `bias`
// (filters) or null, `out` (filters, out_h, out_w), all contiguous Float; out shares no memory
// with the others. Every output is bias + the sum over channels, then kernel rows, then kernel
// columns, of input * weight, added in that order (the order of the unfolded product's depth).
//
// Note [The direct convolution runs on the padded image's flat positions]
// With stride 1, output (y, x) reads input (y + kh * dh, x + kw * dw) of the zero-padded image.
// Numbering the padded image's positions row-major, p = y * Wp + x, tap (kh, kw) reads position
// p + kh * dh * Wp + kw * dw: one constant offset per tap for every output. So the kernel computes
// consecutive flat positions p, sixteen to a register, each tap one unaligned load per register,
// and every channel and tap one broadcast of a filter's weight; the Wp - out_w positions at the end
// of each row (which wrap into the next row) are computed and dropped. A register block holds up to
// 8 filters x 48 positions on AVX-512 (24 of the 32 registers), 4 x 24 on AVX2 (12 of 16), so
// each load feeds eight or four FMAs and each broadcast three: the loop is bound by the FMA units,
// not by loads, where an unfolded product first writes and then reads the image kh * kw times. The image is copied once into a padded
// buffer with zeros around it and slack after it, so no load needs a bound check. The dropped
// positions cost (Wp - out_w) / Wp of the work; directPays declines geometries where they and the
// last block's unused lanes waste more than a quarter of it.
#pragma once

#include <cstdint>

#include "switchyard/backends/kernels/optimized/vector_math.h"

namespace sy::optimized {

struct DirectGeometry {
  int64_t channels = 0, height = 0, width = 0, filters = 0, kernel_h = 0, kernel_w = 0;
  int64_t pad_h = 0, pad_w = 0, dilation_h = 1, dilation_w = 1;
  // Every value is below 2^31 and at least its minimum (height, width, filters, kernel, dilation
  // >= 1; channels and pads >= 0: an image without channels gives the bias), and the kernel fits
  // in the padded image.
};

// Whether this build and CPU run the direct convolution: with `set` (AVX-512F or AVX2 with FMA on
// x86-64), or with the widest instruction set the optimized kernels use (activeInstructionSet).
bool directAvailable();
bool directAvailable(InstructionSet set);

// Whether the direct convolution can run `g`: its padded image fits in 32 MiB and every tap's
// offset in int32_t.
bool directFits(const DirectGeometry& g);
// Whether it is expected to beat unfolding for OpenBLAS on `g`: it fits and at most a quarter of
// the positions it computes are dropped (See Note [The direct convolution runs on the padded
// image's flat positions]).
bool directPays(const DirectGeometry& g);

// out = conv(input, weight) + bias for one image and group, on the optimized kernels' threads.
// Requires directAvailable() and directFits(g). Allocates only the per-thread scratch of the
// first call at a larger size (See Note [A warm optimized kernel allocates nothing] in scratch.h).
void directConvolution(const DirectGeometry& g, const float* input, const float* weight, const float* bias, float* out);
// The same with the loop of `set`, which must be available (for tests and benchmarks).
void directConvolution(const DirectGeometry& g, const float* input, const float* weight, const float* bias, float* out,
                       InstructionSet set);

namespace direct_unit {

// The AVX-512 unit's entry (direct_convolution_avx512.cpp), free of any inline function that
// another unit could share: See Note [Instruction sets are chosen at run time] in vector_math.h.
struct DirectPlan {
  int64_t channels, filters, taps;
  int64_t padded_plane;      // Hp * Wp: a channel's stride in the padded image
  int64_t padded_width;      // Wp: an output row's stride in flat positions
  int64_t out_h, out_w;
  int64_t positions;         // out_h * Wp: the flat positions computed
  const int32_t* offsets;    // taps entries: kh * dh * Wp + kw * dw
  const float* image;        // channels * padded_plane Floats, then slack
  const float* filters_packed;  // blocks of 8 filters: [block][channel][tap][filter in block]
  const float* bias;         // filters Floats, or null
  float* out;
};
// Positions per block of the kernel's loop (the unit that threads split).
inline constexpr int64_t kDirectBlock = 96;
// Filters per block of the packed filters.
inline constexpr int kDirectFilters = 8;
// Computes position blocks [first, last) of every filter.
using DirectBlocks = void (*)(const DirectPlan& plan, int64_t first, int64_t last);
DirectBlocks directBlocksAvx512();  // null when this build has no AVX-512 unit
DirectBlocks directBlocksAvx2();    // null when this build has no AVX2 unit

}  // namespace direct_unit
}  // namespace sy::optimized
