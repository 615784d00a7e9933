"""Throughput of a workload on one GPU (or the CPU): per-layer-type work over the unit it runs on.

The time of one step is a sum of terms, each a piece of work over a rate times an efficiency:

    t = F / (peak_unit × e_unit)          GEMM and convolution FLOPs on the unit the precision runs on:
                                          Tensor Cores for fp16/bf16/amp (and TF32 for fp32 on
                                          compute capability ≥ 8.0), shader FP32 cores otherwise;
                                          llama.cpp's cuBLAS GEMMs accumulate in FP16, which GeForce
                                          boards run at twice their FP32-accumulate rate
      + F·r / (P_board × φ)               the same FLOPs against the board power: a card sustains at most
                                          φ FP16 FLOPs per joule (the power-limited rate of many cards sits
                                          far below their spec-sheet tensor peak); r weighs a FLOP by its
                                          format's rate (TF32 2, INT8 or FP16 accumulate on GeForce ½)
      + B / (bandwidth × e_bw)            memory-bound traffic on DRAM: elementwise, normalisation,
                                          softmax, optimizer updates; NCHW transposes around FP16
                                          convolutions; llama.cpp's FP16 copies of quantised weights in
                                          prompt processing; LLM decode streams every weight (+ the KV
                                          cache) once per token
      + B × ipb / issue                   the instructions those eager kernels issue per byte, over the
                                          SMs' issue rate (SMs × clock × 128)
      + K × t_launch                      launch overhead per kernel (per operator where the framework's own
                                          dispatch costs more than the launch: PyTorch of 2019); the optimizer
                                          steps of 2019 loop over the parameter tensors (kernels per tensor)
      + M × t_dequant                     llama.cpp before 2024: a fixed cost per dequantised matrix
                                          multiplication in prompt processing; bitsandbytes (NF4, LLM.int8)
                                          in transformers and QLoRA: per quantised projection and pass
      + C × α × λ_path + C × V / link     collectives of a model split over n GPUs (inference): tensor
                                          parallel 2 all-reduces per layer (V = 2(n − 1)/n × tokens × hidden
                                          × 2 B), expert parallel 2 all-to-alls per MoE layer, a pipeline n − 1
                                          hand-overs; α the NCCL latency over NVLink, λ its factor for PCIe
                                          P2P (2) and the path through host memory (4)
      + S / (B_host × e_bw,cpu) + X / B_pcie   training with offload: the optimizer step on the host and the
                                          gradients/weights (and saved activations) over PCIe, half hidden

LLM inference as the machine runs it (:func:`llm_cases`), for a batch of b streams, prompts of p tokens and g
generated tokens each:

    decode step (b tokens):  F = b × (2 N_body + 2 V h + 4 L ctx h),  ctx = p + g/2 (the generation's mean)
                             B = W (the weights, read once per step for all b streams) + b × KV(ctx)
                             (each stream's own cache: 2 L ctx h_kv × 2 B), kernels per step as for one
    tokens/s of the batch = b / t(step);  one stream alone = 1 / t(step at b = 1)
    prefill (b prompts):     F = b × p × (2 N + attention over p/2), B = W once per step (+ the dequantised FP16
                             copies of formats that make them: llama.cpp once per ⌈b p / 512⌉ packed batches of
                             tokens), kernels per step: its rate b p / t grows with b while W and the kernels
                             dominate, and flattens where the FLOPs do (compute-bound)

The machine's figure (``throughput_total``) is the batch's tokens/s times the model copies the build holds.

Weight formats (the workload's ``quant``: quant.py): bits per weight with the group's scales and zeros; each
format's kernel has its own efficiencies q.<key> (× on the weight streaming: t_mem = B / (bandwidth × e_bw ×
q)) and qc.<key> (× on its GEMMs), fitted to published rows of that kernel. FP8 (``precision: fp8``, and
quant fp8-w8a8) runs on FP8 tensor cores at twice the FP16 FP32-accumulate rate (compute capability ≥ 8.9).

Runtimes (the workload's ``runtime``; default llama.cpp for LLM inference, PyTorch for training): each has
its own decode bandwidth share e_bw,rt and seconds per kernel t_launch,rt — transformers' eager ``generate``
(Python dispatch of each operator: overhead-bound at batch 1), torch.compile with CUDA graphs (near the
bandwidth bound), vLLM, exllamav2, TensorRT-LLM, llama.cpp — and its weight formats for int8/int4 (FORMATS:
bitsandbytes NF4/LLM.int8, gpt-fast int8/int4, AWQ, EXL2, GGUF), read at their bits per weight; formats that
dequantise to an FP16 copy for prompts (bitsandbytes, exllamav2) pay 4 B per weight and its unpacking.
With tensor parallelism each GPU reads 1/n of the weights and KV cache and does 1/n of the FLOPs; kernels
do not split. A pipeline does not speed one stream (its stages run in turn). A mixture of experts reads the
experts its tokens are routed to (1 − (1 − k/E)^tokens of them); expert parallelism spreads them n ways.

Training: full fine-tuning 6N FLOPs per token (+ attention); LoRA/QLoRA ≈ 4N (the frozen weights get
activation gradients, no weight gradients) + 6 per adapter weight, and 5 kernels per adapted projection
and pass; activation checkpointing runs the forward again (+2N, its traffic and kernels); QLoRA
dequantises every NF4 weight in each pass (2.5 B per weight and its unpacking). The optimizer step moves
OPTIMIZER_TRAFFIC bytes per trained parameter (AdamW FP32 28, bf16 14, 8-bit 16, SGD 20); torch.compile
leaves a fitted share of eager's memory-bound traffic and kernels.

Several GPUs (data parallel): speedup = N × η^log2(N) × t / (t + (1 − overlap) · t_allreduce), with
the ring all-reduce time from the GPU-to-GPU link, of every gradient (of the adapters alone under LoRA).
Inference of one stream is not multiplied by the number of GPUs: several GPUs help one stream only through
tensor (or expert) parallelism.
The CPU uses the same terms with its vector peak (cores × lanes × 2 FMA × 2 × clock) and the
bandwidth of its installed memory (channels × MT/s × 8 B).

The package, one module per part of the model:

- ``runtimes``: the vocabulary (architectures, runtimes, weight formats and their bits per weight, optimizer
  traffic, link latency);
- ``priors``: the fitted parameters theta, their priors and order (GLOBALS, NAMES, INDEX);
- ``hardware``: a GPU or the CPU as the terms see it (Hw);
- ``case``: one workload instance (Case), a term (Term), what its model and format imply;
- ``work``: a step's FLOPs, bytes and kernels (work);
- ``terms``: the step time as terms, power terms included (terms, step_time, rate);
- ``workloads``: the planner's workload as cases (planner_cases, llm_cases);
- ``estimate``: the planner's figures (Factors, Throughput, single_gpu, cpu_only, scaling).
"""

from configurator.core.estimate.throughput.case import (
    Case,
    Term,
    experts,
    format_key,
    kv_hidden,
)
from configurator.core.estimate.throughput.estimate import (
    FACTORS,
    Factors,
    System,
    Throughput,
    cpu_only,
    link_bytes_per_s,
    scaling,
    single_gpu,
)
from configurator.core.estimate.throughput.hardware import (
    FP16_ACC_PER_FP32,
    FP32_LANES_PER_SM,
    Hw,
    arch_family,
    cpu_hw,
    cpu_peak_flops,
    gpu_hw,
)
from configurator.core.estimate.throughput.priors import (
    ARCH_PARAMS,
    ARCH_SIGMA,
    GLOBALS,
    INDEX,
    NAMES,
    Param,
    param_names,
    prior_sigma,
    prior_theta,
)
from configurator.core.estimate.throughput.runtimes import (
    ARCHS,
    BITS_PER_WEIGHT,
    DEQUANT_COPY,
    EAGER,
    EXL2_BITS,
    FORMAT_KEY,
    FORMAT_KEYS,
    FORMAT_SIGMA,
    FORMATS,
    HOST_BW_DEFAULT,
    INFER_RUNTIME,
    LINK_LATENCY,
    LLAMA_FORMAT_KEY,
    LORA_KERNELS,
    OPT_KERNELS_PER_TENSOR_2019,
    OPTIMIZER_TRAFFIC,
    OVERLAP,
    QUANTISED,
    RUNTIMES,
    SIXTEEN_BIT,
    UBATCH,
    VENDOR_FACTOR,
    WEIGHT_ONLY,
)
from configurator.core.estimate.throughput.terms import (
    is_tensor_term,
    rate,
    step_time,
    tensor_peak,
    terms,
)
from configurator.core.estimate.throughput.work import (
    trained_params,
    work,
)
from configurator.core.estimate.throughput.workloads import (
    grad_bytes,
    llm_cases,
    planner_cases,
    quant_case,
    runtime_used,
)

__all__ = [
    "ARCHS",
    "ARCH_PARAMS",
    "ARCH_SIGMA",
    "BITS_PER_WEIGHT",
    "DEQUANT_COPY",
    "EAGER",
    "EXL2_BITS",
    "FACTORS",
    "FORMATS",
    "FORMAT_KEY",
    "FORMAT_KEYS",
    "FORMAT_SIGMA",
    "FP16_ACC_PER_FP32",
    "FP32_LANES_PER_SM",
    "GLOBALS",
    "HOST_BW_DEFAULT",
    "INDEX",
    "INFER_RUNTIME",
    "LINK_LATENCY",
    "LLAMA_FORMAT_KEY",
    "LORA_KERNELS",
    "NAMES",
    "OPTIMIZER_TRAFFIC",
    "OPT_KERNELS_PER_TENSOR_2019",
    "OVERLAP",
    "QUANTISED",
    "RUNTIMES",
    "SIXTEEN_BIT",
    "UBATCH",
    "VENDOR_FACTOR",
    "WEIGHT_ONLY",
    "Case",
    "Factors",
    "Hw",
    "Param",
    "System",
    "Term",
    "Throughput",
    "arch_family",
    "cpu_hw",
    "cpu_only",
    "cpu_peak_flops",
    "experts",
    "format_key",
    "gpu_hw",
    "grad_bytes",
    "is_tensor_term",
    "kv_hidden",
    "link_bytes_per_s",
    "llm_cases",
    "param_names",
    "planner_cases",
    "prior_sigma",
    "prior_theta",
    "quant_case",
    "rate",
    "runtime_used",
    "scaling",
    "single_gpu",
    "step_time",
    "tensor_peak",
    "terms",
    "trained_params",
    "work",
]
