"""sluice.random against the laws of its distributions: every name of
dpnp.random, seeded and reproducible per device, with sample means and
variances within a few standard errors of the exact ones, and chi-square
goodness of fit for the discrete laws, on each device."""

import math

import numpy as np
import pytest
from conftest import usable_device

import sluice

N = 200_000


def A(x):
    return sluice.asnumpy(x)


def _lgamma_pmf(logp):
    return np.exp(np.asarray(logp, dtype=np.float64))


def _poisson_pmf(lam, k):
    return _lgamma_pmf(
        [j * math.log(lam) - lam - math.lgamma(j + 1) for j in k]
    )


def _binomial_pmf(n, p, k):
    return _lgamma_pmf(
        [
            math.lgamma(n + 1)
            - math.lgamma(j + 1)
            - math.lgamma(n - j + 1)
            + j * math.log(p)
            + (n - j) * math.log1p(-p)
            for j in k
        ]
    )


def _hyper_pmf(g, b, m, k):
    def lc(n, r):
        return math.lgamma(n + 1) - math.lgamma(r + 1) - math.lgamma(n - r + 1)

    return _lgamma_pmf([lc(g, j) + lc(b, m - j) - lc(g + b, m) for j in k])


def _nbinom_pmf(n, p, k):
    return _lgamma_pmf(
        [
            math.lgamma(j + n)
            - math.lgamma(n)
            - math.lgamma(j + 1)
            + n * math.log(p)
            + j * math.log1p(-p)
            for j in k
        ]
    )


def _chi2_fit(sample, pmf, lo, hi):
    """Pearson's statistic of the counts of lo..hi-1 (the rest pooled)
    against the pmf; asserted below a bound far in the tail of its
    chi-square law (about 6 standard deviations)."""
    k = np.arange(lo, hi)
    p = pmf(k)
    keep = p * sample.size >= 5
    k, p = k[keep], p[keep]
    obs = np.array([(sample == j).sum() for j in k], dtype=np.float64)
    rest_p = max(1.0 - p.sum(), 0.0)
    obs = np.append(obs, sample.size - obs.sum())
    exp = np.append(p, rest_p) * sample.size
    m = exp > 0
    stat = (((obs - exp) ** 2)[m] / exp[m]).sum()
    df = m.sum() - 1
    assert stat < df + 6 * math.sqrt(2 * df) + 10, (stat, df)


# name, args, exact mean, exact variance (None: infinite or not checked)
CONTINUOUS = [
    ("uniform", (-2.0, 3.0), 0.5, 25 / 12),
    ("normal", (1.5, 2.0), 1.5, 4.0),
    ("standard_normal", (), 0.0, 1.0),
    ("exponential", (2.0,), 2.0, 4.0),
    ("standard_exponential", (), 1.0, 1.0),
    ("gamma", (0.5, 2.0), 1.0, 2.0),
    ("gamma", (3.0, 0.5), 1.5, 0.75),
    ("standard_gamma", (2.5,), 2.5, 2.5),
    ("beta", (2.0, 5.0), 2 / 7, 10 / (49 * 8)),
    ("chisquare", (3.0,), 3.0, 6.0),
    ("chisquare", (0.5,), 0.5, 1.0),
    ("f", (5.0, 10.0), 10 / 8, None),
    ("standard_t", (5.0,), 0.0, 5 / 3),
    ("gumbel", (1.0, 2.0), 1.0 + 2.0 * 0.5772156649015329, math.pi**2 / 6 * 4),
    ("laplace", (-1.0, 0.5), -1.0, 2 * 0.25),
    ("logistic", (2.0, 0.5), 2.0, 0.25 * math.pi**2 / 3),
    ("lognormal", (0.2, 0.5), math.exp(0.2 + 0.125), None),
    ("rayleigh", (2.0,), 2.0 * math.sqrt(math.pi / 2), (4 - math.pi) / 2 * 4),
    ("weibull", (2.0,), math.gamma(1.5), math.gamma(2) - math.gamma(1.5) ** 2),
    ("pareto", (10.0,), 1 / 9, 10 / (81 * 8)),
    ("power", (3.0,), 3 / 4, 3 / (16 * 5)),
    ("triangular", (-1.0, 0.5, 2.0), 0.5, (1 + 0.25 + 4 + 0.5 + 2 - 1) / 18),
    ("wald", (2.0, 3.0), 2.0, 8 / 3),
    ("vonmises", (0.5, 4.0), 0.5, None),
    ("noncentral_chisquare", (3.0, 2.0), 5.0, 2 * (3 + 4)),
    ("noncentral_chisquare", (0.5, 1.5), 2.0, 2 * (0.5 + 3)),
    ("noncentral_f", (5.0, 12.0, 2.0), 12 * 7 / (5 * 10), None),
]


@pytest.mark.parametrize("name,args,mean,var", CONTINUOUS)
def test_continuous_moments(device, name, args, mean, var):
    r = sluice.random.RandomState(1234, device=device)
    x = getattr(r, name)(*args, size=N)
    assert x.sycl_device == device and x.shape == (N,)
    v = A(x).astype(np.float64)
    assert v.dtype.kind == "f" and np.isfinite(v).all()
    sd = math.sqrt(var) if var is not None else v.std()
    assert abs(v.mean() - mean) < 6 * sd / math.sqrt(N) + 1e-6, v.mean()
    if var is not None:
        assert abs(v.var() - var) < 0.04 * var, (v.var(), var)
    # the same seed, the same numbers; the next draw differs
    again = getattr(sluice.random.RandomState(1234, device=device), name)
    np.testing.assert_array_equal(A(again(*args, size=N)), A(x))
    assert not np.array_equal(A(getattr(r, name)(*args, size=N)), A(x))


def test_continuous_supports(device):
    r = sluice.random.RandomState(5, device=device)
    assert (A(r.triangular(-1.0, 0.5, 2.0, size=N)) >= -1).all()
    assert (A(r.triangular(-1.0, 0.5, 2.0, size=N)) <= 2).all()
    vm = A(r.vonmises(3.0, 0.5, size=N))
    assert (vm >= -math.pi).all() and (vm < math.pi).all()
    # von Mises: E[cos(x - mu)] = I1(kappa) / I0(kappa)
    assert (
        abs(np.cos(A(r.vonmises(0.5, 4.0, size=N)) - 0.5).mean() - 0.8635)
        < 0.005
    )
    assert (A(r.power(0.5, size=N)) <= 1).all()
    assert (A(r.pareto(3.0, size=N)) >= 0).all()
    c = A(r.standard_cauchy(size=N))
    assert (
        abs(np.median(c)) < 0.02 and abs(np.mean(np.abs(c) < 1) - 0.5) < 0.01
    )
    d = A(r.dirichlet([1.0, 2.0, 3.0], size=(N // 4, 2)))
    assert d.shape == (N // 4, 2, 3)
    np.testing.assert_allclose(d.sum(-1), 1.0, rtol=1e-6)
    np.testing.assert_allclose(
        d.reshape(-1, 3).mean(0), [1 / 6, 2 / 6, 3 / 6], atol=0.004
    )
    z = A(r.dirichlet([0.0, 2.0], size=10))
    assert (z[:, 0] == 0).all() and (z[:, 1] == 1).all()
    cov = np.array([[2.0, 0.6, 0.0], [0.6, 1.0, -0.3], [0.0, -0.3, 0.5]])
    mvn = A(r.multivariate_normal([1.0, -1.0, 0.0], cov, size=(N // 4,)))
    assert mvn.shape == (N // 4, 3)
    np.testing.assert_allclose(mvn.mean(0), [1.0, -1.0, 0.0], atol=0.02)
    np.testing.assert_allclose(np.cov(mvn.T), cov, atol=0.03)
    with pytest.warns(RuntimeWarning):
        r.multivariate_normal([0.0, 0.0], [[1.0, 2.0], [2.0, 1.0]], size=3)
    with pytest.raises(ValueError):
        r.multivariate_normal(
            [0.0, 0.0], [[1.0, 2.0], [2.0, 1.0]], check_valid="raise"
        )


DISCRETE = [
    ("poisson", (3.5,), lambda k: _poisson_pmf(3.5, k), 0, 40),
    ("poisson", (42.0,), lambda k: _poisson_pmf(42.0, k), 0, 120),
    ("poisson", (0.0,), lambda k: (k == 0).astype(float), 0, 3),
    ("binomial", (8, 0.25), lambda k: _binomial_pmf(8, 0.25, k), 0, 9),
    ("binomial", (300, 0.3), lambda k: _binomial_pmf(300, 0.3, k), 0, 301),
    (
        "binomial",
        (1000, 0.96),
        lambda k: _binomial_pmf(1000, 0.96, k),
        0,
        1001,
    ),
    ("binomial", (5, 1.0), lambda k: (k == 5).astype(float), 0, 7),
    ("geometric", (0.3,), lambda k: 0.3 * 0.7 ** (k - 1.0) * (k >= 1), 0, 60),
    ("geometric", (1.0,), lambda k: (k == 1).astype(float), 0, 3),
    (
        "negative_binomial",
        (3.5, 0.4),
        lambda k: _nbinom_pmf(3.5, 0.4, k),
        0,
        60,
    ),
    (
        "hypergeometric",
        (30, 20, 12),
        lambda k: _hyper_pmf(30, 20, 12, k),
        0,
        13,
    ),
    ("hypergeometric", (5, 40, 38), lambda k: _hyper_pmf(5, 40, 38, k), 0, 6),
    (
        "logseries",
        (0.6,),
        lambda k: -(0.6**k) / (k * math.log(0.4) + (k == 0)) * (k >= 1),
        0,
        40,
    ),
    (
        "zipf",
        (2.5,),
        lambda k: (
            np.where(k >= 1, np.maximum(k, 1.0) ** -2.5, 0) / 1.341487257250917
        ),
        0,
        60,
    ),
]


@pytest.mark.parametrize("name,args,pmf,lo,hi", DISCRETE)
def test_discrete_laws(device, name, args, pmf, lo, hi):
    r = sluice.random.RandomState(99, device=device)
    x = getattr(r, name)(*args, size=N)
    assert x.sycl_device == device
    v = A(x)
    assert v.dtype == np.int64 and v.shape == (N,)
    _chi2_fit(v, pmf, lo, hi)
    again = getattr(sluice.random.RandomState(99, device=device), name)
    np.testing.assert_array_equal(A(again(*args, size=N)), v)


def test_large_parameters(device):
    r = sluice.random.RandomState(3, device=device)
    # Poisson beyond Knuth's product (which gave up above 1e4) and a
    # binomial with a billion trials (a sum of Bernoullis would not end)
    p = A(r.poisson(1e6, size=N)).astype(np.float64)
    assert (
        abs(p.mean() - 1e6) < 6 * 1e3 / math.sqrt(N)
        and abs(p.var() / 1e6 - 1) < 0.04
    )
    b = A(r.binomial(10**9, 0.25, size=N)).astype(np.float64)
    sd = math.sqrt(10**9 * 0.25 * 0.75)
    assert abs(b.mean() - 2.5e8) < 6 * sd / math.sqrt(N)
    assert abs(b.var() / sd**2 - 1) < 0.04
    h = A(r.hypergeometric(10**6, 10**6, 10**5, size=200)).astype(np.float64)
    assert abs(h.mean() - 5e4) < 6 * 155 / math.sqrt(200)


def test_multinomial(device):
    r = sluice.random.RandomState(8, device=device)
    pv = [0.2, 0.5, 0.1, 0.2]
    m = A(r.multinomial(40, pv, size=(N // 4,)))
    assert m.shape == (N // 4, 4) and m.dtype == np.int64
    assert (m.sum(-1) == 40).all()
    np.testing.assert_allclose(m.mean(0), 40 * np.array(pv), rtol=0.01)
    np.testing.assert_allclose(
        m.var(0), 40 * np.array(pv) * (1 - np.array(pv)), rtol=0.04
    )
    z = A(r.multinomial(7, [0.0, 1.0, 0.0], size=5))
    assert (z == [0, 7, 0]).all()
    assert A(r.multinomial(3, [0.5, 0.5])).shape == (2,)
    with pytest.raises(ValueError):
        r.multinomial(3, [0.8, 0.8, 0.1])


def test_bytes_state_and_module_functions(device):
    r = sluice.random.RandomState(4, device=device)
    b = r.bytes(1000)
    assert isinstance(b, bytes) and len(b) == 1000 and len(set(b)) > 200
    assert r.bytes(0) == b""
    st = r.get_state()
    a1 = A(r.gumbel(size=100))
    r.set_state(st)
    np.testing.assert_array_equal(A(r.gumbel(size=100)), a1)
    old = sluice.random.get_random_state()
    try:
        sluice.random.set_random_state(
            sluice.random.RandomState(17, device=device)
        )
        x = A(sluice.random.laplace(size=50))
        sluice.random.set_random_state(
            sluice.random.RandomState(17, device=device)
        )
        np.testing.assert_array_equal(A(sluice.random.laplace(size=50)), x)
        assert sluice.random.get_random_state().get_state()[2] == 50
        for name in ("wald", "zipf", "weibull", "standard_cauchy"):
            assert callable(getattr(sluice.random, name))
        with pytest.raises(TypeError):
            sluice.random.set_random_state(np.random.RandomState(0))
    finally:
        sluice.random.set_random_state(old)


@pytest.mark.parametrize(
    "name,args",
    [
        ("gumbel", (0.0, -1.0)),
        ("laplace", (0.0, float("nan"))),
        ("weibull", (-1.0,)),
        ("pareto", (0.0,)),
        ("power", (-2.0,)),
        ("triangular", (1.0, 0.0, 2.0)),
        ("triangular", (1.0, 1.0, 1.0)),
        ("wald", (0.0, 1.0)),
        ("vonmises", (0.0, -1.0)),
        ("chisquare", (0.0,)),
        ("f", (1.0, 0.0)),
        ("standard_t", (-1.0,)),
        ("geometric", (0.0,)),
        ("geometric", (1.5,)),
        ("logseries", (1.0,)),
        ("zipf", (1.0,)),
        ("negative_binomial", (0.0, 0.5)),
        ("hypergeometric", (2, 3, 6)),
        ("hypergeometric", (-1, 3, 1)),
        ("poisson", (-1.0,)),
        ("binomial", (5, 1.5)),
        ("noncentral_chisquare", (1.0, -1.0)),
        ("dirichlet", ([1.0, -1.0],)),
        ("multinomial", (-1, [0.5, 0.5])),
    ],
)
def test_bad_parameters(device, name, args):
    r = sluice.random.RandomState(0, device=device)
    with pytest.raises(ValueError):
        getattr(r, name)(*args, size=3)


def test_shapes_and_empty(device):
    r = sluice.random.RandomState(0, device=device)
    for name, args in [
        ("gumbel", ()),
        ("logistic", ()),
        ("standard_t", (3.0,)),
        ("zipf", (2.0,)),
        ("geometric", (0.5,)),
        ("hypergeometric", (3, 4, 2)),
    ]:
        f = getattr(r, name)
        assert f(*args, size=(2, 0, 3)).shape == (2, 0, 3)
        assert f(*args, size=(2, 3)).shape == (2, 3)
        assert f(*args).shape == ()
    assert r.dirichlet([1.0, 1.0], size=0).shape == (0, 2)
    assert r.multinomial(5, [0.5, 0.5], size=(0,)).shape == (0, 2)
    assert r.multivariate_normal([0.0], [[1.0]], size=(0,)).shape == (0, 1)


def test_same_numbers_on_every_device(host):
    """A seed gives the same numbers on the host and on OpenCL (up to the
    last bits of the transcendental functions)."""
    ocl = usable_device("opencl:cpu:0")
    if ocl is None:
        pytest.skip("no OpenCL CPU device that compiles")
    for name, args in [
        ("gumbel", (1.0, 2.0)),
        ("zipf", (2.0,)),
        ("binomial", (100, 0.4)),
        ("poisson", (30.0,)),
    ]:
        a = A(
            getattr(sluice.random.RandomState(6, device=host), name)(
                *args, size=5000
            )
        )
        b = A(
            getattr(sluice.random.RandomState(6, device=ocl), name)(
                *args, size=5000
            )
        )
        if a.dtype.kind == "f":
            np.testing.assert_allclose(a, b, rtol=1e-9)
        else:
            assert (a != b).mean() < 1e-3


def test_no_draws_inside_jit(device):
    """A draw in a traced function would be made once, at trace time (every
    call the same numbers): a TracerError says so."""
    x = sluice.zeros(3, device=device)
    for draw in (
        lambda: sluice.random.rand(3, device=device),
        lambda: sluice.random.RandomState(1, device=device).gumbel(size=3),
        lambda: sluice.random.permutation(3),
    ):
        f = sluice.jit(lambda a, draw=draw: a + draw())
        with pytest.raises(sluice.TracerError, match="when the function"):
            f(x)


@pytest.mark.parametrize(
    "name,args",
    [
        ("normal", ([1.0, 2.0],)),
        ("gumbel", (np.array([1.0, 2.0]),)),
        ("poisson", ([1.0, 2.0],)),
        ("gamma", (np.ones(2),)),
        ("binomial", (5, [0.5, 0.5])),
        ("hypergeometric", (3, [2, 2], 1)),
    ],
)
def test_array_parameters_are_refused(device, name, args):
    r = sluice.random.RandomState(0, device=device)
    with pytest.raises(TypeError, match="must be a scalar"):
        getattr(r, name)(*args, size=2)
    with pytest.raises(TypeError, match="must be a scalar"):
        getattr(sluice.random, name)(*args, size=2)
    # a 0-d array is a scalar
    assert r.normal(sluice.asarray(3.0, device=device)).shape == ()
