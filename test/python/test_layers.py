"""The layers of the Python package: no module imports one above it.

Each module of python/sluice belongs to one layer of LAYERS, lowest first.
A module imports only modules of its own layer or of lower ones, whether
at import time or inside a function (an import inside a function that
reaches up would only hide a cycle); a lower layer that must reach an
upper one at run time is given what it needs by the upper one when that
is imported (sluice._methods puts the operators on the arrays;
sluice.distributed hands sluice._jit its map_blocks). Inside the layers of
STRICT, imports form no cycle either. In the others (the runtime's
dpctl objects, the operations: a sort uses scans, a scan sorts) a module
may import a sibling that imports it inside a function, but what runs at
import time forms no cycle anywhere (test_no_cycle_at_import_time). Any
module may look a public name up in the package itself (``import sluice``
inside a function, as ``__array_namespace__`` and the kernel compiler do),
and the api layer's namespaces import it at import time.
CONTRIBUTING.md, "Layers of the Python package", describes the layers.
"""

import ast
import pathlib

import sluice

import pytest

# The package as imported (the tree's python/sluice, or an installed wheel).
PACKAGE = pathlib.Path(sluice.__file__).resolve().parent

# Lowest first.
LAYERS = [
    # Leaves: errors, dtypes, the extension, the kernel API's names.
    ("base", {"_errors", "_dtypes", "_tools", "_sluice", "kernel_api"}),
    # Devices, queues, placement, USM memory (no arrays).
    (
        "runtime",
        {"_device", "_placement", "_sycl", "_memory_pool", "memory", "utils"},
    ),
    # usm IR, the compiler's entry points, the pending graphs.
    ("compiler", {"_ir", "_compiler", "_lazy"}),
    # The values: an array, a traced array or scalar, a view's index
    # arithmetic. They import no operation.
    ("values", {"_indexing", "_trace", "_array"}),
    # How an operation runs: operands, types, placement, execution (and
    # small host arrays through NumPy on views).
    ("dispatch", {"_dispatch", "_host_small"}),
    # The operations and what builds on them.
    (
        "operations",
        {
            "_ops",
            "_elementwise",
            "_complex",
            "_creation",
            "_manipulation",
            "_advanced_indexing",
            "_traced_indexing",
            "_indexing_functions",
            "_index_kernels",
            "_strided_copy",
            "_matmul_kernels",
            "_linalg_kernels",
            "_linalg_eig",
            "_cusolver",
            "_products",
            "linalg",
            "_sorting",
            "_sort_kernels",
            "_random_kernels",
            "_coop_kernels",
            "_coop_sort_kernels",
            "_scans",
            "_statistics",
            "random",
            "_namespace",
            "_kernel",
            "_kernel_calls",
            "_kernel_codegen",
            "_kernel_cuda_atomics",
            "_kernel_subgroups",
            "_jit_kernels",
            "_jit_library",
            "_kernel_values",
            "_jit",
            "_artifact",
        },
    ),
    # The package's namespaces and the arrays' methods.
    ("api", {"_methods", "tensor", "compat", "distributed", "__init__"}),
]
LAYER = {m: i for i, (_, mods) in enumerate(LAYERS) for m in mods}
# Layers whose modules import one another without a cycle.
STRICT = ["base", "compiler", "values", "dispatch", "api"]


def _module_names():
    names = {p.stem for p in PACKAGE.glob("*.py")}
    names |= {
        p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists()
    }
    return names


def _imports(path, package_parts):
    """(module imported, line, inside a function) for each import of a
    module of the package in ``path``; ``package_parts`` is the path's
    package below sluice (() for the top)."""
    tree = ast.parse(path.read_text(), str(path))
    found = []

    def target(node):
        if isinstance(node, ast.ImportFrom):
            if node.level == 0:
                parts = (node.module or "").split(".")
                if parts[0] != "sluice":
                    return []
                rest = parts[1:]
            else:
                base = list(package_parts)
                if node.level > 1:
                    base = base[: len(base) - (node.level - 1)]
                rest = base + (node.module.split(".") if node.module else [])
            if rest:
                return [rest[0]]
            # from . import a, b (at the top of the package)
            return [a.name.split(".")[0] for a in node.names]
        if isinstance(node, ast.Import):
            out = []
            for a in node.names:
                parts = a.name.split(".")
                if parts[0] == "sluice":
                    out.append(parts[1] if len(parts) > 1 else "sluice")
            return out
        return []

    def visit(node, in_function):
        for child in ast.iter_child_nodes(node):
            inner = in_function or isinstance(
                child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
            )
            for name in target(child):
                found.append((name, child.lineno, inner))
            visit(child, inner)

    visit(tree, False)
    return found


def _edges():
    """(importer, imported, file:line, inside a function) of the package's
    modules; a subpackage counts as one module."""
    edges = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE)
        owner = rel.parts[0] if len(rel.parts) > 1 else rel.stem
        package_parts = list(rel.parts[:-1])
        for name, line, inner in _imports(path, package_parts):
            if name == owner:
                continue  # inside a subpackage
            edges.append((owner, name, f"{rel}:{line}", inner))
    return edges


def test_every_module_has_a_layer():
    missing = sorted(_module_names() - set(LAYER))
    assert not missing, f"modules without a layer in LAYERS: {missing}"


def test_no_module_imports_a_higher_layer():
    bad = []
    for src, dst, where, inner in _edges():
        if dst == "sluice":
            if not inner and LAYER[src] != len(LAYERS) - 1:
                bad.append(
                    f"{where}: {src} imports the package at import time"
                )
            continue
        if dst not in LAYER:
            continue  # the extension's submodules, files of other kinds
        if LAYER[dst] > LAYER[src]:
            bad.append(
                f"{where}: {src} ({LAYERS[LAYER[src]][0]}) imports "
                f"{dst} ({LAYERS[LAYER[dst]][0]})"
                + (" inside a function" if inner else "")
            )
    assert not bad, "imports of a higher layer:\n" + "\n".join(bad)


@pytest.mark.parametrize("layer", STRICT)
def test_no_cycle_inside_a_strict_layer(layer):
    mods = dict(LAYERS)[layer]
    graph = {m: set() for m in mods}
    for src, dst, _, _ in _edges():
        if src in mods and dst in mods and src != dst:
            graph[src].add(dst)
    state = {}
    cycle = []

    def dfs(m, path):
        state[m] = 1
        for n in sorted(graph[m]):
            if state.get(n) == 1:
                cycle.extend(
                    path[path.index(n) :] + [m, n] if n in path else [m, n]
                )
                return True
            if n not in state and dfs(n, path + [m]):
                return True
        state[m] = 2
        return False

    for m in sorted(mods):
        if m not in state and dfs(m, []):
            break
    assert not cycle, f"import cycle in layer {layer}: {' -> '.join(cycle)}"


def test_values_import_no_operation():
    """The cycle this layering broke: the values (arrays, traced values,
    views) reach no operation, not even inside a function."""
    values = dict(LAYERS)["values"]
    bad = [
        f"{where}: {src} imports {dst}"
        for src, dst, where, _ in _edges()
        if src in values and dst in LAYER and LAYER[dst] > LAYER[src]
    ]
    assert not bad, "\n".join(bad)


def test_the_old_cycle_is_gone():
    """_array _creation _indexing _methods _ops _trace imported one another
    in a cycle; now no import among them, at import time or inside a
    function, closes one."""
    six = {"_array", "_creation", "_indexing", "_methods", "_ops", "_trace"}
    graph = {m: set() for m in six}
    for src, dst, _, _ in _edges():
        if src in six and dst in six and src != dst:
            graph[src].add(dst)

    def reaches(m, target, seen):
        for n in graph[m]:
            if n == target:
                return True
            if n not in seen:
                seen.add(n)
                if reaches(n, target, seen):
                    return True
        return False

    cyclic = sorted(m for m in six if reaches(m, m, set()))
    assert not cyclic, f"modules on an import cycle: {cyclic}"


def test_no_cycle_at_import_time():
    """The imports that run when a module is imported (not those inside
    functions) form no cycle in the whole package, so every module is
    complete before one that imports it runs. (sluice._ops was on one: it
    imported _elementwise and _complex at its end, which imported it; now
    _elementwise is handed sluice._ops (bind) and _ops imports _complex
    only inside its complex branches.) The package itself is left out: a
    submodule's import starts with it, and the api layer's namespaces
    re-export it."""
    graph = {}
    for src, dst, _, inner in _edges():
        if not inner and dst in LAYER and src != dst:
            graph.setdefault(src, set()).add(dst)
    state = {}

    def cycle_from(m, path):
        state[m] = 1
        for n in sorted(graph.get(m, ())):
            if state.get(n) == 1:
                return path[path.index(n) :] + [n] if n in path else [m, n]
            if n not in state:
                found = cycle_from(n, path + [n])
                if found:
                    return found
        state[m] = 2
        return None

    for m in sorted(graph):
        if m not in state:
            found = cycle_from(m, [m])
            assert not found, "import cycle at import time: " + " -> ".join(
                found
            )
