"""Prints the PTX held by `gpu.binary @sluice_cuda_kernels` and its parts
(`@sluice_cuda_kernels_streaming`) in MLIR text on stdin (MLIR escapes bytes
as \\XX), one module after the other; `--only NAME` prints module NAME alone
(one PTX module, for ptxas)."""

import re
import sys

only = None
if len(sys.argv) == 3 and sys.argv[1] == "--only":
    only = sys.argv[2]
elif len(sys.argv) != 1:
    sys.exit("usage: extract-ptx.py [--only MODULE] < input.mlir")

text = sys.stdin.read()
found = re.findall(
    r"gpu\.binary @(sluice_cuda_kernels\w*).*?"
    r'assembly = "((?:[^"\\]|\\.)*)"',
    text,
    re.S,
)
found = [(name, body) for name, body in found if only in (None, name)]
if not found:
    sys.exit("no PTX in the input" + (f" for @{only}" if only else ""))
for _, body in found:
    ptx = re.sub(
        r"\\([0-9A-Fa-f]{2})", lambda g: chr(int(g.group(1), 16)), body
    )
    sys.stdout.write(ptx.replace('\\"', '"').replace("\\\\", "\\"))
