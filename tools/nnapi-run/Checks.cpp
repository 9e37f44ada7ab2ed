//===- Checks.cpp - nnapi-run --validate and --compare-float64 ------------===//
//
// How nnapi-run tells whether results are right: against a reference (the
// model's host copy, --compare-host; the expected outputs of --test-data);
// and beyond a reference file, every NNAPI device against the model's host
// copy (--validate, docs/validation.md), and both runtimes against a
// float64 copy of the model (--compare-float64, docs/onnx-debugging.md).
//
//===----------------------------------------------------------------------===//

#include "Tensors.h"

#include "nnapi-mlir/Runtime/Runtime.h"
#include "nnapi-mlir/Support/JsonText.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>

using namespace nnapi_mlir;

namespace nnapi_run {

namespace {

/// Largest absolute and relative differences and the number of elements
/// outside atol + rtol * |expected|.
struct Comparison {
  double maxAbs = 0, maxRel = 0;
  size_t mismatches = 0, count = 0;
};

/// Compares an output with its reference: floats within atol + rtol * |b|
/// element by element, or with `normwise` within atol + rtol * max |b| (the
/// reference's largest finite magnitude: deep networks' rounding is
/// relative to the tensor, not to each element, and elements near zero
/// after cancellation fail element-wise tests between any two runtimes);
/// NaN matches NaN. Integers and booleans exactly (their element bytes; a
/// tolerance would let 1000 pass for 1001, and doubles cannot tell int64
/// values apart above 2^53).
Comparison compare(const TensorSpec &spec, const uint8_t *actual,
                   const uint8_t *expected, double rtol, double atol,
                   bool normwise) {
  Comparison c;
  size_t width = spec.elementBytes();
  c.count = spec.bytes() / width;
  bool exact = spec.dtype[0] != 'f';
  double largest = 0;
  if (normwise && !exact)
    for (size_t k = 0; k < c.count; ++k) {
      double b = toDouble(spec, expected + k * width);
      if (std::isfinite(b))
        largest = std::max(largest, std::fabs(b));
    }
  for (size_t k = 0; k < c.count; ++k) {
    double a = toDouble(spec, actual + k * width);
    double b = toDouble(spec, expected + k * width);
    if (exact) {
      if (std::memcmp(actual + k * width, expected + k * width, width) == 0)
        continue;
      // At least one unit: int64 neighbours may round to the same double.
      double diff = std::max(std::fabs(a - b), 1.0);
      c.maxAbs = std::max(c.maxAbs, diff);
      if (b != 0)
        c.maxRel = std::max(c.maxRel, diff / std::fabs(b));
      ++c.mismatches;
      continue;
    }
    double diff = std::fabs(a - b);
    if (std::isnan(a) && std::isnan(b))
      diff = 0;
    else if (std::isnan(a) || std::isnan(b))
      diff = INFINITY;
    else if (std::isinf(a) && a == b)
      diff = 0;
    c.maxAbs = std::max(c.maxAbs, diff);
    if (b != 0 && std::isfinite(b))
      c.maxRel = std::max(c.maxRel, diff / std::fabs(b));
    // (NaN where the reference has NaN matches: |b| must not make the
    // tolerance NaN.)
    double tolerance =
        atol + (normwise ? rtol * largest
                         : std::isnan(b) ? 0 : rtol * std::fabs(b));
    if (!(diff <= tolerance))
      ++c.mismatches;
  }
  return c;
}

} // namespace

bool compareWithHost(
    const std::function<void(void *const *, void *const *)> &run,
    const Signature &sig, void *const *inputs,
    const std::vector<std::vector<uint8_t>> &outputs, bool hostOnly,
    const Tolerance &t) {
  std::vector<std::vector<uint8_t>> reference(outputs.size());
  std::vector<void *> refPtrs;
  for (size_t i = 0; i < outputs.size(); ++i) {
    reference[i].reserve(1);
    reference[i].assign(outputs[i].size(), 0);
    refPtrs.push_back(reference[i].data());
  }
  nnapi_rt_set_mode(NNAPI_RT_MODE_HOST_ONLY);
  run(inputs, refPtrs.data());
  nnapi_rt_set_mode(hostOnly ? NNAPI_RT_MODE_HOST_ONLY : NNAPI_RT_MODE_AUTO);
  double maxAbs = 0, maxRel = 0;
  size_t mismatches = 0;
  for (size_t i = 0; i < outputs.size(); ++i) {
    Comparison c = compare(sig.outputs[i], outputs[i].data(),
                           reference[i].data(), t.rtol, t.atol, t.normwise);
    maxAbs = std::max(maxAbs, c.maxAbs);
    maxRel = std::max(maxRel, c.maxRel);
    mismatches += c.mismatches;
  }
  std::printf("compare-host: max_abs_err=%.3g max_rel_err=%.3g "
              "mismatches=%zu (%srtol=%g atol=%g)\n",
              maxAbs, maxRel, mismatches, t.normwise ? "normwise, " : "",
              t.rtol, t.atol);
  return mismatches == 0;
}

bool checkTestData(const Signature &sig,
                   const std::vector<std::vector<uint8_t>> &outputs,
                   const std::vector<ProtoTensor> &expected,
                   const Tolerance &t) {
  size_t failing = 0;
  for (size_t i = 0; i < sig.outputs.size(); ++i) {
    const ProtoTensor &want = expected[i];
    Comparison c = compare(sig.outputs[i], outputs[i].data(),
                           want.data.data(), t.rtol, t.atol, t.normwise);
    std::printf("test-data output %zu '%s': max_abs_err=%.3g "
                "max_rel_err=%.3g mismatches=%zu/%zu\n",
                i, printable(sig.outputs[i].name).c_str(), c.maxAbs, c.maxRel,
                c.mismatches, c.count);
    failing += c.mismatches != 0;
  }
  std::printf("test-data: %s (%zu of %zu outputs match, %srtol=%g "
              "atol=%g)\n",
              failing ? "FAIL" : "PASS", sig.outputs.size() - failing,
              sig.outputs.size(), t.normwise ? "normwise, " : "", t.rtol,
              t.atol);
  return failing == 0;
}

/// How far `values` (of `spec`) are from the float64 `exact` ones: the
/// largest absolute difference, and that relative to the largest exact
/// magnitude.
static std::string distance(const TensorSpec &spec, const uint8_t *values,
                            const double *exact) {
  size_t n = spec.bytes() / spec.elementBytes();
  double maxAbs = 0, largest = 0;
  for (size_t k = 0; k < n; ++k) {
    double v = toDouble(spec, values + k * spec.elementBytes());
    double e = exact[k];
    double d = std::isnan(v) && std::isnan(e) ? 0 : std::fabs(v - e);
    maxAbs = std::max(maxAbs, std::isnan(d) ? INFINITY : d);
    if (std::isfinite(e))
      largest = std::max(largest, std::fabs(e));
  }
  char text[96];
  std::snprintf(text, sizeof text, "max_abs_err=%.3g normwise_err=%.3g", maxAbs,
                largest > 0 ? maxAbs / largest : maxAbs);
  return text;
}

/// --compare-float64: runs the float64 copy at `path` on `inputs` (float32
/// ones widened) and prints, per float output, how far `outputs` (ours)
/// and `expected` (the test data's, when given) are from it. Non-zero with
/// `error` when the copy cannot be loaded or run.
int compareWithFloat64(const std::string &path, const Signature &sig,
                       const std::vector<std::vector<uint8_t>> &inputs,
                       const std::vector<std::vector<uint8_t>> &outputs,
                       const std::vector<nnapi_mlir::ProtoTensor> *expected,
                       std::string &error) {
  nnapi_rt_model *model = nullptr;
  if (nnapi_rt_model_open(path.c_str(), &model) != NNAPI_RT_OK) {
    error = std::string("--compare-float64: ") + nnapi_rt_last_error();
    return 1;
  }
  std::unique_ptr<nnapi_rt_model, void (*)(nnapi_rt_model *)> closer(
      model, nnapi_rt_model_close);
  Signature wide = signatureOf(model);
  if (wide.inputs.size() != sig.inputs.size() ||
      wide.outputs.size() != sig.outputs.size()) {
    error = "--compare-float64: the float64 copy has other inputs or outputs";
    return 1;
  }
  std::vector<std::vector<uint8_t>> in(inputs.size()), out(sig.outputs.size());
  std::vector<const void *> inPtrs;
  std::vector<void *> outPtrs;
  std::vector<uint64_t> inBytes, outBytes;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const TensorSpec &from = sig.inputs[i], &to = wide.inputs[i];
    if (from.dtype == "f32" && to.dtype == "f64") {
      size_t n = from.bytes() / 4;
      in[i].resize(n * 8);
      for (size_t k = 0; k < n; ++k) {
        double d = toDouble(from, &inputs[i][k * 4]);
        std::memcpy(&in[i][k * 8], &d, 8);
      }
    } else {
      in[i] = inputs[i];
    }
    in[i].reserve(1);
    inPtrs.push_back(in[i].data());
    inBytes.push_back(to.bytes());
  }
  for (size_t i = 0; i < out.size(); ++i) {
    out[i].assign(wide.outputs[i].bytes(), 0);
    out[i].reserve(1);
    outPtrs.push_back(out[i].data());
    outBytes.push_back(wide.outputs[i].bytes());
  }
  if (nnapi_rt_model_run(model, int64_t(inPtrs.size()),
                         const_cast<void *const *>(inPtrs.data()),
                         inBytes.data(), int64_t(outPtrs.size()),
                         outPtrs.data(), outBytes.data()) != NNAPI_RT_OK) {
    error = std::string("--compare-float64: ") + nnapi_rt_last_error();
    return 1;
  }
  for (size_t i = 0; i < out.size(); ++i) {
    const TensorSpec &spec = sig.outputs[i];
    if (spec.dtype[0] != 'f' || wide.outputs[i].dtype != "f64")
      continue;
    std::vector<double> exact(wide.outputs[i].bytes() / 8);
    std::memcpy(exact.data(), out[i].data(), exact.size() * 8);
    std::printf("float64 output %zu '%s': ours %s", i,
                printable(spec.name).c_str(),
                distance(spec, outputs[i].data(), exact.data()).c_str());
    if (expected)
      std::printf(
          "; reference %s",
          distance(spec, (*expected)[i].data.data(), exact.data()).c_str());
    std::printf("\n");
  }
  return 0;
}

/// --validate: the model on every candidate device in turn, every partition
/// execution compared with its host copy (the validate option); one line
/// per partition and device, and per operation found wrong. Returns the
/// number of partition-device pairs that computed wrong values, or -1 with
/// the error printed.
int validateDevices(
    const std::function<void(void *const *, void *const *)> &run,
    const std::vector<std::vector<std::vector<uint8_t>>> &sets,
    void *const *outputs, const std::string &devicesGiven,
    const std::string &jsonPath) {
  // One JSON record per partition and device (--validation-out).
  std::vector<std::string> records;
  std::vector<nnapi_rt_device_info> candidates;
  int32_t count = nnapi_rt_device_count();
  for (int32_t i = 0; i < count; ++i) {
    nnapi_rt_device_info d;
    if (nnapi_rt_get_device_info(i, &d) == NNAPI_RT_OK && d.preference >= 0)
      candidates.push_back(d);
  }
  std::sort(
      candidates.begin(), candidates.end(),
      [](const auto &a, const auto &b) { return a.preference < b.preference; });
  if (candidates.empty()) {
    std::fprintf(stderr,
                 "nnapi-run: error: --validate: no NNAPI device may run "
                 "partitions (%s)\n",
                 count < 0 ? nnapi_rt_last_error() : "see --list-devices");
    return -1;
  }
  int wrong = 0, pairs = 0;
  for (const nnapi_rt_device_info &d : candidates) {
    std::printf("validate device '%s': %s feature_level=%d version='%s' "
                "input_sets=%zu\n",
                d.name, nnapi_rt_device_type_name(d.type), d.featureLevel,
                d.version, sets.size());
    if (nnapi_rt_set_option("devices", d.name) != NNAPI_RT_OK ||
        nnapi_rt_set_option("validate", "1") != NNAPI_RT_OK) {
      std::fprintf(stderr, "nnapi-run: error: %s\n", nnapi_rt_last_error());
      return -1;
    }
    static uint8_t empty; // a zero-size tensor's buffer still has an address
    for (const auto &set : sets) {
      std::vector<void *> in;
      for (const auto &t : set)
        in.push_back(t.empty() ? &empty : const_cast<uint8_t *>(t.data()));
      run(in.data(), outputs);
    }
    for (int32_t i = 0, n = nnapi_rt_partition_count(); i < n; ++i) {
      nnapi_rt_partition_info p;
      nnapi_rt_check_info c;
      if (nnapi_rt_get_partition_info(i, &p) != NNAPI_RT_OK ||
          nnapi_rt_get_check_info(i, &c) != NNAPI_RT_OK)
        continue;
      std::string record =
          "{\"partition\": " + jsonQuoted(p.name) +
          ", \"index\": " + std::to_string(i) +
          ", \"device\": " + jsonQuoted(d.name) +
          ", \"version\": " + jsonQuoted(d.version) +
          ", \"feature_level\": " + std::to_string(d.featureLevel);
      if (p.status != NNAPI_RT_OK || !c.checks) {
        std::string why = p.status != NNAPI_RT_OK ? p.error : p.lastFailure;
        std::printf("validate partition %d device '%s': not run (%s)\n", i,
                    d.name, why.c_str());
        records.push_back(record + ", \"result\": \"not run\", \"reason\": " +
                          jsonQuoted(why) + "}");
        continue;
      }
      ++pairs;
      bool pass = c.mismatches == 0;
      wrong += !pass;
      record += std::string(", \"result\": \"") + (pass ? "pass" : "fail") +
                "\", \"max_error\": " + jsonNumber(c.maxError) +
                ", \"tolerance\": " + jsonNumber(c.tolerance) +
                ", \"unit\": " + jsonQuoted(c.unit) +
                ", \"checks\": " + std::to_string(c.checks) +
                ", \"mismatches\": " + std::to_string(c.mismatches) +
                ", \"device_ms\": " +
                jsonNumber(double(c.deviceNs) / 1e6 / double(c.checks)) +
                ", \"host_ms\": " +
                jsonNumber(double(c.hostNs) / 1e6 / double(c.checks)) +
                ", \"first_mismatch\": " + jsonQuoted(c.firstMismatch) +
                ", \"note\": " + jsonQuoted(c.narrowNote) +
                ", \"wrong_operations\": [";
      std::printf("validate partition %d device '%s': %s max_error=%g %s "
                  "tolerance=%g %s checks=%llu mismatches=%llu "
                  "device_ms=%.3f host_ms=%.3f\n",
                  i, d.name, pass ? "PASS" : "FAIL", c.maxError, c.unit,
                  c.tolerance, c.unit, (unsigned long long)c.checks,
                  (unsigned long long)c.mismatches,
                  double(c.deviceNs) / 1e6 / double(c.checks),
                  double(c.hostNs) / 1e6 / double(c.checks));
      if (pass) {
        records.push_back(record + "]}");
        continue;
      }
      std::printf("validate partition %d device '%s': first mismatch: %s\n", i,
                  d.name, c.firstMismatch);
      for (int32_t k = 0; k < c.wrongOperations; ++k) {
        nnapi_rt_wrong_operation w;
        if (nnapi_rt_get_wrong_operation(i, k, &w) != NNAPI_RT_OK)
          continue;
        std::printf("validate partition %d device '%s': wrong operation %d "
                    "(compared with '%s'): %s\n  signature: %s\n",
                    i, d.name, w.operation, c.reference, w.description,
                    w.signature);
        record += std::string(k ? ", " : "") +
                  "{\"operation\": " + std::to_string(w.operation) +
                  ", \"signature\": " + jsonQuoted(w.signature) +
                  ", \"description\": " + jsonQuoted(w.description) +
                  ", \"reference\": " + jsonQuoted(c.reference) + "}";
      }
      records.push_back(record + "]}");
      if (c.narrowNote[0])
        std::printf("validate partition %d device '%s': %s\n", i, d.name,
                    c.narrowNote);
    }
  }
  nnapi_rt_set_option("validate", nullptr);
  nnapi_rt_set_option("devices",
                      devicesGiven.empty() ? nullptr : devicesGiven.c_str());
  std::printf("validate: %d of %d partition-device pairs computed wrong "
              "values\n",
              wrong, pairs);
  if (!jsonPath.empty()) {
    std::string text = "{\"format\": \"nnapi-mlir-validation-1\", "
                       "\"input_sets\": " +
                       std::to_string(sets.size()) + ", \"results\": [";
    for (size_t k = 0; k < records.size(); ++k)
      text += std::string(k ? ",\n  " : "\n  ") + records[k];
    text += "\n]}\n";
    FILE *f = std::fopen(jsonPath.c_str(), "w");
    bool ok = f && std::fwrite(text.data(), 1, text.size(), f) == text.size();
    if (f)
      ok &= std::fclose(f) == 0;
    if (!ok) {
      std::fprintf(stderr,
                   "nnapi-run: error: --validation-out: cannot write "
                   "'%s'\n",
                   jsonPath.c_str());
      return -1;
    }
  }
  return wrong;
}

} // namespace nnapi_run
