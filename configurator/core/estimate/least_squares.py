"""The throughput fit's numerical core: Levenberg–Marquardt on log error with a ridge towards the
priors, over the model's terms (:func:`configurator.core.estimate.throughput.terms`).

Apart from :mod:`configurator.core.estimate.fit` so that the model, which the engine imports, does not
load numpy: the fit only runs once a build has a GPU or a CPU to estimate."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from configurator.core.estimate import throughput as tp

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class _Design:
    a: FloatArray  # (T,) work over rate of each term
    row: npt.NDArray[np.int64]  # (T,) the row each term belongs to
    s: FloatArray  # (T, P) exponents
    log_units: FloatArray  # (N,)
    n: int


def _design(cases: Sequence[tuple[tp.Case, tp.Hw]]) -> _Design:
    a: list[float] = []
    row: list[int] = []
    s_rows: list[list[float]] = []
    p = len(tp.NAMES)
    for i, (c, hw) in enumerate(cases):
        for t in tp.terms(c, hw):
            a.append(t.a)
            row.append(i)
            vec = [0.0] * p
            for j, sign in t.params:
                vec[j] += sign
            s_rows.append(vec)
    return _Design(np.array(a, dtype=np.float64), np.array(row, dtype=np.int64),
                   np.array(s_rows, dtype=np.float64).reshape(len(a), p),
                   np.log(np.array([c.units for c, _hw in cases], dtype=np.float64)), len(cases))


def _predict(d: _Design, theta: FloatArray) -> tuple[FloatArray, FloatArray]:
    """log predicted rate (N,) and its Jacobian (N, P)."""
    e = d.a * np.exp(d.s @ theta)
    t = np.bincount(d.row, weights=e, minlength=d.n)
    weighted = e[:, None] * d.s
    jt = np.zeros((d.n, d.s.shape[1]))
    np.add.at(jt, d.row, weighted)
    return d.log_units - np.log(t), -jt / t[:, None]


def _lm(d: _Design, y: FloatArray, theta0: FloatArray, mu: FloatArray, lam: FloatArray,
        iterations: int = 60) -> FloatArray:
    theta = theta0.copy()

    def cost(th: FloatArray) -> float:
        pred, _ = _predict(d, th)
        return float(np.sum((pred - y) ** 2) + np.sum(lam * (th - mu) ** 2))

    damping = 1e-3
    current = cost(theta)
    for _ in range(iterations):
        pred, jac = _predict(d, theta)
        r = pred - y
        g = jac.T @ r + lam * (theta - mu)
        h = jac.T @ jac + np.diag(lam)
        improved = False
        for _try in range(10):
            step = np.linalg.solve(h + damping * np.diag(np.diag(h) + 1e-9), -g)
            trial = theta + step
            c = cost(trial)
            if c < current:
                theta, damping, improved = trial, max(damping / 3, 1e-7), True
                break
            damping *= 4
        if not improved or abs(current - c) < 1e-10 * max(current, 1.0):
            current = min(current, c)
            break
        current = c
    return theta


def fit_theta(cases: Sequence[tuple[tp.Case, tp.Hw]], values: Sequence[float], prior: Sequence[float],
              sigma: Sequence[float], theta0: Sequence[float] | None = None
              ) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """The parameters (log space) that best predict ``values`` (each case's measured rate), pulled
    towards ``prior`` by 1/``sigma``², starting from ``theta0`` (the prior when None); and the rate
    each case is then predicted at."""
    d = _design(cases)
    y = np.log(np.array(values, dtype=np.float64))
    mu = np.array(prior, dtype=np.float64)
    lam = 1 / np.array(sigma, dtype=np.float64) ** 2
    start = mu if theta0 is None else np.array(theta0, dtype=np.float64)
    theta = _lm(d, y, start, mu, lam)
    fitted = np.exp(_predict(d, theta)[0])
    return tuple(float(x) for x in theta), tuple(float(v) for v in fitted)
