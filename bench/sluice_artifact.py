"""Runs Sluice artifacts (`sluice-compile -o prog.so`) from Python through
ctypes, with no compiler at hand: the runtime's C API (libsluice-runtime.so)
allocates the inputs on the queues the entry signature names, and the
artifact's `_sluice_entry_<f>(void **args)` entry points run the program.

This is the calling convention of lib/Execution/Invoker.cpp: args[i] points
to the i-th slot of the function's LLVM signature (an array of rank R takes
3 + 2R slots: allocated pointer, aligned pointer, offset, sizes, strides; a
scalar one slot), and a last pointer names storage for the results (the LLVM
struct of the results, natural alignment). The entry returns 0 or the first
failure's SluiceStatus after all of the call's work finished.

    rt = Runtime("build/lib/libsluice-runtime.so")
    prog = Artifact(rt, "axpy.so")
    call = prog.prepare("axpy", [a, b, c, d])   # inputs copied to the device
    outs = call.run()                           # numpy results
    call.close()

Used by bench/gpu.py and bench/gpu_check.py on the GPU machine, where
neither MLIR nor the Sluice tools exist.
"""

import ctypes
import os
import re

import numpy as np

SLUICE_SUCCESS = 0
USM_KINDS = {1: "device", 2: "shared", 3: "host"}
DTYPES = {
    "i1": np.bool_,
    "i8": np.int8,
    "i16": np.int16,
    "i32": np.int32,
    "i64": np.int64,
    "ui8": np.uint8,
    "ui16": np.uint16,
    "ui32": np.uint32,
    "ui64": np.uint64,
    "f16": np.float16,
    "f32": np.float32,
    "f64": np.float64,
    "complex<f32>": np.complex64,
    "complex<f64>": np.complex128,
}

c_void_pp = ctypes.POINTER(ctypes.c_void_p)


class SluiceError(RuntimeError):
    pass


class Runtime:
    """The C API of libsluice-runtime.so."""

    def __init__(self, path):
        # RTLD_GLOBAL: artifacts resolve their runtime calls against it.
        self.lib = ctypes.CDLL(os.path.abspath(path), mode=ctypes.RTLD_GLOBAL)
        L = self.lib
        sigs = {
            "sluiceGetLastErrorMessage": (ctypes.c_char_p, []),
            "sluiceDeviceSelect": (ctypes.c_int, [ctypes.c_char_p, c_void_pp]),
            "sluiceBackendGetStatus": (
                ctypes.c_int,
                [
                    ctypes.c_int,
                    ctypes.POINTER(ctypes.c_int),
                    ctypes.POINTER(ctypes.c_uint32),
                    ctypes.POINTER(ctypes.c_char_p),
                ],
            ),
            "sluiceDeviceGetPropertyCount": (
                ctypes.c_int,
                [ctypes.c_void_p, ctypes.POINTER(ctypes.c_uint32)],
            ),
            "sluiceDeviceGetProperty": (
                ctypes.c_int,
                [
                    ctypes.c_void_p,
                    ctypes.c_uint32,
                    ctypes.POINTER(ctypes.c_char_p),
                    ctypes.POINTER(ctypes.c_char_p),
                ],
            ),
            "sluiceProgramBegin": (None, []),
            "sluiceProgramSetAsynchronous": (None, [ctypes.c_int]),
            "sluiceProgramEnd": (ctypes.c_int32, []),
            "sluiceProgramQueue": (
                ctypes.c_void_p,
                [ctypes.c_char_p, ctypes.c_char_p],
            ),
            "sluiceMalloc": (
                ctypes.c_int,
                [
                    ctypes.c_void_p,
                    ctypes.c_int,
                    ctypes.c_size_t,
                    ctypes.c_size_t,
                    c_void_pp,
                ],
            ),
            "sluiceFree": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_void_p]),
            "sluiceMemcpy": (
                ctypes.c_int,
                [
                    ctypes.c_void_p,
                    ctypes.c_void_p,
                    ctypes.c_void_p,
                    ctypes.c_size_t,
                    ctypes.c_uint32,
                    c_void_pp,
                    c_void_pp,
                ],
            ),
            "sluiceQueueWait": (ctypes.c_int, [ctypes.c_void_p]),
            "sluiceQueueGetLastEvent": (
                ctypes.c_int,
                [ctypes.c_void_p, c_void_pp],
            ),
            "sluiceEventWait": (ctypes.c_int, [ctypes.c_void_p]),
            "sluiceEventRelease": (ctypes.c_int, [ctypes.c_void_p]),
            "sluiceEventGetProfilingInfo": (
                ctypes.c_int,
                [
                    ctypes.c_void_p,
                    ctypes.POINTER(ctypes.c_uint64),
                    ctypes.POINTER(ctypes.c_uint64),
                    ctypes.POINTER(ctypes.c_uint64),
                ],
            ),
            "sluicePointerGetInfo": (
                ctypes.c_int,
                [
                    ctypes.c_void_p,
                    ctypes.POINTER(ctypes.c_int),
                    c_void_pp,
                    c_void_pp,
                    c_void_pp,
                    ctypes.POINTER(ctypes.c_size_t),
                ],
            ),
        }
        for name, (res, args) in sigs.items():
            fn = getattr(L, name)
            fn.restype = res
            fn.argtypes = args
        self.queues = {}

    def error(self):
        m = self.lib.sluiceGetLastErrorMessage()
        return m.decode() if m else ""

    def check(self, status, what):
        if status != SLUICE_SUCCESS:
            raise SluiceError(f"{what}: status {status}: {self.error()}")

    def backend_status(self, backend):
        built, n, note = ctypes.c_int(), ctypes.c_uint32(), ctypes.c_char_p()
        self.check(
            self.lib.sluiceBackendGetStatus(
                backend,
                ctypes.byref(built),
                ctypes.byref(n),
                ctypes.byref(note),
            ),
            "sluiceBackendGetStatus",
        )
        return bool(built.value), n.value, (note.value or b"").decode()

    def device_properties(self, selector):
        dev = ctypes.c_void_p()
        self.check(
            self.lib.sluiceDeviceSelect(selector.encode(), ctypes.byref(dev)),
            f"selecting {selector}",
        )
        count = ctypes.c_uint32()
        self.lib.sluiceDeviceGetPropertyCount(dev, ctypes.byref(count))
        props = {}
        for i in range(count.value):
            k, v = ctypes.c_char_p(), ctypes.c_char_p()
            self.lib.sluiceDeviceGetProperty(
                dev, i, ctypes.byref(k), ctypes.byref(v)
            )
            props[k.value.decode()] = v.value.decode()
        return props

    def queue(self, device, name=""):
        key = (device, name)
        if key not in self.queues:
            self.lib.sluiceProgramBegin()
            q = self.lib.sluiceProgramQueue(device.encode(), name.encode())
            status = self.lib.sluiceProgramEnd()
            if not q or status:
                raise SluiceError(f"no queue for {device}: {self.error()}")
            self.queues[key] = q
        return self.queues[key]

    def malloc(self, queue, kind, nbytes):
        p = ctypes.c_void_p()
        self.check(
            self.lib.sluiceMalloc(
                queue, kind, max(nbytes, 1), 64, ctypes.byref(p)
            ),
            "sluiceMalloc",
        )
        return p.value

    def free(self, ptr):
        q = ctypes.c_void_p()
        self.lib.sluicePointerGetInfo(
            ptr, None, None, ctypes.byref(q), None, None
        )
        if q.value:
            self.check(self.lib.sluiceFree(q, ptr), "sluiceFree")

    def copy(self, queue, dst, src, nbytes):
        ev = ctypes.c_void_p()
        self.check(
            self.lib.sluiceMemcpy(
                queue, dst, src, nbytes, 0, None, ctypes.byref(ev)
            ),
            "sluiceMemcpy",
        )
        status = self.lib.sluiceEventWait(ev)
        self.lib.sluiceEventRelease(ev)
        self.check(status, "copy")

    def queue_of(self, ptr):
        q = ctypes.c_void_p()
        self.lib.sluicePointerGetInfo(
            ptr, None, None, ctypes.byref(q), None, None
        )
        return q.value

    def marker(self, queue):
        """An event that completes once the queue's earlier work has (a
        zero-byte copy): its end time starts a timed region."""
        ev = ctypes.c_void_p()
        self.check(
            self.lib.sluiceMemcpy(
                queue, None, None, 0, 0, None, ctypes.byref(ev)
            ),
            "marker",
        )
        return ev.value

    def last_event(self, queue):
        ev = ctypes.c_void_p()
        self.check(
            self.lib.sluiceQueueGetLastEvent(queue, ctypes.byref(ev)),
            "sluiceQueueGetLastEvent",
        )
        return ev.value

    def end_ns(self, event):
        """Profiling end time of a finished event (waits for it)."""
        self.check(self.lib.sluiceEventWait(event), "sluiceEventWait")
        end = ctypes.c_uint64()
        self.check(
            self.lib.sluiceEventGetProfilingInfo(
                event, None, None, ctypes.byref(end)
            ),
            "profiling",
        )
        return end.value

    def release(self, event):
        if event:
            self.lib.sluiceEventRelease(event)


class Value:
    """One argument or result of an entry signature."""

    def __init__(self, text):
        self.is_array = "@" in text
        type_part, _, place = text.partition("@")
        # sizes ("4x?x") then the element type (which may hold an "x":
        # complex<f32>)
        dims = re.match(r"((?:(?:\d+|\?)x)*)(.*)$", type_part)
        sizes = [d for d in dims.group(1).split("x") if d]
        self.shape = [(-1 if d == "?" else int(d)) for d in sizes]
        self.dtype = np.dtype(DTYPES[dims.group(2)])
        self.device = self.queue_name = ""
        self.kind = 1
        if self.is_array:
            place, _, kind = place.rpartition("/")
            self.kind = int(kind)
            if place.endswith(")") and "(" in place:
                place, _, name = place[:-1].partition("(")
                self.queue_name = name
            self.device = place

    @property
    def slots(self):
        return 3 + 2 * len(self.shape) if self.is_array else 1

    def layout(self):
        """(size, alignment) in the results struct."""
        if self.is_array:
            return 8 * self.slots, 8
        return self.dtype.itemsize, self.dtype.itemsize


def split_list(text):
    items, depth, start = [], 0, 0
    for i, ch in enumerate(text + ","):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "," and depth == 0:
            if text[start:i]:
                items.append(text[start:i])
            start = i + 1
    return items


class Signature:
    def __init__(self, line):
        open_ = line.index("(")
        arrow = line.rindex(")->(")
        self.name = line[:open_]
        self.args = [Value(t) for t in split_list(line[open_ + 1 : arrow])]
        self.results = [Value(t) for t in split_list(line[arrow + 4 : -1])]


class Artifact:
    def __init__(self, runtime, path):
        self.rt = runtime
        self.path = path
        self.lib = ctypes.CDLL(os.path.abspath(path))
        # A NUL-terminated char array, one signature per line.
        first = ctypes.c_char.in_dll(self.lib, "sluice_signatures")
        text = ctypes.string_at(ctypes.addressof(first))
        self.signatures = {}
        for line in text.decode().splitlines():
            if line:
                sig = Signature(line)
                self.signatures[sig.name] = sig

    def entry_name(self, name=None):
        if name:
            return name
        if "main" in self.signatures:
            return "main"
        if len(self.signatures) == 1:
            return next(iter(self.signatures))
        raise SluiceError(
            f"{self.path}: name the entry to run "
            f"({', '.join(self.signatures)})"
        )

    def prepare(self, name, inputs, misalign=False):
        return Call(self, self.entry_name(name), inputs, misalign)


class Call:
    """One entry point with its inputs copied to their queues, ready to run
    any number of times."""

    def __init__(self, artifact, name, inputs, misalign=False):
        """`misalign`: place every array argument one element past a
        16-byte boundary (to exercise kernels' unaligned paths)."""
        rt = artifact.rt
        self.rt = rt
        self.sig = sig = artifact.signatures[name]
        fn = getattr(artifact.lib, "_sluice_entry_" + name)
        fn.restype = ctypes.c_int32
        fn.argtypes = [c_void_pp]
        self.fn = fn
        if len(inputs) != len(sig.args):
            raise SluiceError(
                f"@{name} takes {len(sig.args)} arguments, {len(inputs)} given"
            )
        self.buffers = []
        self.data = []  # the array arguments' data pointers
        self.queues = []
        slots = []
        for i, (v, x) in enumerate(zip(sig.args, inputs)):
            x = np.asarray(x)
            if not v.is_array:
                slot = np.zeros(1, dtype=np.uint64)
                slot.view(np.uint8)[: v.dtype.itemsize] = np.frombuffer(
                    np.asarray(x, dtype=v.dtype).tobytes(), dtype=np.uint8
                )
                slots.append(int(slot[0]))
                continue
            # np.ascontiguousarray would make a 0-d array 1-d.
            x = np.array(x, dtype=v.dtype, order="C", copy=True)
            if len(x.shape) != len(v.shape) or any(
                d >= 0 and d != s for d, s in zip(v.shape, x.shape)
            ):
                raise SluiceError(
                    f"input {i}: expected shape {v.shape}, got {x.shape}"
                )
            q = rt.queue(v.device, v.queue_name)
            shift = x.itemsize if misalign and x.itemsize < 16 else 0
            base = rt.malloc(q, v.kind, x.nbytes + shift)
            self.buffers.append(base)
            p = base + shift
            self.data.append(p)
            if x.nbytes:
                rt.copy(q, p, x.ctypes.data, x.nbytes)
            self.queues.append(q)
            strides, s = [], 1
            for d in reversed(x.shape):
                strides.insert(0, s)
                s *= d
            slots += [p, p, 0] + list(x.shape) + strides
        self.slots = (ctypes.c_uint64 * max(len(slots), 1))(
            *[ctypes.c_uint64(s & (2**64 - 1)).value for s in slots]
        )
        size = 0
        self.fields = []
        for r in sig.results:
            rsize, align = r.layout()
            size = (size + align - 1) // align * align
            self.fields.append(size)
            size += rsize
        self.results = ctypes.create_string_buffer(size + 8)
        argv = [
            ctypes.cast(ctypes.byref(self.slots, 8 * k), ctypes.c_void_p)
            for k in range(len(slots))
        ]
        if sig.results:
            argv.append(ctypes.cast(self.results, ctypes.c_void_p))
        self.argv = (ctypes.c_void_p * max(len(argv), 1))(*argv)
        # Results that are inputs (or views of them) are not the call's.
        self.inputs_set = set(self.buffers) | set(self.data)

    def queue(self):
        """The queue of the first array argument (or result)."""
        for v in self.sig.args + self.sig.results:
            if v.is_array:
                return self.rt.queue(v.device, v.queue_name)
        return None

    def call(self):
        """Runs the entry once; returns the status (0 = success)."""
        return self.fn(self.argv)

    def result_arrays(self):
        """(pointer to data, shape, dtype, allocation) per array result."""
        out = []
        raw = self.results.raw
        for r, off in zip(self.sig.results, self.fields):
            if not r.is_array:
                out.append((None, (), r.dtype, None))
                continue
            words = np.frombuffer(
                raw, dtype=np.uint64, count=r.slots, offset=off
            )
            shape = tuple(int(d) for d in words[3 : 3 + len(r.shape)])
            data = int(words[1]) + int(words[2]) * r.dtype.itemsize
            out.append((data, shape, r.dtype, int(words[0])))
        return out

    def free_results(self):
        seen = set()
        for _, _, _, alloc in self.result_arrays():
            if alloc and alloc not in self.inputs_set and alloc not in seen:
                seen.add(alloc)
                self.rt.free(alloc)

    def read_results(self):
        outs = []
        raw = self.results.raw
        for (data, shape, dtype, _), r, off in zip(
            self.result_arrays(), self.sig.results, self.fields
        ):
            if not r.is_array:
                outs.append(
                    np.frombuffer(raw, dtype=r.dtype, count=1, offset=off)
                    .reshape(())
                    .copy()
                )
                continue
            host = np.empty(shape, dtype=dtype)
            if host.nbytes:
                q = self.rt.queue_of(data)
                if q:
                    self.rt.copy(q, host.ctypes.data, data, host.nbytes)
                else:
                    ctypes.memmove(host.ctypes.data, data, host.nbytes)
            outs.append(host)
        return outs

    def run(self):
        """Calls the entry once and returns its results as NumPy arrays."""
        status = self.call()
        if status:
            raise SluiceError(
                f"@{self.sig.name} failed (status {status}): {self.rt.error()}"
            )
        try:
            return self.read_results()
        finally:
            self.free_results()

    def close(self):
        for p in self.buffers:
            self.rt.free(p)
        self.buffers = []
