#!/usr/bin/python3
"""Writes small ONNX models for the importer tests: ones it must reject with
a clear message, and a few it must import in a particular way.

Usage: make_bad_models.py OUT_DIR
"""
import os
import sys

import onnx
from onnx import TensorProto, helper


def model(nodes, inputs, outputs, inits=(), opset=13):
    g = helper.make_graph(nodes, "bad", inputs, outputs, list(inits))
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 7
    return m


def short_raw(name, elem, dims, size):
    """A tensor whose raw data has `size` bytes, whatever its dims need."""
    t = onnx.TensorProto(name=name, data_type=elem, dims=dims)
    t.raw_data = b"\x01" * size
    return t


def resize_to_4x4(info, **attrs):
    """A Resize of a 1x1x2x2 input (value infos from `info`) to sizes 4x4."""
    return model(
        [helper.make_node("Resize", ["x", "", "", "sizes"], ["y"], **attrs)],
        [info("x", [1, 1, 2, 2])], [info("y", [1, 1, 4, 4])],
        [helper.make_tensor("sizes", TensorProto.INT64, [4], [1, 1, 4, 4])])


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    f = lambda name, shape: helper.make_tensor_value_info(name, TensorProto.FLOAT, shape)
    d = lambda name, shape: helper.make_tensor_value_info(name, TensorProto.DOUBLE, shape)
    models = {
        # An operator the importer does not implement.
        "unsupported_op": model(
            [helper.make_node("Det", ["x"], ["y"], name="det")],
            [f("x", [2, 3, 3])], [f("y", [2])]),
        # Two unsupported operators, each with a consumer: each is named once,
        # the consumers are not blamed for their missing inputs.
        "unsupported_chain": model(
            [helper.make_node("Det", ["x"], ["d"], name="det"),
             helper.make_node("Relu", ["d"], ["y"], name="after_det"),
             helper.make_node("Det", ["x"], ["b"], name="det2"),
             helper.make_node("Relu", ["b"], ["z"], name="after_coin")],
            [f("x", [2, 3, 3])], [f("y", [2]), f("z", [2])]),
        # A supported operator with an unsupported attribute value.
        "unsupported_attr": model(
            [helper.make_node("ConvTranspose", ["x", "w"], ["y"], name="deconv",
                              group=2)],
            [f("x", [1, 2, 4, 4])], [f("y", [1, 2, 5, 5])],
            [helper.make_tensor("w", TensorProto.FLOAT, [2, 1, 2, 2],
                                [1, 2, 3, 4, 5, 6, 7, 8])]),
        # LayerNormalization computing its statistics in another type.
        "layernorm_stash": model(
            [helper.make_node("LayerNormalization", ["x", "g"], ["y"],
                              name="ln", stash_type=10)],
            [f("x", [2, 3])], [f("y", [2, 3])],
            [helper.make_tensor("g", TensorProto.FLOAT, [3], [1, 1, 1])],
            opset=17),
        # An Lp norm NNAPI and the importer do not compute.
        "lp_norm_p3": model(
            [helper.make_node("LpNormalization", ["x"], ["y"], name="lp", p=3)],
            [f("x", [2, 3])], [f("y", [2, 3])], opset=17),
        # A dynamic (symbolic) dimension.
        "dynamic_dim": model(
            [helper.make_node("Relu", ["x"], ["y"], name="relu")],
            [f("x", ["N", 3])], [f("y", ["N", 3])]),
        # A constant index outside the gathered dimension.
        "gather_oob": model(
            [helper.make_node("Gather", ["x", "idx"], ["y"], name="gather", axis=1)],
            [f("x", [2, 3])], [f("y", [2, 1])],
            [helper.make_tensor("idx", TensorProto.INT64, [1], [5])]),
        # A node whose inputs do not match its schema.
        "bad_arity": model(
            [helper.make_node("Add", ["x"], ["y"], name="add")],
            [f("x", [2])], [f("y", [2])]),
        # Shape -> Gather -> Unsqueeze -> Concat -> Reshape folds to a static
        # reshape.
        "shape_chain": model(
            [helper.make_node("Shape", ["x"], ["s"], name="shape"),
             helper.make_node("Gather", ["s", "zero"], ["d0"], name="gather", axis=0),
             helper.make_node("Unsqueeze", ["d0", "axes0"], ["d0v"], name="unsqueeze"),
             helper.make_node("Concat", ["d0v", "minus1"], ["newshape"], name="concat", axis=0),
             helper.make_node("Reshape", ["x", "newshape"], ["y"], name="reshape")],
            [f("x", [2, 3, 4])], [f("y", [2, 12])],
            [helper.make_tensor("zero", TensorProto.INT64, [], [0]),
             helper.make_tensor("axes0", TensorProto.INT64, [1], [0]),
             helper.make_tensor("minus1", TensorProto.INT64, [1], [-1])]),
        # An old opset (upgraded by ONNX's version converter) that works.
        # Opset 9 (upgraded by ONNX's version converter, which crashed on
        # it) with a graph output no node produces.
        "old_opset_orphan_output": model(
            [helper.make_node("Relu", ["x"], ["y"], name="relu")],
            [f("x", [2, 2])], [f("y", [2, 2]), f("z", [2, 2])], opset=9),
        "old_opset": model(
            [helper.make_node("Relu", ["x"], ["y"], name="relu")],
            [f("x", [2, 2])], [f("y", [2, 2])], opset=9),
        # Operators of the registry's later additions, each with a value it
        # cannot take.
        "mod_float_fmod0": model(
            [helper.make_node("Mod", ["x", "x"], ["y"], name="mod")],
            [f("x", [2])], [f("y", [2])]),
        "scatternd_oob": model(
            [helper.make_node("ScatterND", ["x", "i", "u"], ["y"], name="scatter")],
            [f("x", [4, 3]), f("u", [1, 3])], [f("y", [4, 3])],
            [helper.make_tensor("i", TensorProto.INT64, [1, 1], [4])], opset=13),
        "range_delta0": model(
            [helper.make_node("Range", ["s", "l", "d"], ["y"], name="range")],
            [], [f("y", ["n"])],
            [helper.make_tensor("s", TensorProto.FLOAT, [], [0]),
             helper.make_tensor("l", TensorProto.FLOAT, [], [4]),
             helper.make_tensor("d", TensorProto.FLOAT, [], [0])]),
        "einsum_three": model(
            [helper.make_node("Einsum", ["x", "x", "x"], ["y"], name="ein3",
                              equation="i,i,i->i")],
            [f("x", [3])], [f("y", [3])]),
        "einsum_broadcast": model(
            [helper.make_node("Einsum", ["a", "b"], ["y"], name="einb",
                              equation="bij,bjk->bik")],
            [f("a", [2, 3, 4]), f("b", [1, 4, 5])], [f("y", [2, 3, 5])]),
        "einsum_diagonal_sizes": model(
            [helper.make_node("Einsum", ["x"], ["y"], name="eind",
                              equation="ii->i")],
            [f("x", [2, 3])], [f("y", [2])]),
        # BatchNormalization: no channel dimension; opset 9-13's training
        # form (five outputs, no training_mode); training with f32 statistics for
        # an f16 input.
        "bn_rank1": model(
            [helper.make_node("BatchNormalization", ["x", "s", "s", "s", "s"],
                              ["y"], name="bn1")],
            [f("x", [4])], [f("y", [4])],
            [helper.make_tensor("s", TensorProto.FLOAT, [1], [1])]),
        "bn_running_outputs": model(
            [helper.make_node("BatchNormalization", ["x", "s", "s", "s", "s"],
                              ["y", "rm", "rv", "sm", "sv"], name="bnrun")],
            [f("x", [1, 2, 2])],
            [f("y", [1, 2, 2]), f("rm", [2]), f("rv", [2]), f("sm", [2]),
             f("sv", [2])],
            [helper.make_tensor("s", TensorProto.FLOAT, [2], [1, 1])]),
        "bn_training_types": model(
            [helper.make_node("BatchNormalization", ["x", "s", "s", "s", "s"],
                              ["y", "rm", "rv"], name="bnmix", training_mode=1)],
            [helper.make_tensor_value_info("x", TensorProto.FLOAT16, [1, 2, 2])],
            [helper.make_tensor_value_info("y", TensorProto.FLOAT16, [1, 2, 2]),
             f("rm", [2]), f("rv", [2])],
            [helper.make_tensor("s", TensorProto.FLOAT, [2], [1, 1])], opset=15),
        # Resize: cubic with a coordinate mode it has no weights for; a
        # scale on the channels.
        "resize_cubic_mode": resize_to_4x4(f, name="rc", mode="cubic",
                                           coordinate_transformation_mode="tf_half_pixel_for_nn"),
        # float64 resizes through interpolation matrices: a coordinate mode
        # or nearest mode they have no weights for.
        "resize_f64_mode": resize_to_4x4(d, name="rf", mode="linear",
                                         coordinate_transformation_mode="tf_half_pixel_for_nn"),
        "resize_f64_nearest": resize_to_4x4(d, name="rn", mode="nearest",
                                            nearest_mode="middle"),
        # bfloat16 computed on, not only cast; an element type the importer
        # has no type for.
        "bfloat16_input": model(
            [helper.make_node("Relu", ["x"], ["y"], name="relu")],
            [helper.make_tensor_value_info("x", TensorProto.BFLOAT16, [2])],
            [helper.make_tensor_value_info("y", TensorProto.BFLOAT16, [2])]),
        "complex_input": model(
            [helper.make_node("Identity", ["x"], ["y"], name="id")],
            [helper.make_tensor_value_info("x", TensorProto.COMPLEX64, [2])],
            [helper.make_tensor_value_info("y", TensorProto.COMPLEX64, [2])]),
        "resize_channel_scale": model(
            [helper.make_node("Resize", ["x", "", "scales"], ["y"], name="rs",
                              mode="cubic")],
            [f("x", [1, 1, 2, 2])], [f("y", [1, 1, 4, 4])],
            [helper.make_tensor("scales", TensorProto.FLOAT, [4], [1, 1.5, 2, 2])]),
        # Window ops: a dilation of 0; dilations spreading a kernel too far.
        "conv_dilation0": model(
            [helper.make_node("Conv", ["x", "w"], ["y"], name="cd0",
                              dilations=[0, 1])],
            [f("x", [1, 1, 4, 4])], [f("y", [1, 1, 4, 3])],
            [helper.make_tensor("w", TensorProto.FLOAT, [1, 1, 2, 2], [1, 2, 3, 4])]),
        "convtranspose_spread": model(
            [helper.make_node("ConvTranspose", ["x", "w"], ["y"], name="cts",
                              dilations=[1000, 1000])],
            [f("x", [1, 1, 2, 2])], [f("y", [1, 1, 1002, 1002])],
            [helper.make_tensor("w", TensorProto.FLOAT, [1, 1, 2, 2], [1, 2, 3, 4])]),
        "convtranspose_output_padding": model(
            [helper.make_node("ConvTranspose", ["x", "w"], ["y"], name="ctp",
                              output_padding=[1])],
            [f("x", [1, 1, 2, 2])], [f("y", [1, 1, 3, 3])],
            [helper.make_tensor("w", TensorProto.FLOAT, [1, 1, 2, 2], [1, 2, 3, 4])]),
        "topk_k0": model(
            [helper.make_node("TopK", ["x", "k"], ["v", "i"], name="topk")],
            [f("x", [2, 3])],
            [f("v", [2, 0]), helper.make_tensor_value_info("i", TensorProto.INT64, [2, 0])],
            [helper.make_tensor("k", TensorProto.INT64, [1], [0])]),
        "pool3d_huge_window": model(
            [helper.make_node("MaxPool", ["x"], ["y", "i"], name="pool3d",
                              kernel_shape=[8, 8, 8])],
            [f("x", [1, 1, 8, 8, 8])],
            [f("y", [1, 1, 1, 1, 1]),
             helper.make_tensor_value_info("i", TensorProto.INT64, [1, 1, 1, 1, 1])]),
        "lppool_p0": model(
            [helper.make_node("LpPool", ["x"], ["y"], name="lp",
                              kernel_shape=[2, 2], p=0)],
            [f("x", [1, 1, 4, 4])], [f("y", [1, 1, 3, 3])]),
        # Starts beyond the end: an empty slice of a non-empty tensor.
        "slice_empty": model(
            [helper.make_node("Slice", ["x", "starts", "ends", "axes"], ["y"],
                              name="slice_empty")],
            [f("x", [2, 4])], [f("y", [2, 0])],
            [helper.make_tensor("starts", TensorProto.INT64, [1], [1000]),
             helper.make_tensor("ends", TensorProto.INT64, [1], [1000]),
             helper.make_tensor("axes", TensorProto.INT64, [1], [1])]),
        # A ScatterND reduction ONNX 1.12's opsets do not define.
        "scatternd_max": model(
            [helper.make_node("ScatterND", ["x", "idx", "u"], ["y"],
                              name="scatter_max", reduction="max")],
            [f("x", [4]), f("u", [1])], [f("y", [4])],
            [helper.make_tensor("idx", TensorProto.INT64, [1, 1], [2])],
            opset=16),
        "scatternd_many": model(
            [helper.make_node("ScatterND", ["x", "idx", "u"], ["y"],
                              name="scatter_many", reduction="add")],
            [f("x", [4]), f("u", [300])], [f("y", [4])],
            [helper.make_tensor("idx", TensorProto.INT64, [300, 1], [1] * 300)],
            opset=16),
        # Found by fuzz-onnx-import: statistics of the wrong length were read
        # past their end when folded.
        "batchnorm_short_stats": model(
            [helper.make_node("BatchNormalization", ["x", "s", "b", "m", "v"],
                              ["y"], name="bn_short")],
            [f("x", [1, 3, 2, 2])], [f("y", [1, 3, 2, 2])],
            [helper.make_tensor("s", TensorProto.FLOAT, [1], [1]),
             helper.make_tensor("b", TensorProto.FLOAT, [3], [0, 0, 0]),
             helper.make_tensor("m", TensorProto.FLOAT, [3], [0, 0, 0]),
             helper.make_tensor("v", TensorProto.FLOAT, [3], [1, 1, 1])]),
        # 3-D windows: transposed in groups, a convolution in groups that do
        # not divide the channels; 4-D windows.
        "convtranspose_3d": model(
            [helper.make_node("ConvTranspose", ["x", "w"], ["y"], name="ct3",
                              group=2)],
            [f("x", [1, 2, 2, 2, 2])], [f("y", [1, 2, 3, 3, 3])],
            [helper.make_tensor("w", TensorProto.FLOAT, [2, 1, 2, 2, 2], [1] * 16)]),
        # tf_crop_and_resize: without roi, a roi of the wrong length, a
        # crop of the batch.
        "crop_no_roi": model(
            [helper.make_node("Resize", ["x", "", "", "sizes"], ["y"], name="cr",
                              coordinate_transformation_mode="tf_crop_and_resize")],
            [f("x", [1, 1, 2, 2])], [f("y", [1, 1, 3, 3])],
            [helper.make_tensor("sizes", TensorProto.INT64, [4], [1, 1, 3, 3])]),
        "crop_roi_length": model(
            [helper.make_node("Resize", ["x", "roi", "", "sizes"], ["y"], name="cr",
                              coordinate_transformation_mode="tf_crop_and_resize")],
            [f("x", [1, 1, 2, 2])], [f("y", [1, 1, 3, 3])],
            [helper.make_tensor("roi", TensorProto.FLOAT, [4], [0, 0, 1, 1]),
             helper.make_tensor("sizes", TensorProto.INT64, [4], [1, 1, 3, 3])]),
        "crop_batch": model(
            [helper.make_node("Resize", ["x", "roi", "", "sizes"], ["y"], name="cr",
                              coordinate_transformation_mode="tf_crop_and_resize")],
            [f("x", [1, 1, 2, 2])], [f("y", [1, 1, 3, 3])],
            [helper.make_tensor("roi", TensorProto.FLOAT, [8],
                                [0.5, 0, 0, 0, 1, 1, 1, 1]),
             helper.make_tensor("sizes", TensorProto.INT64, [4], [1, 1, 3, 3])]),
        "conv_rank6": model(
            [helper.make_node("Conv", ["x", "w"], ["y"], name="c4d")],
            [f("x", [1, 1, 2, 2, 2, 2])], [f("y", [1, 1, 1, 1, 1, 1])],
            [helper.make_tensor("w", TensorProto.FLOAT, [1, 1, 2, 2, 2, 2], [1] * 16)]),
        "conv3d_groups": model(
            [helper.make_node("Conv", ["x", "w"], ["y"], name="c3g", group=3)],
            [f("x", [1, 2, 2, 2, 2])], [f("y", [1, 2, 1, 1, 1])],
            [helper.make_tensor("w", TensorProto.FLOAT, [2, 1, 2, 2, 2], [1] * 16)]),
        # Opset-6 Gemm with a rank-1 B (an initializer, or computed by a
        # Reshape): libonnx's old Gemm inference and its 6->7 adapter read
        # B's second dimension (a segfault, and an unbounded allocation).
        "gemm6_rank1_b": model(
            [helper.make_node("Gemm", ["a", "b", "c"], ["y"], name="g6")],
            [f("a", [2, 3]), f("b", [3]), f("c", [1])], [f("y", [2, 1])],
            [helper.make_tensor("b", TensorProto.FLOAT, [3], [1, 1, 1]),
             helper.make_tensor("c", TensorProto.FLOAT, [1], [0])], opset=6),
        "gemm6_reshaped_b": model(
            [helper.make_node("Reshape", ["w", "shape"], ["b"], name="flat"),
             helper.make_node("Gemm", ["a", "b", "c"], ["y"], name="g6r")],
            [f("a", [2, 3]), f("w", [3, 1]), f("c", [1])], [f("y", [2, 1])],
            [helper.make_tensor("shape", TensorProto.INT64, [1], [3]),
             helper.make_tensor("c", TensorProto.FLOAT, [1], [0])], opset=6),
        "castlike_to_int": model(
            [helper.make_node("CastLike", ["x", "like"], ["y"], name="castlike")],
            [f("x", [2]), helper.make_tensor_value_info("like", TensorProto.INT32, [1])],
            [helper.make_tensor_value_info("y", TensorProto.INT32, [2])], opset=15),
        # A Reshape's shape whose raw data is shorter than its dims say
        # (libonnx's inference would copy past its end).
        "short_raw_shape": model(
            [helper.make_node("Reshape", ["x", "shape"], ["y"], name="short")],
            [f("x", [2, 3])], [f("y", [3, 2])],
            [short_raw("shape", TensorProto.INT64, [2], 11)]),
        # A negative dimension on raw data.
        "negative_dim_raw": model(
            [helper.make_node("Add", ["x", "k"], ["y"], name="neg")],
            [f("x", [2])], [f("y", [2])],
            [short_raw("k", TensorProto.FLOAT, [-1], 4)]),
        # The same in a Constant of an If branch.
        "short_raw_branch": model(
            [helper.make_node("If", ["c"], ["y"], name="branchy",
                              then_branch=helper.make_graph(
                                  [helper.make_node(
                                      "Constant", [], ["t"],
                                      value=short_raw(
                                          "v", TensorProto.FLOAT, [2], 6))],
                                  "then", [], [f("t", [2])]),
                              else_branch=helper.make_graph(
                                  [helper.make_node("Neg", ["x"], ["e"])],
                                  "else", [], [f("e", [2])]))],
            [helper.make_tensor_value_info("c", TensorProto.BOOL, []),
             f("x", [2])], [f("y", [2])]),
    }
    for name, m in models.items():
        onnx.save(m, os.path.join(out, name + ".onnx"))
    good = models["old_opset"].SerializeToString()
    with open(os.path.join(out, "truncated.onnx"), "wb") as fh:
        fh.write(good[: len(good) // 2])
    with open(os.path.join(out, "not_onnx.onnx"), "w") as fh:
        fh.write("this is not a protobuf\n" * 4)
    open(os.path.join(out, "empty.onnx"), "wb").close()


if __name__ == "__main__":
    main()
