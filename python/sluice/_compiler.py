"""Compiling usm IR with the compiler C API, with an on-disk cache.

A program is keyed by its IR text (without source locations), the
compiler flags and ``sluiceCompilerGetVersionString()``. Compiled programs
are kept in memory for the process and, as artifacts (shared objects that
``sluiceExecutableLoad`` loads without the compiler), in
``$SLUICE_CACHE_DIR`` (default ``~/.cache/sluice``; ``SLUICE_CACHE_DIR=off``
disables it).
"""

import collections
import hashlib
import os
import re
import tempfile
import threading

from . import _sluice as _ext
from ._errors import CompileError, ExecutionPlacementError

# Stages of sluice-c/Compiler.h (SluiceCompileStage), named by the compiler
# (sluiceCompileStageName): name -> value, in order. Empty in a build
# without the compiler, where nothing compiles.
STAGES = dict(_ext.compile_stages())

DEFAULT_FLAGS = ("--device=none", "--fusion", "-O3", "--workgroup-size=256")

Diagnostic = collections.namedtuple(
    "Diagnostic", ["severity", "location", "message"]
)
_SEVERITIES = ("error", "warning", "note", "remark")

# What happened, for tests and the benchmark: programs compiled, loaded from
# the disk cache, found in memory.
stats = collections.Counter()

_entries = {}
_lock = threading.Lock()
_version = None


def version():
    """The compiler's version string (it keys the caches)."""
    global _version
    if _version is None:
        _version = _ext.compiler_version()
    return _version


_stamp_text = None


def _stamp():
    global _stamp_text
    if _stamp_text is None:
        _stamp_text = _build_stamp()
    return _stamp_text


def _build_stamp():
    """Size and modification time of the files that hold the compiler (the
    extension, and the compiler library of an installed wheel), so that a
    rebuilt or reinstalled compiler never gets the cached artifacts of
    another one under an unchanged version number."""
    import glob

    here = os.path.dirname(os.path.abspath(_ext.__file__))
    files = [_ext.__file__] + sorted(
        glob.glob(
            os.path.join(here, "**", "libsluice-compiler*.so*"), recursive=True
        )
    )
    parts = []
    for f in files:
        try:
            st = os.stat(f)
        except OSError:
            continue
        parts.append(f"{st.st_size}:{st.st_mtime_ns}")
    return " [" + ",".join(parts) + "]"


def cache_dir():
    """The directory of the disk cache, or None when it is off."""
    d = os.environ.get("SLUICE_CACHE_DIR")
    if d is not None:
        if d.strip().lower() in ("", "0", "off", "none", "false"):
            return None
        return d
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(
        os.path.expanduser("~"), ".cache"
    )
    return os.path.join(base, "sluice")


def _parse_location(text):
    if not text:
        return None
    parts = text.rsplit(":", 2)
    if len(parts) == 3 and parts[1].isdigit() and parts[2].isdigit():
        return (parts[0], int(parts[1]), int(parts[2]))
    return (text, 0, 0)


def diagnostics(result):
    return [
        Diagnostic(
            _SEVERITIES[s] if 0 <= s < 4 else str(s), _parse_location(loc), msg
        )
        for s, loc, msg in result["diagnostics"]
    ]


def _format(d):
    where = ""
    if d.location:
        f, line, col = d.location
        where = f"{f}:{line}:{col}: " if line else f"{f}: "
    return f"{where}{d.severity}: {d.message}"


def error_from(result, what):
    """The exception for a failed compile: ExecutionPlacementError when the
    compiler found a placement error, else CompileError."""
    diags = diagnostics(result)
    errors = [d for d in diags if d.severity == "error"]
    lines = [_format(d) for d in diags if d.severity in ("error", "note")]
    summary = result.get("failure") or "compilation failed"
    text = f"{what}: {summary}"
    if lines:
        text += "\n" + "\n".join(lines)
    for d in errors:
        if "execution placement" in d.message.lower():
            return ExecutionPlacementError(text, d.location)
    return CompileError(text, diags)


_target = None


def target_id():
    """The machine host code is compiled for: the architecture and the
    CPU's model and features (a cache shared between machines must not hand
    one CPU's code to another)."""
    global _target
    if _target is None:
        import platform

        cpu = ""
        try:
            with open("/proc/cpuinfo") as fh:
                seen = set()
                for line in fh:
                    k = line.split(":", 1)[0].strip()
                    if (
                        k in ("model name", "flags", "Features", "CPU part")
                        and k not in seen
                    ):
                        seen.add(k)
                        cpu += line
        except OSError:
            pass
        _target = (
            f"{platform.machine()} {platform.system()} "
            + hashlib.sha256(cpu.encode()).hexdigest()[:16]
        )
    return _target


def _key(keytext, flags):
    h = hashlib.sha256()
    for part in (version(), _stamp(), target_id(), "\0".join(flags), keytext):
        h.update(part.encode())
        h.update(b"\1")
    return h.hexdigest()


def _artifact_path(key):
    d = cache_dir()
    if d is None:
        return None
    return os.path.join(d, key[:2], key + ".so")


def compile_text(text, keytext, flags=(), name="program"):
    """The entry point (an address) of ``@main`` of the module ``text``:
    from memory, from the disk cache, or compiled now (and then stored)."""
    flags = DEFAULT_FLAGS + tuple(flags)
    key = _key(keytext, flags)
    with _lock:
        entry = _entries.get(key)
        if entry is not None:
            stats["memory"] += 1
            return entry
        path = _artifact_path(key)
        if path is not None and os.path.exists(path):
            r = _ext.load_artifact(path, "main")
            if r["ok"]:
                stats["disk"] += 1
                _entries[key] = r["entry"]
                return r["entry"]
        r = _ext.compile_program(text, name, list(flags), "main", [], True, "")
        if not r["ok"]:
            raise error_from(r, name)
        entry = r["entry"]
        if path is not None:
            _write_artifact_later(text, name, flags, path)
        stats["compiled"] += 1
        _entries[key] = entry
        return entry


_writer = None
_pending = []


def _write_artifact_later(text, name, flags, path):
    """Compiles the program again into an artifact in the disk cache, on a
    background thread with its own compiler session: the caller runs the
    JIT-compiled program meanwhile, the next process loads the artifact."""
    global _writer
    if _writer is None:
        import atexit
        import concurrent.futures

        _writer = concurrent.futures.ThreadPoolExecutor(
            max_workers=1, thread_name_prefix="sluice-cache"
        )
        atexit.register(flush_cache_writes)
    _pending[:] = [f for f in _pending if not f.done()]
    _pending.append(_writer.submit(_write_artifact, text, name, flags, path))


def _write_artifact(text, name, flags, path):
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fd, tmp = tempfile.mkstemp(suffix=".tmp", dir=os.path.dirname(path))
        os.close(fd)
    except OSError:
        return False  # an unwritable cache is not an error
    try:
        r = _ext.compile_program(
            text, name, list(flags), "main", [], False, tmp, 1
        )
        if not r["ok"]:
            return False
        os.replace(tmp, path)
        tmp = None
        stats["written"] += 1
        return True
    finally:
        if tmp is not None and os.path.exists(tmp):
            os.unlink(tmp)


def flush_cache_writes():
    """Waits until compiled programs are written to the disk cache."""
    while _pending:
        _pending.pop(0).result()


def write_artifact(text, path, flags=(), name="program"):
    """Compiles the module ``text`` into an artifact at ``path``. The file
    is written next to it under a temporary name and then renamed over
    ``path``: a process that has an earlier artifact of that name loaded
    keeps its mapping intact."""
    flags = DEFAULT_FLAGS + tuple(flags)
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(
        prefix=".sluice-", suffix=".so.tmp", dir=directory
    )
    os.close(fd)
    try:
        r = _ext.compile_program(text, name, list(flags), "", [], False, tmp)
        if not r["ok"]:
            raise error_from(r, name)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
        tmp = None
    finally:
        if tmp is not None and os.path.exists(tmp):
            os.unlink(tmp)


def lower_text(text, stage, flags=(), name="program"):
    """The IR of ``text`` after ``stage`` (a name of STAGES)."""
    if stage not in STAGES:
        raise ValueError(
            f"unknown stage {stage!r}: expected one of {', '.join(STAGES)}"
        )
    flags = DEFAULT_FLAGS + tuple(flags)
    r = _ext.compile_program(
        text, name, list(flags), "main", [STAGES[stage]], False, ""
    )
    if not r["ok"]:
        raise error_from(r, name)
    return r["ir"][STAGES[stage]]


def _spec(value, view=False):
    from ._ir import ArrayT
    from ._dtypes import CODES

    t = value.type
    if isinstance(t, ArrayT):
        return (
            True,
            CODES[t.dtype],
            [-1 if d is None else d for d in t.shape],
            t.qid,
            t.kind,
            view,
        )
    return (False, CODES[t.dtype], [], 0, 0)


# Host programs whose arrays are all static and at most this many elements
# are compiled at -O0: their kernels run for a few microseconds at most
# either way, and LLVM's -O3 pipeline and instruction selection are most of
# their compile time (bench/RESULTS.md, "Compile time on the host device").
TINY_STATIC_ELEMENTS = 256
_ARRAY_TYPE = re.compile(r'!usm\.array<([^,>]*)(?:<[^>]*>)?[^,>]*, "([^"]*)"')
_DIMS = re.compile(r"(?:(?:\d+|\?)x)*")


def tiny_static_host(text):
    """Whether every array of the program ``text`` is on a host queue and
    statically shaped with at most TINY_STATIC_ELEMENTS elements."""
    found = False
    for shape, queue in _ARRAY_TYPE.findall(text):
        if not queue.startswith(("host:", "native_cpu:")):
            return False
        elements = 1
        for d in _DIMS.match(shape).group(0).split("x")[:-1]:
            if not d.isdigit():
                return False
            elements *= int(d)
        if elements > TINY_STATIC_ELEMENTS:
            return False
        found = True
    return found


def program_flags(text, flags=()):
    """``flags`` with the optimisation level chosen for the program
    ``text`` (-O0 for tiny static host programs) unless they name one."""
    flags = tuple(flags)
    if not any(f.startswith("-O") for f in flags) and tiny_static_host(text):
        flags += ("-O0",)
    return flags


def compile_function(fb, name="program", flags=()):
    """A callable _sluice.Program for the function a FunctionBuilder
    holds."""
    keytext = fb.render(locations=False)
    flags = program_flags(keytext, flags)
    entry = compile_text(fb.render(locations=True), keytext, flags, name)
    return _ext.Program(
        entry,
        [_spec(a, i in fb.views) for i, a in enumerate(fb.args)],
        [_spec(r) for r in fb.results],
        name,
    )
