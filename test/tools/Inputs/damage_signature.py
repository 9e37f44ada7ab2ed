"""Copies a compiled model, changing one byte of its signature: the first
output's last dimension 64 becomes 14, a smaller tensor than the code
writes. (A checksum-less runtime would then let the model write past a
caller's buffer of the declared size.)"""
import sys

data = bytearray(open(sys.argv[1], "rb").read())
start = data.index(b"nnapi-mlir-model ")
line = data.index(b"\noutput 0 ", start) + 1
end = data.index(b"\n", line)
text = bytes(data[line:end])
assert text.endswith(b"x64"), text
data[end - 2] = ord("1")
open(sys.argv[2], "wb").write(bytes(data))
