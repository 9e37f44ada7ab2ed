#!/usr/bin/python3
"""Writes the bundled TFLite example: a small MobileNet-like classifier
(test/Frontend/TFLite/Inputs/networks.py) with int8 per-channel weights and
activations and float input and output, as a converter writes a quantized
phone model. classifier_expected.npy is TensorFlow Lite's own output for
classifier_input.npy:

    NNAPI_TFLITE_SCHEMA_PY=build/tflite-schema-python \\
        /usr/bin/python3 examples/tflite/make_example.py examples/tflite
    node ../shared/tools/tflite/tflite_run.js examples/tflite/classifier.tflite \\
        /tmp/out --inputs examples/tflite/classifier_input.npy
    cp /tmp/out/output_0.npy examples/tflite/classifier_expected.npy
"""
import os
import sys

import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "test", "Frontend", "TFLite",
                                "Inputs"))
import networks  # noqa: E402

out = sys.argv[1]
net = networks.classifier(size=48, width=8, classes=10, seed=7)
with open(os.path.join(out, "classifier.tflite"), "wb") as f:
    f.write(net.tflite("int8"))
np.save(os.path.join(out, "classifier_input.npy"), net.inputs[0].array)
