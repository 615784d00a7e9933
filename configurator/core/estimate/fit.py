"""Fitting the throughput model to the published measurements, and its cross-validated error.

What enters the fit: every independent published row (``measurements.published``) of one GPU that the
catalogue knows, for the families cnn-train, bert-train, gpt-train, llm-prefill and llm-decode, plus
llama.cpp's layer-split rows (one stream through two GPUs in turn: the rate of one GPU, not two) and
sharded (FSDP) training inside one NVSwitch node, per GPU. Other data-parallel training rows (2×, 8×)
are left to the scaling model; rows of ``NOT_FITTED`` models are shown, not fitted (the reason is
beside each); the guides' REF-1..3 rows are NOT
fitted: they were measured with old software (PyTorch 1.12.1) and a real-data pipeline, and the
guides give neither batch nor precision for some; they are compared with the fit instead (EST-1).

The fit minimises Σ (log predicted − log measured)² + Σ_j (θ_j − log prior_j)² / σ_j², a ridge
towards the priors stated in :mod:`throughput` (GLOBALS; per-architecture deviations towards 0 with
σ = ARCH_SIGMA), by Levenberg–Marquardt written out in numpy. Leave-one-GPU-out refits give the error
every estimate's range rests on. Fits are memoised per set of measured GPUs' specs: the planner
fits once, then each check costs a few microseconds.

Each row runs on the runtime its software names, each with its own parameters: eager PyTorch; PyTorch of
NGC's 2019 containers (``pytorch:19.xx``: per-operator dispatch cost, optimizers stepping each parameter
tensor, attention scaling, masking, softmax and dropout as separate kernels); fused LLM training (flag
``flash-attn``); llama.cpp before 2024 and since. A row's flag ``grad-accum-N`` amortises the optimizer step
over N micro-batches (DLE's LAMB pre-training). A decode row of batch B is B streams' tokens/s together, which is what
the model's decode case of batch B predicts; an FP8 KV cache (flag ``fp8-kv``) is read at 1 B per element.
torchtune's recipes are the runtime "fused" (SDPA attention). Rows kept but not fitted: ``not_fitted_reason``.

Where a held-out row's error rests on a stated prior more than on data: the V100 is the only Volta card
and the only one measured with NGC 2019 software, so its rows are predicted with ``launch.pytorch-2019``
at its prior (the data cannot move it) and the Volta deviations at 0; the Dec-2023 q4_0 prompt rows' fixed
cost per dequantised matrix multiplication (``dequant.llama.cpp-2023``) stays near its prior. What the
model does not explain yet (the worst held-out rows, `make bench` names them): the 300 W RTX 6000 Ada trains
no faster than a 450 W RTX 4090; LLaMA-3 prompt processing on GeForce Ada cards (4070 Ti, 4080) runs
faster than the model's FP16-accumulate rate allows. Parameters the data cannot pin down (``nchw``,
``ipb``, ``ipw.dequant``, ``conv.simt``) stay at their stated priors.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import re
import statistics
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

from configurator.core import measurements as ms
from configurator.core.build import Workload
from configurator.core.estimate import throughput as tp
from configurator.core.model_specs import KNOWN_MODELS, ModelSpec
from configurator.core.parts import Gpu

# Architecture figures of the measured models the planner does not list (from their papers / configs).
MEASURED_MODELS: dict[str, ModelSpec] = {
    "llama-2-7b": ModelSpec("llama-2-7b", "transformer", 6.74e9, "https://arxiv.org/abs/2307.09288", layers=32,
                            hidden=4096, heads=32, vocab=32000, context=4096, decoder=True, default_batch=1,
                            intermediate=11008, tied_head=False),
    "llama-3-8b": ModelSpec("llama-3-8b", "transformer", 8.03e9, "https://arxiv.org/abs/2407.21783", layers=32,
                            hidden=4096, heads=32, vocab=128256, context=8192, decoder=True, default_batch=1,
                            intermediate=14336, tied_head=False, kv_heads=8),
    "llama-3-70b": ModelSpec("llama-3-70b", "transformer", 70.6e9, "https://arxiv.org/abs/2407.21783", layers=80,
                             hidden=8192, heads=64, vocab=128256, context=8192, decoder=True, default_batch=1,
                             intermediate=28672, tied_head=False, kv_heads=8),
    # Transformer-XL base (WikiText-103): 16 layers, d_model 410, d_inner 2100; the adaptive softmax's
    # head cluster (20000 words) stands for the output layer; memory length 192.
    "transformer-xl-base": ModelSpec("transformer-xl-base", "transformer", 38.3e6 + 20000 * 410,
                                     "https://arxiv.org/abs/1901.02860", layers=16, hidden=410, heads=10,
                                     vocab=20000, context=192, decoder=True, default_batch=32),
}


def _mpt(size: str, params_at_2048: float, layers: int, hidden: int, heads: int) -> ModelSpec:
    """An MPT model of llm-foundry's benchmark tables (scripts/train/yamls/pretrain/mpt-*.yaml): tied
    embeddings over a 50,368-word vocabulary, learned position embeddings (a lookup: no GEMM work, so
    they are left out of ``params``), FFN expansion 4, no biases."""
    return ModelSpec(f"mpt-{size}", "transformer", params_at_2048 - 2048 * hidden,
                     "https://github.com/mosaicml/llm-foundry/tree/main/scripts/train/yamls/pretrain",
                     layers=layers, hidden=hidden, heads=heads, vocab=50368, context=2048, decoder=True,
                     default_batch=8)


# NumParams of the tables' SeqLen 2048 rows.
for _spec in (_mpt("125m", 125311488, 12, 768, 12), _mpt("350m", 355985408, 24, 1024, 16),
              _mpt("760m", 760470528, 24, 1536, 12), _mpt("1b", 1315950592, 24, 2048, 16),
              _mpt("3b", 2651837440, 32, 2560, 20), _mpt("7b", 6658859008, 32, 4096, 32),
              _mpt("13b", 12853954560, 40, 5120, 40)):
    MEASURED_MODELS[_spec.name] = _spec

# Published rows kept in the dataset (shown beside estimates, listed by `measurements list`) but not
# fitted, and why.
NOT_FITTED: dict[str, str] = {
    # DLE's Transformer-XL base moves little with the GPU's compute or the batch (A100 80 GB at batch
    # 104: 41.6k tokens/s; A100 40 GB at batch 52: 35.4k; H100 SXM 62k, 1.5× an A100 with 3× its
    # tensor peak): a FLOP/byte model over-predicts it 2-3× on every GPU, so it measures that
    # implementation (relative-position attention, adaptive softmax), not the GPU.
    "transformer-xl-base": "throughput bound by the implementation, not by the GPU's FLOPs or bandwidth",
}
# Rows run with a kernel the planner does not offer, kept in the dataset but not fitted, and why (by flag).
NOT_FITTED_FLAGS: dict[str, str] = {
    # optimum's GPTQ table: AutoGPTQ's old CUDA kernel decodes 3-5x slower than the ExLlamaV2 and Marlin
    # kernels on the same model and GPU (93 against 505 tokens/s at batch 16); transformers picks ExLlama
    # kernels for 4-bit GPTQ by default, which the runtime "transformers" stands for
    "gptq-cuda-old": "AutoGPTQ's legacy CUDA kernel, which transformers no longer uses for 4-bit GPTQ",
}
# Rows of a runtime's older software the model's runtime of that name does not stand for: (framework, rows dated
# before this day) → why. vLLM ran each decode step eagerly from Python until CUDA graphs (vllm-project/vllm
# PR #1926, merged 2023-12-17): its 2023 rows (mlc-ai/llm-perf-bench, v0.2 of October 2023: 70B over 8 PCIe A100s
# slower than over 4) would pull the runtime "vllm", today's, to a per-kernel cost 3-4x its prior.
NOT_FITTED_SOFTWARE: dict[str, tuple[str, str]] = {
    "vllm": ("2023-12-17", "vLLM before CUDA graphs (PR #1926, December 2023): each decode step launched eagerly "
                           "from Python; the runtime 'vllm' estimates today's"),
}
FITTED_FAMILIES = (ms.CNN_TRAIN, ms.BERT_TRAIN, ms.GPT_TRAIN, ms.LLM_PREFILL, ms.LLM_DECODE)
# The software (the rows' ``framework``) the model has a runtime for; rows of other runtimes (gpt-fast's compiled
# loop, AutoAWQ, ExLlamaV2, torchtune, ...) are shown, and held out in validation, until it has one.
# torchtune's recipes train in PyTorch with SDPA attention (torchtune/modules/attention.py: _sdpa_or_flex_attention)
# and fused kernels under compile: the model's runtime "fused" with flash attention.
FITTED_FRAMEWORKS: tuple[str | None, ...] = ("pytorch", "llama.cpp", None, "transformers", "torch-compile",
                                             "vllm", "exllamav2", "tensorrt-llm", "torchtune", "autoawq")
FUSED_TRAINING_FRAMEWORKS = ("torchtune",)
DEFAULT_BATCH = {"cnn": 256, "bert": 32, "gpt": 32}  # DLE defaults where a table does not state the batch
SQUAD_SEQ = 384  # DLE run_squad.sh max_seq_length
TXL_MEM = 192  # Transformer-XL base memory length (DLE config)


def model_spec(name: str) -> ModelSpec | None:
    return KNOWN_MODELS.get(name) or MEASURED_MODELS.get(name)


def _ngc_year(m: ms.Measurement) -> int | None:
    """The release year of the NGC PyTorch container a row names (``pytorch:19.07-py3`` → 2019)."""
    found = re.search(r"\bpytorch:(\d\d)\.\d\d", m.runtime or "")
    return 2000 + int(found.group(1)) if found else None


def _flag_number(m: ms.Measurement, prefix: str) -> float | None:
    """The number of a flag ``prefix-N`` (``grad-accum-8``, ``tp-4``, ``bpw-4.65``), or None."""
    for f in m.flags:
        if f.startswith(prefix):
            try:
                return float(f.removeprefix(prefix))
            except ValueError:
                return None
    return None


# A row's ``framework`` (the runtime key, db/measurements/README.md) → the model's inference runtime.
_INFER_FRAMEWORKS = {**tp.INFER_RUNTIME, "hf-transformers": "transformers", "gpt-fast": "compiled",
                     "autoawq": "autoawq"}
# A row's kernel flag → the model's kernel (throughput.FORMAT_KEY): AutoAWQ's GEMV kernel (batch-1 decoding)
# beside its default GEMM; GPTQ through Marlin beside the ExLlamaV2 kernel (transformers' default for 4 bits).
_KERNEL_FLAGS = {"awq-gemv": "awq-gemv", "gptq-marlin": "marlin"}
# Fine-tuning frameworks that run eager PyTorch training (their rows: the model's "pytorch"/"fused").
_OPTIMIZER_FLAGS = tuple(tp.OPTIMIZER_TRAFFIC)


def _infer_runtime(m: ms.Measurement) -> str:
    fw = m.framework or ""
    if fw == "llama.cpp":
        return "llama.cpp" if (m.source_date or "") >= "2024" else "llama.cpp-2023"
    # rows of no or another framework keep eager PyTorch (as before runtimes were told apart)
    return _INFER_FRAMEWORKS.get(fw, "pytorch")


@functools.cache
def case_for(m: ms.Measurement) -> tp.Case | None:
    """The model's case for a published row, or None where the row cannot be predicted. A row's case depends on the
    row alone (and the built-in model specs): worked out once per process, as every fold of a leave-one-out fit asks
    for its training rows' cases again."""
    spec = model_spec(m.model)
    if spec is None or m.precision is None or m.is_ratio:
        return None
    fused = "flash-attn" in m.flags or m.framework in FUSED_TRAINING_FRAMEWORKS
    runtime = "fused" if fused else "pytorch"
    if (year := _ngc_year(m)) is not None and year < 2020:  # PyTorch 1.x with APEX, before torch.cuda.amp
        runtime = "pytorch-2019"
    accumulation = int(_flag_number(m, "grad-accum-") or 1)
    if m.task in ("decode", "prefill"):
        runtime = _infer_runtime(m)
        if runtime == "autoawq" and m.task == "prefill":
            # AutoAWQ's prompt rows (GEMV and GEMM kernels, one GPU, one source) are not stated: fitted, they pulled
            # the Ada card's shared efficiencies (cnn-train leave-one-GPU-out median 9 % -> 15 %) while their own
            # held-out error stayed at the priors' (+600 %); its decode rows are fitted
            return None
        precision = tp.FORMATS.get((runtime, m.precision), m.precision)
        group = _flag_number(m, "group-")
        if runtime == "compiled" and m.precision == "int4" and group not in (None, 32.0):
            precision = "int4"  # gpt-fast's int4 with another group size than its default 32
        bits = _flag_number(m, "bpw-") or (tp.EXL2_BITS.get(m.precision) if precision == "exl2" else None)
        if bits is None and group and precision in ("awq", "gptq"):
            bits = 4 + 20 / group  # a 16-bit scale and a 4-bit zero per group
        elif bits is None and group and precision in ("int4", "int4-g32"):
            bits = 4 + 32 / group  # tinygemm: a bf16 scale and a bf16 zero per group
        kernel = next((k for f, k in _KERNEL_FLAGS.items() if f in m.flags), "")
        ways = int(_flag_number(m, "tp-") or 1)
        prompt, gen = m.prompt_len or (0 if m.task == "decode" else 512), m.gen_len or 256
        # a decode row's value is the tokens/s of all its batch_size streams together (the total over its GPUs,
        # db/measurements/README.md): the batch case steps them all, one token each
        # an FP8 KV cache (flag fp8-kv): each step reads 1 B per cached element, not 2
        one = tp.Case(spec, "decode", precision, 1, 1, runtime=runtime, lm_head=True, bits=bits, kernel=kernel,
                      tensor_parallel=ways, kv_bytes=1.0 if "fp8-kv" in m.flags else 2.0)
        cases = tp.llm_cases(one, m.batch_size or 1, prompt, gen)
        return cases["batch"] if m.task == "decode" else cases["prefill"]
    task = "train" if m.task == "train" else "infer"
    if spec.family == "cnn":
        return tp.Case(spec, task, m.precision, m.batch_size or DEFAULT_BATCH["cnn"], 1, runtime=runtime,
                       layout="nhwc" if "nhwc" in m.flags else "nchw", accumulation=accumulation, optimizer="sgd")
    attention = "flash" if fused else "eager"
    training = tp.Case(spec, task, m.precision, 1, finetune="qlora" if "qlora" in m.flags else "lora"
                       if "lora" in m.flags else "full", lora_rank=int(_flag_number(m, "lora-r") or 16),
                       recompute="grad-ckpt" in m.flags,
                       optimizer=next((f for f in m.flags if f in _OPTIMIZER_FLAGS), "adamw"),
                       compiled=m.framework == "torch-compile" or "compile" in m.flags, runtime=runtime,
                       offload="all" if {"cpu-offload", "activation-offload"} <= set(m.flags) else "optimizer"
                       if "cpu-offload" in m.flags else "activations" if "activation-offload" in m.flags else "none",
                       attention=attention, accumulation=accumulation)
    if spec.decoder:
        s = m.seq_len or spec.context
        return dataclasses.replace(training, batch=m.batch_size or DEFAULT_BATCH["gpt"], seq=s,
                                   attn_ctx=s + TXL_MEM if m.model == "transformer-xl-base" else None,
                                   lm_head=True, shards=m.gpu_count if "fsdp" in m.flags else 1)
    return dataclasses.replace(training, batch=m.batch_size or DEFAULT_BATCH["bert"], seq=m.seq_len or SQUAD_SEQ)


def hw_for(m: ms.Measurement, gpu: Gpu) -> tp.Hw:
    """The GPU's figures for a row, with the link its tensor-parallel GPUs talk over (the row's interconnect:
    NVLink/NVSwitch at the card's NVLink rate, else PCIe)."""
    hw = tp.gpu_hw(gpu)
    if (_flag_number(m, "tp-") or 1) > 1:
        if m.interconnect in ("nvlink", "nvswitch") and gpu.nvlink_bandwidth_gbs:
            return dataclasses.replace(hw, link=gpu.nvlink_bandwidth_gbs / 2 * 1e9, link_path="nvlink")
        return dataclasses.replace(hw, link=hw.pcie, link_path="pcie")
    return hw


def stream_value(m: ms.Measurement) -> float:
    """What the model predicts for a row: per GPU for data-parallel training; for LLM rows the one
    stream's rate however many GPUs it passes through (layer split); for serving rows the whole build's figure."""
    if m.family in (ms.LLM_DECODE, ms.LLM_PREFILL, *ms.SERVE_FAMILIES):
        return m.value
    return m.per_gpu_value


def _one_node_sharded(m: ms.Measurement) -> bool:
    """Sharded data parallel (FSDP) over the GPUs of one NVSwitch node: its all-gathers and
    reduce-scatters overlap the compute, so each GPU's share is a single GPU's step (the tables'
    MFU is per GPU). Across nodes the network enters: those rows are not fitted."""
    return "fsdp" in m.flags and m.interconnect == "nvswitch" and m.gpu_count <= 8


def not_fitted_reason(m: ms.Measurement) -> str | None:
    """Why a row is kept in the dataset but not fitted (its model, kernel or software; see NOT_FITTED*), or None."""
    if m.model in NOT_FITTED:
        return f"{m.model}: {NOT_FITTED[m.model]}"
    flag = next((f for f in m.flags if f in NOT_FITTED_FLAGS), None)
    if flag is not None:
        return f"{flag}: {NOT_FITTED_FLAGS[flag]}"
    if m.framework in FUSED_TRAINING_FRAMEWORKS and m.task == "train" and "packed" not in m.flags:
        return ("batches padded to their longest sample: the tokens/s count real tokens, and the share of "
                "padding is not stated")
    old = NOT_FITTED_SOFTWARE.get(m.framework or "")
    if old is not None and m.source_date is not None and m.source_date < old[0]:
        return old[1]
    return None


def fit_rows(rows: Iterable[ms.Measurement], gpus: Mapping[str, Gpu]) -> list[ms.Measurement]:
    """The rows the fit uses (see the module docstring)."""
    out = []
    for m in rows:
        if m.is_guide or m.family not in FITTED_FAMILIES or m.gpu not in gpus or not_fitted_reason(m) is not None \
                or m.framework not in FITTED_FRAMEWORKS or case_for(m) is None:
            continue
        tensor_parallel = (_flag_number(m, "tp-") or 1) == m.gpu_count and m.family in (ms.LLM_DECODE, ms.LLM_PREFILL)
        if m.gpu_count > 1 and "layer-split" not in m.flags and not _one_node_sharded(m) and not tensor_parallel:
            continue
        out.append(m)
    return out


# ---------------------------------------------------------------------------------------------
# serving rows (task serve): predicted by core/estimate/serving.py on the fitted step model, not fitted themselves

# The runtimes the serving model stands for (continuous batching, paged KV cache)
SERVE_FRAMEWORKS = ("vllm", "tensorrt-llm")
# Serving rows kept in the dataset but not stated by the model, and why (by flag)
NOT_STATED_SERVE_FLAGS: dict[str, str] = {
    # MLPerf Inference's llama2-70b task (OpenOrca, 24,576 samples): the results publish the generated tokens/s and
    # samples/s (294.45 tokens per sample in the reference README), not the prompts' mean length, on which the
    # prefill share of every step, and so all four serving figures, depends
    ms.PROMPT_UNPUBLISHED: "the source does not publish the requests' mean prompt length",
    # NVIDIA DLI's NIM sizing dataset: GenAI-Perf counted the synthetic prompts and outputs with its default tokenizer
    # ('the exact token count may be skewed', the course notebook), and the older NIM's engine settings are unstated
    "tool-tokenizer": "the lengths are the benchmark tool's token counts with its own tokenizer, not the model's: the "
                      "tokens the engine ran are not published",
    # vLLM 0.4.1 served AWQ through AutoAWQ's GEMM kernel, which vLLM's docs of the time call under-optimized, slower
    # than the 16-bit model at batch (docs/source/quantization/auto_awq.rst at d60d22d); the serving model runs a
    # format's kernel as the runtime runs it now (AWQ-Marlin), so the row's 7x slower steps are not its subject
    "awq-gemm": "vLLM 0.4.1's AWQ GEMM kernel, under-optimized by vLLM's own docs: the serving model runs AWQ as "
                "current vLLM does (Marlin kernels)",
}


def serve_workload(m: ms.Measurement) -> Workload:
    """The planner's serving workload for a published serving row: its model, weights, runtime, lengths and load
    (a request rate from the flag rate-X, else batch_size requests in flight: the offline runs' requests all
    submitted at once), tensor parallel over its GPUs with the flag tp-N."""
    precision, quant = (m.precision or "fp16"), None
    if precision in ("awq", "gptq"):
        precision, quant = "fp16", precision
    rate = _flag_number(m, "rate-")
    return Workload(m.model, "infer", precision=precision, quant=quant, runtime=m.framework,
                    parallel="tensor" if (_flag_number(m, "tp-") or 1) > 1 else "none",
                    concurrency=None if rate is not None else m.batch_size, request_rate=rate,
                    prompt_tokens=m.prompt_len, output_tokens=m.gen_len)


def serve_reason(m: ms.Measurement, gpus: Mapping[str, Gpu]) -> str | None:
    """Why the serving model cannot state a serving row (or None: it can)."""
    gaps = []
    if m.framework not in SERVE_FRAMEWORKS:
        gaps.append(f"runtime {m.framework} (serving: {', '.join(SERVE_FRAMEWORKS)})")
    if model_spec(m.model) is None or m.model not in KNOWN_MODELS:
        gaps.append(f"model {m.model}")
    if m.gpu not in gpus:
        gaps.append(f"GPU {m.gpu}")
    if m.gpu_count > 1 and (_flag_number(m, "tp-") or 1) != m.gpu_count:
        gaps.append(f"{m.gpu_count} GPUs ({';'.join(m.flags) or 'replicas'})")
    gaps.extend(f"{f}: {why}" for f, why in NOT_STATED_SERVE_FLAGS.items() if f in m.flags)
    return "; ".join(gaps) or None


def predict_serve(m: ms.Measurement, gpu: Gpu, theta: Sequence[float]) -> float:
    """What serving.py estimates for a serving row at the fitted parameters ``theta``: the whole build's output
    tokens/s or requests/s, or the median TTFT / TPOT in ms (:func:`serve_prediction`'s central value)."""
    return serve_prediction(m, gpu, theta)[0]


def serve_prediction(m: ms.Measurement, gpu: Gpu, theta: Sequence[float]
                     ) -> tuple[float, tuple[float, float] | None]:
    """The central value :func:`predict_serve` gives, and the span the model states around it from physics rather
    than from residuals: a closed-loop TTFT's, from requests arriving spread out to clients sending in step
    (serving.lockstep_ttft; the central value their geometric mean), as (bottom, top); None elsewhere. A TTFT
    where the model finds the row's request rate beyond the build's capacity (it states none there) is its TTFT at
    that capacity (the running batch the cache holds, no queue)."""
    from configurator.core.estimate import serving as srv

    w = serve_workload(m)
    hw = hw_for(m, gpu)
    system = tp.System(gpus=m.gpu_count, link=hw.link, link_path=hw.link_path)
    f = tp.Factors(fit=Fit(tuple(theta), (), ()))
    cap = int(_flag_number(m, "max-batch-") or srv.MAX_SEQS)
    # the run's engine settings: an FP8 KV cache (fp8-kv), decode steps per scheduling (multi-step-N)
    kv = "fp8" if "fp8-kv" in m.flags else None
    steps = int(_flag_number(m, "multi-step-") or 1)
    chunked = "no-chunked-prefill" not in m.flags  # prefill-first scheduling (vLLM's enable_chunked_prefill=False)
    # TensorRT-LLM's guaranteed_no_evict scheduler (its default) where the row states it; else the runtime's default
    no_evict = True if "no-evict" in m.flags else None

    def run(load: Workload) -> srv.Serving:
        return srv.estimate(load, tp.gpu_hw(gpu), gpu.vram_gb, m.gpu_count, f, system, max_seqs=cap, ranges=False,
                            kv_cache_dtype=kv, scheduler_steps=steps, chunked_prefill=chunked, no_evict=no_evict)

    s = run(w)
    if m.family == ms.LLM_SERVE_TTFT and s.ttft_ms is None:
        s = run(dataclasses.replace(w, request_rate=None, concurrency=max(int(s.max_concurrency.value), 1)))
    if m.family == ms.LLM_SERVE_TTFT:
        assert s.ttft_ms is not None
        return s.ttft_ms.value, s.ttft_span
    if m.family == ms.LLM_SERVE_TPOT:
        return s.tpot_ms.value, None
    return (s.requests_per_s.value if m.unit == "requests/s" else s.output_tokens_per_s.value), None


# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class FamilyError:
    family: str
    measurements: int
    gpus: int
    median: float  # |predicted / measured − 1|, leave-one-GPU-out
    p90: float
    worst: float
    low_ratio: float  # measured / predicted: 10th percentile (the range's lower end)
    high_ratio: float  # 90th percentile


@dataclass(frozen=True)
class CvRow:
    m: ms.Measurement
    predicted: float

    @property
    def error(self) -> float:
        return self.predicted / stream_value(self.m) - 1


@dataclass(frozen=True)
class Fit:
    theta: tuple[float, ...]
    rows: tuple[ms.Measurement, ...]
    fitted: tuple[float, ...]  # in-sample predictions, row by row
    cv: tuple[CvRow, ...] = ()
    families: Mapping[str, FamilyError] = field(default_factory=dict)
    pairs_in_order: int = 0
    pairs: int = 0
    serving: tuple[ms.Measurement, ...] = ()  # the serving rows (task serve) validated beside the fit, not fitted

    def value(self, name: str) -> float:
        return math.exp(self.theta[tp.INDEX[name]])

    def family(self, fam: str) -> FamilyError | None:
        return self.families.get(fam)

    def parameters(self) -> dict[str, float]:
        """Every parameter's fitted value (efficiencies, FLOP/J, seconds; deviations as factors)."""
        return {n: float(f"{math.exp(v):.4g}") for n, v in zip(tp.NAMES, self.theta, strict=True)}


def fit_theta(rows: Sequence[ms.Measurement], gpus: Mapping[str, Gpu],
               theta0: Sequence[float] | None = None) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """The fitted parameters for ``rows`` and the rate each row is then predicted at; a fit of shipped rows on the
    shipped GPU specs is read back from an earlier run where one kept it (:mod:`theta_cache`)."""
    from configurator.core.estimate.theta_cache import CACHE

    key = _cache_key(rows, gpus, theta0) if CACHE.enabled else None
    if key is not None and (kept := CACHE.get(key)) is not None and len(kept[1]) == len(rows):
        return kept
    # numpy is loaded here, not with the module: the engine imports this module, and the app's first
    # window (an empty build) has nothing to fit.
    from configurator.core.estimate import least_squares

    cases = [(c, hw_for(m, gpus[m.gpu])) for m in rows if (c := case_for(m)) is not None]
    got = least_squares.fit_theta(cases, [stream_value(m) for m in rows], tp.prior_theta(), tp.prior_sigma(),
                                  theta0)
    if key is not None:
        CACHE.put(key, got)
    return got


def _cache_key(rows: Sequence[ms.Measurement], gpus: Mapping[str, Gpu], theta0: Sequence[float] | None
               ) -> str | None:
    """The key of a fit the cache may keep: the rows the shipped records themselves and the GPUs the shipped
    specs (the objects, not equal ones: a caller's own rows or parts are never looked up), else None."""
    from configurator.core.estimate.theta_cache import CACHE

    records = {id(m) for m in shipped()}
    specs = measured_gpus()
    if not all(id(m) in records for m in rows) or any(specs.get(i) is not g for i, g in gpus.items()):
        return None
    return CACHE.key([m.id for m in rows], list(gpus), theta0)


def predict_row(m: ms.Measurement, gpu: Gpu, theta: Sequence[float]) -> float:
    c = case_for(m)
    assert c is not None
    return tp.rate(c, hw_for(m, gpu), theta)


def workload_key(m: ms.Measurement) -> tuple[Any, ...]:
    """Rows of the same workload on different GPUs (for ranking pairs)."""
    return (m.origin, m.model, m.task, m.precision, m.seq_len, m.prompt_len, m.gen_len, m.gpu_count, m.flags)


def quantile(values: Sequence[float], q: float) -> float:
    """The q-quantile of ``values`` by linear interpolation between order statistics (0 when empty)."""
    v = sorted(values)
    if not v:
        return 0.0
    pos = q * (len(v) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (pos - lo)


def fit(rows: Sequence[ms.Measurement], gpus: Mapping[str, Gpu], cross_validate: bool = True) -> Fit:
    """Fit the model to ``rows`` (filtered by :func:`fit_rows`) and, with ``cross_validate``, refit
    once per GPU without its rows to measure the error on GPUs the fit has not seen."""
    use = fit_rows(rows, gpus)
    if not use:
        return Fit(tuple(tp.prior_theta()), (), ())
    theta, fitted = fit_theta(use, gpus)
    serving = tuple(m for m in rows if m.task == "serve" and not m.is_guide and m.gpu in gpus)
    if not cross_validate:
        return Fit(theta, tuple(use), fitted, serving=serving)
    cv: list[CvRow] = []
    for g in sorted({m.gpu for m in use}):
        train = [m for m in use if m.gpu != g]
        held = [m for m in use if m.gpu == g]
        th = fit_theta(train, gpus, theta)[0] if train else tuple(tp.prior_theta())
        cv.extend(CvRow(m, predict_row(m, gpus[m.gpu], list(th))) for m in held)
    families: dict[str, FamilyError] = {}
    for fam in FITTED_FAMILIES:
        fr = [r for r in cv if r.m.family == fam]
        if not fr:
            continue
        errs = [abs(r.error) for r in fr]
        ratios = [stream_value(r.m) / r.predicted for r in fr]
        families[fam] = FamilyError(fam, len(fr), len({r.m.gpu for r in fr}), statistics.median(errs),
                                    quantile(errs, 0.9), max(errs), quantile(ratios, 0.1),
                                    quantile(ratios, 0.9))
    in_order, pairs = ranking(cv)
    return Fit(theta, tuple(use), fitted, tuple(cv), families, in_order, pairs, serving)


def ranking(cv: Sequence[CvRow]) -> tuple[int, int]:
    """Pairs of GPUs measured on the same workload that the held-out predictions put in the measured order."""
    groups: dict[tuple[Any, ...], list[CvRow]] = {}
    for r in cv:
        groups.setdefault(workload_key(r.m), []).append(r)
    in_order = pairs = 0
    for group in groups.values():
        for i, x in enumerate(group):
            for y in group[i + 1:]:
                if x.m.gpu == y.m.gpu:
                    continue
                pairs += 1
                mx, my = stream_value(x.m), stream_value(y.m)
                if mx == my or (mx > my) == (x.predicted > y.predicted):
                    in_order += 1
    return in_order, pairs


# ---------------------------------------------------------------------------------------------
# memoised fits and the shipped measurements

_FITS: dict[tuple[Any, ...], Fit] = {}
_SHIPPED: list[list[ms.Measurement]] = []


def shipped() -> list[ms.Measurement]:
    """The shipped measurements (db/measurements), read once."""
    if not _SHIPPED:
        _SHIPPED.append(ms.load())
    return _SHIPPED[0]


def _gpu_key(g: Gpu) -> tuple[Any, ...]:
    return (g.id, g.architecture, g.vendor, g.compute_capability, g.memory_bandwidth_gbs, g.fp32_tflops,
            g.tensor_cores, g.fp16_tensor_tflops, g.bf16_tensor_tflops, g.int8_tops, g.board_power_w)


_MEASURED_GPUS: list[dict[str, Gpu]] = []


def measured_gpus() -> dict[str, Gpu]:
    """The vendor specs of the GPUs the shipped measurements were made on, from the shipped
    catalogue (db/catalogue/gpu.toml), read once. The fit rests on these alone, so an estimate
    never depends on which other parts a caller happens to pass to the engine."""
    if not _MEASURED_GPUS:
        from configurator.core.catalogue import load_catalogue

        wanted = {m.gpu for m in shipped()}
        gpus = {p.id: p for p in load_catalogue(category="gpu") if isinstance(p, Gpu) and p.id in wanted}
        _MEASURED_GPUS.append(gpus)
    return _MEASURED_GPUS[0]


def fit_for(rows: Sequence[ms.Measurement] | None = None, gpus: Mapping[str, Gpu] | None = None) -> Fit:
    """The fit to ``rows`` (default: the shipped measurements) on the measured GPUs' specs
    (default: the shipped catalogue's), memoised on both."""
    data = shipped() if rows is None else rows
    specs = measured_gpus() if gpus is None else gpus
    measured = {m.gpu for m in data}
    used = {i: g for i, g in specs.items() if i in measured}
    key = (tuple(_gpu_key(g) for _i, g in sorted(used.items())),
           "shipped" if rows is None else tuple((m.id, m.value) for m in rows))
    found = _FITS.get(key)
    if found is None:
        found = _FITS[key] = fit(data, used)
    return found


T = TypeVar("T")
_DERIVED: dict[tuple[int, str], tuple[Fit, Any]] = {}
MAX_DERIVED = 32  # entries kept: a few fits (the shipped one, a test's) × the few things derived from each


def derived(fit: Fit, name: str, compute: Callable[[], T]) -> T:
    """What ``compute`` derives from ``fit`` (validated range widths, the scaling band, rows by format),
    worked out once per fit and ``name``. Keyed by the fit's identity (a fit is not hashable) and holding the
    fit, so a key is never reused by another; the oldest entries go beyond MAX_DERIVED."""
    key = (id(fit), name)
    found = _DERIVED.get(key)
    if found is not None and found[0] is fit:
        return cast(T, found[1])
    value = compute()
    _DERIVED[key] = (fit, value)
    while len(_DERIVED) > MAX_DERIVED:
        del _DERIVED[next(iter(_DERIVED))]
    return value


def factors_for(rows: Sequence[ms.Measurement] | None = None) -> tp.Factors:
    return tp.Factors(fit=fit_for(rows))


# ---------------------------------------------------------------------------------------------
# the planner's workload against the measurements


def family_of(w: Workload) -> str:
    spec = w.spec()
    if spec.family != "transformer":  # CNNs, detectors, diffusion
        return ms.CNN_TRAIN if w.task == "train" else ms.OTHER
    if not spec.decoder:
        return ms.BERT_TRAIN if w.task == "train" else ms.OTHER
    return ms.GPT_TRAIN if w.task == "train" else ms.LLM_DECODE


_PRECISIONS = {"fp32": ("fp32", "tf32"), "amp": ("amp",), "fp16": ("fp16", "amp"), "bf16": ("bf16",),
               "int8": ("int8", "q8_0"), "int4": ("int4", "q4_0", "q4_k_m")}


def matches(rows: Iterable[ms.Measurement], gpu_id: str, w: Workload, *, guide: bool = False,
            any_batch: bool = False) -> list[ms.Measurement]:
    """One-GPU rows of the same model, task and precision on this GPU, at a close batch (within 8×,
    or not stated) and sequence length (within 1.5×); the guides' rows with ``guide``."""
    spec = w.spec()
    task = w.task if w.task == "train" else ("decode" if spec.decoder else "inference")
    out = []
    for m in rows:
        # the GPU and the model first: they leave out nearly every row, before any property is asked for
        if m.gpu != gpu_id or m.model != w.model or m.is_guide != guide or m.task != task or m.gpu_count != 1:
            continue
        if m.precision not in _PRECISIONS.get(w.precision, (w.precision,)) or m.is_ratio:
            continue
        if not any_batch and m.batch_size and not 1 / 8 <= m.batch_size / w.effective_batch <= 8:
            continue
        if spec.is_transformer and task != "decode":
            s = m.seq_len or (SQUAD_SEQ if not spec.decoder else spec.context)
            if not 1 / 1.5 <= s / w.effective_seq_len <= 1.5:
                continue
        out.append(m)
    return out
