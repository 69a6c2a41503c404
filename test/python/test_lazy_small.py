"""Small operations under lazy execution (python/src/LazyTape.h): below
the recording threshold they run eagerly until they repeat in chains (a
loop body), then they are recorded; a small graph whose structure has no
program yet runs operation by operation, and is compiled when it is
submitted again. Results are those of eager execution throughout."""

import sys

import numpy as np
import pytest

import sluice
from sluice import _lazy

# A threshold above every size used here: all of these operations are
# small, on every device.
_SMALL = 1 << 20


@pytest.fixture(autouse=True)
def small_threshold():
    # Each test starts as a fresh process would (what repeated, the
    # templates and programs of earlier tests forgotten), and leaves
    # nothing learnt to the tests after it.
    _lazy.forget()
    previous = sluice.set_lazy(True, min_elements=_SMALL)
    sluice.synchronize()
    yield
    sluice.set_lazy(previous, min_elements=None)
    _lazy.forget()


def _report():
    return sluice.lazy_report()


def _arrays(device, n=64):
    rng = np.random.default_rng(5)
    an = rng.uniform(1, 2, n).astype(np.float32)
    bn = rng.uniform(1, 2, n).astype(np.float32)
    a = sluice.asarray(an, device=device)
    b = sluice.asarray(bn, device=device)
    sluice.synchronize()
    return a, b, an, bn


def _step(xp, a, b):
    return (a * 2.0 + b) * 0.5 - xp.sqrt(b)


def _eager_step(a, b, an, bn):
    """The step run eagerly (lazy execution off): the bits every phase of
    lazy execution must give. A device's sqrt may differ from NumPy's in
    the last bit (CUDA's), so NumPy's is only close."""
    sluice.set_lazy(False)
    try:
        e = _step(sluice, a, b).asnumpy()
    finally:
        sluice.set_lazy(True, min_elements=_SMALL)
    np.testing.assert_allclose(e, _step(np, an, bn), rtol=1e-6)
    return e


def test_a_loop_of_small_steps_becomes_recorded(device):
    a, b, an, bn = _arrays(device)
    sluice.lazy_report(reset=True)
    recorded, got = [], []
    for _ in range(8):
        got.append(_step(sluice, a, b).asnumpy())
        recorded.append(_report()["recorded"])
    # The same bits as eager execution's in every phase: eager, run
    # operation by operation, compiled. (Run eagerly last: it would count
    # as a repeat.)
    expect = _eager_step(a, b, an, bn)
    for r in got:
        np.testing.assert_array_equal(r, expect)
    steps = np.diff([0] + recorded)
    # The first iteration runs eagerly (nothing repeated yet); the last
    # ones record the whole step (5 operations) as one graph.
    assert steps[0] == 0
    assert list(steps[-3:]) == [5, 5, 5]
    r = _report()
    assert r["small operations recorded"] >= 3
    # New structures ran operation by operation before one was compiled.
    assert r["small graphs run eagerly"] >= 1
    assert r["programs compiled"] + r["programs reused"] >= 1


def test_one_off_small_operations_stay_eager(device):
    a, b, an, bn = _arrays(device)
    sluice.lazy_report(reset=True)
    r1 = (a * 3.0 + b) / 2.0
    r2 = sluice.exp(a - 1.0) * b
    np.testing.assert_array_equal(r1.asnumpy(), (an * 3.0 + bn) / 2.0)
    np.testing.assert_allclose(
        r2.asnumpy(), np.exp(an - np.float32(1)) * bn, rtol=2e-6
    )
    r = _report()
    assert r["recorded"] == 0 and r["programs compiled"] == 0


def test_new_small_structures_run_eagerly_then_compile(device):
    a, b, an, bn = _arrays(device)
    for _ in range(4):  # (the operations repeat: recorded from here)
        _step(sluice, a, b).asnumpy()
    # Chains of the same operations, each structure new: run operation by
    # operation, no compile; the same structure again is compiled.
    for k in range(1, 6):
        sluice.lazy_report(reset=True)
        x, xn = a, an
        for _ in range(k):
            x = (x * 2.0 + b) * 0.5
            xn = (xn * np.float32(2) + bn) * np.float32(0.5)
        np.testing.assert_array_equal(x.asnumpy(), xn)
        r = _report()
        assert r["small graphs run eagerly"] == 1
        assert r["programs compiled"] == 0
    sluice.lazy_report(reset=True)
    x = a
    for _ in range(5):
        x = (x * 2.0 + b) * 0.5
    np.testing.assert_array_equal(x.asnumpy(), xn)
    r = _report()
    assert r["small graphs run eagerly"] == 0
    assert r["programs compiled"] + r["programs reused"] == 1


# 128 elements: every element of every kernel is computed by the same
# vector code. 100: the last ones fall in a scalar tail whose place depends
# on how a program is vectorised, and on the host the tail's libm and the
# body's libmvec may differ in the last bit (docs/python.md, Limitations).
@pytest.mark.parametrize("n", [128, 100])
def test_same_bits_with_lazy_execution_on_and_off(device, n):
    # Transcendentals too: each phase (eager, operation by operation,
    # fused) gives the bits of eager execution. The operations first run
    # with lazy execution off, and are recorded once it is on.
    a, b, _, _ = _arrays(device, n)

    def run():
        out = []
        x = a
        for _ in range(10):
            x = sluice.tanh(x * 0.75 + b) - sluice.exp(b * -0.5)
            out.append(x.asnumpy())
        return out

    sluice.set_lazy(False)
    eager = run()
    sluice.set_lazy(True)
    sluice.lazy_report(reset=True)
    tail_ulps = n % 64 != 0 and device.filter_string.startswith("host")
    for _ in range(3):
        lazy = run()
        for e, z in zip(eager, lazy):
            if tail_ulps:
                # (One ulp an operation at most, through ten iterations.)
                np.testing.assert_array_max_ulp(z, e, maxulp=4)
                np.testing.assert_array_equal(z[:64], e[:64])
            else:
                np.testing.assert_array_equal(z, e)
    r = _report()
    assert r["small operations recorded"] > 0
    assert r["programs compiled"] + r["programs reused"] > 0


def test_stencil_loop_with_slice_assignment_matches_numpy(device):
    # Jacobi: strided views of the array the step then writes in place.
    un = np.zeros((13, 13), np.float32)
    un[0, :] = 1.0
    u = sluice.asarray(un, device=device)
    sluice.lazy_report(reset=True)
    for i in range(12):
        u[1:-1, 1:-1] = 0.25 * (
            u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:]
        )
        un[1:-1, 1:-1] = 0.25 * (
            un[:-2, 1:-1] + un[2:, 1:-1] + un[1:-1, :-2] + un[1:-1, 2:]
        )
        if i % 4 == 3:
            u += 1.0  # an in-place write between steps
            un += 1.0
    np.testing.assert_array_equal(u.asnumpy(), un)
    assert _report()["small operations recorded"] > 0


def test_recorded_reads_see_values_before_a_later_write(device):
    a, b, an, bn = _arrays(device)
    for _ in range(4):
        _step(sluice, a, b).asnumpy()
    before = _report()["small operations recorded"]
    r = _step(sluice, a, b)  # recorded, pending
    assert _report()["small operations recorded"] > before
    a[:] = 0.0  # written while a pending graph reads it
    got = r.asnumpy()
    np.testing.assert_array_equal(a.asnumpy(), np.zeros_like(an))
    a[:] = sluice.asarray(an, device=device)
    np.testing.assert_array_equal(got, _eager_step(a, b, an, bn))


@pytest.mark.parametrize("runs", [3, 6])
def test_failures_name_the_source_line(device, runs):
    # 3 runs: the failing graph is new (run operation by operation); 6:
    # compiled. Either way the failure surfaces at the read, naming the
    # line that recorded the operation.
    n = 1 << 16
    a = sluice.asarray(np.ones(n, np.float32), device=device)
    sluice.synchronize()
    for _ in range(runs):
        (a * 2.0 + 1.0).asnumpy()
    pool = sluice.get_memory_pool(device)
    sluice.synchronize()
    pool.free_all_blocks()  # (a held block of the result's size would fit)
    old = pool.get_limit()
    try:
        pool.set_limit(pool.used_bytes() + n)
        line = sys._getframe().f_lineno + 1
        r = a * 2.0 + 1.0
        assert _report()["pending_operations"] == 2
        with pytest.raises(sluice.OutOfMemoryError) as failed:
            r.asnumpy()
        assert f"{__file__}:{line}" in str(failed.value)
    finally:
        pool.set_limit(old)
        try:  # (the failure, if the queue kept it)
            sluice.synchronize()
        except sluice.SluiceError:
            pass
    np.testing.assert_array_equal((a * 2.0 + 1.0).asnumpy()[:3], [3, 3, 3])


def test_switch_off_keeps_small_operations_eager(device):
    from sluice import _lazy

    a, b, an, bn = _arrays(device)
    previous = _lazy.set_small_repeats(0)
    try:
        sluice.lazy_report(reset=True)
        got = [_step(sluice, a, b).asnumpy() for _ in range(6)]
        assert _report()["recorded"] == 0
    finally:
        _lazy.set_small_repeats(previous)
    expect = _eager_step(a, b, an, bn)
    for r in got:
        np.testing.assert_array_equal(r, expect)


def test_one_off_structures_do_not_accumulate(device):
    # Many structures seen once each: nothing is compiled or cached, and
    # the pool's memory in use stays flat.
    a, b, an, bn = _arrays(device)
    for _ in range(4):
        _step(sluice, a, b).asnumpy()
    pool = sluice.get_memory_pool(device)
    sluice.lazy_report(reset=True)
    cached = _report()["cached_programs"]
    used = pool.used_bytes()
    for k in range(1, 25):  # graphs of k steps: each structure once
        x, xn = a, an
        for _ in range(k):
            x = (x * 2.0 + b) * 0.5
            xn = (xn * np.float32(2) + bn) * np.float32(0.5)
        np.testing.assert_array_equal(x.asnumpy(), xn)
    r = _report()
    assert r["programs compiled"] == 0
    assert r["cached_programs"] == cached
    del x
    sluice.synchronize()
    assert pool.used_bytes() <= used


def test_fused_temporaries_are_freed(device):
    # A fused program with temporaries (a value several kernels read):
    # its memory goes back after each call (a loop keeps flat).
    sluice.set_lazy(True, min_elements=0)
    n = 4096
    rng = np.random.default_rng(3)
    tn, pn, sn = (rng.uniform(1, 2, n).astype(np.float32) for _ in range(3))
    t, p, s = (sluice.asarray(x, device=device) for x in (tn, pn, sn))
    out = sluice.asarray(np.zeros(n, np.float32), device=device)
    pool = sluice.get_memory_pool(device)

    def step():
        b = t * 0.1
        se = sluice.exp(b) * s
        out[:] = p * b - se * b

    for _ in range(5):
        step()
    sluice.synchronize()
    used = pool.used_bytes()
    for _ in range(20):
        step()
    sluice.synchronize()
    assert pool.used_bytes() <= used
    bn = tn * np.float32(0.1)
    np.testing.assert_allclose(
        out.asnumpy(), pn * bn - np.exp(bn) * sn * bn, rtol=2e-6, atol=1e-6
    )
