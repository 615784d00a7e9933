"""The worker's wire format: one JSON object per line on stdout.

Messages (``type``):

- ``hello``       ``{"protocol", "job", "pid"}`` — the worker started;
- ``progress``    ``{"fraction": 0..1, "text", "params"}`` — ``text`` is an English template
  marked for translation in context ``bench``, ``params`` fill it in;
- ``log``         ``{"text", "params"}`` — a line for the live log;
- ``fingerprint`` ``{"fingerprint", "device"}`` — the hardware/software fingerprint and the
  device ``auto`` resolved to;
- ``doctor``      ``{"checks": [...]}``;
- ``result``      ``{"name", "value", "unit", "median", "iqr", "settings", "details"}`` — one
  result row (a workload may report several, e.g. GPT-2 prefill and decode);
- ``skipped``     ``{"name", "text", "params"}`` — a row that does not apply here, with the reason;
- ``error``       ``{"kind": "oom" | "failed", "text", "params", "batch", "traceback"}``;
- ``done``        — the worker finished its job normally.

Anything else on stdout is "garbage": the runner logs it and, if no result follows, records
the job as failed with that reason.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any, TextIO

PROTOCOL = 1
TYPES = frozenset({"hello", "progress", "log", "fingerprint", "doctor", "result", "skipped", "error", "done"})
MAX_LINE = 1 << 20  # a longer line is garbage


class ProtocolError(ValueError):
    pass


def _clean(value: Any) -> Any:
    """JSON has no NaN or infinity: send ``null`` instead."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {str(k): _clean(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_clean(v) for v in value]
    return value


def encode(message: dict[str, Any]) -> str:
    if message.get("type") not in TYPES:
        raise ProtocolError(f"unknown message type {message.get('type')!r}")
    return json.dumps(_clean(message), ensure_ascii=True, separators=(",", ":"), allow_nan=False)


def decode(line: str) -> dict[str, Any]:
    """Parse one line; raises :class:`ProtocolError` for anything that is not a message."""
    line = line.strip()
    if not line:
        raise ProtocolError("empty line")
    if len(line) > MAX_LINE:
        raise ProtocolError("line too long")
    try:
        obj = json.loads(line)
    except ValueError as exc:
        raise ProtocolError(f"not JSON: {exc}") from None
    if not isinstance(obj, dict) or obj.get("type") not in TYPES:
        raise ProtocolError("not a worker message")
    if obj["type"] == "result":
        if not isinstance(obj.get("name"), str):
            raise ProtocolError("result without a name")
        for key in ("value", "median", "iqr"):
            v = obj.get(key)
            if v is not None and (isinstance(v, bool) or not isinstance(v, int | float)):
                raise ProtocolError(f"result {key} is not a number")
    if obj["type"] == "progress":
        f = obj.get("fraction")
        if isinstance(f, bool) or not isinstance(f, int | float):
            raise ProtocolError("progress without a fraction")
    return obj


@dataclass
class Emitter:
    """Writes messages to the protocol stream (the worker's real stdout), flushing each line."""

    stream: TextIO
    job: str = ""
    sent: list[str] = field(default_factory=list)

    def send(self, type_: str, **fields: Any) -> None:
        line = encode({"type": type_, **fields})
        self.stream.write(line + "\n")
        self.stream.flush()

    def progress(self, fraction: float, text: str = "", **params: Any) -> None:
        self.send("progress", fraction=max(0.0, min(1.0, float(fraction))), text=text, params=params)

    def log(self, text: str, **params: Any) -> None:
        self.send("log", text=text, params=params)

    def result(self, name: str, value: float | None, unit: str, median: float | None = None,
               iqr: float | None = None, settings: dict[str, Any] | None = None,
               details: dict[str, Any] | None = None) -> None:
        self.sent.append(name)
        self.send("result", name=name, value=value, unit=unit, median=median, iqr=iqr,
                  settings=settings or {}, details=details or {})

    def skipped(self, name: str, text: str, **params: Any) -> None:
        self.sent.append(name)
        self.send("skipped", name=name, text=text, params=params)
