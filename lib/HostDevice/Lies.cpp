//===- Lies.cpp - Silent wrong results, for testing validation ------------===//
//
// A real driver can compute an operation wrong and report success. The host
// device plays such a driver when $NNAPI_MLIR_HOST_LIE names it: the steps
// of the chosen operation run as usual, then their first output is altered
// (Executor.h, Lie). Nothing reports an error; only a comparison with the
// model's host copy can tell.
//
//===----------------------------------------------------------------------===//

#include "Executor.h"

#include "nnapi-mlir/Support/CommaList.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace nnapi_mlir;
using namespace nnapi_mlir::host;

namespace {

/// Runs `inner`, then alters its first output as `lie` says.
class LyingStep : public Step {
public:
  LyingStep(std::unique_ptr<Step> inner, const HostModel &m,
            const Operation &op, Lie lie)
      : inner(std::move(inner)), lie(lie), output(op.outputs[0]),
        type(m.operands[output].type),
        elements(numElements(m.operands[output].dims)),
        zeroPoint(m.operands[output].zeroPoint) {}

  const char *backend() const override { return inner->backend(); }

  int run(const Bindings &b) override {
    if (int rc = inner->run(b))
      return rc;
    if (!elements)
      return 0;
    if (isQuant8DataType(type))
      alterBytes(reinterpret_cast<uint8_t *>(b[output]));
    else if (type == ANEURALNETWORKS_TENSOR_FLOAT32 ||
             type == ANEURALNETWORKS_TENSOR_FLOAT16)
      alterFloats(b[output]); // float32 storage for both
    return 0;
  }

private:
  /// The element of largest magnitude (distance from the zero point).
  template <typename T, typename Distance>
  size_t largest(const T *data, Distance distance) const {
    size_t at = 0;
    for (size_t i = 1; i < elements; ++i)
      if (distance(data[i]) > distance(data[at]))
        at = i;
    return at;
  }

  /// `stale`: the previous run's values (the first run is left alone).
  template <typename T> void replay(T *data) {
    size_t bytes = elements * sizeof(T);
    std::vector<uint8_t> now(reinterpret_cast<uint8_t *>(data),
                             reinterpret_cast<uint8_t *>(data) + bytes);
    if (previous.size() == bytes)
      std::memcpy(data, previous.data(), bytes);
    previous = std::move(now);
  }

  void alterFloats(float *data) {
    switch (lie.mode) {
    case Lie::Mode::Offset:
      // About `amount` thousandths of each value's magnitude, plus as much
      // again absolute: far beyond float32 rounding.
      for (size_t i = 0; i < elements; ++i)
        data[i] += float(lie.amount) * 1e-3f * (1.0f + std::fabs(data[i]));
      break;
    case Lie::Mode::Sign: {
      size_t at = largest(data, [](float v) { return std::fabs(v); });
      data[at] = data[at] == 0.0f ? 1.0f : -data[at];
      break;
    }
    case Lie::Mode::NaN:
      data[elements / 2] = std::numeric_limits<float>::quiet_NaN();
      break;
    case Lie::Mode::Stale:
      replay(data);
      break;
    }
  }

  void alterBytes(uint8_t *data) {
    // Storage holds the operand's own bytes: uint8 for QUANT8_ASYMM, int8
    // for the signed types; distances are taken from the zero point.
    bool isSigned = type != ANEURALNETWORKS_TENSOR_QUANT8_ASYMM;
    auto value = [&](uint8_t byte) {
      return isSigned ? int(int8_t(byte)) : int(byte);
    };
    int lo = isSigned ? -128 : 0, hi = isSigned ? 127 : 255;
    auto store = [&](uint8_t &byte, int v) {
      v = std::min(hi, std::max(lo, v));
      byte = isSigned ? uint8_t(int8_t(v)) : uint8_t(v);
    };
    switch (lie.mode) {
    case Lie::Mode::Offset:
      // Toward the middle of the range, so saturation cannot hide it.
      for (size_t i = 0; i < elements; ++i) {
        int v = value(data[i]);
        store(data[i], v > (lo + hi) / 2 ? v - lie.amount : v + lie.amount);
      }
      break;
    case Lie::Mode::Sign: {
      size_t at = largest(data, [&](uint8_t byte) {
        return std::abs(value(byte) - zeroPoint);
      });
      int v = value(data[at]);
      store(data[at], v == zeroPoint ? hi : 2 * zeroPoint - v);
      break;
    }
    case Lie::Mode::NaN: // no NaN in 8 bits: the farthest value instead
      data[elements / 2] ^= 0x80;
      break;
    case Lie::Mode::Stale:
      replay(data);
      break;
    }
  }

  std::unique_ptr<Step> inner;
  Lie lie;
  uint32_t output;
  int32_t type;
  size_t elements;
  int32_t zeroPoint;
  std::vector<uint8_t> previous;
};

} // namespace

std::unique_ptr<Step> nnapi_mlir::host::lieAbout(std::unique_ptr<Step> step,
                                                 const HostModel &model,
                                                 size_t index,
                                                 const std::vector<Lie> &lies) {
  const Operation &op = model.operations[index];
  for (const Lie &lie : lies)
    if (lie.opcode == op.opcode && !op.outputs.empty())
      return std::make_unique<LyingStep>(std::move(step), model, op, lie);
  return step;
}

bool nnapi_mlir::host::parseLies(const std::string &spec,
                                 const std::string &device,
                                 std::vector<Lie> &lies, std::string &error) {
  std::vector<std::string> entries;
  if (!splitCommaList(spec, entries)) {
    error = "empty entry";
    return false;
  }
  for (const std::string &entry : entries) {
    // DEVICE:OPERATION:MODE, MODE = offset[=N] | sign | nan | stale
    size_t first = entry.find(':');
    size_t second = first == std::string::npos ? std::string::npos
                                               : entry.find(':', first + 1);
    if (second == std::string::npos) {
      error = "'" + entry + "' is not DEVICE:OPERATION:MODE";
      return false;
    }
    std::string name = entry.substr(0, first);
    std::string operation = entry.substr(first + 1, second - first - 1);
    std::string mode = entry.substr(second + 1);
    Lie lie;
    lie.opcode = operationCode(operation);
    if (lie.opcode < 0) {
      error = "unknown NNAPI operation '" + operation + "' in '" + entry + "'";
      return false;
    }
    if (mode == "sign") {
      lie.mode = Lie::Mode::Sign;
    } else if (mode == "nan") {
      lie.mode = Lie::Mode::NaN;
    } else if (mode == "stale") {
      lie.mode = Lie::Mode::Stale;
    } else if (mode == "offset" || mode.rfind("offset=", 0) == 0) {
      lie.mode = Lie::Mode::Offset;
      if (mode.size() > 7) {
        char *end = nullptr;
        long n = std::strtol(mode.c_str() + 7, &end, 10);
        if (*end || n < 1 || n > 255) {
          error = "offset needs a count from 1 to 255 in '" + entry + "'";
          return false;
        }
        lie.amount = int(n);
      }
    } else {
      error = "mode '" + mode + "' in '" + entry +
              "' is not offset[=N], sign, nan or stale";
      return false;
    }
    if (name == device)
      lies.push_back(lie);
  }
  return true;
}
