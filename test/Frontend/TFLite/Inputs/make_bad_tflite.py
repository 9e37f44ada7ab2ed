#!/usr/bin/python3
"""make_bad_tflite.py OUTDIR: writes OUTDIR/<case>.tflite, one model per
defect the TFLite importer must refuse with a message (errors.test checks
each message), plus valid models that exercise rarely used parts of the
format (data after the flatbuffer, signatures, unknown dimensions)."""
import os
import struct
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tflite_builder import ModelBuilder  # noqa: E402

CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


def add_model(b=None, shape=(1, 4), const=None, **input_args):
    """x + c -> y: the smallest model the cases below bend."""
    b = b or ModelBuilder()
    x = b.input("x", list(shape), **input_args)
    c = b.const("c", np.arange(4, dtype=np.float32).reshape(shape)
                if const is None else const)
    y = b.tensor("y", list(shape))
    b.op("ADD", [x, c], [y], ("AddOptions", {}))
    b.output(y)
    return b


# ------------------------------------------------------------------- valid

@case
def valid(): return add_model().finish()


@case
def buffers_after(): return add_model().finish(buffers_after=True)


@case
def signature():
    b = add_model()
    b.sign("serving", {"image": 0}, {"scores": 2})
    return b.finish()


@case
def unknown_batch():
    return add_model(shape_signature=[-1, 4]).finish()


# -------------------------------------------------------------- the file

@case
def not_tflite(): return b"\x08\x07\x12\x04" + bytes(60)


@case
def truncated():
    data = add_model().finish()
    return data[:len(data) // 2]


@case
def corrupt_offset():
    data = bytearray(add_model().finish())
    # The root table's offset points past the end.
    data[0:4] = struct.pack("<I", len(data) + 64)
    return bytes(data)


@case
def version_4(): return add_model().finish(version=4)


@case
def no_subgraphs(): return add_model().finish(no_subgraphs=True)


@case
def no_outputs():
    b = add_model()
    b.outputs = []
    return b.finish()


# ------------------------------------------------------------ the buffers

@case
def buffer_too_small():
    b = ModelBuilder()
    x = b.input("x", [1, 4])
    c = b.tensor("c", [1, 4], data=np.zeros(3, np.float32).tobytes())
    y = b.tensor("y", [1, 4])
    b.op("ADD", [x, c], [y], ("AddOptions", {}))
    b.output(y)
    return b.finish()


@case
def buffer_out_of_range():
    b = ModelBuilder()
    x = b.input("x", [1, 4])
    c = b.tensor("c", [1, 4], buffer=9)
    y = b.tensor("y", [1, 4])
    b.op("ADD", [x, c], [y], ("AddOptions", {}))
    b.output(y)
    return b.finish()


@case
def buffer_past_the_file():
    b = ModelBuilder()
    b.buffers.append((1 << 40, 16))
    x = b.input("x", [1, 4])
    c = b.tensor("c", [1, 4], buffer=1)
    y = b.tensor("y", [1, 4])
    b.op("ADD", [x, c], [y], ("AddOptions", {}))
    b.output(y)
    return b.finish()


# ------------------------------------------------------------ the tensors

@case
def string_tensor():
    return add_model(dtype="STRING").finish()


@case
def int16_activation():
    b = ModelBuilder()
    x = b.input("x", [1, 4], "INT16", ([0.01], [0]))
    y = b.tensor("y", [1, 4], "INT16", ([0.01], [0]))
    b.op("RELU", [x], [y])
    b.output(y)
    return b.finish()


@case
def sparse_weights():
    b = ModelBuilder()
    x = b.input("x", [1, 4])
    w = b.tensor("w", [2, 4], data=np.ones(8, np.float32).tobytes(),
                 sparse=True)
    y = b.tensor("y", [1, 2])
    b.op("FULLY_CONNECTED", [x, w, -1], [y],
         ("FullyConnectedOptions", {}))
    b.output(y)
    return b.finish()


@case
def zero_scale():
    b = ModelBuilder()
    x = b.input("x", [1, 4], "INT8", ([0.0], [0]))
    y = b.tensor("y", [1, 4])
    b.op("DEQUANTIZE", [x], [y])
    b.output(y)
    return b.finish()


@case
def zero_point_out_of_range():
    b = ModelBuilder()
    x = b.input("x", [1, 4], "INT8", ([0.5], [300]))
    y = b.tensor("y", [1, 4])
    b.op("DEQUANTIZE", [x], [y])
    b.output(y)
    return b.finish()


@case
def huge_dimension():
    return add_model(shape=(1 << 16, 1 << 16, 1 << 10),
                     const=np.zeros((1, 1, 1), np.float32)).finish()


# ---------------------------------------------------------- the operators

@case
def opcode_out_of_range():
    b = add_model()
    b.operators[0]["opcode"] = 5
    return b.finish()


@case
def tensor_index_out_of_range():
    b = add_model()
    b.operators[0]["inputs"][1] = 7
    return b.finish()


@case
def input_from_nowhere():
    b = ModelBuilder()
    x = b.input("x", [1, 4])
    floating = b.tensor("floating", [1, 4])
    y = b.tensor("y", [1, 4])
    b.op("ADD", [x, floating], [y], ("AddOptions", {}))
    b.output(y)
    return b.finish()


@case
def output_from_nowhere():
    b = add_model()
    b.output(b.tensor("never_written", [1, 4]))
    return b.finish()


@case
def unknown_custom_op():
    b = ModelBuilder()
    x = b.input("x", [1, 4])
    y = b.tensor("y", [1, 4])
    b.op("CUSTOM", [x], [y], custom="MyFancyOp", custom_options=b"\x00")
    b.output(y)
    return b.finish()


@case
def unsupported_builtin():
    b = ModelBuilder()
    x = b.input("x", [4], "INT32")
    v = b.const("values", np.zeros(4, np.float32))
    y = b.tensor("y", [4])
    b.op("HASHTABLE_LOOKUP", [x, b.const("keys", np.arange(4, dtype=np.int32)),
                              v], [y])
    b.output(y)
    return b.finish()


@case
def version_too_new():
    b = add_model()
    code, custom, _ = b.opcodes[0]
    b.opcodes[0] = (code, custom, 99)
    return b.finish()


@case
def negative_gather_index():
    b = ModelBuilder()
    x = b.input("x", [3, 7])
    y = b.tensor("y", [3, 2])
    b.op("GATHER", [x, b.const("idx", np.array([0, -1], np.int32))], [y],
         ("GatherOptions", {"Axis": 1}))
    b.output(y)
    return b.finish()


@case
def unsupported_activation():
    b = ModelBuilder()
    x = b.input("x", [1, 4])
    y = b.tensor("y", [1, 4])
    b.op("ADD", [x, b.const("c", np.ones((1, 4), np.float32))], [y],
         ("AddOptions", {"FusedActivationFunction": "SIGN_BIT"}))
    b.output(y)
    return b.finish()



def if_model(then_index=None, else_index=None, branch_out=(2, 3),
             branch_dtype="FLOAT32"):
    """IF(flag, x) over two branches that copy x (as `branch_out`)."""
    b = ModelBuilder()
    branches = []
    for name in ("then", "else"):
        branches.append(b.subgraph(name=name))
        x = b.input("x", [2, 3])
        y = b.tensor("y", list(branch_out), branch_dtype)
        b.op("RESHAPE" if branch_dtype == "FLOAT32" else "CAST", [x], [y])
        b.output(y)
    b.subgraph(0)
    f, x = b.input("flag", [1], "BOOL"), b.input("x", [2, 3])
    y = b.tensor("y", [2, 3])
    b.op("IF", [f, x], [y], ("IfOptions", {
        "ThenSubgraphIndex": branches[0] if then_index is None
        else then_index,
        "ElseSubgraphIndex": branches[1] if else_index is None
        else else_index}))
    b.output(y)
    return b


@case
def if_branch_missing(): return if_model(else_index=7).finish()


@case
def if_calls_main(): return if_model(then_index=0).finish()


@case
def if_branch_type(): return if_model(branch_dtype="INT32").finish()


@case
def while_recursive():
    """A WHILE whose body is a WHILE over the same body."""
    b = ModelBuilder()
    cond = b.subgraph(name="cond")
    i = b.input("i", [1], "INT32")
    go = b.tensor("go", [1], "BOOL")
    b.op("LESS", [i, b.const("n", np.int32([3]))], [go])
    b.output(go)
    body = b.subgraph(name="body")
    bi = b.input("i", [1], "INT32")
    bo = b.tensor("o", [1], "INT32")
    b.op("WHILE", [bi], [bo], ("WhileOptions", {
        "CondSubgraphIndex": cond, "BodySubgraphIndex": body}))
    b.output(bo)
    b.subgraph(0)
    x = b.input("x", [1], "INT32")
    y = b.tensor("y", [1], "INT32")
    b.op("WHILE", [x], [y], ("WhileOptions", {
        "CondSubgraphIndex": cond, "BodySubgraphIndex": body}))
    b.output(y)
    return b.finish()


@case
def while_cond_not_bool():
    b = ModelBuilder()
    cond = b.subgraph(name="cond")
    i = b.input("i", [1], "INT32")
    b.output(i)
    body = b.subgraph(name="body")
    b.output(b.input("i", [1], "INT32"))
    b.subgraph(0)
    x = b.input("x", [1], "INT32")
    y = b.tensor("y", [1], "INT32")
    b.op("WHILE", [x], [y], ("WhileOptions", {
        "CondSubgraphIndex": cond, "BodySubgraphIndex": body}))
    b.output(y)
    return b.finish()


@case
def select_rows_mismatch():
    b = ModelBuilder()
    c, x = b.input("c", [3], "BOOL"), b.input("x", [2, 4])
    y = b.tensor("y", [2, 4])
    b.op("SELECT", [c, x, x], [y])
    b.output(y)
    return b.finish()


@case
def ordered_booleans():
    b = ModelBuilder()
    p, q = b.input("p", [4], "BOOL"), b.input("q", [4], "BOOL")
    y = b.tensor("y", [4], "BOOL")
    b.op("GREATER", [p, q], [y])
    b.output(y)
    return b.finish()



def transpose_bias(options, out=(1, 9, 12, 3)):
    b = ModelBuilder()
    x = b.input("x", [1, 5, 6, 4])
    y = b.tensor("y", list(out))
    b.op("CUSTOM", [x, b.const("w", np.ones((3, 3, 3, 4), np.float32)),
                    b.const("b", np.zeros(3, np.float32))], [y],
         custom="Convolution2DTransposeBias", custom_options=options)
    b.output(y)
    return b.finish()


@case
def transpose_bias_options(): return transpose_bias(np.int32([1, 2]).tobytes())


@case
def transpose_bias_shape():
    return transpose_bias(np.int32([1, 2, 2]).tobytes(), out=(1, 10, 12, 3))



@case
def argmax_options():
    b = ModelBuilder()
    x = b.input("x", [1, 4, 4, 1])
    v, i = b.tensor("v", [1, 2, 2, 1]), b.tensor("i", [1, 2, 2, 1])
    b.op("CUSTOM", [x], [v, i], custom="MaxPoolingWithArgmax2D",
         custom_options=np.int32([1, 2, 2, 2]).tobytes())
    b.output(v)
    return b.finish()


@case
def unpool_overlapping():
    b = ModelBuilder()
    x, i = b.input("x", [1, 2, 2, 1]), b.input("i", [1, 2, 2, 1])
    y = b.tensor("y", [1, 6, 6, 1])
    b.op("CUSTOM", [x, i], [y], custom="MaxUnpooling2D",
         custom_options=np.int32([2, 2, 2, 3, 3, 0, -1, -1]).tobytes())
    b.output(y)
    return b.finish()



@case
def detection_postprocess():
    b = ModelBuilder()
    boxes, scores = b.input("boxes", [1, 4, 4]), b.input("scores", [1, 4, 3])
    outs = [b.tensor(n, s) for n, s in (("det_boxes", [1, 2, 4]),
                                        ("det_classes", [1, 2]),
                                        ("det_scores", [1, 2]),
                                        ("count", [1]))]
    b.op("CUSTOM", [boxes, scores, b.const("anchors", np.ones((4, 4),
                                                             np.float32))],
         outs, custom="TFLite_Detection_PostProcess", custom_options=b"\x00")
    for t in outs:
        b.output(t)
    return b.finish()



def sparse_fc(spec, values, shape=(2, 4)):
    b = ModelBuilder()
    x = b.input("x", [1, shape[1]])
    w = b.tensor("w", list(shape), data=np.float32(values).tobytes(),
                 sparse=spec)
    y = b.tensor("y", [1, shape[0]])
    b.op("FULLY_CONNECTED", [x, w, -1], [y], ("FullyConnectedOptions", {}))
    b.output(y)
    return b.finish()


CSR = dict(order=[0, 1], dims=[("DENSE", 2), ("CSR", [0, 1, 2], [0, 3])])


@case
def sparse_index_range():
    return sparse_fc(dict(CSR, dims=[("DENSE", 2),
                                     ("CSR", [0, 1, 2], [0, 4])]), [1, 2])


@case
def sparse_value_count(): return sparse_fc(CSR, [1, 2, 3])


@case
def sparse_huge():
    return sparse_fc(dict(order=[0, 1], dims=[
        ("DENSE", 1 << 20), ("CSR", [0, 1], [0])]), [1],
        shape=(1 << 20, 1 << 12))


@case
def sparse_not_constant():
    b = ModelBuilder()
    x = b.input("x", [2, 4])
    b.tensors[x]["sparse"] = CSR
    y = b.tensor("y", [2, 4])
    b.op("RELU", [x], [y])
    b.output(y)
    return b.finish()



@case
def omitted_input():
    b = ModelBuilder()
    x = b.input("x", [1, 4])
    y = b.tensor("y", [1, 4])
    b.op("RELU", [-1], [y])
    b.output(y)
    return b.finish()



@case
def float_axes():
    b = ModelBuilder()
    x = b.input("x", [2, 4])
    y = b.tensor("y", [2])
    b.op("MEAN", [x, b.const("axes", np.float32([1.0]))], [y],
         ("ReducerOptions", {}))
    b.output(y)
    return b.finish()



@case
def split_omitted_data():
    b = ModelBuilder()
    x = b.input("x", [2, 4])
    ys = [b.tensor("y%d" % k, [2, 2]) for k in range(2)]
    b.op("SPLIT", [b.const("axis", np.int32([1])), -1], ys,
         ("SplitOptions", {"NumSplits": 2}))
    for y in ys:
        b.output(y)
    b.output(x)
    return b.finish()



@case
def argmax_huge_window():
    b = ModelBuilder()
    x = b.input("x", [1, 4, 4, 1])
    v, i = b.tensor("v", [1, 2, 2, 1]), b.tensor("i", [1, 2, 2, 1])
    b.op("CUSTOM", [x], [v, i], custom="MaxPoolingWithArgmax2D",
         custom_options=np.int32([1, 2, 2, 4096, 2, 0, -1, -1]).tobytes())
    b.output(v)
    return b.finish()



@case
def while_type_change():
    b = ModelBuilder()
    cond = b.subgraph(name="cond")
    i = b.input("i", [1], "INT32")
    go = b.tensor("go", [1], "BOOL")
    b.op("LESS", [i, b.const("n", np.int32([3]))], [go])
    b.output(go)
    body = b.subgraph(name="body")
    b.output(b.input("i", [1], "INT32"))
    b.subgraph(0)
    x = b.input("x", [1], "INT32")
    y = b.tensor("y", [1])
    b.op("WHILE", [x], [y], ("WhileOptions", {
        "CondSubgraphIndex": cond, "BodySubgraphIndex": body}))
    b.output(y)
    return b.finish()



@case
def argmax_int_indices():
    b = ModelBuilder()
    x = b.input("x", [1, 4, 4, 1])
    v, i = b.tensor("v", [1, 2, 2, 1]), b.tensor("i", [1, 2, 2, 1], "INT32")
    b.op("CUSTOM", [x], [v, i], custom="MaxPoolingWithArgmax2D",
         custom_options=np.int32([1, 2, 2, 2, 2, 0, -1, -1]).tobytes())
    b.output(v)
    return b.finish()


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, fn in CASES.items():
        with open(os.path.join(out, name + ".tflite"), "wb") as f:
            f.write(fn())


if __name__ == "__main__":
    main()
