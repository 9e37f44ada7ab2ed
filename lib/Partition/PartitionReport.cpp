//===- PartitionReport.cpp - Placement report as JSON, HTML and DOT -------===//

#include "nnapi-mlir/Partition/PartitionReport.h"
#include "llvm/Support/MemoryBuffer.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::nnapi;

namespace {
/// Microsecond estimates to the nanosecond, without binary-fraction noise.
void micros(llvm::json::OStream &j, llvm::StringRef key, double value) {
  j.attributeBegin(key);
  j.rawValue(llvm::formatv("{0:F3}", value).str());
  j.attributeEnd();
}
} // namespace

std::string mlir::nnapi::reportToJSON(const Report &report) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::json::OStream j(os, 1);
  j.object([&] {
    j.attribute("format", "nnapi-mlir-partition-report-1");
    j.attributeObject("profile", [&] {
      j.attribute("name", report.profileName);
      if (report.profilePath.empty())
        j.attribute("file", nullptr);
      else
        j.attribute("file", report.profilePath);
      j.attribute("feature_level", int64_t(report.featureLevel));
    });
    j.attribute("options", report.options);
    j.attributeArray("functions", [&] {
      for (const ReportFunction &f : report.functions)
        j.object([&] {
          j.attribute("name", f.name);
          j.attributeObject("estimated_us", [&] {
            micros(j, "all_host", f.allHostUs);
            micros(j, "chosen", f.chosenUs);
            micros(j, "saving", f.allHostUs - f.chosenUs);
          });
          j.attribute("proven_optimal", f.optimal);
          j.attribute("clusters", int64_t(f.clusters));
          j.attribute("exact_clusters", int64_t(f.exactClusters));
          j.attributeArray("partitions", [&] {
            for (const ReportPartition &p : f.partitions)
              j.object([&] {
                j.attribute("name", p.name);
                j.attributeArray("ops", [&] {
                  for (unsigned id : p.ops)
                    j.value(int64_t(id));
                });
                micros(j, "benefit_us", p.benefitUs);
              });
          });
          j.attributeArray("ops", [&] {
            for (const ReportOp &op : f.ops)
              j.object([&] {
                j.attribute("id", int64_t(op.id));
                j.attribute("name", op.name);
                j.attribute("type", op.type);
                if (op.nnapi.empty())
                  j.attribute("nnapi", nullptr);
                else
                  j.attribute("nnapi", op.nnapi);
                if (!op.nnapiInputs.empty() || !op.nnapiOutputs.empty()) {
                  j.attributeArray("nnapi_inputs", [&] {
                    for (const std::string &t : op.nnapiInputs)
                      j.value(t);
                  });
                  j.attributeArray("nnapi_outputs", [&] {
                    for (const std::string &t : op.nnapiOutputs)
                      j.value(t);
                  });
                }
                j.attribute("placement", op.partition >= 0 ? "nnapi" : "host");
                if (op.partition >= 0)
                  j.attribute("partition", int64_t(op.partition));
                else
                  j.attribute("partition", nullptr);
                micros(j, "host_us", op.hostUs);
                if (op.deviceUs)
                  micros(j, "nnapi_us", *op.deviceUs);
                else
                  j.attribute("nnapi_us", nullptr);
                j.attribute("macs", op.macs);
                j.attribute("elements", op.elements);
                if (op.measuredHost || op.measuredDevice)
                  j.attributeArray("measured", [&] {
                    if (op.measuredHost)
                      j.value("host");
                    if (op.measuredDevice)
                      j.value("nnapi");
                  });
                if (op.partition < 0)
                  j.attribute("reason", op.reason);
                j.attributeArray("inputs", [&] {
                  for (unsigned id : op.inputs)
                    j.value(int64_t(id));
                });
              });
          });
        });
    });
    if (!report.validation.empty())
      j.attribute("validation", llvm::json::Array(report.validation));
  });
  os << "\n";
  return text;
}

bool mlir::nnapi::loadValidation(llvm::StringRef path, Report &report,
                                 std::string &error) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer) {
    error = (path + ": cannot read validation results: " +
             buffer.getError().message())
                .str();
    return false;
  }
  llvm::Expected<llvm::json::Value> value =
      llvm::json::parse((*buffer)->getBuffer());
  if (!value) {
    error = (path + ": " + llvm::toString(value.takeError())).str();
    return false;
  }
  const llvm::json::Object *root = value->getAsObject();
  const llvm::json::Array *results =
      root ? root->getArray("results") : nullptr;
  if (!root || root->getString("format") != "nnapi-mlir-validation-1" ||
      !results) {
    error = (path + ": not nnapi-run --validation-out's results (format "
                    "nnapi-mlir-validation-1 with 'results')")
                .str();
    return false;
  }
  for (const llvm::json::Value &r : *results) {
    const llvm::json::Object *o = r.getAsObject();
    if (!o || !o->getString("partition") || !o->getString("device") ||
        !o->getString("result")) {
      error = (path + ": every result needs 'partition', 'device' and "
                      "'result'")
                  .str();
      return false;
    }
  }
  report.validation = *results;
  return true;
}

namespace {
/// Escapes a string for a double-quoted DOT attribute.
std::string dotEscape(llvm::StringRef s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\')
      out += '\\';
    out += c == '\n' ? ' ' : c;
  }
  return out;
}
} // namespace

std::string mlir::nnapi::reportToDOT(const Report &report) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "digraph nnapi_partitions {\n"
     << "  rankdir=TB;\n"
     << "  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\"];\n";
  for (auto [fi, f] : llvm::enumerate(report.functions)) {
    std::string prefix = "f" + std::to_string(fi) + "_";
    os << "  subgraph cluster_" << prefix << "fn {\n"
       << "    label=\"@" << dotEscape(f.name) << " (profile "
       << dotEscape(report.profileName) << ")\";\n";
    auto node = [&](const ReportOp &op, llvm::StringRef indent) {
      os << indent << prefix << op.id << " [label=\"" << dotEscape(op.name)
         << "\\n" << dotEscape(op.type) << "\"";
      if (op.partition >= 0)
        os << ", fillcolor=\"#9be39b\", tooltip=\"NNAPI: "
           << dotEscape(f.partitions[op.partition].name) << "\"";
      else
        os << ", fillcolor=\"#d9d9d9\", tooltip=\"host: "
           << dotEscape(op.reason) << "\"";
      os << "];\n";
    };
    for (auto [pi, p] : llvm::enumerate(f.partitions)) {
      os << "    subgraph cluster_" << prefix << "p" << pi << " {\n"
         << "      label=\"" << dotEscape(p.name)
         << llvm::formatv(" (saves {0:F1} us)", p.benefitUs).str() << "\";\n"
         << "      style=dashed; color=\"#1a7f1a\";\n";
      for (unsigned id : p.ops)
        node(f.ops[id], "      ");
      os << "    }\n";
    }
    for (const ReportOp &op : f.ops)
      if (op.partition < 0)
        node(op, "    ");
    for (const ReportOp &op : f.ops)
      for (unsigned in : op.inputs)
        os << "    " << prefix << in << " -> " << prefix << op.id << ";\n";
    os << "  }\n";
  }
  os << "}\n";
  return text;
}

namespace {
const char *kHTMLHead = R"html(<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>nnapi-mlir partition report</title>
<style>
body { font-family: Helvetica, Arial, sans-serif; margin: 16px; color: #222; }
h1 { font-size: 20px; } h2 { font-size: 16px; margin-top: 24px; }
table { border-collapse: collapse; font-size: 13px; }
td, th { border: 1px solid #ccc; padding: 3px 8px; text-align: left; }
.legend span { display: inline-block; padding: 2px 8px; margin-right: 8px; border-radius: 4px; }
svg { border: 1px solid #ddd; background: #fcfcfc; }
g.op rect { stroke: #555; stroke-width: 1; rx: 6; }
g.op.host rect { fill: #d9d9d9; }
g.op text { font-size: 11px; pointer-events: none; }
g.op:hover rect { stroke: #000; stroke-width: 2.5; }
.edge { stroke: #888; fill: none; marker-end: url(#arrow); }
.partition { fill: none; stroke-dasharray: 6 3; stroke-width: 2; }
#tip { position: fixed; display: none; background: #fffbe6; border: 1px solid #c9b458;
       padding: 6px 8px; font-size: 12px; max-width: 420px; pointer-events: none; }
</style>
</head>
<body>
<h1>nnapi-mlir partition report</h1>
<div id="summary"></div>
<div class="legend"><span style="background:#d9d9d9">host</span><span style="background:#9be39b">NNAPI (one colour per partition)</span> hover an op for its costs and the reason it stays on the host</div>
<div id="graphs"></div>
<div id="tip"></div>
<script id="report-data" type="application/json">
)html";

const char *kHTMLTail = R"html(</script>
<script>
(function () {
  const report = JSON.parse(document.getElementById('report-data').textContent);
  const palette = ['#9be39b', '#8ecae6', '#ffb703', '#cdb4db', '#f4a261', '#90be6d', '#ffafcc', '#a8dadc'];
  const tip = document.getElementById('tip');
  const svgNS = 'http://www.w3.org/2000/svg';
  const fmt = (x) => (x === null || x === undefined) ? 'n/a' : x.toFixed(1) + ' us';
  const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;'}[c]));
  function el(name, attrs, parent) {
    const e = document.createElementNS(svgNS, name);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }
  document.getElementById('summary').innerHTML =
    '<p>Device profile <b>' + esc(report.profile.name) + '</b>' +
    (report.profile.file ? ' (' + esc(report.profile.file) + ')' : ' (built in)') +
    ', feature level ' + report.profile.feature_level + '.</p><p><code>' + esc(report.options) + '</code></p>';
  const root = document.getElementById('graphs');
  for (const fn of report.functions) {
    const h = document.createElement('h2');
    h.textContent = '@' + fn.name + ': estimated ' + fmt(fn.estimated_us.chosen) + ' (all on the host: ' +
      fmt(fn.estimated_us.all_host) + '), ' + fn.partitions.length + ' partition(s), ' +
      (fn.proven_optimal ? 'proven optimal under the cost model' : 'best found within the search budget');
    root.appendChild(h);
    // Layers: longest path from the function's inputs (ops come in topological order).
    const layer = fn.ops.map(() => 0);
    for (const op of fn.ops) for (const i of op.inputs) layer[op.id] = Math.max(layer[op.id], layer[i] + 1);
    const rows = [];
    for (const op of fn.ops) { (rows[layer[op.id]] = rows[layer[op.id]] || []).push(op.id); }
    const W = 150, H = 40, GX = 30, GY = 40, PAD = 20;
    const width = Math.max(...rows.map((r) => r.length)) * (W + GX) + 2 * PAD;
    const height = rows.length * (H + GY) + 2 * PAD;
    const pos = {};
    rows.forEach((r, y) => r.forEach((id, x) => {
      const offset = (width - 2 * PAD - r.length * (W + GX)) / 2;
      pos[id] = {x: PAD + offset + x * (W + GX), y: PAD + y * (H + GY)};
    }));
    const svg = el('svg', {width: width, height: height, 'data-function': fn.name});
    const defs = el('defs', {}, svg);
    const marker = el('marker', {id: 'arrow', viewBox: '0 0 10 10', refX: 10, refY: 5, markerWidth: 6, markerHeight: 6, orient: 'auto'}, defs);
    el('path', {d: 'M0,0 L10,5 L0,10 z', fill: '#888'}, marker);
    fn.partitions.forEach((p, i) => {
      const xs = p.ops.map((id) => pos[id].x), ys = p.ops.map((id) => pos[id].y);
      const x0 = Math.min(...xs) - 8, y0 = Math.min(...ys) - 8;
      const box = el('rect', {class: 'partition', x: x0, y: y0, rx: 10,
        width: Math.max(...xs) - x0 + W + 8, height: Math.max(...ys) - y0 + H + 8,
        stroke: palette[i % palette.length]}, svg);
      el('title', {}, box).textContent = p.name + ': saves ' + fmt(p.benefit_us);
    });
    for (const op of fn.ops) for (const i of op.inputs) {
      const a = pos[i], b = pos[op.id];
      el('path', {class: 'edge', d: 'M' + (a.x + W / 2) + ',' + (a.y + H) + ' C' + (a.x + W / 2) + ',' + (a.y + H + GY / 2) +
        ' ' + (b.x + W / 2) + ',' + (b.y - GY / 2) + ' ' + (b.x + W / 2) + ',' + b.y}, svg);
    }
    for (const op of fn.ops) {
      const onNNAPI = op.placement === 'nnapi';
      const g = el('g', {class: 'op ' + (onNNAPI ? 'nnapi' : 'host'), 'data-id': op.id,
        transform: 'translate(' + pos[op.id].x + ',' + pos[op.id].y + ')'}, svg);
      const rect = el('rect', {width: W, height: H}, g);
      if (onNNAPI) rect.setAttribute('fill', palette[op.partition % palette.length]);
      const t1 = el('text', {x: 8, y: 16}, g); t1.textContent = op.name.slice(0, 22);
      const t2 = el('text', {x: 8, y: 31, fill: '#444'}, g); t2.textContent = op.type.slice(0, 24);
      const text = '<b>' + esc(op.name) + '</b> (' + esc(op.type) + (op.nnapi ? ' &rarr; ' + esc(op.nnapi) : '') + ')<br>' +
        'host ' + fmt(op.host_us) + ', NNAPI ' + fmt(op.nnapi_us) + '<br>' +
        (onNNAPI ? 'in ' + esc(fn.partitions[op.partition].name) : 'stays on the host: ' + esc(op.reason));
      el('title', {}, g).textContent = text.replace(/<[^>]+>/g, '').replace('&rarr;', '->');
      g.addEventListener('mousemove', (e) => {
        tip.innerHTML = text; tip.style.display = 'block';
        tip.style.left = (e.clientX + 14) + 'px'; tip.style.top = (e.clientY + 14) + 'px';
      });
      g.addEventListener('mouseleave', () => { tip.style.display = 'none'; });
    }
    root.appendChild(svg);
    const table = document.createElement('table');
    table.innerHTML = '<tr><th>op</th><th>type</th><th>placement</th><th>host</th><th>NNAPI</th><th>reason</th></tr>' +
      fn.ops.map((op) => '<tr><td>' + esc(op.name) + '</td><td>' + esc(op.type) + '</td><td>' +
        (op.placement === 'nnapi' ? esc(fn.partitions[op.partition].name) : 'host') + '</td><td>' + fmt(op.host_us) +
        '</td><td>' + fmt(op.nnapi_us) + '</td><td>' + esc(op.reason || '') + '</td></tr>').join('');
    root.appendChild(table);
    // nnapi-run --validate's results for this function's partitions.
    const names = new Set(fn.partitions.map((p) => p.name));
    const checked = (report.validation || []).filter((r) => names.has(r.partition));
    if (checked.length) {
      const title = document.createElement('h2');
      title.textContent = '@' + fn.name + ': partitions checked against their host copies (nnapi-run --validate)';
      root.appendChild(title);
      const num = (x) => (x === null || x === undefined) ? 'n/a' : Number(x).toPrecision(3);
      const v = document.createElement('table');
      v.className = 'validation';
      v.innerHTML = '<tr><th>partition</th><th>device</th><th>result</th><th>max error</th><th>tolerance</th>' +
        '<th>checks</th><th>device ms</th><th>host ms</th><th>wrong operations, or why not run</th></tr>' +
        checked.map((r) => '<tr data-result="' + esc(r.result) + '"><td>' + esc(r.partition) + '</td><td>' +
          esc(r.device) + ' (feature level ' + r.feature_level + ', ' + esc(r.version) + ')</td><td>' +
          esc(r.result) + '</td><td>' + num(r.max_error) + ' ' + esc(r.unit || '') + '</td><td>' +
          num(r.tolerance) + ' ' + esc(r.unit || '') + '</td><td>' + (r.checks || 0) + '</td><td>' +
          num(r.device_ms) + '</td><td>' + num(r.host_ms) + '</td><td>' +
          (r.result === 'not run' ? esc(r.reason) :
            (r.wrong_operations || []).map((w) => esc(w.signature) + ': ' + esc(w.description)).join('<br>') +
            esc(r.note || '')) + '</td></tr>').join('');
      root.appendChild(v);
    }
  }
  document.body.setAttribute('data-rendered', String(document.querySelectorAll('g.op').length));
})();
</script>
</body>
</html>
)html";
} // namespace

std::string mlir::nnapi::reportToHTML(const Report &report) {
  std::string json = reportToJSON(report);
  // Keep the data from closing the <script> element early.
  std::string safe;
  for (size_t i = 0; i < json.size(); ++i) {
    if (json[i] == '<' && i + 1 < json.size() && json[i + 1] == '/')
      safe += "<\\";
    else
      safe += json[i];
  }
  return std::string(kHTMLHead) + safe + kHTMLTail;
}

LogicalResult mlir::nnapi::writeReport(const Report &report,
                                       llvm::StringRef base,
                                       std::string &error) {
  struct Output {
    const char *extension;
    std::string text;
  } outputs[] = {{".json", reportToJSON(report)},
                 {".html", reportToHTML(report)},
                 {".dot", reportToDOT(report)}};
  for (const Output &out : outputs) {
    std::string path = (base + out.extension).str();
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_Text);
    if (ec) {
      error = "cannot write report '" + path + "': " + ec.message();
      return failure();
    }
    os << out.text;
  }
  return success();
}
