#!/usr/bin/env python3
"""Prints a usm program that uses every op of the dialect on every element
type it accepts, on one queue (every-op.test compiles it for each target).

    every-op.py QUEUE [--dtypes=f32,i8,...] [--only=OP,...]

One private function per (op, element type), named @<op>_<type>, with
dynamic shapes (so that run-time broadcasting and its checks are compiled
too) and scalars where an op takes them. Migrations go to and from the host
queue. The functions are private: they are compiled, not entry points (bf16
cannot be passed to a program).
"""

import argparse

DTYPES = [
    "i1",
    "i8",
    "i16",
    "i32",
    "i64",
    "ui8",
    "ui16",
    "ui32",
    "ui64",
    "f16",
    "bf16",
    "f32",
    "f64",
]
FLOATS = {"f16", "bf16", "f32", "f64"}

# Elementwise ops by the element types they accept (USMOps.td rules).
ARITH_BINARY = ["add", "sub", "mul", "floor_divide", "remainder", "pow"]
ANY_BINARY = ["maximum", "minimum"]
FLOAT_BINARY = ["div"]
COMPARE = ["eq", "ne", "lt", "le", "gt", "ge"]
LOGICAL_BINARY = ["logical_and", "logical_or"]
ARITH_UNARY = ["negative", "abs"]
FLOAT_UNARY = ["exp", "log", "sqrt", "sin", "cos", "tanh"]
LOGICAL_UNARY = ["logical_not"]
REDUCTIONS = ["sum", "prod", "max", "min"]


def scalar_type(t):
    """The MLIR scalar type that carries an element of usm type `t`."""
    return "i" + t[2:] if t.startswith("ui") else t


def constant_value(t):
    if t == "i1":
        return "dense<[true, false]>"
    if t in FLOATS:
        return "dense<[1.5, -2.0]>"
    return "dense<[1, 2]>"


def scalar_literal(t):
    if t == "i1":
        return "true"
    return "2.0" if t in FLOATS else "2"


class Program:
    def __init__(self, queue):
        self.queue = queue
        self.lines = []

    def arr(self, shape, t, queue=None):
        dims = f"{shape}x" if shape else ""
        return f'!usm.array<{dims}{t}, "{queue or self.queue}", device>'

    def func(self, name, args, results, body):
        sig = ", ".join(f"%{n}: {ty}" for n, ty in args)
        res = ", ".join(ty for _, ty in results)
        self.lines.append(f"func.func private @{name}({sig}) -> ({res}) {{")
        for line in body:
            self.lines.append("  " + line)
        names = ", ".join(v for v, _ in results)
        self.lines.append(f"  return {names} : {res}")
        self.lines.append("}")
        self.lines.append("")


def reduction_type(op, t):
    if op in ("sum", "prod") and t not in FLOATS:
        return "ui64" if t.startswith("ui") else "i64"
    return t


def emit(p, t, only):
    m2 = p.arr("?x?", t)
    v = p.arr("?", t)
    b2 = p.arr("?x?", "i1")
    s = scalar_type(t)

    def want(op):
        return not only or op in only

    binary = list(ANY_BINARY) + COMPARE + LOGICAL_BINARY
    if t != "i1":
        binary += ARITH_BINARY
    if t in FLOATS:
        binary += FLOAT_BINARY
    for op in binary:
        if not want(op):
            continue
        r = "i1" if op in COMPARE + LOGICAL_BINARY else t
        rt = p.arr("?x?", r)
        # Matrix (op) row vector, then the result (op) a scalar.
        p.func(
            f"{op}_{t}",
            [("a", m2), ("b", v), ("s", s)],
            [("%1", rt)],
            [
                f"%0 = usm.{op} %a, %b : ({m2}, {v}) -> {rt}",
                (
                    f"%1 = usm.{op} %a, %s : ({m2}, {s}) -> {rt}"
                    if r == "i1"
                    else f"%1 = usm.{op} %0, %s : ({rt}, {s}) -> {rt}"
                ),
            ],
        )
    unary = list(LOGICAL_UNARY)
    if t != "i1":
        unary += ARITH_UNARY
    if t in FLOATS:
        unary += FLOAT_UNARY
    for op in unary:
        if not want(op):
            continue
        r = "i1" if op in LOGICAL_UNARY else t
        rt = p.arr("?x?", r)
        p.func(
            f"{op}_{t}",
            [("a", m2)],
            [("%0", rt)],
            [f"%0 = usm.{op} %a : ({m2}) -> {rt}"],
        )
    if want("where"):
        p.func(
            f"where_{t}",
            [("c", b2), ("a", m2), ("b", v)],
            [("%0", m2)],
            [f"%0 = usm.where %c, %a, %b : ({b2}, {m2}, {v}) -> {m2}"],
        )
    if want("astype"):
        body, results = [], []
        for k, u in enumerate(DTYPES):
            ut = p.arr("?", u)
            body.append(f"%{k} = usm.astype %a : {v} to {ut}")
            results.append((f"%{k}", ut))
        p.func(f"astype_{t}", [("a", v)], results, body)
    for op in REDUCTIONS:
        if not want(op):
            continue
        r = reduction_type(op, t)
        p.func(
            f"{op}_{t}",
            [("a", m2)],
            [
                ("%0", p.arr("?", r)),
                ("%1", p.arr("", r)),
                ("%2", p.arr("?x1", r)),
            ],
            [
                f"%0 = usm.{op} %a axes [1] : {m2} -> {p.arr('?', r)}",
                f"%1 = usm.{op} %a : {m2} -> {p.arr('', r)}",
                f"%2 = usm.{op} %a axes [1] keepdims : {m2} -> "
                f"{p.arr('?x1', r)}",
            ],
        )
    if want("creation"):
        lit = scalar_literal(t)
        body = [
            (
                f"%c = arith.constant {lit}"
                if t == "i1"
                else f"%c = arith.constant {lit} : {s}"
            ),
            f"%0 = usm.empty(%n) : {v}",
            f"%1 = usm.full %c (%n) : {s} -> {v}",
            f"%2 = usm.constant {constant_value(t)} : tensor<2x{t}> -> "
            f"{p.arr('2', t)}",
        ]
        results = [("%0", v), ("%1", v), ("%2", p.arr("2", t))]
        if t != "i1":
            body.append(f"%3 = usm.arange %c, %c (%n) : {s} -> {v}")
            results.append(("%3", v))
        p.func(f"creation_{t}", [("n", "index")], results, body)
    if want("shape"):
        iv = p.arr("?", "i64")
        p.func(
            f"shape_{t}",
            [("a", m2), ("b", v), ("n", "index"), ("i", iv)],
            [("%0", m2), ("%1", v), ("%2", m2), ("%3", v)],
            [
                f"%0 = usm.broadcast_to %b (%n, %n) : {v} -> {m2}",
                f"%1 = usm.reshape %a (%n) : {m2} -> {v}",
                f"%2 = usm.transpose %a [1, 0] : {m2} -> {m2}",
                f"%3 = usm.gather %a[%i] : {m2}, {iv} -> {v}",
            ],
        )
    if want("copies"):
        hv = p.arr("?", t, "host:cpu:0")
        mem = f"memref<?x{t}>"
        p.func(
            f"copies_{t}",
            [("a", v), ("m", mem)],
            [("%0", hv), ("%1", v), ("%2", mem)],
            [
                f"%0 = usm.to_device %a : {v} -> {hv}",
                f"%1 = usm.from_host %m : {mem} -> {v}",
                f"%2 = usm.to_host %a : {v} -> {mem}",
            ],
        )


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("queue")
    parser.add_argument("--dtypes", default=",".join(DTYPES))
    parser.add_argument("--only", default="")
    args = parser.parse_args()
    only = set(o for o in args.only.split(",") if o)
    p = Program(args.queue)
    for t in args.dtypes.split(","):
        emit(p, t, only)
    print("\n".join(p.lines))


if __name__ == "__main__":
    main()
