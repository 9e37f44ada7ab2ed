//===- Recurrent.h - Recurrent layers unrolled into TOSA --------*- C++ -*-===//
//
// The recurrent layers of both importers (ONNX's RNN, GRU and LSTM,
// TFLite's UNIDIRECTIONAL_SEQUENCE_LSTM), unrolled over their static
// sequence length into TOSA: the input projection of every step is one
// product (X times W for the whole sequence), then each step multiplies the
// hidden state by R and applies its gates. Constant weights become
// tosa.fully_connected (NNAPI FULLY_CONNECTED, packed host matmuls), runtime
// weights tosa.matmul. Sequence lengths mask the steps past each batch
// entry's length: its state holds, its outputs are zero. Processing a
// reverse direction from the last step down with that mask starts each
// entry at its own last step. An LSTM or RNN direction is one `lstm` or
// `rnn` composite (Composites.h) whose body is that unrolled code: the
// conversion to the nnapi dialect makes it one UNIDIRECTIONAL_SEQUENCE_LSTM
// (or _RNN) where the semantics match; the host runs the body.
//
// Gates are in ONNX's order: LSTM i, o, f, c (peepholes i, o, f); GRU z, r,
// h. Private to lib/Frontend.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_LIB_FRONTEND_COMMON_RECURRENT_H
#define NNAPI_MLIR_LIB_FRONTEND_COMMON_RECURRENT_H

#include "Emitter.h"

#include <optional>
#include <string>

namespace mlir::nnapi::frontend {

enum class Cell { RNN, GRU, LSTM };

/// An activation function (Emitter::activation's names) with its alpha and
/// beta.
struct RecurrentActivation {
  std::string name;
  std::optional<double> alpha, beta;
};

/// What one direction's steps read: W [G*H, K], R [G*H, H], the input bias
/// (Wb + Rb, or Wb alone for GRU's linear_before_reset, whose Rbh stays with
/// R as recBias), peepholes [1, 3H] and run-time lengths [B, 1] (i32); each
/// may be null.
struct RecurrentWeights {
  Value w, r, inBias, recBias, peep, lens;
};

/// One layer's geometry and options; builds its directions.
class RecurrentBuilder {
public:
  RecurrentBuilder(Emitter &e, Cell cell, int64_t seq, int64_t batch,
                   int64_t inputSize, int64_t hidden, Type element)
      : e(e), cell(cell), gates(cell == Cell::LSTM  ? 4
                                : cell == Cell::GRU ? 3
                                                    : 1),
        seq(seq), batch(batch), inputSize(inputSize), hidden(hidden),
        element(element) {}

  /// Gate pre-activations are clipped to [-clip, clip] (ONNX's clip).
  std::optional<double> clip;
  /// LSTM: f = 1 - i. GRU: the recurrent product before the reset gate.
  bool inputForget = false, linearBeforeReset = false;
  /// Compile-time sequence lengths per batch entry (empty: all full).
  SmallVector<int64_t> constLens;

  /// LSTM or RNN: one direction over time-major x [seq, batch, in] as one
  /// `lstm` or `rnn` composite with activations `acts` (f, g, h); returns
  /// y [seq, batch, hidden] and replaces h (and c) by the final states.
  Value sequenceComposite(bool reverse, ArrayRef<RecurrentActivation> acts,
                          const RecurrentWeights &weights, Value x, Value &h,
                          Value &c);
  /// Runs one direction over the sequence from its input products
  /// xw [seq, batch, G*H]; fills ys[t] (unless ys is empty) and replaces the
  /// states by the final ones.
  void runDirection(bool reverse, ArrayRef<RecurrentActivation> acts,
                    const RecurrentWeights &weights, Value xw,
                    SmallVectorImpl<Value> &ys, Value &h, Value &c);
  /// x [N, K] times w [M, K] transposed, plus bias [M] if given.
  Value linear(Value x, Value w, Value bias);
  /// a + b, computed now if both are constants.
  Value addFolded(Value a, Value b);
  /// `v` with its leading dimension of 1 dropped (a constant stays one).
  Value dropLeading(Value v);

private:
  Value act(ArrayRef<RecurrentActivation> acts, int i, Value x);
  /// The mask [B, H] of the batch entries whose sequence reaches step t
  /// (`lens` the run-time lengths, else constLens), or null if all do.
  Value stepMask(int64_t t, Value lens);
  Value slice2d(Value v, int64_t col, int64_t width) {
    int64_t rows = e.typeOf(v).getDimSize(0);
    return e.slice(v, {0, col}, {rows, width});
  }

  Emitter &e;
  Cell cell;
  int64_t gates, seq, batch, inputSize, hidden;
  Type element;
};

} // namespace mlir::nnapi::frontend

#endif // NNAPI_MLIR_LIB_FRONTEND_COMMON_RECURRENT_H
