//===- Checks.cpp - Partitions checked against their host copies ----------===//
//
// The verify and validate options (docs/validation.md): a checked execution
// runs the device into the runtime's buffers (runForCheck), the compiled
// model runs the host copy and calls nnapi_rt_verify, which compares the two
// (Verify.h), narrows a mismatch down to operations, records quirks and
// moves the partition off a lying device. The quirks record in force also
// keeps devices from partitions they compute wrong (quirkRefusal).
//
//===----------------------------------------------------------------------===//

#include "State.h"

#include "nnapi-mlir/Support/Sha256.h"

#include <cstdio>

using namespace nnapi_mlir;
using namespace nnapi_mlir::runtime;

namespace {

/// "partition sha256:<hex>" of a blob (Quirks.h).
std::string partitionSignature(const uint8_t *bytes, int64_t size) {
  return std::string(quirks::kPartitionPrefix) +
         Sha256::hex(Sha256().update(bytes, size_t(size)).finish());
}

} // namespace

/// Why `device` must not run `p` in this process: it was excluded, or the
/// quirks record says it computes one of its operations (or the whole
/// partition) wrong; "" if neither.
std::string nnapi_mlir::runtime::quirkRefusal(const State &s,
                                              const Partition &p,
                                              const DeviceInfo &device) {
  for (const auto &[name, why] : p.excluded)
    if (name == device.name)
      return "device '" + name + "' " + why;
  // validate checks every device, known quirks or not.
  if (s.quirks.devices.empty() || s.options.validate)
    return "";
  bool partitionQuirks = false;
  for (const quirks::DeviceQuirks &d : s.quirks.devices)
    if (d.name == device.name && d.version == device.version)
      for (const quirks::Quirk &q : d.quirks)
        partitionQuirks |= q.signature.rfind(quirks::kPartitionPrefix, 0) == 0;
  auto refuse = [&](const std::string &what, const quirks::Quirk &q) {
    return "device '" + device.name + "' computes " + what +
           " wrong (quirks record " + s.quirksFile +
           (q.error.empty() ? "" : ": " + q.error) + ")";
  };
  for (size_t i = 0; i < p.model.operations.size(); ++i) {
    const blob::Operation &op = p.model.operations[i];
    if (const quirks::Quirk *q =
            s.quirks.find(device.name, device.version,
                          blob::operationSignature(p.model, op))) {
      const char *name = nnapi_mlir::operationName(op.opcode);
      return refuse("operation " + std::to_string(i) + " (" +
                        (name ? name : "?") + ")",
                    *q);
    }
  }
  if (partitionQuirks && p.buildBytes)
    if (const quirks::Quirk *q =
            s.quirks.find(device.name, device.version,
                          partitionSignature(p.buildBytes, p.size)))
      return refuse("this partition", *q);
  return "";
}

namespace {

/// A partition that ran on its device into the runtime's buffers and waits
/// for the caller to run its host copy (nnapi_rt_execute_checked returned
/// NNAPI_RT_VERIFY; nnapi_rt_verify compares).
struct PendingCheck {
  const uint8_t *blob = nullptr;
  std::shared_ptr<Partition> partition;
  std::vector<std::vector<uint8_t>> device; ///< Its outputs, caller's view.
  std::vector<const void *> inputs;
  int64_t deviceNs = 0, hostStart = 0;
};
thread_local std::vector<PendingCheck> pendingChecks;
/// Output buffers of finished checks, reused by the next (at most
/// kMaxSpareBuffers: enough for every output of a model's partitions).
thread_local std::vector<std::vector<uint8_t>> spareBuffers;
constexpr size_t kMaxSpareBuffers = 64;

/// A buffer of `bytes` bytes, from the spares when one fits.
std::vector<uint8_t> checkBuffer(uint64_t bytes) {
  for (size_t i = 0; i < spareBuffers.size(); ++i)
    if (spareBuffers[i].size() == std::max<uint64_t>(bytes, 1)) {
      std::vector<uint8_t> b = std::move(spareBuffers[i]);
      spareBuffers.erase(spareBuffers.begin() + long(i));
      return b;
    }
  return std::vector<uint8_t>(std::max<uint64_t>(bytes, 1));
}

} // namespace

/// Stops `p` using its device in this process (`why` follows the device's
/// name); the next call builds it for another device or its host copy.
/// Caller holds the mutex.
void nnapi_mlir::runtime::leaveDevice(State &s, Partition &p,
                                      const std::string &why) {
  if (p.device.empty() || p.retired)
    return;
  p.excluded.emplace_back(p.device, why);
  p.retired = true;
  warn(s, "partition " + (p.name.empty() ? "(unnamed)" : "'" + p.name + "'") +
              " leaves device '" + p.device + "': it " + why);
}

namespace {

/// The device called `name`, or null.
const DeviceInfo *findDevice(const State &s, const std::string &name) {
  for (const DeviceInfo &d : s.devices)
    if (d.name == name)
      return &d;
  return nullptr;
}

/// Records a quirk in memory and, when there is a record file, in it
/// (failures to write are reported on stderr: the run goes on). Caller holds
/// the mutex.
void recordQuirk(State &s, const DeviceInfo &device, quirks::Quirk quirk) {
  if (!s.quirks.add(device.name, device.version, quirk) || s.quirksFile.empty())
    return;
  std::string error;
  if (!quirks::append(s.quirksFile, device.name, device.version, quirk,
                      error))
    warn(s, error);
}

/// Compares a pending check's device outputs with the host copy's in
/// `outputs`, and acts on a mismatch.
void finishCheck(PendingCheck &pending, int64_t numOutputs,
                 void *const *outputs) {
  State &s = state();
  Partition &p = *pending.partition;
  int64_t hostNs = steadyNowNs() - pending.hostStart;
  const blob::Model &m = p.model;
  Check worst;
  size_t worstOutput = 0;
  bool pass = true, first = true;
  for (size_t i = 0; i < m.outputs.size() && int64_t(i) < numOutputs; ++i) {
    Check c = compareOperand(m, m.outputs[i], pending.device[i].data(),
                             outputs[i], /*callerView=*/true);
    pass &= c.pass;
    if (first || worse(c, worst)) {
      worst = c;
      worstOutput = i;
      first = false;
    }
  }
  bool narrow = false;
  {
    std::lock_guard<std::mutex> lock(p.checksMutex);
    Partition::Checks &c = p.checks;
    ++c.count;
    c.deviceNs += uint64_t(pending.deviceNs);
    c.hostNs += uint64_t(std::max<int64_t>(hostNs, 0));
    c.device = p.device;
    if (c.count == 1 || worse(worst, c.worst))
      c.worst = worst;
    if (!pass) {
      ++c.mismatches;
      if (c.firstMismatch.empty())
        c.firstMismatch =
            "output " + std::to_string(worstOutput) + ": " + worst.describe();
      narrow = !c.narrowed;
      c.narrowed = true;
    }
  }
  if (pass)
    return;
  std::lock_guard<std::mutex> lock(s.mutex);
  const DeviceInfo *suspect = findDevice(s, p.device);
  if (narrow && suspect) {
    // Every other device may serve as the reference; NNAPI's own CPU
    // implementation first.
    std::vector<const DeviceInfo *> references;
    if (const DeviceInfo *r = findDevice(s, kReferenceDeviceName);
        r && r != suspect)
      references.push_back(r);
    for (const DeviceInfo &d : s.devices)
      if (&d != suspect && d.name != kReferenceDeviceName)
        references.push_back(&d);
    std::vector<const void *> hostOutputs(outputs, outputs + numOutputs);
    Narrowing found = narrowDown(p.library->functions(), m, *suspect,
                                 references, pending.inputs, hostOutputs);
    const char *by = s.options.validate ? "validate" : "verify";
    for (const WrongOperation &w : found.wrong)
      recordQuirk(s, *suspect, {w.signature, w.check.describe(), by});
    if (found.wrong.empty())
      recordQuirk(
          s, *suspect,
          {partitionSignature(pending.blob, p.size),
           "output " + std::to_string(worstOutput) + ": " + worst.describe(),
           by});
    std::lock_guard<std::mutex> checksLock(p.checksMutex);
    p.checks.narrowing = std::move(found);
  }
  if (!s.options.validate)
    leaveDevice(s, p,
                "computed wrong values (output " + std::to_string(worstOutput) +
                    ": " + worst.describe() + ")");
}

} // namespace

int32_t nnapi_mlir::runtime::runForCheck(State &s,
                                         const std::shared_ptr<Partition> &p,
                                         const uint8_t *blob, int64_t numInputs,
                                         void *const *inputs,
                                         int64_t numOutputs) {
  // Into our buffers; the caller runs the host copy into its own.
  PendingCheck pending;
  pending.blob = blob;
  pending.partition = p;
  std::vector<void *> into;
  for (uint64_t bytes : p->outputBytes) {
    pending.device.push_back(checkBuffer(bytes));
    into.push_back(pending.device.back().data());
  }
  pending.inputs.assign(inputs, inputs + numInputs);
  int64_t start = steadyNowNs();
  int32_t status = runPartition(*p, numInputs, inputs, numOutputs, into.data());
  pending.hostStart = steadyNowNs();
  pending.deviceNs = pending.hostStart - start;
  if (status != NNAPI_RT_OK)
    return status;
  ++p->executions;
  ++s.nnapiExecutions;
  p->failuresInRow = 0;
  // A check of this blob left unanswered before (a caller that never
  // called nnapi_rt_verify) can no longer be answered.
  pendingChecks.erase(
      std::remove_if(pendingChecks.begin(), pendingChecks.end(),
                     [&](const PendingCheck &c) { return c.blob == blob; }),
      pendingChecks.end());
  pendingChecks.push_back(std::move(pending));
  return failWith(NNAPI_RT_VERIFY,
                  "ran on NNAPI; the host copy runs to compare");
}

extern "C" {

void nnapi_rt_verify(const uint8_t *blobBytes, int64_t blobSize,
                     int64_t numOutputs, void *const *outputs) {
  (void)blobSize;
  guarded(__func__, [&]() -> int32_t {
    for (size_t i = pendingChecks.size(); i-- > 0;)
      if (pendingChecks[i].blob == blobBytes) {
        PendingCheck pending = std::move(pendingChecks[i]);
        pendingChecks.erase(pendingChecks.begin() + long(i));
        if (outputs && numOutputs >= 0)
          finishCheck(pending, numOutputs, outputs);
        for (std::vector<uint8_t> &b : pending.device)
          if (spareBuffers.size() < kMaxSpareBuffers)
            spareBuffers.push_back(std::move(b));
        break;
      }
    return NNAPI_RT_OK;
  });
}

int32_t nnapi_rt_get_check_info(int32_t index, nnapi_rt_check_info *info) {
  return withPartition(__func__, index, info, [&](Partition &p) -> int32_t {
    std::lock_guard<std::mutex> checksLock(p.checksMutex);
    const Partition::Checks &c = p.checks;
    *info = nnapi_rt_check_info();
    copyField(info->device, c.device);
    info->checks = c.count;
    info->mismatches = c.mismatches;
    info->maxError = c.worst.error;
    info->tolerance = c.worst.tolerance;
    copyField(info->unit, c.count ? c.worst.unit : "");
    info->deviceNs = c.deviceNs;
    info->hostNs = c.hostNs;
    copyField(info->firstMismatch, c.firstMismatch);
    copyField(info->reference, c.narrowing.reference);
    copyField(info->narrowNote, c.narrowing.note);
    info->wrongOperations = int32_t(c.narrowing.wrong.size());
    std::string disabled;
    for (const auto &[name, why] : p.excluded)
      disabled += (disabled.empty() ? "" : "; ") + ("'" + name + "' " + why);
    copyField(info->disabled, disabled);
    return NNAPI_RT_OK;
  });
}

int32_t nnapi_rt_get_wrong_operation(int32_t index, int32_t k,
                                     nnapi_rt_wrong_operation *info) {
  return withPartition(__func__, index, info, [&](Partition &p) -> int32_t {
    std::lock_guard<std::mutex> checksLock(p.checksMutex);
    const std::vector<WrongOperation> &wrong = p.checks.narrowing.wrong;
    if (k < 0 || size_t(k) >= wrong.size())
      return failWith(NNAPI_RT_INVALID_ARGUMENT,
                      "wrong operation index " + std::to_string(k) +
                          " out of range (" + std::to_string(wrong.size()) +
                          ")");
    const WrongOperation &w = wrong[size_t(k)];
    *info = nnapi_rt_wrong_operation();
    info->operation = int32_t(w.index);
    copyField(info->signature, w.signature);
    info->error = w.check.error;
    info->tolerance = w.check.tolerance;
    copyField(info->unit, w.check.unit);
    copyField(info->description, w.check.describe());
    return NNAPI_RT_OK;
  });
}

} // extern "C"
