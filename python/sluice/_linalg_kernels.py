"""Kernels of sluice.linalg's factorisations on devices other than the host.

Written with the kernel API (docs/kernels.md), so each compiles for the
queue of its arrays (SPIR-V for OpenCL and Level Zero, PTX for CUDA, the
host's thread pool) and runs in order with the queue's other work: no
operand is ever copied to the host (only the small per-matrix status
arrays are read back, to raise LinAlgError). Every kernel is batched over
the leading dimensions: arrays are flat, C-ordered (batch, rows, cols)
buffers, and the matrix of a work-item or workgroup is its batch index.

- LU with partial pivoting (one workgroup per matrix: the pivot search by
  work-item 0, the row swap and the elimination's rows spread over the
  group, barriers between the steps), solving for right-hand sides and
  giving the determinant, its sign and log|det| -- solve, inv, det,
  slogdet.
- Cholesky (one work-item per matrix, the lower factor, read from the
  lower triangle as LAPACK's potrf).
- Householder QR (one work-item per matrix): R and the complete Q.
- cyclic Jacobi for symmetric matrices (one work-item per matrix):
  eigenvalues ascending and eigenvectors.
- one-sided (Hestenes) Jacobi SVD for matrices with rows >= columns (one
  work-item per matrix): U (completed to an orthonormal basis for
  full_matrices and for zero singular values), singular values
  descending, Vh.

The kernels take the element dtype's zero (``zero``) and machine epsilon
(``eps``) as scalars of that dtype, so one kernel body compiles for
float32 and float64 with every variable in the input's precision. Sizes
are run-time arguments: one compilation per dtype and device.
"""

import math

from . import kernel_api as kapi
from ._kernel import kernel

MAX_SWEEPS = 60


@kernel
def k_lu(it: kapi.NdItem, a, b, n, m, info, det, sgn, lad, sh, zero):
    """LU of a (n x n, overwritten) with partial pivoting, the same row
    operations applied to b (n x m, m may be 0), then b = a^-1 b by back
    substitution; det, sign and log|det| of each matrix, info 1 where a
    pivot is zero (singular)."""
    g = it.get_group()
    bi = g.get_group_id(0)
    lid = it.get_local_id(0)
    nw = it.get_local_range(0)
    ab = bi * n * n
    bb = bi * n * m
    swaps = 0
    for k in range(n):
        if lid == 0:
            p = k
            best = abs(a[ab + k * n + k])
            for i in range(k + 1, n):
                v = abs(a[ab + i * n + k])
                if v > best:
                    best = v
                    p = i
            sh[0] = p
            if p != k:
                swaps += 1
        kapi.group_barrier(g)
        p = sh[0]
        if p != k:
            for j in range(lid, n, nw):
                t = a[ab + k * n + j]
                a[ab + k * n + j] = a[ab + p * n + j]
                a[ab + p * n + j] = t
            for j in range(lid, m, nw):
                t = b[bb + k * m + j]
                b[bb + k * m + j] = b[bb + p * m + j]
                b[bb + p * m + j] = t
        kapi.group_barrier(g)
        d = a[ab + k * n + k]
        if d != zero:
            for i in range(k + 1 + lid, n, nw):
                f = a[ab + i * n + k] / d
                a[ab + i * n + k] = f
                for j in range(k + 1, n):
                    a[ab + i * n + j] -= f * a[ab + k * n + j]
                for j in range(m):
                    b[bb + i * m + j] -= f * b[bb + k * m + j]
        kapi.group_barrier(g)
    if lid == 0:
        dt = zero + 1
        la = zero
        sg = zero + 1
        sing = 0
        for k in range(n):
            d = a[ab + k * n + k]
            dt = dt * d
            if d == zero:
                sing = 1
            else:
                la += math.log(abs(d))
                if d < zero:
                    sg = -sg
        if swaps % 2 == 1:
            dt = -dt
            sg = -sg
        if sing == 1:
            sg = zero
            la = zero - math.inf
        det[bi] = dt
        sgn[bi] = sg
        lad[bi] = la
        info[bi] = sing
        sh[0] = sing
    kapi.group_barrier(g)
    if sh[0] == 0:
        for c in range(lid, m, nw):
            for kk in range(n):
                k = n - 1 - kk
                s = b[bb + k * m + c]
                for j in range(k + 1, n):
                    s -= a[ab + k * n + j] * b[bb + j * m + c]
                b[bb + k * m + c] = s / a[ab + k * n + k]


@kernel
def k_lu1(it: kapi.Item, a, b, n, m, info, det, sgn, lad, zero):
    """k_lu with one work-item per matrix, for small matrices (a GPU's
    threads then take one matrix each instead of idling in tiny
    workgroups)."""
    bi = it.get_id(0)
    ab = bi * n * n
    bb = bi * n * m
    swaps = 0
    for k in range(n):
        p = k
        best = abs(a[ab + k * n + k])
        for i in range(k + 1, n):
            v = abs(a[ab + i * n + k])
            if v > best:
                best = v
                p = i
        if p != k:
            swaps += 1
            for j in range(n):
                t = a[ab + k * n + j]
                a[ab + k * n + j] = a[ab + p * n + j]
                a[ab + p * n + j] = t
            for j in range(m):
                t = b[bb + k * m + j]
                b[bb + k * m + j] = b[bb + p * m + j]
                b[bb + p * m + j] = t
        d = a[ab + k * n + k]
        if d != zero:
            for i in range(k + 1, n):
                f = a[ab + i * n + k] / d
                a[ab + i * n + k] = f
                for j in range(k + 1, n):
                    a[ab + i * n + j] -= f * a[ab + k * n + j]
                for j in range(m):
                    b[bb + i * m + j] -= f * b[bb + k * m + j]
    dt = zero + 1
    la = zero
    sg = zero + 1
    sing = 0
    for k in range(n):
        d = a[ab + k * n + k]
        dt = dt * d
        if d == zero:
            sing = 1
        else:
            la += math.log(abs(d))
            if d < zero:
                sg = -sg
    if swaps % 2 == 1:
        dt = -dt
        sg = -sg
    if sing == 1:
        sg = zero
        la = zero - math.inf
    det[bi] = dt
    sgn[bi] = sg
    lad[bi] = la
    info[bi] = sing
    if sing == 0:
        for c in range(m):
            for kk in range(n):
                k = n - 1 - kk
                s = b[bb + k * m + c]
                for j in range(k + 1, n):
                    s -= a[ab + k * n + j] * b[bb + j * m + c]
                b[bb + k * m + c] = s / a[ab + k * n + k]


@kernel
def k_cholesky(it: kapi.Item, a, n, upper, info, zero):
    """The Cholesky factor of each a (n x n, overwritten), from its lower
    triangle; the other triangle zero; upper: the transpose, in place.
    info 1 where a is not positive definite."""
    bi = it.get_id(0)
    ab = bi * n * n
    bad = 0
    for j in range(n):
        s = a[ab + j * n + j]
        for k in range(j):
            s -= a[ab + j * n + k] * a[ab + j * n + k]
        if not (s > zero):
            bad = 1
            s = zero + 1
        d = math.sqrt(s)
        a[ab + j * n + j] = d
        for i in range(j + 1, n):
            t = a[ab + i * n + j]
            for k in range(j):
                t -= a[ab + i * n + k] * a[ab + j * n + k]
            a[ab + i * n + j] = t / d
    for i in range(n):
        for j in range(i + 1, n):
            if upper != 0:
                a[ab + i * n + j] = a[ab + j * n + i]
                a[ab + j * n + i] = zero
            else:
                a[ab + i * n + j] = zero
    info[bi] = bad


@kernel
def k_qr(it: kapi.Item, a, q, v, m, n, zero):
    """Householder QR of each a (m x n, overwritten by R); q (m x m) the
    complete orthogonal factor; v a scratch vector of m per matrix. The
    reflectors are LAPACK's (R's diagonal has the opposite sign of the
    column's leading element), so the factors match NumPy's signs."""
    bi = it.get_id(0)
    ab = bi * m * n
    qb = bi * m * m
    vb = bi * m
    for i in range(m):
        for j in range(m):
            q[qb + i * m + j] = zero
        q[qb + i * m + i] = zero + 1
    for j in range(min(m - 1, n)):
        # The column's sums of squares are taken over the column divided
        # by its largest magnitude mx (LAPACK's scaled norms), so that
        # neither they nor v's overflow or underflow.
        x0 = a[ab + j * n + j]
        mx = abs(x0)
        for i in range(j + 1, m):
            t = abs(a[ab + i * n + j])
            if t > mx:
                mx = t
        if mx == zero:
            mx = zero + 1
        xn = zero
        for i in range(j + 1, m):
            t = a[ab + i * n + j] / mx
            xn += t * t
        nrm = mx * math.sqrt((x0 / mx) * (x0 / mx) + xn)
        alpha = nrm
        if x0 >= zero:
            alpha = -nrm
        v[vb + j] = (x0 - alpha) / mx
        vv = ((x0 - alpha) / mx) * ((x0 - alpha) / mx) + xn
        for i in range(j + 1, m):
            v[vb + i] = a[ab + i * n + j] / mx
        # H = I where the column below the diagonal is zero (LAPACK's
        # dlarfg: tau = 0), so R keeps the diagonal's sign there as
        # NumPy's does; a NaN in the column still reflects.
        if xn != zero:
            for c in range(j, n):
                s = zero
                for i in range(j, m):
                    s += v[vb + i] * a[ab + i * n + c]
                f = 2 * s / vv
                for i in range(j, m):
                    a[ab + i * n + c] -= f * v[vb + i]
            for r in range(m):
                s = zero
                for i in range(j, m):
                    s += q[qb + r * m + i] * v[vb + i]
                f = 2 * s / vv
                for i in range(j, m):
                    q[qb + r * m + i] -= f * v[vb + i]
        for i in range(j + 1, m):
            a[ab + i * n + j] = zero


@kernel
def k_eigh(it: kapi.Item, a, w, vec, n, lower, want, info, zero, eps):
    """Cyclic Jacobi on each symmetric a (n x n, overwritten; read from
    its lower or upper triangle): w the eigenvalues ascending, vec (n x n)
    the eigenvectors as columns when want. info 1 where the sweeps did
    not converge."""
    bi = it.get_id(0)
    ab = bi * n * n
    wb = bi * n
    for i in range(n):
        for j in range(i + 1, n):
            if lower != 0:
                a[ab + i * n + j] = a[ab + j * n + i]
            else:
                a[ab + j * n + i] = a[ab + i * n + j]
    if want != 0:
        for i in range(n):
            for j in range(n):
                vec[ab + i * n + j] = zero
            vec[ab + i * n + i] = zero + 1
    total = zero
    for i in range(n * n):
        total += a[ab + i] * a[ab + i]
    tol = eps * eps * total
    done = 0
    for _sweep in range(MAX_SWEEPS):
        off = zero
        for p in range(n):
            for q in range(p + 1, n):
                off += a[ab + p * n + q] * a[ab + p * n + q]
        if not (off > tol):
            done = 1
            break
        for p in range(n):
            for q in range(p + 1, n):
                apq = a[ab + p * n + q]
                if apq != zero:
                    app = a[ab + p * n + p]
                    aqq = a[ab + q * n + q]
                    th = (aqq - app) / (2 * apq)
                    t = 1 / (abs(th) + math.hypot(th, zero + 1))
                    if th < zero:
                        t = -t
                    c = 1 / math.sqrt(t * t + 1)
                    s = t * c
                    for k in range(n):
                        x = a[ab + k * n + p]
                        y = a[ab + k * n + q]
                        a[ab + k * n + p] = c * x - s * y
                        a[ab + k * n + q] = s * x + c * y
                    for k in range(n):
                        x = a[ab + p * n + k]
                        y = a[ab + q * n + k]
                        a[ab + p * n + k] = c * x - s * y
                        a[ab + q * n + k] = s * x + c * y
                    if want != 0:
                        for k in range(n):
                            x = vec[ab + k * n + p]
                            y = vec[ab + k * n + q]
                            vec[ab + k * n + p] = c * x - s * y
                            vec[ab + k * n + q] = s * x + c * y
    info[bi] = 1 - done
    for i in range(n):
        w[wb + i] = a[ab + i * n + i]
    # ascending, by selection; the eigenvectors' columns with them
    for i in range(n):
        best = i
        for j in range(i + 1, n):
            if w[wb + j] < w[wb + best]:
                best = j
        if best != i:
            t = w[wb + i]
            w[wb + i] = w[wb + best]
            w[wb + best] = t
            if want != 0:
                for k in range(n):
                    t = vec[ab + k * n + i]
                    vec[ab + k * n + i] = vec[ab + k * n + best]
                    vec[ab + k * n + best] = t


@kernel
def k_svd(it: kapi.Item, u, s, vh, m, n, mu, want, info, zero, eps):
    """One-sided Jacobi SVD of each matrix with m >= n rows, given as the
    first n columns of u (m x mu, mu = n or m): s the singular values
    descending; when want, u's columns the left singular vectors (the
    columns past n and those of singular values below eps * ||A||_F
    completed to an orthonormal basis; eps is the convergence threshold,
    m times the dtype's epsilon) and vh (n x n) the right ones'
    transpose. info 1 where the sweeps did not converge."""
    bi = it.get_id(0)
    ub = bi * m * mu
    vb = bi * n * n
    sb = bi * n
    if want != 0:
        for i in range(n):
            for j in range(n):
                vh[vb + i * n + j] = zero
            vh[vb + i * n + i] = zero + 1
    # columns below eps * ||A||_F are zero (rotating rounding noise
    # against the others would never converge); they are completed below
    total = zero
    for i in range(m):
        for j in range(n):
            total += u[ub + i * mu + j] * u[ub + i * mu + j]
    tiny = eps * eps * total
    done = 0
    for _sweep in range(MAX_SWEEPS):
        rot = 0
        for p in range(n):
            for q in range(p + 1, n):
                al = zero
                be = zero
                ga = zero
                for i in range(m):
                    x = u[ub + i * mu + p]
                    y = u[ub + i * mu + q]
                    al += x * x
                    be += y * y
                    ga += x * y
                big = al > tiny and be > tiny
                if big and abs(ga) > eps * math.sqrt(al) * math.sqrt(be):
                    rot += 1
                    ze = (be - al) / (2 * ga)
                    t = 1 / (abs(ze) + math.hypot(ze, zero + 1))
                    if ze < zero:
                        t = -t
                    c = 1 / math.sqrt(t * t + 1)
                    sn = t * c
                    for i in range(m):
                        x = u[ub + i * mu + p]
                        y = u[ub + i * mu + q]
                        u[ub + i * mu + p] = c * x - sn * y
                        u[ub + i * mu + q] = sn * x + c * y
                    if want != 0:
                        for i in range(n):
                            x = vh[vb + p * n + i]
                            y = vh[vb + q * n + i]
                            vh[vb + p * n + i] = c * x - sn * y
                            vh[vb + q * n + i] = sn * x + c * y
        if rot == 0:
            done = 1
            break
    info[bi] = 1 - done
    for j in range(n):
        nrm = zero
        for i in range(m):
            nrm += u[ub + i * mu + j] * u[ub + i * mu + j]
        nrm = math.sqrt(nrm)
        s[sb + j] = nrm
        if want != 0 and nrm * nrm > tiny:
            for i in range(m):
                u[ub + i * mu + j] = u[ub + i * mu + j] / nrm
    # descending, by selection; U's columns and Vh's rows with them
    for i in range(n):
        best = i
        for j in range(i + 1, n):
            if s[sb + j] > s[sb + best]:
                best = j
        if best != i:
            t = s[sb + i]
            s[sb + i] = s[sb + best]
            s[sb + best] = t
            if want != 0:
                for k in range(m):
                    t = u[ub + k * mu + i]
                    u[ub + k * mu + i] = u[ub + k * mu + best]
                    u[ub + k * mu + best] = t
                for k in range(n):
                    t = vh[vb + i * n + k]
                    vh[vb + i * n + k] = vh[vb + best * n + k]
                    vh[vb + best * n + k] = t
    if want != 0:
        # columns of zero singular values and past n: the standard basis
        # vector that keeps most of its length, orthogonalised (twice)
        # against the columns before
        thr = 0.25 / max(m, 1)
        for col in range(mu):
            fill = col >= n
            if not fill:
                fill = not (s[sb + col] * s[sb + col] > tiny)
            if fill:
                found = 0
                for e in range(m):
                    if found == 0:
                        for i in range(m):
                            u[ub + i * mu + col] = zero
                        u[ub + e * mu + col] = zero + 1
                        for _rep in range(2):
                            for j in range(col):
                                d = zero
                                for i in range(m):
                                    d += (
                                        u[ub + i * mu + j]
                                        * u[ub + i * mu + col]
                                    )
                                for i in range(m):
                                    u[ub + i * mu + col] -= (
                                        d * u[ub + i * mu + j]
                                    )
                        nrm = zero
                        for i in range(m):
                            nrm += u[ub + i * mu + col] * u[ub + i * mu + col]
                        if nrm > thr:
                            found = 1
                            nrm = math.sqrt(nrm)
                            for i in range(m):
                                u[ub + i * mu + col] = (
                                    u[ub + i * mu + col] / nrm
                                )


# --- complex matrices --------------------------------------------------------
#
# The same algorithms on complex matrices given as two float arrays, the
# real and the imaginary parts (kernels have no complex scalars): LU for
# the determinant, Cholesky (A = L L^H), Householder QR with LAPACK's
# complex reflectors (R's diagonal real, as NumPy's), and Jacobi for
# Hermitian matrices and the SVD, where each rotation first turns the
# pair's coupling real by a phase on column q, then is a real rotation.


@kernel
def k_lu_c(it: kapi.Item, ar, ai, n, info, dr, di, sr, si, lad, zero):
    """det (dr + i di), its phase (sr + i si) and log|det| of each
    complex a (n x n, overwritten by its LU factors); info 1 where a
    pivot is zero."""
    bi = it.get_id(0)
    ab = bi * n * n
    swaps = 0
    for k in range(n):
        p = k
        best = ar[ab + k * n + k] ** 2 + ai[ab + k * n + k] ** 2
        for i in range(k + 1, n):
            v = ar[ab + i * n + k] ** 2 + ai[ab + i * n + k] ** 2
            if v > best:
                best = v
                p = i
        if p != k:
            swaps += 1
            for j in range(n):
                t = ar[ab + k * n + j]
                ar[ab + k * n + j] = ar[ab + p * n + j]
                ar[ab + p * n + j] = t
                t = ai[ab + k * n + j]
                ai[ab + k * n + j] = ai[ab + p * n + j]
                ai[ab + p * n + j] = t
        pr = ar[ab + k * n + k]
        pi = ai[ab + k * n + k]
        den = pr * pr + pi * pi
        if den != zero:
            for i in range(k + 1, n):
                xr = ar[ab + i * n + k]
                xi = ai[ab + i * n + k]
                fr = (xr * pr + xi * pi) / den
                fi = (xi * pr - xr * pi) / den
                for j in range(k + 1, n):
                    kr = ar[ab + k * n + j]
                    ki = ai[ab + k * n + j]
                    ar[ab + i * n + j] -= fr * kr - fi * ki
                    ai[ab + i * n + j] -= fr * ki + fi * kr
    tr = zero + 1
    ti = zero
    pr = zero + 1
    pi = zero
    la = zero
    sing = 0
    for k in range(n):
        xr = ar[ab + k * n + k]
        xi = ai[ab + k * n + k]
        t = tr * xr - ti * xi
        ti = tr * xi + ti * xr
        tr = t
        h = math.hypot(xr, xi)
        if h == zero:
            sing = 1
        else:
            la += math.log(h)
            t = (pr * xr - pi * xi) / h
            pi = (pr * xi + pi * xr) / h
            pr = t
    if swaps % 2 == 1:
        tr = -tr
        ti = -ti
        pr = -pr
        pi = -pi
    if sing == 1:
        pr = zero
        pi = zero
        la = zero - math.inf
    dr[bi] = tr
    di[bi] = ti
    sr[bi] = pr
    si[bi] = pi
    lad[bi] = la
    info[bi] = sing


@kernel
def k_cholesky_c(it: kapi.Item, ar, ai, n, upper, info, zero):
    """A = L L^H of each Hermitian a (n x n, overwritten; its lower
    triangle read); upper: U = L^H. info 1 where not positive definite."""
    bi = it.get_id(0)
    ab = bi * n * n
    bad = 0
    for j in range(n):
        s = ar[ab + j * n + j]
        for k in range(j):
            s -= ar[ab + j * n + k] ** 2 + ai[ab + j * n + k] ** 2
        if not (s > zero):
            bad = 1
            s = zero + 1
        d = math.sqrt(s)
        ar[ab + j * n + j] = d
        ai[ab + j * n + j] = zero
        for i in range(j + 1, n):
            tr = ar[ab + i * n + j]
            ti = ai[ab + i * n + j]
            for k in range(j):
                xr = ar[ab + i * n + k]
                xi = ai[ab + i * n + k]
                yr = ar[ab + j * n + k]
                yi = ai[ab + j * n + k]
                # x * conj(y)
                tr -= xr * yr + xi * yi
                ti -= xi * yr - xr * yi
            ar[ab + i * n + j] = tr / d
            ai[ab + i * n + j] = ti / d
    for i in range(n):
        for j in range(i + 1, n):
            if upper != 0:
                ar[ab + i * n + j] = ar[ab + j * n + i]
                ai[ab + i * n + j] = -ai[ab + j * n + i]
                ar[ab + j * n + i] = zero
                ai[ab + j * n + i] = zero
            else:
                ar[ab + i * n + j] = zero
                ai[ab + i * n + j] = zero
    info[bi] = bad


@kernel
def k_qr_c(it: kapi.Item, ar, ai, qr, qi, vr, vi, m, n, zero):
    """Householder QR of each complex a (m x n, overwritten by R); q
    (m x m) the complete unitary factor; v a scratch vector of m. The
    reflectors H = I - tau v v^H are LAPACK's (zlarfg), so R's diagonal
    is real as NumPy's."""
    bi = it.get_id(0)
    ab = bi * m * n
    qb = bi * m * m
    vb = bi * m
    for i in range(m):
        for j in range(m):
            qr[qb + i * m + j] = zero
            qi[qb + i * m + j] = zero
        qr[qb + i * m + i] = zero + 1
    for j in range(min(m - 1, n)):
        alr = ar[ab + j * n + j]
        ali = ai[ab + j * n + j]
        # Sums of squares over the column divided by its largest part mx
        # (LAPACK's scaled norms: no overflow or underflow).
        mx = abs(alr)
        if abs(ali) > mx:
            mx = abs(ali)
        for i in range(j + 1, m):
            t = abs(ar[ab + i * n + j])
            if t > mx:
                mx = t
            t = abs(ai[ab + i * n + j])
            if t > mx:
                mx = t
        if mx == zero:
            mx = zero + 1
        xn = zero
        for i in range(j + 1, m):
            xn += (ar[ab + i * n + j] / mx) ** 2 + (
                ai[ab + i * n + j] / mx
            ) ** 2
        if xn != zero or ali != zero:  # (a NaN reflects: not dropped)
            beta = mx * math.sqrt((alr / mx) ** 2 + (ali / mx) ** 2 + xn)
            if alr >= zero:
                beta = -beta
            taur = (beta - alr) / beta
            taui = -ali / beta
            # v = [1; x / (alpha - beta)], the division scaled by the
            # larger part sd of alpha - beta (|x| <= |beta| <= sd)
            dr = alr - beta
            di = ali
            sd = abs(dr)
            if abs(di) > sd:
                sd = abs(di)
            dr = dr / sd
            di = di / sd
            den = dr * dr + di * di
            vr[vb + j] = zero + 1
            vi[vb + j] = zero
            for i in range(j + 1, m):
                xr = ar[ab + i * n + j]
                xi = ai[ab + i * n + j]
                vr[vb + i] = (xr * dr + xi * di) / den / sd
                vi[vb + i] = (xi * dr - xr * di) / den / sd
            # A := H^H A on the columns j.., H^H = I - conj(tau) v v^H
            for c in range(j, n):
                wr = zero
                wi = zero
                for i in range(j, m):
                    xr = ar[ab + i * n + c]
                    xi = ai[ab + i * n + c]
                    # conj(v_i) * x
                    wr += vr[vb + i] * xr + vi[vb + i] * xi
                    wi += vr[vb + i] * xi - vi[vb + i] * xr
                # f = conj(tau) * w
                fr = taur * wr + taui * wi
                fi = taur * wi - taui * wr
                for i in range(j, m):
                    ar[ab + i * n + c] -= fr * vr[vb + i] - fi * vi[vb + i]
                    ai[ab + i * n + c] -= fr * vi[vb + i] + fi * vr[vb + i]
            # Q := Q H, H = I - tau v v^H
            for r in range(m):
                wr = zero
                wi = zero
                for i in range(j, m):
                    xr = qr[qb + r * m + i]
                    xi = qi[qb + r * m + i]
                    wr += xr * vr[vb + i] - xi * vi[vb + i]
                    wi += xr * vi[vb + i] + xi * vr[vb + i]
                # f = tau * w; q_ri -= f * conj(v_i)
                fr = taur * wr - taui * wi
                fi = taur * wi + taui * wr
                for i in range(j, m):
                    qr[qb + r * m + i] -= fr * vr[vb + i] + fi * vi[vb + i]
                    qi[qb + r * m + i] -= fi * vr[vb + i] - fr * vi[vb + i]
            ar[ab + j * n + j] = beta
            ai[ab + j * n + j] = zero
        for i in range(j + 1, m):
            ar[ab + i * n + j] = zero
            ai[ab + i * n + j] = zero
    # the last diagonal element of a square or wide matrix: LAPACK makes
    # it real too (a reflector that is a phase)
    if m <= n and m > 0:
        j = m - 1
        alr = ar[ab + j * n + j]
        ali = ai[ab + j * n + j]
        if ali != zero:
            # |alpha| scaled by its larger part (math.hypot may square)
            sh = abs(alr)
            if abs(ali) > sh:
                sh = abs(ali)
            h = sh * math.sqrt((alr / sh) ** 2 + (ali / sh) ** 2)
            beta = h
            if alr >= zero:
                beta = -h
            # H^H = conj(phase) on row j of R, Q's column j times phase
            pr = alr / beta
            pi = ali / beta
            for c in range(j, n):
                xr = ar[ab + j * n + c]
                xi = ai[ab + j * n + c]
                ar[ab + j * n + c] = xr * pr + xi * pi
                ai[ab + j * n + c] = xi * pr - xr * pi
            for r in range(m):
                xr = qr[qb + r * m + j]
                xi = qi[qb + r * m + j]
                qr[qb + r * m + j] = xr * pr - xi * pi
                qi[qb + r * m + j] = xr * pi + xi * pr
            ai[ab + j * n + j] = zero


@kernel
def k_eigh_c(
    it: kapi.Item, ar, ai, w, vr, vi, n, lower, want, info, zero, eps
):
    """Cyclic Jacobi on each Hermitian a (n x n, overwritten; read from
    one triangle): w the eigenvalues ascending, (vr, vi) the eigenvectors
    as columns when want. info 1 where the sweeps did not converge."""
    bi = it.get_id(0)
    ab = bi * n * n
    wb = bi * n
    for i in range(n):
        ai[ab + i * n + i] = zero
        for j in range(i + 1, n):
            if lower != 0:
                ar[ab + i * n + j] = ar[ab + j * n + i]
                ai[ab + i * n + j] = -ai[ab + j * n + i]
            else:
                ar[ab + j * n + i] = ar[ab + i * n + j]
                ai[ab + j * n + i] = -ai[ab + i * n + j]
    if want != 0:
        for i in range(n):
            for j in range(n):
                vr[ab + i * n + j] = zero
                vi[ab + i * n + j] = zero
            vr[ab + i * n + i] = zero + 1
    total = zero
    for i in range(n * n):
        total += ar[ab + i] ** 2 + ai[ab + i] ** 2
    tol = eps * eps * total
    done = 0
    for _sweep in range(MAX_SWEEPS):
        off = zero
        for p in range(n):
            for q in range(p + 1, n):
                off += ar[ab + p * n + q] ** 2 + ai[ab + p * n + q] ** 2
        if not (off > tol):
            done = 1
            break
        for p in range(n):
            for q in range(p + 1, n):
                h = math.hypot(ar[ab + p * n + q], ai[ab + p * n + q])
                if h != zero:
                    # phase e = a_pq / |a_pq|: column q times conj(e),
                    # row q times e, so that a_pq becomes |a_pq|
                    er = ar[ab + p * n + q] / h
                    ei = ai[ab + p * n + q] / h
                    for k in range(n):
                        xr = ar[ab + k * n + q]
                        xi = ai[ab + k * n + q]
                        ar[ab + k * n + q] = xr * er + xi * ei
                        ai[ab + k * n + q] = xi * er - xr * ei
                    for k in range(n):
                        xr = ar[ab + q * n + k]
                        xi = ai[ab + q * n + k]
                        ar[ab + q * n + k] = xr * er - xi * ei
                        ai[ab + q * n + k] = xr * ei + xi * er
                    if want != 0:
                        for k in range(n):
                            xr = vr[ab + k * n + q]
                            xi = vi[ab + k * n + q]
                            vr[ab + k * n + q] = xr * er + xi * ei
                            vi[ab + k * n + q] = xi * er - xr * ei
                    app = ar[ab + p * n + p]
                    aqq = ar[ab + q * n + q]
                    th = (aqq - app) / (2 * h)
                    t = 1 / (abs(th) + math.hypot(th, zero + 1))
                    if th < zero:
                        t = -t
                    c = 1 / math.sqrt(t * t + 1)
                    s = t * c
                    for k in range(n):
                        xr = ar[ab + k * n + p]
                        yr = ar[ab + k * n + q]
                        xi = ai[ab + k * n + p]
                        yi = ai[ab + k * n + q]
                        ar[ab + k * n + p] = c * xr - s * yr
                        ar[ab + k * n + q] = s * xr + c * yr
                        ai[ab + k * n + p] = c * xi - s * yi
                        ai[ab + k * n + q] = s * xi + c * yi
                    for k in range(n):
                        xr = ar[ab + p * n + k]
                        yr = ar[ab + q * n + k]
                        xi = ai[ab + p * n + k]
                        yi = ai[ab + q * n + k]
                        ar[ab + p * n + k] = c * xr - s * yr
                        ar[ab + q * n + k] = s * xr + c * yr
                        ai[ab + p * n + k] = c * xi - s * yi
                        ai[ab + q * n + k] = s * xi + c * yi
                    if want != 0:
                        for k in range(n):
                            xr = vr[ab + k * n + p]
                            yr = vr[ab + k * n + q]
                            xi = vi[ab + k * n + p]
                            yi = vi[ab + k * n + q]
                            vr[ab + k * n + p] = c * xr - s * yr
                            vr[ab + k * n + q] = s * xr + c * yr
                            vi[ab + k * n + p] = c * xi - s * yi
                            vi[ab + k * n + q] = s * xi + c * yi
    info[bi] = 1 - done
    for i in range(n):
        w[wb + i] = ar[ab + i * n + i]
    for i in range(n):
        best = i
        for j in range(i + 1, n):
            if w[wb + j] < w[wb + best]:
                best = j
        if best != i:
            t = w[wb + i]
            w[wb + i] = w[wb + best]
            w[wb + best] = t
            if want != 0:
                for k in range(n):
                    t = vr[ab + k * n + i]
                    vr[ab + k * n + i] = vr[ab + k * n + best]
                    vr[ab + k * n + best] = t
                    t = vi[ab + k * n + i]
                    vi[ab + k * n + i] = vi[ab + k * n + best]
                    vi[ab + k * n + best] = t


@kernel
def k_svd_c(it: kapi.Item, ur, ui, s, hr, hi, m, n, mu, want, info, zero, eps):
    """One-sided Jacobi SVD of each complex matrix with m >= n rows,
    given as the first n columns of (ur, ui) (m x mu): as k_svd, with
    (hr, hi) = Vh (n x n); k_svd_basis_c completes U."""
    bi = it.get_id(0)
    ub = bi * m * mu
    vb = bi * n * n
    sb = bi * n
    if want != 0:
        for i in range(n):
            for j in range(n):
                hr[vb + i * n + j] = zero
                hi[vb + i * n + j] = zero
            hr[vb + i * n + i] = zero + 1
    total = zero
    for i in range(m):
        for j in range(n):
            total += ur[ub + i * mu + j] ** 2 + ui[ub + i * mu + j] ** 2
    tiny = eps * eps * total
    done = 0
    for _sweep in range(MAX_SWEEPS):
        rot = 0
        for p in range(n):
            for q in range(p + 1, n):
                al = zero
                be = zero
                gr = zero
                gi = zero
                for i in range(m):
                    xr = ur[ub + i * mu + p]
                    xi = ui[ub + i * mu + p]
                    yr = ur[ub + i * mu + q]
                    yi = ui[ub + i * mu + q]
                    al += xr * xr + xi * xi
                    be += yr * yr + yi * yi
                    gr += xr * yr + xi * yi
                    gi += xr * yi - xi * yr
                ga = math.hypot(gr, gi)
                big = al > tiny and be > tiny
                if big and ga > eps * math.sqrt(al) * math.sqrt(be):
                    rot += 1
                    er = gr / ga
                    ei = gi / ga
                    # column q of U times conj(e), row q of Vh times e
                    for i in range(m):
                        yr = ur[ub + i * mu + q]
                        yi = ui[ub + i * mu + q]
                        ur[ub + i * mu + q] = yr * er + yi * ei
                        ui[ub + i * mu + q] = yi * er - yr * ei
                    if want != 0:
                        for i in range(n):
                            yr = hr[vb + q * n + i]
                            yi = hi[vb + q * n + i]
                            hr[vb + q * n + i] = yr * er - yi * ei
                            hi[vb + q * n + i] = yr * ei + yi * er
                    ze = (be - al) / (2 * ga)
                    t = 1 / (abs(ze) + math.hypot(ze, zero + 1))
                    if ze < zero:
                        t = -t
                    c = 1 / math.sqrt(t * t + 1)
                    sn = t * c
                    for i in range(m):
                        xr = ur[ub + i * mu + p]
                        yr = ur[ub + i * mu + q]
                        xi = ui[ub + i * mu + p]
                        yi = ui[ub + i * mu + q]
                        ur[ub + i * mu + p] = c * xr - sn * yr
                        ur[ub + i * mu + q] = sn * xr + c * yr
                        ui[ub + i * mu + p] = c * xi - sn * yi
                        ui[ub + i * mu + q] = sn * xi + c * yi
                    if want != 0:
                        for i in range(n):
                            xr = hr[vb + p * n + i]
                            yr = hr[vb + q * n + i]
                            xi = hi[vb + p * n + i]
                            yi = hi[vb + q * n + i]
                            hr[vb + p * n + i] = c * xr - sn * yr
                            hr[vb + q * n + i] = sn * xr + c * yr
                            hi[vb + p * n + i] = c * xi - sn * yi
                            hi[vb + q * n + i] = sn * xi + c * yi
        if rot == 0:
            done = 1
            break
    info[bi] = 1 - done
    for j in range(n):
        nrm = zero
        for i in range(m):
            nrm += ur[ub + i * mu + j] ** 2 + ui[ub + i * mu + j] ** 2
        nrm = math.sqrt(nrm)
        s[sb + j] = nrm
        if want != 0 and nrm * nrm > tiny:
            for i in range(m):
                ur[ub + i * mu + j] = ur[ub + i * mu + j] / nrm
                ui[ub + i * mu + j] = ui[ub + i * mu + j] / nrm
    for i in range(n):
        best = i
        for j in range(i + 1, n):
            if s[sb + j] > s[sb + best]:
                best = j
        if best != i:
            t = s[sb + i]
            s[sb + i] = s[sb + best]
            s[sb + best] = t
            if want != 0:
                for k in range(m):
                    t = ur[ub + k * mu + i]
                    ur[ub + k * mu + i] = ur[ub + k * mu + best]
                    ur[ub + k * mu + best] = t
                    t = ui[ub + k * mu + i]
                    ui[ub + k * mu + i] = ui[ub + k * mu + best]
                    ui[ub + k * mu + best] = t
                for k in range(n):
                    t = hr[vb + i * n + k]
                    hr[vb + i * n + k] = hr[vb + best * n + k]
                    hr[vb + best * n + k] = t
                    t = hi[vb + i * n + k]
                    hi[vb + i * n + k] = hi[vb + best * n + k]
                    hi[vb + best * n + k] = t


@kernel
def k_svd_basis_c(it: kapi.Item, ur, ui, s, m, n, mu, zero, eps):
    """Completes each complex U of k_svd_c to an orthonormal basis: its
    columns past n, and those of negligible singular values, become unit
    vectors orthogonal to the others (Gram-Schmidt, twice, from the first
    unit vector that keeps enough of its length)."""
    bi = it.get_id(0)
    ub = bi * m * mu
    sb = bi * n
    total = zero
    for j in range(n):
        total += s[sb + j] * s[sb + j]
    tiny = eps * eps * total
    thr = 0.25 / max(m, 1)
    for col in range(mu):
        fill = col >= n
        if not fill:
            fill = not (s[sb + col] * s[sb + col] > tiny)
        if fill:
            found = 0
            for e in range(m):
                if found == 0:
                    for i in range(m):
                        ur[ub + i * mu + col] = zero
                        ui[ub + i * mu + col] = zero
                    ur[ub + e * mu + col] = zero + 1
                    for _rep in range(2):
                        for j in range(col):
                            # d = u_j^H u_col; u_col -= d u_j
                            dr = zero
                            di = zero
                            for i in range(m):
                                xr = ur[ub + i * mu + j]
                                xi = ui[ub + i * mu + j]
                                yr = ur[ub + i * mu + col]
                                yi = ui[ub + i * mu + col]
                                dr += xr * yr + xi * yi
                                di += xr * yi - xi * yr
                            for i in range(m):
                                xr = ur[ub + i * mu + j]
                                xi = ui[ub + i * mu + j]
                                ur[ub + i * mu + col] -= dr * xr - di * xi
                                ui[ub + i * mu + col] -= dr * xi + di * xr
                    nrm = zero
                    for i in range(m):
                        nrm += (
                            ur[ub + i * mu + col] ** 2
                            + ui[ub + i * mu + col] ** 2
                        )
                    if nrm > thr:
                        found = 1
                        nrm = math.sqrt(nrm)
                        for i in range(m):
                            ur[ub + i * mu + col] = ur[ub + i * mu + col] / nrm
                            ui[ub + i * mu + col] = ui[ub + i * mu + col] / nrm
