//===- BlockedKernels.h - Fast kernels where XNNPACK has no operator -*- C++ -*-===//
//
// The host NNAPI device runs an operation with XNNPACK when Debian's
// XNNPACK snapshot has an operator for it, with one of these kernels when
// it has none, and with the reference kernels (Kernels.h, the oracle the
// tests compare these with) otherwise. Same semantics as the reference
// kernels, except that sums accumulate in float (the reference in double).
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_HOSTDEVICE_BLOCKEDKERNELS_H
#define NNAPI_MLIR_HOSTDEVICE_BLOCKEDKERNELS_H

#include "nnapi-mlir/HostDevice/Kernels.h"

// The kernels here are built for the baseline and keep an AVX2+FMA copy,
// chosen at run time by hasAvx2Fma(), on x86-64. Chosen by a CPU check, not
// by GCC's target_clones: their ifunc resolvers run before the sanitizers'
// runtimes are up and crash instrumented builds.
#if defined(__x86_64__) && defined(__GNUC__)
#define NNAPI_MLIR_X86_AVX2_COPY 1
#endif

namespace nnapi_mlir::host::blocked {

/// TRANSPOSE: dimensions that stay adjacent are merged and unit dimensions
/// dropped; contiguous runs are copied whole, the rest moved in square
/// tiles so that reads and writes both stay in cache.
void transpose(const float *input, const Shape &inputShape,
               const std::vector<int32_t> &perm, float *output);
/// The same on 8-bit elements (quantized data).
void transpose(const uint8_t *input, const Shape &inputShape,
               const std::vector<int32_t> &perm, uint8_t *output);

/// Whether reduce() handles this reduction: once unit dimensions are
/// dropped and adjacent ones merged, the reduced dimensions are one block
/// (outer kept, reduced, inner kept), which is every reduction an imported
/// model makes over contiguous axes.
bool canReduce(const Shape &inputShape, const std::vector<bool> &reduced);
/// MEAN, REDUCE_SUM/MAX/MIN/PROD as host::reduce (canReduce must hold).
void reduce(ReduceKind kind, const float *input, const Shape &inputShape,
            const std::vector<bool> &reduced, float *output);

/// Floats of scratch memory batchMatmul needs for these operands.
size_t batchMatmulScratch(const Shape &aShape, bool adjA, const Shape &bShape,
                          bool adjB);
/// BATCH_MATMUL as host::batchMatmul: a transposed operand is first copied
/// into `scratch`, then each batch is a row-blocked product whose inner loop
/// runs along the output's rows.
void batchMatmul(const float *a, const Shape &aShape, bool adjA,
                 const float *b, const Shape &bShape, bool adjB, float *output,
                 float *scratch);

/// c[m, n] = a[m, k] b[k, n], row-major, in float; AVX2+FMA where the CPU
/// has them.
void gemm(size_t m, size_t k, size_t n, const float *a, const float *b,
          float *c);
/// Whether this x86-64 CPU has AVX2 and FMA (false elsewhere).
bool hasAvx2Fma();

/// UNIDIRECTIONAL_SEQUENCE_LSTM as host::sequenceLstm (RecurrentKernels.cpp):
/// the weights packed once (packSequenceLstm, into sequenceLstmPackedSize
/// floats) so that a step's products are a sum of contiguous rows scaled by
/// the input and the state, in vector registers; the logistic and tanh
/// functions computed from a polynomial exponential (about 1e-7 from
/// libm's) on vectors.
size_t sequenceLstmPackedSize(const SequenceLstm &shape);
void packSequenceLstm(const SequenceLstm &shape,
                      const SequenceLstmWeights &weights, float *packed);
/// Floats of scratch memory sequenceLstm needs.
size_t sequenceLstmScratch(const SequenceLstm &shape);
void sequenceLstm(const SequenceLstm &shape, const SequenceLstmWeights &weights,
                  const float *packed, const float *input,
                  const float *outputStateIn, const float *cellStateIn,
                  float *output, float *outputStateOut, float *cellStateOut,
                  float *scratch);

} // namespace nnapi_mlir::host::blocked

#endif // NNAPI_MLIR_HOSTDEVICE_BLOCKEDKERNELS_H
