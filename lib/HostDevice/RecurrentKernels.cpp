//===- RecurrentKernels.cpp - Sequence LSTM of the host device ------------===//
//
// UNIDIRECTIONAL_SEQUENCE_LSTM as NNAPI's documentation defines it, without
// layer normalization (Kernels.h). The weights of the four gates are packed
// once into one matrix [inputSize + outputSize, 4 units], row k holding what
// input (or state) element k adds to every gate, so that a step is a sum of
// scaled contiguous rows: a loop the compiler vectorizes without reordering
// any sum.
//
//===----------------------------------------------------------------------===//

#include "nnapi-mlir/HostDevice/Kernels.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace nnapi_mlir::host {

namespace {

float sigmoid(float x) { return 1.0f / (1.0f + std::exp(-x)); }

float activate(int32_t code, float x) {
  switch (code) {
  case 1: return std::max(x, 0.0f);
  case 3: return std::min(std::max(x, 0.0f), 6.0f);
  case 4: return std::tanh(x);
  case 6: return sigmoid(x);
  default: return x;
  }
}

float clip(float x, float bound) {
  return bound > 0 ? std::min(std::max(x, -bound), bound) : x;
}

/// acc[0, n) += scale * row[0, n).
void axpy(float *acc, const float *row, float scale, size_t n) {
  for (size_t j = 0; j < n; ++j)
    acc[j] += scale * row[j];
}

} // namespace

bool isLstmActivation(int32_t code) {
  return code == 0 || code == 1 || code == 3 || code == 4 || code == 6;
}

void sequenceLstm(const SequenceLstm &s, const SequenceLstmWeights &w,
                  const float *input, const float *outputStateIn,
                  const float *cellStateIn, float *output,
                  float *outputStateOut, float *cellStateOut,
                  std::vector<float> &packed) {
  const size_t units = s.units, width = 4 * units;
  const size_t rows = size_t(s.inputSize) + s.outputSize;
  if (packed.empty()) {
    // Row k < inputSize: input element k; then state element k - inputSize.
    // A gate without weights (CIFG's input gate) adds zeros.
    packed.assign(rows * width, 0.0f);
    for (size_t g = 0; g < 4; ++g)
      for (size_t u = 0; u < units; ++u) {
        if (w.input[g])
          for (size_t k = 0; k < s.inputSize; ++k)
            packed[k * width + g * units + u] = w.input[g][u * s.inputSize + k];
        if (w.recurrent[g])
          for (size_t k = 0; k < s.outputSize; ++k)
            packed[(s.inputSize + k) * width + g * units + u] =
                w.recurrent[g][u * s.outputSize + k];
      }
  }
  const bool cifg = !w.input[0];
  std::vector<float> h(outputStateIn,
                       outputStateIn + size_t(s.batch) * s.outputSize);
  std::vector<float> c(cellStateIn, cellStateIn + size_t(s.batch) * units);
  std::vector<float> gates(width), hidden(units);
  for (uint32_t t = 0; t < s.steps; ++t)
    for (uint32_t b = 0; b < s.batch; ++b) {
      size_t at = s.timeMajor ? size_t(t) * s.batch + b
                              : size_t(b) * s.steps + t;
      const float *x = input + at * s.inputSize;
      float *hb = h.data() + size_t(b) * s.outputSize;
      float *cb = c.data() + size_t(b) * units;
      for (size_t g = 0; g < 4; ++g)
        for (size_t u = 0; u < units; ++u)
          gates[g * units + u] = w.bias[g] ? w.bias[g][u] : 0.0f;
      for (size_t k = 0; k < s.inputSize; ++k)
        axpy(gates.data(), packed.data() + k * width, x[k], width);
      for (size_t k = 0; k < s.outputSize; ++k)
        axpy(gates.data(), packed.data() + (s.inputSize + k) * width, hb[k],
             width);
      for (size_t u = 0; u < units; ++u) {
        float prev = cb[u];
        float f = gates[units + u];
        if (w.peephole[1])
          f += w.peephole[1][u] * prev;
        f = sigmoid(f);
        float i;
        if (cifg) {
          i = 1.0f - f;
        } else {
          i = gates[u];
          if (w.peephole[0])
            i += w.peephole[0][u] * prev;
          i = sigmoid(i);
        }
        float cell = clip(f * prev + i * activate(s.activation,
                                                  gates[2 * units + u]),
                          s.cellClip);
        float o = gates[3 * units + u];
        if (w.peephole[2])
          o += w.peephole[2][u] * cell;
        cb[u] = cell;
        hidden[u] = sigmoid(o) * activate(s.activation, cell);
      }
      if (w.projection) {
        for (size_t k = 0; k < s.outputSize; ++k) {
          const float *row = w.projection + k * units;
          float sum = w.projectionBias ? w.projectionBias[k] : 0.0f;
          for (size_t u = 0; u < units; ++u)
            sum += row[u] * hidden[u];
          hb[k] = clip(sum, s.projClip);
        }
      } else {
        std::memcpy(hb, hidden.data(), units * sizeof(float));
      }
      std::memcpy(output + at * s.outputSize, hb, s.outputSize * sizeof(float));
    }
  if (outputStateOut)
    std::memcpy(outputStateOut, h.data(), h.size() * sizeof(float));
  if (cellStateOut)
    std::memcpy(cellStateOut, c.data(), c.size() * sizeof(float));
}

} // namespace nnapi_mlir::host
