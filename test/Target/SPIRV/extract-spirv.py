"""Writes the SPIR-V binary held by `gpu.binary @sluice_spirv_kernels` in
MLIR text on stdin (MLIR escapes bytes as \\XX) to the file named by the
first argument."""

import re
import sys

text = sys.stdin.read()
m = re.search(
    r'gpu\.binary @sluice_spirv_kernels.*?bin = "((?:[^"\\]|\\.)*)"',
    text,
    re.S,
)
if not m:
    sys.exit("no SPIR-V binary in the input")
out = bytearray()
body = m.group(1)
i = 0
while i < len(body):
    c = body[i]
    if c == "\\":
        nxt = body[i + 1]
        if re.match(r"[0-9A-Fa-f]{2}", body[i + 1 : i + 3]):
            out.append(int(body[i + 1 : i + 3], 16))
            i += 3
            continue
        out.extend(nxt.encode("latin-1"))
        i += 2
        continue
    out.extend(c.encode("latin-1"))
    i += 1
with open(sys.argv[1], "wb") as f:
    f.write(bytes(out))
