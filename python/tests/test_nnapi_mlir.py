"""nnapi_mlir: compile, load and run, checked against numpy and host-only
runs; every documented error raises its documented type."""
import os

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

import nnapi_mlir
from conftest import EXAMPLES, SOURCE_DIR

# A TOSA model (text): y = relu(x * w + b) over [2, 8], and its numpy twin.
W = np.linspace(-1.0, 1.0, 16, dtype=np.float32).reshape(2, 8)
B = np.float32(0.25)
TOSA = """
func.func @main(%%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %%w = "tosa.const"() {value = dense<%s> : tensor<2x8xf32>} : () -> tensor<2x8xf32>
  %%b = "tosa.const"() {value = dense<%s> : tensor<1x1xf32>} : () -> tensor<1x1xf32>
  %%0 = tosa.mul %%x, %%w {shift = 0 : i8} : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %%1 = tosa.add %%0, %%b : (tensor<2x8xf32>, tensor<1x1xf32>) -> tensor<2x8xf32>
  %%2 = tosa.clamp %%1 {min_fp = 0.0 : f32, max_fp = 3.4e38 : f32, min_int = 0 : i64, max_int = 2147483647 : i64} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return %%2 : tensor<2x8xf32>
}
""" % ("[" + ", ".join("[" + ", ".join(repr(float(v)) for v in row) + "]"
                       for row in W) + "]", "%r" % float(B))


def tosa_reference(x):
    return np.maximum(x * W + B, 0)


def dynamic_matmul_onnx(path):
    """y = x @ M with a symbolic batch: x is ['batch', 4], M a constant."""
    m = np.arange(12, dtype=np.float32).reshape(4, 3) / 10
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["x", "M"], ["y"], name="mm")], "dyn",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", 3])],
        [numpy_helper.from_array(m, "M")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, str(path))
    return m


# --- compile + run --------------------------------------------------------

def test_cnn_matches_numpy_and_host_only(cnn_so):
    path, summary = cnn_so
    model = nnapi_mlir.load(path)
    x = np.load(EXAMPLES / "onnx" / "cnn_input.npy")
    expected = np.load(EXAMPLES / "onnx" / "cnn_expected.npy")
    nnapi_mlir.runtime_stats(reset=True)
    (y,) = model.run(x)
    on_nnapi, failed = nnapi_mlir.runtime_stats()
    assert on_nnapi == len(summary.partitions) >= 1 and failed == 0
    np.testing.assert_allclose(y, expected, rtol=1e-4, atol=1e-6)
    nnapi_mlir.set_host_only(True)
    (host,) = model.run({"image": x})
    assert nnapi_mlir.runtime_stats()[0] == on_nnapi  # no NNAPI run
    np.testing.assert_allclose(host, expected, rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(y, host, rtol=1e-5, atol=1e-7)


def test_signature(cnn_so):
    model = nnapi_mlir.load(cnn_so[0])
    assert [(t.name, t.shape, t.dtype) for t in model.inputs] == [
        ("image", (1, 3, 32, 32), np.dtype(np.float32))]
    assert [(t.name, t.shape, t.dtype) for t in model.outputs] == [
        ("probs", (1, 10), np.dtype(np.float32))]
    assert model.partitions == 1
    assert model.inputs[0].nbytes == 3 * 32 * 32 * 4


def test_summary_explains_placement(cnn_so):
    summary = cnn_so[1]
    assert summary.feature_level == 7
    (p,) = summary.partitions
    assert p.ops["tosa.conv2d"] == 2 and p.blob_bytes > 0
    assert p.feature_level >= 1
    assert summary.host_ops, "the softmax and the classifier stay on the host"
    assert all(op.reason for op in summary.host_ops)
    assert 0 < summary.estimated_latency_us <= summary.all_host_latency_us
    assert "partition summary (target feature level 7)" in str(summary)
    assert "nnapi @main_nnapi_0" in str(summary)


def test_tosa_from_bytes_in_memory(tmp_path):
    summary = nnapi_mlir.compile(TOSA.encode(), None)
    assert summary.output[:4] == b"\x7fELF"
    path = tmp_path / "tosa.so"
    path.write_bytes(summary.output)
    model = nnapi_mlir.load(path)
    x = np.linspace(-2, 2, 16, dtype=np.float32).reshape(2, 8)
    (y,) = model(x)
    np.testing.assert_allclose(y, tosa_reference(x), rtol=1e-6, atol=1e-7)


def test_host_only_compile(tmp_path):
    path = tmp_path / "host.so"
    summary = nnapi_mlir.compile(EXAMPLES / "onnx" / "cnn.onnx", path,
                                 host_only=True)
    assert summary.partitions == []
    # Nothing was placed: no estimate rather than a zero.
    assert summary.host_ops == [] and summary.estimated_latency_us is None
    model = nnapi_mlir.load(path)
    assert model.partitions == 0
    (y,) = model.run(np.load(EXAMPLES / "onnx" / "cnn_input.npy"))
    np.testing.assert_allclose(y, np.load(EXAMPLES / "onnx" /
                                          "cnn_expected.npy"),
                               rtol=1e-4, atol=1e-6)


def test_expose_values(tmp_path):
    # Every ONNX value as an output, after the model's own: the first output
    # is unchanged, and the value feeding it (the last node's input) equals
    # what a numpy softmax of it gives.
    path = tmp_path / "all.so"
    nnapi_mlir.compile(EXAMPLES / "onnx" / "cnn.onnx", path, host_only=True,
                       expose_values="all")
    model = nnapi_mlir.load(path)
    graph = onnx.load(str(EXAMPLES / "onnx" / "cnn.onnx")).graph
    assert model.output_names[0] == graph.output[0].name
    assert len(model.output_names) > 3
    outputs = dict(zip(model.output_names,
                       model.run(np.load(EXAMPLES / "onnx" / "cnn_input.npy"))))
    np.testing.assert_allclose(
        outputs[graph.output[0].name],
        np.load(EXAMPLES / "onnx" / "cnn_expected.npy"), rtol=1e-4, atol=1e-6)
    last = graph.node[-1]
    assert last.op_type == "Softmax"
    logits = outputs[last.input[0]].astype(np.float64)
    e = np.exp(logits - logits.max(axis=-1, keepdims=True))
    np.testing.assert_allclose(outputs[last.output[0]],
                               e / e.sum(axis=-1, keepdims=True), rtol=1e-4,
                               atol=1e-6)
    with pytest.raises(nnapi_mlir.CompileError, match="'all' goes alone"):
        nnapi_mlir.compile(EXAMPLES / "onnx" / "cnn.onnx", None,
                           expose_values=["all", "x"])
    with pytest.raises(nnapi_mlir.CompileError,
                       match="no node produces a value named 'nope'"):
        nnapi_mlir.compile(EXAMPLES / "onnx" / "cnn.onnx", None,
                           expose_values=["nope"])


def test_input_shapes_specialise_dynamic_model(tmp_path):
    m = dynamic_matmul_onnx(tmp_path / "dyn.onnx")
    path = tmp_path / "dyn.so"
    nnapi_mlir.compile(tmp_path / "dyn.onnx", path, input_shapes={"x": [5, 4]})
    model = nnapi_mlir.load(path)
    assert model.inputs[0].shape == (5, 4)
    x = np.random.default_rng(0).standard_normal((5, 4)).astype(np.float32)
    (y,) = model.run(x=x)
    np.testing.assert_allclose(y, x @ m, rtol=1e-5, atol=1e-6)


# y = relu(x * w + b) over [?, 8], w one row of W, the rows' count in
# [1..64].
TOSA_DYNAMIC = """
func.func @main(%%x: tensor<?x8xf32> {nnapi.dim_ranges = array<i64: 1, 64>}) -> tensor<?x8xf32> {
  %%w = "tosa.const"() {value = dense<[%s]> : tensor<1x8xf32>} : () -> tensor<1x8xf32>
  %%b = "tosa.const"() {value = dense<%r> : tensor<1x1xf32>} : () -> tensor<1x1xf32>
  %%0 = tosa.mul %%x, %%w {shift = 0 : i8} : (tensor<?x8xf32>, tensor<1x8xf32>) -> tensor<?x8xf32>
  %%1 = tosa.add %%0, %%b : (tensor<?x8xf32>, tensor<1x1xf32>) -> tensor<?x8xf32>
  %%2 = tosa.clamp %%1 {min_fp = 0.0 : f32, max_fp = 3.4e38 : f32, min_int = 0 : i64, max_int = 2147483647 : i64} : (tensor<?x8xf32>) -> tensor<?x8xf32>
  return %%2 : tensor<?x8xf32>
}
""" % ("[" + ", ".join(repr(float(v)) for v in W[0]) + "]", float(B))


def test_dynamic_dimensions_run_at_any_size_in_range(tmp_path):
    w = W[:1]
    path = tmp_path / "dyn.so"
    nnapi_mlir.compile(TOSA_DYNAMIC.encode(), path)
    model = nnapi_mlir.load(path)
    assert model.dynamic
    x_spec, y_spec = model.inputs[0], model.outputs[0]
    assert x_spec.shape == (None, 8) and x_spec.nbytes == 0
    assert (x_spec.min_shape, x_spec.max_shape) == ((1, 8), (64, 8))
    assert y_spec.shape == (None, 8)
    assert model.output_shapes((5, 8)) == [(5, 8)]
    rng = np.random.default_rng(0)
    for rows in (1, 3, 17, 64):
        x = rng.standard_normal((rows, 8)).astype(np.float32)
        (y,) = model.run(x)
        assert y.shape == (rows, 8)
        np.testing.assert_allclose(y, np.maximum(x * w + B, 0), rtol=1e-6)
    with pytest.raises(nnapi_mlir.ShapeError, match=r"sizes \(1, 8\) to \(64, 8\)"):
        model.run(np.zeros((65, 8), np.float32))
    with pytest.raises(nnapi_mlir.ShapeError, match="has shape"):
        model.run(np.zeros((4, 7), np.float32))
    with pytest.raises(nnapi_mlir.ShapeError,
                       match=r"dimension 0 is 0, outside the range the model "
                             r"was compiled for \[1..64\]"):
        model.output_shapes((0, 8))


def test_dynamic_partition_specialized_per_shape(tmp_path):
    # The same model with a device profile that offloads everything: its
    # partition has a dynamic dimension, which the runtime specializes to
    # each new shape (and finds again for a shape it has seen).
    w = W[:1]
    path = tmp_path / "dyn_nnapi.so"
    summary = nnapi_mlir.compile(
        TOSA_DYNAMIC.encode(), path,
        device_profile=SOURCE_DIR / "test" / "Inputs" / "eager.json")
    assert len(summary.partitions) == 1
    model = nnapi_mlir.load(path)
    nnapi_mlir.set_host_only(False)
    nnapi_mlir.runtime_stats(reset=True)
    rng = np.random.default_rng(1)
    for rows in (3, 17, 3, 64):
        x = rng.standard_normal((rows, 8)).astype(np.float32)
        (y,) = model.run(x)
        assert y.shape == (rows, 8)
        np.testing.assert_allclose(y, np.maximum(x * w + B, 0), rtol=1e-6,
                                   atol=1e-7)
    assert nnapi_mlir.runtime_stats() == (4, 0)
    assert nnapi_mlir.shape_stats(reset=True) == (3, 1, 0)
    # Host-only: the host copy at any size; no specialization.
    nnapi_mlir.set_host_only(True)
    try:
        x = rng.standard_normal((5, 8)).astype(np.float32)
        (y,) = model.run(x)
        np.testing.assert_allclose(y, np.maximum(x * w + B, 0), rtol=1e-6,
                                   atol=1e-7)
        assert nnapi_mlir.shape_stats() == (0, 0, 0)
    finally:
        nnapi_mlir.set_host_only(False)
    # With typical shapes compiled in, each has a static copy of the model
    # with static partitions, which calls at that shape run (no
    # specialization); other shapes specialize the dynamic partition.
    nnapi_mlir.compile(
        TOSA_DYNAMIC.encode(), tmp_path / "buckets.so",
        device_profile=SOURCE_DIR / "test" / "Inputs" / "eager.json",
        shape_buckets="4x8;32x8")
    nnapi_mlir.shape_stats(reset=True)
    model = nnapi_mlir.load(tmp_path / "buckets.so")
    for rows, stats in ((32, (0, 0, 0)), (4, (0, 0, 0)), (9, (1, 0, 0))):
        x = rng.standard_normal((rows, 8)).astype(np.float32)
        (y,) = model.run(x)
        np.testing.assert_allclose(y, np.maximum(x * w + B, 0), rtol=1e-6,
                                   atol=1e-7)
        assert nnapi_mlir.shape_stats() == stats


def test_onnx_dimension_kept_dynamic(tmp_path):
    m = dynamic_matmul_onnx(tmp_path / "dyn.onnx")
    path = tmp_path / "dyn.so"
    nnapi_mlir.compile(tmp_path / "dyn.onnx", path,
                       input_shapes={"x": [(2, 40), 4]})
    model = nnapi_mlir.load(path)
    assert model.inputs[0].shape == (None, 4)
    assert model.inputs[0].max_shape == (40, 4)
    for rows in (2, 9, 40):
        x = np.random.default_rng(rows).standard_normal(
            (rows, 4)).astype(np.float32)
        (y,) = model.run(x=x)
        np.testing.assert_allclose(y, x @ m, rtol=1e-5, atol=1e-6)
    with pytest.raises(nnapi_mlir.ShapeError, match="has shape"):
        model.run(x=np.zeros((1, 4), np.float32))
    unbounded = tmp_path / "unbounded.so"
    nnapi_mlir.compile(tmp_path / "dyn.onnx", unbounded,
                       input_shapes={"x": [None, 4]})
    assert nnapi_mlir.load(unbounded).inputs[0].max_shape == (2**31 - 1, 4)
    with pytest.raises(nnapi_mlir.CompileError, match="range"):
        nnapi_mlir.compile(tmp_path / "dyn.onnx", None,
                           input_shapes={"x": [(5, 2), 4]})
    # A typical size within the range (placement counts the dimension at
    # it); one outside is refused.
    typical = tmp_path / "typical.so"
    nnapi_mlir.compile(tmp_path / "dyn.onnx", typical,
                       input_shapes={"x": [(2, 40, 30), 4]})
    x = np.random.default_rng(7).standard_normal((30, 4)).astype(np.float32)
    (y,) = nnapi_mlir.load(typical).run(x=x)
    np.testing.assert_allclose(y, x @ m, rtol=1e-5, atol=1e-6)
    with pytest.raises(nnapi_mlir.CompileError, match="TYPICAL"):
        nnapi_mlir.compile(tmp_path / "dyn.onnx", None,
                           input_shapes={"x": [(2, 40, 50), 4]})


def test_names_with_any_characters_round_trip(tmp_path):
    """Names are data: quotes, spaces, '=', '%', newlines, UTF-8 and very
    long names come back from the compiled library as they were, and run()
    takes them as keywords (through **)."""
    odd_in = 'x = "in put" %41\n\u00e9\u65e5'
    odd_out = '{"label": "hey", "p": 1}\t' + "n" * 1000
    graph = helper.make_graph(
        [helper.make_node("Relu", [odd_in], [odd_out])], "odd",
        [helper.make_tensor_value_info(odd_in, TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info(odd_out, TensorProto.FLOAT, [2, 3])])
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    onnx.save(m, tmp_path / "odd.onnx")
    path = tmp_path / "odd.so"
    nnapi_mlir.compile(tmp_path / "odd.onnx", path)
    model = nnapi_mlir.load(path)
    assert model.inputs[0].name == odd_in
    assert model.outputs[0].name == odd_out
    x = np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3)
    (y,) = model.run(**{odd_in: x})
    np.testing.assert_array_equal(y, np.maximum(x, 0))


def test_options_reach_the_partitioner(tmp_path):
    report = tmp_path / "placement"
    summary = nnapi_mlir.compile(
        EXAMPLES / "onnx" / "cnn.onnx", tmp_path / "m.so",
        stop_ops=["tosa.conv2d"], search_budget=1, report=report,
        emit_remarks=True)
    assert all("tosa.conv2d" not in p.ops for p in summary.partitions)
    assert any(op.type == "tosa.conv2d" and "stop-ops" in op.reason
               for op in summary.host_ops)
    assert any(": remark: " in d for d in summary.diagnostics)
    text = (tmp_path / "placement.json").read_text()
    assert "search-budget=1" in text
    assert os.path.exists(tmp_path / "placement.html")


def test_option_values(tmp_path):
    # None means "the default"; any iterable is a list option.
    summary = nnapi_mlir.compile(EXAMPLES / "onnx" / "cnn.onnx", None,
                                 placement=None, emit="mlir",
                                 stop_ops={"tosa.conv2d"})
    assert all("tosa.conv2d" not in p.ops for p in summary.partitions)
    with pytest.raises(nnapi_mlir.CompileError, match="may not contain ','"):
        nnapi_mlir.compile(TOSA.encode(), None, stop_ops=["a,b"])
    with pytest.raises(nnapi_mlir.CompileError, match="quotes or braces"):
        nnapi_mlir.compile(TOSA.encode(), None, device_profile='x"y')


def test_input_values(tmp_path):
    """Binding a shape-deciding input (Reshape's shape) from bytes or a
    file; a path that cannot be read is a CompileError."""
    graph = helper.make_graph(
        [helper.make_node("Reshape", ["x", "shape"], ["y"])], "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 6]),
         helper.make_tensor_value_info("shape", TensorProto.INT64, [2])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["a", "b"])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    proto = numpy_helper.from_array(np.array([3, 4], np.int64))
    (tmp_path / "shape.pb").write_bytes(proto.SerializeToString())
    x = np.arange(12, dtype=np.float32).reshape(2, 6)
    shape = np.array([3, 4], np.int64)
    x_proto = numpy_helper.from_array(x).SerializeToString()
    # input_values binds; specialize_values binds only what decides a shape
    # (x stays runtime data: the other x below is not refused).
    for kind, given in (
            ("input_values", {"shape": proto.SerializeToString()}),
            ("input_values", {"shape": tmp_path / "shape.pb"}),
            ("specialize_values", {"shape": tmp_path / "shape.pb",
                                   "x": x_proto})):
        path = tmp_path / "r.so"
        summary = nnapi_mlir.compile(model.SerializeToString(), path,
                                     **{kind: given})
        if kind == "specialize_values":
            assert any("input 'shape' is needed at compile time" in line
                       for line in summary.diagnostics)
        m = nnapi_mlir.load(path)
        assert m.input_names == ["x", "shape"]
        assert [t.bound for t in m.inputs] == [False, True]
        (y,) = m.run(x, shape)
        np.testing.assert_array_equal(y, x.reshape(3, 4))
        (y,) = m.run(x + 1, shape)
        np.testing.assert_array_equal(y, (x + 1).reshape(3, 4))
        # Every run checks the bound input.
        with pytest.raises(nnapi_mlir.InputError,
                           match="input 1 \\('shape'\\) does not hold the "
                                 "value the model was compiled for"):
            m.run(x, np.array([4, 3], np.int64))
        m.close()
    with pytest.raises(nnapi_mlir.CompileError, match="cannot read"):
        nnapi_mlir.compile(model.SerializeToString(), None,
                           input_values={"shape": tmp_path})
    with pytest.raises(nnapi_mlir.CompileError,
                       match=r"specialize_values\['shape'\]: cannot read"):
        nnapi_mlir.compile(model.SerializeToString(), None,
                           specialize_values={"shape": tmp_path})


def test_every_option_is_listed():
    names = {name for name, _, _, _ in nnapi_mlir.options()}
    assert {"feature_level", "device_profile", "search_budget", "stop_ops",
            "host_only", "max_partitions", "report"} <= names


def test_emit_kinds(tmp_path):
    for emit, check in [("mlir", lambda b: b"nnapi.partition" in b or
                         b"func.func" in b),
                        ("llvm", lambda b: b"define" in b),
                        ("obj", lambda b: b[:4] == b"\x7fELF")]:
        summary = nnapi_mlir.compile(TOSA.encode(), None, emit=emit)
        assert check(summary.output), emit


# --- errors ---------------------------------------------------------------

def test_compile_errors(tmp_path):
    with pytest.raises(nnapi_mlir.CompileError, match="cannot parse"):
        nnapi_mlir.compile(b"func.func @main(", None)
    with pytest.raises(nnapi_mlir.CompileError, match="cannot read"):
        nnapi_mlir.compile(tmp_path / "missing.mlir", None)
    with pytest.raises(nnapi_mlir.CompileError,
                       match="feature-level must be 1..8, got 9"):
        nnapi_mlir.compile(TOSA.encode(), None, feature_level=9)
    with pytest.raises(nnapi_mlir.CompileError, match="unknown option 'bogus'"):
        nnapi_mlir.compile(TOSA.encode(), None, bogus=1)
    with pytest.raises(nnapi_mlir.CompileError, match="emit must be"):
        nnapi_mlir.compile(TOSA.encode(), None, emit="exe")
    with pytest.raises(nnapi_mlir.CompileError, match="unknown CPU 'bogus'"):
        nnapi_mlir.compile(TOSA.encode(), None, cpu="bogus")
    with pytest.raises(nnapi_mlir.CompileError, match="cannot open output"):
        nnapi_mlir.compile(TOSA.encode(), tmp_path / "no" / "dir" / "m.so")
    with pytest.raises(nnapi_mlir.CompileError,
                       match="apply to ONNX models"):
        nnapi_mlir.compile(TOSA.encode(), None, input_shapes={"x": [1]})
    with pytest.raises(TypeError, match="path or bytes"):
        nnapi_mlir.compile(42, None)
    assert issubclass(nnapi_mlir.CompileError, nnapi_mlir.Error)


def test_unsupported_onnx_op_names_the_node(tmp_path):
    graph = helper.make_graph(
        [helper.make_node("Det", ["x"], ["y"], name="the_det")], "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 2])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    with pytest.raises(nnapi_mlir.CompileError) as info:
        nnapi_mlir.compile(model.SerializeToString(), None)
    assert "the_det" in str(info.value) and "Det" in str(info.value)


def test_model_errors(tmp_path):
    with pytest.raises(nnapi_mlir.ModelError, match="cannot load model"):
        nnapi_mlir.load(tmp_path / "missing.so")
    text = tmp_path / "text.so"
    text.write_text("not a shared library\n")
    with pytest.raises(nnapi_mlir.ModelError, match="cannot load model"):
        nnapi_mlir.load(text)
    assert issubclass(nnapi_mlir.ModelError, nnapi_mlir.Error)


def test_not_a_model(tmp_path):
    path = tmp_path / "empty.so"
    c = tmp_path / "empty.c"
    c.write_text("int not_a_model(void) { return 1; }\n")
    assert os.system("cc -shared -fPIC -o %s %s" % (path, c)) == 0
    with pytest.raises(nnapi_mlir.ModelError,
                       match="is not an nnapi-mlir model"):
        nnapi_mlir.load(path)


def test_run_errors(cnn_so):
    model = nnapi_mlir.load(cnn_so[0])
    x = np.zeros((1, 3, 32, 32), np.float32)
    with pytest.raises(nnapi_mlir.InputError, match="takes 1 input"):
        model.run(x, x)
    with pytest.raises(nnapi_mlir.InputError, match="takes 1 input"):
        model.run()
    with pytest.raises(nnapi_mlir.InputError, match="unknown input"):
        model.run({"images": x})
    with pytest.raises(nnapi_mlir.InputError, match="by position or by name"):
        model.run(x, image=x)
    with pytest.raises(nnapi_mlir.ShapeError, match=r"\(1, 3, 32, 31\)"):
        model.run(x[..., :31])
    with pytest.raises(nnapi_mlir.DTypeError, match="float64"):
        model.run(x.astype(np.float64))
    # A nested list takes the model's dtype.
    (from_list,) = model.run(x.tolist())
    (from_array,) = model.run(x)
    np.testing.assert_array_equal(from_list, from_array)
    # Below the Python checks, the runtime refuses wrong sizes itself, and
    # the binding a wrong rank (the runtime reads rank-many dimensions).
    with pytest.raises(ValueError,
                       match=r"input 0 \('image'\) dimension 3 is 31, the "
                             r"model was compiled for 32"):
        model._model.run([np.zeros((1, 3, 32, 31), np.float32)],
                         [np.zeros((1, 10), np.float32)])
    with pytest.raises(ValueError, match="input 0 has rank 1, the model "
                                         "takes rank 4"):
        model._model.run([np.zeros(3, np.float32)],
                         [np.zeros((1, 10), np.float32)])
    for error in (nnapi_mlir.InputError, nnapi_mlir.ShapeError):
        assert issubclass(error, ValueError)
        assert issubclass(error, nnapi_mlir.Error)
    assert issubclass(nnapi_mlir.DTypeError, TypeError)
    # A non-contiguous view of the right shape is accepted (copied).
    big = np.load(EXAMPLES / "onnx" / "cnn_input.npy")
    view = np.repeat(big, 2, axis=3)[..., ::2]
    assert not view.flags["C_CONTIGUOUS"]
    (y,) = model.run(view)
    np.testing.assert_allclose(y, np.load(EXAMPLES / "onnx" /
                                          "cnn_expected.npy"),
                               rtol=1e-4, atol=1e-6)


def test_reloading_a_model_with_other_weights(tmp_path):
    """A model closed and another loaded at the same address, whose blob
    differs only after its first bytes: the runtime must not reuse the
    first model's NNAPI partition (nor its unmapped constants)."""
    model_a = onnx.load(str(EXAMPLES / "onnx" / "cnn.onnx"))
    model_b = onnx.load(str(EXAMPLES / "onnx" / "cnn.onnx"))
    # The last convolution's weights (inside the NNAPI partition), scaled.
    inits = [i for i in model_b.graph.initializer if i.dims and len(i.dims) == 4]
    last = inits[-1]
    w = numpy_helper.to_array(last) * 1.5
    last.CopyFrom(numpy_helper.from_array(w.astype(np.float32), last.name))
    x = np.load(EXAMPLES / "onnx" / "cnn_input.npy")
    results = []
    for i, m in enumerate([model_a, model_b]):
        path = tmp_path / ("m%d.so" % i)
        summary = nnapi_mlir.compile(m.SerializeToString(), path)
        assert len(summary.partitions) == 1
        model = nnapi_mlir.load(path)
        (y,) = model.run(x)
        nnapi_mlir.set_host_only(True)
        (host,) = model.run(x)
        nnapi_mlir.set_host_only(False)
        model.close()
        np.testing.assert_allclose(y, host, rtol=1e-5, atol=1e-6)
        results.append(y)
    assert np.abs(results[0] - results[1]).max() > 1e-4


def test_closed_model(cnn_so):
    with nnapi_mlir.load(cnn_so[0]) as model:
        (y,) = model.run(np.zeros((1, 3, 32, 32), np.float32))
    with pytest.raises(nnapi_mlir.ModelError, match="was closed"):
        model.run(np.zeros((1, 3, 32, 32), np.float32))


def test_close_while_another_thread_runs(cnn_so):
    """close() on one thread while run() loops on another: close waits for
    the run in flight, later runs raise ModelError (before, the interpreter
    crashed: both release the GIL and nothing made close wait)."""
    import threading
    model = nnapi_mlir.load(cnn_so[0])
    x = np.load(EXAMPLES / "onnx" / "cnn_input.npy")
    expected = np.load(EXAMPLES / "onnx" / "cnn_expected.npy")
    started, outcome = threading.Event(), []

    def loop():
        try:
            while True:
                (y,) = model.run(x)
                np.testing.assert_allclose(y, expected, rtol=1e-4, atol=1e-6)
                started.set()
        except nnapi_mlir.ModelError as e:
            outcome.append(str(e))

    threads = [threading.Thread(target=loop) for _ in range(4)]
    for t in threads:
        t.start()
    assert started.wait(30)
    model.close()
    for t in threads:
        t.join(30)
    assert len(outcome) == 4
    assert all("was closed" in text for text in outcome)


# --- devices, runtime options, other targets --------------------------------

def test_devices_and_runtime_options(cnn_so, tmp_path):
    path, _ = cnn_so
    devices = nnapi_mlir.devices()
    assert [d["name"] for d in devices] == ["nnapi-mlir-host"]
    assert devices[0]["type"] == "cpu" and devices[0]["preference"] == 0
    model = nnapi_mlir.load(path)
    x = np.load(EXAMPLES / "onnx" / "cnn_input.npy")
    expected = np.load(EXAMPLES / "onnx" / "cnn_expected.npy")
    try:
        nnapi_mlir.configure(devices=["nnapi-mlir-host"], timing=True,
                             cache_dir=tmp_path, priority="high")
        (y,) = model.run(x)
        np.testing.assert_allclose(y, expected, rtol=1e-4, atol=1e-6)
        (p,) = nnapi_mlir.partitions()
        assert p["device"] == "nnapi-mlir-host" and p["error"] == ""
        assert p["cached"] and p["executions"] == 1
        assert p["hardware_timed"] == 1 and p["hardware_ns"] > 0
        assert p["driver_timed"] == 1 and p["driver_ns"] >= p["hardware_ns"]
        assert p["failures"] == 0
        assert len(list(tmp_path.glob("*.nnapi-host-cache"))) == 1
        # No such device: the partition runs its host copy, and says why.
        nnapi_mlir.configure(devices="tpu")
        (y,) = model.run(x)
        np.testing.assert_allclose(y, expected, rtol=1e-4, atol=1e-6)
        (p,) = nnapi_mlir.partitions()
        assert p["device"] == "" and "no NNAPI device may run" in p["error"]
        with pytest.raises(nnapi_mlir.InputError,
                           match="'urgent' is not one of low, medium, high"):
            nnapi_mlir.configure(priority="urgent")
        with pytest.raises(nnapi_mlir.InputError,
                           match="unknown runtime option 'thread'"):
            nnapi_mlir.configure(thread=2)
    finally:
        nnapi_mlir.configure(devices=None, timing=None, cache_dir=None,
                             priority=None)


def test_verify_catches_a_lying_device(cnn_so, tmp_path, monkeypatch):
    """The host device negates the largest element of each CONV_2D result
    (NNAPI_MLIR_HOST_LIE); checking every execution against the host copy
    (verify=1) returns the host copy's right values, reports the mismatch,
    records the partition in the quirks record and stops using the device."""
    path, _ = cnn_so
    model = nnapi_mlir.load(path)
    x = np.load(EXAMPLES / "onnx" / "cnn_input.npy")
    expected = np.load(EXAMPLES / "onnx" / "cnn_expected.npy")
    record = tmp_path / "quirks.json"
    monkeypatch.setenv("NNAPI_MLIR_HOST_LIE", "nnapi-mlir-host:CONV_2D:sign")
    try:
        nnapi_mlir.configure(verify=1, quirks=record)
        (y,) = model.run(x)
        np.testing.assert_allclose(y, expected, rtol=1e-4, atol=1e-6)
        (p,) = nnapi_mlir.partitions()
        checks = p["checks"]
        assert checks["checks"] == 1 and checks["mismatches"] == 1
        assert checks["max_error"] > checks["tolerance"] > 0
        assert checks["unit"] == "abs"
        assert "computed wrong values" in checks["left"]
        # One device: nothing to compare single operations with, so the
        # record names the whole partition.
        assert checks["wrong_operations"] == []
        assert "no other device" in checks["note"]
        assert "partition sha256:" in record.read_text()
        (y,) = model.run(x)
        np.testing.assert_allclose(y, expected, rtol=1e-4, atol=1e-6)
        (p,) = nnapi_mlir.partitions()
        assert p["device"] == "" and "computed wrong values" in p["error"]
        # A fresh start reads the record: the device is passed over.
        nnapi_mlir.configure(verify=None)
        (y,) = model.run(x)
        np.testing.assert_allclose(y, expected, rtol=1e-4, atol=1e-6)
        (p,) = nnapi_mlir.partitions()
        assert p["device"] == "" and "quirks record" in p["error"]
        with pytest.raises(nnapi_mlir.InputError,
                           match="is not a failure count from 1 to"):
            nnapi_mlir.configure(max_failures=0)
    finally:
        nnapi_mlir.configure(verify=None, quirks=None)


def test_validate_checks_every_device(cnn_so, monkeypatch):
    """Model.validate(): the host device passes; made to lie about CONV_2D
    it fails, with the mismatch counted (one device: nothing to compare
    single operations with, so none is named)."""
    path, _ = cnn_so
    model = nnapi_mlir.load(path)
    x = np.load(EXAMPLES / "onnx" / "cnn_input.npy")
    (r,) = model.validate(x, sets=1)
    assert r["device"] == "nnapi-mlir-host" and r["result"] == "pass"
    assert r["partition"].startswith("main_nnapi_")
    assert r["checks"] == 2 and r["mismatches"] == 0
    assert 0 <= r["max_error"] <= r["tolerance"]
    monkeypatch.setenv("NNAPI_MLIR_HOST_LIE", "nnapi-mlir-host:CONV_2D:sign")
    (r,) = model.validate(image=x, sets=2)
    assert r["result"] == "fail" and r["mismatches"] == 3
    assert r["max_error"] > r["tolerance"]
    assert "no other device" in r["note"]
    # The options are back: a plain run uses the device, and is right.
    monkeypatch.delenv("NNAPI_MLIR_HOST_LIE")
    nnapi_mlir.configure(devices=None)  # a new compilation, honest again
    (y,) = model.run(x)
    np.testing.assert_allclose(
        y, np.load(EXAMPLES / "onnx" / "cnn_expected.npy"), rtol=1e-4,
        atol=1e-6)
    assert nnapi_mlir.partitions()[0]["device"] == "nnapi-mlir-host"


def test_threads(cnn_so):
    path, _ = cnn_so
    x = np.load(EXAMPLES / "onnx" / "cnn_input.npy")
    try:
        # Three threads even on a 2-CPU machine, where they would be capped.
        nnapi_mlir.configure(threads_force=True)
        results = []
        for n in (1, 2, 3):
            model = nnapi_mlir.load(path, threads=n)
            assert nnapi_mlir.threads() == n
            (y,) = model.run(x)
            results.append(y)
        # The same bits at every thread count.
        assert all(np.array_equal(r, results[0]) for r in results)
        for bad in (0, -1, 5000):
            with pytest.raises(nnapi_mlir.InputError,
                               match="is not a thread count from 1 to 256"):
                nnapi_mlir.load(path, threads=bad)
        for bad in (2.5, True, "2"):
            with pytest.raises(nnapi_mlir.InputError,
                               match="threads must be an integer"):
                nnapi_mlir.configure(threads=bad)
        assert nnapi_mlir.threads() == 3  # a refused value changes nothing
        nnapi_mlir.configure(threads=np.int64(2))  # numpy integers are integers
        assert nnapi_mlir.threads() == 2
    finally:
        nnapi_mlir.configure(threads=None, threads_force=None)
    assert nnapi_mlir.threads() >= 1


def test_log_callback(cnn_so):
    """The runtime's warnings reach a Python callable, once each; None gives
    them back to stderr; a callable that raises does not break the run."""
    path, _ = cnn_so
    x = np.load(EXAMPLES / "onnx" / "cnn_input.npy")
    lines = []
    try:
        nnapi_mlir.set_log_callback(lambda level, message: lines.append((level, message)))
        nnapi_mlir.configure(threads=256)  # more than the CPUs: capped, a warning
        nnapi_mlir.load(path).run(x)
        nnapi_mlir.configure(threads=200)
        nnapi_mlir.set_log_callback(lambda level, message: 1 / 0)
        (y,) = nnapi_mlir.load(path).run(x)
        assert np.allclose(y, np.load(EXAMPLES / "onnx" / "cnn_expected.npy"),
                           rtol=1e-3, atol=1e-4)
    finally:
        nnapi_mlir.set_log_callback(None)
        nnapi_mlir.configure(threads=None)
    assert len(lines) == 1, lines
    level, message = lines[0]
    assert level == 1
    assert message.startswith("threads 256 is more than the"), message


def test_android_shared_library(tmp_path):
    out = tmp_path / "model.so"
    nnapi_mlir.compile(TOSA.encode(), out, target="aarch64-linux-android29")
    header = out.read_bytes()[:20]
    assert header[:4] == b"\x7fELF" and header[18] == 0xB7  # AArch64


def test_tflite_from_path_and_bytes(tmp_path):
    # examples/tflite: an int8 classifier; its expected output is TensorFlow
    # Lite's own (make_example.py says how it was made).
    model_path = EXAMPLES / "tflite" / "classifier.tflite"
    x = np.load(EXAMPLES / "tflite" / "classifier_input.npy")
    want = np.load(EXAMPLES / "tflite" / "classifier_expected.npy")
    for source, name in ((model_path, "path.so"),
                         (model_path.read_bytes(), "bytes.so")):
        nnapi_mlir.compile(source, tmp_path / name,
                           device_profile=SOURCE_DIR / "test" / "Inputs" /
                           "eager.json", signature="serving_default")
        model = nnapi_mlir.load(tmp_path / name)
        # The SignatureDef's names.
        assert model.input_names == ["image"]
        assert model.output_names == ["scores"]
        (y,) = model.run(image=x)
        # Within one quantum of the int8 softmax (1/256); it is exact here.
        np.testing.assert_allclose(y, want, rtol=0, atol=1.0 / 256)


def test_tflite_signature_errors(tmp_path):
    model_path = EXAMPLES / "tflite" / "classifier.tflite"
    with pytest.raises(nnapi_mlir.CompileError,
                       match="the model has no signature 'predict' "
                             r"\(it has: 'serving_default'\)"):
        nnapi_mlir.compile(model_path, tmp_path / "x.so", signature="predict")
    with pytest.raises(nnapi_mlir.CompileError,
                       match="applies to TFLite models"):
        nnapi_mlir.compile(EXAMPLES / "onnx" / "cnn.onnx", tmp_path / "x.so",
                           signature="serving_default")


def test_runtime_arrays_reach_nnapi_as_memory(tmp_path):
    # 128 KiB in and out: above the size given to NNAPI as memory when the
    # array is the runtime's (nnapi_mlir.empty; Model.run's outputs).
    tosa = """
func.func @main(%x: tensor<256x128xf32>) -> tensor<256x128xf32> {
  %b = "tosa.const"() {value = dense<0.5> : tensor<1x1xf32>} : () -> tensor<1x1xf32>
  %0 = tosa.add %x, %b : (tensor<256x128xf32>, tensor<1x1xf32>) -> tensor<256x128xf32>
  %1 = tosa.clamp %0 {min_fp = 0.0 : f32, max_fp = 3.4e38 : f32, min_int = 0 : i64, max_int = 2147483647 : i64} : (tensor<256x128xf32>) -> tensor<256x128xf32>
  return %1 : tensor<256x128xf32>
}
"""
    path = tmp_path / "big.so"
    nnapi_mlir.compile(tosa.encode(), path,
                       device_profile=SOURCE_DIR / "test" / "Inputs" / "eager.json")
    model = nnapi_mlir.load(path)
    rng = np.random.default_rng(1)
    mine = rng.standard_normal((256, 128)).astype(np.float32)
    ours = nnapi_mlir.empty((256, 128), np.float32)
    assert ours.flags["C_CONTIGUOUS"] and ours.ctypes.data % 64 == 0
    ours[...] = mine
    nbytes = mine.nbytes
    for x, memory, pointer in ((ours, 2 * nbytes, 0), (mine, nbytes, nbytes)):
        nnapi_mlir.binding_stats(reset=True)
        (y,) = model.run(x)
        np.testing.assert_array_equal(y, np.maximum(mine + np.float32(0.5), 0))
        assert nnapi_mlir.binding_stats() == (memory, pointer)
    # The output is the runtime's too, and outlives the model.
    model.close()
    assert y.base is not None and float(y.sum()) > 0
    assert nnapi_mlir.empty(3, np.int8).shape == (3,)
    assert nnapi_mlir.empty((0, 4)).size == 0
    with pytest.raises(ValueError, match="negative dimension -2"):
        nnapi_mlir.empty((4, -2))
