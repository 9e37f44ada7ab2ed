//===- ControlFlow.cpp - IF and WHILE on the host NNAPI device ------------===//
//
// NNAPI's IF runs one of two referenced models on its inputs; WHILE runs a
// body model while a condition model says so. Validation checks what flows
// between the operation and its models (NNAPI's rules: the same counts,
// types and shapes); the executor gives each referenced model an Executor of
// its own, run on the enclosing model's buffers (Executor::runNested).
//
// WHILE's inputs are m loop-carried values (outputs of the operation), k
// state-only values and l input-only values, in that order; the condition
// model takes all m + k + l, the body too and returns the next m + k. The
// body writes into one of two buffers per value while it reads the other.
// A loop that runs longer than the execution's loop timeout (NNAPI's
// default, 2 s, or ANeuralNetworksExecution_setLoopTimeout) fails with
// MISSED_DEADLINE_TRANSIENT.
//
//===----------------------------------------------------------------------===//

#include "Executor.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>

namespace nnapi_mlir::host {

namespace {

thread_local uint64_t loopTimeoutNs = kDefaultLoopTimeoutNs;

std::string typeText(const Operand &o) {
  const char *name = operandTypeName(o.type);
  return std::string(name ? name : "?") + " " + shapeStr(o.dims);
}

bool sameType(const Operand &a, const Operand &b) {
  return a.type == b.type && a.dims == b.dims;
}

/// Bytes of a value in the executor's storage (storageElementBytes).
size_t storageBytes(const Operand &o) {
  return numElements(o.dims) * storageElementBytes(o.type);
}

} // namespace

void setLoopTimeoutForThisThread(uint64_t ns) { loopTimeoutNs = ns; }

namespace {
/// The values IF or WHILE passes to its models (role `input`, in order).
std::vector<uint32_t> valuesPassed(const Operation &op,
                                   const spec::Match &layout) {
  int first = layout.input(role::input);
  if (first < 0)
    return {};
  auto begin = op.inputs.begin() + first;
  return std::vector<uint32_t>(begin,
                               begin + long(layout.inputCount(role::input)));
}

/// The roles of IF's branches, or of WHILE's condition and body.
std::array<RoleName, 2> modelRoles(bool isIf) {
  return {isIf ? role::then_model : role::condition_model,
          isIf ? role::else_model : role::body_model};
}

/// The model operand of role `name` (validateModel has refused MODEL
/// operands without a model).
const HostModel &modelOf(const HostModel &m, const Operation &op,
                         const spec::Match &layout, RoleName name) {
  return *m.operands[op.inputs[size_t(layout.input(name))]].model;
}
} // namespace

int validateControlFlow(const HostModel &m, size_t index, spec::Match &layout) {
  const Operation &op = m.operations[index];
  bool isIf = op.opcode == ANEURALNETWORKS_IF;
  const char *name = isIf ? "IF" : "WHILE";
  auto bad = [&](const std::string &msg) {
    return fail(ANEURALNETWORKS_BAD_DATA, "operation " + std::to_string(index) +
                                              " (" + name + "): " + msg);
  };
  // The layout (Layouts.cpp) has placed and typed the operands.
  const HostModel *parts[2];
  const char *partNames[2] = {isIf ? "then model" : "condition model",
                              isIf ? "else model" : "body model"};
  std::array<RoleName, 2> partRoles = modelRoles(isIf);
  for (size_t k = 0; k < 2; ++k)
    parts[k] = &modelOf(m, op, layout, partRoles[k]);
  std::vector<uint32_t> args = valuesPassed(op, layout);
  // What a referenced model takes must be what the operation passes.
  auto checkInputs = [&](size_t k) -> int {
    const HostModel &part = *parts[k];
    if (part.inputs.size() != args.size())
      return bad(std::string("the ") + partNames[k] + " has " +
                 std::to_string(part.inputs.size()) + " inputs, the operation "
                 "passes " + std::to_string(args.size()));
    for (size_t i = 0; i < args.size(); ++i)
      if (!sameType(part.operands[part.inputs[i]], m.operands[args[i]]))
        return bad(std::string("input ") + std::to_string(i) + " of the " +
                   partNames[k] + " is " +
                   typeText(part.operands[part.inputs[i]]) +
                   ", the operation passes " + typeText(m.operands[args[i]]));
    return ANEURALNETWORKS_NO_ERROR;
  };
  for (size_t k = 0; k < 2; ++k)
    if (int rc = checkInputs(k))
      return rc;
  if (isIf) {
    const Operand &cond =
        m.operands[op.inputs[size_t(layout.input(role::condition))]];
    if (cond.type != ANEURALNETWORKS_TENSOR_BOOL8 || numElements(cond.dims) != 1)
      return bad("the condition must be a TENSOR_BOOL8 of one element, got " +
                 typeText(cond));
    for (size_t k = 0; k < 2; ++k) {
      const HostModel &part = *parts[k];
      if (part.outputs.size() != op.outputs.size())
        return bad(std::string("the ") + partNames[k] + " has " +
                   std::to_string(part.outputs.size()) + " outputs, the "
                   "operation " + std::to_string(op.outputs.size()));
      for (size_t i = 0; i < op.outputs.size(); ++i)
        if (!sameType(part.operands[part.outputs[i]],
                      m.operands[op.outputs[i]]))
          return bad(std::string("output ") + std::to_string(i) + " of the " +
                     partNames[k] + " is " +
                     typeText(part.operands[part.outputs[i]]) +
                     ", the operation's is " +
                     typeText(m.operands[op.outputs[i]]));
    }
  } else {
    const HostModel &cond = *parts[0], &body = *parts[1];
    if (cond.outputs.size() != 1 ||
        cond.operands[cond.outputs[0]].type != ANEURALNETWORKS_TENSOR_BOOL8 ||
        numElements(cond.operands[cond.outputs[0]].dims) != 1)
      return bad("the condition model must have one output, a TENSOR_BOOL8 "
                 "of one element");
    size_t carried = op.outputs.size(), next = body.outputs.size();
    if (carried > next || next > args.size())
      return bad("the body model has " + std::to_string(next) +
                 " outputs; it needs at least the operation's " +
                 std::to_string(carried) + " and at most its " +
                 std::to_string(args.size()) + " inputs");
    for (size_t i = 0; i < next; ++i)
      if (!sameType(body.operands[body.outputs[i]], m.operands[args[i]]))
        return bad("output " + std::to_string(i) + " of the body model is " +
                   typeText(body.operands[body.outputs[i]]) +
                   ", the value it replaces is " + typeText(m.operands[args[i]]));
    for (size_t i = 0; i < carried; ++i)
      if (!sameType(m.operands[op.outputs[i]], m.operands[args[i]]))
        return bad("output " + std::to_string(i) + " is " +
                   typeText(m.operands[op.outputs[i]]) +
                   ", the loop-carried value is " +
                   typeText(m.operands[args[i]]));
  }
  for (const HostModel *part : parts)
    for (const spec::Match &inner : part->layouts)
      if (inner.level > layout.level) {
        layout.level = inner.level;
        layout.why = inner.why + " in a referenced model";
      }
  return ANEURALNETWORKS_NO_ERROR;
}

namespace {

class IfStep : public Step {
public:
  IfStep(const Operation &op, const spec::Match &layout,
         std::unique_ptr<Executor> then, std::unique_ptr<Executor> otherwise)
      : condition(op.inputs[size_t(layout.input(role::condition))]),
        args(valuesPassed(op, layout)), results(op.outputs) {
    branches[0] = std::move(then);
    branches[1] = std::move(otherwise);
  }

  const char *backend() const override { return "control"; }

  int run(const Bindings &b) override {
    bool taken = reinterpret_cast<const uint8_t *>(b[condition])[0] != 0;
    std::vector<float *> in, out;
    for (uint32_t a : args)
      in.push_back(b[a]);
    for (uint32_t r : results)
      out.push_back(b[r]);
    return branches[taken ? 0 : 1]->runNested(in.data(), out.data());
  }

private:
  uint32_t condition;
  std::vector<uint32_t> args, results;
  std::unique_ptr<Executor> branches[2];
};

class WhileStep : public Step {
public:
  WhileStep(const HostModel &m, const Operation &op,
            const spec::Match &layout, std::unique_ptr<Executor> cond,
            std::unique_ptr<Executor> body, size_t next)
      : args(valuesPassed(op, layout)), results(op.outputs),
        cond(std::move(cond)), body(std::move(body)) {
    for (size_t i = 0; i < args.size(); ++i)
      bytes.push_back(storageBytes(m.operands[args[i]]));
    // Two buffers per value the body replaces, with the kernels' slack.
    for (int side = 0; side < 2; ++side)
      for (size_t i = 0; i < next; ++i)
        buffers[side].emplace_back(
            (bytes[i] + kKernelSlackBytes + sizeof(float) - 1) / sizeof(float));
    flag.assign(1 + kKernelSlackBytes / sizeof(float), 0.0f);
  }

  const char *backend() const override { return "control"; }

  int run(const Bindings &b) override {
    using Clock = std::chrono::steady_clock;
    Clock::time_point deadline =
        Clock::now() + std::chrono::nanoseconds(loopTimeoutNs);
    std::vector<float *> current;
    for (uint32_t a : args)
      current.push_back(b[a]);
    std::vector<float *> next(buffers[0].size());
    float *condition = flag.data();
    for (uint64_t iteration = 0;; ++iteration) {
      if (int rc = cond->runNested(current.data(), &condition))
        return rc;
      if (!reinterpret_cast<const uint8_t *>(condition)[0])
        break;
      if (Clock::now() > deadline)
        return fail(ANEURALNETWORKS_MISSED_DEADLINE_TRANSIENT,
                    "WHILE ran longer than the loop timeout of " +
                        std::to_string(loopTimeoutNs / 1000000) + " ms (" +
                        std::to_string(iteration) + " iterations)");
      for (size_t i = 0; i < next.size(); ++i)
        next[i] = buffers[iteration % 2][i].data();
      if (int rc = body->runNested(current.data(), next.data()))
        return rc;
      std::copy(next.begin(), next.end(), current.begin());
    }
    for (size_t i = 0; i < results.size(); ++i)
      if (b[results[i]] != current[i])
        std::memcpy(b[results[i]], current[i], bytes[i]);
    return ANEURALNETWORKS_NO_ERROR;
  }

private:
  std::vector<uint32_t> args, results;
  std::vector<size_t> bytes; ///< Of each input, in storage form.
  std::unique_ptr<Executor> cond, body;
  std::vector<std::vector<float>> buffers[2];
  std::vector<float> flag; ///< The condition model's output.
};

} // namespace

int createControlFlowStep(const HostModel &m, size_t index,
                          const ExecutorOptions &options,
                          std::unique_ptr<Step> &step) {
  const Operation &op = m.operations[index];
  const spec::Match &layout = m.layouts[index];
  bool isIf = op.opcode == ANEURALNETWORKS_IF;
  std::array<RoleName, 2> partRoles = modelRoles(isIf);
  std::unique_ptr<Executor> parts[2];
  for (size_t k = 0; k < 2; ++k)
    if (int rc = Executor::create(modelOf(m, op, layout, partRoles[k]),
                                  options, parts[k]))
      return rc;
  if (isIf) {
    step = std::make_unique<IfStep>(op, layout, std::move(parts[0]),
                                    std::move(parts[1]));
  } else {
    size_t next = modelOf(m, op, layout, role::body_model).outputs.size();
    step = std::make_unique<WhileStep>(m, op, layout, std::move(parts[0]),
                                       std::move(parts[1]), next);
  }
  return ANEURALNETWORKS_NO_ERROR;
}

} // namespace nnapi_mlir::host
