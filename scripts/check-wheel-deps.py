"""Checks the binaries of an installed sluice package (scripts/check-wheel.sh):
every ELF file needs only the C and C++ system libraries (glibc, libstdc++,
libgcc_s) or libraries the package carries, finds those through $ORIGIN run
paths alone, and ldd resolves everything. Prints each file with its size and
what it needs; exits 1 on the first kind of violation found in any file.

    python check-wheel-deps.py SITE_PACKAGES/sluice
"""

import os
import re
import subprocess
import sys

SYSTEM = {
    "libc.so.6",
    "libm.so.6",
    "libstdc++.so.6",
    "libgcc_s.so.1",
    "libdl.so.2",
    "libpthread.so.0",
    "librt.so.1",
    "ld-linux-x86-64.so.2",
    "libmvec.so.1",
}


def elf_files(root):
    for d, _, files in os.walk(root):
        for f in files:
            p = os.path.join(d, f)
            with open(p, "rb") as fh:
                if fh.read(4) == b"\x7fELF":
                    yield p


def main():
    root = os.path.realpath(sys.argv[1])
    carried = {os.path.basename(p) for p in elf_files(root)}
    errors = []
    total = 0
    for path in sorted(elf_files(root)):
        rel = os.path.relpath(path, root)
        size = os.path.getsize(path)
        total += size
        dyn = subprocess.run(
            ["readelf", "-d", path], capture_output=True, text=True, check=True
        ).stdout
        needed = re.findall(r"\(NEEDED\)\s+Shared library: \[(.*?)\]", dyn)
        paths = re.findall(
            r"\((?:RUNPATH|RPATH)\)\s+Library r\w*path: \[(.*?)\]", dyn
        )
        print(
            f"{rel:48s} {size / 2**20:7.1f} MiB  needs {' '.join(needed)}"
            + (f"  runpath {':'.join(paths)}" if paths else "")
        )
        for n in needed:
            if n not in SYSTEM and n not in carried:
                errors.append(
                    f"{rel} needs {n}, neither a system C/C++ "
                    "library nor carried"
                )
        for rp in paths:
            for entry in rp.split(":"):
                if entry and not entry.startswith("$ORIGIN"):
                    errors.append(
                        f"{rel} has run path {entry} outside the package"
                    )
        ldd = subprocess.run(["ldd", path], capture_output=True, text=True)
        for line in ldd.stdout.splitlines():
            m = re.match(r"\s*(\S+) => (\S+)", line)
            if not m:
                continue
            name, where = m.groups()
            if where == "not":
                errors.append(f"{rel}: ldd finds no {name}")
            elif name not in SYSTEM and not os.path.realpath(where).startswith(
                root
            ):
                errors.append(
                    f"{rel}: {name} resolves outside the package ({where})"
                )
    print(f"{'total':48s} {total / 2**20:7.1f} MiB")
    for e in errors:
        print("error:", e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
