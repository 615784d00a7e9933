"""A client for a Prometheus server's HTTP API: ``/api/v1/query`` and ``/api/v1/query_range``.

Plain HTTP (urllib) with timeouts on every call: connecting and each read wait at most
``timeout_s``, a whole answer is read within that deadline (checked between reads), and the
server is asked to give up its own evaluation at the same time (the ``timeout`` parameter).
Every way a call can fail is a :class:`PrometheusError` subclass carrying one translatable
line (:attr:`PrometheusError.message`):

* :class:`BadUrlError`: not an http(s) URL of a server;
* :class:`UnreachableError`: refused, no route, unknown host;
* :class:`QueryTimeoutError`: no (complete) answer within the timeout, or the server's own query timeout;
* :class:`NotPrometheusError`: an answer that is not the API's JSON (an HTML page, a proxy's error page);
* :class:`QueryFailedError`: the server's own error response (``{"status": "error", ...}``);
* :class:`NoDataError` (raised by :mod:`configurator.monitor.cluster`): the server answers but holds no
  metrics from the exporters the monitor reads.

It blocks for at most ``timeout_s``: call it off the GUI thread.
"""

from __future__ import annotations

import json
import math
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from configurator.core.i18n import QT_TRANSLATE_NOOP, Message

MAX_BYTES = 64 * 1024 * 1024
DEFAULT_TIMEOUT_S = 5.0
CHUNK = 256 * 1024


class PrometheusError(Exception):
    kind = "error"

    def __init__(self, message: Message):
        self.message = message
        super().__init__(message.render())


class BadUrlError(PrometheusError):
    kind = "bad_url"


class UnreachableError(PrometheusError):
    kind = "unreachable"


class QueryTimeoutError(PrometheusError):
    kind = "timeout"


class NotPrometheusError(PrometheusError):
    kind = "not_prometheus"


class QueryFailedError(PrometheusError):
    kind = "query_failed"


class NoDataError(PrometheusError):
    kind = "no_data"


def normalise_server_url(text: str) -> str:
    """``host:port``, ``http://host:9090``, or a path prefix behind a proxy (``https://h/prometheus``).

    The API path, the web UI's ``/graph`` and a trailing slash are dropped; port 9090 is the default.
    """
    raw = text.strip()
    if not raw:
        raise BadUrlError(Message("monitor", QT_TRANSLATE_NOOP(
            "monitor", "enter the URL of a Prometheus server, such as http://prometheus:9090")))
    if "://" not in raw:
        raw = "http://" + raw
    parts = urllib.parse.urlsplit(raw)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise BadUrlError(Message("monitor", QT_TRANSLATE_NOOP(
            "monitor", "{url!r} is not an http(s) URL of a Prometheus server such as http://prometheus:9090"),
            {"url": text}))
    try:
        port = parts.port
    except ValueError:
        raise BadUrlError(Message("monitor", QT_TRANSLATE_NOOP("monitor", "{url!r} has an invalid port"),
                             {"url": text})) from None
    netloc = parts.netloc
    if port is None and parts.scheme == "http" and "://" not in text.strip():
        netloc += ":9090"
    path = parts.path.rstrip("/")
    for tail in ("/api/v1/query_range", "/api/v1/query", "/api/v1", "/graph"):
        if path.endswith(tail):
            path = path[: -len(tail)]
            break
    return urllib.parse.urlunsplit((parts.scheme, netloc, path, "", ""))


@dataclass(frozen=True)
class Sample:
    """One series of an instant vector: its labels (``__name__`` included when kept) and value."""

    labels: dict[str, str]
    value: float | None  # None: NaN or ±Inf from the server


@dataclass(frozen=True)
class Series:
    """One series of a range query: sample times (s since the epoch) and values, in time order."""

    labels: dict[str, str]
    times: npt.NDArray[np.float64]
    values: npt.NDArray[np.float64]  # NaN where the server said NaN


def _number(text: Any) -> float | None:
    try:
        v = float(text)
    except (TypeError, ValueError):
        return None
    return v if math.isfinite(v) else None


def duration(seconds: float) -> str:
    """A PromQL duration: whole milliseconds (``1500ms``), at least 1 ms."""
    return f"{max(1, round(seconds * 1000))}ms"


class PrometheusClient:
    def __init__(self, url: str, timeout_s: float = DEFAULT_TIMEOUT_S):
        self.url = normalise_server_url(url)
        self.timeout_s = float(timeout_s)
        self.round_trips = 0  # requests sent (for the benchmark and tests)

    # -- the two endpoints ------------------------------------------------------------------------------------
    def query(self, promql: str, at: float | None = None) -> list[Sample]:
        params = {"query": promql}
        if at is not None:
            params["time"] = f"{at:.3f}"
        data = self._get("/api/v1/query", params)
        kind, result = data.get("resultType"), data.get("result")
        if kind == "scalar" and isinstance(result, list) and len(result) == 2:
            return [Sample({}, _number(result[1]))]
        if kind != "vector" or not isinstance(result, list):
            raise self._shape_error("/api/v1/query")
        out = []
        for item in result:
            try:
                out.append(Sample(dict(item["metric"]), _number(item["value"][1])))
            except (KeyError, IndexError, TypeError):
                raise self._shape_error("/api/v1/query") from None
        return out

    def query_range(self, promql: str, start: float, end: float, step_s: float) -> list[Series]:
        params = {"query": promql, "start": f"{start:.3f}", "end": f"{end:.3f}", "step": f"{step_s:g}"}
        data = self._get("/api/v1/query_range", params)
        result = data.get("result")
        if data.get("resultType") != "matrix" or not isinstance(result, list):
            raise self._shape_error("/api/v1/query_range")
        out = []
        for item in result:
            try:
                pairs = item["values"]
                times = np.array([float(p[0]) for p in pairs], dtype=np.float64)
                values = np.array([_number(p[1]) if _number(p[1]) is not None else math.nan for p in pairs],
                                  dtype=np.float64)
                out.append(Series(dict(item["metric"]), times, values))
            except (KeyError, IndexError, TypeError, ValueError):
                raise self._shape_error("/api/v1/query_range") from None
        return out

    # -- HTTP ---------------------------------------------------------------------------------------------------
    def _shape_error(self, path: str) -> NotPrometheusError:
        return NotPrometheusError(Message("monitor", QT_TRANSLATE_NOOP(
            "monitor", "{url} answered {path} with JSON that is not Prometheus's query result"),
            {"url": self.url, "path": path}))

    def _timeout(self) -> QueryTimeoutError:
        return QueryTimeoutError(Message("monitor", QT_TRANSLATE_NOOP(
            "monitor", "{url} did not answer within {seconds} s"), {"url": self.url, "seconds": f"{self.timeout_s:g}"}))

    def _get(self, path: str, params: dict[str, str]) -> dict[str, Any]:
        deadline = time.monotonic() + self.timeout_s
        query = urllib.parse.urlencode({**params, "timeout": duration(self.timeout_s)})
        req = urllib.request.Request(f"{self.url}{path}?{query}", headers={"Accept": "application/json"})
        self.round_trips += 1
        status = 200
        try:
            with urllib.request.urlopen(req, timeout=self.timeout_s) as resp:
                body = self._read(resp, deadline)
                ctype = resp.headers.get("Content-Type", "")
        except urllib.error.HTTPError as exc:  # 400/422/503 carry the API's error JSON
            status = exc.code
            try:
                body = self._read(exc, deadline)
            except (OSError, TimeoutError):
                body = b""
            ctype = exc.headers.get("Content-Type", "") if exc.headers else ""
            exc.close()
        except TimeoutError:
            raise self._timeout() from None
        except urllib.error.URLError as exc:
            if isinstance(exc.reason, TimeoutError):
                raise self._timeout() from None
            raise UnreachableError(Message("monitor", QT_TRANSLATE_NOOP("monitor", "cannot reach {url}: {reason}"),
                                      {"url": self.url, "reason": _reason(exc.reason)})) from None
        except (OSError, ValueError) as exc:  # a reset connection, a bad status line, an odd host name
            raise UnreachableError(Message("monitor", QT_TRANSLATE_NOOP("monitor", "cannot reach {url}: {reason}"),
                                      {"url": self.url, "reason": _reason(exc)})) from None
        try:
            doc = json.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            doc = None
        if not isinstance(doc, dict) or doc.get("status") not in ("success", "error"):
            what = "HTML" if "html" in ctype.lower() or body.lstrip()[:1] == b"<" else ctype or "?"
            raise NotPrometheusError(Message("monitor", QT_TRANSLATE_NOOP(
                "monitor", "{url} is not a Prometheus server: {path} answered HTTP {code} with {what}, not the "
                           "API's JSON"), {"url": self.url, "path": path, "code": status, "what": what}))
        if doc["status"] == "error":
            etype, error = str(doc.get("errorType", "")), str(doc.get("error", ""))
            if etype == "timeout":
                raise QueryTimeoutError(Message("monitor", QT_TRANSLATE_NOOP(
                    "monitor", "{url} gave up the query after {seconds} s: {error}"),
                    {"url": self.url, "seconds": f"{self.timeout_s:g}", "error": error}))
            raise QueryFailedError(Message("monitor", QT_TRANSLATE_NOOP(
                "monitor", "{url} refused the query ({kind}): {error}"),
                {"url": self.url, "kind": etype or status, "error": error.splitlines()[0] if error else "?"}))
        data = doc.get("data")
        if not isinstance(data, dict):
            raise self._shape_error(path)
        return data

    def _read(self, resp: Any, deadline: float) -> bytes:
        chunks: list[bytes] = []
        size = 0
        read = getattr(resp, "read1", None) or resp.read  # read(n) would wait for all n bytes
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise self._timeout()
            try:  # each read waits at most timeout_s (the socket's) and returns what came; the deadline bounds all
                chunk = read(CHUNK)
            except TimeoutError:
                raise self._timeout() from None
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
            size += len(chunk)
            if size > MAX_BYTES:
                raise NotPrometheusError(Message("monitor", QT_TRANSLATE_NOOP(
                    "monitor", "{url} sent more than 64 MiB for one query"), {"url": self.url}))


def _reason(reason: object) -> str:
    if isinstance(reason, OSError) and reason.strerror:
        return reason.strerror
    return str(reason) or type(reason).__name__
