"""Published benchmark measurements shipped as data (``db/measurements/*.csv``).

One CSV row is one published figure: the workload (model, task, precision, batch, lengths), the
hardware (catalogue GPU id × count, interconnect, CPU), the software (framework, runtime, flags),
the value and unit, and where it was published (URL, table/row, date). The guides' own reference
figures (RULES.md REF-1..3) are rows too, with ``origin`` ``guide-g`` / ``guide-m``, no URL (the
guides have none) and the guide section in ``source_ref``.

Pure Python: no Qt, no database. The store and the throughput fit read the rows through
:func:`load`; :func:`leave_one_origin_out` gives the train/test split for a leave-one-source-out
evaluation.
"""

from __future__ import annotations

import csv
import io
import math
import re
from collections.abc import Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

CNN_TRAIN = "cnn-train"
BERT_TRAIN = "bert-train"
GPT_TRAIN = "gpt-train"
LLM_PREFILL = "llm-prefill"
LLM_DECODE = "llm-decode"
OTHER = "other"
# Serving under a load of requests (task serve): the whole build's output tokens/s or requests/s, and the median
# time to first token and time per output token (ms)
LLM_SERVE = "llm-serve"
LLM_SERVE_TTFT = "llm-serve-ttft"
LLM_SERVE_TPOT = "llm-serve-tpot"
SERVE_FAMILIES: tuple[str, ...] = (LLM_SERVE, LLM_SERVE_TTFT, LLM_SERVE_TPOT)
# Vision beyond classification: detector training and inference (torchvision / detectron2 / MMDetection R-CNNs,
# RetinaNet), diffusion pipelines' image generation (every denoising step, the VAE decode, the text encoders) and
# diffusion training. Validated on their own (estimate/vision_validation.py), not fitted with the families above.
DET_TRAIN = "det-train"
DET_INFER = "det-infer"
DIFFUSION_INFER = "diffusion-infer"
DIFFUSION_TRAIN = "diffusion-train"
VISION_FAMILIES: tuple[str, ...] = (DET_TRAIN, DET_INFER, DIFFUSION_INFER, DIFFUSION_TRAIN)
FAMILIES: tuple[str, ...] = (CNN_TRAIN, BERT_TRAIN, GPT_TRAIN, LLM_PREFILL, LLM_DECODE, OTHER, *SERVE_FAMILIES,
                             *VISION_FAMILIES)

TASKS: tuple[str, ...] = ("train", "inference", "prefill", "decode", "serve")
# "amp" = automatic mixed precision (FP16 compute, FP32 master weights); q4_* / q8_0 are llama.cpp GGUF types.
# Weight-only inference formats: int8 / int4 (a runtime's own weight-only quantisation, e.g. gpt-fast's), nf4,
# bnb-fp4 and bnb-int8 (bitsandbytes 4-bit NormalFloat / FP4 and LLM.int8()), awq and gptq (4-bit, group-wise), exl2
# (ExLlamaV2's mixed 2-8 bit: the bits per weight are a flag, bpw-N). A QLoRA or LoRA fine-tune is bf16/fp16 compute
# with the flag qlora / lora (QLoRA's base weights are NF4): the precision is the compute's.
PRECISIONS: tuple[str, ...] = ("fp32", "tf32", "fp16", "amp", "bf16", "fp8", "int8", "int4",
                               "q4_0", "q4_k_m", "q5_k_m", "q8_0", "nf4", "bnb-fp4", "bnb-int8", "awq", "gptq", "exl2")
# Seconds as a vision source prints them: ``s/iter`` one iteration over ``batch_size`` images on each GPU (a training
# step; a diffusion pipeline's call generating the batch, every denoising step included), ``s/image`` one image
# (inference at batch 1); :attr:`Measurement.images_per_second` turns both into images/s.
SECONDS_UNITS: tuple[str, ...] = ("s/iter", "s/image")
UNITS: tuple[str, ...] = ("images/s", "sequences/s", "tokens/s", "requests/s", "ms", *SECONDS_UNITS)
# The units of each serving family (the latencies in ms; the throughput as tokens/s or requests/s)
SERVE_UNITS = {LLM_SERVE: ("tokens/s", "requests/s"), LLM_SERVE_TTFT: ("ms",), LLM_SERVE_TPOT: ("ms",)}
RATIO_PREFIX = "ratio_to:"  # unit of a relative figure: "ratio_to:<catalogue gpu id>"
GUIDE_PREFIX = "guide-"     # origin of the guides' own figures

COLUMNS: tuple[str, ...] = (
    "id", "origin", "model", "task", "family", "precision", "batch_size", "seq_len", "prompt_len", "gen_len",
    "image_size", "gpu", "gpu_count", "interconnect", "cpu", "framework", "framework_version", "runtime", "flags",
    "data", "value", "unit", "peak_memory_gb", "source_url", "source_ref", "source_date", "note",
)

_SLUG = re.compile(r"^[a-z0-9][a-z0-9._-]*$")
_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
_DATE = re.compile(r"^(\d{4})-(\d{2})(?:-(\d{2}))?$")


class MeasurementError(ValueError):
    """A malformed measurements file: names the file and the line of the bad row."""

    def __init__(self, path: str, line: int | None, message: str) -> None:
        self.path = path
        self.line = line
        self.message = message
        where = f"{path}:{line}" if line is not None else path
        super().__init__(f"{where}: {message}")


@dataclass(frozen=True)
class Measurement:
    id: str
    origin: str                      # short source key, e.g. "lambda-dlbench"; for leave-one-source-out
    model: str                       # "resnet50", "bert-large", "llama-3-8b", ...
    task: str                        # one of TASKS
    family: str                      # one of FAMILIES
    precision: str | None            # one of PRECISIONS; None where the source does not say
    batch_size: int | None           # per GPU
    seq_len: int | None              # training / encoder sequence length
    prompt_len: int | None           # LLM prefill tokens
    gen_len: int | None              # LLM generated tokens
    image_size: int | None
    gpu: str                         # catalogue GPU id
    gpu_count: int
    interconnect: str | None         # "nvlink", "nvswitch", "sxm", "pcie" where it matters and is known
    cpu: str | None
    framework: str | None            # "pytorch", "llama.cpp", ...
    framework_version: str | None
    runtime: str | None              # container / runtime / build as published
    flags: tuple[str, ...]           # e.g. ("dle-convnets", "nchw"), ("ddp",)
    data: str | None                 # "synthetic" | "real" | None (not stated)
    value: float                     # total over all gpu_count GPUs
    unit: str                        # one of UNITS, or "ratio_to:<gpu id>"
    peak_memory_gb: float | None
    source_url: str | None           # https URL; None only for the guides' own figures
    source_ref: str                  # table / row / column, or the guide section
    source_date: str | None          # ISO "YYYY-MM-DD" or "YYYY-MM"; None only for the guides
    note: str

    @property
    def is_guide(self) -> bool:
        """One of the guides' own reference figures (REF-*), not an independent publication."""
        return self.origin.startswith(GUIDE_PREFIX)

    @property
    def is_ratio(self) -> bool:
        return self.unit.startswith(RATIO_PREFIX)

    @property
    def ratio_reference(self) -> str | None:
        """The catalogue GPU a ratio is relative to, or None for an absolute figure."""
        return self.unit[len(RATIO_PREFIX):] if self.is_ratio else None

    @property
    def per_gpu_value(self) -> float:
        """The value divided by the GPU count (absolute figures only; a ratio is returned as is). A time
        (``s/iter``, ``s/image``) is each GPU's own: its images/s per GPU is :attr:`images_per_second`."""
        if self.unit in SECONDS_UNITS:
            return self.images_per_second
        return self.value if self.is_ratio else self.value / self.gpu_count

    @property
    def images_per_second(self) -> float:
        """Images/s of one GPU: ``batch_size`` / seconds per iteration (every GPU runs its own batch in that time),
        1 / seconds per image, or an images/s total over the GPUs divided by their count."""
        if self.unit == "s/iter":
            return (self.batch_size or 1) / self.value
        if self.unit == "s/image":
            return 1.0 / self.value
        return self.value / self.gpu_count

    @property
    def source_key(self) -> str:
        """The publication a row comes from: ``host/owner/repo`` for GitHub, the host otherwise,
        the origin for the guides."""
        if not self.source_url:
            return self.origin
        m = re.match(r"^https://([^/]+)(?:/([^/]+)/([^/]+))?", self.source_url)
        if m is None:  # unreachable for validated rows
            return self.origin
        host, owner, repo = m.groups()
        if host == "github.com" and owner and repo:
            return f"{host}/{owner}/{repo}"
        return host


def family(m: Measurement) -> str:
    """The workload family of a row (cnn-train, bert-train, gpt-train, llm-prefill, llm-decode, other)."""
    return m.family


def for_gpu(rows: Iterable[Measurement], gpu_id: str, *, count: int | None = None) -> list[Measurement]:
    """Rows measured on ``gpu_id`` (optionally only those with exactly ``count`` GPUs)."""
    return [m for m in rows if m.gpu == gpu_id and (count is None or m.gpu_count == count)]


def for_family(rows: Iterable[Measurement], fam: str) -> list[Measurement]:
    if fam not in FAMILIES:
        raise ValueError(f"unknown family {fam!r}; expected one of {', '.join(FAMILIES)}")
    return [m for m in rows if m.family == fam]


def published(rows: Iterable[Measurement]) -> list[Measurement]:
    """Independent published figures only (without the guides' own REF-* rows)."""
    return [m for m in rows if not m.is_guide]


def guide_rows(rows: Iterable[Measurement], ref: str | None = None) -> list[Measurement]:
    """The guides' own figures; with ``ref`` (e.g. "REF-1") only those citing that rule."""
    out = [m for m in rows if m.is_guide]
    if ref is not None:
        out = [m for m in out if m.source_ref.split(" ", 1)[0] == ref]
    return out


def origins(rows: Iterable[Measurement]) -> list[str]:
    return sorted({m.origin for m in rows})


def leave_one_origin_out(rows: Sequence[Measurement]) -> Iterator[tuple[str, list[Measurement], list[Measurement]]]:
    """For each origin: ``(origin, rows from every other origin, rows from this origin)``."""
    for o in origins(rows):
        yield o, [m for m in rows if m.origin != o], [m for m in rows if m.origin == o]


# ---------------------------------------------------------------------------------------------
# reading and validating


def load(path: str | Path | None = None, *, known_gpus: Collection[str] | None = None) -> list[Measurement]:
    """Read and validate the shipped measurements: every ``*.csv`` in the folder (default
    ``configurator.paths.MEASUREMENTS_DIR``), or one file. Ids must be unique across files.

    With ``known_gpus`` (the catalogue's GPU ids) every row's GPU, and a ratio's reference GPU,
    must be one of them. Raises :class:`MeasurementError` naming the file and line.
    """
    if path is None:
        from configurator.paths import MEASUREMENTS_DIR

        path = MEASUREMENTS_DIR
    p = Path(path)
    files = sorted(p.glob("*.csv")) if p.is_dir() else [p]
    if not files:
        raise MeasurementError(str(p), None, "no measurement files (*.csv)")
    rows: list[Measurement] = []
    where: dict[str, tuple[str, int]] = {}
    for f in files:
        try:
            text = f.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise MeasurementError(str(f), None, f"cannot read: {exc}") from exc
        for line, m in _parse(text, str(f), known_gpus):
            if m.id in where:
                other = where[m.id]
                raise MeasurementError(str(f), line, f"duplicate id {m.id!r} (first at {other[0]}:{other[1]})")
            where[m.id] = (str(f), line)
            rows.append(m)
    return rows


def parse_csv(text: str, source: str = "<string>", *,
              known_gpus: Collection[str] | None = None) -> list[Measurement]:
    """Parse one measurements CSV (header + one row per measurement); ``source`` names it in errors."""
    rows = [m for _, m in _parse(text, source, known_gpus)]
    seen: set[str] = set()
    for m in rows:
        if m.id in seen:
            raise MeasurementError(source, None, f"duplicate id {m.id!r}")
        seen.add(m.id)
    return rows


def _parse(text: str, source: str, known_gpus: Collection[str] | None) -> Iterator[tuple[int, Measurement]]:
    reader = csv.reader(io.StringIO(text))
    try:
        header = next(reader)
    except StopIteration:
        raise MeasurementError(source, 1, "empty file: expected a header row") from None
    except csv.Error as exc:
        raise MeasurementError(source, 1, f"bad CSV: {exc}") from exc
    if tuple(header) != COLUMNS:
        missing = [c for c in COLUMNS if c not in header]
        extra = [c for c in header if c not in COLUMNS]
        detail = "; ".join(x for x in (f"missing {', '.join(missing)}" if missing else "",
                                       f"unknown {', '.join(extra)}" if extra else "") if x)
        raise MeasurementError(source, 1, "header must be: " + ",".join(COLUMNS) + (f" ({detail})" if detail else ""))
    start = reader.line_num
    while True:
        try:
            cells = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            raise MeasurementError(source, reader.line_num, f"bad CSV: {exc}") from exc
        line = start + 1
        start = reader.line_num
        if not cells or all(not c.strip() for c in cells):
            continue
        if len(cells) != len(COLUMNS):
            raise MeasurementError(source, line, f"expected {len(COLUMNS)} fields, found {len(cells)}")
        try:
            yield line, _row(dict(zip(COLUMNS, cells, strict=True)), known_gpus)
        except _BadRowError as exc:
            raise MeasurementError(source, line, str(exc)) from None


class _BadRowError(Exception):
    pass


def _opt(raw: dict[str, str], key: str) -> str | None:
    v = raw[key].strip()
    return v or None


def _req(raw: dict[str, str], key: str) -> str:
    v = raw[key].strip()
    if not v:
        raise _BadRowError(f"{key}: required")
    return v


def _choice(raw: dict[str, str], key: str, allowed: Sequence[str], *, required: bool = True) -> str | None:
    v = _req(raw, key) if required else _opt(raw, key)
    if v is not None and v not in allowed:
        raise _BadRowError(f"{key}: {v!r} is not one of {', '.join(allowed)}")
    return v


def _int(raw: dict[str, str], key: str) -> int | None:
    v = _opt(raw, key)
    if v is None:
        return None
    try:
        n = int(v)
    except ValueError:
        raise _BadRowError(f"{key}: {v!r} is not a whole number") from None
    if n <= 0:
        raise _BadRowError(f"{key}: must be positive, got {n}")
    return n


def _float(raw: dict[str, str], key: str) -> float | None:
    v = _opt(raw, key)
    if v is None:
        return None
    try:
        x = float(v)
    except ValueError:
        raise _BadRowError(f"{key}: {v!r} is not a number") from None
    if not math.isfinite(x) or x <= 0:
        raise _BadRowError(f"{key}: must be positive and finite, got {v}")
    return x


def _date(raw: dict[str, str], key: str, *, required: bool) -> str | None:
    v = _req(raw, key) if required else _opt(raw, key)
    if v is None:
        return None
    m = _DATE.match(v)
    ok = m is not None and 1 <= int(m.group(2)) <= 12 and (m.group(3) is None or 1 <= int(m.group(3)) <= 31)
    if not ok:
        raise _BadRowError(f"{key}: {v!r} is not an ISO date (YYYY-MM-DD or YYYY-MM)")
    return v


_FLAG = re.compile(r"^[a-z0-9][a-z0-9.+-]*$")
# Flags with a number: tp-N (tensor parallel over N GPUs: N is the row's gpu_count), grad-accum-N (micro-batches per
# optimizer step), group-N (quantisation group size), bpw-X (EXL2's average bits per weight); serving: rate-X
# (requests/s arriving, open loop), max-batch-N (the engine's largest batch of sequences, as configured),
# multi-step-N (decode steps per scheduling: vLLM's --num-scheduler-steps); vision: steps-N (a diffusion
# pipeline's denoising steps per image), height-N (the image's height in pixels where it differs from image_size, then
# the width), context-N (a Flux row's text tokens where the run set them: T5's max_sequence_length).
_NUMBERED = re.compile(r"^(tp|grad-accum|group|bpw|rate|max-batch|multi-step|steps|height|context)-(.+)$")
# Weight formats a runtime serves, not trains in (a QLoRA row is bf16 compute with the flag qlora).
INFERENCE_FORMATS: tuple[str, ...] = ("nf4", "bnb-fp4", "bnb-int8", "awq", "gptq", "exl2")


def _check_flags(flags: Sequence[str], count: int, task: str, precision: str | None) -> None:
    for f in flags:
        if not _FLAG.match(f):
            raise _BadRowError(f"flags: {f!r} must be lower-case letters, digits, '.', '+' and '-'")
        if (m := _NUMBERED.match(f)) is None:
            continue
        kind, number = m.groups()
        if kind == "rate":
            try:
                rate = float(number)
            except ValueError:
                rate = math.nan
            if not (math.isfinite(rate) and rate > 0):
                raise _BadRowError(f"flags: {f!r} must give a positive request rate (rate-4, rate-0.5)")
            continue
        if kind == "bpw":
            try:
                bits = float(number)
            except ValueError:
                bits = math.nan
            if not 1 <= bits <= 16:
                raise _BadRowError(f"flags: {f!r} must give 1 to 16 bits per weight (bpw-4.0)")
            continue
        if not number.isdigit() or int(number) < 1:
            raise _BadRowError(f"flags: {f!r} must end in a positive whole number ({kind}-8)")
        if kind == "tp" and int(number) != count:
            raise _BadRowError(f"flags: {f!r} names {number} GPUs but gpu_count is {count}")
    if len([f for f in flags if f.startswith("tp-")]) > 1:
        raise _BadRowError("flags: at most one tp-N")
    if "lora" in flags and "qlora" in flags:
        raise _BadRowError("flags: lora and qlora exclude each other (qlora is LoRA on NF4 base weights)")
    if ("lora" in flags or "qlora" in flags) and task != "train":
        raise _BadRowError(f"flags: lora / qlora are fine-tuning methods; task is {task!r}, not 'train'")
    if precision in INFERENCE_FORMATS and task == "train":
        raise _BadRowError(f"precision: {precision!r} is an inference weight format; a QLoRA fine-tune is "
                           "precision bf16 (or fp16) with the flag qlora")
    if precision == "exl2" and not any(f.startswith("bpw-") for f in flags):
        raise _BadRowError("flags: an exl2 row needs its bits per weight (bpw-N)")


# A serving row whose source publishes no mean prompt length (MLPerf's OpenOrca runs publish the outputs' tokens per
# sample, not the inputs'): prompt_len left empty, the row kept but not predicted (fit.NOT_STATED_SERVE_FLAGS)
PROMPT_UNPUBLISHED = "prompt-unpublished"


def _check_serving(raw: dict[str, str], task: str, fam: str, unit: str, flags: Sequence[str]) -> None:
    """A serving row (task serve, a serving family): its unit fits its family; its requests' mean prompt and output
    lengths; its load: a request rate (flag rate-X) or the requests in flight or submitted at once (batch_size)."""
    if (task == "serve") != (fam in SERVE_FAMILIES):
        raise _BadRowError(f"family: {fam!r} does not go with task {task!r} (task serve has the families "
                           f"{', '.join(SERVE_FAMILIES)})")
    if task != "serve":
        if unit in ("requests/s", "ms"):
            raise _BadRowError(f"unit: {unit!r} is a serving unit (task serve)")
        if any(f.startswith(("rate-", "max-batch-", "multi-step-")) or f == "no-chunked-prefill" for f in flags):
            raise _BadRowError("flags: rate-X, max-batch-N, multi-step-N and no-chunked-prefill apply to task serve "
                               "only")
        return
    if unit not in SERVE_UNITS[fam]:
        raise _BadRowError(f"unit: {fam} is measured in {' or '.join(SERVE_UNITS[fam])}, not {unit!r}")
    for key in ("prompt_len", "gen_len"):
        if raw[key].strip():
            continue
        if key == "prompt_len" and PROMPT_UNPUBLISHED in flags:
            continue  # kept, listed as not stated (fit.NOT_STATED_SERVE_FLAGS)
        raise _BadRowError(f"{key}: required for task serve (the mean tokens per request)"
                           + (f"; or the flag {PROMPT_UNPUBLISHED} where the source does not publish it"
                              if key == "prompt_len" else ""))
    if PROMPT_UNPUBLISHED in flags and raw["prompt_len"].strip():
        raise _BadRowError(f"flags: {PROMPT_UNPUBLISHED} marks a serving row whose prompt_len is empty")
    rate = any(f.startswith("rate-") for f in flags)
    if rate == bool(raw["batch_size"].strip()):
        raise _BadRowError("batch_size: a serving row states its load as a request rate (flag rate-X) or as the "
                           "requests in flight (batch_size), one of the two")


# What a vision row's peak_memory_gb is (the flag says; estimate/vision_validation compares the matching quantity):
# mem-allocated torch.cuda.max_memory_allocated (tensors only: no CUDA context, no allocator rounding or cache),
# mem-reserved torch.cuda.memory_reserved / max_memory_reserved (the caching allocator's segments: its rounding and
# cache, no CUDA context), mem-device nvidia-smi / NVML's used memory of the process (the CUDA context too).
MEMORY_FLAGS: tuple[str, ...] = ("mem-allocated", "mem-reserved", "mem-device")


def memory_kind(m: Measurement) -> str | None:
    """"allocated", "reserved" or "device": what a row's peak memory measures (its mem-* flag), None if unstated."""
    flag = next((f for f in m.flags if f in MEMORY_FLAGS), None)
    return None if flag is None else flag.removeprefix("mem-")


def _check_vision(fam: str, task: str, unit: str, batch: int | None, flags: Sequence[str],
                  memory: float | None = None) -> None:
    """A vision row's family fits its task; a time per iteration needs its batch; generation needs its steps; a
    peak memory says which quantity it is (one mem-* flag)."""
    if fam in VISION_FAMILIES and memory is not None and sum(f in MEMORY_FLAGS for f in flags) != 1:
        raise _BadRowError("flags: a vision row's peak_memory_gb needs one of " + ", ".join(MEMORY_FLAGS))
    wanted = {DET_TRAIN: "train", DIFFUSION_TRAIN: "train", DET_INFER: "inference", DIFFUSION_INFER: "inference"}
    if fam in wanted and task != wanted[fam]:
        raise _BadRowError(f"task: a {fam} row is task {wanted[fam]!r}, got {task!r}")
    if unit == "s/iter" and batch is None:
        raise _BadRowError("batch_size: an s/iter row needs the images per GPU per iteration")
    if fam == DIFFUSION_INFER and not any(f.startswith("steps-") for f in flags):
        raise _BadRowError("flags: a diffusion-infer row needs its denoising steps (steps-N)")


def _row(raw: dict[str, str], known_gpus: Collection[str] | None) -> Measurement:
    ident = _req(raw, "id")
    if not _ID.match(ident):
        raise _BadRowError(f"id: {ident!r} may contain only letters, digits, '.', '_' and '-'")
    origin = _req(raw, "origin")
    if not _SLUG.match(origin):
        raise _BadRowError(f"origin: {origin!r} must be a lower-case slug")
    guide = origin.startswith(GUIDE_PREFIX)
    gpu = _req(raw, "gpu")
    if known_gpus is not None and gpu not in known_gpus:
        raise _BadRowError(f"gpu: {gpu!r} is not a catalogue GPU id")
    count = _int(raw, "gpu_count")
    if count is None:
        raise _BadRowError("gpu_count: required")
    value = _float(raw, "value")
    if value is None:
        raise _BadRowError("value: required")
    unit = _req(raw, "unit")
    if unit.startswith(RATIO_PREFIX):
        ref = unit[len(RATIO_PREFIX):]
        if not ref or (known_gpus is not None and ref not in known_gpus):
            raise _BadRowError(f"unit: {unit!r} must name a catalogue GPU after {RATIO_PREFIX!r}")
    elif unit not in UNITS:
        raise _BadRowError(f"unit: {unit!r} is not one of {', '.join(UNITS)} or {RATIO_PREFIX}<gpu id>")
    url = _opt(raw, "source_url")
    if guide:
        if url is not None:
            raise _BadRowError("source_url: the guides' own figures have no URL; "
                               "leave it empty and cite the section in source_ref")
    elif url is None or not re.match(r"^https://[^/\s]+\.[^/\s]+/\S*$", url):
        got = url or "nothing"
        raise _BadRowError(f"source_url: an https URL of the exact page or file is required, got {got!r}")
    source_ref = _req(raw, "source_ref")
    data = _choice(raw, "data", ("synthetic", "real"), required=False)
    flags = tuple(f.strip() for f in raw["flags"].split(";") if f.strip())
    task = str(_choice(raw, "task", TASKS))
    precision = _choice(raw, "precision", PRECISIONS, required=False)
    _check_flags(flags, count, task, precision)
    fam = str(_choice(raw, "family", FAMILIES))
    batch = _int(raw, "batch_size")
    _check_serving(raw, task, fam, unit, flags)
    _check_vision(fam, task, unit, batch, flags, _float(raw, "peak_memory_gb"))
    return Measurement(
        id=ident, origin=origin, model=_req(raw, "model"),
        task=task, family=fam, precision=precision,
        batch_size=batch, seq_len=_int(raw, "seq_len"), prompt_len=_int(raw, "prompt_len"),
        gen_len=_int(raw, "gen_len"), image_size=_int(raw, "image_size"),
        gpu=gpu, gpu_count=count, interconnect=_opt(raw, "interconnect"), cpu=_opt(raw, "cpu"),
        framework=_opt(raw, "framework"), framework_version=_opt(raw, "framework_version"),
        runtime=_opt(raw, "runtime"), flags=flags, data=data, value=value, unit=unit,
        peak_memory_gb=_float(raw, "peak_memory_gb"), source_url=url, source_ref=source_ref,
        source_date=_date(raw, "source_date", required=not guide), note=raw["note"].strip(),
    )
