#!/usr/bin/python3
"""Writes ONNX models shaped like exporters' output: symbolic dimensions,
old opsets without recorded intermediate shapes, opset-6 PRelu. Each model
gets an ONNX test directory (input_<i>.pb, output_<i>.pb) whose expected
outputs numpy computes here, independently of the importer.

Usage: make_wild_models.py OUT_DIR
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from testdata import save


def model(name, nodes, inputs, outputs, inits=(), opset=13):
    if opset < 9:
        # IR version 3 lists every initializer among the graph inputs.
        inputs = inputs + [
            helper.make_tensor_value_info(t.name, t.data_type, list(t.dims))
            for t in inits]
    g = helper.make_graph(nodes, name, inputs, outputs, list(inits))
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 7 if opset >= 13 else 4 if opset >= 9 else 3
    return m


def f(name, shape):
    return helper.make_tensor_value_info(name, TensorProto.FLOAT, shape)


def softmax(x, axis):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    rng = np.random.RandomState(7)

    # Symbolic batch, height and width; the exporter's dynamic-shape idiom
    # Reshape(x, Concat(Gather(Shape(x), 0), [-1])) flattens per sample.
    scale = rng.uniform(0.5, 1.5, size=(1, 3, 1, 1)).astype(np.float32)
    dyn = model(
        "dyn",
        [helper.make_node("Mul", ["x", "scale"], ["s"]),
         helper.make_node("Relu", ["s"], ["r"]),
         helper.make_node("Shape", ["r"], ["shape"]),
         helper.make_node("Gather", ["shape", "zero"], ["n"], axis=0),
         helper.make_node("Concat", ["n", "minus_one"], ["flat_shape"], axis=0),
         helper.make_node("Reshape", ["r", "flat_shape"], ["flat"]),
         helper.make_node("ReduceMean", ["r"], ["mean"], axes=[2, 3],
                          keepdims=0)],
        [f("x", ["N", 3, "H", "W"])],
        [f("flat", ["N", None]), f("mean", ["N", 3])],
        [numpy_helper.from_array(scale, "scale"),
         numpy_helper.from_array(np.array([0], np.int64), "zero"),
         numpy_helper.from_array(np.array([-1], np.int64), "minus_one")])
    for case, shape in (("test_data_set_0", (2, 3, 5, 7)),
                        ("test_data_set_1", (1, 3, 8, 4))):
        x = rng.uniform(-1, 1, size=shape).astype(np.float32)
        r = np.maximum(x * scale, 0)
        save(out, "dyn", dyn, [("x", x)],
             [("flat", r.reshape(shape[0], -1)), ("mean", r.mean(axis=(2, 3)))],
             case)

    # Opset 9 as older exporters wrote it: Gemm then Softmax, no shapes
    # recorded for the intermediate values (ONNX's version converter needs
    # them for Softmax's 12 -> 13 adapter).
    w = rng.uniform(-1, 1, size=(6, 4)).astype(np.float32)
    b = rng.uniform(-1, 1, size=(4,)).astype(np.float32)
    old = model(
        "old",
        [helper.make_node("Gemm", ["x", "w", "b"], ["g"]),
         helper.make_node("Softmax", ["g"], ["y"], axis=1)],
        [f("x", [2, 6])], [f("y", [2, 4])],
        [numpy_helper.from_array(w, "w"), numpy_helper.from_array(b, "b")],
        opset=9)
    x = rng.uniform(-1, 1, size=(2, 6)).astype(np.float32)
    save(out, "opset9_gemm_softmax", old, [("x", x)],
         [("y", softmax(x @ w + b, 1).astype(np.float32))])

    # Opset 6: Add with the legacy broadcast attributes (a [C] bias added
    # along axis 1) and a PRelu whose [C] slope applies per channel.
    bias = rng.uniform(-1, 1, size=(3,)).astype(np.float32)
    slope = np.array([0.1, 0.5, 2.0], np.float32)
    legacy = model(
        "legacy",
        [helper.make_node("Add", ["x", "bias"], ["a"], broadcast=1, axis=1),
         helper.make_node("PRelu", ["a", "slope"], ["y"])],
        [f("x", [1, 3, 2, 2])], [f("y", [1, 3, 2, 2])],
        [numpy_helper.from_array(bias, "bias"),
         numpy_helper.from_array(slope, "slope")],
        opset=6)
    x = rng.uniform(-1, 1, size=(1, 3, 2, 2)).astype(np.float32)
    a = x + bias.reshape(1, 3, 1, 1)
    save(out, "opset6_add_prelu", legacy, [("x", x)],
         [("y", np.where(a < 0, a * slope.reshape(1, 3, 1, 1), a))])

    # Opset 11 attention-style: heads split by a Reshape whose shape is
    # computed from the symbolic batch (Shape -> Gather -> Unsqueeze ->
    # Concat, which libonnx 1.12 does not propagate), then Softmax over an
    # explicit last axis and over a middle one (pre-13 semantics: the input
    # flattened to 2-D at the axis), both reaching graph outputs directly.
    def const(name, values):
        return helper.make_node("Constant", [], [name], value=numpy_helper.from_array(
            np.array(values, np.int64), name))
    heads = model(
        "heads",
        [helper.make_node("Shape", ["x"], ["shape"]), const("zero", 0),
         helper.make_node("Gather", ["shape", "zero"], ["batch"], axis=0),
         helper.make_node("Unsqueeze", ["batch"], ["batch1"], axes=[0]),
         const("rest", [-1, 2, 3]),
         helper.make_node("Concat", ["batch1", "rest"], ["split_shape"], axis=0),
         helper.make_node("Reshape", ["x", "split_shape"], ["r"]),
         helper.make_node("Softmax", ["r"], ["last"], axis=3),
         helper.make_node("LogSoftmax", ["r"], ["middle"], axis=2)],
        [f("x", ["N", "S", 6])],
        [f("last", ["N", "S", 2, 3]), f("middle", ["N", "S", 2, 3])],
        opset=11)
    x = rng.uniform(-2, 2, size=(2, 4, 6)).astype(np.float32)
    r = x.reshape(2, 4, 2, 3).astype(np.float64)
    flat = r.reshape(8, 6)
    middle = np.log(softmax(flat, 1)).reshape(2, 4, 2, 3)
    save(out, "opset11_heads", heads, [("x", x)],
         [("last", softmax(r, 3).astype(np.float32)),
          ("middle", middle.astype(np.float32))])

    # float64 and uint8 at the graph's boundary (uint8 computed as a wider
    # integer inside): uint8 arithmetic must wrap around.
    types = model(
        "types",
        [helper.make_node("Mul", ["x", "two"], ["y"]),
         helper.make_node("Add", ["u", "u"], ["uu"]),
         helper.make_node("Sub", ["uu", "seven"], ["v"]),
         helper.make_node("Greater", ["u", "seven"], ["w"])],
        [helper.make_tensor_value_info("x", TensorProto.DOUBLE, [2, 3]),
         helper.make_tensor_value_info("u", TensorProto.UINT8, [5])],
        [helper.make_tensor_value_info("y", TensorProto.DOUBLE, [2, 3]),
         helper.make_tensor_value_info("v", TensorProto.UINT8, [5]),
         helper.make_tensor_value_info("w", TensorProto.BOOL, [5])],
        [numpy_helper.from_array(np.array(2.0), "two"),
         numpy_helper.from_array(np.array(7, np.uint8), "seven")],
        opset=14)  # Add and Sub take uint8 from opset 14
    x = rng.uniform(-1, 1, size=(2, 3))
    u = np.array([0, 3, 7, 200, 255], np.uint8)
    save(out, "types", types, [("x", x), ("u", u)],
         [("y", x * 2), ("v", (u + u - np.uint8(7)).astype(np.uint8)),
          ("w", u > 7)])

    # A Reshape whose shape is a graph input, bound at compile time with
    # --input-value or --specialize-value.
    shaped = model(
        "shaped",
        [helper.make_node("Reshape", ["x", "shape"], ["y"], name="reshape")],
        [f("x", [2, 6]),
         helper.make_tensor_value_info("shape", TensorProto.INT64, [2])],
        [f("y", ["a", "b"])])
    x = rng.uniform(-1, 1, size=(2, 6)).astype(np.float32)
    save(out, "shaped", shaped,
         [("x", x), ("shape", np.array([3, 4], np.int64))],
         [("y", x.reshape(3, 4))])
    # Another value for the bound input, which the compiled model refuses.
    np.save(os.path.join(out, "shaped", "x.npy"), x)
    np.save(os.path.join(out, "shaped", "other_shape.npy"),
            np.array([4, 3], np.int64))

    # Bound inputs of several types between runtime ones keep their places:
    # x, shape (bound, decides a shape), y (float64, bound), u (uint8,
    # bound), z.
    mixed = model(
        "mixed",
        [helper.make_node("Reshape", ["x", "shape"], ["xr"]),
         helper.make_node("Cast", ["y"], ["yf"], to=TensorProto.FLOAT),
         helper.make_node("Add", ["xr", "yf"], ["s"]),
         helper.make_node("Add", ["s", "z"], ["r"]),
         helper.make_node("Add", ["u", "u"], ["v"])],
        [f("x", [2, 6]),
         helper.make_tensor_value_info("shape", TensorProto.INT64, [2]),
         helper.make_tensor_value_info("y", TensorProto.DOUBLE, [3, 4]),
         helper.make_tensor_value_info("u", TensorProto.UINT8, [2]),
         f("z", [3, 4])],
        [f("r", ["a", "b"]), helper.make_tensor_value_info("v", TensorProto.UINT8, [2])],
        opset=14)
    x = rng.uniform(-1, 1, size=(2, 6)).astype(np.float32)
    y = rng.uniform(-1, 1, size=(3, 4))
    u = np.array([200, 7], np.uint8)
    z = rng.uniform(-1, 1, size=(3, 4)).astype(np.float32)
    save(out, "mixed", mixed,
         [("x", x), ("shape", np.array([3, 4], np.int64)), ("y", y), ("u", u),
          ("z", z)],
         [("r", x.reshape(3, 4) + y.astype(np.float32) + z),
          ("v", (u + u).astype(np.uint8))])
    for name, value in (("x", x), ("shape", np.array([3, 4], np.int64)),
                        ("y", y), ("u", u), ("z", z),
                        ("other_y", y + 1), ("other_u", np.array([200, 8], np.uint8))):
        np.save(os.path.join(out, "mixed", name + ".npy"), value)

    # NaN where the reference has NaN is a match (Sqrt of negative numbers).
    sqrt = model("sqrt", [helper.make_node("Sqrt", ["x"], ["y"])],
                 [f("x", [4])], [f("y", [4])])
    x = np.array([-1, 4, -0.5, 9], np.float32)
    with np.errstate(invalid="ignore"):
        save(out, "sqrt", sqrt, [("x", x)], [("y", np.sqrt(x))])

    # Nodes not in topological order (a float16 background-removal model's
    # were not), in the main graph and in an If branch that reads a value
    # of the main graph produced after the If in file order.
    x = np.linspace(-2, 2, 6, dtype=np.float32).reshape(2, 3)
    b = np.array([0.5, -1, 2], np.float32)
    then_g = helper.make_graph(
        [helper.make_node("Neg", ["t0"], ["t"]),
         helper.make_node("Mul", ["s", "s"], ["t0"])],
        "then", [], [f("t", [2, 3])])
    else_g = helper.make_graph([helper.make_node("Identity", ["s"], ["e"])],
                               "else", [], [f("e", [2, 3])])
    unsorted = model(
        "unsorted",
        [helper.make_node("Relu", ["i"], ["y"]),
         helper.make_node("If", ["c"], ["i"], then_branch=then_g,
                          else_branch=else_g),
         helper.make_node("Add", ["x", "b"], ["s"])],
        [f("x", [2, 3]), helper.make_tensor_value_info("c", TensorProto.BOOL, [])],
        [f("y", [2, 3])], [numpy_helper.from_array(b, "b")])
    s = x + b
    save(out, "unsorted", unsorted, [("x", x), ("c", np.array(True))],
         [("y", np.maximum(-(s * s), 0))])
    save(out, "unsorted", unsorted, [("x", x), ("c", np.array(False))],
         [("y", np.maximum(s, 0))], case="test_data_set_1")

    # Graph outputs declared without a shape, or without any type (valid
    # ONNX; libonnx's checker wants both): typed from shape inference, at
    # opset 13 and at 18 (read through its opset-17 form).
    x = np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3)
    for opset, ir in ((13, 7), (18, 8)):
        shapeless = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
        typeless = onnx.ValueInfoProto()
        typeless.name = "z"
        m = model("untyped", [helper.make_node("Relu", ["x"], ["y"]),
                              helper.make_node("Neg", ["y"], ["z"])],
                  [f("x", [2, 3])], [shapeless, typeless], opset=opset)
        m.ir_version = ir
        save(out, "untyped%d" % opset, m, [("x", x)],
             [("y", np.maximum(x, 0)), ("z", -np.maximum(x, 0))])
    # ... unless inference cannot find the shape either (a Reshape to a
    # shape given at run time).
    typeless = onnx.ValueInfoProto()
    typeless.name = "y"
    m = model("unknown", [helper.make_node("Reshape", ["x", "s"], ["y"])],
              [f("x", [2, 3]),
               helper.make_tensor_value_info("s", TensorProto.INT64, [2])],
              [typeless])
    onnx.save(m, os.path.join(out, "untyped_unknown.onnx"))

    # Names are data: a wake-word model's output was named by a JSON string.
    # Quotes, spaces, '=' and '%', a newline, non-ASCII and a very long name
    # must come back as they were (the signature encodes them).
    odd_in = 'x = "in put" %41\n\u00e9\u65e5'
    odd_out = '{"label": "hey", "p": 1}' + "\t" + "n" * 1000
    m = model("odd_names", [helper.make_node("Relu", [odd_in], [odd_out])],
              [f(odd_in, [2, 3])], [f(odd_out, [2, 3])])
    x = np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3)
    save(out, "odd_names", m, [(odd_in, x)], [(odd_out, np.maximum(x, 0))])
    with open(os.path.join(out, "odd_names.txt"), "w", encoding="utf-8") as n:
        n.write(odd_in + "\0" + odd_out)

    # A reference that rounded differently (as another runtime would: 3e-5
    # of the output's largest value on every element): element by element
    # the near-zero elements fail, relative to the output (--normwise) all
    # pass; a real error of 1% of the largest value fails both.
    x = np.array([[100.0, -50.0, 1e-3], [2e-4, 30.0, -7.0]], np.float32)
    m = model("rounded", [helper.make_node("Sub", ["x", "z"], ["y"])],
              [f("x", [2, 3])], [f("y", [2, 3])],
              [numpy_helper.from_array(np.zeros(3, np.float32), "z")])
    save(out, "rounded", m, [("x", x)], [("y", x + np.float32(3e-3))])
    save(out, "rounded", m, [("x", x)], [("y", x + np.float32(1.0))],
         case="test_data_set_1")

    # A deep network (24 MatMul + Add + Tanh layers, gain 2.5: rounding
    # grows layer by layer): the test data holds
    # numpy's float32 chain (another runtime's rounding); deep64 holds the
    # float64 inputs and numpy's float64 result, which the float64 copy
    # (nnapi-compile --float64) must reproduce.
    rng = np.random.default_rng(8)
    layers, width = 24, 32
    ws = [(rng.standard_normal((width, width)) * 2.5 / np.sqrt(width)).astype(
        np.float32) for _ in range(layers)]
    bs = [(rng.standard_normal(width) * 0.1).astype(np.float32)
          for _ in range(layers)]
    nodes, inits, v = [], [], "x"
    for i in range(layers):
        nodes += [helper.make_node("MatMul", [v, "w%d" % i], ["m%d" % i]),
                  helper.make_node("Add", ["m%d" % i, "b%d" % i], ["a%d" % i]),
                  helper.make_node("Tanh", ["a%d" % i],
                                   ["y" if i == layers - 1 else "t%d" % i])]
        inits += [numpy_helper.from_array(ws[i], "w%d" % i),
                  numpy_helper.from_array(bs[i], "b%d" % i)]
        v = "t%d" % i
    x = rng.standard_normal((4, width)).astype(np.float32)
    m = model("deep", nodes, [f("x", [4, width])], [f("y", [4, width])], inits)
    y32, y64 = x, x.astype(np.float64)
    for w, b in zip(ws, bs):
        y32 = np.tanh(y32 @ w + b).astype(np.float32)
        y64 = np.tanh(y64 @ w.astype(np.float64) + b.astype(np.float64))
    save(out, "deep", m, [("x", x)], [("y", y32)])
    save(out, "deep64", m, [("x", x.astype(np.float64))], [("y", y64)])

    # Empty tensors beside ordinary ones: a Slice starting beyond the end, a
    # Reshape of an empty graph input to another empty shape (allowzero),
    # both outputs without elements, next to a Relu of x.
    x = np.arange(6, dtype=np.float32).reshape(2, 3) - 2
    e = np.zeros((0, 3), np.float32)
    m = model("empty", [
        helper.make_node("Relu", ["x"], ["y"]),
        helper.make_node("Slice", ["x", "start", "end", "axis"], ["s"]),
        helper.make_node("Reshape", ["e", "shape"], ["r"], allowzero=1)],
        [f("x", [2, 3]), f("e", [0, 3])],
        [f("s", [2, 0]), f("y", [2, 3]), f("r", [3, 0])],
        [numpy_helper.from_array(np.array([5], np.int64), "start"),
         numpy_helper.from_array(np.array([9], np.int64), "end"),
         numpy_helper.from_array(np.array([1], np.int64), "axis"),
         numpy_helper.from_array(np.array([3, 0], np.int64), "shape")],
        opset=14)
    save(out, "empty", m, [("x", x), ("e", e)],
         [("s", np.zeros((2, 0), np.float32)), ("y", np.maximum(x, 0)),
          ("r", np.zeros((3, 0), np.float32))])

    # bfloat16: Cast and CastLike to it (round to nearest, ties to even, as
    # ONNX's helper and ONNX Runtime round; NaN stays NaN; the largest
    # floats round to infinity), from it (exact), and a bfloat16 graph input
    # passed on by Identity and widened. Expected values from the bits.
    def to_bf16(a):
        b = a.astype(np.float32).view(np.uint32).astype(np.uint64)
        r = ((b + 0x7FFF + ((b >> 16) & 1)) >> 16).astype(np.uint16)
        return np.where(np.isnan(a), np.uint16(0x7FC0), r)

    def bf16_tensor(name, bits):
        t = onnx.TensorProto()
        t.name, t.data_type = name, TensorProto.BFLOAT16
        t.dims.extend(bits.shape)
        t.raw_data = bits.astype("<u2").tobytes()
        return t

    x = np.array([1.0, 0.48033667, 1.00390625, 1.01171875, -2.5e-39, 3.4e38,
                  np.nan, -np.inf, -0.0, 1e-3], np.float32)
    bits = to_bf16(x)
    widened = (bits.astype(np.uint32) << 16).view(np.float32)
    b_in = np.array([0x3F80, 0xC049, 0x7F80, 0x0001, 0x8000], np.uint16)
    b_wide = (b_in.astype(np.uint32) << 16).view(np.float32)
    bf = lambda name, shape: helper.make_tensor_value_info(
        name, TensorProto.BFLOAT16, shape)
    m = model("bfloat16", [
        helper.make_node("Cast", ["x"], ["y"], to=TensorProto.BFLOAT16),
        helper.make_node("Cast", ["y"], ["z"], to=TensorProto.FLOAT),
        helper.make_node("CastLike", ["x", "like"], ["c"]),
        helper.make_node("Identity", ["b"], ["i"]),
        helper.make_node("Cast", ["b"], ["w"], to=TensorProto.FLOAT),
        # A bfloat16 Constant node, widened.
        helper.make_node("Constant", [], ["k"],
                         value=bf16_tensor("kv", np.array([0x4049], np.uint16))),
        helper.make_node("Cast", ["k"], ["kf"], to=TensorProto.FLOAT)],
        [f("x", [10]), bf("b", [5])],
        [bf("y", [10]), f("z", [10]), bf("c", [10]), bf("i", [5]), f("w", [5]),
         f("kf", [1])],
        [bf16_tensor("like", np.array([0], np.uint16))], opset=15)
    onnx.save(m, os.path.join(out, "bfloat16.onnx"))
    d = os.path.join(out, "bfloat16", "test_data_set_0")
    os.makedirs(d, exist_ok=True)
    tensors = [("input_0", numpy_helper.from_array(x, "x")),
               ("input_1", bf16_tensor("b", b_in)),
               ("output_0", bf16_tensor("y", bits)),
               ("output_1", numpy_helper.from_array(widened, "z")),
               ("output_2", bf16_tensor("c", bits)),
               ("output_3", bf16_tensor("i", b_in)),
               ("output_4", numpy_helper.from_array(b_wide, "w")),
               ("output_5", numpy_helper.from_array(
                   np.array([3.140625], np.float32), "kf"))]
    for fname, t in tensors:
        with open(os.path.join(d, fname + ".pb"), "wb") as fh:
            fh.write(t.SerializeToString())

    # Resize's scales stay float32 in the float64 copy (its schema takes no
    # other type).
    x = np.arange(8, dtype=np.float32).reshape(1, 2, 2, 2) / 3
    m = model("resize_scales", [helper.make_node("Resize", ["x", "", "s"], ["y"],
                                                 mode="nearest")],
              [f("x", [1, 2, 2, 2])], [f("y", [1, 2, 4, 4])],
              [numpy_helper.from_array(np.array([1, 1, 2, 2], np.float32), "s")])
    save(out, "resize_scales", m, [("x", x)],
         [("y", x.repeat(2, axis=2).repeat(2, axis=3))])

    # A cycle cannot be sorted: refused, naming a node.
    cycle = model("cycle", [helper.make_node("Add", ["x", "r"], ["a"], name="first"),
                            helper.make_node("Relu", ["a"], ["r"], name="second")],
                  [f("x", [2])], [f("a", [2])])
    onnx.save(cycle, os.path.join(out, "cycle.onnx"))

    # Newer than Debian's libonnx 1.12 (opset 17, IR version 8): read.
    relu = [helper.make_node("Relu", ["x"], ["y"], name="relu")]
    m = model("new", relu, [f("x", [2])], [f("y", [2])], opset=18)
    m.ir_version = 8
    onnx.save(m, os.path.join(out, "opset18.onnx"))
    m = model("new", relu, [f("x", [2])], [f("y", [2])], opset=17)
    m.ir_version = 9
    onnx.save(m, os.path.join(out, "ir9.onnx"))
    # Newer than the importer reads (opset 21, IR version 10).
    m = model("new", relu, [f("x", [2])], [f("y", [2])], opset=22)
    m.ir_version = 10
    onnx.save(m, os.path.join(out, "opset22.onnx"))
    m = model("new", relu, [f("x", [2])], [f("y", [2])], opset=17)
    m.ir_version = 11
    onnx.save(m, os.path.join(out, "ir11.onnx"))


if __name__ == "__main__":
    main()
