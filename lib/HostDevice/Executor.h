//===- Executor.h - Compiled form of a model on the host NNAPI device -----===//
//
// ANeuralNetworksCompilation_finish turns a validated HostModel into an
// Executor: one Step per operation (an XNNPACK operator with its weights
// packed; a blocked kernel, BlockedKernels.h, where XNNPACK has no operator;
// a reference kernel for the rest or when the user asked for the reference
// kernels), and a buffer plan that places every
// intermediate tensor in one arena, reusing memory between tensors whose
// lifetimes do not overlap. An execution then only binds the caller's
// buffers and runs the steps: no allocation, no zero-filling, no decoding.
//
// Float tensors are computed in float32; float16 model inputs, outputs and
// constants are converted at the boundary (NNAPI allows computing float16
// operations at higher precision). TENSOR_BOOL8 (a byte per element) and
// TENSOR_INT32 results use the same 4-byte-per-element slots.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_LIB_HOSTDEVICE_EXECUTOR_H
#define NNAPI_MLIR_LIB_HOSTDEVICE_EXECUTOR_H

#include "HostModel.h"

#include "nnapi-mlir/Support/BufferPlan.h"

#include <memory>
#include <mutex>
#include <string>
#include <vector>

typedef struct pthreadpool *pthreadpool_t;

namespace nnapi_mlir::host {

/// Bytes the kernels may read past the end of an input tensor (XNNPACK's
/// XNN_EXTRA_BYTES): the arena leaves them after every tensor.
constexpr size_t kKernelSlackBytes = 16;

/// Which kernels run the operations ($NNAPI_MLIR_HOST_KERNELS).
enum class KernelMode { XNNPACK, Reference };

/// Simulated failures for tests ($NNAPI_MLIR_HOST_FAULT): each makes the
/// corresponding XNNPACK call report an error, exercising the same error
/// path a real failure takes.
enum class Fault { None, Initialize, Create, Run };

/// A silent wrong result for tests ($NNAPI_MLIR_HOST_LIE, Lies.cpp): every
/// step of operation `opcode` alters its first output after computing it.
struct Lie {
  enum class Mode {
    Offset, ///< Every element off by `amount` quanta (8-bit types), or by
            ///< `amount` thousandths of its magnitude plus as much absolute
            ///< (floats).
    Sign,   ///< The element of largest magnitude negated (8-bit: reflected
            ///< about the zero point).
    NaN,    ///< The middle element NaN (8-bit: its top bit flipped).
    Stale,  ///< The previous run's output (the first run is right).
  };
  int32_t opcode = -1;
  Mode mode = Mode::Offset;
  int amount = 3;
};

/// Parses $NNAPI_MLIR_HOST_LIE, "DEVICE:OPERATION:MODE" entries separated by
/// commas (MODE: offset[=N], sign, nan, stale), keeping those of `device`;
/// false with `error` for a malformed entry.
bool parseLies(const std::string &spec, const std::string &device,
               std::vector<Lie> &lies, std::string &error);

struct ExecutorOptions {
  KernelMode kernels = KernelMode::XNNPACK;
  Fault fault = Fault::None;
  /// Operations whose results this compilation's device alters.
  std::vector<Lie> lies;
  pthreadpool_t threadpool = nullptr; ///< Null: run on the calling thread.
  /// Time every step and print the totals to stderr when the executor is
  /// destroyed ($NNAPI_MLIR_HOST_TRACE=1).
  bool trace = false;
};

/// Where the data of every operand lives during one execution (float32, or
/// the bytes of a bool or int32 tensor). Steps index it by operand number.
using Bindings = std::vector<float *>;

/// Bytes one element of a tensor of `type` takes in the executor's storage:
/// 4 for every float tensor (float16 is converted to float32 at the model's
/// boundary), else the type's own size (a byte per bool or 8-bit quantized
/// value, 4 per int32).
size_t storageElementBytes(int32_t type);

/// One operation, ready to run.
class Step {
public:
  virtual ~Step() = default;
  /// Runs on the bound buffers; returns an ANEURALNETWORKS_* code, with
  /// fail() called on error.
  virtual int run(const Bindings &buffers) = 0;
  /// "xnnpack", "blocked" or "reference", for statistics and tests.
  virtual const char *backend() const = 0;
};

class Executor {
public:
  /// Builds the steps and the buffer plan of a validated model. Returns
  /// ANEURALNETWORKS_NO_ERROR, or an error code with fail() called.
  static int create(const HostModel &model, const ExecutorOptions &options,
                    std::unique_ptr<Executor> &out);
  ~Executor();

  /// Runs the model on the caller's buffers (validated sizes). Executions of
  /// one compilation run one at a time; others wait.
  int run(const void *const *inputs, void *const *outputs);
  /// Runs the model for an operation of another model (IF's branch, WHILE's
  /// condition or body): inputs and outputs are that model's buffers, in
  /// the executor's storage (float32 for float tensors, a byte per bool,
  /// int32) and with the kernels' slack.
  int runNested(float *const *inputs, float *const *outputs);

  size_t arenaBytes() const { return arenaSize; }
  size_t stepCount() const { return steps.size(); }
  /// Number of steps that run on XNNPACK.
  size_t xnnpackStepCount() const;

private:
  Executor() = default;
  /// Runs the steps on `bindings` (inputs and outputs bound).
  int runSteps();
  /// Binds constants, plans the arena and the model's inputs and outputs;
  /// `views` receives, per operation, whether it is a RESHAPE whose output
  /// shares its input's storage (no step).
  int plan(const HostModel &model, std::vector<bool> &views);

  /// How a model input or output is bound at run time.
  struct Boundary {
    uint32_t operand;
    bool half;            ///< TENSOR_FLOAT16: converted through `staging`.
    size_t elements;
    size_t bytes;         ///< Of the caller's buffer when not `half`
                          ///< (4 per element, 1 for TENSOR_BOOL8).
    float *staging;       ///< Arena space used when the caller's buffer
                          ///< cannot be handed to the kernels directly.
  };

  std::vector<std::unique_ptr<Step>> steps;
  std::vector<Boundary> inputs, outputs;
  Bindings bindings;                       ///< Constants and arena preset.
  /// (operand, root): reshapes viewing a model input or output, bound per
  /// execution.
  std::vector<std::pair<uint32_t, uint32_t>> aliases;
  /// Copies of constants that cannot be used in place (float16, or too close
  /// to a page end for the kernels' read slack), with that slack.
  std::vector<std::vector<float>> constants;
  float *arena = nullptr;
  size_t arenaSize = 0;
  std::mutex mutex;

  /// Per-step timing ($NNAPI_MLIR_HOST_TRACE): the operation of each step
  /// and its accumulated time; empty when not tracing.
  struct StepTrace {
    int32_t opcode;
    uint64_t ns = 0;
  };
  std::vector<StepTrace> trace;
  uint64_t tracedRuns = 0;
  void printTrace() const;
};

/// Creates the XNNPACK step of operation `index`, or leaves `step` null if
/// XNNPACK has no operator for it (the caller then uses the reference
/// kernel). `bindings` holds the float32 values of constants. Returns an
/// error code if XNNPACK failed.
int createXnnpackStep(const HostModel &model, size_t index,
                      const Bindings &bindings, const ExecutorOptions &options,
                      std::unique_ptr<Step> &step);

/// The blocked kernel's step for operation `index` (TRANSPOSE, BATCH_MATMUL,
/// reductions over one block of dimensions), or null.
std::unique_ptr<Step> createBlockedStep(const HostModel &model, size_t index);

/// `step` (operation `index`), made to alter its output if one of `lies`
/// names its operation.
std::unique_ptr<Step> lieAbout(std::unique_ptr<Step> step,
                               const HostModel &model, size_t index,
                               const std::vector<Lie> &lies);
/// Creates the reference-kernel step of operation `index`.
std::unique_ptr<Step> createReferenceStep(const HostModel &model, size_t index);
/// The step of an operation on 8-bit quantized data (QuantizedSteps.cpp), or
/// null for any other operation.
std::unique_ptr<Step> createQuantizedStep(const HostModel &model,
                                          size_t index);

/// The step of IF or WHILE (operation `index`), with an executor for each
/// model it references. Returns an error code if one cannot be made.
int createControlFlowStep(const HostModel &model, size_t index,
                          const ExecutorOptions &options,
                          std::unique_ptr<Step> &step);

/// NNAPI's default loop timeout (ANEURALNETWORKS_DEFAULT... : 2 s), and the
/// longest an execution may ask for (15 s).
constexpr uint64_t kDefaultLoopTimeoutNs = 2000000000ull;
constexpr uint64_t kMaxLoopTimeoutNs = 15000000000ull;
/// The loop timeout of the WHILE operations this thread runs next (the
/// execution's, set before it runs).
void setLoopTimeoutForThisThread(uint64_t ns);

/// Initializes XNNPACK once per process; an error code if it fails.
int initializeXnnpack(const ExecutorOptions &options);

} // namespace nnapi_mlir::host

#endif // NNAPI_MLIR_LIB_HOSTDEVICE_EXECUTOR_H
