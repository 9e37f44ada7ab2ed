//===- Sandbox.h - libonnx's checker, inference and converter, isolated -*- C++ -*-===//
//
// libonnx 1.12's shape inference functions, and its version converter's
// adapters, index an input's dimensions without checking its rank (a
// ConvTranspose whose filter has rank 1, an STFT whose frame_step has rank
// 2, a Gemm-6 whose B has rank 1): 44 of 2,685 one-node models with rank-0,
// rank-1 or mixed inputs crash it. No check of ours can know every
// operator's ranks, so every call into that code runs in a child process
// (fork): a crash there becomes an error that names the node, never a crash
// of the compiler, and a runaway allocation meets a memory limit.
//
// While it works, the child leaves breadcrumbs in memory it shares with the
// parent: every inference function of libonnx's registry is wrapped, once
// per process, so that it first records its operator, version and input
// ranks. When the child dies, the parent reads them to say where.
//
// POSIX only (fork, pipes, mmap); elsewhere, and with
// NNAPI_MLIR_ONNX_SANDBOX=0 (to debug libonnx in a debugger, or to measure
// what isolation costs), the work runs in the process.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_LIB_FRONTEND_ONNX_SANDBOX_H
#define NNAPI_MLIR_LIB_FRONTEND_ONNX_SANDBOX_H

#include "onnx/onnx_pb.h"

#include <functional>
#include <string>

namespace nnapi_mlir::onnx_frontend {

/// Wraps every inference function of libonnx's schema registry (once per
/// process) so that, inside a sandbox, each records what it infers first.
void instrumentInferenceFunctions();

/// Whether this code runs in a sandbox's child process (not in the caller's:
/// what it changes is then its own copy).
bool inSandboxChild();

/// Runs `work` in a child process. `work` fills `result` (any bytes) or
/// returns false with `error`; both reach the caller. If the child dies
/// (a signal, an abort, an exit without an answer) or runs past `seconds`,
/// returns false with `error` saying so, and `crashNode` set to the node
/// of `graph` that was being inferred when it died, when one matches the
/// breadcrumbs (null otherwise). `what` names the work in messages ("shape
/// inference").
bool runInSandbox(const char *what, const onnx::GraphProto &graph,
                  const std::function<bool(std::string &result,
                                           std::string &error)> &work,
                  std::string &result, std::string &error,
                  const onnx::NodeProto **crashNode, unsigned seconds = 300);

} // namespace nnapi_mlir::onnx_frontend

#endif // NNAPI_MLIR_LIB_FRONTEND_ONNX_SANDBOX_H
