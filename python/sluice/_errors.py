"""The exceptions sluice raises."""


class SluiceError(RuntimeError):
    """The runtime or a submitted operation failed (a device error, a
    failed kernel, a lost allocation). Asynchronous failures surface at the
    next synchronisation: reading the array, ``Queue.wait()``."""


class OutOfMemoryError(SluiceError, MemoryError):
    """An allocation did not fit: the device is out of memory, or the
    device's memory pool reached its limit (``MemoryPool.set_limit``,
    ``SLUICE_POOL_LIMIT``). The message has the sizes."""


class DeviceNotFoundError(SluiceError, ValueError):
    """No device matches a filter selector string, or the string is
    malformed (dpctl: ``SyclDeviceCreationError``)."""


class ExecutionPlacementError(ValueError):
    """Arrays on different queues met in one operation (compute follows
    data: migrate one with ``to_device``). The message begins with dpctl's
    wording; for errors found while tracing or compiling, ``location`` is
    the ``(file, line, column)`` of the user's source line."""

    def __init__(self, message, location=None):
        super().__init__(message)
        self.location = location


class CompileError(SluiceError):
    """The compiler rejected a program. ``diagnostics`` holds
    ``Diagnostic`` entries with their source locations."""

    def __init__(self, message, diagnostics=()):
        super().__init__(message)
        self.diagnostics = list(diagnostics)


class ArtifactError(SluiceError, ValueError):
    """``sluice.load`` cannot use a file: it is not a Sluice artifact (not
    a shared object, or one without the symbols ``sluice-compile``
    writes), its signatures are malformed, or it has no entry point of the
    name asked for (or several and none was named). The message is the
    loader's, naming the file."""


class TracerError(TypeError):
    """A traced value was used where ``@sluice.jit`` needs a concrete one
    (Python control flow, ``float()``, ``asnumpy``): use ``sluice.where``
    or mark the argument static."""


PLACEMENT_MESSAGE = (
    "Execution placement can not be unambiguously inferred from input "
    "arguments."
)


# --- dpctl's exception names --------------------------------------------


class SyclDeviceCreationError(DeviceNotFoundError):
    """No device matches a filter selector string, or the string is
    malformed (dpctl's name; a DeviceNotFoundError, so a ValueError)."""


class SyclSubDeviceCreationError(SluiceError, ValueError):
    """A device cannot be partitioned as asked
    (``SyclDevice.create_sub_devices``)."""


class SyclContextCreationError(SluiceError, ValueError):
    """A SyclContext cannot be made of the arguments given."""


class SyclQueueCreationError(SluiceError, ValueError):
    """A SyclQueue cannot be made: no device matches, the context does not
    hold the device, or a property is not supported."""


class USMAllocationError(SluiceError, MemoryError):
    """A USM allocation of ``sluice.memory`` failed (dpctl.memory's
    name)."""


class SyclKernelSubmitError(SluiceError):
    """A kernel could not be submitted (dpctl's name)."""


class SyclKernelInvalidRangeError(SluiceError, ValueError):
    """A kernel was launched with an invalid range (dpctl's name)."""
