"""Kernels inside ``@sluice.jit``: a traced function that launches kernels
is a sequence of steps, traced array programs and kernel launches, run in
order on the arrays' queue.

At ``call_kernel`` the trace closes its current program (a "segment"):
every array value that a live Tracer holds, and every kernel argument, is
given a slot; values the segment computed become its results. The kernel
launch is recorded with its arguments' slots, and a new segment starts
whose arguments are those slots, with every live Tracer rebound to them. A
kernel writes its arrays in place, as it does outside ``@jit``: a Tracer
passed to it sees the writes afterwards (its slot is the same buffer), the
caller's arrays passed to it are written, and no Tracer can still name the
values from before the launch. The segments compile separately, so the
launch is ordered with the array operations around it; fusion happens
within a segment.
"""

from . import _compiler, _ir, _trace
from ._array import Array, _from_host
from ._errors import TracerError


class _Steps:
    """The state a trace keeps once a kernel was launched in it."""

    def __init__(self, tr):
        self.nleaves = len(tr.arg_values)
        self.slot_of = {id(v): i for i, v in enumerate(tr.arg_values)}
        self.nslots = self.nleaves
        self.captured = []  # (slot, concrete array)
        self.capture_slot = {}  # id(array) -> slot
        self.steps = []  # ("prog", fb, in_slots, out_slots) | ("kernel", ...)
        self.keep = []  # the Values named in slot_of, kept alive

    def new_slot(self):
        self.nslots += 1
        return self.nslots - 1

    def capture(self, array):
        """The slot of an array from outside the function."""
        s = self.capture_slot.get(id(array))
        if s is None:
            s = self.new_slot()
            self.capture_slot[id(array)] = s
            self.captured.append((s, array))
        return s

    def adopt_captured(self, tr):
        """Slots for the arrays the current segment captured."""
        for array, value in tr.captured.values():
            if id(value) not in self.slot_of:
                self.slot_of[id(value)] = self.capture(array)
                self.keep.append(value)

    def close(self, tr, exports):
        """Ends the current segment, whose results are ``exports``
        ((Value, slot) pairs)."""
        self.adopt_captured(tr)
        fb = tr.fb
        if exports:
            fb.ret([v for v, _ in exports])
            in_slots = [self.slot_of[id(a)] for a in fb.args]
            self.steps.append(("prog", fb, in_slots, [s for _, s in exports]))


_SCALAR_ACROSS = (
    "a scalar computed inside @sluice.jit from traced scalars cannot be "
    "used across a kernel launch (the steps around a launch pass arrays); "
    "compute it after the launch, or mark the arguments it comes from "
    "static (static_argnums / static_argnames)"
)


class _Gone:
    """The value of a traced scalar computed before a kernel launch: using
    it after the launch raises TracerError."""

    def __getattr__(self, name):
        raise TracerError(_SCALAR_ACROSS)


def _steps(tr):
    st = getattr(tr, "kernel_steps", None)
    if st is None:
        st = tr.kernel_steps = _Steps(tr)
    return st


def _close(tr, args, kwargs=None):
    """Closes the current segment before a step that takes ``args`` (and
    ``kwargs``): the argument specs, ("slot", s) or ("const", value), and
    the live Tracers, each holding a slot."""
    st = _steps(tr)
    st.adopt_captured(tr)
    exports = []

    def slot_for(v):
        s = st.slot_of.get(id(v))
        if s is None:
            if not isinstance(v.type, _ir.ArrayT):
                raise TracerError(_SCALAR_ACROSS)
            s = st.new_slot()
            st.slot_of[id(v)] = s
            st.keep.append(v)
            exports.append((v, s))
        return s

    def spec(a):
        if isinstance(a, (_trace.Tracer, _trace.ScalarTracer)):
            if a._trace is not tr:
                raise TracerError("a traced value escaped its function")
            return ("slot", slot_for(a._v))
        if isinstance(a, Array):
            return ("slot", st.capture(a))
        return ("const", a)

    specs = [spec(a) for a in args]
    kwspecs = {k: spec(a) for k, a in (kwargs or {}).items()}
    live = []
    for t in list(tr.tracers.values()):
        if t._trace is not tr or isinstance(t._v, _Gone):
            continue
        if id(t._v) not in st.slot_of and not isinstance(
            t._v.type, _ir.ArrayT
        ):
            t._v = _Gone()  # a traced scalar the trace computed
            continue
        slot_for(t._v)
        live.append(t)
    st.close(tr, exports)
    return st, specs, kwspecs, live


def _open(tr, st, live, new_types=()):
    """Starts the next segment: one argument per slot a live Tracer holds,
    and one per type of ``new_types`` (the results of the step just
    recorded), returned as (slot, Value) pairs."""
    fb = _ir.FunctionBuilder(tr.fb.name)
    args_of = {}
    for t in live:
        s = st.slot_of[id(t._v)]
        v = args_of.get(s)
        if v is None:
            v = args_of[s] = fb.arg(t._v.type, None)
            st.slot_of[id(v)] = s
            st.keep.append(v)
        t._v = v
    news = []
    for ty in new_types:
        s = st.new_slot()
        v = fb.arg(ty, _trace.user_location())
        st.slot_of[id(v)] = s
        st.keep.append(v)
        news.append((s, v))
    tr.fb = fb
    tr.captured = {}
    return news


def launch(tr, kernel, index_space, args):
    """``call_kernel`` while ``tr`` traces: closes the segment, records the
    launch and starts the next segment."""
    st, specs, _, live = _close(tr, args)
    st.steps.append(("kernel", kernel, index_space, specs))
    _open(tr, st, live)


def call(tr, fn, args, kwargs, result_types):
    """A library function (a sort, a scan) called on traced arrays: a step
    that runs ``fn`` on the step's concrete arrays when the function is
    called, between the compiled programs before and after it. Its results
    (arrays of ``result_types``) are new Tracers of the next segment."""
    st, specs, kwspecs, live = _close(tr, args, kwargs)
    step = ["call", fn, specs, kwspecs, None, result_types]
    st.steps.append(step)
    news = _open(tr, st, live, result_types)
    step[4] = [s for s, _ in news]
    return [_trace.Tracer(v, tr) for _, v in news]


def finish(tr, out, values):
    """Ends the trace of a function that launched kernels: the last
    segment's results, and the template that builds the Python result from
    the slots (see _jit._build_output)."""
    st = tr.kernel_steps
    st.adopt_captured(tr)
    exports = []
    by_value = {}

    def ref(v):
        s = st.slot_of.get(id(v))
        if s is None:
            s = by_value.get(id(v))
            if s is None:
                s = by_value[id(v)] = st.new_slot()
                exports.append((v, s))
        return ("slot", s)

    def flatten(o):
        if isinstance(o, _trace.Tracer):
            if o._trace is not tr:
                raise TracerError("a traced value escaped its function")
            return ref(o._v)
        if isinstance(o, _trace.ScalarTracer):
            s = st.slot_of.get(id(o._v))
            if s is not None and s < st.nleaves:
                return ("slot", s)
            raise TracerError(
                "the function returns a traced scalar; return an array "
                "(sluice.asarray) or a value computed outside"
            )
        if type(o) in (tuple, list):
            return ("seq", type(o), [flatten(x) for x in o])
        if type(o) is dict:
            return ("dict", {k: flatten(x) for k, x in o.items()})
        return ("const", o)

    template = flatten(out)
    written = []
    for i, v in enumerate(values):
        if isinstance(v, _trace.Tracer):
            r = ref(v._v)
            if r[1] != i:
                written.append((i, r[1]))
    if written:
        template = ("wb", template, written)
    checks = getattr(tr, "index_checks", None)
    if checks:
        where = [
            (ref(lo._v)[1], ref(hi._v)[1], n, axis)
            for lo, hi, n, axis in checks
        ]
        template = ("chk", template, where)
    st.close(tr, exports)
    return template


class SegmentedEntry:
    """A compiled signature of a function that launches kernels: its
    steps, run in order."""

    def __init__(self, st, template, flags, name, numpy_leaves, numpy_queue):
        self.nslots = st.nslots
        self.captured = st.captured
        self.template = template
        self.numpy_leaves = numpy_leaves
        self.numpy_queue = numpy_queue
        self.steps = []
        for step in st.steps:
            if step[0] == "prog":
                _, fb, ins, outs = step
                program = _compiler.compile_function(fb, name, flags)
                self.steps.append(("prog", program, ins, outs))
            else:
                self.steps.append(step)

    def run(self, leaves):
        slots = [None] * self.nslots
        for i in self.numpy_leaves:
            leaves[i] = _from_host(
                leaves[i], self.numpy_queue[0], self.numpy_queue[1]
            )
        slots[: len(leaves)] = leaves
        for s, a in self.captured:
            slots[s] = a
        for step in self.steps:
            if step[0] == "prog":
                _, program, ins, outs = step
                results = program([slots[s] for s in ins])
                for s, r in zip(outs, results):
                    slots[s] = r
            elif step[0] == "call":
                _run_call(step, slots)
            else:
                _, kernel, index_space, specs = step
                kernel._launch(
                    index_space,
                    tuple(slots[x] if k == "slot" else x for k, x in specs),
                )
        return _output(self.template, slots)


def _run_call(step, slots):
    _, fn, specs, kwspecs, outs, types = step

    def value(spec):
        return slots[spec[1]] if spec[0] == "slot" else spec[1]

    r = fn(
        *[value(x) for x in specs],
        **{k: value(x) for k, x in kwspecs.items()},
    )
    results = tuple(r) if isinstance(r, tuple) else (r,)
    for s, ty, a in zip(outs, types, results, strict=True):
        shape_ok = len(a.shape) == len(ty.shape) and all(
            d is None or d == e for d, e in zip(ty.shape, a.shape)
        )
        if not (
            isinstance(a, Array)
            and shape_ok
            and a.dtype == ty.dtype
            and a._queue_id == ty.qid
        ):
            raise TracerError(
                f"sluice.{fn.__name__} inside @sluice.jit returned "
                f"{a!r}, where the trace expected an array of "
                f"{ty.text()} (a defect of Sluice: please report it)"
            )
        slots[s] = a


def check_indices(checks, results):
    """Raises NumPy's IndexError when a traced index array was out of
    range: ``checks`` holds, per index array, the positions of its
    minimum and maximum in ``results``, the axis's size and the axis.
    Reading them waits for the program (a synchronisation)."""
    for lo, hi, n, axis in checks:
        for v in (int(results[lo]), int(results[hi])):
            if not -n <= v < n:
                raise IndexError(
                    f"index {v} is out of bounds for axis {axis} with size {n}"
                )


def _output(t, slots):
    kind = t[0]
    if kind == "slot":
        return slots[t[1]]
    if kind == "const":
        return t[1]
    if kind == "seq":
        return t[1](_output(x, slots) for x in t[2])
    if kind == "dict":
        return {k: _output(x, slots) for k, x in t[1].items()}
    if kind == "chk":
        check_indices(t[2], slots)
        return _output(t[1], slots)
    if kind == "wb":
        for i, s in t[2]:
            if isinstance(slots[i], Array):
                slots[i][...] = slots[s]
        return _output(t[1], slots)
    raise AssertionError(kind)


class LoweredSteps:
    """``JitFunction.lower`` of a function that launches kernels."""

    def __init__(self, st, flags, name):
        self._st, self._flags, self._name = st, flags, name

    def as_text(self, stage="input"):
        """Each program at ``stage`` (see Lowered.as_text) and each kernel
        launch between them, in order."""
        return _lowered_text(self._st, stage, self._flags, self._name)

    def save(self, *args, **kwargs):
        raise ValueError(
            f"{self._name} launches kernels: a saved program holds one "
            "array program, so it cannot be saved"
        )


def _lowered_text(st, stage, flags, name):
    parts = []
    for step in st.steps:
        if step[0] == "prog":
            _, fb, ins, outs = step
            parts.append(f"// program: slots {ins} -> {outs}")
            if stage == "input":
                parts.append(fb.render(locations=False))
            else:
                parts.append(
                    _compiler.lower_text(
                        fb.render(locations=True), stage, flags, name
                    )
                )
        elif step[0] == "call":
            _, fn, specs, kwspecs, outs, _ = step
            args = [f"slot {x}" if k == "slot" else repr(x) for k, x in specs]
            args += [
                f"{n}=slot {x}" if k == "slot" else f"{n}={x!r}"
                for n, (k, x) in kwspecs.items()
            ]
            parts.append(
                f"// call sluice.{fn.__name__}({', '.join(args)}) -> "
                f"slots {outs}"
            )
        else:
            _, kernel, index_space, specs = step
            args = ", ".join(
                f"slot {x}" if k == "slot" else repr(x) for k, x in specs
            )
            parts.append(
                f"// kernel {kernel.__name__} over {index_space!r}: {args}"
            )
    return "\n".join(parts) + "\n"
