"""nnapi-mlir from Python: compile a model for Android's NNAPI, load and run it.

    import numpy as np
    import nnapi_mlir

    summary = nnapi_mlir.compile("model.onnx", "model.so", feature_level=7,
                                 input_shapes={"x": [1, 3, 224, 224]})
    print(summary)                      # partitions, host ops and why
    model = nnapi_mlir.load("model.so")
    (y,) = model.run(np.zeros((1, 3, 224, 224), np.float32))

Errors raise subclasses of nnapi_mlir.Error:
  CompileError  the model cannot be read, imported or compiled, or an option
                is invalid (the message carries the compiler's diagnostics)
  ModelError    a compiled model cannot be loaded, or running it failed
  InputError    (also a ValueError) wrong number of inputs, unknown or
                missing input names
  ShapeError    (an InputError) an input's shape differs from the model's
  DTypeError    (also a TypeError) an input's dtype differs from the model's
docs/embedding.md documents the package in full.
"""

import numbers as _numbers
import os as _os

import numpy as _np

from . import _nnapi_mlir
from ._nnapi_mlir import CompileError, Error, ModelError

__version__ = "0.1.0"

__all__ = [
    "compile", "load", "Model", "Tensor", "CompileSummary", "Partition",
    "HostOp", "options", "set_host_only", "runtime_stats", "shape_stats",
    "binding_stats", "empty", "threads", "Error",
    "CompileError", "ModelError", "InputError", "ShapeError", "DTypeError",
]


class InputError(Error, ValueError):
    """The inputs given to Model.run do not match the model's inputs."""


class ShapeError(InputError):
    """An input's shape differs from the model's."""


class DTypeError(Error, TypeError):
    """An input's element type differs from the model's."""


# The signature's element types (ModelABI.h) as numpy dtypes.
_DTYPES = {
    "f64": _np.float64, "f32": _np.float32, "f16": _np.float16,
    "i1": _np.bool_, "i8": _np.int8, "i16": _np.int16, "i32": _np.int32,
    "i64": _np.int64, "u8": _np.uint8, "u16": _np.uint16,
    "u32": _np.uint32, "u64": _np.uint64,
    # numpy has no bfloat16: its bit patterns (ml_dtypes' bfloat16 views
    # them with .view()).
    "bf16": _np.uint16,
}


def options():
    """The compiler's options: a list of (name, type, default, description).

    Every one can be passed to compile() as a keyword argument, with
    underscores for dashes (search_budget=1000 for search-budget).
    """
    return [(flag.replace("-", "_"), type_, default, desc)
            for flag, type_, default, desc in _nnapi_mlir.pipeline_options()]


_all_options = options


def _option_text(name, value):
    flag = name.replace("_", "-")
    if isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, (str, bytes, _os.PathLike)):
        text = _os.fsdecode(value) if not isinstance(value, str) else value
    elif hasattr(value, "__iter__"):
        items = [str(v) for v in value]
        if any("," in v for v in items):
            raise CompileError("option %s: list items may not contain ','"
                               % name)
        text = ",".join(items)
    else:
        text = str(value)
    if any(c in text for c in "\"'{}"):
        raise CompileError("option %s: %r may not contain quotes or braces"
                           % (name, text))
    if " " in text:
        text = '"%s"' % text
    return "%s=%s" % (flag, text)


class Partition:
    """One NNAPI partition: its function name, ops by type and blob."""

    def __init__(self, d):
        self.name = d["name"]
        self.ops = dict(d["ops"])
        self.num_ops = d["num_ops"]
        self.num_inputs = d["num_inputs"]
        self.num_outputs = d["num_outputs"]
        self.blob_bytes = d["blob_bytes"]
        self.feature_level = d["feature_level"]

    def __repr__(self):
        return "Partition(%r, %d ops, %d blob bytes, feature level %d)" % (
            self.name, self.num_ops, self.blob_bytes, self.feature_level)


class HostOp:
    """An op the partitioner left on the host, and why."""

    def __init__(self, function, d):
        self.function = function
        self.name = d["name"]
        self.type = d["type"]
        self.nnapi = d["nnapi"] or None
        self.reason = d["reason"]
        self.host_us = d["host_us"]
        self.device_us = d["device_us"]

    def __repr__(self):
        return "HostOp(%r, %r: %s)" % (self.name, self.type, self.reason)


class CompileSummary:
    """What compile() decided.

    partitions            list of Partition
    host_ops              list of HostOp: every op left on the host, with
                          the partitioner's reason ([] with host_only)
    estimated_latency_us  the cost model's latency of the chosen placement
                          (None with host_only: the partitioner did not run)
    all_host_latency_us   ... and of running everything on the host
    feature_level         the NNAPI feature level compiled for
    report                the partitioner's full report (dict)
    diagnostics           warnings and remarks, "location: kind: message"
    output                the compiled bytes when no output path was given
    str(summary) is nnapi-compile --partition-summary's text.
    """

    def __init__(self, d):
        self.feature_level = d["feature_level"]
        self.partitions = [Partition(p) for p in d["partitions"]]
        # No placement report with host_only: nothing was placed.
        placed = bool(d["functions"])
        self.host_ops = [HostOp(f["name"], op) for f in d["functions"]
                         for op in f["ops"] if op["partition"] < 0]
        self.estimated_latency_us = (
            sum(f["chosen_us"] for f in d["functions"]) if placed else None)
        self.all_host_latency_us = (
            sum(f["all_host_us"] for f in d["functions"]) if placed else None)
        self.report = {"device_profile": d["device_profile"],
                       "functions": d["functions"]}
        self.arena_bytes = d["arena_bytes"]
        self.diagnostics = list(d["diagnostics"])
        self.output = d["output"]
        self._text = d["text"]

    def __str__(self):
        return self._text

    def __repr__(self):
        estimate = ("" if self.estimated_latency_us is None else
                    ", estimated %.1f us" % self.estimated_latency_us)
        return "CompileSummary(%d partitions, %d host ops%s)" % (
            len(self.partitions), len(self.host_ops), estimate)


def compile(model, output=None, feature_level=7, device_profile=None,
            host_only=False, report=None, input_shapes=None,
            input_values=None, specialize_values=None, expose_values=None,
            signature=None, target=None,
            cpu=None, features="", emit="so", runpath=None,
            **options):
    """Compiles `model` and writes the result to `output`.

    model          a path (str or os.PathLike) to a .onnx, .tflite or .mlir
                   (TOSA) file, or the model's bytes (ONNX protobuf, TFLite
                   flatbuffer or MLIR)
    output         the file to write; None returns the bytes in
                   summary.output
    feature_level  NNAPI feature level 1..8 the partitions must run on
    device_profile a device profile JSON path (default: generic accelerator)
    host_only      no NNAPI partitions: everything runs on the host
    report         write the placement report to REPORT.{json,html,dot}
    input_shapes   {input name: shape} for ONNX inputs with symbolic dims
                   and TFLite inputs with unknown (-1) ones; in an ONNX
                   shape, None keeps a dimension dynamic (any size),
                   (low, high) keeps it dynamic in that range and
                   (low, high, typical) also says the size it takes most
                   often, which placement costs count it at
    input_values   {input name: TensorProto .pb path, or its bytes}: the
                   ONNX graph is compiled for these values (inputs that
                   decide shapes); the inputs stay, and each run checks them
    specialize_values
                   the same, bound only to inputs that turn out to decide a
                   shape (the others stay runtime data)
    expose_values  ONNX value names (node outputs) added to the model's
                   outputs after its own, or "all" for every one: to compare
                   the model layer by layer with another runtime
    signature      TFLite: the SignatureDef to compile, by its key (None:
                   the model's first)
    target, cpu, features
                   the host code's target triple (None: this machine; e.g.
                   "aarch64-linux-android29"), CPU (None: this machine's, or
                   a foreign triple's generic one; "native": this machine's)
                   and "+feature,-feature" list
    emit           "so" (shared library), "obj", "llvm" (LLVM IR) or "mlir"
                   (after partitioning)
    runpath        RUNPATH of the shared library, e.g. "$ORIGIN" (default:
                   none; libnnapi_runtime.so is found by its soname)
    **options      any other option from options(), e.g. search_budget=1000,
                   stop_ops=["tosa.conv2d"], max_partitions=2

    Returns a CompileSummary; raises CompileError.
    """
    settings = dict(feature_level=feature_level, host_only=host_only)
    if device_profile is not None:
        settings["device_profile"] = _os.fspath(device_profile)
    if report is not None:
        settings["report"] = _os.fspath(report)
    known = {name for name, _, _, _ in _all_options()}
    for name, value in options.items():
        if name not in known:
            raise CompileError(
                "unknown option %r; nnapi_mlir.options() lists them" % name)
        if value is not None:
            settings[name] = value
    text = " ".join(_option_text(k, v) for k, v in settings.items())

    if isinstance(model, (bytes, bytearray, memoryview)):
        is_path, source, name = False, bytes(model), "<bytes>"
    elif isinstance(model, (str, _os.PathLike)):
        is_path, source = True, _os.fspath(model)
        name = source
    else:
        raise TypeError("model must be a path or bytes, not %s"
                        % type(model).__name__)
    # nnapi-compile's --input-shape NAME=D0xD1x...: None stays dynamic ("?"),
    # (low, high) dynamic in that range ("[low..high]"), (low, high, typical)
    # with its typical size ("[low..high~typical]"); the compiler parses and
    # checks it.
    def dim(d):
        if d is None:
            return "?"
        if isinstance(d, (tuple, list)) and len(d) == 3:
            return "[%d..%d~%d]" % tuple(int(e) for e in d)
        if isinstance(d, (tuple, list)):
            return "[%d..%d]" % tuple(int(e) for e in d)
        return str(int(d))
    shapes = ["%s=%s" % (k, "x".join(dim(d) for d in v))
              for k, v in (input_shapes or {}).items()]
    def tensor_protos(what, given):
        values = {}
        for k, v in (given or {}).items():
            if isinstance(v, (bytes, bytearray, memoryview)):
                values[str(k)] = bytes(v)  # a serialized TensorProto
                continue
            try:
                with open(_os.fspath(v), "rb") as f:
                    values[str(k)] = f.read()
            except (OSError, TypeError) as e:
                raise CompileError("%s[%r]: cannot read %r: %s"
                                   % (what, k, v, e)) from None
        return values
    values = tensor_protos("input_values", input_values)
    specialize = tensor_protos("specialize_values", specialize_values)
    if isinstance(expose_values, str):
        expose_values = [expose_values]
    exposed = [str(v) for v in (expose_values or [])]
    if "all" in exposed and len(exposed) > 1:
        raise CompileError("expose_values: 'all' goes alone")
    out = "" if output is None else _os.fspath(output)
    d = _nnapi_mlir.compile(source, is_path, name, out, emit, text, shapes,
                            values, specialize, exposed, signature or "",
                            target or "",
                            cpu or "", features or "",
                            runpath or "")
    return CompileSummary(d)


class Tensor:
    """An input or output of a model: name, shape (tuple; None for a dynamic
    dimension), dtype (numpy); min_shape and max_shape: the sizes each
    dimension may take (equal to shape's where it is static; for a dynamic
    output dimension the range is not known: 1 to 2**31-1); nbytes: 0 when
    a dimension is dynamic; bound: the model was compiled for one value of
    this input (input_values, specialize_values), which run() must be
    given."""

    def __init__(self, name, dtype, shape, nbytes, bound=False,
                 min_shape=None, max_shape=None):
        self.name = name
        self.dtype = _np.dtype(_DTYPES[dtype])
        self.shape = tuple(None if d < 0 else d for d in shape)
        self.min_shape = tuple(min_shape) if min_shape else self.shape
        self.max_shape = tuple(max_shape) if max_shape else self.shape
        self.nbytes = nbytes
        self.bound = bound

    @property
    def dynamic(self):
        return None in self.shape

    def accepts(self, shape):
        """Whether an array of `shape` fits: the rank, every static
        dimension, and every dynamic one within its range."""
        return len(shape) == len(self.shape) and all(
            lo <= d <= hi for d, lo, hi in
            zip(shape, self.min_shape, self.max_shape))

    def __repr__(self):
        return "Tensor(%r, %s, %s)" % (self.name, self.shape, self.dtype)


class Model:
    """A compiled model, loaded with load()."""

    def __init__(self, path):
        self._model = _nnapi_mlir._Model(_os.fspath(path))
        self.path = _os.fspath(path)
        self.inputs = [Tensor(*t) for t in self._model.inputs]
        self.outputs = [Tensor(*t) for t in self._model.outputs]
        self.partitions = self._model.partitions
        # Dynamic dimensions (compiled with input_shapes such as
        # "x=1x3x48x[16..2048]"): run() takes any size within the ranges.
        self.dynamic = self._model.dynamic

    def output_shapes(self, *shapes):
        """The outputs' shapes for inputs of these shapes (one tuple per
        input, in order). Raises ShapeError for a size outside the model's
        ranges."""
        if len(shapes) != len(self.inputs):
            raise InputError("the model takes %d input(s), got %d shapes"
                             % (len(self.inputs), len(shapes)))
        try:
            return [tuple(d) for d in self._model.output_dims(
                [list(s) for s in shapes])]
        except ValueError as e:
            raise ShapeError(str(e)) from None

    @property
    def input_names(self):
        return [t.name for t in self.inputs]

    @property
    def output_names(self):
        return [t.name for t in self.outputs]

    def _arrange(self, args, kwargs):
        if len(args) == 1 and isinstance(args[0], dict) and not kwargs:
            kwargs, args = args[0], ()
        if args and kwargs:
            raise InputError("give the inputs by position or by name, "
                             "not both")
        if kwargs:
            names = self.input_names
            unknown = sorted(set(kwargs) - set(names))
            if unknown:
                raise InputError("unknown input(s) %s; the model's inputs "
                                 "are %s" % (unknown, names))
            missing = [n for n in names if n not in kwargs]
            if missing:
                raise InputError("missing input(s) %s" % missing)
            return [kwargs[n] for n in names]
        if len(args) != len(self.inputs):
            raise InputError("the model takes %d input(s) %s, got %d"
                             % (len(self.inputs), self.input_names,
                                len(args)))
        return list(args)

    def run(self, *args, **kwargs):
        """Runs the model once.

        run(x, y), run({"x": x, "y": y}) or run(x=x, y=y): numpy arrays of
        exactly the model's shapes and dtypes (nested lists and scalars are
        converted to the model's dtype); a dynamic dimension takes any size
        within its range. Returns the outputs as a list of new numpy arrays
        (of the shapes the inputs' sizes give).
        Raises InputError (also when an input compiled for one value, with
        input_values or specialize_values, holds another), ShapeError,
        DTypeError or ModelError.
        """
        arrays = []
        for spec, value in zip(self.inputs, self._arrange(args, kwargs)):
            # Arrays keep their dtype (a mismatch is an error, never a silent
            # cast); lists and Python scalars take the model's.
            a = (value if isinstance(value, _np.ndarray)
                 else _np.asarray(value, dtype=spec.dtype))
            if a.dtype != spec.dtype:
                raise DTypeError("input %r is %s, the model takes %s"
                                 % (spec.name, a.dtype, spec.dtype))
            if not spec.accepts(a.shape):
                ranges = "" if not spec.dynamic else " (sizes %s to %s)" % (
                    spec.min_shape, spec.max_shape)
                raise ShapeError("input %r has shape %s, the model takes %s%s"
                                 % (spec.name, a.shape, spec.shape, ranges))
            # (np.require keeps a rank-0 array rank 0; ascontiguousarray
            # would make it [1].)
            arrays.append(_np.require(a, requirements="C"))
        shapes = ([t.shape for t in self.outputs] if not self.dynamic else
                  self.output_shapes(*(a.shape for a in arrays)))
        # In the runtime's allocator: large outputs reach NNAPI as memory.
        outputs = [empty(s, t.dtype) for s, t in zip(shapes, self.outputs)]
        model = self._model  # close() on another thread may clear it
        if model is None:
            raise ModelError("the model %r was closed" % self.path)
        try:
            model.run(arrays, outputs)
        except ValueError as e:  # an input bound at compile time differs
            raise InputError(str(e)) from None
        except ModelError as e:
            if str(e) == "the model was closed":
                raise ModelError("the model %r was closed" % self.path) from None
            raise
        return outputs

    __call__ = run

    def validate(self, *args, sets=2, seed=0, **kwargs):
        """Checks every NNAPI device against the host copy, as nnapi-run
        --validate does (docs/validation.md): for each device that may run
        partitions, the model runs on the inputs given (as for run()) and
        `sets` more random ones (floats uniform in [-1, 1) from `seed`,
        other inputs as given), every partition compared with its host copy.

        Returns one dict per partition and device: partition (its name),
        device, result ("pass", "fail" or "not run"), reason (why not run),
        and the checks of partitions() (max_error, tolerance, unit,
        mismatches, wrong_operations, ...). The runtime options are
        restored after; the quirks record in force gets what is found."""
        given = [_np.asarray(a) for a in self._arrange(args, kwargs)]
        rng = _np.random.default_rng(seed)
        input_sets = [given]
        for _ in range(sets):
            input_sets.append([
                (rng.uniform(-1, 1, _np.shape(a)).astype(t.dtype)
                 if _np.issubdtype(t.dtype, _np.floating) else a)
                for t, a in zip(self.inputs, given)])
        candidates = sorted((d for d in devices() if d["preference"] >= 0),
                            key=lambda d: d["preference"])
        results = []
        try:
            for d in candidates:
                configure(devices=d["name"], validate=True)
                for inputs in input_sets:
                    self.run(*inputs)
                for p in partitions():
                    checks = p.get("checks", {})
                    ran = p["error"] == "" and checks.get("checks", 0) > 0
                    entry = {"partition": p["name"], "device": d["name"],
                             "version": d["version"],
                             "feature_level": d["feature_level"],
                             "result": ("not run" if not ran else
                                        "fail" if checks["mismatches"]
                                        else "pass"),
                             "reason": "" if ran else (p["error"] or
                                                       p["last_failure"])}
                    entry.update(checks)
                    results.append(entry)
        finally:
            configure(devices=None, validate=None)
        return results

    def close(self):
        """Unloads the model now (it is also unloaded when garbage
        collected), once runs in flight on other threads are done; later
        calls raise ModelError."""
        model, self._model = self._model, None
        if model is not None:
            model.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        return "Model(%r, inputs=%s, outputs=%s, %d partitions)" % (
            self.path, self.inputs, self.outputs, self.partitions)


def load(path, threads=None):
    """Loads a model compiled by compile() or nnapi-compile; raises
    ModelError when it is not one. `threads` sets the runtime's thread
    count (configure(threads=...): process-wide, for every model)."""
    if threads is not None:
        configure(threads=threads)
    return Model(path)


def threads():
    """Threads of the runtime's one pool, which runs every model's host code
    and the host NNAPI device: configure(threads=N) or load(..., threads=N),
    else $NNAPI_MLIR_THREADS, else the CPUs this process may use."""
    return _nnapi_mlir.threads()


def set_host_only(host_only=True):
    """Runs every partition's host copy instead of NNAPI (for comparisons),
    or, with False, NNAPI again with per-partition fallback."""
    _nnapi_mlir.set_host_only(bool(host_only))


def set_log_callback(callback):
    """Sends the runtime's warnings (a partition's fallback reason, a device
    left, a capped thread count) to callback(level, message) instead of
    stderr (logcat on Android); None restores that. Level 1 is a warning.
    It is called on the thread that runs the model and must not call the
    runtime; exceptions it raises are reported as unraisable and dropped."""
    _nnapi_mlir.set_log_callback(callback)


def empty(shape, dtype=_np.float32):
    """An uninitialized C-contiguous array whose memory is the runtime's
    (nnapi_rt_alloc). Inputs and outputs of 64 KiB and more in such arrays
    reach NNAPI as shared memory instead of being copied at every
    execution (the bind_memory option); Model.run returns its outputs in
    them. The memory is freed with the last array that uses it."""
    if isinstance(shape, int):
        shape = (shape,)
    return _nnapi_mlir.empty(list(shape), _np.dtype(dtype))


def binding_stats(reset=False):
    """(bytes given to NNAPI as memory, bytes given as pointers) for
    partition inputs and outputs since the last reset."""
    stats = _nnapi_mlir.binding_stats()
    if reset:
        _nnapi_mlir.reset_stats()
    return stats


def runtime_stats(reset=False):
    """(partition executions on NNAPI, failed ones that fell back to the
    host) since the last reset."""
    stats = _nnapi_mlir.stats()
    if reset:
        _nnapi_mlir.reset_stats()
    return stats


def shape_stats(reset=False):
    """Partitions with dynamic dimensions, since the last reset:
    (specializations compiled, calls that found theirs compiled,
    specializations dropped to keep 8 per partition). The runtime
    specializes such a partition to each new shape of its inputs."""
    stats = _nnapi_mlir.shape_stats()
    if reset:
        _nnapi_mlir.reset_stats()
    return stats



def configure(**options):
    """Sets runtime options (Runtime.h's nnapi_rt_set_option; None restores
    the default):

    devices     "npu,gpu,-nnapi-reference": device names or types
                (accelerator, gpu, cpu, other) that may run partitions, most
                preferred first; "-" excludes. Default: all but NNAPI's CPU
                reference device, accelerators first.
    cache_dir   an existing directory for the drivers' compilation caches
    preference  "fast-single-answer", "sustained-speed" or "low-power"
    priority    "low", "medium" or "high"
    bursts      False: no bursts (default True on feature level 3+ devices)
    timing      True: drivers measure each execution (partitions())
    threads     threads of the runtime's one pool, 1 to 256 (default: the
                CPUs this process may use; threads()); more than those are
                capped there, with a message, unless threads_force=True
    threads_force  True: use `threads` even above the CPUs available
    loop_timeout_ms  how long one loop may run, NNAPI's WHILE and the
                host code's alike (default 2000); a run with a loop that
                takes longer raises ModelError
    verify      K: every K-th execution of each partition is compared with
                its host copy; on a mismatch the partition leaves that
                device (partitions()[i]["checks"]; docs/validation.md)
    validate    True: every execution compared, nothing left
    quirks      the quirks record (default: cache_dir's)
    max_failures  failed executions in a row after which a partition
                leaves its device (default 3)

    Compiled partitions are dropped, so the next run compiles with the new
    values. Raises ValueError (InputError) for an unknown option or value."""
    for name, value in options.items():
        if name == "threads" and value is not None and (
                isinstance(value, bool) or
                not isinstance(value, _numbers.Integral)):
            raise InputError("threads must be an integer from 1 to 256, "
                             "got %r" % (value,))
        if isinstance(value, bool):
            value = "1" if value else "0"
        elif isinstance(value, (list, tuple)):
            value = ",".join(value)
        elif value is not None:
            value = (_os.fspath(value) if name in ("cache_dir", "quirks")
                     else str(value))
        try:
            _nnapi_mlir.set_option(name, value)
        except ValueError as e:
            raise InputError(str(e)) from None


def devices():
    """The NNAPI library's devices: dicts with name, version, type
    ("accelerator", "gpu", "cpu", ...), feature_level and preference (place
    among the candidates for partitions, -1 if not one)."""
    return _nnapi_mlir.devices()


def partitions():
    """What became of each partition run so far: dicts with device (""
    when it runs its host copy), error (why), feature_level, burst, cached,
    executions, failures and last_failure (executions that failed and ran
    the host copy), and with timing on, hardware_timed/hardware_ns and
    driver_timed/driver_ns (counts and sums of the measured durations),
    name (its function in the compiled model), operations (NNAPI
    operations in it), passed_over (why more preferred devices did not
    take it), and checks:
    what comparing it with its host copy found (verify, validate options) -
    checks, mismatches, max_error, tolerance and unit, device_ns/host_ns,
    first_mismatch, left (why it left a device), reference and
    wrong_operations (operation, signature, error, tolerance, unit,
    description)."""
    return _nnapi_mlir.partitions()
