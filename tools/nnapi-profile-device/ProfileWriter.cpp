//===- ProfileWriter.cpp - A device profile fitted to a run ---------------===//

#include "ProfileWriter.h"

#include "Fit.h"
#include "ProfileDevice.h"
#include "Probes.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"

#include <algorithm>
#include <array>
#include <map>
#include <optional>

namespace nnapi_mlir::profiling {

namespace {

/// The boundary costs the partitioner charges (docs/device-profiles.md).
struct Boundary {
  double partitionUs = 0, transferFixedUs = 0, transferNsPerByte = 0;
  double transferUs(unsigned tensors, uint64_t bytes) const {
    return transferFixedUs * tensors + double(bytes) * transferNsPerByte * 1e-3;
  }
};

/// From the boundary models (Probes.h): 2 single - chain is one call plus
/// one transfer in and one out at every size, its growth with the bytes the
/// per-byte cost; its value at the smallest size is the fixed part, which
/// two_inputs - single there (one more small input) splits.
bool boundaryOf(const Run &run, Boundary &b, std::string &error) {
  std::vector<double> bytes, callPlusTwo;
  double oneMoreInput = 0;
  for (unsigned size = 0; size < run.sizes; ++size) {
    double us[kNumBoundaryModels] = {-1, -1, -1};
    for (const Measurement &m : run.measurements)
      for (unsigned k = 0; k < kNumBoundaryModels; ++k)
        if (m.operation == "boundary" && m.size == size &&
            m.model == boundaryModelName(BoundaryModel(k))) {
          if (!m.failure.empty()) {
            error = "boundary model " + m.model + " of size " +
                    std::to_string(size) + " did not run on the device: " +
                    m.failure;
            return false;
          }
          us[k] = m.us;
        }
    if (us[0] < 0 || us[1] < 0 || us[2] < 0) {
      error = "no boundary measurements of size " + std::to_string(size);
      return false;
    }
    bytes.push_back(double(boundaryElements(size)) * 4);
    callPlusTwo.push_back(2 * us[0] - us[1]);
    if (size == 0)
      oneMoreInput = us[2] - us[0];
  }
  double slope = fitLine(bytes, callPlusTwo).slope;
  double fixed = std::max(0.0, callPlusTwo[0] - slope * bytes[0]);
  b.transferNsPerByte = slope / 2 * 1000.0;
  b.transferFixedUs =
      std::clamp(oneMoreInput - slope / 2 * bytes[0], 0.0, fixed / 2);
  b.partitionUs = fixed - 2 * b.transferFixedUs;
  return true;
}

std::string costJSON(const profile::CostModel &c) {
  return "{\"fixed_us\": " + formatNumber(c.fixedUs) +
         ", \"ns_per_mac\": " + formatNumber(c.nsPerMac) +
         ", \"ns_per_element\": " + formatNumber(c.nsPerElement) + "}";
}

using Costs =
    std::map<std::string, std::map<profile::DataType, profile::CostModel>>;

/// A cost table: `default` for all three types, then each operation's.
std::string tableJSON(
    const std::array<profile::CostModel, profile::kNumDataTypes> &defaults,
    const Costs &perOperation, const std::vector<std::string> &order) {
  std::string s = "{\n    \"default\": {";
  for (unsigned t = 0; t < profile::kNumDataTypes; ++t)
    s += std::string(t ? ", " : "") + "\"" +
         typeName(profile::DataType(t)) + "\": " + costJSON(defaults[t]);
  s += "}";
  for (const std::string &op : order) {
    auto it = perOperation.find(op);
    if (it == perOperation.end())
      continue;
    s += ",\n    \"" + op + "\": {";
    bool first = true;
    for (auto &[type, cost] : it->second) {
      s += std::string(first ? "" : ", ") + "\"" + typeName(type) +
           "\": " + costJSON(cost);
      first = false;
    }
    s += "}";
  }
  return s + "\n  }";
}

/// Element-wise operations whose samples price operations without a probe.
bool isDefaultSample(const std::string &op) {
  return op == "ADD" || op == "SUB" || op == "MUL" || op == "LOGISTIC" ||
         op == "TANH" || op == "EXP";
}

/// What every one-op model pays besides its op: on the device the boundary
/// (partition call and transfers), on the host the call of compiled code.
struct Overheads {
  Boundary boundary;
  double hostCallUs = 0;

  /// What a measurement says of the op alone: the device's without the
  /// partition call and transfers (the partitioner charges them apart), the
  /// host's without the call of compiled code.
  double opAlone(const Measurement &m) const {
    double alone = m.side == "host"
                       ? m.us - hostCallUs
                       : m.us - boundary.partitionUs -
                             boundary.transferUs(m.ioCount[0], m.ioBytes[0]) -
                             boundary.transferUs(m.ioCount[1], m.ioBytes[1]);
    return std::max(0.01 * m.us, alone);
  }
};

/// The fitted cost tables of both sides (0: nnapi, 1: host).
struct Fits {
  Costs costs[2];
  std::array<profile::CostModel, profile::kNumDataTypes> defaults[2];
};

/// Fits every operation and type of `run` on both sides, and the defaults
/// of operations without a probe; the table goes to `log`.
void fitCosts(const Run &run, const Overheads &overheads, Fits &fits,
              llvm::raw_ostream &log) {
  log << "fits (fixed us, ns/MAC, ns/element; worst error relative to the "
         "one-op model's latency, over the sizes):\n";
  for (int side = 0; side < 2; ++side) {
    const char *sideName = side == 0 ? "nnapi" : "host";
    for (profile::DataType type : run.types) {
      auto sample = [&](const Measurement &m) {
        return Sample{m.macs, m.elements, overheads.opAlone(m), m.us};
      };
      std::vector<Sample> elementwise, all;
      for (const std::string &op : run.operations) {
        std::vector<Sample> samples;
        for (const Measurement &m : run.measurements)
          if (m.operation == op && m.side == sideName && m.type == type &&
              m.failure.empty())
            samples.push_back(sample(m));
        std::optional<CostFit> fit = fitCost(samples);
        if (!fit)
          continue;
        fits.costs[side][op][type] = fit->cost;
        log << llvm::format("  %-5s %-7s %-24s %8.3f %9.4g %9.4g  %3.0f%%\n",
                            sideName, typeName(type), op.c_str(),
                            fit->cost.fixedUs, fit->cost.nsPerMac,
                            fit->cost.nsPerElement,
                            100 * fit->worstRelativeError);
        llvm::append_range(all, samples);
        if (isDefaultSample(op))
          llvm::append_range(elementwise, samples);
      }
      // Operations without a probe are priced like element-wise ones, at the
      // per-MAC cost of FULLY_CONNECTED when it was measured.
      std::optional<CostFit> fit =
          fitCost(elementwise.empty() ? all : elementwise);
      profile::CostModel d = fit ? fit->cost : profile::CostModel{};
      auto fc = fits.costs[side].find("FULLY_CONNECTED");
      if (fc != fits.costs[side].end() && fc->second.count(type))
        d.nsPerMac = fc->second[type].nsPerMac;
      fits.defaults[side][unsigned(type)] = d;
    }
    // Types not measured cost what the first measured one does (the file
    // must price all three; `operations` does not claim them).
    for (unsigned t = 0; t < profile::kNumDataTypes; ++t)
      if (!llvm::is_contained(run.types, profile::DataType(t)))
        fits.defaults[side][t] =
            fits.defaults[side][unsigned(run.types.front())];
  }
}

/// The profile's "operations"; the probes the device failed go to `log`.
std::string operationsJSON(const Run &run, llvm::raw_ostream &log) {
  // What the device runs: every measured type, but for the operations
  // whose probe it failed on some type (one entry each, with the types
  // left).
  auto typeList = [](const std::vector<profile::DataType> &types) {
    std::string list;
    for (profile::DataType type : types)
      list += std::string(list.empty() ? "" : ", ") + "\"" + typeName(type) +
              "\"";
    return "[" + list + "]";
  };
  std::string operations = "{\"*\": " + typeList(run.types);
  for (const std::string &op : run.operations) {
    std::vector<profile::DataType> runs;
    for (profile::DataType type : run.types) {
      auto failed = llvm::find_if(run.measurements, [&](const Measurement &m) {
        return m.operation == op && m.type == type && m.side == "nnapi" &&
               !m.failure.empty();
      });
      if (failed == run.measurements.end())
        runs.push_back(type);
      else
        log << "  " << op << " " << typeName(type)
            << ": the device did not run it: " << failed->failure << "\n";
    }
    if (runs.size() != run.types.size())
      operations += ", \"" + op + "\": " + typeList(runs);
  }
  operations += "}";
  return operations;
}

/// The profile's "measured" entries: the ops of --model, by signature, in
/// signature order ("" when there are none).
std::string measuredJSON(const Run &run, const Overheads &overheads,
                         llvm::raw_ostream &log) {
  std::map<std::string, std::pair<std::string, std::string>> units;
  for (const Measurement &m : run.measurements) {
    if (m.operation != kUnitRecord || !m.failure.empty())
      continue;
    std::string &slot = m.side == "host" ? units[m.signature].first
                                         : units[m.signature].second;
    slot = formatNumber(overheads.opAlone(m));
  }
  std::string measured;
  for (auto &[signature, times] : units) {
    std::string entry;
    if (!times.first.empty())
      entry += "\"host_us\": " + times.first;
    if (!times.second.empty())
      entry += std::string(entry.empty() ? "" : ", ") +
               "\"device_us\": " + times.second;
    measured += std::string(measured.empty() ? "" : ",\n") + "    " +
                jsonString(signature) + ": {" + entry + "}";
  }
  if (!units.empty())
    log << "measured " << units.size() << " ops of the given models\n";
  return measured;
}

/// The profile's "thread_scaling" from the records timed at N threads
/// (--scaling-threads), each paired with its one-thread twin: per side, the
/// parallel fraction that makes the sum of the N-thread medians that share
/// of the one-thread ones, over every operation and per operation. Float32
/// records only, where there are any: a side may run float16 on other
/// kernels (the host device's reference ones, serial), and a float32 model's
/// placement should not pay for them. "" without such records.
std::string scalingJSON(const Run &run, llvm::raw_ostream &log) {
  bool float32 = llvm::any_of(run.measurements, [](const Measurement &m) {
    return m.threads != 1 && m.type == profile::DataType::Float32;
  });
  unsigned threads = 0;
  // [operation ("" for all)][side nnapi/host][1 thread, N]
  std::map<std::string, std::array<std::array<double, 2>, 2>> sums;
  unsigned pairs = 0;
  for (const Measurement &n : run.measurements) {
    if (n.threads == 1 || !n.failure.empty() ||
        (float32 && n.type != profile::DataType::Float32))
      continue;
    auto one = llvm::find_if(run.measurements, [&](const Measurement &m) {
      return m.threads == 1 && m.failure.empty() &&
             m.operation == n.operation && m.type == n.type &&
             m.size == n.size && m.side == n.side && m.model == n.model &&
             m.signature == n.signature;
    });
    if (one == run.measurements.end())
      continue;
    threads = n.threads;
    unsigned side = n.side == "host";
    for (const std::string &key : {std::string(), n.operation}) {
      sums[key][side][0] += one->us;
      sums[key][side][1] += n.us;
    }
    ++pairs;
  }
  auto fraction = [&](const std::string &key, unsigned side) {
    const std::array<double, 2> &s = sums[key][side];
    return s[0] > 0 ? profile::ThreadScaling::fit(s[1] / s[0], threads) : 0.0;
  };
  if (!threads)
    return "";
  auto entry = [&](const std::string &key) {
    return "\"host\": " + formatNumber(fraction(key, 1)) +
           ", \"device\": " + formatNumber(fraction(key, 0));
  };
  log << "thread scaling at " << threads << " threads (" << pairs
      << " models" << (float32 ? ", float32" : "")
      << "): parallel fraction of the device " << formatNumber(fraction("", 0))
      << ", of the host code " << formatNumber(fraction("", 1)) << "\n";
  std::string ops;
  for (const auto &[op, s] : sums)
    if (!op.empty() && s[0][0] > 0 && s[1][0] > 0)
      ops += std::string(ops.empty() ? "" : ",\n") + "      " +
             jsonString(op) + ": {" + entry(op) + "}";
  return "{\"threads\": " + std::to_string(threads) + ", " + entry("") +
         (ops.empty() ? "" : ",\n    \"operations\": {\n" + ops + "\n    }") +
         "}";
}

} // namespace

std::string fitProfile(const Run &all, const std::string &name,
                       llvm::raw_ostream &log, std::string &error) {
  // Costs are one thread's; the records at N threads only scale them.
  Run run = all;
  llvm::erase_if(run.measurements,
                 [](const Measurement &m) { return m.threads != 1; });
  std::string scaling = scalingJSON(all, log);
  Overheads overheads;
  Boundary &boundary = overheads.boundary;
  if (!boundaryOf(run, boundary, error))
    return "";
  log << "boundary: " << formatNumber(boundary.partitionUs)
      << " us per partition call, transfers "
      << formatNumber(boundary.transferFixedUs) << " us + "
      << formatNumber(boundary.transferNsPerByte) << " ns/byte\n";
  // Every one-op host model pays one call of the compiled code, which a
  // whole model pays once: not a cost of the op (0 in samples without it).
  double &hostCallUs = overheads.hostCallUs;
  for (const Measurement &m : run.measurements)
    if (m.operation == "boundary" && m.model == kHostCallRecord &&
        m.failure.empty())
      hostCallUs = m.us;
  log << "host code call: " << formatNumber(hostCallUs) << " us\n";
  Fits fits;
  fitCosts(run, overheads, fits, log);
  std::string operations = operationsJSON(run, log);
  std::string measured = measuredJSON(run, overheads, log);
  std::string json =
      "{\n  \"format\": \"nnapi-mlir-device-profile-1\",\n  \"name\": " +
      jsonString(name) + ",\n  \"description\": " +
      jsonString("Measured by nnapi-profile-device on " + run.date +
                 ": device '" + run.device + "' (" + run.version +
                 ") and the host code on " + run.cpu + ", " +
                 std::to_string(run.sizes) + " sizes per operation.") +
      ",\n  \"feature_level\": " + std::to_string(run.featureLevel) +
      ",\n  \"device_type\": " + jsonString(run.deviceType) +
      ",\n  \"operations\": " + operations + ",\n  \"device_cost\": " +
      tableJSON(fits.defaults[0], fits.costs[0], run.operations) +
      ",\n  \"host_cost\": " +
      tableJSON(fits.defaults[1], fits.costs[1], run.operations) +
      ",\n  \"transfer\": {\"fixed_us\": " +
      formatNumber(boundary.transferFixedUs) +
      ", \"ns_per_byte\": " + formatNumber(boundary.transferNsPerByte) +
      "},\n  \"partition_overhead_us\": " + formatNumber(boundary.partitionUs) +
      (measured.empty() ? "" : ",\n  \"measured\": {\n" + measured + "\n  }") +
      (scaling.empty() ? "" : ",\n  \"thread_scaling\": " + scaling) +
      "\n}\n";
  profile::DeviceProfile check;
  if (!profile::parseDeviceProfile(json, check, error)) {
    error = "the profile would not load: " + error;
    return "";
  }
  return json;
}

} // namespace nnapi_mlir::profiling
