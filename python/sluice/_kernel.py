"""``@sluice.kernel``, ``@sluice.device_func`` and ``call_kernel``.

A kernel call is compiled once per signature (array dtypes, ranks, queues
and USM kinds; scalar types; range or nd-range and its number of
dimensions; the shapes and dtypes of local accessors) into a usm program:
a host function over the arrays that launches one ``gpu.func`` written by
_kernel_codegen on the arrays' queue. Sizes of arrays and ranges are
run-time arguments, so other sizes reuse the program. The program goes
through Sluice's pipeline (kernels for the host CPU, SPIR-V for OpenCL and
Level Zero, PTX for CUDA), is cached in memory and on disk like
``@sluice.jit``'s, and runs asynchronously on the queue, in order with
everything else submitted there. See docs/kernels.md.
"""

import ast
import functools
import math
import os

import numpy as np

# _kernel_calls: imported here, not at a kernel's first call (which it would
# slow down).
from . import _compiler, _dtypes, _kernel_calls, _kernel_subgroups  # noqa: F401
from . import kernel_api as kapi
from ._array import Array
from ._device import _info, _queue_from_id
from ._kernel_codegen import (
    Emitter,
    FunctionSource,
    KernelError,
    Walker,
    _Retry,
    contains_barrier,
)
from ._kernel_values import (
    BOOL,
    ArrayRef,
    Const,
    Index,
    ItemObj,
    PyObj,
    Scalar,
    mlir_type,
)
from ._placement import USM_NAMES, execution_queue

__all__ = [
    "KernelError",
    "KernelFunction",
    "DeviceFunction",
    "kernel",
    "device_func",
    "call_kernel",
    "call_kernel_async",
]

_TARGETS = {
    "host": "host",
    "opencl": "spirv",
    "level_zero": "spirv",
    "cuda": "cuda",
}
_MODULES = {
    "host": "sluice_host_kernels",
    "spirv": "sluice_spirv_kernels",
    "cuda": "sluice_cuda_kernels",
}
# Work-items per workgroup of range kernels on GPUs, and the host's grain.
_GPU_GROUP = 256
_HOST_GRAIN = 16384
_HOST_MAX_GROUPS = 256


class _Ctx:
    """What the emitter knows about the launch."""

    def __init__(self, target, nd, ndim):
        self.target = target
        self.nd = nd
        self.ndim = ndim
        self.glob = [Index(f"%g{d}") for d in range(ndim)]
        self.local = [Index(f"%l{d}") for d in range(ndim)]
        self.groups = [Index(f"%n{d}") for d in range(ndim)]
        self.local_total = Index("%lt")
        self.per_item_vars = False
        self.uniform_vars = set()
        # Bounds checking: the error buffer (an ArrayRef), else None.
        self.bounds = None


def _place(qid):
    q = _queue_from_id(qid)
    text = f'"{_info(q._device_handle)["filter_string"]}"'
    if q._name:
        text += f'("{q._name}")'
    return text


class _ArraySig:
    __slots__ = ("dtype", "ndim", "qid", "kind")

    def __init__(self, a):
        self.dtype, self.ndim = a.dtype, a.ndim
        self.qid, self.kind = a._queue_id, a._usm_kind

    def key(self):
        return ("A", self.dtype, self.ndim, self.qid, self.kind)


class _BoundsSig(_ArraySig):
    """The bounds-check error buffer: int64 slots on the kernel's queue."""

    def __init__(self, qid, kind):
        self.dtype, self.ndim = np.dtype(np.int64), 1
        self.qid, self.kind = qid, kind


_BOUNDS_NAME = "<bounds>"


# os.environ's own dict, keyed as the platform encodes names (bytes on
# POSIX): a lookup of an unset variable raises nothing there, where
# os.environ.get raises and catches KeyError (1.5 us a launch).
_ENV_DATA = getattr(os.environ, "_data", None)
_BOUNDS_KEY = "SLUICE_KERNEL_BOUNDS_CHECK"
_BOUNDS_DATA_KEY = (
    os.environ.encodekey(_BOUNDS_KEY)
    if hasattr(os.environ, "encodekey")
    else _BOUNDS_KEY
)


def _bounds_env():
    if isinstance(_ENV_DATA, dict):
        raw = _ENV_DATA.get(_BOUNDS_DATA_KEY)
        v = os.fsdecode(raw) if isinstance(raw, bytes) else (raw or "")
    else:
        v = os.environ.get(_BOUNDS_KEY, "")
    return v.strip().lower() not in ("", "0", "off", "false", "no")


def _quick_key(rng, args, bounds):
    """A cheap key of a launch's signature (the index space's kind and rank,
    each argument's type and, for arrays, dtype, rank, queue, USM kind and
    contiguity), or None for arguments it does not describe. Launches of
    one quick key have one full signature (KernelFunction._signature)."""
    key = [type(rng), len(rng) if type(rng) in (tuple, list) else 0, bounds]
    if isinstance(rng, (kapi.Range, kapi.NdRange)):
        key.append(rng.ndim)
    for a in args:
        t = type(a)
        if t is Array:
            key.append(
                (a.dtype, a.ndim, a._queue_id, a._usm_kind, a._c_contiguous)
            )
        elif t is kapi.LocalAccessor:
            key.append((t, tuple(a.shape), np.dtype(a.dtype)))
        elif t in (int, float, bool) or isinstance(a, np.generic):
            key.append(t)
        else:
            return None
    return tuple(key)


def _scalar_sig(v):
    if isinstance(v, (bool, np.bool_)):
        return BOOL, (bool if isinstance(v, bool) else None)
    if isinstance(v, int):
        return np.dtype(np.int64), int
    if isinstance(v, float):
        return np.dtype(np.float64), float
    if isinstance(v, np.generic):
        return _dtypes.to_dtype(v.dtype), None
    return None, None


class _LaunchSides:
    """The two sides of a kernel's launch while it is built: the host
    function's arguments and ops, the launch's values and the kernel's
    arguments (in the same order)."""

    def __init__(self):
        self.kernel_args = []  # (name, type) of the gpu.func
        self.workgroup = []  # CUDA: workgroup attributions of the gpu.func
        self.launch_args = []  # (value, type) in the host function
        self.host_args = []  # (name, usm type) of @main
        self.ops = []  # the host function's ops
        self._consts = {}

    def const(self, v):
        """The host function's index constant ``v``."""
        if v not in self._consts:
            self._consts[v] = f"%hc{v}"
            self.ops.insert(0, f"%hc{v} = arith.constant {v} : index")
        return self._consts[v]


class KernelFunction:
    """A kernel (see ``sluice.kernel``): launch it with ``call_kernel``."""

    # A kernel's program has nothing to fuse.
    _flags = ("--no-fusion",)

    def __init__(self, fn, inline=False, bounds_check=None):
        functools.update_wrapper(self, fn)
        self._fn = fn
        self._src = None
        self._cache = {}
        # Launch signatures by _quick_key: (nd, ndim, sigs, qid, key).
        self._quick = {}
        self._bounds_check = bounds_check
        self.compile_count = 0

    def _bounds(self):
        """Whether launches check array indices: the decorator's
        ``bounds_check``, else SLUICE_KERNEL_BOUNDS_CHECK."""
        if self._bounds_check is not None:
            return bool(self._bounds_check)
        return _bounds_env()

    @property
    def source(self):
        if self._src is None:
            self._src = FunctionSource(self._fn)
        return self._src

    def __call__(self, *args, **kwargs):
        raise TypeError(
            f"kernel {self.__name__} is launched with "
            "sluice.call_kernel(kernel, range, *args), not "
            "called directly"
        )

    def cache_clear(self):
        self._cache.clear()
        self._quick.clear()

    # --- signatures ----------------------------------------------------------
    def _signature(self, rng, args):
        src = self.source
        loc = (src.file, src.first)
        if isinstance(rng, kapi.NdRange):
            nd, ndim = True, rng.ndim
        elif isinstance(rng, kapi.Range):
            nd, ndim = False, rng.ndim
        elif isinstance(rng, (tuple, list)) or isinstance(rng, int):
            rng = kapi.Range(
                *(rng if isinstance(rng, (tuple, list)) else (rng,))
            )
            nd, ndim = False, rng.ndim
        else:
            raise TypeError(
                "the index space must be a kernel_api.Range or "
                f"kernel_api.NdRange, not {type(rng).__name__}"
            )
        nparams = len(src.params)
        if nparams == 0:
            raise KernelError(
                f"{self.__name__} must take the work-item "
                "(kapi.Item or kapi.NdItem) as its first "
                "parameter",
                loc,
            )
        if len(args) != nparams - 1:
            raise TypeError(
                f"{self.__name__} takes {nparams - 1} argument(s) after the "
                f"work-item ({', '.join(src.params[1:])}), but "
                f"{len(args)} were given"
            )
        key = [nd, ndim]
        sigs = []
        qids = []
        for name, a in zip(src.params[1:], args):
            if isinstance(a, Array):
                if not a.flags["C_CONTIGUOUS"]:
                    raise ValueError(
                        f"{self.__name__}: argument {name} is not "
                        "C-contiguous; kernels take contiguous arrays (copy "
                        "it first)"
                    )
                s = _ArraySig(a)
                qids.append(a._queue_id)
            elif isinstance(a, kapi.LocalAccessor):
                if not nd:
                    raise TypeError(
                        f"{self.__name__}: a LocalAccessor "
                        "needs an nd-range launch "
                        "(kernel_api.NdRange)"
                    )
                s = ("L", a.shape, a.dtype)
            else:
                dt, weak = _scalar_sig(a)
                if dt is None:
                    if isinstance(a, np.ndarray):
                        raise TypeError(
                            f"{self.__name__}: argument {name} is a NumPy "
                            "array; kernels take sluice arrays (compute "
                            "follows data: sluice.asarray(x, device=...))"
                        )
                    raise TypeError(
                        f"{self.__name__}: argument {name} of type "
                        f"{type(a).__name__} is not supported (arrays, "
                        "numbers and LocalAccessors are)"
                    )
                s = ("S", dt, weak)
            sigs.append(s)
            key.append(s.key() if isinstance(s, _ArraySig) else s)
        if not qids:
            raise TypeError(
                f"{self.__name__} needs at least one array "
                "argument: the kernel runs on its queue"
            )
        qid = execution_queue(qids)
        if self._bounds():
            kind = next(s.kind for s in sigs if isinstance(s, _ArraySig))
            sigs.append(_BoundsSig(qid, kind))
            key.append(("bounds", kind))
        return rng, nd, ndim, sigs, qid, tuple(key)

    # --- compiling ----------------------------------------------------------
    def _target(self, qid):
        backend = _info(_queue_from_id(qid)._device_handle)[
            "filter_string"
        ].split(":")[0]
        target = _TARGETS.get(backend)
        if target is None:
            raise KernelError(f"kernels cannot run on {backend} queues")
        return target

    def _build_text(self, nd, ndim, sigs, qid):
        return self._build(nd, ndim, sigs, qid)[0]

    def _build(self, nd, ndim, sigs, qid):
        """The program's text and, under bounds checking, the checked
        accesses (see Walker.bounds_check): the kernel's context, its
        arguments on both sides of the launch, the index space, the body
        and the module around them."""
        target = self._target(qid)
        ctx = self._context(target, nd, ndim)
        h = _LaunchSides()
        params, prologue = self._bind_arguments(h, ctx, target, nd, sigs)
        blocks, threads = self._index_space(h, target, nd, ndim)
        body, em = self._settled_body(ctx, params)
        text = self._module_text(
            h, qid, target, blocks, threads, prologue, body, em
        )
        return text, em.bounds_sites

    def _context(self, target, nd, ndim):
        """The kernel's compilation context (on the host, nd-range kernels
        with barriers keep per-item variables)."""
        src = self.source
        ctx = _Ctx(target, nd, ndim)
        if target == "host" and nd:
            split = any(contains_barrier(s, src.env) for s in src.tree.body)
            ctx.per_item_vars = split
            if split:
                for node in ast.walk(src.tree):
                    if (
                        isinstance(node, ast.For)
                        and contains_barrier(node, src.env)
                        and isinstance(node.target, ast.Name)
                    ):
                        ctx.uniform_vars.add(node.target.id)
        return ctx

    def _bind_arguments(self, h, ctx, target, nd, sigs):
        """The arguments: the host function's, the launch's and the
        kernel's (arrays as flat memrefs with their sizes; local arrays
        allocated; scalars). Returns the values the kernel's parameters
        name and the kernel's prologue."""
        src = self.source
        params = {src.params[0]: ItemObj(nd)}
        prologue_params = []
        local_allocs = []
        names = list(src.params[1:])
        if sigs and isinstance(sigs[-1], _BoundsSig):
            names.append(_BOUNDS_NAME)
        for k, (name, s) in enumerate(zip(names, sigs)):
            if isinstance(s, _ArraySig):
                place = _place(s.qid)
                usm = (
                    f"!usm.array<{'?x' * s.ndim}{_dtypes.mlir(s.dtype)}, "
                    f"{place}, {USM_NAMES[s.kind]}>"
                )
                space = f"#usm.placement<{place}, {USM_NAMES[s.kind]}>"
                et = mlir_type(s.dtype)
                mt = f"memref<{'?x' * s.ndim}{et}, {space}>"
                flat = f"memref<?x{et}, {space}>"
                h.host_args.append((f"%a{k}", usm))
                h.ops.append(
                    f"%m{k} = builtin.unrealized_conversion_cast "
                    f"%a{k} : {usm} to {mt}"
                )
                h.kernel_args.append((f"%p{k}", flat))
                h.launch_args.append((f"%f{k}", flat))
                dims = []
                for d in range(s.ndim):
                    h.ops.append(
                        f"%m{k}d{d} = memref.dim %m{k}, {h.const(d)} : {mt}"
                    )
                    h.kernel_args.append((f"%p{k}d{d}", "index"))
                    h.launch_args.append((f"%m{k}d{d}", "index"))
                    dims.append(Index(f"%p{k}d{d}"))
                if s.ndim > 1:
                    total = f"%m{k}d0"
                    for d in range(1, s.ndim):
                        h.ops.append(
                            f"%m{k}t{d} = arith.muli {total}, "
                            f"%m{k}d{d} : index"
                        )
                        total = f"%m{k}t{d}"
                    h.ops.append(
                        f"%f{k} = memref.reinterpret_cast %m{k} to offset: "
                        f"[0], sizes: [{total}], strides: [1] : {mt} to "
                        f"{flat}"
                    )
                else:
                    h.ops.append(
                        f"%f{k} = builtin.unrealized_conversion_"
                        f"cast %m{k} : {mt} to {flat}"
                    )
                params[name] = ArrayRef(
                    f"%p{k}", flat, s.dtype, dims, "global", label=name
                )
                if target == "spirv":
                    h.ops.append(
                        f"%x{k} = memref.extract_aligned_pointer_as_index "
                        f"%f{k} : {flat} -> index"
                    )
                    # Inverted: the runtime would pass a value that is a
                    # USM address as a pointer argument.
                    h.ops.append(
                        f"%z{k} = arith.index_cast %x{k} : index to i64"
                    )
                    h.ops.append(f"%hm1_{k} = arith.constant -1 : i64")
                    h.ops.append(f"%y{k} = arith.xori %z{k}, %hm1_{k} : i64")
                    h.kernel_args.append((f"%p{k}addr", "i64"))
                    h.launch_args.append((f"%y{k}", "i64"))
                    params[name].addr = f"%p{k}addr"
                if name == _BOUNDS_NAME:
                    ctx.bounds = params.pop(name)
            elif s[0] == "L":
                shape, dt = s[1], s[2]
                size = int(np.prod(shape))
                if target == "host":
                    mt = f"memref<{size}x{mlir_type(dt)}>"
                    local_allocs.append(f"%w{k} = memref.alloca() : {mt}")
                else:
                    mt = (
                        f"memref<{size}x{mlir_type(dt)}, "
                        "#gpu.address_space<workgroup>>"
                    )
                    if target == "cuda":
                        # A workgroup attribution of the gpu.func: NVVM has
                        # no lowering of a workgroup memref.alloc (it became
                        # a device-heap malloc read as shared memory).
                        h.workgroup.append(f"%w{k} : {mt}")
                    else:
                        local_allocs.append(f"%w{k} = memref.alloc() : {mt}")
                params[name] = ArrayRef(
                    f"%w{k}", mt, dt, list(shape), "local", label=name
                )
            else:
                dt, weak = s[1], s[2]
                h.host_args.append(
                    (
                        f"%a{k}",
                        mlir_type(dt) if dt.kind != "u" else _dtypes.mlir(dt),
                    )
                )
                if dt == BOOL:
                    h.ops.append(f"%s{k} = arith.extui %a{k} : i1 to i8")
                    h.kernel_args.append((f"%p{k}", "i8"))
                    h.launch_args.append((f"%s{k}", "i8"))
                    prologue_params.append(
                        f"%q{k} = arith.trunci %p{k} : i8 to i1"
                    )
                    params[name] = Scalar(f"%q{k}", dt, weak=weak)
                else:
                    host = f"%a{k}"
                    if dt.kind == "u":
                        h.ops.append(
                            f"%u{k} = builtin.unrealized_conversion_cast "
                            f"%a{k} : {_dtypes.mlir(dt)} to {mlir_type(dt)}"
                        )
                        host = f"%u{k}"
                    h.kernel_args.append((f"%p{k}", mlir_type(dt)))
                    h.launch_args.append((host, mlir_type(dt)))
                    params[name] = Scalar(f"%p{k}", dt, weak=weak)
        return params, prologue_params + local_allocs

    def _index_space(self, h, target, nd, ndim):
        """The launch's grid: run-time sizes (i64 arguments of @main), the
        kernel's index arguments; returns (blocks, threads)."""
        # The index space: run-time sizes (i64 arguments of @main).
        nrange = ndim * (2 if nd else 1)
        for r in range(nrange):
            h.host_args.append((f"%r{r}", "i64"))
            h.ops.append(f"%ri{r} = arith.index_cast %r{r} : i64 to index")
        glob = [f"%ri{d}" for d in range(ndim)]
        local = (
            [f"%ri{ndim + d}" for d in range(ndim)]
            if nd
            else [h.const(1)] * ndim
        )
        for d in range(ndim):
            h.ops.append(f"%hn{d} = arith.divui {glob[d]}, {local[d]} : index")
        h.ops.append("%hgt = arith.constant 1 : index")
        h.ops.append("%hlt = arith.constant 1 : index")
        h.ops.append("%hng = arith.constant 1 : index")
        tot_g, tot_l, tot_n = "%hgt", "%hlt", "%hng"
        for d in range(ndim):
            h.ops.append(f"%hgt{d} = arith.muli {tot_g}, {glob[d]} : index")
            h.ops.append(f"%hlt{d} = arith.muli {tot_l}, {local[d]} : index")
            h.ops.append(f"%hng{d} = arith.muli {tot_n}, %hn{d} : index")
            tot_g, tot_l, tot_n = f"%hgt{d}", f"%hlt{d}", f"%hng{d}"
        for d in range(ndim):
            h.kernel_args.append((f"%g{d}", "index"))
            h.launch_args.append((glob[d], "index"))
            h.kernel_args.append((f"%l{d}", "index"))
            h.launch_args.append((local[d], "index"))
            h.kernel_args.append((f"%n{d}", "index"))
            h.launch_args.append((f"%hn{d}", "index"))
        h.kernel_args.append(("%lt", "index"))
        h.launch_args.append((tot_l, "index"))
        h.kernel_args.append(("%gt", "index"))
        h.launch_args.append((tot_g, "index"))
        one = h.const(1)
        if nd:
            blocks, threads = tot_n, (one if target == "host" else tot_l)
        elif target == "host":
            # Workgroups of at least _HOST_GRAIN items, at most
            # _HOST_MAX_GROUPS of them; `chunk` items each.
            h.ops += [
                f"%hgr = arith.ceildivui {tot_g}, {h.const(_HOST_GRAIN)} : "
                "index",
                f"%hgm = arith.minui %hgr, {h.const(_HOST_MAX_GROUPS)} : "
                "index",
                f"%hgb = arith.maxui %hgm, {one} : index",
                f"%hch = arith.ceildivui {tot_g}, %hgb : index",
            ]
            h.kernel_args.append(("%chunk", "index"))
            h.launch_args.append(("%hch", "index"))
            blocks, threads = "%hgb", one
        else:
            h.ops += [
                f"%hgr = arith.ceildivui {tot_g}, {h.const(_GPU_GROUP)} : "
                "index",
                f"%hgb = arith.maxui %hgr, {one} : index",
            ]
            blocks, threads = "%hgb", h.const(_GPU_GROUP)
        return blocks, threads

    def _settled_body(self, ctx, params):
        """The kernel body, emitted until the variables' types settle;
        returns its lines and the Emitter."""
        src = self.source
        var_types, var_nonneg = {}, {}
        for _ in range(8):
            em = Emitter(ctx, dict(var_types), dict(var_nonneg))
            w = Walker(em, src, dict(params))
            try:
                body = self._emit_body(em, w, ctx)
            except _Retry:
                body = None
            except KernelError:
                raise
            except (
                TypeError,
                ValueError,
                KeyError,
                IndexError,
                AttributeError,
                OverflowError,
                AssertionError,
            ) as e:
                raise KernelError(
                    f"{self.__name__}: cannot compile this "
                    f"line ({type(e).__name__}: {e})",
                    em.loc,
                ) from e
            if (
                body is not None
                and em.assigned == var_types
                and em.assigned_nonneg == var_nonneg
            ):
                break
            if em.assigned == var_types and em.assigned_nonneg == var_nonneg:
                raise KernelError(
                    "a variable is used before it is assigned", em.loc
                )
            var_types = dict(em.assigned)
            var_nonneg = dict(em.assigned_nonneg)
        else:
            raise KernelError(
                "the types of the kernel's variables do not settle", em.loc
            )
        return body, em

    def _module_text(
        self, h, qid, target, blocks, threads, prologue, body, em
    ):
        """The module: @main launching the gpu.func."""
        one = h.const(1)
        fname = (
            "".join(
                c if c.isalnum() or c == "_" else "_" for c in self.__name__
            )
            or "kernel"
        )
        mod = _MODULES[target]
        qattr = f"#usm.queue<{_place(qid)}>"
        lines = ["module attributes {gpu.container_module} {"]
        # The host side only launches: compiled without optimisation
        # (HostKernels.cpp), which saves LLVM a third of its time.
        lines.append(
            "  func.func @main("
            + ", ".join(f"{n}: {t}" for n, t in h.host_args)
            + ") attributes {sluice.optimize_none} {"
        )
        lines += ["    " + o for o in h.ops]
        lines.append(
            f"    gpu.launch_func @{mod}::@{fname} blocks in "
            f"({blocks}, {one}, {one}) threads in ({threads}, {one}, {one}) "
            "args("
            + ", ".join(f"{v} : {t}" for v, t in h.launch_args)
            + f") {{sluice.queue = {qattr}}}"
        )
        lines.append("    return")
        lines.append("  }")
        lines.append(f"  gpu.module @{mod} {{")
        attributions = (
            f" workgroup({', '.join(h.workgroup)})" if h.workgroup else ""
        )
        lines.append(
            f"    gpu.func @{fname}("
            + ", ".join(f"{n}: {t}" for n, t in h.kernel_args)
            + ")"
            + attributions
            + " kernel {"
        )
        for p in prologue + em.prologue:
            lines.append("      " + p)
        lines += ["    " + b for b in body]
        lines.append("      gpu.return")
        lines.append("    }")
        lines.append("  }")
        lines.append("}")
        return "\n".join(lines) + "\n"

    def _emit_body(self, em, w, ctx):
        """The body's lines around the walk of the kernel's statements."""
        em.depth = 1
        if ctx.target == "host":
            em.grp = em.iop("gpu.block_id x")
            if not ctx.nd:
                lo = em.imul(em.grp, Index("%chunk"))
                hi0 = em.iadd(lo, Index("%chunk"))
                hi = em.iop(f"arith.minui {hi0.name}, %gt : index")
                one = em.ic(1)
                iv = em.fresh()
                em.emit(
                    f"scf.for {iv} = {lo.name} to {hi.name} step {one.name} {{"
                )
                em.depth += 1
                em.gid = Index(iv)
                w.start()
                w.stmts(w.src.tree.body)
                em.depth -= 1
                em.emit("}")
            elif ctx.per_item_vars:
                w.group_level = True
                em.cur_l = em.ic(0)
                w.start()
                w.stmts(w.src.tree.body)
            else:
                z, one = em.ic(0), em.ic(1)
                iv = em.fresh()
                em.emit(f"scf.for {iv} = {z.name} to %lt step {one.name} {{")
                em.depth += 1
                em.cur_l = Index(iv)
                w.start()
                w.stmts(w.src.tree.body)
                em.depth -= 1
                em.emit("}")
        else:
            em.grp = em.iop("gpu.block_id x")
            em.lid = em.iop("gpu.thread_id x")
            if not ctx.nd:
                bd = em.iop("gpu.block_dim x")
                em.gid = em.iadd(em.imul(em.grp, bd), em.lid)
                ok = em.op(f"arith.cmpi ult, {em.gid.name}, %gt : index", BOOL)
                em.emit(f"scf.if {ok.name} {{")
                em.depth += 1
                w.start()
                w.stmts(w.src.tree.body)
                em.depth -= 1
                em.emit("}")
            else:
                if ctx.target == "cuda":
                    _kernel_subgroups.prologue(em)
                w.start()
                w.stmts(w.src.tree.body)
        return em.lines

    def _compile(self, nd, ndim, sigs, qid, key):
        text, sites = self._build(nd, ndim, sigs, qid)
        name = self.__name__
        flags = self._flags
        try:
            entry = _compiler.compile_text(text, text, flags, name)
        except Exception as e:
            if hasattr(e, "args") and e.args:
                src = self.source
                e.args = (
                    f"{src.file}:{src.first}: kernel {name}: {e.args[0]}",
                ) + e.args[1:]
            raise
        specs = []
        for s in sigs:
            if isinstance(s, _ArraySig):
                specs.append(
                    (
                        True,
                        _dtypes.CODES[s.dtype],
                        [-1] * s.ndim,
                        s.qid,
                        s.kind,
                    )
                )
            elif s[0] == "S":
                specs.append((False, _dtypes.CODES[s[1]], [], 0, 0))
        i64 = _dtypes.CODES[np.dtype(np.int64)]
        for _ in range(ndim * (2 if nd else 1)):
            specs.append((False, i64, [], 0, 0))
        from . import _sluice as _ext

        self.compile_count += 1
        program = _ext.Program(entry, specs, [], name)
        program.writes_arguments = True  # failures reach the next reader
        return program, text, sites

    def lower(self, rng, *args):
        """The kernel's program for these arguments (nothing runs):
        ``.as_text()`` shows it."""
        rng, nd, ndim, sigs, qid, key = self._signature(rng, args)
        return LoweredKernel(
            self._build_text(nd, ndim, sigs, qid), self.__name__
        )

    def compile(self, index_space, *args):
        """Compiles the kernel for the signature of these arguments now
        (nothing runs); a later launch with that signature reuses it."""
        rng, nd, ndim, sigs, qid, key = self._signature(index_space, args)
        if key not in self._cache:
            self._cache[key] = self._compile(nd, ndim, sigs, qid, key)

    def _launch(self, rng, args):
        qk = _quick_key(rng, args, self._bounds())
        seen = self._quick.get(qk) if qk is not None else None
        if seen is None:
            rng, nd, ndim, sigs, qid, key = self._signature(rng, args)
            if qk is not None and len(self._quick) < 1024:
                self._quick[qk] = (nd, ndim, sigs, qid, key)
        else:
            nd, ndim, sigs, qid, key = seen
            if not isinstance(rng, (kapi.Range, kapi.NdRange)):
                rng = kapi.Range(
                    *(rng if isinstance(rng, (tuple, list)) else (rng,))
                )
        entry = self._cache.get(key)
        if entry is None:
            entry = self._compile(nd, ndim, sigs, qid, key)
            self._cache[key] = entry
        program, _, sites = entry
        if nd:
            sizes = list(rng.global_range) + list(rng.local_range)
            ltotal = math.prod(rng.local_range)
            maxwg = _info(_queue_from_id(qid)._device_handle).get(
                "max_work_group_size", 0
            )
            if maxwg and ltotal > maxwg:
                raise ValueError(
                    f"{self.__name__}: workgroups of {ltotal} work-items "
                    f"exceed the device's maximum of {maxwg}"
                )
        else:
            sizes = list(rng)
        if any(s == 0 for s in sizes[:ndim]):
            return  # an empty index space: nothing runs
        values = [a for a in args if not isinstance(a, kapi.LocalAccessor)]
        values = [
            bool(v)
            if isinstance(v, np.bool_)
            else (v.item() if isinstance(v, np.generic) else v)
            for v in values
        ]
        if not isinstance(sigs[-1], _BoundsSig):
            program(values + sizes, None)
            return
        # Bounds checking: two int64 slots per checked index (a flag and
        # the index), read back after the launch (which waits for it).
        from ._creation import zeros

        first = next(a for a in args if isinstance(a, Array))
        err = zeros(
            max(1, 2 * len(sites)),
            dtype=np.int64,
            sycl_queue=first.sycl_queue,
            usm_type=USM_NAMES[sigs[-1].kind],
        )
        program(values + [err] + sizes, None)
        slots = err.asnumpy()
        for k, (loc, label, axis, size) in enumerate(sites):
            if slots[2 * k]:
                raise self._bounds_error(
                    args, loc, label, axis, size, int(slots[2 * k + 1])
                )

    def _bounds_error(self, args, loc, label, axis, size, index):
        named = dict(zip(self.source.params[1:], args))
        a = named.get(label)
        if isinstance(a, Array):
            shape = tuple(a.shape)
            what = f"argument {label} of shape {shape}"
        elif isinstance(a, kapi.LocalAccessor):
            shape = tuple(a.shape)
            what = f"LocalAccessor {label} of shape {shape}"
        else:
            shape = None
            what = label or "an array"
        if size is None and shape is not None:
            size = shape[axis]
        file, line = loc if loc else ("<unknown>", 0)
        return IndexError(
            f"{file}:{line}: kernel {self.__name__}: index {index} is out of "
            f"bounds for axis {axis} with size {size} ({what})"
        )


class LoweredKernel:
    """A kernel's program for one signature (see KernelFunction.lower)."""

    def __init__(self, text, name):
        self._text = text
        self._name = name

    def as_text(self, stage="input"):
        """The program at ``stage``: "input" (as written by the kernel
        compiler), "kernels", "binaries" or "llvm"."""
        if stage == "input":
            return self._text
        return _compiler.lower_text(
            self._text, stage, KernelFunction._flags, self._name
        )


class DeviceFunction:
    """A function that kernels call (see ``sluice.device_func``); it is
    compiled into each kernel that calls it."""

    def __init__(self, fn):
        functools.update_wrapper(self, fn)
        self._fn = fn
        self._src = None
        self._n = 0

    def __call__(self, *args, **kwargs):
        return self._fn(*args, **kwargs)

    @property
    def source(self):
        if self._src is None:
            self._src = FunctionSource(self._fn)
        return self._src

    def inline(self, w, node):
        src = self.source
        if node.keywords:
            raise w.error(
                node, "device functions take positional arguments only"
            )
        args = [w.expr(a) for a in node.args]
        nd = len(src.defaults)
        if not len(src.params) - nd <= len(args) <= len(src.params):
            raise w.error(
                node,
                f"{self.__name__} takes {len(src.params)} "
                f"arguments, not {len(args)}",
            )
        for d in src.defaults[len(args) - (len(src.params) - nd) :]:
            v = ast.literal_eval(d) if isinstance(d, ast.Constant) else None
            if not isinstance(v, (int, float, bool)):
                raise w.error(node, "device function defaults must be numbers")
            args.append(Const(v))
        depth = getattr(w, "inline_depth", 0)
        if depth > 16:
            raise w.error(
                node, f"{self.__name__}: device functions may not recurse"
            )
        # Each inlining gets its own variable names (numbered per call site
        # in the order the walk meets them, so they are stable).
        w.em.inlines = getattr(w.em, "inlines", 0) + 1
        prefix = f"{w.prefix}{self.__name__}@{w.em.inlines}."
        ret = prefix + "<ret>"
        inner = Walker(w.em, src, dict(zip(src.params, args)), prefix, ret)
        inner.inline_depth = depth + 1
        inner.group_level = False
        saved = w.em.loc
        inner.start()
        inner.stmts(src.tree.body)
        w.em.loc = saved
        if ret not in w.em.var_types and ret not in w.em.assigned:
            return PyObj(None)
        return w.em.load_var(ret)


def kernel(fn=None, *, inline=False, bounds_check=None):
    """Makes ``fn(item, *args)`` a kernel, launched with
    ``sluice.call_kernel(fn, range, *args)`` (see docs/kernels.md). Use as
    ``@sluice.kernel`` or ``@sluice.kernel(inline=..., bounds_check=...)``.
    ``bounds_check=True`` makes an out-of-bounds array index raise
    IndexError (naming the kernel's line, the index and the shape) after the
    launch, which then waits for the kernel; None (the default) follows the
    environment variable SLUICE_KERNEL_BOUNDS_CHECK."""

    def wrap(f):
        return KernelFunction(f, inline, bounds_check)

    return wrap(fn) if fn is not None else wrap


def device_func(fn=None, *, inline=True):
    """Makes ``fn`` callable from kernels (it is compiled into them)."""

    def wrap(f):
        return DeviceFunction(f)

    return wrap(fn) if fn is not None else wrap


def _traced(kernel, index_space, args):
    """Inside a function that @sluice.jit traces, the launch becomes a
    step of the traced program (sluice._jit_kernels); returns whether it
    did."""
    from . import _trace

    tr = _trace.current()
    if tr is None:
        return False
    # A launch of the library's own kernels on concrete arrays only (a
    # nonzero() or unique() of an array made or captured in the function)
    # runs now, when no earlier step of the trace writes its arrays: the
    # library reads such results back (a count, a size) at once. Users'
    # kernels are always steps (they run at every call).
    deferred = tr.__dict__.setdefault("_deferred_arrays", set())
    arrays = [a for a in args if isinstance(a, Array)]
    if (
        kernel._fn.__module__.startswith(__package__ + ".")
        and not any(isinstance(a, _trace.Tracer) for a in args)
        and not any(id(a) in deferred for a in arrays)
    ):
        return False
    deferred.update(id(a) for a in arrays)
    from . import _jit_kernels

    _jit_kernels.launch(tr, kernel, index_space, args)
    return True


def call_kernel(kernel, index_space, *args):
    """Launches ``kernel`` over ``index_space`` (a ``kernel_api.Range`` or
    ``NdRange``) on the queue of its array arguments. Like every Sluice
    operation it is asynchronous and ordered with the queue's other work:
    reading an array it wrote waits for it."""
    if not isinstance(kernel, KernelFunction):
        raise TypeError(
            "call_kernel takes a @sluice.kernel function, not "
            f"{type(kernel).__name__}"
        )
    if _traced(kernel, index_space, args):
        return
    kernel._launch(index_space, args)


class KernelEvent:
    """The completion of a kernel launched by ``call_kernel_async``."""

    def __init__(self, queues):
        self._queues = queues

    def wait(self):
        for q in self._queues:
            q.wait()


def call_kernel_async(kernel, index_space, dependent_events, *args):
    """``call_kernel`` that returns an event. Work on one queue runs in
    order, so ``dependent_events`` of the same queue need no waiting; those
    of other queues are waited for before the launch."""
    if not isinstance(kernel, KernelFunction):
        raise TypeError(
            "call_kernel_async takes a @sluice.kernel function, "
            f"not {type(kernel).__name__}"
        )
    if _traced(kernel, index_space, args):
        return KernelEvent([])  # ordered with the function's work
    qids = {a._queue_id for a in args if isinstance(a, Array)}
    for ev in dependent_events or ():
        if not isinstance(ev, KernelEvent):
            raise TypeError(
                "dependent_events must be events returned by call_kernel_async"
            )
        if {q._id for q in ev._queues} - qids:
            ev.wait()
    kernel._launch(index_space, args)
    return KernelEvent([_queue_from_id(q) for q in sorted(qids)])
