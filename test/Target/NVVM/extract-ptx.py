"""Prints the PTX held by `gpu.binary @sluice_cuda_kernels` in MLIR text on
stdin (MLIR escapes bytes as \\XX)."""
import re
import sys

text = sys.stdin.read()
m = re.search(r'gpu\.binary @sluice_cuda_kernels.*?assembly = "((?:[^"\\]|\\.)*)"', text, re.S)
if not m:
    sys.exit("no PTX in the input")
ptx = re.sub(r'\\([0-9A-Fa-f]{2})', lambda g: chr(int(g.group(1), 16)), m.group(1))
ptx = ptx.replace('\\"', '"').replace('\\\\', '\\')
sys.stdout.write(ptx)
