"""Ahead-of-time compiled programs: ``sluice.load``.

An artifact is a shared object written by ``sluice-compile`` or by
``Lowered.save``: host code, kernels and device binaries of one or more
entry points, each with its signature (argument and result types with
their placements). Loading one needs no compiler: a build of the package
without it (``SLUICE_ENABLE_COMPILER=OFF``) runs artifacts compiled
elsewhere.

A loaded entry point is a LoadedProgram. Calling it checks the arguments
against the signature and runs the program on the queues it names, like a
``@sluice.jit`` function that is never traced again.
"""

import collections
import errno
import os
import re
import shutil
import stat
import tempfile
import threading

import numpy as np

from . import _dtypes
from . import _sluice as _ext
from ._array import Array, _from_host
from ._device import _queue_from_id
from ._errors import (
    PLACEMENT_MESSAGE,
    ArtifactError,
    DeviceNotFoundError,
    ExecutionPlacementError,
)
from ._placement import USM_KINDS, USM_NAMES

ProgramValue = collections.namedtuple(
    "ProgramValue", ["dtype", "shape", "queue", "usm_type"]
)
ProgramValue.__doc__ = """An argument or result of a LoadedProgram: its
NumPy dtype; for arrays the shape (None for a dynamic size), the
sluice.Queue and the USM kind ("device", "shared", "host"); for scalars
shape, queue and usm_type are None."""


def _shape_text(shape):
    return (
        "("
        + ", ".join("?" if d is None else str(d) for d in shape)
        + (",)" if len(shape) == 1 else ")")
    )


def _value_text(v):
    if v.shape is None:
        return f"a scalar of dtype {v.dtype}"
    return (
        f"an array of dtype {v.dtype} and shape {_shape_text(v.shape)} "
        f"on {v.queue!r} ({v.usm_type})"
    )


class LoadedProgram:
    """One entry point of an artifact, callable on sluice arrays.

    ``program(*args)`` takes one value per argument of the signature:
    sluice arrays of the argument's dtype, shape (any size where it is
    dynamic), queue and USM kind; NumPy arrays of its dtype and shape (copied
    to its queue first); Python or NumPy numbers for scalar arguments. It
    returns the program's result: one array, or a tuple of them for several
    results (scalar results are Python numbers). Calls are asynchronous like
    every operation, except for programs that return scalars or arrays of
    dynamic shape: those wait until the program has run.

    Attributes: ``name`` (the entry point), ``signature`` (its text, as
    ``sluice-ls`` and ``sluice-run`` print it), ``path`` (the artifact),
    ``compiler_version``, ``args`` and ``results`` (ProgramValue tuples).
    """

    __slots__ = (
        "name",
        "signature",
        "path",
        "compiler_version",
        "args",
        "results",
        "_program",
        "_convert",
        "_single",
        "_count",
    )

    def __init__(self, path, version, entry):
        name, text, address, args, results = entry
        self.name = name
        self.signature = text
        self.path = path
        self.compiler_version = version
        if not any(v[0] for v in list(args) + list(results)):
            raise ArtifactError(
                f"'{path}': entry point @{name} ({text}) takes and returns no "
                "arrays; sluice runs programs on the queues of their arrays"
            )
        specs = {}
        self.args = tuple(self._value(v, path, name, specs) for v in args)
        self.results = tuple(
            self._value(v, path, name, specs) for v in results
        )
        self._program = _ext.Program(
            address,
            [specs[id(v)] for v in self.args],
            [specs[id(v)] for v in self.results],
            name,
        )
        # Arguments that may need converting before the call (NumPy arrays
        # are copied in, NumPy scalars become Python numbers): all of them.
        self._convert = tuple(range(len(self.args)))
        self._count = len(results)
        self._single = len(results) == 1

    @staticmethod
    def _value(v, path, name, specs):
        is_array, code, shape, device, queue_name, kind = v
        dtype = _dtypes.DTYPES[code]
        if not is_array:
            value = ProgramValue(dtype, None, None, None)
            specs[id(value)] = (False, code, [], 0, 0)
            return value
        if kind not in USM_NAMES:
            raise ArtifactError(
                f"'{path}': entry point @{name} has an "
                f"array of unknown USM kind {kind}"
            )
        try:
            qid = _ext.get_queue(device, queue_name)
        except DeviceNotFoundError as e:
            raise DeviceNotFoundError(
                f"'{path}': entry point @{name} runs on device {device}, "
                f"which this machine does not have ({e})"
            ) from None
        value = ProgramValue(
            dtype,
            tuple(None if d < 0 else d for d in shape),
            _queue_from_id(qid),
            USM_NAMES[kind],
        )
        specs[id(value)] = (True, code, list(shape), qid, kind)
        return value

    def __call__(self, *args):
        if len(args) != len(self.args):
            raise TypeError(
                f"{self.name} takes {len(self.args)} arguments "
                f"({self.signature}), {len(args)} were given"
            )
        leaves = list(args)
        for i in self._convert:
            a = leaves[i]
            t = type(a)
            if t is Array or t is float or t is int or t is bool:
                continue
            spec = self.args[i]
            if spec.shape is None:
                if isinstance(a, np.generic):
                    leaves[i] = a.item()
            elif isinstance(a, (np.ndarray, np.generic)):
                a = np.asarray(a)
                self._check_array(i, a, spec)
                leaves[i] = _from_host(
                    a, spec.queue._id, USM_KINDS[spec.usm_type]
                )
        try:
            results = self._program(leaves)
        except (TypeError, ValueError):
            self._diagnose(leaves)  # a precise error, if it finds one
            raise
        if self._single:
            return results[0]
        return tuple(results) if self._count else None

    def _check_array(self, i, a, spec):
        """TypeError unless array `a` (sluice or NumPy) has the dtype and
        shape of argument `i`."""
        shape = tuple(a.shape)
        if (
            a.dtype != spec.dtype
            or len(shape) != len(spec.shape)
            or any(
                want is not None and want != got
                for want, got in zip(spec.shape, shape)
            )
        ):
            raise TypeError(
                f"{self.name}: argument {i} has dtype {a.dtype} and shape "
                f"{_shape_text(shape)}; the program takes "
                f"{_value_text(spec)}"
            )

    def _diagnose(self, leaves):
        for i, (a, spec) in enumerate(zip(leaves, self.args)):
            if spec.shape is None:
                if isinstance(a, int) or (
                    isinstance(a, float) and spec.dtype.kind in "fb"
                ):
                    continue
                what = (
                    f"the float {a!r}"
                    if isinstance(a, float)
                    else f"of type {type(a).__name__}"
                )
                raise TypeError(
                    f"{self.name}: argument {i} is {what}; the program "
                    f"takes {_value_text(spec)}"
                )
            if not isinstance(a, Array):
                raise TypeError(
                    f"{self.name}: argument {i} is of type "
                    f"{type(a).__name__}; the program takes "
                    f"{_value_text(spec)} (a sluice.Array or a NumPy array)"
                )
            self._check_array(i, a, spec)
            if (
                a._queue_id != spec.queue._id
                or a._usm_kind != USM_KINDS[spec.usm_type]
            ):
                raise ExecutionPlacementError(
                    f"{PLACEMENT_MESSAGE} {self.name}: argument {i} is on "
                    f"{a.sycl_queue!r} ({a.usm_type}); the program was "
                    f"compiled for {spec.queue!r} ({spec.usm_type}): move it "
                    "with to_device / asarray(..., usm_type=...)"
                )

    def __repr__(self):
        return f"<sluice.LoadedProgram {self.signature} from '{self.path}'>"


class _Artifact:
    """A loaded artifact: its entry points and the programs made of them."""

    def __init__(self, path, key, info):
        self.path = path
        self.key = key
        self.version = info["version"]
        self.entries = {e[0]: e for e in info["entries"]}
        self.order = [e[0] for e in info["entries"]]
        self.programs = {}

    def _names(self):
        return ", ".join("@" + n for n in self.order) or "none"

    def find(self, name):
        if name is not None:
            if name not in self.entries:
                raise ArtifactError(
                    f"'{self.path}' has no entry point @{name} (it has "
                    f"{self._names()})"
                )
            return name
        if "main" in self.entries:
            return "main"
        if len(self.order) == 1:
            return self.order[0]
        if not self.order:
            raise ArtifactError(f"'{self.path}' has no entry points")
        raise ArtifactError(
            f"'{self.path}' has several entry points ({self._names()}): "
            "name the one to run, sluice.load(path, name=...)"
        )

    def program(self, name):
        name = self.find(name)
        p = self.programs.get(name)
        if p is None:
            p = LoadedProgram(self.path, self.version, self.entries[name])
            self.programs[name] = p
        return p


_lock = threading.Lock()
_artifacts = {}  # real path -> _Artifact


def _open(path, real, replaced):
    """Loads the artifact at `real`. A file that replaced one loaded
    earlier from the same path is loaded from a private copy: the dynamic
    loader hands out the first load again for a path it has seen."""
    load_from, copy = real, None
    if replaced:
        fd, copy = tempfile.mkstemp(prefix="sluice-artifact-", suffix=".so")
        os.close(fd)
        try:
            shutil.copyfile(real, copy)
        except OSError:
            os.unlink(copy)
            raise
        load_from = copy
    try:
        info = _ext.open_artifact(load_from)
    finally:
        if copy is not None:
            os.unlink(copy)  # the mapping stays
    if not info["ok"]:
        failure = info["failure"]
        if copy is not None:
            failure = failure.replace(copy, path)
        raise ArtifactError(failure)
    return info


def load(path, name=None):
    """The entry point ``name`` of the artifact at ``path``, as a
    LoadedProgram (see its documentation). ``name`` None picks ``main``,
    else the only entry point.

    Artifacts come from ``sluice-compile`` or ``Lowered.save``; loading one
    needs no compiler. The artifact is loaded once per process (loading
    the path again reuses it, unless the file has changed). Raises
    FileNotFoundError for a missing file, ArtifactError for a file that is
    not an artifact or has no such entry point, and DeviceNotFoundError
    when the entry point runs on a device this machine does not have.
    """
    path = os.fspath(path)
    if not isinstance(path, str):
        path = os.fsdecode(path)
    if name is not None and not isinstance(name, str):
        raise TypeError(
            f"the entry point name must be a string, not {type(name).__name__}"
        )
    real = os.path.realpath(path)
    st = os.stat(real)  # FileNotFoundError, PermissionError
    if stat.S_ISDIR(st.st_mode):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), path)
    key = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)
    with _lock:
        art = _artifacts.get(real)
        if art is None or art.key != key:
            info = _open(path, real, replaced=art is not None)
            art = _artifacts[real] = _Artifact(path, key, info)
        return art.program(name)


_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def entry_name(name, explicit):
    """The entry point name for a function called `name`: as it is when it
    is an identifier; otherwise ValueError for a name the user gave and a
    cleaned-up one for a function's name ("<lambda>" -> "_lambda_")."""
    if _NAME.match(name):
        return name
    if explicit:
        raise ValueError(
            f"entry point name {name!r} is not an identifier "
            "(letters, digits and _, not starting with a "
            "digit)"
        )
    cleaned = re.sub(
        r"[^A-Za-z0-9_]", "_", name.encode("ascii", "replace").decode()
    )
    return cleaned if _NAME.match(cleaned) else "_" + cleaned
