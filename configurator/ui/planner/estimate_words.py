"""Words and figures the Planner's results and the PDF build sheet share: the serving estimates' names (core's
ESTIMATE_LABELS has none for them yet), a figure and its range at a precision that suits its size, and the
workload's rows with what core's summary leaves out (the serving load, a diffusion model's steps, a vision
model's image size)."""

from __future__ import annotations

import math

from configurator.core.build import DEFAULT_DIFFUSION_STEPS, Workload
from configurator.core.estimate.throughput import runtime_used
from configurator.core.findings import ESTIMATE_LABELS, Estimate
from configurator.core.i18n import QT_TRANSLATE_NOOP, Message, fill
from configurator.core.numbers import unit_text
from configurator.core.sheet import RUNTIME_LABELS
from configurator.ui.i18n import translate

# The serving estimates (core/engine.py's _serving_estimates), in the order the results show them
SERVING_KEYS = ("serving_max_concurrency", "serving_output_tokens_per_s", "serving_requests_per_s",
                "serving_ttft_ms", "serving_tpot_ms")
NOT_ESTIMATED = "serving_not_estimated"
SERVING_LABELS = {
    "serving_max_concurrency": QT_TRANSLATE_NOOP("estimates", "Most requests in flight"),
    "serving_output_tokens_per_s": QT_TRANSLATE_NOOP("estimates", "Output tokens/s"),
    "serving_requests_per_s": QT_TRANSLATE_NOOP("estimates", "Requests/s"),
    "serving_ttft_ms": QT_TRANSLATE_NOOP("estimates", "Time to first token (TTFT)"),
    "serving_tpot_ms": QT_TRANSLATE_NOOP("estimates", "Time per output token (TPOT)"),
    NOT_ESTIMATED: QT_TRANSLATE_NOOP("estimates", "Serving"),
}
# The workload rows core's summary does not have (core/sheet.py WORKLOAD_LABELS has the others)
EXTRA_ROW_LABELS = {
    "load": QT_TRANSLATE_NOOP("workload", "Load"),
    "tokens": QT_TRANSLATE_NOOP("workload", "Tokens per request"),
    "steps": QT_TRANSLATE_NOOP("workload", "Denoising steps"),
    "image": QT_TRANSLATE_NOOP("workload", "Image size"),
}
# The serving estimates' units (core/numbers.py's UNIT_WORDS words the others)
SERVING_UNITS = {
    "requests": QT_TRANSLATE_NOOP("units", "requests"),
    "requests/s": QT_TRANSLATE_NOOP("units", "requests/s"),
}
_SERVING = QT_TRANSLATE_NOOP("workload", "Serving (LLM under load)")
_IN_FLIGHT = QT_TRANSLATE_NOOP("workload", "{n} requests in flight")
_RATE = QT_TRANSLATE_NOOP("workload", "{rate} requests/s (Poisson arrivals)")
_TOKENS = QT_TRANSLATE_NOOP("workload", "{prompt} prompt + {output} output")
_DEFAULT = QT_TRANSLATE_NOOP("workload", "{value} (default)")


def estimate_label(key: str) -> str:
    """An estimate's name, translated (the key itself where none is known)."""
    text = ESTIMATE_LABELS.get(key) or SERVING_LABELS.get(key)
    return translate("estimates", text) if text else key


def unit_words(unit: str) -> str:
    """An estimate's unit in the user's language."""
    if unit in SERVING_UNITS:
        return translate("units", SERVING_UNITS[unit])
    return unit_text(unit, translate)


def decimals(value: float) -> int:
    """Decimals that show a figure to about two significant digits below 10, whole above."""
    v = abs(value)
    if v >= 10 or v == 0:
        return 0
    if v >= 1:
        return 1
    return min(-math.floor(math.log10(v)) + 1, 6)


def figure(value: float, digits: int | None = None) -> str:
    """``value`` with thousands separators at ``digits`` decimals (by default as :func:`decimals` says)."""
    return f"{value:,.{decimals(value) if digits is None else digits}f}"


def value_text(value: float) -> str:
    """An estimate's central figure: one decimal more than its range below 100 (36.9 ms, 0.30 img/s)."""
    if abs(value) >= 100:
        return figure(value, 0)
    return figure(value, decimals(value) + 1)


def range_text(e: Estimate) -> str | None:
    """``low–high`` at the precision of the smaller end (0.16–0.65 img/s, 5.1–11.7 requests/s, 69–157 ms);
    None where the estimate has no range."""
    if e.low is None or e.high is None:
        return None
    digits = decimals(min(abs(e.low), abs(e.high)) or max(abs(e.low), abs(e.high)))
    return f"{figure(e.low, digits)}–{figure(e.high, digits)}"


def serving_estimates(estimates: tuple[Estimate, ...] | list[Estimate]) -> list[Estimate]:
    """The serving estimates in SERVING_KEYS order, or the one that says why there are none."""
    by_key = {e.key: e for e in estimates}
    if NOT_ESTIMATED in by_key:
        return [by_key[NOT_ESTIMATED]]
    return [by_key[k] for k in SERVING_KEYS if k in by_key]


def _w(text: str, **params: object) -> Message:
    return Message("workload", text, params)


def workload_rows(w: Workload, core_rows: list[tuple[str, Message | str]]) -> list[tuple[str, Message | str]]:
    """Core's workload summary with the rows it leaves out: a serving workload's task, load and tokens per
    request (its batch is the runtime's, not a setting), a diffusion model's denoising steps and a vision
    model's image size."""
    rows = list(core_rows)
    spec = w.spec()
    used = runtime_used(w)
    if w.runtime is None and used != w.effective_runtime:  # an encoder, CNN or UNet runs in PyTorch
        rows = [(k, _w(_DEFAULT, value=_w(RUNTIME_LABELS.get(used, used))) if k == "runtime" else v)
                for k, v in rows]
    if w.serving:
        rows = [(k, _w(_SERVING) if k == "task" else v) for k, v in rows if k != "batch"]
        load = (_w(_IN_FLIGHT, n=f"{w.concurrency:,}") if w.concurrency is not None
                else _w(_RATE, rate=f"{w.request_rate:,g}"))
        at = next((i for i, (k, _v) in enumerate(rows) if k == "task"), 0) + 1
        rows[at:at] = [("load", load), ("tokens", _w(_TOKENS, prompt=f"{w.prompt_tokens or 0:,}",
                                                    output=f"{w.output_tokens or 0:,}"))]
    if spec.unet is not None and w.task == "infer":
        steps = str(w.steps) if w.steps else _w(_DEFAULT, value=str(DEFAULT_DIFFUSION_STEPS))
        rows.append(("steps", steps))
    if spec.family != "transformer" or spec.patch_size:
        side = f"{spec.image_size} × {spec.image_width}" if spec.image_width else f"{spec.image_size}"
        rows.append(("image", f"{side} px" if w.image_size else _w(_DEFAULT, value=f"{side} px")))
    return rows


def row_label(key: str, core_labels: dict[str, str]) -> str:
    """A workload row's name, translated."""
    return translate("workload", core_labels.get(key) or EXTRA_ROW_LABELS.get(key, key))


def serving_heading(w: Workload) -> str:
    """What the serving figures are at: "64 requests in flight · 512 prompt + 256 output tokens"."""
    load = (fill(translate("Planner", "{n} requests in flight"), n=f"{w.concurrency:,}") if w.concurrency is not None
            else fill(translate("Planner", "{rate} requests/s"), rate=f"{w.request_rate:,g}"))
    tokens = fill(translate("Planner", "{prompt} prompt + {output} output tokens"),
                  prompt=f"{w.prompt_tokens or 0:,}", output=f"{w.output_tokens or 0:,}")
    return fill(translate("Planner", "Serving at {load} · {tokens}"), load=load, tokens=tokens)
