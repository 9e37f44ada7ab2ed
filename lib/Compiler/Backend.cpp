//===- Backend.cpp - LLVM's half of a compilation -------------------------===//

#include "Backend.h"

#include "mlir/Support/Timing.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Analysis/CGSCCPassManager.h"
#include "llvm/Analysis/LoopAnalysisManager.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#include <mutex>
#include <optional>

using namespace llvm;

namespace {
/// Instructions of function bodies per part, and the most parts.
constexpr unsigned kPartInstructions = 6000, kMaxParts = 4;
} // namespace

static Error backendError(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), message);
}

Error mlir::nnapi::optimizeModule(Module &module, TargetMachine &machine) {
  LoopAnalysisManager loops;
  FunctionAnalysisManager functions;
  CGSCCAnalysisManager sccs;
  ModuleAnalysisManager modules;
  PipelineTuningOptions tuning;
  tuning.LoopUnrolling = true;
  tuning.LoopVectorization = true;
  tuning.SLPVectorization = true;
  tuning.LoopInterleaving = true;
  PassBuilder builder(&machine, tuning);
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(sccs);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, sccs, modules);
  ModulePassManager pipeline =
      builder.buildPerModuleDefaultPipeline(OptimizationLevel::O3);
  pipeline.run(module, modules);
  return Error::success();
}

static unsigned countInstructions(const Function &function) {
  unsigned count = 0;
  for (const BasicBlock &block : function)
    count += block.size();
  return count;
}

unsigned mlir::nnapi::countParts(const Module &module) {
  uint64_t instructions = 0;
  for (const Function &function : module)
    instructions += countInstructions(function);
  return std::clamp<uint64_t>(
      (instructions + kPartInstructions - 1) / kPartInstructions, 1,
      kMaxParts);
}

/// The global values that use `value`: the functions of instructions and the
/// globals whose initializers refer to it, through constant expressions.
static void collectUsers(const Value *value,
                         SmallVectorImpl<const GlobalValue *> &users) {
  for (const User *user : value->users()) {
    if (auto *inst = dyn_cast<Instruction>(user))
      users.push_back(inst->getFunction());
    else if (auto *global = dyn_cast<GlobalValue>(user))
      users.push_back(global);
    else
      collectUsers(user, users);
  }
}

/// Assigns every defined function to a part, the largest first to the least
/// loaded part, and every global variable to the part of its first user.
/// Then makes the local symbols that another part uses hidden globals.
static DenseMap<const GlobalValue *, unsigned> assignParts(Module &module,
                                                           unsigned parts) {
  DenseMap<const GlobalValue *, unsigned> part;
  SmallVector<std::pair<unsigned, Function *>> bySize;
  for (Function &function : module)
    if (!function.isDeclaration())
      bySize.push_back({countInstructions(function), &function});
  // Stable, and ties broken by the module's order: the same parts each run.
  llvm::stable_sort(bySize, [](auto &a, auto &b) { return a.first > b.first; });
  SmallVector<uint64_t> load(parts, 0);
  for (auto &[size, function] : bySize) {
    unsigned least = std::min_element(load.begin(), load.end()) - load.begin();
    part[function] = least;
    load[least] += size;
  }
  for (GlobalVariable &global : module.globals()) {
    if (global.isDeclaration())
      continue;
    SmallVector<const GlobalValue *> users;
    collectUsers(&global, users);
    unsigned home = 0;
    for (const GlobalValue *user : users)
      if (auto it = part.find(user); it != part.end()) {
        home = it->second;
        break;
      }
    part[&global] = home;
  }
  // A local symbol used from another part must be linkable: a global, hidden
  // so that it stays inside the library.
  unsigned unnamed = 0;
  for (GlobalValue &value : module.global_values()) {
    if (value.isDeclaration() || !value.hasLocalLinkage())
      continue;
    SmallVector<const GlobalValue *> users;
    collectUsers(&value, users);
    auto home = part.find(&value);
    bool shared = llvm::any_of(users, [&](const GlobalValue *user) {
      auto it = part.find(user);
      return home == part.end() || it == part.end() ||
             it->second != home->second;
    });
    if (!shared)
      continue;
    if (!value.hasName())
      value.setName("__nnapi_part_local_" + Twine(unnamed++));
    value.setLinkage(GlobalValue::ExternalLinkage);
    value.setVisibility(GlobalValue::HiddenVisibility);
  }
  return part;
}

namespace {
/// One part's work: its bitcode in, its object out.
struct Part {
  SmallString<0> bitcode, object;
  std::optional<Error> error;
};
} // namespace

/// Optimizes and compiles one module for `target` into `object`.
static Error compilePart(Module &module, const mlir::nnapi::HostTarget &target,
                         TargetMachine &machine, SmallString<0> &object,
                         mlir::TimingScope *timing) {
  {
    std::optional<mlir::TimingScope> timer;
    if (timing)
      timer.emplace(timing->nest("LLVM -O3"));
    if (Error err = mlir::nnapi::optimizeModule(module, machine))
      return err;
  }
  std::optional<mlir::TimingScope> timer;
  if (timing)
    timer.emplace(timing->nest("LLVM code generation"));
  raw_svector_ostream os(object);
  legacy::PassManager codegen;
  if (machine.addPassesToEmitFile(codegen, os, nullptr,
                                  CodeGenFileType::ObjectFile))
    return backendError("the target '" + target.triple +
                        "' cannot emit object files");
  codegen.run(module);
  return Error::success();
}

Expected<std::vector<SmallString<0>>>
mlir::nnapi::compileToObjects(std::unique_ptr<Module> module,
                              const HostTarget &target, unsigned parts,
                              unsigned threads, TimingScope *timing) {
  std::vector<SmallString<0>> objects(1);
  if (parts <= 1) {
    if (Error err = compilePart(*module, target, *target.machine, objects[0],
                                timing))
      return std::move(err);
    return objects;
  }

  // Split, each part as bitcode: the parts are compiled in contexts of their
  // own, which is what lets them run at once.
  std::vector<Part> work(parts);
  {
    DenseMap<const GlobalValue *, unsigned> part = assignParts(*module, parts);
    for (unsigned p = 0; p < parts; ++p) {
      ValueToValueMapTy map;
      std::unique_ptr<Module> piece =
          CloneModule(*module, map, [&](const GlobalValue *value) {
            auto it = part.find(value);
            return it != part.end() && it->second == p;
          });
      raw_svector_ostream os(work[p].bitcode);
      WriteBitcodeToFile(*piece, os);
    }
    module.reset();
  }

  auto run = [&](Part &piece) -> Error {
    LLVMContext context;
    Expected<std::unique_ptr<Module>> parsed = parseBitcodeFile(
        MemoryBufferRef(piece.bitcode.str(), "part"), context);
    if (!parsed)
      return parsed.takeError();
    // A target machine is not shared between threads.
    const TargetMachine &shared = *target.machine;
    std::unique_ptr<TargetMachine> own(
        shared.getTarget().createTargetMachine(
            shared.getTargetTriple().str(), shared.getTargetCPU(),
            shared.getTargetFeatureString(), shared.Options,
            shared.getRelocationModel(), shared.getCodeModel(),
            shared.getOptLevel()));
    if (!own)
      return backendError("cannot create a target machine for '" +
                          target.triple + "'");
    return compilePart(**parsed, target, *own, piece.object, timing);
  };
  {
    DefaultThreadPool pool(
        hardware_concurrency(threads ? std::min(threads, parts) : parts));
    for (Part &piece : work)
      pool.async([&] { piece.error.emplace(run(piece)); });
    pool.wait();
  }
  objects.clear();
  Error errors = Error::success();
  for (Part &piece : work) {
    if (*piece.error)
      errors = joinErrors(std::move(errors), std::move(*piece.error));
    else
      consumeError(std::move(*piece.error));
    objects.push_back(std::move(piece.object));
  }
  if (errors)
    return std::move(errors);
  return objects;
}
