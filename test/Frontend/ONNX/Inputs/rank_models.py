#!/usr/bin/python3
"""One-node ONNX models with inputs of low or mismatched ranks, for every
operator schema version of the default domain that libonnx knows.

libonnx 1.12's shape inference functions index input dimensions without
checking ranks; these models are the ones that find it. Each model has one
node named "probe_<op>_<version>" whose inputs are graph inputs of the first
type the schema allows (float where allowed) and of the ranks of a pattern,
applied to the inputs in turn: all rank 0, all rank 1, all rank 2, and the
mixed patterns below (a rank-4 X with a rank-1 W is a ConvTranspose that
crashes libonnx). Each pattern comes with the required inputs only and with
every optional input too. Required attributes get plain values of their
type; operators with required graph attributes (If, Loop, Scan) or sequence,
map or optional inputs are left out.

Usage as a module: models() yields (name, ModelProto).
"""
import onnx
import onnx.defs
from onnx import helper

PATTERNS = [(0,), (1,), (2,), (4, 1), (2, 0), (1, 2), (4, 0), (0, 1), (1, 0),
            (3, 1)]
DIMS = {0: [], 1: [3], 2: [2, 3], 3: [1, 2, 3], 4: [1, 2, 3, 3]}
OPSET_OF_IR = 17  # newest opset this libonnx knows


def _tensor_type(schema, formal):
    """The element type (TensorProto enum) for a formal parameter, or None
    if it cannot be a tensor."""
    allowed = None
    for constraint in schema.type_constraints:
        if constraint.type_param_str == formal.typeStr:
            allowed = list(constraint.allowed_type_strs)
    if allowed is None:
        allowed = [formal.typeStr]
    tensors = [t for t in allowed if t.startswith("tensor(")]
    if not tensors:
        return None
    pick = "tensor(float)" if "tensor(float)" in tensors else tensors[0]
    name = pick[len("tensor("):-1].upper()
    aliases = {"FLOAT": "FLOAT", "DOUBLE": "DOUBLE", "BOOL": "BOOL",
               "STRING": "STRING"}
    name = aliases.get(name, name)
    return getattr(onnx.TensorProto, name, None)


def _attribute(name, attr):
    t = onnx.defs.OpSchema.AttrType
    if attr.type == t.INT:
        return helper.make_attribute(name, 1)
    if attr.type == t.INTS:
        return helper.make_attribute(name, [1])
    if attr.type == t.FLOAT:
        return helper.make_attribute(name, 1.0)
    if attr.type == t.FLOATS:
        return helper.make_attribute(name, [1.0])
    if attr.type == t.STRING:
        return helper.make_attribute(name, "x")
    if attr.type == t.STRINGS:
        return helper.make_attribute(name, ["x"])
    if attr.type == t.TENSOR:
        return helper.make_attribute(
            name, helper.make_tensor("t", onnx.TensorProto.FLOAT, [], [1.0]))
    return None  # graphs, sparse tensors, type protos


def _formals(schema, with_optional):
    """The formal inputs to give: required ones, optional ones if asked, a
    variadic one twice."""
    out = []
    for formal in schema.inputs:
        option = formal.option
        if option == onnx.defs.OpSchema.FormalParameterOption.Optional:
            if with_optional:
                out.append(formal)
        elif option == onnx.defs.OpSchema.FormalParameterOption.Variadic:
            out += [formal, formal]
        else:
            out.append(formal)
    return out


def models():
    seen = set()
    for schema in onnx.defs.get_all_schemas_with_history():
        if schema.domain != "" or schema.deprecated:
            continue
        attrs = []
        usable = True
        for name, attr in sorted(schema.attributes.items()):
            if not attr.required:
                continue
            a = _attribute(name, attr)
            if a is None:
                usable = False
            attrs.append(a)
        if not usable:
            continue
        # The opset of the model: the schema's own version, or the newest
        # this libonnx knows for operators newer than... (never above 17).
        opset = min(max(schema.since_version, 1), OPSET_OF_IR)
        for with_optional in (False, True):
            formals = _formals(schema, with_optional)
            types = [_tensor_type(schema, f) for f in formals]
            if any(t is None for t in types):
                continue
            for pattern in PATTERNS:
                ranks = [pattern[i % len(pattern)] for i in range(len(formals))]
                key = (schema.name, schema.since_version, tuple(ranks),
                       len(formals))
                if key in seen:
                    continue
                seen.add(key)
                node_name = "probe_%s_%d" % (schema.name, schema.since_version)
                inputs = ["in%d" % i for i in range(len(formals))]
                outputs = ["out%d" % i for i in range(max(1, len(schema.outputs)))]
                node = helper.make_node(schema.name, inputs, outputs,
                                        name=node_name)
                node.attribute.extend(attrs)
                graph = helper.make_graph(
                    [node], "g",
                    [helper.make_tensor_value_info(n, t, DIMS[r])
                     for n, t, r in zip(inputs, types, ranks)],
                    # ONNX's checker wants graph outputs typed with a
                    # shape: the first input's rank, sizes unknown.
                    [helper.make_tensor_value_info(
                        o, types[0] if types else onnx.TensorProto.FLOAT,
                        ["d%d" % i for i in range(ranks[0] if ranks else 0)])
                     for o in outputs])
                model = helper.make_model(
                    graph, opset_imports=[helper.make_opsetid("", opset)])
                model.ir_version = 8
                name = "%s-%d_%s%s" % (schema.name, schema.since_version,
                                       "".join(map(str, ranks)) or "none",
                                       "_opt" if with_optional else "")
                yield name, model


if __name__ == "__main__":
    count = sum(1 for _ in models())
    print(count, "models")
