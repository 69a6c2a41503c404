"""``@sluice.jit``: trace a Python function into one usm program.

The first call with a given signature (array dtypes, shapes, queues and USM
kinds; scalar kinds; the values of static arguments) runs the function on
Tracers, which records every array operation as usm IR with the caller's
source locations. The program is compiled with placement checks and fusion
(so elementwise chains become one kernel), cached in memory and on disk,
and run; later calls with the same signature only run it.

Arguments: sluice arrays are passed to the program; Python scalars too
(weakly typed, as NumPy treats them: ``x * 2`` keeps x's dtype); NumPy
scalars with their dtype; NumPy arrays are copied to the queue of the first
array argument. Lists, tuples and dicts of these are flattened. Anything
else (None, strings, ...) and the arguments named by ``static_argnums`` /
``static_argnames`` are static: their values are part of the signature.
Arrays captured from the enclosing scope are passed by reference on every
call. The function may return arrays, Python values, and nests of them.
"""

import functools
import inspect
import os

import numpy as np

from . import _artifact, _compiler, _dtypes, _ir, _jit_kernels, _trace
from . import _sluice as _ext
from . import _traced_indexing
from ._array import Array, _from_host
from ._device import _coerce_device
from ._errors import TracerError


class _Leaf:
    """A dynamic argument: its position in the program's argument list."""

    __slots__ = ("index",)

    def __init__(self, index):
        self.index = index


def _static_key(v):
    try:
        hash(v)
    except TypeError:
        raise TypeError(
            f"static argument of type {type(v).__name__} is not hashable"
        ) from None
    return ("s", type(v), v)


class _Signature:
    """Flattens call arguments into a cache key and dynamic leaves."""

    def __init__(self):
        self.key = []
        self.leaves = []
        # The dtype of each leaf that is a NumPy scalar (else None).
        self.leaf_dtypes = []
        self.numpy_leaves = []

    def _leaf(self, v, dtype=None):
        self.leaves.append(v)
        self.leaf_dtypes.append(dtype)
        return _Leaf(len(self.leaves) - 1)

    def add(self, v, static=False):
        if static:
            self.key.append(_static_key(v))
            return v
        t = type(v)
        if t is Array or isinstance(v, Array):
            self.key.append(v._signature)
            return self._leaf(v)
        if t is int or t is float or t is bool:
            self.key.append(t)
            return self._leaf(v)
        if isinstance(v, np.generic):
            dt = _dtypes.to_dtype(v.dtype)
            self.key.append(("n", dt))
            return self._leaf(v.item(), dt)
        if isinstance(v, np.ndarray):
            self.key.append(("N", _dtypes.to_dtype(v.dtype), v.shape))
            self.numpy_leaves.append(len(self.leaves))
            return self._leaf(v)
        if isinstance(v, (_trace.Tracer, _trace.ScalarTracer)):
            raise TracerError(
                "a traced value from another function was "
                "passed to a jitted function"
            )
        if t is tuple or t is list:
            self.key.append((t, len(v)))
            return t(self.add(x) for x in v)
        if t is dict:
            keys = sorted(v)
            self.key.append((dict, tuple(keys)))
            return {k: self.add(v[k]) for k in keys}
        return self.add(v, static=True)


def _fill(template, values):
    if isinstance(template, _Leaf):
        return values[template.index]
    t = type(template)
    if t is tuple or t is list:
        return t(_fill(x, values) for x in template)
    if t is dict:
        return {k: _fill(x, values) for k, x in template.items()}
    return template


def _shares_memory(arrays, i):
    a = arrays[i]
    return any(
        j != i and isinstance(b, Array) and a._same_buffer(b)
        for j, b in enumerate(arrays)
    )


class _Entry:
    """A compiled signature: the program and how to build the result."""

    __slots__ = (
        "program",
        "written",
        "captured",
        "out",
        "single",
        "numpy_leaves",
        "numpy_queue",
    )

    def run(self, leaves):
        for i in self.numpy_leaves:
            a = leaves[i]
            leaves[i] = _from_host(a, self.numpy_queue[0], self.numpy_queue[1])
        back = self._own_written(leaves) if self.written else ()
        results = self.program(
            leaves + self.captured if self.captured else leaves
        )
        for i, a in back:
            a[...] = leaves[i]
            leaves[i] = a
        if self.single:
            return results[0]
        return _build_output(self.out, results, leaves)

    def _own_written(self, leaves):
        """The program writes its written arguments in place: one that is
        not C-contiguous or shares memory with another argument is given
        as a contiguous copy, written back after the call; returns the
        (index, original) pairs."""
        back = []
        arrays = leaves + self.captured
        for i in self.written:
            a = leaves[i]
            if not a._c_contiguous or _shares_memory(arrays, i):
                leaves[i] = a.copy()
                back.append((i, a))
        return back


def _build_output(template, results, leaves):
    kind = template[0]
    if kind == "r":
        return results[template[1]]
    if kind == "in":
        return leaves[template[1]]
    if kind == "const":
        return template[1]
    if kind == "seq":
        return template[1](
            _build_output(t, results, leaves) for t in template[2]
        )
    if kind == "dict":
        return {
            k: _build_output(t, results, leaves)
            for k, t in template[1].items()
        }
    if kind == "wb":
        # Arguments the function assigned into (x[...] = v) get their new
        # values, as NumPy's in-place semantics say.
        for i, r in template[2]:
            if isinstance(leaves[i], Array):
                leaves[i][...] = results[r]
        return _build_output(template[1], results, leaves)
    if kind == "chk":
        _jit_kernels.check_indices(template[2], results)
        return _build_output(template[1], results, leaves)
    raise AssertionError(kind)


class Lowered:
    """A traced function before compilation: its usm IR and what the
    compiler makes of it."""

    def __init__(self, fb, flags, name, template=None, captured=0):
        self._fb = fb
        self._flags = flags
        self._name = name
        # How the function's result is built from the program's results
        # (see JitFunction._outputs) and how many arrays it captures.
        self._template = template
        self._captured = captured

    def as_text(self, stage="input", locations=False):
        """The IR at ``stage``: "input" (as traced), "placed", "fused",
        "kernels", "binaries" or "llvm"."""
        if stage == "input":
            return self._fb.render(locations=locations)
        text = _compiler.lower_text(
            self._fb.render(locations=True), stage, self._flags, self._name
        )
        return text if locations else _strip_locations(text)

    def fusion_report(self):
        """Which operations fuse into which kernels (from the IR after
        fusion)."""
        return fusion_report(self.as_text("fused"))

    def compile(self):
        return _compiler.compile_function(self._fb, self._name, self._flags)

    def save(self, path, name=None, device=None):
        """Compiles the program ahead of time into an artifact at ``path``
        (a shared object) that ``sluice.load`` runs, in this process or in
        another one, also where the package has no compiler.

        The artifact's entry point is named ``name``, by default the
        function's name (made an identifier: ``<lambda>`` becomes
        ``_lambda_``); it is the only one, so ``sluice.load(path)`` finds
        it. The loaded program takes the dynamic arguments this program
        was traced with, in order (lists, tuples and dicts flattened as
        ``jit`` does; static arguments are part of the program) and returns
        its arrays: one, or a tuple. ``device`` (a filter string such as
        ``"cuda:gpu:0"``) compiles every queue of the program for that
        device instead of the devices it was traced on; the machine that
        compiles need not have it.
        """
        flags = self._flags
        if device is not None:
            if not isinstance(device, str):
                raise TypeError(
                    "device must be a filter string such as "
                    f"'cuda:gpu:0', not {type(device).__name__}"
                )
            flags += (f"--device={_ext.normalize_selector(device)}",)
        template = self._template
        n = len(self._fb.results)
        if template is not None and template[0] == "chk":
            raise ValueError(
                f"{self._name} indexes with traced integer arrays, whose "
                "bounds the jitted call checks after the program runs; a "
                "saved program cannot raise IndexError: index with arrays "
                "known in range, e.g. sluice.take(x, i, mode='clip')"
            )
        if self._captured:
            raise ValueError(
                f"{self._name} uses {self._captured} array(s) from outside "
                "the function; a saved program cannot take them along: pass "
                "them as arguments"
            )
        if not (
            template == ("r", 0)
            or (
                template is not None
                and template[0] == "seq"
                and n
                and template[2] == [("r", i) for i in range(n)]
            )
        ):
            raise ValueError(
                f"{self._name} must return an array it computes, or a tuple "
                "or list of distinct ones, to be saved (a saved program "
                "returns its arrays, not Python values, arguments or nested "
                "containers)"
            )
        if any(text.startswith("usm.store ") for text, _ in self._fb.ops):
            raise ValueError(
                f"{self._name} assigns into its arguments; a saved program "
                "returns its arrays and writes none of its arguments: assign "
                "into a copy (y = x.copy(); y[...] = ...) and return it"
            )
        entry = _artifact.entry_name(
            self._name if name is None else name, explicit=name is not None
        )
        _compiler.write_artifact(
            self._fb.render(locations=True, name=entry),
            os.fspath(path),
            flags,
            self._name,
        )


def _strip_locations(text):
    import re

    text = re.sub(r" loc\((?:[^()]|\([^()]*\))*\)", "", text)
    return "\n".join(
        line for line in text.splitlines() if not line.startswith("#loc")
    )


def fusion_report(fused_ir):
    """A summary of the ``usm.fused`` groups of IR after fusion: one line
    per group (queue, op count, ops), then the array ops left alone."""
    lines = []
    group = None
    depth = 0
    alone = []
    n = 0
    for raw in fused_ir.splitlines():
        line = raw.strip()
        if "usm.fused" in line:
            n += 1
            queue = line.split("usm.fused", 1)[1].split()[0]
            group = (n, queue, [])
            depth = 1
            continue
        if group is not None:
            depth += line.count("{") - line.count("}")
            if "usm.yield" in line or depth <= 0:
                if depth <= 0 or "usm.yield" in line:
                    ops = group[2]
                    lines.append(
                        f"fused group #{group[0]} on queue {group[1]}: "
                        f"{len(ops)} array ops ({', '.join(ops)})"
                    )
                    group = None
                continue
            op = _op_name(line)
            if op and op.startswith("usm."):
                group[2].append(op)
            continue
        op = _op_name(line)
        if op and op.startswith("usm."):
            alone.append(op)
    if not n:
        lines.append("no fused groups")
    if alone:
        lines.append(f"not fused: {', '.join(alone)}")
    return "\n".join(lines)


def _op_name(line):
    if "=" in line and line.startswith("%"):
        rhs = line.split("=", 1)[1].strip()
    else:
        rhs = line
    word = rhs.split(" ", 1)[0]
    return word if word.startswith(("usm.", "arith.", "math.")) else None


class JitFunction:
    """A function compiled per call signature (see sluice.jit)."""

    def __init__(
        self, fn, static_argnums=(), static_argnames=(), fusion=True, flags=()
    ):
        functools.update_wrapper(self, fn)
        self._fn = fn
        self._sig = inspect.signature(fn)
        params = list(self._sig.parameters.values())
        if isinstance(static_argnums, int):
            static_argnums = (static_argnums,)
        if isinstance(static_argnames, str):
            static_argnames = (static_argnames,)
        names = set(static_argnames)
        for i in static_argnums:
            if not -len(params) <= i < len(params):
                raise ValueError(
                    f"static_argnums {i} is out of range for "
                    f"{fn.__name__} ({len(params)} parameters)"
                )
            names.add(params[i].name)
        for n in names:
            if n not in self._sig.parameters:
                raise ValueError(f"{fn.__name__} has no parameter {n!r}")
        self._static = frozenset(names)
        self._params = [p.name for p in params]
        self._plain = not self._static and all(
            p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
            for p in params
        )
        self._flags = tuple(flags) + (() if fusion else ("--no-fusion",))
        self._cache = {}
        self.trace_count = 0

    # --- calling ------------------------------------------------------------
    def _signature(self, args, kwargs):
        s = _Signature()
        if self._plain and not kwargs:
            targs = [s.add(a) for a in args]
            return s, targs, {}
        bound = self._sig.bind(*args, **kwargs)
        targs, tkwargs = [], {}
        for name, value in bound.arguments.items():
            p = self._sig.parameters[name]
            static = name in self._static
            if p.kind is p.VAR_POSITIONAL:
                targs.extend(s.add(v, static) for v in value)
            elif p.kind is p.VAR_KEYWORD:
                for k in sorted(value):
                    s.key.append(k)
                    tkwargs[k] = s.add(value[k], static)
            elif p.kind is p.KEYWORD_ONLY:
                s.key.append(name)
                tkwargs[name] = s.add(value, static)
            else:
                targs.append(s.add(value, static))
        return s, targs, tkwargs

    def __call__(self, *args, **kwargs):
        if _trace._state.stack:
            return self._fn(*args, **kwargs)  # inline into the outer trace
        if self._plain and not kwargs:
            # The common case, kept short: arrays and Python scalars only.
            key = []
            for a in args:
                t = type(a)
                if t is Array:
                    key.append(a._signature)
                elif t is float or t is int or t is bool:
                    key.append(t)
                else:
                    break
            else:
                entry = self._cache.get(tuple(key))
                if entry is not None:
                    return entry.run(list(args))
        if _distributed(args, kwargs):
            # sluice.distributed arrays: their distributions are checked
            # here, before tracing; each rank runs this on its blocks.
            return run_distributed(self, *args, **kwargs)
        s, targs, tkwargs = self._signature(args, kwargs)
        key = tuple(s.key)
        entry = self._cache.get(key)
        if entry is None:
            entry = self._build(s, targs, tkwargs)
            self._cache[key] = entry
        return entry.run(s.leaves)

    def lower(self, *args, **kwargs):
        """The traced program for these arguments (nothing runs)."""
        s, targs, tkwargs = self._signature(args, kwargs)
        tr, (out, values) = self._trace(s, targs, tkwargs)
        template = self._outputs(tr, out, values)
        if getattr(tr, "kernel_steps", None) is not None:
            return _jit_kernels.LoweredSteps(
                tr.kernel_steps, self._flags, self.__name__
            )
        return Lowered(
            tr.fb, self._flags, self.__name__, template, len(tr.captured)
        )

    def cache_clear(self):
        self._cache.clear()

    @property
    def cache_size(self):
        return len(self._cache)

    # --- tracing -------------------------------------------------------------
    def _numpy_queue(self, s):
        for v in s.leaves:
            if isinstance(v, Array):
                return v._queue_id, v._usm_kind
        q = _coerce_device(None).sycl_queue
        return q._id, 1

    def _trace(self, s, targs, tkwargs):
        tr = _trace.Trace(self.__name__)
        fb = tr.fb
        code = getattr(self._fn, "__code__", None)
        loc = (code.co_filename, code.co_firstlineno, 1) if code else None
        numpy_queue = self._numpy_queue(s) if s.numpy_leaves else None
        values = []
        for i, v in enumerate(s.leaves):
            if i in s.numpy_leaves:
                a = np.asarray(v)
                t = _ir.ArrayT(
                    _dtypes.to_dtype(a.dtype),
                    a.shape,
                    numpy_queue[0],
                    numpy_queue[1],
                )
                values.append(_trace.Tracer(fb.arg(t, loc), tr))
            elif isinstance(v, Array):
                t = _ir.ArrayT(v.dtype, v.shape, v._queue_id, v._usm_kind)
                values.append(_trace.Tracer(fb.arg(t, loc), tr))
            else:
                dt = s.leaf_dtypes[i]  # a NumPy scalar's dtype, or None
                weak = type(v) if dt is None else None
                dt = _trace.scalar_arg_dtype(weak, dt)
                values.append(
                    _trace.ScalarTracer(fb.arg(_ir.ScalarT(dt), loc), tr, weak)
                )
        tr.arg_values = [v._v for v in values]
        with tr:
            out = self._fn(
                *_fill(targs, values),
                **{k: _fill(t, values) for k, t in tkwargs.items()},
            )
        self.trace_count += 1
        return tr, (out, values)

    def _outputs(self, tr, out, values, numpy_leaves=()):
        """Makes the traced values the function returns its results;
        returns the template that rebuilds the Python result."""
        if getattr(tr, "kernel_steps", None) is not None:
            return _jit_kernels.finish(tr, out, values)
        fb = tr.fb
        inputs = {id(v._v): i for i, v in enumerate(values)}
        results = []
        seen = {}

        def flatten(o):
            if isinstance(o, _trace.Tracer):
                if o._trace is not tr:
                    raise TracerError("a traced value escaped its function")
                if id(o._v) in inputs:
                    return ("in", inputs[id(o._v)])
                name = o._v.name
                if name not in seen:
                    seen[name] = len(results)
                    results.append(o._v)
                return ("r", seen[name])
            if isinstance(o, _trace.ScalarTracer):
                if id(o._v) in inputs:
                    return ("in", inputs[id(o._v)])
                raise TracerError(
                    f"{self.__name__} returns a traced scalar; return an "
                    "array (sluice.asarray) or a value computed outside"
                )
            if isinstance(o, _traced_indexing.MaskedSelection):
                raise _traced_indexing._masked_error()
            if type(o) in (tuple, list):
                return ("seq", type(o), [flatten(x) for x in o])
            if type(o) is dict:
                return ("dict", {k: flatten(x) for k, x in o.items()})
            return ("const", o)

        template = flatten(out)
        written = []
        # Arguments assigned into are written by the program itself (a
        # usm.store of their new value, which the compiler makes no copy
        # when the updates are in place), unless a result is a view of
        # memory: that view must read the values from before the store.
        views = {
            text.split(" = ", 1)[0]
            for text, _ in fb.ops
            if " = usm.strided_view " in text
            or " = usm.reshape " in text
            or " = usm.transpose " in text
            or " = usm.broadcast_to " in text
        }
        checks = getattr(tr, "index_checks", None) or []
        # With index checks, arguments are written back after the checks
        # pass, so an IndexError leaves them as they were.
        by_store = not checks and not any(r.name in views for r in results)
        stored = []
        for i, v in enumerate(values):
            if isinstance(v, _trace.Tracer) and v._v is not tr.arg_values[i]:
                if by_store and i not in numpy_leaves:
                    _ir.store(fb, v._v, tr.arg_values[i])
                    stored.append(i)
                    continue
                name = v._v.name
                if name not in seen:
                    seen[name] = len(results)
                    results.append(v._v)
                written.append((i, seen[name]))
        if written:
            template = ("wb", template, written)
        if checks:
            where = []
            for lo, hi, n, axis in checks:
                where.append((len(results), len(results) + 1, n, axis))
                results += [lo._v, hi._v]
            template = ("chk", template, where)
        fb.ret(results)
        tr.stored_arguments = stored
        return template

    def _build(self, s, targs, tkwargs):
        tr, (out, values) = self._trace(s, targs, tkwargs)
        template = self._outputs(tr, out, values, s.numpy_leaves)
        if getattr(tr, "kernel_steps", None) is not None:
            return _jit_kernels.SegmentedEntry(
                tr.kernel_steps,
                template,
                self._flags,
                self.__name__,
                list(s.numpy_leaves),
                self._numpy_queue(s) if s.numpy_leaves else None,
            )
        program = _compiler.compile_function(tr.fb, self.__name__, self._flags)
        e = _Entry()
        e.written = tr.stored_arguments
        if e.written:
            program.written_arguments = list(e.written)
        e.program = program
        e.captured = [a for a, _ in tr.captured.values()]
        e.out = template
        e.single = template == ("r", 0)
        e.numpy_leaves = list(s.numpy_leaves)
        e.numpy_queue = self._numpy_queue(s) if s.numpy_leaves else None
        return e


def jit(fn=None, *, static_argnums=(), static_argnames=(), fusion=True):
    """Compiles a function of sluice arrays into one usm program per call
    signature (see the module's documentation). Use as ``@sluice.jit`` or
    ``@sluice.jit(static_argnums=(1,))``; ``fusion=False`` keeps every
    operation its own kernel."""

    def wrap(f):
        return JitFunction(f, static_argnums, static_argnames, fusion)

    return wrap(fn) if fn is not None else wrap


# sluice.distributed.map_blocks, set by sluice.distributed when it is
# imported (a layer above this one; its arrays exist only then).
run_distributed = None


def _distributed(args, kwargs):
    for a in args:
        if hasattr(type(a), "__sluice_distributed__"):
            return True
    for a in kwargs.values():
        if hasattr(type(a), "__sluice_distributed__"):
            return True
    return False
