#!/usr/bin/env python3
"""Checks that keep the house in order (CTest's structure/* tests).

  check-structure.py functions    no function over 150 lines in lib/,
                                  tools/, python/src/ (C and C++, by their
                                  braces) or python/sluice/ (Python)
  check-structure.py environment  every environment variable the code
                                  reads is in docs/runtime.md's table

(The layers of python/sluice and its import cycles are checked by
test/python/test_layers.py.) Each prints what is wrong and exits 1, or
exits 0. `--root DIR` checks another tree; `--self-test` checks that each
check fails on a small tree that breaks its rule and passes once the tree
is fixed.
"""

import argparse
import ast
import os
import re
import sys
import tempfile

MAX_FUNCTION_LINES = 150
CXX_DIRS = ("lib", "tools", "python/src")
PACKAGE = "python/sluice"
ENV_DIRS = ("lib", "tools", "python/src", "python/sluice")
ENV_DOC = "docs/runtime.md"


def sources(root, dirs, suffixes):
    for d in dirs:
        for dp, dn, fn in os.walk(os.path.join(root, d)):
            dn.sort()
            for f in sorted(fn):
                if f.endswith(suffixes):
                    yield os.path.join(dp, f)


# --- functions ------------------------------------------------------------


def blank_cxx(src):
    """`src` with comments, string and character literals and preprocessor
    lines blanked out; newlines kept, so line numbers stay."""
    out = []
    i, n, bol = 0, len(src), True
    while i < n:
        c = src[i]
        if bol and c in " \t":
            out.append(c)
            i += 1
            continue
        if bol and c == "#":  # a directive, with its continuation lines
            while i < n and src[i] != "\n":
                if src.startswith("\\\n", i):
                    out.append("\n")
                    i += 1
                i += 1
            continue
        bol = c == "\n"
        if src.startswith("//", i):
            while i < n and src[i] != "\n":
                i += 1
            continue
        raw = re.match(r'(?:u8|u|U|L)?R"([^(\s]{0,16})\(', src[i : i + 24])
        if src.startswith("/*", i) or (
            raw and (i == 0 or not (src[i - 1].isalnum() or src[i - 1] == "_"))
        ):
            end = "*/" if src.startswith("/*", i) else ")" + raw.group(1) + '"'
            start = i + (2 if end == "*/" else raw.end())
            j = src.find(end, start)
            j = n if j < 0 else j + len(end)
            out.append(re.sub(r"[^\n]", " ", src[i:j]))
            i = j
            continue
        if c in "\"'":
            if c == "'" and i > 0 and src[i - 1].isalnum():
                out.append(" ")  # a digit separator (1'000)
                i += 1
                continue
            j = i + 1
            while j < n and src[j] != c and src[j] != "\n":
                j += 2 if src[j] == "\\" else 1
            out.append(" " * (j + 1 - i))
            i = j + 1
            continue
        out.append(c)
        i += 1
    return "".join(out)


def cxx_functions(path):
    """(name, first line, last line) of every function body at namespace or
    class scope (lambdas and local classes count toward their function)."""
    with open(path, encoding="utf-8", errors="replace") as f:
        text = blank_cxx(f.read())
    stack, found, last = [], [], 0
    for m in re.finditer(r"[{};]", text):
        p = m.start()
        if m.group() == "{":
            kind = None
            if not any(stack):
                header = text[last:p]
                h = " ".join(header.split())
                scope = re.match(
                    r"(template\s*<.*>\s*)?(class|struct|union|enum|"
                    r"namespace|extern)\b",
                    h,
                )
                before = h.split("(")[0]
                if (
                    "(" in h
                    and not scope
                    and not h.endswith("=")
                    and ("=" not in before or "operator" in before)
                ):
                    lead = len(header) - len(header.lstrip())
                    first = text.count("\n", 0, last + lead) + 1
                    words = before.split()
                    kind = (words[-1] if words else "?", first)
            stack.append(kind)
        elif m.group() == "}" and stack:
            kind = stack.pop()
            if kind:
                found.append((kind[0], kind[1], text.count("\n", 0, p) + 1))
        last = p + 1
    return found


def python_functions(path):
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node.name, node.lineno, node.end_lineno


def check_functions(root):
    found = [
        (path, fn)
        for path in sources(root, CXX_DIRS, (".c", ".cpp", ".h"))
        for fn in cxx_functions(path)
    ]
    found += [
        (path, fn)
        for path in sources(root, (PACKAGE,), (".py",))
        for fn in python_functions(path)
    ]
    bad = 0
    for path, (name, first, last) in found:
        if last - first + 1 > MAX_FUNCTION_LINES:
            print(
                f"{os.path.relpath(path, root)}:{first}: {name} has "
                f"{last - first + 1} lines (at most {MAX_FUNCTION_LINES}: "
                "split it into named phases)"
            )
            bad += 1
    return bad


# --- environment ------------------------------------------------------------

READS = re.compile(
    r"""(?:getenv|environ\.get|environ\[|envBytes|_env_on)\(?\s*["']"""
    r"""([A-Z][A-Z0-9_]*)["']"""
)
SLUICE_STRING = re.compile(r"""["'](SLUICE_[A-Z0-9_]+)["']""")


def environment_reads(root):
    """The environment variables the code reads: names given to getenv and
    os.environ, and every SLUICE_* string (names passed to helpers), less
    the C API's constants (include/: status names, ...) and the names of
    statuses (SLUICE_ERROR_*)."""
    constants = set()
    for path in sources(root, ("include",), (".h",)):
        with open(path, encoding="utf-8") as f:
            constants.update(re.findall(r"\bSLUICE_[A-Z0-9_]+\b", f.read()))
    reads = {}
    for path in sources(root, ENV_DIRS, (".c", ".cpp", ".h", ".py")):
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        names = set(READS.findall(text))
        names.update(
            n
            for n in SLUICE_STRING.findall(text)
            if n not in constants and not n.startswith("SLUICE_ERROR_")
        )
        for n in names:
            reads.setdefault(n, os.path.relpath(path, root))
    return reads


def documented(root):
    with open(os.path.join(root, ENV_DOC), encoding="utf-8") as f:
        text = f.read()
    m = re.search(
        r"^## Environment variables\n(.*?)(?=^## |\Z)", text, re.S | re.M
    )
    rows = [
        line.split("|")[1]
        for line in (m.group(1) if m else "").splitlines()
        if line.startswith("|")
    ]
    names = set()
    for cell in rows:
        names.update(re.findall(r"`([A-Z][A-Z0-9_]*\*?)`", cell))
    return names


def check_environment(root):
    names = documented(root)
    prefixes = [n[:-1] for n in names if n.endswith("*")]
    bad = 0
    for name, where in sorted(environment_reads(root).items()):
        if name in names or any(name.startswith(p) for p in prefixes):
            continue
        print(
            f"{where} reads ${name}, which the table of {ENV_DOC} "
            "(## Environment variables) does not list"
        )
        bad += 1
    return bad


CHECKS = {
    "functions": check_functions,
    "environment": check_environment,
}


def self_test():
    """Each check on a tree that breaks its rule (it must fail), then on
    the same tree fixed (it must pass)."""
    long_body = "".join(f"  x += {i};\n" for i in range(MAX_FUNCTION_LINES))
    cases = {
        "functions": (
            {
                "lib/A.cpp": "namespace a {\nint f(int x) {\n"
                + long_body
                + "  return x;\n}\n} // namespace a\n",
                f"{PACKAGE}/m.py": "def f():\n    return 1\n",
            },
            {"lib/A.cpp": "int f(int x) { return x; }\n"},
        ),
        "environment": (
            {
                "include/sluice-c/A.h": "enum { SLUICE_OK };\n",
                "lib/A.cpp": 'const char *e = std::getenv("SLUICE_NEW");\n'
                'const char *s = "SLUICE_OK";\n',
                ENV_DOC: "## Environment variables\n\n| variable | "
                "effect |\n|---|---|\n| `SLUICE_OLD` | old |\n",
            },
            {
                ENV_DOC: "## Environment variables\n\n| variable | "
                "effect |\n|---|---|\n| `SLUICE_NEW` | new |\n",
            },
        ),
    }
    bad = 0
    for name, (broken, fix) in cases.items():
        with tempfile.TemporaryDirectory() as root:
            for files in (broken, fix):
                for rel, text in files.items():
                    os.makedirs(
                        os.path.dirname(os.path.join(root, rel)),
                        exist_ok=True,
                    )
                    with open(os.path.join(root, rel), "w") as f:
                        f.write(text)
                found = CHECKS[name](root)
                want = "fail" if files is broken else "pass"
                if (found > 0) != (want == "fail"):
                    print(f"self-test: {name} does not {want}")
                    bad += 1
    print(
        "self-test: "
        + (
            "FAILED"
            if bad
            else "every check failed on its "
            "broken tree and passed on the fixed one"
        )
    )
    return bad


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checks", nargs="*", choices=[*CHECKS, []])
    parser.add_argument("--self-test", action="store_true")
    parser.add_argument(
        "--root",
        default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
    )
    args = parser.parse_args()
    if args.self_test:
        return 1 if self_test() else 0
    bad = sum(CHECKS[c](args.root) for c in args.checks or CHECKS)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
