//===- Target.cpp - The machine the host code is compiled for -------------===//

#include "nnapi-mlir/Codegen/Target.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/SubtargetFeature.h"
#include "llvm/TargetParser/Triple.h"

#include <mutex>

using namespace llvm;

namespace mlir::nnapi {

StringRef genericCPU(const Triple &triple) {
  if (triple.isX86())
    return triple.isArch64Bit() ? "x86-64" : "i686";
  return "generic";
}

Expected<HostTarget> createHostTarget(StringRef tripleName, StringRef cpu,
                                      StringRef features) {
  // LLVM's target registry takes no lock: register once, even when
  // embedders (the Python package) compile on several threads.
  static std::once_flag registered;
  std::call_once(registered, [] {
    InitializeAllTargetInfos();
    InitializeAllTargets();
    InitializeAllTargetMCs();
    InitializeAllAsmPrinters();
  });
  HostTarget t;
  std::string host = sys::getDefaultTargetTriple();
  t.triple = tripleName.empty() ? host : Triple::normalize(tripleName);
  std::string error;
  const Target *target = TargetRegistry::lookupTarget(t.triple, error);
  if (!target)
    return createStringError(inconvertibleErrorCode(),
                             "no target for '" + t.triple + "': " + error);
  // No CPU means this machine's for code that runs here, and the baseline
  // CPU of the target's architecture for code that runs elsewhere (another
  // architecture, OS or environment: an x86-64 Android device is not this
  // machine), which every device of it runs (AArch64: ARMv8-A with NEON).
  Triple wanted(t.triple), self(host);
  bool foreign = wanted.getArch() != self.getArch() ||
                 wanted.getOS() != self.getOS() ||
                 wanted.getEnvironment() != self.getEnvironment();
  if (cpu == "native" && foreign)
    return createStringError(
        inconvertibleErrorCode(),
        "--mcpu=native names this machine's CPU, which does not run '" +
            t.triple + "' code; leave --mcpu out for its generic CPU (" +
            genericCPU(wanted).str() + ") or name one");
  bool native = cpu == "native" || (cpu.empty() && !foreign);
  if (native)
    t.cpu = sys::getHostCPUName().str();
  else
    t.cpu = cpu.empty() ? genericCPU(wanted).str() : cpu.str();
  SubtargetFeatures all;
  if (native) {
    StringMap<bool> hostFeatures = sys::getHostCPUFeatures();
    for (const auto &f : hostFeatures)
      all.AddFeature(f.getKey(), f.getValue());
  }
  SmallVector<StringRef> extra;
  features.split(extra, ',', -1, /*KeepEmpty=*/false);
  for (StringRef f : extra)
    all.AddFeature(f.trim());
  t.features = all.getString();

  // Checked on a generic subtarget first: LLVM warns on stderr when asked
  // for one with an unknown CPU.
  std::unique_ptr<MCSubtargetInfo> generic(
      target->createMCSubtargetInfo(t.triple, "", ""));
  if (!generic || !generic->isCPUStringValid(t.cpu))
    return createStringError(inconvertibleErrorCode(),
                             "unknown CPU '" + t.cpu + "' for '" + t.triple +
                                 "'");
  for (StringRef f : extra) {
    StringRef name = f.trim().drop_while([](char c) { return c == '+' || c == '-'; });
    if (!f.trim().starts_with("+") && !f.trim().starts_with("-"))
      return createStringError(inconvertibleErrorCode(),
                               "target feature '" + f.trim().str() +
                                   "' must start with '+' or '-'");
    if (!llvm::any_of(generic->getAllProcessorFeatures(),
                      [&](const SubtargetFeatureKV &kv) {
                        return name == kv.Key;
                      }))
      return createStringError(inconvertibleErrorCode(),
                               "unknown target feature '" + name.str() +
                                   "' for '" + t.triple + "'");
  }
  std::unique_ptr<MCSubtargetInfo> sti(
      target->createMCSubtargetInfo(t.triple, t.cpu, t.features));
  TargetOptions options;
  options.AllowFPOpFusion = FPOpFusion::Fast; // FMA contraction, nothing else
  t.machine.reset(target->createTargetMachine(
      t.triple, t.cpu, t.features, options, Reloc::PIC_, std::nullopt,
      CodeGenOptLevel::Aggressive));
  if (!t.machine)
    return createStringError(inconvertibleErrorCode(),
                             "cannot create a target machine for '" + t.triple +
                                 "'");

  Triple triple(t.triple);
  if (triple.isX86()) {
    if (sti->checkFeatures("+avx512f")) {
      // CPUs tuned to prefer 256-bit vectors (which LLVM would split 512-bit
      // ones for) still have 32 registers.
      t.vectorBits = sti->checkFeatures("+prefer-256-bit") ? 256 : 512;
      t.vectorRegisters = 32;
    } else if (sti->checkFeatures("+avx")) {
      t.vectorBits = 256;
      t.vectorRegisters = 16;
    } else {
      t.vectorBits = 128;
      t.vectorRegisters = 16;
    }
    if (t.vectorBits == 512 && sti->checkFeatures("+avx512vnni"))
      t.int8Dot = "avx512-vnni";
    else if (t.vectorBits >= 256 &&
             (sti->checkFeatures("+avxvnni") ||
              sti->checkFeatures("+avx512vnni,+avx512vl")))
      t.int8Dot = "avx-vnni";
    // Without VNNI: vpmaddwd, two 16-bit products per lane, on 8-bit
    // values sign-extended (exact, unlike vpmaddubsw's saturating sums).
    else if (t.vectorBits == 512 && sti->checkFeatures("+avx512bw"))
      t.int8Dot = "avx512-madd";
    else if (t.vectorBits == 256 && sti->checkFeatures("+avx2"))
      t.int8Dot = "avx2-madd";
  } else if (triple.isAArch64()) {
    t.vectorBits = 128; // NEON (SVE is not used)
    t.vectorRegisters = 32;
    if (sti->checkFeatures("+i8mm"))
      t.int8Dot = "i8mm";
    else if (sti->checkFeatures("+dotprod"))
      t.int8Dot = "dotprod";
  }
  return std::move(t);
}

} // namespace mlir::nnapi
