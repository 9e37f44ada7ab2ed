//===- Tensors.h - nnapi-run's view of a model's inputs and outputs -------===//
#ifndef NNAPI_MLIR_TOOLS_NNAPI_RUN_TENSORS_H
#define NNAPI_MLIR_TOOLS_NNAPI_RUN_TENSORS_H

#include "TensorProto.h"
#include "nnapi-mlir/Runtime/Model.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace nnapi_run {

/// An input or output as the runtime describes it (Model.h).
struct TensorSpec {
  std::string name, dtype;
  std::vector<int64_t> dims;
  size_t elementSize = 0, byteSize = 0;
  size_t elementBytes() const { return elementSize; }
  size_t bytes() const { return byteSize; }
  std::string npyDtype() const { return npyDtypeOf(dtype); }

  /// numpy's type code of an element type the compiler writes (i64 is
  /// numpy's i8, i1 its bool b1; bfloat16, which numpy lacks, its bit
  /// patterns as u2), and back; "?" when there is none.
  static constexpr std::pair<const char *, const char *> kNpyDtypes[] = {
      {"f64", "f8"}, {"f32", "f4"}, {"f16", "f2"}, {"i64", "i8"},
      {"i32", "i4"}, {"i16", "i2"}, {"i8", "i1"},  {"i1", "b1"},
      {"u64", "u8"}, {"u32", "u4"}, {"u16", "u2"}, {"u8", "u1"},
      {"bf16", "u2"}};
  static std::string npyDtypeOf(const std::string &dtype) {
    for (auto [ours, npy] : kNpyDtypes)
      if (dtype == ours)
        return npy;
    return "?";
  }
  static std::string dtypeOfNpy(const std::string &npy) {
    for (auto [ours, code] : kNpyDtypes)
      if (npy == code)
        return ours;
    return "numpy '" + npy + "'";
  }
};

struct Signature {
  int partitions = 0;
  std::vector<TensorSpec> inputs, outputs;
};

/// Prints `msg` as nnapi-run's error; returns 2, its exit status for one.
int usageError(const std::string &msg);
/// The model's signature (Model.h) as nnapi-run's specs.
Signature signatureOf(const nnapi_rt_model *model);
/// "[2,3]".
std::string shapeString(const std::vector<int64_t> &dims);
/// Element `p` of a tensor of `t`'s type, as a double.
double toDouble(const TensorSpec &t, const uint8_t *p);
/// A tensor's name for a message or an output line: control characters
/// escaped (\n, \t, \xHH), so that any name stays on its line.
std::string printable(const std::string &name);
/// A tensor of `spec` with floats drawn uniformly from [-1, 1) (other
/// types zero).
std::vector<uint8_t> randomTensor(const TensorSpec &spec, std::mt19937_64 &rng);

//===----------------------------------------------------------------------===//
// Checks (Checks.cpp)
//===----------------------------------------------------------------------===//

/// How far outputs may be from a reference: |a-b| <= atol + rtol * |b|, or
/// with `normwise` atol + rtol * max|b| (floats; integers and booleans
/// match exactly).
struct Tolerance {
  double rtol = 1e-5, atol = 1e-6;
  bool normwise = false;
};

/// --compare-host: runs the model host-only on `inputs` and compares
/// `outputs` (the first run's) with that; prints one line. False when an
/// element is outside the tolerance. The mode is left host-only with
/// `hostOnly`, else automatic.
bool compareWithHost(
    const std::function<void(void *const *, void *const *)> &run,
    const Signature &sig, void *const *inputs,
    const std::vector<std::vector<uint8_t>> &outputs, bool hostOnly,
    const Tolerance &t);

/// --test-data: compares `outputs` with the expected ones; prints a line
/// per output and a verdict. False when any output does not match.
bool checkTestData(const Signature &sig,
                   const std::vector<std::vector<uint8_t>> &outputs,
                   const std::vector<nnapi_mlir::ProtoTensor> &expected,
                   const Tolerance &t);

/// --validate: the model on every candidate device in turn, every partition
/// execution compared with its host copy; prints one line per partition and
/// device and per wrong operation, writes `jsonPath` (if not empty). The
/// number of pairs that computed wrong values, or -1 after an error.
int validateDevices(
    const std::function<void(void *const *, void *const *)> &run,
    const std::vector<std::vector<std::vector<uint8_t>>> &sets,
    void *const *outputs, const std::string &devicesGiven,
    const std::string &jsonPath);

/// --compare-float64: runs the float64 copy at `path` and prints, per float
/// output, how far `outputs` and `expected` (when given) are from it.
/// Non-zero with `error` when the copy cannot be loaded or run.
int compareWithFloat64(const std::string &path, const Signature &sig,
                       const std::vector<std::vector<uint8_t>> &inputs,
                       const std::vector<std::vector<uint8_t>> &outputs,
                       const std::vector<nnapi_mlir::ProtoTensor> *expected,
                       std::string &error);

} // namespace nnapi_run

#endif // NNAPI_MLIR_TOOLS_NNAPI_RUN_TENSORS_H
