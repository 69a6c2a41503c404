"""Eigenvalues and eigenvectors of general (non-symmetric) matrices on
devices other than the host: sluice.linalg.eig and eigvals there.

Everything is complex arithmetic on pairs of float arrays (the real and
imaginary parts; a real matrix has a zero imaginary part), in three
kernels, each batched over the matrices:

1. ``k_eig_hessenberg`` (a workgroup per matrix) brings the matrix to
   upper Hessenberg form ``H = Q^H A Q`` with one complex reflector
   ``I - f u u^H`` per column (work-item 0 forms ``u``, the group applies
   it to the columns, then to the rows, and to ``Q``). It also checks the
   matrix for infs and NaNs (status 2: NumPy's LinAlgError).
2. ``k_eig_schur`` (a workgroup per matrix) reduces ``H`` to the upper
   triangular Schur form ``T = Z^H A Z`` by shifted QR steps on the
   trailing unreduced block: work-item 0 finds the block (setting
   negligible subdiagonal entries to zero, which splits the matrix, and
   shrinking the block by one row each time its last one has split off)
   and the shift (the eigenvalue of the block's trailing 2 x 2 nearer its
   last diagonal entry; every tenth step on one block a shift moved off it,
   to break cycles), then one complex plane rotation at a time chases the
   step's bulge down the block: every work-item forms the rotation from
   the bulge, the group applies it to the two rows, then (after a
   barrier) to the two columns it mixes and to ``Z``. At most 30
   steps per row; past that the status is 1 ("did not converge"), so no
   input can make it loop for ever. The eigenvalues are ``T``'s diagonal.
3. ``k_eig_vectors`` (a work-item per eigenvector) solves
   ``(T - t_jj I) y = 0`` with ``y_j = 1`` by back substitution (a
   denominator below ``eps * max|T|`` is replaced by that, as for repeated
   eigenvalues; ``y`` is rescaled when it grows), forms ``v = Z y`` and
   scales it to unit 2-norm with its largest-magnitude component real and
   positive.

The matrices are divided by their largest magnitude first (as the Jacobi
kernels' are), so the sums of squares neither overflow nor underflow, and
the eigenvalues are multiplied back. Results are always complex (NumPy
2.5's rule for eig/eigvals).
"""

import builtins
import math

import numpy as np

from . import _dtypes, _ops
from . import kernel_api as kapi
from ._kernel import call_kernel, device_func, kernel

# QR steps allowed per row of a matrix before eig gives up (a kernel
# argument: tests lower it).
STEPS_PER_ROW = 30
# Steps on one block between exceptional shifts.
EXCEPTIONAL_EVERY = 10

# --- complex arithmetic on (re, im) pairs -----------------------------------


@device_func
def _sqrt_re(x, y):
    # real part of the principal square root of x + iy
    t = math.sqrt((math.hypot(x, y) + abs(x)) / 2)
    if x >= 0 or t == 0:
        return t
    return abs(y) / (2 * t)


@device_func
def _sqrt_im(x, y):
    # imaginary part of the principal square root of x + iy
    t = math.sqrt((math.hypot(x, y) + abs(x)) / 2)
    if t == 0:
        return t
    if x >= 0:
        return y / (2 * t)
    return math.copysign(t, y)


@device_func
def _div_re(ar, ai, br, bi):
    # real part of (ar + i ai) / (br + i bi), scaled against overflow
    s = max(abs(br), abs(bi))
    cr = br / s
    ci = bi / s
    return ((ar / s) * cr + (ai / s) * ci) / (cr * cr + ci * ci)


@device_func
def _div_im(ar, ai, br, bi):
    s = max(abs(br), abs(bi))
    cr = br / s
    ci = bi / s
    return ((ai / s) * cr - (ar / s) * ci) / (cr * cr + ci * ci)


# --- 1. Hessenberg form ------------------------------------------------------


@device_func
def _form_reflector(ar, ai, ur, ui, ab, ub, n, k, lf, zero):
    # u for column k (rows k+1..n-1): lf[0] = f = 2 / u^H u (0: nothing
    # to do), (lf[1], lf[2]) the new subdiagonal entry
    x0r = ar[ab + (k + 1) * n + k]
    x0i = ai[ab + (k + 1) * n + k]
    rest = zero
    for i in range(k + 2, n):
        rest += ar[ab + i * n + k] ** 2 + ai[ab + i * n + k] ** 2
    if rest == zero:
        lf[0] = zero
    else:
        a0 = math.hypot(x0r, x0i)
        alpha = math.sqrt(rest + a0 * a0)
        pr = zero + 1
        pi = zero
        if a0 != zero:
            pr = x0r / a0
            pi = x0i / a0
        ur[ub + k + 1] = x0r + pr * alpha
        ui[ub + k + 1] = x0i + pi * alpha
        for i in range(k + 2, n):
            ur[ub + i] = ar[ab + i * n + k]
            ui[ub + i] = ai[ab + i * n + k]
        lf[0] = 2 / (rest + (a0 + alpha) * (a0 + alpha))
        lf[1] = -pr * alpha
        lf[2] = -pi * alpha


@device_func
def _reflect_column(ar, ai, ur, ui, ab, ub, n, k, j, f, zero):
    # column j of A := (I - f u u^H) A, u living in rows k+1..n-1
    wr = zero
    wi = zero
    for i in range(k + 1, n):
        xr = ar[ab + i * n + j]
        xi = ai[ab + i * n + j]
        wr += ur[ub + i] * xr + ui[ub + i] * xi
        wi += ur[ub + i] * xi - ui[ub + i] * xr
    wr = wr * f
    wi = wi * f
    for i in range(k + 1, n):
        ar[ab + i * n + j] -= ur[ub + i] * wr - ui[ub + i] * wi
        ai[ab + i * n + j] -= ur[ub + i] * wi + ui[ub + i] * wr


@device_func
def _reflect_row(xr, xi, ur, ui, rb, ub, n, k, f, zero):
    # the row at rb of X := X (I - f u u^H)
    wr = zero
    wi = zero
    for j in range(k + 1, n):
        wr += xr[rb + j] * ur[ub + j] - xi[rb + j] * ui[ub + j]
        wi += xr[rb + j] * ui[ub + j] + xi[rb + j] * ur[ub + j]
    wr = wr * f
    wi = wi * f
    for j in range(k + 1, n):
        xr[rb + j] -= wr * ur[ub + j] + wi * ui[ub + j]
        xi[rb + j] -= wi * ur[ub + j] - wr * ui[ub + j]


@kernel
def k_eig_hessenberg(
    it: kapi.NdItem, ar, ai, zr, zi, ur, ui, n, want, info, li, lf, zero
):
    """Each (ar, ai) (n x n) becomes upper Hessenberg, (zr, zi) the unitary
    Q with A = Q H Q^H when want; (ur, ui) scratch of n per matrix. info
    2 where the matrix holds an inf or a NaN (then left as it is), else
    0."""
    g = it.get_group()
    bi = g.get_group_id(0)
    lid = it.get_local_id(0)
    nw = it.get_local_range(0)
    ab = bi * n * n
    ub = bi * n
    if lid == 0:
        bad = 0
        for i in range(n * n):
            if not (math.isfinite(ar[ab + i]) and math.isfinite(ai[ab + i])):
                bad = 1
        info[bi] = 2 * bad
        li[0] = bad
    kapi.group_barrier(g)
    if want != 0:
        for i in range(lid, n, nw):
            for j in range(n):
                zr[ab + i * n + j] = zero
                zi[ab + i * n + j] = zero
            zr[ab + i * n + i] = zero + 1
    if li[0] == 0:
        for k in range(n - 2):
            if lid == 0:
                _form_reflector(ar, ai, ur, ui, ab, ub, n, k, lf, zero)
            kapi.group_barrier(g)
            f = lf[0]
            if f != zero:
                for j in range(k + 1 + lid, n, nw):
                    _reflect_column(ar, ai, ur, ui, ab, ub, n, k, j, f, zero)
                kapi.group_barrier(g)
                for i in range(lid, n, nw):
                    _reflect_row(ar, ai, ur, ui, ab + i * n, ub, n, k, f, zero)
                    if want != 0:
                        _reflect_row(
                            zr, zi, ur, ui, ab + i * n, ub, n, k, f, zero
                        )
                # column k itself: the reflector's image of it, exactly
                if lid == 0:
                    ar[ab + (k + 1) * n + k] = lf[1]
                    ai[ab + (k + 1) * n + k] = lf[2]
                    for i in range(k + 2, n):
                        ar[ab + i * n + k] = zero
                        ai[ab + i * n + k] = zero
            kapi.group_barrier(g)


# --- 2. Schur form -----------------------------------------------------------


@device_func
def _block_top(ar, ai, ab, n, hi, hnorm, eps, zero):
    # the first row of the unreduced block that ends at row hi; negligible
    # subdiagonal entries on the way up are set to zero
    top = hi
    scanning = 1
    for kk in range(hi):
        if scanning == 1:
            r = hi - kk
            sub = math.hypot(ar[ab + r * n + r - 1], ai[ab + r * n + r - 1])
            near = math.hypot(
                ar[ab + (r - 1) * n + r - 1], ai[ab + (r - 1) * n + r - 1]
            ) + math.hypot(ar[ab + r * n + r], ai[ab + r * n + r])
            if near == zero:
                near = hnorm
            if sub <= eps * near:
                ar[ab + r * n + r - 1] = zero
                ai[ab + r * n + r - 1] = zero
                scanning = 0
            else:
                top = r - 1
    return top


@device_func
def _shift(ar, ai, ab, n, hi, its, lf, zero):
    # (lf[3], lf[4]): the eigenvalue of the trailing 2 x 2 [[a, b], [c, d]]
    # nearer d, or every EXCEPTIONAL_EVERY steps d moved by 1.5 |c|
    p = ab + (hi - 1) * n + hi - 1
    q = ab + hi * n + hi
    dr = ar[q]
    di = ai[q]
    cr = ar[q - 1]
    ci = ai[q - 1]
    if its % EXCEPTIONAL_EVERY == 0:
        lf[3] = dr + 1.5 * math.hypot(cr, ci)
        lf[4] = di
    else:
        # h = (a - d) / 2, e = sqrt(h^2 + b c), mu = d - b c / (h +- e)
        hr = (ar[p] - dr) / 2
        hi_ = (ai[p] - di) / 2
        bcr = ar[p + 1] * cr - ai[p + 1] * ci
        bci = ar[p + 1] * ci + ai[p + 1] * cr
        sr = hr * hr - hi_ * hi_ + bcr
        si = 2 * hr * hi_ + bci
        er = _sqrt_re(sr, si)
        ei = _sqrt_im(sr, si)
        if hr * er + hi_ * ei < zero:
            er = -er
            ei = -ei
        nr = hr + er
        ni = hi_ + ei
        lf[3] = dr
        lf[4] = di
        if nr != zero or ni != zero:
            lf[3] = dr - _div_re(bcr, bci, nr, ni)
            lf[4] = di - _div_im(bcr, bci, nr, ni)


@device_func
def _plan_step(ar, ai, ab, n, li, lf, limit, info, bi, eps, zero):
    # work-item 0 before each step: li[2] = 1 done, 3 a row split off
    # (no step), 0 a step on rows li[0]..li[1] with the shift in lf
    hi = li[1]
    if hi <= 0:
        li[2] = 1
    else:
        top = _block_top(ar, ai, ab, n, hi, lf[5], eps, zero)
        if top == hi:
            li[1] = hi - 1
            li[4] = 0
            li[2] = 3
        elif li[3] >= limit:
            info[bi] = 1
            li[2] = 1
        else:
            li[3] = li[3] + 1
            li[4] = li[4] + 1
            li[0] = top
            li[2] = 0
            _shift(ar, ai, ab, n, hi, li[4], lf, zero)


@device_func
def _givens(xr, xi, yr, yi, part, zero):
    # part 0: c, 1: re(s), 2: im(s) of G = [[c, s], [-conj(s), c]] with
    # G (x, y) = (r, 0), c real
    nx = math.hypot(xr, xi)
    nrm = math.hypot(nx, math.hypot(yr, yi))
    if nrm == zero:
        return zero + 1 if part == 0 else zero
    if nx == zero:
        return zero + 1 if part == 1 else zero
    if part == 0:
        return nx / nrm
    if part == 1:
        return (xr * yr + xi * yi) / (nx * nrm)
    return (xi * yr - xr * yi) / (nx * nrm)


@device_func
def _first_rotation(ar, ai, ab, n, k, lf, zero):
    # the rotation of the shifted first column at the block's top row k,
    # into lf[0..2] (the shift is lf[3], lf[4])
    xr = ar[ab + k * n + k] - lf[3]
    xi = ai[ab + k * n + k] - lf[4]
    yr = ar[ab + (k + 1) * n + k]
    yi = ai[ab + (k + 1) * n + k]
    lf[0] = _givens(xr, xi, yr, yi, 0, zero)
    lf[1] = _givens(xr, xi, yr, yi, 1, zero)
    lf[2] = _givens(xr, xi, yr, yi, 2, zero)


@device_func
def _bulge(ar, ai, p, n, part, zero):
    # part of the rotation that zeroes the bulge at p + n below p
    return _givens(ar[p], ai[p], ar[p + n], ai[p + n], part, zero)


@device_func
def _settle_bulge(ar, ai, p, n, c, sr, si, zero):
    # the bulge's column after its rotation: (r, 0) exactly
    xr = ar[p]
    xi = ai[p]
    ar[p] = c * xr + sr * ar[p + n] - si * ai[p + n]
    ai[p] = c * xi + sr * ai[p + n] + si * ar[p + n]
    ar[p + n] = zero
    ai[p + n] = zero


@device_func
def _rotate_rows(ar, ai, ab, n, k, j, c, sr, si):
    # rows k, k+1 of column j := G (rows k, k+1)
    p = ab + k * n + j
    q = p + n
    pr = ar[p]
    pi = ai[p]
    qr = ar[q]
    qi = ai[q]
    ar[p] = c * pr + sr * qr - si * qi
    ai[p] = c * pi + sr * qi + si * qr
    ar[q] = c * qr - sr * pr - si * pi
    ai[q] = c * qi - sr * pi + si * pr


@device_func
def _rotate_cols(xr, xi, rb, k, c, sr, si):
    # columns k, k+1 of the row at rb := (columns k, k+1) G^H
    pr = xr[rb + k]
    pi = xi[rb + k]
    qr = xr[rb + k + 1]
    qi = xi[rb + k + 1]
    xr[rb + k] = c * pr + sr * qr + si * qi
    xi[rb + k] = c * pi + sr * qi - si * qr
    xr[rb + k + 1] = c * qr - sr * pr + si * pi
    xi[rb + k + 1] = c * qi - sr * pi - si * pr


@kernel
def k_eig_schur(
    it: kapi.NdItem, ar, ai, zr, zi, n, want, info, li, lf, steps, zero, eps
):
    """Each Hessenberg (ar, ai) (n x n) becomes its upper triangular Schur
    form T, (zr, zi) Z (given as Q) becomes Q Z when want. info (from
    k_eig_hessenberg: nonzero matrices are left alone) 1 where the QR
    steps, at most steps * n, ran out."""
    g = it.get_group()
    bi = g.get_group_id(0)
    lid = it.get_local_id(0)
    nw = it.get_local_range(0)
    ab = bi * n * n
    if lid == 0:
        li[1] = n - 1
        li[3] = 0
        li[4] = 0
        li[2] = 0
        if info[bi] != 0:
            li[2] = 1
        s = zero
        for i in range(n * n):
            s += ar[ab + i] ** 2 + ai[ab + i] ** 2
        lf[5] = math.sqrt(s)
    kapi.group_barrier(g)
    limit = steps * n
    for _step in range(limit + n + 1):
        if lid == 0 and li[2] != 1:
            _plan_step(ar, ai, ab, n, li, lf, limit, info, bi, eps, zero)
        kapi.group_barrier(g)
        state = li[2]
        top = li[0]
        hi = li[1]
        # every work-item has read the plan before work-item 0 writes
        # the next one
        kapi.group_barrier(g)
        if state == 0:
            for k in range(top, hi):
                # each plane rotation: its rows (from column k on), then
                # its columns; the bulge's column k-1 is read by every
                # work-item for the rotation and written after the rows
                p = ab + k * n + k - 1
                if k == top:
                    if lid == 0:
                        _first_rotation(ar, ai, ab, n, k, lf, zero)
                    kapi.group_barrier(g)
                    c = lf[0]
                    sr = lf[1]
                    si = lf[2]
                else:
                    c = _bulge(ar, ai, p, n, 0, zero)
                    sr = _bulge(ar, ai, p, n, 1, zero)
                    si = _bulge(ar, ai, p, n, 2, zero)
                for j in range(k + lid, n, nw):
                    _rotate_rows(ar, ai, ab, n, k, j, c, sr, si)
                kapi.group_barrier(g)
                if lid == 0 and k > top:
                    _settle_bulge(ar, ai, p, n, c, sr, si, zero)
                for i in range(lid, builtins.min(k + 3, n), nw):
                    _rotate_cols(ar, ai, ab + i * n, k, c, sr, si)
                if want != 0:
                    for i in range(lid, n, nw):
                        _rotate_cols(zr, zi, ab + i * n, k, c, sr, si)
                kapi.group_barrier(g)


# --- 3. eigenvectors ---------------------------------------------------------


@device_func
def _triangular_vector(tr, ti, yr, yi, ab, yb, n, j, eps, zero):
    # y (n, at yb): the solution of (T - t_jj I) y = 0 with y_j = 1,
    # zero below j
    lr = tr[ab + j * n + j]
    lim = ti[ab + j * n + j]
    tmax = zero
    for i in range(n):
        for k in range(i, n):
            tmax = max(tmax, abs(tr[ab + i * n + k]) + abs(ti[ab + i * n + k]))
    small = eps * tmax
    if small == zero:
        small = eps
    big = 1 / (eps * eps)
    for k in range(n):
        yr[yb + k] = zero
        yi[yb + k] = zero
    yr[yb + j] = zero + 1
    for ii in range(j):
        i = j - 1 - ii
        sr = zero
        si = zero
        for k in range(i + 1, j + 1):
            sr += (
                tr[ab + i * n + k] * yr[yb + k]
                - ti[ab + i * n + k] * yi[yb + k]
            )
            si += (
                tr[ab + i * n + k] * yi[yb + k]
                + ti[ab + i * n + k] * yr[yb + k]
            )
        dr = tr[ab + i * n + i] - lr
        di = ti[ab + i * n + i] - lim
        if abs(dr) + abs(di) < small:
            dr = small
            di = zero
        vr = -_div_re(sr, si, dr, di)
        vi = -_div_im(sr, si, dr, di)
        yr[yb + i] = vr
        yi[yb + i] = vi
        m = abs(vr) + abs(vi)
        if m > big:
            for k in range(i, j + 1):
                yr[yb + k] = yr[yb + k] / m
                yi[yb + k] = yi[yb + k] / m


@kernel
def k_eig_vectors(it: kapi.Item, tr, ti, zr, zi, yr, yi, vr, vi, n, zero, eps):
    """Eigenvector j of matrix b for work-item b * n + j: from the Schur
    form (tr, ti) and its Z (zr, zi), column j of (vr, vi), unit 2-norm,
    its largest component real and positive; (yr, yi) scratch of n per
    work-item."""
    gid = it.get_id(0)
    bi = gid // n
    j = gid - bi * n
    ab = bi * n * n
    yb = gid * n
    _triangular_vector(tr, ti, yr, yi, ab, yb, n, j, eps, zero)
    vmax = zero
    br = zero + 1
    bim = zero
    for r in range(n):
        sr = zero
        si = zero
        for k in range(j + 1):
            sr += (
                zr[ab + r * n + k] * yr[yb + k]
                - zi[ab + r * n + k] * yi[yb + k]
            )
            si += (
                zr[ab + r * n + k] * yi[yb + k]
                + zi[ab + r * n + k] * yr[yb + k]
            )
        vr[ab + r * n + j] = sr
        vi[ab + r * n + j] = si
        m = math.hypot(sr, si)
        if m > vmax:
            vmax = m
            br = sr
            bim = si
    if vmax > zero:
        ss = zero
        for r in range(n):
            ss += (vr[ab + r * n + j] / vmax) ** 2 + (
                vi[ab + r * n + j] / vmax
            ) ** 2
        # times conj(largest) / (|largest| * ||v||)
        f = 1 / (vmax * vmax * math.sqrt(ss))
        pr = br * f
        pi = -bim * f
        for r in range(n):
            xr = vr[ab + r * n + j]
            xi = vi[ab + r * n + j]
            vr[ab + r * n + j] = xr * pr - xi * pi
            vi[ab + r * n + j] = xr * pi + xi * pr


# --- the driver --------------------------------------------------------------


def _group_size(x, n):
    """A power of two >= n, at most 256 work-items on GPUs (64 on CPUs,
    which run a workgroup's items in turn) and the device's limit."""
    from ._device import _queue_from_id

    dev = _queue_from_id(x._queue_id).sycl_device
    top = builtins.min(256 if dev.is_gpu else 64, dev.max_work_group_size)
    w = 1
    while w < n and w * 2 <= top:
        w *= 2
    return w


def _status(info):
    from ._array import asnumpy
    from .linalg import LinAlgError

    codes = asnumpy(info)
    if np.any(codes == 2):
        raise LinAlgError("Array must not contain infs or NaNs")
    if np.any(codes == 1):
        raise LinAlgError("Eigenvalues did not converge")


def device_eig(x, want):
    """eig (want: the eigenvalues and eigenvectors) or eigvals of the
    square matrices x on x's device: complex results."""
    from . import linalg as la

    la._square("eig" if want else "eigvals", x)
    if x.dtype.kind == "c":
        cdt = x.dtype
    else:
        dt = la._float_dtype("eig" if want else "eigvals", x)
        cdt = (
            _dtypes.complex64 if dt == _dtypes.float32 else _dtypes.complex128
        )
    pdt = _dtypes.float32 if cdt == _dtypes.complex64 else _dtypes.float64
    bs = tuple(x.shape[:-2])
    n = x.shape[-1]
    batch = la._prod(bs)
    if batch == 0 or n == 0:
        w = la._new(bs + (n,), cdt, x)
        return la.EigResult(w, la._new(bs + (n, n), cdt, x)) if want else w
    xs, f = la._scaled(_ops.astype(x, cdt))
    ar, ai = la._parts(xs)
    size = (batch * n * n,) if want else (1,)
    zr, zi = la._new(size, pdt, x), la._new(size, pdt, x)
    ur, ui = la._new((batch * n,), pdt, x), la._new((batch * n,), pdt, x)
    info = la._new((batch,), _dtypes.int64, x)
    w = _group_size(x, n)
    rng = kapi.NdRange((batch * w,), (w,))
    li = kapi.LocalAccessor((5,), _dtypes.int64)
    lf = kapi.LocalAccessor((6,), pdt)
    zero, eps = la._zero(pdt), la._eps(pdt)
    flag = 1 if want else 0
    call_kernel(
        k_eig_hessenberg,
        rng,
        ar,
        ai,
        zr,
        zi,
        ur,
        ui,
        n,
        flag,
        info,
        li,
        lf,
        zero,
    )
    call_kernel(
        k_eig_schur,
        rng,
        *(ar, ai, zr, zi, n, flag, info, li, lf, STEPS_PER_ROW, zero, eps),
    )
    _status(info)
    t = la._join(ar, ai, bs + (n, n))
    vals = la.diagonal(t) * _ops.reshape(f, bs + (1,))
    if not want:
        return vals
    yr, yi = (la._new((batch * n * n,), pdt, x) for _ in range(2))
    vr, vi = (la._new((batch * n * n,), pdt, x) for _ in range(2))
    call_kernel(
        k_eig_vectors,
        kapi.Range(batch * n),
        ar,
        ai,
        zr,
        zi,
        yr,
        yi,
        vr,
        vi,
        n,
        zero,
        eps,
    )
    return la.EigResult(vals, la._join(vr, vi, bs + (n, n)))
