//===- Backend.cpp - LLVM's half of a compilation -------------------------===//

#include "Backend.h"

#include "mlir/Support/Timing.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Analysis/CGSCCPassManager.h"
#include "llvm/Analysis/LoopAnalysisManager.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/Instrumentation/ThreadSanitizer.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#include <numeric>
#include <optional>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

using namespace llvm;

namespace {
/// Instructions of function bodies per part, and the most parts.
constexpr unsigned kPartInstructions = 6000, kMaxParts = 4;
/// Constant arrays up to this size stay visible to the optimizer (tables it
/// may fold); larger ones are data (detachData).
constexpr uint64_t kFoldableBytes = 64;
} // namespace

static Error backendError(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), message);
}

/// Whether `loop` only moves data: stores of constants or of values it
/// loads as they are, and memset/memcpy/memmove; nothing else with an
/// effect (a padding border's or an accumulator's fill, the row copies of a
/// concatenation or a padded buffer's interior).
static bool isMoveLoop(const Loop &loop) {
  bool stores = false;
  for (const BasicBlock *block : loop.blocks())
    for (const Instruction &inst : *block) {
      if (auto *store = dyn_cast<StoreInst>(&inst)) {
        const Value *value = store->getValueOperand();
        if (store->isVolatile() ||
            !(isa<Constant>(value) || isa<LoadInst>(value)))
          return false;
        stores = true;
      } else if (auto *load = dyn_cast<LoadInst>(&inst)) {
        if (load->isVolatile() ||
            !llvm::all_of(load->users(),
                          [](const User *u) { return isa<StoreInst>(u); }))
          return false;
      } else if (auto *move = dyn_cast<MemIntrinsic>(&inst)) {
        if (move->isVolatile())
          return false;
        stores = true;
      } else if (inst.mayReadOrWriteMemory() || isa<CallBase>(inst)) {
        return false;
      }
    }
  return stores;
}

/// Marks loops that only move data as not to be unrolled. Moving memory is
/// bound by its bandwidth, so unrolling buys nothing, and LLVM's full
/// unroller turned a padded buffer's border (58 rows of 144 channels) into
/// one block of a thousand stores on which the instruction schedulers took
/// 2.5 s of MobileNetV2's 4 s compile; copies of rows, each memcpy expanded
/// into a dozen vector moves by the code generator, likewise.
static void keepMoveLoopsRolled(Module &module) {
  for (Function &function : module) {
    if (function.isDeclaration())
      continue;
    DominatorTree dominators(function);
    LoopInfo loops(dominators);
    for (Loop *loop : loops.getLoopsInPreorder())
      if (isMoveLoop(*loop))
        loop->setLoopAlreadyUnrolled();
  }
}

/// LLVM's module pipeline at -O`level` (0: none), as MLIR's ExecutionEngine
/// builds it, with data-moving loops kept rolled; then, when the module's
/// functions ask for it (sanitize_thread, CompileOutput::threadSanitizer),
/// LLVM's ThreadSanitizer instrumentation, after the optimizer as clang
/// places it.
static void runPipeline(Module &module, TargetMachine &machine,
                        unsigned level) {
  bool tsan = llvm::any_of(module, [](const Function &f) {
    return f.hasFnAttribute(Attribute::SanitizeThread);
  });
  if (level == 0 && !tsan)
    return;
  if (level > 0)
    keepMoveLoopsRolled(module);
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
  const OptimizationLevel levels[] = {OptimizationLevel::O1,
                                      OptimizationLevel::O2,
                                      OptimizationLevel::O3};
  ModulePassManager pipeline =
      level == 0 ? ModulePassManager()
                 : builder.buildPerModuleDefaultPipeline(
                       levels[std::min(level, 3u) - 1]);
  if (tsan) {
    pipeline.addPass(ModuleThreadSanitizerPass());
    pipeline.addPass(createModuleToFunctionPassAdaptor(ThreadSanitizerPass()));
  }
  pipeline.run(module, modules);
}

namespace {
/// The constant data taken out of a module while its code is optimized.
struct DetachedData {
  struct Global {
    std::string name;
    Constant *init;
    GlobalValue::LinkageTypes linkage;
    GlobalValue::VisibilityTypes visibility;
  };
  std::vector<Global> globals;
};
} // namespace

/// Makes every constant array of more than kFoldableBytes a hidden external
/// declaration, so that the optimizer sees the code without the data. The
/// weights are data: the code is not to be specialized on their values, and
/// without them in sight the optimizer cannot spend time trying (on the
/// benchmark models it made no measurable difference either way).
static DetachedData detachData(Module &module) {
  DetachedData detached;
  const DataLayout &layout = module.getDataLayout();
  for (GlobalVariable &global : module.globals()) {
    if (!global.isConstant() || !global.hasInitializer() ||
        !isa<ConstantDataArray>(global.getInitializer()) ||
        layout.getTypeAllocSize(global.getValueType()) <= kFoldableBytes)
      continue;
    if (!global.hasName())
      global.setName("__nnapi_data");
    detached.globals.push_back({global.getName().str(),
                                global.getInitializer(), global.getLinkage(),
                                global.getVisibility()});
    global.setInitializer(nullptr);
    global.setLinkage(GlobalValue::ExternalLinkage);
    global.setVisibility(GlobalValue::HiddenVisibility);
    global.setDSOLocal(true);
  }
  return detached;
}

/// Gives back what detachData took, to the globals the optimizer kept.
static void reattachData(Module &module, const DetachedData &detached) {
  for (const DetachedData::Global &entry : detached.globals) {
    GlobalVariable *global = module.getNamedGlobal(entry.name);
    if (!global)
      continue;
    global->setInitializer(entry.init);
    global->setLinkage(entry.linkage);
    global->setVisibility(entry.visibility);
  }
}

/// A module of `detached`'s globals alone, as hidden definitions that the
/// parts' declarations resolve to at link time.
static std::unique_ptr<Module> dataModule(const Module &code,
                                          const DetachedData &detached) {
  auto data = std::make_unique<Module>(code.getName().str() + ".data",
                                       code.getContext());
  data->setDataLayout(code.getDataLayout());
  data->setTargetTriple(code.getTargetTriple());
  for (const DetachedData::Global &entry : detached.globals) {
    const GlobalVariable *declared = code.getNamedGlobal(entry.name);
    auto *global = new GlobalVariable(
        *data, entry.init->getType(), /*isConstant=*/true,
        GlobalValue::ExternalLinkage, entry.init, entry.name);
    if (declared) {
      global->setAlignment(declared->getAlign());
      global->setSection(declared->getSection());
    }
    global->setVisibility(GlobalValue::HiddenVisibility);
    global->setDSOLocal(true);
  }
  return data;
}

void mlir::nnapi::optimizeModule(Module &module, TargetMachine &machine,
                                 unsigned level) {
  DetachedData data = detachData(module);
  runPipeline(module, machine, level);
  reattachData(module, data);
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
  // Functions that call one another directly stay together, so that the
  // inliner sees them as it would in one module (the entry point and the
  // host copy it calls); the parallel tasks, called through pointers, and
  // the functions nothing may inline (nnapi-outline-layers' layers) are
  // free to go anywhere.
  EquivalenceClasses<const Function *> together;
  for (Function &function : module) {
    if (function.isDeclaration())
      continue;
    together.insert(&function);
    for (const BasicBlock &block : function)
      for (const Instruction &inst : block)
        if (auto *call = dyn_cast<CallBase>(&inst))
          if (const Function *callee = call->getCalledFunction();
              callee && !callee->isDeclaration() &&
              !callee->hasFnAttribute(Attribute::NoInline))
            together.unionSets(&function, callee);
  }
  // Clusters in the module's order of their first function, by size.
  SmallVector<std::pair<uint64_t, const Function *>> clusters;
  DenseMap<const Function *, size_t> clusterOf;
  for (Function &function : module) {
    if (function.isDeclaration())
      continue;
    const Function *leader = together.getLeaderValue(&function);
    auto [it, inserted] = clusterOf.try_emplace(leader, clusters.size());
    if (inserted)
      clusters.push_back({0, leader});
    clusters[it->second].first += countInstructions(function);
  }
  // The largest first to the least loaded part; stable, so ties go by the
  // module's order: the same parts each run.
  SmallVector<size_t> order(clusters.size());
  std::iota(order.begin(), order.end(), 0);
  llvm::stable_sort(order, [&](size_t a, size_t b) {
    return clusters[a].first > clusters[b].first;
  });
  SmallVector<uint64_t> load(parts, 0);
  SmallVector<unsigned> partOfCluster(clusters.size());
  for (size_t c : order) {
    unsigned least = std::min_element(load.begin(), load.end()) - load.begin();
    partOfCluster[c] = least;
    load[least] += clusters[c].first;
  }
  for (Function &function : module)
    if (!function.isDeclaration())
      part[&function] =
          partOfCluster[clusterOf[together.getLeaderValue(&function)]];
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
  SmallString<0> bitcode;
  std::optional<Error> error;
};
} // namespace

/// Gives the pages of freed heap memory back to the system. The MLIR
/// module's and the whole LLVM module's memory is free once the parts are
/// bitcode, but the parts are compiled on other threads, whose allocator
/// arenas cannot reuse it: kept, it sat under their peak (the text
/// detector's compile peaked at 172 MB, 155 MB with this).
static void releaseFreeMemory() {
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}

/// The timing stage of the optimizer at `level`: "LLVM -O3".
static std::string optimizerStage(unsigned level) {
  return "LLVM -O" + std::to_string(level);
}

/// A target machine like `machine`, for one thread: target machines are not
/// shared between threads.
static std::unique_ptr<TargetMachine>
cloneMachine(const TargetMachine &machine) {
  return std::unique_ptr<TargetMachine>(
      machine.getTarget().createTargetMachine(
          machine.getTargetTriple().str(), machine.getTargetCPU(),
          machine.getTargetFeatureString(), machine.Options,
          machine.getRelocationModel(), machine.getCodeModel(),
          machine.getOptLevel()));
}

/// Writes `module`'s object code to `os`.
static Error emitObject(Module &module, TargetMachine &machine,
                        raw_pwrite_stream &os, mlir::TimingScope *timing) {
  std::optional<mlir::TimingScope> timer;
  if (timing)
    timer.emplace(timing->nest("LLVM code generation"));
  legacy::PassManager codegen;
  if (machine.addPassesToEmitFile(codegen, os, nullptr,
                                  CodeGenFileType::ObjectFile))
    return backendError("the target '" + machine.getTargetTriple().str() +
                        "' cannot emit object files");
  codegen.run(module);
  return Error::success();
}

Error mlir::nnapi::compileToObject(Module &module, const HostTarget &target,
                                   unsigned level, raw_pwrite_stream &os,
                                   TimingScope *timing) {
  {
    std::optional<TimingScope> timer;
    if (timing)
      timer.emplace(timing->nest(optimizerStage(level)));
    optimizeModule(module, *target.machine, level);
  }
  return emitObject(module, *target.machine, os, timing);
}

Error mlir::nnapi::compileToObjects(std::unique_ptr<Module> module,
                                    const HostTarget &target, unsigned level,
                                    ArrayRef<raw_pwrite_stream *> objects,
                                    unsigned threads,
                                    ThreadPoolInterface *shared,
                                    TimingScope *timing) {
  // The data in one object, and the code in the others, each part as
  // bitcode compiled in a context of its own, which lets them run at once.
  unsigned parts = objects.size() - 1;
  assert(parts >= 1 && "an object for the data and at least one for code");
  std::vector<Part> work(parts);
  std::unique_ptr<Module> data;
  {
    std::optional<TimingScope> timer;
    if (timing)
      timer.emplace(timing->nest("splitting into parts"));
    DetachedData detached = detachData(*module);
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
    // The data stays in this context (no copy through bitcode): only its
    // task uses the context from here on.
    data = dataModule(*module, detached);
    module.reset();
  }
  releaseFreeMemory();

  // The data first (it is quick), then the code.
  auto emitData = [&]() -> Error {
    std::unique_ptr<TargetMachine> machine = cloneMachine(*target.machine);
    if (!machine)
      return backendError("cannot create a target machine for '" +
                          target.triple + "'");
    return emitObject(*data, *machine, *objects[parts], timing);
  };
  auto compilePart = [&](unsigned p) -> Error {
    LLVMContext context;
    Expected<std::unique_ptr<Module>> parsed = parseBitcodeFile(
        MemoryBufferRef(work[p].bitcode.str(), "part"), context);
    if (!parsed)
      return parsed.takeError();
    SmallString<0>().swap(work[p].bitcode);
    std::unique_ptr<TargetMachine> machine = cloneMachine(*target.machine);
    if (!machine)
      return backendError("cannot create a target machine for '" +
                          target.triple + "'");
    {
      std::optional<TimingScope> timer;
      if (timing)
        timer.emplace(timing->nest(optimizerStage(level)));
      runPipeline(**parsed, *machine, level);
    }
    return emitObject(**parsed, *machine, *objects[p], timing);
  };
  std::optional<Error> dataError;
  auto submit = [&](ThreadPoolTaskGroup &group) {
    group.async([&] { dataError.emplace(emitData()); });
    for (unsigned p = 0; p < parts; ++p)
      group.async([&, p] { work[p].error.emplace(compilePart(p)); });
    group.wait();
  };
  if (!threads && shared) {
    // The caller's threads (MLIR's): the memory their allocator arenas hold
    // from the MLIR pipeline is reused, not held beside LLVM's.
    ThreadPoolTaskGroup group(*shared);
    submit(group);
  } else {
    // As many threads as asked (0: the CPUs this process may use), never
    // more than there are objects.
    ThreadPoolStrategy strategy = hardware_concurrency(threads);
    strategy.ThreadsRequested =
        std::min(strategy.compute_thread_count(), parts + 1);
    DefaultThreadPool pool(strategy);
    ThreadPoolTaskGroup group(pool);
    submit(group);
  }
  Error errors = std::move(*dataError);
  for (Part &piece : work)
    errors = joinErrors(std::move(errors), std::move(*piece.error));
  return errors;
}
