// ONNX Runtime's own spread on a model: the largest difference between
// the outputs of an optimized session (graph optimization "all", which
// turns QDQ groups into int8 kernels) and an unoptimized one ("disabled",
// which computes QuantizeLinear / DequantizeLinear around float operators),
// at 1 thread, on TESTDIR/input_*.pb. Prints "spread max_abs=X".
//
// Usage: node ort_spread.js MODEL.onnx TESTDIR
// ONNX Runtime comes from ../shared/tools/ort/setup.sh (ORT_NPM_DIR, default
// /tmp/ort-npm); its tensor_pb.js reads the inputs.
const fs = require('fs');
const path = require('path');

const ortDir = process.env.ORT_NPM_DIR || '/tmp/ort-npm';
const ort = require(path.join(ortDir, 'node_modules', 'onnxruntime-node'));
const { decodeTensor } = require(path.join(
    __dirname, '..', '..', 'shared', 'tools', 'ort', 'tensor_pb.js'));

async function main() {
  const [model, dir] = process.argv.slice(2);
  if (!model || !dir) {
    console.error('usage: node ort_spread.js MODEL.onnx TESTDIR');
    process.exit(2);
  }
  const outputs = {};
  for (const level of ['disabled', 'all']) {
    const session = await ort.InferenceSession.create(
        model, { graphOptimizationLevel: level, intraOpNumThreads: 1 });
    const feeds = {};
    session.inputNames.forEach((name, i) => {
      const t = decodeTensor(
          fs.readFileSync(path.join(dir, `input_${i}.pb`)));
      feeds[name] = new ort.Tensor(t.type, t.data, t.dims);
    });
    const result = await session.run(feeds);
    outputs[level] = session.outputNames.map((n) => result[n].data);
  }
  let spread = 0;
  outputs.all.forEach((data, k) => {
    for (let i = 0; i < data.length; i++)
      spread = Math.max(spread, Math.abs(Number(data[i]) -
                                         Number(outputs.disabled[k][i])));
  });
  console.log(`spread max_abs=${spread}`);
}

main().catch((e) => {
  console.error(e.message || e);
  process.exit(2);
});
