"""The caching allocator of each device, as Python sees it.

Every array result is a USM allocation. Each device has one pool (in the
runtime, shared by its queues and by compiled programs): memory of an array
goes back to it once the array is unreferenced and every operation that
used it has finished, and the next allocation of that size class takes it
from there, so a loop in its steady state allocates nothing from the
driver or the operating system.
"""

from . import _sluice as _ext
from ._device import _coerce_device


class MemoryPool:
    """The memory pool of one device (``sluice.get_memory_pool(device)``).

    Sizes are counted by size class (what a block really takes)."""

    __slots__ = ("_device",)

    def __init__(self, device=None):
        self._device = _coerce_device(device)

    @property
    def device(self):
        return self._device

    def _info(self):
        return _ext.pool_info(self._device._handle)

    def used_bytes(self):
        """Bytes of blocks that arrays (or pending operations) hold."""
        return self._info()[0]

    def free_bytes(self):
        """Bytes of free blocks the pool keeps for reuse."""
        return self._info()[1]

    held_bytes = free_bytes

    def total_bytes(self):
        """Bytes the pool has taken from the device: used + free."""
        i = self._info()
        return i[0] + i[1]

    def high_water_mark(self):
        """The most bytes that were in use at once."""
        return self._info()[2]

    def get_limit(self):
        """The cap on total_bytes() (0: none)."""
        return self._info()[3]

    def set_limit(self, size=None, fraction=None):
        """Caps the bytes taken from the device (in use + held). Past it an
        allocation first gives the held blocks back, then raises
        ``sluice.OutOfMemoryError`` with the sizes. ``size=0`` (or neither
        argument) removes the cap; ``fraction`` is of the device's
        memory. The environment variable ``SLUICE_POOL_LIMIT`` sets the
        initial cap."""
        if size is not None and fraction is not None:
            raise ValueError("give size or fraction, not both")
        if fraction is not None:
            fraction = float(fraction)
            if not 0.0 <= fraction <= 1.0:
                raise ValueError("fraction must be between 0 and 1")
            size = int(self._device.global_mem_size * fraction)
        size = 0 if size is None else int(size)
        if size < 0:
            raise ValueError("the limit must not be negative")
        _ext.pool_set_limit(self._device._handle, size)

    def get_hold_limit(self):
        """The cap on free_bytes()."""
        return self._info()[4]

    def set_hold_limit(self, size):
        """Caps the bytes of free blocks kept for reuse (0 keeps none;
        ``SLUICE_POOL_HOLD_BYTES`` sets it at start; default a quarter of
        the device's memory)."""
        size = int(size)
        if size < 0:
            raise ValueError("the hold limit must not be negative")
        _ext.pool_set_hold_limit(self._device._handle, size)

    def free_all_blocks(self):
        """Gives every free block back to the device."""
        _ext.pool_trim(self._device._handle)

    def info(self):
        """Every figure at once, as a dict."""
        i = self._info()
        return {
            "used_bytes": i[0],
            "free_bytes": i[1],
            "total_bytes": i[0] + i[1],
            "high_water_mark": i[2],
            "limit": i[3],
            "hold_limit": i[4],
            "backend_allocations": i[5],
            "reused": i[6],
        }

    def __repr__(self):
        i = self.info()
        return (
            f"MemoryPool({self._device.filter_string}: "
            f"{i['used_bytes']} bytes used, {i['free_bytes']} held, "
            f"high water {i['high_water_mark']})"
        )


def get_memory_pool(device=None):
    """The memory pool of ``device`` (a filter string, Device, Queue, or
    None for the default device)."""
    return MemoryPool(device)
