//===- NNAPIMLIRModule.cpp - The nnapi_mlir Python package's native part --===//
//
// _nnapi_mlir: compile() over the embedding API (Compiler.h) and _Model over
// the runtime's model API (Model.h). The public API, its argument checking
// and its documentation are in nnapi_mlir/__init__.py; this file only
// converts between Python and C++ and turns failures into the package's
// exceptions.
//
//===----------------------------------------------------------------------===//

#include "nnapi-mlir/Compiler/Compiler.h"
#include "nnapi-mlir/Pipelines/Registration.h"
#include "nnapi-mlir/Runtime/Model.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <condition_variable>
#include <mutex>
#include <optional>
#include <sstream>

namespace py = pybind11;
using namespace mlir;

namespace {

struct CompileFailure {
  std::string message;
};
struct ModelFailure {
  std::string message;
};

/// Every diagnostic of a compilation, as "location: severity: message".
struct DiagnosticLog {
  std::vector<std::string> lines;
  std::string joined() const {
    std::string s;
    for (const std::string &l : lines)
      s += "\n  " + l;
    return s;
  }
};

const char *severityName(DiagnosticSeverity s) {
  switch (s) {
  case DiagnosticSeverity::Error:
    return "error";
  case DiagnosticSeverity::Warning:
    return "warning";
  case DiagnosticSeverity::Remark:
    return "remark";
  case DiagnosticSeverity::Note:
    return "note";
  }
  return "?";
}

py::dict summaryToDict(const nnapi::CompileSummary &s,
                       const DiagnosticLog &log) {
  py::dict d;
  d["feature_level"] = s.targetFeatureLevel;
  py::list partitions;
  for (const auto &p : s.partitions) {
    py::dict e;
    e["name"] = p.name;
    e["ops"] = p.ops;
    e["num_ops"] = p.numOps;
    e["num_inputs"] = p.numInputs;
    e["num_outputs"] = p.numOutputs;
    e["blob_bytes"] = p.blobBytes;
    e["feature_level"] = p.featureLevel;
    partitions.append(e);
  }
  d["partitions"] = partitions;
  py::list hostFunctions;
  for (const auto &h : s.hostFunctions) {
    py::dict e;
    e["name"] = h.name;
    e["ops"] = h.ops;
    e["num_ops"] = h.numOps;
    hostFunctions.append(e);
  }
  d["host_functions"] = hostFunctions;
  py::list functions;
  for (const nnapi::ReportFunction &f : s.report.functions) {
    py::dict e;
    e["name"] = f.name;
    e["all_host_us"] = f.allHostUs;
    e["chosen_us"] = f.chosenUs;
    e["optimal"] = f.optimal;
    py::list ops;
    for (const nnapi::ReportOp &op : f.ops) {
      py::dict o;
      o["id"] = op.id;
      o["name"] = op.name;
      o["type"] = op.type;
      o["nnapi"] = op.nnapi;
      o["partition"] = op.partition;
      o["host_us"] = op.hostUs;
      o["device_us"] =
          op.deviceUs ? py::object(py::float_(*op.deviceUs)) : py::none();
      o["reason"] = op.reason;
      ops.append(o);
    }
    e["ops"] = ops;
    py::list parts;
    for (const nnapi::ReportPartition &p : f.partitions) {
      py::dict o;
      o["name"] = p.name;
      o["ops"] = p.ops;
      o["benefit_us"] = p.benefitUs;
      parts.append(o);
    }
    e["partitions"] = parts;
    functions.append(e);
  }
  d["functions"] = functions;
  d["device_profile"] = s.report.profileName;
  d["arena_bytes"] = s.arenaBytes;
  d["unplanned_bytes"] = s.unplannedBytes;
  d["diagnostics"] = log.lines;
  std::string text;
  llvm::raw_string_ostream os(text);
  nnapi::printPartitionSummary(s, os);
  if (!s.hostBuffers.empty())
    nnapi::printBufferSummary(s, os);
  d["text"] = os.str();
  return d;
}

py::dict compile(const py::object &model, bool isPath, const std::string &name,
                 const std::string &output, const std::string &emit,
                 const std::string &pipelineOptions,
                 const std::vector<std::string> &inputShapes,
                 const std::map<std::string, std::string> &inputValues,
                 const std::map<std::string, std::string> &specializeValues,
                 const std::vector<std::string> &exposeValues,
                 const std::string &signature, const std::string &triple, const std::string &cpu,
                 const std::string &features, const std::string &runpath) {
  DialectRegistry registry;
  nnapi::registerCompilerDialects(registry);
  MLIRContext context(registry);
  context.printOpOnDiagnostic(false);
  DiagnosticLog log;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    std::string line;
    llvm::raw_string_ostream os(line);
    Location loc = diag.getLocation();
    if (auto file = dyn_cast<FileLineColLoc>(loc))
      os << file.getFilename().getValue() << ":" << file.getLine() << ":"
         << file.getColumn();
    else
      os << loc;
    os << ": " << severityName(diag.getSeverity()) << ": " << diag.str();
    log.lines.push_back(os.str());
    return success();
  });

  nnapi::CompilePipelineOptions options;
  {
    std::string errors;
    llvm::raw_string_ostream es(errors);
    if (failed(options.parseFromString(pipelineOptions, es)))
      throw CompileFailure{"invalid options '" + pipelineOptions +
                           "': " + es.str()};
  }
  nnapi::CompileOutput out;
  if (emit == "so")
    out.emit = nnapi::EmitKind::SharedLibrary;
  else if (emit == "obj")
    out.emit = nnapi::EmitKind::Object;
  else if (emit == "llvm")
    out.emit = nnapi::EmitKind::LLVMIR;
  else if (emit == "mlir")
    out.emit = nnapi::EmitKind::MLIR;
  else
    throw CompileFailure{"emit must be 'so', 'obj', 'llvm' or 'mlir', got '" +
                         emit + "'"};
  std::string buffer;
  out.path = output;
  if (output.empty())
    out.buffer = &buffer;
  out.triple = triple;
  out.cpu = cpu;
  out.features = features;
  out.runpath = runpath;

  nnapi::LoadOptions load;
  // As nnapi-compile's --input-shape, by the same parser.
  for (const std::string &spec : inputShapes) {
    std::string error;
    if (!nnapi::parseInputShape(spec, load, error))
      throw CompileFailure{error};
  }
  load.inputValues = inputValues;
  load.specializeValues = specializeValues;
  load.exposeValues = exposeValues;
  load.signature = signature;
  nnapi::CompileSummary summary;
  llvm::Error err = llvm::Error::success();
  std::string modelText = py::cast<std::string>(model);
  {
    py::gil_scoped_release release;
    auto module = isPath ? nnapi::loadModelFile(modelText, &context, load)
                         : nnapi::loadModel(modelText, name, &context, load);
    if (!module)
      err = module.takeError();
    else
      err = nnapi::compileModule(**module, options, out, &summary);
  }
  if (err)
    throw CompileFailure{llvm::toString(std::move(err)) + log.joined()};
  py::dict d = summaryToDict(summary, log);
  d["output"] = output.empty() ? py::object(py::bytes(buffer)) : py::none();
  return d;
}

/// The pipeline's options: (flag, type, default, description).
std::vector<std::tuple<std::string, std::string, std::string, std::string>>
pipelineOptions() {
  std::vector<std::tuple<std::string, std::string, std::string, std::string>>
      result;
  auto text = [](auto value) {
    std::ostringstream os;
    os << std::boolalpha << value;
    return os.str();
  };
#define NNAPI_OPTION(TYPE, FIELD, FLAG, DEFAULT, DESC)                         \
  result.emplace_back(FLAG, #TYPE, text(TYPE(DEFAULT)), DESC);
#define NNAPI_LIST_OPTION(TYPE, FIELD, FLAG, DESC)                             \
  result.emplace_back(FLAG, "list[" #TYPE "]", "", DESC);
#include "nnapi-mlir/Partition/PartitionOptions.inc"
#define NNAPI_OPTION(TYPE, FIELD, FLAG, DEFAULT, DESC)                         \
  result.emplace_back(FLAG, #TYPE, text(TYPE(DEFAULT)), DESC);
#include "nnapi-mlir/Pipelines/PipelineOptions.def"
  return result;
}

/// A loaded model (Model.h).
class Model {
public:
  explicit Model(const std::string &path) {
    if (nnapi_rt_model_open(path.c_str(), &model) != NNAPI_RT_OK)
      throw ModelFailure{nnapi_rt_last_error()};
  }
  ~Model() { close(); }
  /// Unloads the model once the runs other threads have in flight are done
  /// (they released the GIL); later runs raise. Without the GIL: the
  /// runtime's lock may be held by another thread building a partition.
  void close() {
    nnapi_rt_model *closing = model;
    if (!closing)
      return;
    model = nullptr; // under the GIL: no run starts after this
    py::gil_scoped_release release;
    {
      std::unique_lock<std::mutex> lock(runsMutex);
      runsDone.wait(lock, [&] { return runsInFlight == 0; });
    }
    nnapi_rt_model_close(closing);
  }
  Model(const Model &) = delete;
  Model &operator=(const Model &) = delete;

  py::list tensors(bool inputs) const {
    py::list list;
    int64_t n = inputs ? nnapi_rt_model_num_inputs(model)
                       : nnapi_rt_model_num_outputs(model);
    for (int64_t i = 0; i < n; ++i) {
      nnapi_rt_tensor_info info;
      if ((inputs ? nnapi_rt_model_input
                  : nnapi_rt_model_output)(model, i, &info) != NNAPI_RT_OK)
        throw ModelFailure{nnapi_rt_last_error()};
      py::tuple shape(info.rank);
      for (int64_t d = 0; d < info.rank; ++d)
        shape[d] = info.dims[d];
      bool bound = inputs && nnapi_rt_model_input_is_bound(model, i);
      std::vector<int64_t> low(size_t(info.rank)), high(size_t(info.rank));
      if (nnapi_rt_model_dims_range(model, inputs, i, low.data(),
                                    high.data()) != NNAPI_RT_OK)
        throw ModelFailure{nnapi_rt_last_error()};
      list.append(py::make_tuple(info.name, info.dtype, shape, info.bytes,
                                 bound, py::tuple(py::cast(low)),
                                 py::tuple(py::cast(high))));
    }
    return list;
  }
  int64_t partitions() const { return nnapi_rt_model_num_partitions(model); }
  bool dynamic() const { return nnapi_rt_model_is_dynamic(model); }

  /// Every output's dimensions for inputs of these dimensions (the runtime
  /// checks them against the ranges; ValueError names the first outside).
  std::vector<std::vector<int64_t>>
  outputDims(std::vector<std::vector<int64_t>> inputDims) const {
    if (!model)
      throw ModelFailure{"the model was closed"};
    std::vector<const int64_t *> in;
    for (size_t i = 0; i < inputDims.size(); ++i) {
      nnapi_rt_tensor_info info;
      if (nnapi_rt_model_input(model, int64_t(i), &info) == NNAPI_RT_OK &&
          int64_t(inputDims[i].size()) != info.rank)
        throw py::value_error("input " + std::to_string(i) + " has rank " +
                              std::to_string(inputDims[i].size()) +
                              ", the model takes rank " +
                              std::to_string(info.rank));
      in.push_back(inputDims[i].data());
    }
    std::vector<std::vector<int64_t>> result;
    std::vector<int64_t *> out;
    for (int64_t o = 0; o < nnapi_rt_model_num_outputs(model); ++o) {
      nnapi_rt_tensor_info info;
      if (nnapi_rt_model_output(model, o, &info) != NNAPI_RT_OK)
        throw ModelFailure{nnapi_rt_last_error()};
      result.emplace_back(size_t(info.rank));
    }
    for (auto &d : result)
      out.push_back(d.data());
    int32_t status = nnapi_rt_model_output_dims(
        model, int64_t(in.size()), in.data(), int64_t(out.size()), out.data());
    if (status == NNAPI_RT_INVALID_ARGUMENT)
      throw py::value_error(nnapi_rt_last_error());
    if (status != NNAPI_RT_OK)
      throw ModelFailure{nnapi_rt_last_error()};
    return result;
  }
  std::string signature() const { return nnapi_rt_model_signature(model); }

  /// Runs with caller-made buffers (the Python side checked dtypes and
  /// shapes; the runtime checks the sizes again).
  void run(const std::vector<py::buffer> &inputs,
           const std::vector<py::buffer> &outputs) {
    if (!model)
      throw ModelFailure{"the model was closed"};
    std::vector<py::buffer_info> in, out;
    std::vector<const void *> inPtrs;
    std::vector<void *> outPtrs;
    std::vector<uint64_t> inBytes, outBytes;
    std::vector<std::vector<int64_t>> dims;
    for (const py::buffer &b : inputs) {
      in.push_back(b.request());
      inPtrs.push_back(in.back().ptr);
      inBytes.push_back(uint64_t(in.back().size * in.back().itemsize));
      dims.emplace_back(in.back().shape.begin(), in.back().shape.end());
      // The runtime reads as many dimensions as the input's rank.
      size_t i = in.size() - 1;
      nnapi_rt_tensor_info info;
      if (nnapi_rt_model_input(model, int64_t(i), &info) == NNAPI_RT_OK &&
          int64_t(dims.back().size()) != info.rank)
        throw py::value_error("input " + std::to_string(i) + " has rank " +
                              std::to_string(dims.back().size()) +
                              ", the model takes rank " +
                              std::to_string(info.rank));
    }
    std::vector<const int64_t *> inDims;
    for (const auto &d : dims)
      inDims.push_back(d.data());
    for (const py::buffer &b : outputs) {
      out.push_back(b.request(/*writable=*/true));
      outPtrs.push_back(out.back().ptr);
      outBytes.push_back(uint64_t(out.back().size * out.back().itemsize));
    }
    int32_t status;
    nnapi_rt_model *running = model;
    {
      // Counted for as long as it is in scope: no way out of the run
      // leaves close() waiting forever.
      InFlight run(*this);
      py::gil_scoped_release release;
      status = nnapi_rt_model_run_dims(
          running, int64_t(inPtrs.size()), inPtrs.data(), inBytes.data(),
          inDims.data(), int64_t(outPtrs.size()), outPtrs.data(),
          outBytes.data());
    }
    // The sizes were checked in Python; what the runtime still refuses as
    // an argument is an input's value (one bound at compile time) or a
    // dynamic dimension outside its range.
    if (status == NNAPI_RT_INVALID_ARGUMENT)
      throw py::value_error(nnapi_rt_last_error());
    if (status != NNAPI_RT_OK)
      throw ModelFailure{nnapi_rt_last_error()};
  }

private:
  nnapi_rt_model *model = nullptr;
  /// Runs between their GIL release and their return: close() waits for
  /// them to finish before it unloads the model.
  std::mutex runsMutex;
  std::condition_variable runsDone;
  int64_t runsInFlight = 0;
  /// One run in flight while in scope.
  struct InFlight {
    Model &owner;
    explicit InFlight(Model &m) : owner(m) {
      std::lock_guard<std::mutex> lock(owner.runsMutex);
      ++owner.runsInFlight;
    }
    ~InFlight() {
      std::lock_guard<std::mutex> lock(owner.runsMutex);
      if (--owner.runsInFlight == 0)
        owner.runsDone.notify_all();
    }
  };
};

} // namespace

PYBIND11_MODULE(_nnapi_mlir, m) {
  m.doc() = "Native part of nnapi_mlir; use the nnapi_mlir package.";
  static py::exception<DiagnosticLog> error(m, "Error");
  static py::exception<CompileFailure> compileError(m, "CompileError",
                                                    error.ptr());
  static py::exception<ModelFailure> modelError(m, "ModelError", error.ptr());
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p)
        std::rethrow_exception(p);
    } catch (const CompileFailure &e) {
      PyErr_SetString(compileError.ptr(), e.message.c_str());
    } catch (const ModelFailure &e) {
      PyErr_SetString(modelError.ptr(), e.message.c_str());
    }
  });

  m.def("compile", &compile, py::arg("model"), py::arg("is_path"),
        py::arg("name"), py::arg("output"), py::arg("emit"), py::arg("options"),
        py::arg("input_shapes"), py::arg("input_values"),
        py::arg("specialize_values"), py::arg("expose_values"),
        py::arg("signature"), py::arg("triple"), py::arg("cpu"),
        py::arg("features"), py::arg("runpath"));
  m.def("pipeline_options", &pipelineOptions);
  m.def("set_host_only", [](bool hostOnly) {
    nnapi_rt_set_mode(hostOnly ? NNAPI_RT_MODE_HOST_ONLY : NNAPI_RT_MODE_AUTO);
  });
  m.def("host_only",
        []() { return nnapi_rt_get_mode() == NNAPI_RT_MODE_HOST_ONLY; });
  m.def("stats", []() {
    uint64_t onNNAPI = 0, failed = 0;
    nnapi_rt_get_stats(&onNNAPI, &failed);
    return py::make_tuple(onNNAPI, failed);
  });
  m.def("shape_stats", []() {
    uint64_t built = 0, hits = 0, evicted = 0;
    nnapi_rt_get_shape_stats(&built, &hits, &evicted);
    return py::make_tuple(built, hits, evicted);
  });
  m.def("reset_stats", &nnapi_rt_reset_stats);
  m.def("binding_stats", []() {
    uint64_t memory = 0, pointer = 0;
    nnapi_rt_get_binding_stats(&memory, &pointer);
    return py::make_tuple(memory, pointer);
  });
  // An array in the runtime's allocator (nnapi_rt_alloc: shared memory for
  // 64 KiB and more, which NNAPI maps instead of copying), freed with the
  // last array that uses it.
  m.def("empty", [](const std::vector<py::ssize_t> &shape, py::object type) {
    py::dtype dtype = py::dtype::from_args(type);
    size_t bytes = size_t(dtype.itemsize());
    for (py::ssize_t d : shape) {
      if (d < 0)
        throw py::value_error("negative dimension " + std::to_string(d));
      if (d && bytes > SIZE_MAX / 2 / size_t(d))
        throw py::value_error("the array is too large");
      bytes *= size_t(d);
    }
    void *data = nnapi_rt_alloc(std::max<size_t>(bytes, 1), 64);
    if (!data)
      throw std::bad_alloc();
    py::capsule owner(data, [](void *p) { nnapi_rt_free(p); });
    return py::array(dtype, shape, data, owner);
  }, py::arg("shape"), py::arg("dtype"));
  m.def("threads", &nnapi_rt_get_threads);
  m.def("set_quiet", [](bool quiet) { nnapi_rt_set_quiet(quiet); });
  // The runtime's warnings to a Python callable (None: the default again).
  // The callable lives as long as it is set; it is called with the GIL
  // taken, on whichever thread ran the model, and what it raises is dropped.
  m.def("set_log_callback", [](py::object callback) {
    static py::object *current = nullptr;
    py::object *next =
        callback.is_none() ? nullptr : new py::object(std::move(callback));
    {
      // The runtime may be calling the old callable on another thread,
      // which waits for the GIL this thread holds: let it go meanwhile.
      py::gil_scoped_release release;
      if (next)
        nnapi_rt_set_log_callback(
            [](void *user, int32_t level, const char *message) {
              py::gil_scoped_acquire gil;
              try {
                (*static_cast<py::object *>(user))(level, message);
              } catch (py::error_already_set &e) {
                e.discard_as_unraisable("nnapi_mlir log callback");
              }
            },
            next);
      else
        nnapi_rt_set_log_callback(nullptr, nullptr);
    }
    delete current;
    current = next;
  });
  m.def("set_option", [](const std::string &name,
                         std::optional<std::string> value) {
    if (nnapi_rt_set_option(name.c_str(), value ? value->c_str() : nullptr) !=
        NNAPI_RT_OK)
      throw py::value_error(nnapi_rt_last_error());
  });
  m.def("devices", []() {
    int32_t n = nnapi_rt_device_count();
    if (n < 0)
      throw ModelFailure{nnapi_rt_last_error()};
    py::list list;
    for (int32_t i = 0; i < n; ++i) {
      nnapi_rt_device_info d;
      if (nnapi_rt_get_device_info(i, &d) != NNAPI_RT_OK)
        throw ModelFailure{nnapi_rt_last_error()};
      py::dict entry;
      entry["name"] = std::string(d.name);
      entry["version"] = std::string(d.version);
      entry["type"] = std::string(nnapi_rt_device_type_name(d.type));
      entry["feature_level"] = d.featureLevel;
      entry["preference"] = d.preference;
      list.append(entry);
    }
    return list;
  });
  m.def("partitions", []() {
    py::list list;
    for (int32_t i = 0, n = nnapi_rt_partition_count(); i < n; ++i) {
      nnapi_rt_partition_info p;
      if (nnapi_rt_get_partition_info(i, &p) != NNAPI_RT_OK)
        continue;
      py::dict entry;
      entry["device"] = std::string(p.device);
      entry["error"] = std::string(p.error);
      entry["feature_level"] = p.featureLevel;
      entry["burst"] = bool(p.burst);
      entry["cached"] = bool(p.cached);
      entry["executions"] = p.executions;
      entry["failures"] = p.failures;
      entry["last_failure"] = std::string(p.lastFailure);
      entry["hardware_timed"] = p.hardwareTimed;
      entry["hardware_ns"] = p.hardwareNs;
      entry["driver_timed"] = p.driverTimed;
      entry["driver_ns"] = p.driverNs;
      entry["passed_over"] = std::string(p.passedOver);
      entry["name"] = std::string(p.name);
      entry["operations"] = p.operations;
      // What the checks with the host copy found (verify, validate).
      nnapi_rt_check_info c;
      if (nnapi_rt_get_check_info(i, &c) == NNAPI_RT_OK) {
        py::dict check;
        check["device"] = std::string(c.device);
        check["checks"] = c.checks;
        check["mismatches"] = c.mismatches;
        check["max_error"] = c.maxError;
        check["tolerance"] = c.tolerance;
        check["unit"] = std::string(c.unit);
        check["device_ns"] = c.deviceNs;
        check["host_ns"] = c.hostNs;
        check["first_mismatch"] = std::string(c.firstMismatch);
        check["reference"] = std::string(c.reference);
        check["note"] = std::string(c.narrowNote);
        check["left"] = std::string(c.disabled);
        py::list wrong;
        for (int32_t k = 0; k < c.wrongOperations; ++k) {
          nnapi_rt_wrong_operation w;
          if (nnapi_rt_get_wrong_operation(i, k, &w) != NNAPI_RT_OK)
            continue;
          py::dict op;
          op["operation"] = w.operation;
          op["signature"] = std::string(w.signature);
          op["error"] = w.error;
          op["tolerance"] = w.tolerance;
          op["unit"] = std::string(w.unit);
          op["description"] = std::string(w.description);
          wrong.append(op);
        }
        check["wrong_operations"] = wrong;
        entry["checks"] = check;
      }
      list.append(entry);
    }
    return list;
  });

  py::class_<Model>(m, "_Model")
      .def(py::init<const std::string &>())
      .def_property_readonly("inputs",
                             [](const Model &m) { return m.tensors(true); })
      .def_property_readonly("outputs",
                             [](const Model &m) { return m.tensors(false); })
      .def_property_readonly("partitions", &Model::partitions)
      .def_property_readonly("signature", &Model::signature)
      .def("run", &Model::run)
      .def_property_readonly("dynamic", &Model::dynamic)
      .def("output_dims", &Model::outputDims)
      .def("close", &Model::close);
}
