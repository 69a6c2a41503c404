"""Lazy execution: eager operations recorded and fused without a decorator.

With lazy execution on (the default; ``SLUICE_LAZY=0`` or
``sluice.set_lazy(False)`` turns it off), an eager operation that would
submit a one-op program is recorded instead into the pending graph of its
queue, and returns at once an array whose memory does not exist yet. When a
value is needed the extension (python/src/Lazy.h) calls ``flush_all``,
which turns each pending graph into one program: the operations whose
results are still referenced become its results, the rest stay inside it,
and the fusion pass makes kernels of the chains. The program is compiled
once per graph structure (operations, dtypes, which sizes are 1, how
operands connect): a loop body compiles once, whatever the sizes. Small
operations run eagerly until they repeat in chains, and a new structure
of small operations runs operation by operation until it is submitted a
second time (python/src/LazyTape.h, docs/python.md).

A value is needed when an array of a pending graph is read (``asnumpy``,
printing, ``float()``, DLPack, a pointer), used by an operation that is not
recorded (a copy, an in-place write, a kernel, a view of part of it), when
an array the graph reads is about to be written, when a queue is waited
for, and when a graph reaches ``SLUICE_LAZY_MAX_OPS`` operations (128).
Results are those of eager execution: the same programs' operations, in
the same order, on the same values; only the number of passes over memory
changes.
"""

import collections
import os
import threading

from . import _compiler, _dtypes, _ir
from . import _sluice as _ext


def _env_on(name, default):
    v = os.environ.get(name, "").strip().lower()
    if not v:
        return default
    return v not in ("0", "off", "false", "no")


# Synchronous mode (SLUICE_SYNC=1) runs every operation at once: no lazy
# execution then.
_enabled = _env_on("SLUICE_LAZY", True) and not _env_on("SLUICE_SYNC", False)
# Results smaller than this (elements) run eagerly unless an operand is
# pending: on the host an eager operation on a small array costs less than
# recording and submitting it; elsewhere a launch saved is worth more.
_MIN_ELEMENTS = os.environ.get("SLUICE_LAZY_MIN_ELEMENTS", "")
_min_elements = {}  # queue id -> threshold
_before_sync = None
_MAX_OPS = max(1, int(os.environ.get("SLUICE_LAZY_MAX_OPS", "128") or 128))
# Small operations (below the threshold) are recorded once their operation
# was seen this often in chains of small eager operations (a loop body);
# 0: never (see python/src/LazyTape.h).
_SMALL_REPEATS = max(
    0, int(os.environ.get("SLUICE_LAZY_SMALL_REPEATS", "2") or 2)
)
_MAX_PROGRAMS = 512

# The operations that may be recorded: one-op programs of pure array
# operations whose results have known shapes.
RECORDABLE = frozenset(
    ["bin", "un", "ew", "where", "astype", "reduce", "cplx", "arange"]
)

_lock = threading.RLock()
_graphs = {}  # queue id -> _Graph
_programs = collections.OrderedDict()  # graph key -> Program (LRU)
_result_types = {}  # eager op key -> [ArrayT] of its results
_stats = collections.Counter()
_boundaries = collections.Counter()
# The operations of the last programs compiled (for lazy_report).
_fused = collections.deque(maxlen=16)


def _op_name(key):
    """A short name of an eager operation: "mul", "exp", "sum(axis=(1,),
    keepdims)"."""
    op = key[0]
    if not isinstance(op, tuple) or len(op) < 2:
        return str(op)
    name = str(op[1])
    if op[0] == "reduce" and len(op) >= 3:
        axes = "" if op[2] is None else f"axis={op[2]}"
        keep = ", keepdims" if len(op) > 3 and op[3] is True else ""
        name += f"({axes}{keep})"
    return name


def enabled():
    return _enabled


def set_min_elements(n):
    """Records only results of at least n elements (or with a pending
    operand); None restores the defaults (65536 elements on the host;
    on other devices 4096 for operations resolved in Python and all of
    those seen before; or SLUICE_LAZY_MIN_ELEMENTS). Smaller operations
    seen before are recorded once they repeat (set_small_repeats); what
    repeated is forgotten here."""
    global _MIN_ELEMENTS
    _MIN_ELEMENTS = "" if n is None else str(int(n))
    _min_elements.clear()
    _tape_limits()


def set_small_repeats(n):
    """Records small operations (below the threshold) once their
    operation was seen ``n`` times in chains of small eager operations (0:
    never; None: 2 or SLUICE_LAZY_SMALL_REPEATS). Returns the previous
    setting."""
    global _SMALL_REPEATS
    previous = _SMALL_REPEATS
    if n is None:
        n = os.environ.get("SLUICE_LAZY_SMALL_REPEATS", "2") or 2
    _SMALL_REPEATS = max(0, int(n))
    _tape_limits()
    return previous


def _tape_limits():
    # Operations seen before are recorded by the fast path in C++ (see
    # python/src/LazyTape.h), at a cost below an eager launch on devices:
    # all of them there; on the host those of 65536 elements or more (a
    # small eager operation runs on the calling thread for less than its
    # recording and submission cost), unless SLUICE_LAZY_MIN_ELEMENTS says
    # otherwise (-1: these defaults).
    m = _MIN_ELEMENTS.strip()
    _ext.lazy_tape_limits(int(m) if m else -1, _MAX_OPS, _SMALL_REPEATS)


def set_enabled(on):
    """Turns lazy execution on or off (off submits what is pending)."""
    global _enabled
    on = bool(on)
    previous = _enabled
    if not on:
        flush_all("lazy execution was turned off")
    _enabled = on
    _ext.fast_lazy(on)
    return previous


def synchronous(on):
    """Synchronous mode turns lazy execution off until it ends."""
    global _before_sync
    if on and _before_sync is None:
        _before_sync = set_enabled(False)
    elif not on and _before_sync is not None:
        set_enabled(_before_sync)
        _before_sync = None


class _Node:
    __slots__ = (
        "key",
        "emit",
        "in_dtypes",
        "refs",
        "shapes",
        "tokens",
        "types",
        "computed",
        "where",
    )

    def __init__(
        self, key, emit, in_dtypes, refs, shapes, tokens, types, where
    ):
        self.types = types  # per result: (USM kind, dtype code, dtype)
        # The user's source line that recorded it (an id of the
        # extension's lazy_location; 0: unknown), named by failures.
        self.where = where
        # How often a submitted program computed it without keeping it.
        self.computed = 0
        self.key = key
        self.emit = emit
        self.in_dtypes = in_dtypes
        self.refs = refs  # per operand: an int (argument) or (node, result)
        self.shapes = shapes
        self.tokens = tokens


class _Graph:
    __slots__ = (
        "qid",
        "kind",
        "args",
        "sigs",
        "arg_index",
        "nodes",
        "by_id",
        "parts",
    )

    def __init__(self, qid, kind):
        self.qid = qid
        self.kind = kind
        self.args = []  # arrays and scalars passed to the program
        self.sigs = []  # their types: ("A", dtype, shape, usm) / ("S", dt)
        self.arg_index = {}  # id(array) -> argument index
        self.nodes = []
        self.by_id = {}  # lazy buffer id -> (node, result)
        self.parts = []  # per node: (op key, operand refs): the structure


def _result_types_of(key, ops, in_dtypes, emit, qid, kind):
    """The IR types of an operation's results (from a scratch function,
    once per operation signature)."""
    types = _result_types.get(key)
    if types is None:
        fb = _ir.FunctionBuilder("main")
        values = []
        for o, dt in zip(ops, in_dtypes):
            values.append(_arg_value(fb, _sig_of(o, dt), dt, qid, kind))
        types = [v.type for v in emit(fb, values)]
        _result_types[key] = types
    return types


def _sig_of(o, dt):
    if o.kind == "A":
        # A strided array (a basic slice, a transpose) is read in place
        # through a view argument: "V".
        tag = "A" if not o.shape or o.obj._c_contiguous else "V"
        return (tag, o.dtype, _ir.generic_shape(o.shape), o.usm)
    return ("S", dt if dt is not None else o.dtype)


def _arg_value(fb, sig, dt, qid, kind):
    if sig[0] == "V":
        v = fb.view_arg(_ir.ArrayT(sig[1], sig[2], qid, sig[3]))
    elif sig[0] == "A":
        v = fb.arg(_ir.ArrayT(sig[1], sig[2], qid, sig[3]))
    else:
        v = fb.arg(_ir.ScalarT(sig[1], signless=False))
    if dt is not None:
        v = _ir.convert_operand(fb, v, dt, qid, kind)
    return v


def worth_recording(ops, out_shapes, qid):
    """Whether an operation is recorded: its results are large enough for
    fusion to pay, or an operand is pending already."""
    if _elements(out_shapes) >= _limit(qid):
        return True
    for o in ops:
        if o.kind == "A" and o.obj._lazy_id:
            return True
    return False


def _elements(shapes):
    """The largest number of elements among shapes (None ones skipped)."""
    most = 0
    for s in shapes:
        if s is not None:
            n = 1
            for d in s:
                n *= d
            most = max(most, n)
    return most


def _limit(qid):
    limit = _min_elements.get(qid)
    if limit is None:
        if _MIN_ELEMENTS.strip():
            limit = int(_MIN_ELEMENTS)
        else:
            from ._device import _queue_from_id
            from ._placement import queue_info

            host = (
                queue_info(_queue_from_id(qid)).get("backend_name") == "host"
            )
            limit = 1 << 16 if host else 1 << 12
        _min_elements[qid] = limit
    return limit


def record(
    key, ops, in_dtypes, emit, out_shapes, qid, kind, fast=None, bounds=()
):
    """Records one operation (resolved by _dispatch._execute) on queue ``qid``
    and returns its result arrays, or None when it cannot be recorded.
    ``fast``: (op code, operands) to register with the C++ fast path, whose
    next hits on operands of the same signatures record through
    ``record_fast`` without resolving again."""
    template = _template(key, ops, in_dtypes, emit, out_shapes, qid, kind)
    if template is None:
        return None
    shapes = template[3]
    results = _record(template, [o.obj for o in ops])
    if fast is not None:
        op, operands = fast
        _ext.fast_register(op, operands, template, shapes, list(bounds))
    return results


def register(
    key, ops, in_dtypes, emit, out_shapes, qid, kind, fast, bounds=()
):
    """Gives the fast path the template of an operation that runs eagerly
    now (too small to record here): its next hits are recorded by the
    fast path's tape in C++, which costs less than an eager launch."""
    template = _template(key, ops, in_dtypes, emit, out_shapes, qid, kind)
    if template is not None:
        op, operands = fast
        _ext.fast_register(op, operands, template, template[3], list(bounds))


def _template(key, ops, in_dtypes, emit, out_shapes, qid, kind):
    for s in out_shapes:
        if s is None:
            return None
    types = _result_types_of(key, ops, in_dtypes, emit, qid, kind)
    for t in types:
        if not isinstance(t, _ir.ArrayT) or t.qid != qid:
            return None
    sigs = tuple(
        _sig_of(o, None if o.kind == "A" else dt)
        for o, dt in zip(ops, in_dtypes)
    )
    shapes = [tuple(s) for s in out_shapes]
    return (
        key,
        emit,
        tuple(in_dtypes),
        shapes,
        tuple((t.kind, _dtypes.CODES[t.dtype], t.dtype) for t in types),
        qid,
        kind,
        sigs,
        _elements(shapes),
    )


def compile_tape(ops, outs):
    """The program of a tape the fast path recorded (python/src/LazyTape.h):
    ``ops`` are (template, refs), refs argument indices or (op, result);
    ``outs`` the (op, result) pairs it returns."""
    first = ops[0][0]
    qid, kind = first[5], first[6]
    sigs = {}
    for template, refs in ops:
        for ref, sig in zip(refs, template[7]):
            if ref.__class__ is int:
                sigs[ref] = sig
    # Python's graphs and the tape share compiled programs: the key is the
    # one _run makes for a graph of these operations.
    outs = [tuple(o) for o in outs]
    key = (
        qid,
        kind,
        tuple((template[0], tuple(refs)) for template, refs in ops),
        tuple(outs),
        tuple(sigs[i] for i in range(len(sigs))),
    )
    # (Not under _lock: the tape's lock is held here, and _lock's holders
    # may wait for it. The cache's operations are atomic.)
    program = _programs.get(key)
    if program is not None:
        try:
            _programs.move_to_end(key)
        except KeyError:  # (dropped by another thread meanwhile)
            pass
        _stats["programs reused"] += 1
        return program
    fb = _ir.FunctionBuilder("main")
    argv = [_arg_value(fb, sigs[i], None, qid, kind) for i in range(len(sigs))]
    values = {}
    for j, (template, refs) in enumerate(ops):
        vals = []
        for ref, dt in zip(refs, template[2]):
            v = argv[ref] if ref.__class__ is int else values[ref]
            if dt is not None:
                v = _ir.convert_operand(fb, v, dt, qid, kind)
            vals.append(v)
        for r, v in enumerate(template[1](fb, vals)):
            values[(j, r)] = v
    fb.ret([values[o] for o in outs])
    program = _compiler.compile_function(fb, name="sluice.lazy")
    _fused.append([_op_name(template[0]) for template, _ in ops])
    _programs[key] = program
    while len(_programs) > _MAX_PROGRAMS:
        _programs.popitem(last=False)
    _stats["programs compiled"] += 1
    return program


def record_fast(template, operands):
    """A fast-path hit (python/src/FastPath.cpp) in lazy mode; None runs
    it eagerly instead (a small result with no pending operand)."""
    if template[8] < _limit(template[5]):
        for x, s in zip(operands, template[7]):
            if s[0] != "S" and x._lazy_id:
                break
        else:
            return None
    return _record(template, operands)[0]


def _record(template, objs):
    key, emit, in_dtypes, shapes, types, qid, kind, sigs, _ = template
    if _ext.lazy_tape_pending():
        # The fast path's tape and a graph here are never both pending:
        # this graph takes the tape's operations over. (Not under _lock:
        # the tape's own lock comes first.)
        _adopt_tape()
    with _lock:
        g = _graphs.get(qid)
        # A view of part of a pending result, or one of another graph, is
        # used: submit first (its memory must exist).
        for x, s in zip(objs, sigs):
            if s[0] != "S":
                lid = x._lazy_id
                if lid and (g is None or lid < 0 or lid not in g.by_id):
                    flush_all("a view of a pending result was used")
                    g = None
                    break
        if g is None:
            g = _graphs[qid] = _Graph(qid, kind)
            _ext.lazy_pending(True)
        refs = []
        for x, s in zip(objs, sigs):
            if s[0] != "S":
                lid = x._lazy_id
                if lid:
                    j, r = g.by_id[lid]
                    t = g.nodes[j]
                    if t.shapes[r] == x.shape and t.types[r][2] == x.dtype:
                        refs.append((j, r))
                        continue
                    # Same memory, another shape or dtype (a reshape).
                    flush_all("a reshaped pending result was used")
                    return _record(template, objs)
                i = g.arg_index.get(id(x))
                if i is None:
                    i = len(g.args)
                    g.args.append(x)
                    g.sigs.append(s)
                    g.arg_index[id(x)] = i
                    _ext.lazy_mark_read(x, 1)
                refs.append(i)
            else:
                refs.append(len(g.args))
                g.args.append(x)
                g.sigs.append(s)
        results, tokens = [], []
        j = len(g.nodes)
        for r, (t, shape) in enumerate(zip(types, shapes)):
            a, tok = _ext.lazy_array(qid, t[0], t[1], shape)
            results.append(a)
            tokens.append(tok)
            g.by_id[tok.id] = (j, r)
        g.nodes.append(
            _Node(
                key,
                emit,
                in_dtypes,
                refs,
                shapes,
                tokens,
                types,
                _ext.lazy_location(),
            )
        )
        g.parts.append((key, tuple(refs)))
        _stats["recorded"] += 1
        if len(g.nodes) >= _MAX_OPS:
            del _graphs[qid]
            _submit(g, "the graph reached SLUICE_LAZY_MAX_OPS operations")
            _ext.lazy_pending(bool(_graphs))
        return results


def _adopt_tape():
    """Makes the operations the fast path's tape recorded a pending graph
    here (with the same results, arguments and structure)."""
    taken = _ext.lazy_tape_take()
    if taken is None:
        return
    with _lock:
        _adopt(*taken)


def _adopt(ops, args):
    first = ops[0][0]
    qid, kind = first[5], first[6]
    g = _Graph(qid, kind)
    g.args = list(args)
    g.sigs = [None] * len(args)
    for template, refs, _, _ in ops:
        for ref, sig in zip(refs, template[7]):
            if ref.__class__ is int:
                g.sigs[ref] = sig
    for i, (x, s) in enumerate(zip(g.args, g.sigs)):
        if s[0] != "S":
            g.arg_index[id(x)] = i
            _ext.lazy_mark_read(x, 1)
    for j, (template, refs, tokens, where) in enumerate(ops):
        key, emit, in_dtypes, shapes, types = template[:5]
        g.nodes.append(
            _Node(key, emit, in_dtypes, refs, shapes, tokens, types, where)
        )
        g.parts.append((key, tuple(refs)))
        for r, tok in enumerate(tokens):
            g.by_id[tok.id] = (j, r)
    if qid in _graphs:  # (another thread's graph: this one runs now)
        _submit(g, "graphs of two threads met")
        return
    _graphs[qid] = g
    _ext.lazy_pending(True)


def flush_all(reason="a value was needed", wanted=0):
    """Submits pending graphs (the extension's hook). ``wanted``: the lazy
    id of the one result that is needed; then only the operations it
    depends on run, and the other pending results stay recorded (they are
    computed when needed, or never if they die first). Otherwise every
    result still referenced is computed."""
    _ext.lazy_tape_flush(reason)  # (before _lock: see _record)
    with _lock:
        if not _graphs:
            _ext.lazy_pending(False)
            return
        if wanted:
            for qid, g in list(_graphs.items()):
                hit = g.by_id.get(wanted)
                if hit is not None:
                    del _graphs[qid]
                    rest = _submit_part(g, hit, reason)
                    if rest is not None:
                        _graphs[qid] = rest
                    _ext.lazy_pending(bool(_graphs))
                    return
        graphs = list(_graphs.values())
        _graphs.clear()
        # "Pending" stays set until the graphs are submitted: another
        # thread that needs one of their results meanwhile calls this hook
        # and waits for _lock, instead of finding nothing pending and its
        # result not yet submitted.
        try:
            for g in graphs:
                _submit(g, reason)
        finally:
            _ext.lazy_pending(bool(_graphs))


def _cone(g, starts):
    """Which nodes the nodes ``starts`` depend on (themselves included)."""
    need = [False] * len(g.nodes)
    for j in starts:
        need[j] = True
    for j in range(len(g.nodes) - 1, -1, -1):
        if need[j]:
            for ref in g.nodes[j].refs:
                if ref.__class__ is tuple:
                    need[ref[0]] = True
    return need


def _submit_part(g, wanted, reason):
    """Runs what result ``wanted`` = (node, result) needs and returns the
    graph of what stays pending (or None)."""
    _boundaries[reason] += 1
    need = _cone(g, [wanted[0]])
    # Results: every live result of the wanted node, and live results of
    # the cone computed once before without being kept (a value read a
    # second time is kept rather than computed a third time).
    live = []
    for j, n in enumerate(g.nodes):
        if need[j] and (j == wanted[0] or n.computed):
            live.extend((j, r) for r, tok in enumerate(n.tokens) if tok.live)
    if wanted not in live:
        live.append(wanted)
    try:
        _run(g, live)
        for j, n in enumerate(g.nodes):
            if need[j]:
                n.computed += 1
    except Exception as e:  # the results' readers get the failure
        _fail(g, live, e)
    rest = _remaining(g)
    for x, s in zip(g.args, g.sigs):
        if s[0] != "S":
            _ext.lazy_mark_read(x, -1)
    return rest


def _fail(g, live, e):
    """Fails results ``live`` with exception ``e``, each naming the source
    line that recorded it; the queue's next wait reports it too."""
    message = f"{type(e).__name__}: {e}"
    oom = isinstance(e, MemoryError)
    for j, r in live:
        n = g.nodes[j]
        n.tokens[r].fail(message + _ext.lazy_location_text([n.where]), oom)


def _remaining(g):
    """A graph of the nodes whose results are still pending and referenced,
    with what they need; submitted results become its arguments."""
    nodes = g.nodes
    keep = [any(tok.live and tok.pending for tok in n.tokens) for n in nodes]
    if not any(keep):
        return None
    for j in range(len(nodes) - 1, -1, -1):
        if keep[j]:
            for ref in nodes[j].refs:
                if (
                    ref.__class__ is tuple
                    and nodes[ref[0]].tokens[ref[1]].pending
                ):
                    keep[ref[0]] = True
    h = _Graph(g.qid, g.kind)
    new_index = {}
    for j, n in enumerate(nodes):
        if not keep[j]:
            continue
        refs = []
        for ref in n.refs:
            if ref.__class__ is tuple:
                src = nodes[ref[0]]
                tok = src.tokens[ref[1]]
                if tok.pending:
                    refs.append((new_index[ref[0]], ref[1]))
                    continue
                t = src.types[ref[1]]
                x = tok.array(t[1], list(src.shapes[ref[1]]))
                sig = ("A", t[2], _ir.generic_shape(src.shapes[ref[1]]), t[0])
            else:
                x, sig = g.args[ref], g.sigs[ref]
            if sig[0] != "S":
                i = h.arg_index.get(id(x))
                if i is None:
                    i = len(h.args)
                    h.args.append(x)
                    h.sigs.append(sig)
                    h.arg_index[id(x)] = i
                    _ext.lazy_mark_read(x, 1)
            else:
                i = len(h.args)
                h.args.append(x)
                h.sigs.append(sig)
            refs.append(i)
        new_index[j] = len(h.nodes)
        n.refs = refs
        h.nodes.append(n)
        h.parts.append((n.key, tuple(refs)))
        for r, tok in enumerate(n.tokens):
            h.by_id[tok.id] = (new_index[j], r)
    return h


def _submit(g, reason):
    _boundaries[reason] += 1
    live = [
        (j, r)
        for j, n in enumerate(g.nodes)
        for r, tok in enumerate(n.tokens)
        if tok.live
    ]
    try:
        if live:
            _run(g, live)
        else:
            _stats["graphs without a live result"] += 1
    except Exception as e:  # the results' readers get the failure
        _fail(g, live, e)
    finally:
        for x, s in zip(g.args, g.sigs):
            if s[0] != "S":
                _ext.lazy_mark_read(x, -1)


def _run(g, live):
    """Submits the operations results ``live`` = [(node, result)] need, as
    one program (compiled once per structure)."""
    nodes = g.nodes
    need = _cone(g, [j for j, _ in live])
    if all(need):
        # Every operation contributes (the usual case): the graph as
        # recorded is the program.
        used_args = range(len(g.args))
        arg_map = {i: i for i in used_args}
        parts, outs = g.parts, live
    else:
        node_map, arg_map, used_args, parts = {}, {}, [], []
        for j, n in enumerate(nodes):
            if not need[j]:
                continue
            node_map[j] = len(node_map)
            refs = []
            for ref in n.refs:
                if ref.__class__ is tuple:
                    refs.append((node_map[ref[0]], ref[1]))
                else:
                    a = arg_map.get(ref)
                    if a is None:
                        a = arg_map[ref] = len(used_args)
                        used_args.append(ref)
                    refs.append(a)
            parts.append((n.key, tuple(refs)))
        outs = [(node_map[j], r) for j, r in live]
    key = (
        g.qid,
        g.kind,
        tuple(parts),
        tuple(outs),
        tuple(g.sigs[i] for i in used_args),
    )
    program = _programs.get(key)
    if program is None:
        program = _compile(g, nodes, need, used_args, arg_map, live)
        _programs[key] = program
        while len(_programs) > _MAX_PROGRAMS:
            _programs.popitem(last=False)
        _stats["programs compiled"] += 1
    else:
        _programs.move_to_end(key)
        _stats["programs reused"] += 1
    _stats["graphs submitted"] += 1
    _stats["operations submitted"] += len(parts)
    program(
        [g.args[i] for i in used_args],
        [nodes[j].shapes[r] for j, r in live],
        [nodes[j].tokens[r] for j, r in live],
        [n.where for j, n in enumerate(nodes) if need[j]],
    )


def _compile(g, nodes, need, used_args, arg_map, live):
    fb = _ir.FunctionBuilder("main")
    # (each node converts its operands itself: no conversion here)
    argv = [_arg_value(fb, g.sigs[i], None, g.qid, g.kind) for i in used_args]
    values = {}
    for j, n in enumerate(nodes):
        if not need[j]:
            continue
        vals = []
        for ref, dt in zip(n.refs, n.in_dtypes):
            if ref.__class__ is tuple:
                v = values[ref]
            else:
                v = argv[arg_map[ref]]
            if dt is not None:
                v = _ir.convert_operand(fb, v, dt, g.qid, g.kind)
            vals.append(v)
        for r, v in enumerate(n.emit(fb, vals)):
            values[(j, r)] = v
    fb.ret([values[jr] for jr in live])
    program = _compiler.compile_function(fb, name="sluice.lazy")
    _fused.append([_op_name(n.key) for j, n in enumerate(nodes) if need[j]])
    return program


def report():
    """What lazy execution did so far: operations recorded and submitted,
    graphs, programs compiled and reused, and why graphs were submitted."""
    with _lock:
        pending = sum(len(g.nodes) for g in _graphs.values())
        counts = {
            k: 0
            for k in (
                "recorded",
                "graphs submitted",
                "operations submitted",
                "programs compiled",
                "programs reused",
                "graphs without a live result",
                "small operations recorded",
                "small graphs run eagerly",
            )
        }
        counts.update(_stats)
        # What the fast path's tape (in C++) recorded and submitted.
        tape = _ext.lazy_tape_stats()
        boundaries = collections.Counter(_boundaries)
        boundaries.update(tape.pop("boundaries"))
        pending += tape.pop("pending_operations")
        cached = len(_programs) + tape.pop("cached_programs")
        for k, v in tape.items():
            counts[k] = counts.get(k, 0) + v
        return {
            "enabled": _enabled,
            "max_ops": _MAX_OPS,
            "pending_operations": pending,
            **counts,
            "cached_programs": cached,
            "fused": [list(f) for f in _fused],
            "boundaries": dict(boundaries),
        }


def forget():
    """Forgets what lazy execution learnt so far (tests start afresh with
    it): submits what is pending, then drops the compiled programs of
    graphs, which small operations repeat and the structures seen, and the
    fast path's entries (the operations seen before, with their
    templates), so that what runs next behaves as in a fresh process."""
    flush_all("what lazy execution learnt was forgotten")
    with _lock:
        _ext.lazy_tape_forget()
        _programs.clear()
        _result_types.clear()
        _fused.clear()
        _ext.fast_clear()


def reset_report():
    with _lock:
        _stats.clear()
        _boundaries.clear()
        _fused.clear()
        _ext.lazy_tape_reset_stats()


_ext.lazy_set_hook(flush_all)
# Frames in the package are not the user's source line (lazy_location).
_ext.lazy_set_package_dir(os.path.dirname(os.path.abspath(__file__)) + os.sep)
_ext.lazy_tape_set_compiler(compile_tape)
_tape_limits()
_ext.fast_set_lazy_recorder(record_fast)
_ext.fast_lazy(_enabled)
