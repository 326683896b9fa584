// Which nodes of an XNNPACK blob Debian's XNNPACK (0.0~git20220216) runs, and why the others run on
// the host. init puts each node the table accepts into an XNNPACK runtime and the rest into host
// steps; a node XNNPACK still refuses when it is defined, or whose runtime it cannot create, moves
// to the host too (xnnpack_graph_executable.h).
//
//   std::string why = sy::xnnpack::hostReason(graph, node);   // "" when XNNPACK takes it
//
// Note [What Debian's XNNPACK runs]
// The 2022-02 snapshot's subgraph API has convolution (grouped, depthwise, transposed), fully
// connected, the binary operators with broadcasting (add, subtract, multiply, divide, minimum,
// maximum), clamp, ELU, leaky ReLU, PReLU over NHWC, hardswish, sigmoid, softmax, abs, negate,
// square, square root, floor, ceiling, average, max and global average pooling, constant padding,
// static reshape, bilinear resizing and conversion. It has no transpose, concatenation, slice,
// batch matrix multiply, attention, GELU, tanh, exp, log, sin, cos, reciprocal square root or
// copy; its argmax pooling asserts on valid shapes. Every kind runs there on fp32. Trying each kind
// on the other datatypes (a probe defining one node and creating its runtime) showed: no fp16
// value at all, and on qint8: conversion from and to fp32, add, subtract, multiply, clamp, static
// reshape, constant padding, max and global average pooling, bilinear resizing, convolution (qint8
// or per-channel qcint8 filters), depthwise convolution and fully connected (qint8 filters), with
// qint32 biases. No dynamically quantized (qdint8) or 4-bit value, no quint8 node. A node with a
// dimension of size 0 runs on the host (XNNPACK's operators assume at least one element).
#pragma once

#include <string>

#include "switchyard/backends/delegates/xnnpack/runtime/xnnpack_graph.h"

namespace sy::xnnpack {

// Empty when Debian's XNNPACK takes `node`, else why not ("XNNPACK 2022-02 has no transpose").
std::string hostReason(const XnnGraph& graph, const XnnNode& node);

}  // namespace sy::xnnpack
