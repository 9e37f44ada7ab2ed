#!/usr/bin/python3
"""Writes TensorFlow Lite flatbuffers for tests, with the Python classes flatc
generates from the project's schema (lib/Frontend/TFLite/schema/schema.fbs;
the build puts them in build/test/tflite_schema, whose path the caller puts
on sys.path, or NNAPI_TFLITE_SCHEMA_PY names).

    b = ModelBuilder()
    x = b.input("x", [1, 8, 8, 3])
    w = b.const("w", np.ones((4, 3, 3, 3), np.float32))
    y = b.tensor("y", [1, 8, 8, 4])
    b.op("CONV_2D", [x, w, -1], [y], ("Conv2DOptions",
         {"Padding": "SAME", "StrideW": 1, "StrideH": 1}))
    b.output(y)
    data = b.finish()

Options are given as (table name, {field: value}) in the schema's spelling
(CamelCase fields as flatc names them); enum values may be given by name.
Tensor types are numpy dtypes or TFLite type names ("INT8").
"""
import os
import sys

import numpy as np

_here = os.environ.get("NNAPI_TFLITE_SCHEMA_PY")
if _here and _here not in sys.path:
    sys.path.insert(0, _here)

import flatbuffers  # noqa: E402  (Debian's python3-flatbuffers)
import tflite  # noqa: E402,F401
from tflite import (BuiltinOperator, BuiltinOptions, Buffer,  # noqa: E402
                    DimensionMetadata, Int32Vector, Uint8Vector, Uint16Vector,
                    Model, Operator, OperatorCode, QuantizationParameters,
                    SignatureDef, SparsityParameters, SubGraph, Tensor,
                    TensorMap, TensorType)
import importlib  # noqa: E402

_DTYPES = {
    np.dtype(np.float32): "FLOAT32", np.dtype(np.float16): "FLOAT16",
    np.dtype(np.int32): "INT32", np.dtype(np.uint8): "UINT8",
    np.dtype(np.int64): "INT64", np.dtype(np.bool_): "BOOL",
    np.dtype(np.int16): "INT16", np.dtype(np.int8): "INT8",
    np.dtype(np.float64): "FLOAT64",
}


def type_code(t):
    if isinstance(t, str):
        return getattr(TensorType.TensorType, t)
    return getattr(TensorType.TensorType, _DTYPES[np.dtype(t)])


class ModelBuilder:
    """Builds subgraph 0 ("main") unless subgraph() switched to another;
    tensors, operators, inputs and outputs are the current subgraph's."""

    def __init__(self):
        self.buffers = [b""]
        self.opcodes = []  # (code, custom, version)
        self.signature = None  # (key, {name: tensor}, {name: tensor})
        self.graphs = [dict(name="main", tensors=[], operators=[], inputs=[],
                            outputs=[])]
        self.current = 0

    def subgraph(self, index=None, name=None):
        """Switches to subgraph `index`, or to a new one (named `name`);
        returns its index (a WHILE's or IF's subgraph operand)."""
        if index is None:
            self.graphs.append(dict(name=name or "subgraph%d" % len(
                self.graphs), tensors=[], operators=[], inputs=[], outputs=[]))
            index = len(self.graphs) - 1
        self.current = index
        return index

    def _graph_list(key):
        def get(self):
            return self.graphs[self.current][key]

        def set_(self, value):
            self.graphs[self.current][key] = value
        return property(get, set_)

    tensors = _graph_list("tensors")
    operators = _graph_list("operators")
    inputs = _graph_list("inputs")
    outputs = _graph_list("outputs")

    # Tensors ------------------------------------------------------------
    def tensor(self, name, shape, dtype="FLOAT32", quant=None, data=None,
               shape_signature=None, buffer=None, sparse=False,
               variable=False):
        """A tensor; `quant` is (scales, zero_points[, axis]); `buffer` an
        index into self.buffers, whose entries are bytes or (offset, size)
        pairs written as they are (data outside the flatbuffer); `variable`
        marks a state tensor (an LSTM's), which TFLite starts at zero."""
        if buffer is None:
            buffer = 0
            if data is not None:
                self.buffers.append(bytes(data))
                buffer = len(self.buffers) - 1
        self.tensors.append(dict(name=name, shape=list(shape),
                                 type=type_code(dtype), quant=quant,
                                 buffer=buffer, sparse=sparse,
                                 variable=variable,
                                 shape_signature=shape_signature))
        return len(self.tensors) - 1

    def input(self, name, shape, dtype="FLOAT32", quant=None,
              shape_signature=None):
        t = self.tensor(name, shape, dtype, quant,
                        shape_signature=shape_signature)
        self.inputs.append(t)
        return t

    def output(self, t):
        self.outputs.append(t)
        return t

    def const(self, name, array, dtype=None, quant=None):
        array = np.ascontiguousarray(array)
        dtype = dtype or _DTYPES[array.dtype]
        data = array.astype(np.uint8).tobytes() if dtype == "BOOL" \
            else array.tobytes()
        return self.tensor(name, array.shape, dtype, quant, data=data)

    # Operators ----------------------------------------------------------
    def opcode(self, name, version=1, custom=None):
        code = getattr(BuiltinOperator.BuiltinOperator, name)
        key = (code, custom, version)
        if key not in self.opcodes:
            self.opcodes.append(key)
        return self.opcodes.index(key)

    def op(self, name, inputs, outputs, options=None, version=1,
           custom=None, custom_options=None):
        self.operators.append(dict(
            opcode=self.opcode(name, version, custom), inputs=list(inputs),
            outputs=list(outputs), options=options,
            custom_options=custom_options))

    def sign(self, key, inputs, outputs):
        """A SignatureDef naming the subgraph's inputs and outputs."""
        self.signature = (key, inputs, outputs)

    # Serialization ------------------------------------------------------
    @staticmethod
    def _sparsity(b, ints, t):
        """SparsityParameters: `sparse` True (traversal order only), or a
        dict(order=[...], block_map=[...], dims=[("DENSE", size) or
        ("CSR", segments, indices[, "Int32"|"Uint16"|"Uint8"])])."""
        spec = t["sparse"] if isinstance(t["sparse"], dict) else dict(
            order=list(range(len(t["shape"]))))
        kinds = {"Int32": (Int32Vector, 4, b.PrependInt32, 1),
                 "Uint16": (Uint16Vector, 2, b.PrependUint16, 2),
                 "Uint8": (Uint8Vector, 1, b.PrependUint8, 3)}

        def index_vector(values, kind):
            mod, width, add, code = kinds[kind]
            getattr(mod, kind + "VectorStartValuesVector")(b, len(values))
            for v in reversed(values):
                add(int(v))
            vec = b.EndVector()
            getattr(mod, kind + "VectorStart")(b)
            getattr(mod, kind + "VectorAddValues")(b, vec)
            return getattr(mod, kind + "VectorEnd")(b), code

        dims = []
        for d in spec.get("dims", []):
            seg = idx = None
            if d[0] == "CSR":
                kind = d[3] if len(d) > 3 else "Int32"
                seg = index_vector(d[1], kind)
                idx = index_vector(d[2], kind)
            DimensionMetadata.DimensionMetadataStart(b)
            DimensionMetadata.DimensionMetadataAddFormat(
                b, 0 if d[0] == "DENSE" else 1)
            if d[0] == "DENSE":
                DimensionMetadata.DimensionMetadataAddDenseSize(b, d[1])
            else:
                DimensionMetadata.DimensionMetadataAddArraySegmentsType(
                    b, seg[1])
                DimensionMetadata.DimensionMetadataAddArraySegments(b, seg[0])
                DimensionMetadata.DimensionMetadataAddArrayIndicesType(
                    b, idx[1])
                DimensionMetadata.DimensionMetadataAddArrayIndices(b, idx[0])
            dims.append(DimensionMetadata.DimensionMetadataEnd(b))
        order = ints(SparsityParameters.
                     SparsityParametersStartTraversalOrderVector,
                     spec["order"])
        block_map = ints(SparsityParameters.
                         SparsityParametersStartBlockMapVector,
                         spec["block_map"]) if "block_map" in spec else None
        metadata = None
        if dims:
            SparsityParameters.SparsityParametersStartDimMetadataVector(
                b, len(dims))
            for d in reversed(dims):
                b.PrependUOffsetTRelative(d)
            metadata = b.EndVector()
        SparsityParameters.SparsityParametersStart(b)
        SparsityParameters.SparsityParametersAddTraversalOrder(b, order)
        if block_map is not None:
            SparsityParameters.SparsityParametersAddBlockMap(b, block_map)
        if metadata is not None:
            SparsityParameters.SparsityParametersAddDimMetadata(b, metadata)
        return SparsityParameters.SparsityParametersEnd(b)

    def finish(self, version=3, identifier=b"TFL3", buffers_after=False,
               no_subgraphs=False):
        """The model's bytes. `buffers_after`: constant data follows the
        flatbuffer (Buffer.offset and .size), as the converter writes models
        above 2 GB; `no_subgraphs`: an empty subgraph list (invalid)."""
        b = flatbuffers.Builder(1024)
        after = []  # (buffer index, data) placed after the flatbuffer

        def vector(start, items, add):
            start(b, len(items))
            for item in reversed(items):
                add(item)
            return b.EndVector()

        def ints(start, values):
            return vector(start, values, b.PrependInt32)

        def offsets(start, values):
            return vector(start, values, b.PrependUOffsetTRelative)

        # Buffers (data 16-byte aligned, as TFLite writes it).
        buffer_offsets = []
        for index, data in enumerate(self.buffers):
            d = None
            if isinstance(data, tuple):
                Buffer.BufferStart(b)
                Buffer.BufferAddOffset(b, data[0])
                Buffer.BufferAddSize(b, data[1])
                buffer_offsets.append(Buffer.BufferEnd(b))
                continue
            if data and buffers_after:
                after.append((index, data))
                # Placeholders of the final width, patched below.
                Buffer.BufferStart(b)
                Buffer.BufferAddOffset(b, 0xFEEDF00D0000 + index)
                Buffer.BufferAddSize(b, len(data))
                buffer_offsets.append(Buffer.BufferEnd(b))
                continue
            if data:
                b.StartVector(1, len(data), 16)
                for byte in reversed(data):
                    b.PrependUint8(byte)
                d = b.EndVector()
            Buffer.BufferStart(b)
            if d is not None:
                Buffer.BufferAddData(b, d)
            buffer_offsets.append(Buffer.BufferEnd(b))

        subgraph_offsets = []
        for graph in self.graphs:
            tensor_offsets = []
            for t in graph["tensors"]:
                name = b.CreateString(t["name"])
                shape = ints(Tensor.TensorStartShapeVector, t["shape"])
                sig = None
                if t["shape_signature"] is not None:
                    sig = ints(Tensor.TensorStartShapeSignatureVector,
                               t["shape_signature"])
                q = None
                if t["quant"] is not None:
                    scales, zeros = t["quant"][0], t["quant"][1]
                    axis = t["quant"][2] if len(t["quant"]) > 2 else 0
                    s = vector(QuantizationParameters.
                               QuantizationParametersStartScaleVector,
                               [float(v) for v in scales], b.PrependFloat32)
                    z = vector(QuantizationParameters.
                               QuantizationParametersStartZeroPointVector,
                               [int(v) for v in zeros], b.PrependInt64)
                    QuantizationParameters.QuantizationParametersStart(b)
                    QuantizationParameters.QuantizationParametersAddScale(b, s)
                    QuantizationParameters.QuantizationParametersAddZeroPoint(b, z)
                    QuantizationParameters.\
                        QuantizationParametersAddQuantizedDimension(b, axis)
                    q = QuantizationParameters.QuantizationParametersEnd(b)
                sparsity = None
                if t["sparse"]:
                    sparsity = self._sparsity(b, ints, t)
                Tensor.TensorStart(b)
                Tensor.TensorAddShape(b, shape)
                Tensor.TensorAddType(b, t["type"])
                Tensor.TensorAddBuffer(b, t["buffer"])
                Tensor.TensorAddName(b, name)
                if q is not None:
                    Tensor.TensorAddQuantization(b, q)
                if sig is not None:
                    Tensor.TensorAddShapeSignature(b, sig)
                if sparsity is not None:
                    Tensor.TensorAddSparsity(b, sparsity)
                if t["variable"]:
                    Tensor.TensorAddIsVariable(b, True)
                tensor_offsets.append(Tensor.TensorEnd(b))

            op_offsets = []
            for o in graph["operators"]:
                ins = ints(Operator.OperatorStartInputsVector, o["inputs"])
                outs = ints(Operator.OperatorStartOutputsVector, o["outputs"])
                opts = None
                opts_type = 0
                if o["options"] is not None:
                    table, fields = o["options"]
                    mod = importlib.import_module("tflite." + table)
                    # Vectors first (flatbuffers builds children first).
                    built = {}
                    for field, value in fields.items():
                        if isinstance(value, (list, tuple)):
                            start = getattr(mod, "%sStart%sVector" % (table, field))
                            built[field] = ints(start, list(value))
                    getattr(mod, table + "Start")(b)
                    for field, value in fields.items():
                        if field in built:
                            value = built[field]
                        elif isinstance(value, str):
                            value = _enum_value(table, field, value)
                        getattr(mod, "%sAdd%s" % (table, field))(b, value)
                    opts = getattr(mod, table + "End")(b)
                    opts_type = getattr(BuiltinOptions.BuiltinOptions, table)
                custom = None
                if o["custom_options"] is not None:
                    custom = vector(Operator.OperatorStartCustomOptionsVector,
                                    list(o["custom_options"]), b.PrependUint8)
                Operator.OperatorStart(b)
                Operator.OperatorAddOpcodeIndex(b, o["opcode"])
                Operator.OperatorAddInputs(b, ins)
                Operator.OperatorAddOutputs(b, outs)
                if opts is not None:
                    Operator.OperatorAddBuiltinOptionsType(b, opts_type)
                    Operator.OperatorAddBuiltinOptions(b, opts)
                if custom is not None:
                    Operator.OperatorAddCustomOptions(b, custom)
                op_offsets.append(Operator.OperatorEnd(b))

            tensors = offsets(SubGraph.SubGraphStartTensorsVector, tensor_offsets)
            inputs = ints(SubGraph.SubGraphStartInputsVector, graph["inputs"])
            outputs = ints(SubGraph.SubGraphStartOutputsVector, graph["outputs"])
            ops = offsets(SubGraph.SubGraphStartOperatorsVector, op_offsets)
            name = b.CreateString(graph["name"])
            SubGraph.SubGraphStart(b)
            SubGraph.SubGraphAddTensors(b, tensors)
            SubGraph.SubGraphAddInputs(b, inputs)
            SubGraph.SubGraphAddOutputs(b, outputs)
            SubGraph.SubGraphAddOperators(b, ops)
            SubGraph.SubGraphAddName(b, name)
            subgraph_offsets.append(SubGraph.SubGraphEnd(b))

        code_offsets = []
        for code, custom, op_version in self.opcodes:
            c = b.CreateString(custom) if custom else None
            OperatorCode.OperatorCodeStart(b)
            OperatorCode.OperatorCodeAddDeprecatedBuiltinCode(b, min(code, 127))
            OperatorCode.OperatorCodeAddBuiltinCode(b, code)
            OperatorCode.OperatorCodeAddVersion(b, op_version)
            if c is not None:
                OperatorCode.OperatorCodeAddCustomCode(b, c)
            code_offsets.append(OperatorCode.OperatorCodeEnd(b))

        sigs = None
        if self.signature is not None:
            key, sin, sout = self.signature

            def maps(start, named):
                built = []
                for n, t in named.items():
                    s = b.CreateString(n)
                    TensorMap.TensorMapStart(b)
                    TensorMap.TensorMapAddName(b, s)
                    TensorMap.TensorMapAddTensorIndex(b, t)
                    built.append(TensorMap.TensorMapEnd(b))
                return offsets(start, built)
            mi = maps(SignatureDef.SignatureDefStartInputsVector, sin)
            mo = maps(SignatureDef.SignatureDefStartOutputsVector, sout)
            k = b.CreateString(key)
            SignatureDef.SignatureDefStart(b)
            SignatureDef.SignatureDefAddInputs(b, mi)
            SignatureDef.SignatureDefAddOutputs(b, mo)
            SignatureDef.SignatureDefAddSignatureKey(b, k)
            SignatureDef.SignatureDefAddSubgraphIndex(b, 0)
            sigs = offsets(Model.ModelStartSignatureDefsVector,
                           [SignatureDef.SignatureDefEnd(b)])

        codes = offsets(Model.ModelStartOperatorCodesVector, code_offsets)
        subgraphs = offsets(Model.ModelStartSubgraphsVector,
                            [] if no_subgraphs else subgraph_offsets)
        buffers = offsets(Model.ModelStartBuffersVector, buffer_offsets)
        desc = b.CreateString("nnapi-mlir test model")
        Model.ModelStart(b)
        Model.ModelAddVersion(b, version)
        Model.ModelAddOperatorCodes(b, codes)
        Model.ModelAddSubgraphs(b, subgraphs)
        Model.ModelAddDescription(b, desc)
        Model.ModelAddBuffers(b, buffers)
        if sigs is not None:
            Model.ModelAddSignatureDefs(b, sigs)
        model = Model.ModelEnd(b)
        b.Finish(model, file_identifier=identifier)
        out = bytearray(b.Output())
        for index, data in after:
            pad = (-len(out)) % 16
            out += bytes(pad)
            marker = (0xFEEDF00D0000 + index).to_bytes(8, "little")
            assert out.count(marker) == 1
            out[out.index(marker):out.index(marker) + 8] = \
                len(out).to_bytes(8, "little")
            out += data
        return bytes(out)


def _enum_value(table, field, name):
    """An enum field's value by name: Padding "SAME", activation "RELU"..."""
    guesses = {
        "Padding": "Padding", "FusedActivationFunction":
        "ActivationFunctionType", "Mode": "MirrorPadMode",
        "WeightsFormat": "FullyConnectedOptionsWeightsFormat",
        "OutputType": "TensorType", "InType": "TensorType",
        "OutType": "TensorType", "IdxOutType": "TensorType",
        "CombinerType": "CombinerType",
        "CoordinateTransformMode": "CoordinateTransformMode",
    }
    enum = guesses.get(field, field)
    mod = importlib.import_module("tflite." + enum)
    return getattr(getattr(mod, enum), name)
