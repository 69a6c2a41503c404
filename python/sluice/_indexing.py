"""Basic indexing: integers, slices, ``...`` and ``None`` (views).

The index arithmetic of a view (``view_of``): no operations, so arrays
(sluice._array) use it to make their views. Indexing traced arrays inside
``@sluice.jit`` is sluice._traced_indexing's.
"""

import operator

import numpy as np


def _expand(key, ndim):
    if not isinstance(key, tuple):
        key = (key,)
    for k in key:
        if isinstance(k, (np.ndarray, list)) or (
            hasattr(k, "shape") and not isinstance(k, np.generic)
        ):
            raise IndexError(
                "only basic indexing is supported: integers, slices, "
                "Ellipsis (...) and None; arrays as indices are not"
            )
        if isinstance(k, bool):
            raise IndexError("boolean indices are not supported")
    ellipses = [i for i, k in enumerate(key) if k is Ellipsis]
    if len(ellipses) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    used = sum(1 for k in key if k is not None and k is not Ellipsis)
    if used > ndim:
        raise IndexError(
            f"too many indices for array: array is "
            f"{ndim}-dimensional, but {used} were indexed"
        )
    if ellipses:
        i = ellipses[0]
        key = key[:i] + (slice(None),) * (ndim - used) + key[i + 1 :]
    else:
        key = key + (slice(None),) * (ndim - used)
    return key


def view_of(shape, strides, offset, key):
    """(offset, shape, strides) of ``array[key]`` for basic indexing."""
    key = _expand(key, len(shape))
    out_shape, out_strides = [], []
    axis = 0
    for k in key:
        if k is None:
            out_shape.append(1)
            out_strides.append(0)
            continue
        n, s = shape[axis], strides[axis]
        if isinstance(k, slice):
            start, stop, step = k.indices(n)
            length = len(range(start, stop, step))
            offset += start * s
            out_shape.append(length)
            out_strides.append(s * step)
        else:
            try:
                i = operator.index(k)
            except TypeError:
                raise IndexError(
                    "only integers, slices (`:`), ellipsis (`...`) and "
                    f"None are valid indices, not {type(k).__name__}"
                ) from None
            if not -n <= i < n:
                raise IndexError(
                    f"index {i} is out of bounds for axis {axis} with size {n}"
                )
            offset += (i % n) * s
        axis += 1
    return offset, out_shape, out_strides


def _is_reshape(key, ndim):
    """Whether ``key`` only adds or keeps axes (``:``, ``...``, None)."""
    try:
        k = _expand(key, ndim)
    except IndexError:
        return False
    return all(part is None or part == slice(None) for part in k)
