"""Large programs for many-arrays.test (bench/compile_scaling.py times the
same shapes of program).

    scaling.py sum N      a function of N arrays summed
    scaling.py args N     sluice-run's arguments for it: array i holds i + 1
    scaling.py chain N    a chain of N ops on one array (mul, add, sub by s)
"""

import sys

A = '!usm.array<1024xf32, "host:cpu:0", device>'


def main():
    kind, n = sys.argv[1], int(sys.argv[2])
    if kind == "sum":
        params = ", ".join(f"%a{i}: {A}" for i in range(n))
        print(f"func.func @main({params}) -> {A} {{")
        prev = "%a0"
        for i in range(1, n):
            print(f"  %s{i} = usm.add {prev}, %a{i} : ({A}, {A}) -> {A}")
            prev = f"%s{i}"
        print(f"  return {prev} : {A}\n}}")
    elif kind == "args":
        print("\n".join(f"--input=1024xf32={i + 1}" for i in range(n)))
    elif kind == "chain":
        print(f"func.func @main(%x: {A}, %s: f32) -> {A} {{")
        prev = "%x"
        for i in range(n):
            op = ("usm.mul", "usm.add", "usm.sub")[i % 3]
            print(f"  %v{i} = {op} {prev}, %s : ({A}, f32) -> {A}")
            prev = f"%v{i}"
        print(f"  return {prev} : {A}\n}}")
    else:
        sys.exit(f"unknown kind {kind}")


if __name__ == "__main__":
    main()
