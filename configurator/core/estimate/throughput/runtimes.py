"""The throughput model's vocabulary: the architectures and runtimes it fits, the weight formats (bits per weight,
their kernels, which dequantise to an FP16 copy), the optimizer's traffic, LoRA's kernels, the links' collective
latency. Constants only; every other module of the package reads them.
"""

from __future__ import annotations

OVERLAP = 0.5  # share of the all-reduce DDP hides behind the backward pass (bucketed)
ARCHS: tuple[str, ...] = ("Volta", "Turing", "Ampere", "Ada", "Hopper", "Blackwell")
# llama.cpp before 2024 (no CUDA graphs, older kernels) and since: measured apart, fitted apart.
# "fused": PyTorch training as current LLM stacks run it, with fused attention (SDPA/FlashAttention)
# and fused kernels (measured: MosaicML llm-foundry); the planner uses it for transformer training
# with the workload's attention "sdpa", eager PyTorch ("pytorch", measured: NVIDIA DLE) otherwise.
# "pytorch-2019": eager PyTorch 1.x as NGC's 2019 containers ran it (19.xx: PyTorch 1.2 with APEX AMP), which
# the measurements of that year (NVIDIA DLE's BERT tables, NGC 19.07) were made with; the planner never uses
# it (it estimates current software), the fit keeps those rows from pulling current PyTorch's parameters.
# LLM inference runtimes (the workload's ``runtime``): "transformers" (Hugging Face ``generate``, eager
# PyTorch: each operator dispatched from Python), "compiled" (torch.compile with a static KV cache and CUDA
# graphs, as gpt-fast and transformers' static cache run it), "vllm", "exllamav2", "tensorrt-llm".
# "autoawq": AutoAWQ's fused modules (its attention, MLP and KV cache; eager PyTorch without CUDA graphs), which
# its benchmark table was measured with; the planner never uses it (transformers runs AWQ through the same kernels).
RUNTIMES: tuple[str, ...] = ("pytorch", "pytorch-2019", "fused", "llama.cpp", "llama.cpp-2023",
                             "transformers", "compiled", "vllm", "exllamav2", "tensorrt-llm", "autoawq")
# The workload's inference runtime (core/build/limits.py INFER_RUNTIMES) → the model's runtime.
INFER_RUNTIME = {"transformers": "transformers", "torch-compile": "compiled", "vllm": "vllm",
                 "llama.cpp": "llama.cpp", "exllamav2": "exllamav2", "tensorrt-llm": "tensorrt-llm"}
# Runtimes whose memory-bound kernels are eager PyTorch kernels (the ``ipb`` instruction term applies);
# the others fuse them (CUDA graphs, custom kernels).
EAGER = ("pytorch", "pytorch-2019", "fused", "transformers")
# Stated, uncalibrated prior for vendors without measurements: AMD (ROCm) and Intel reach half of
# what an NVIDIA card of the same spec-sheet figures reaches (the guides call ROCm poorly compatible).
VENDOR_FACTOR = {"nvidia": 1.0, "amd": 0.5, "intel": 0.5}
# Bits per weight as stored: GGUF block formats carry a scale per block of 32 (q4_0: 18 B / 32 weights);
# bitsandbytes NF4 a uint8 absmax per 64 weights with double quantisation (+ an fp32 per 256 absmax):
# 4 + 8/64 + 32/(64·256) (Dettmers et al. 2023, QLoRA §2); AWQ/GPTQ with groups of 128: an fp16 scale and
# a 4-bit zero per group, 4 + 20/128; EXL2 states its own average (``Case.bits``: its bpw), 4.65 when not
# given (exllamav2's 4.65 bpw preset); LLM.int8 and fp8: a byte per weight (a scale per row); gpt-fast's
# int4 a bf16 scale and zero per group of 32: 4 + 32/32.
BITS_PER_WEIGHT = {"fp32": 32.0, "tf32": 32.0, "amp": 16.0, "fp16": 16.0, "bf16": 16.0, "fp8": 8.0,
                   "int8": 8.5, "q8_0": 8.5, "q5_k_m": 5.7, "q4_k_m": 4.85, "q4_0": 4.5, "int4": 4.5,
                   "nf4": 4.127, "bnb-int8": 8.0, "awq": 4.16, "gptq": 4.16, "exl2": 4.65, "int4-g32": 5.0,
                   "bnb-fp4": 4.127, "fp8-wo": 8.0}
QUANTISED = ("int8", "int4", "q8_0", "q5_k_m", "q4_k_m", "q4_0")
# Weight-only formats of the LLM runtimes: stored packed, multiplied in 16 bits (the FP16 tensor peak).
# GGUF's formats run weight-only outside llama.cpp too (vLLM's GGUF kernels); fp8-wo: FP8 weights multiplied in 16
# bits (FP8 Marlin, W8A16).
WEIGHT_ONLY = ("nf4", "bnb-fp4", "bnb-int8", "awq", "gptq", "exl2", "int8", "int4", "int4-g32", "q4_k_m", "q8_0",
               "fp8-wo")
# The kernels of the weight formats, each with its own fitted efficiencies (``q.<key>`` on the weight streaming,
# ``qc.<key>`` on the GEMMs): a Case's ``kernel`` where it names one (AutoAWQ's GEMV kernel, Marlin), else its
# precision. bitsandbytes' FP4 runs NF4's code path; gpt-fast's int4 is torchao's tinygemm; llama.cpp's int8 /
# int4 are Q8_0 / Q4_0.
FORMAT_KEY = {"awq": "awq", "awq-gemv": "awq-gemv", "gptq": "gptq", "marlin": "marlin", "nf4": "nf4",
              "bnb-fp4": "nf4", "bnb-int8": "bnb-int8", "exl2": "exl2", "q4_k_m": "q4_k_m", "q4_0": "q4_0",
              "q8_0": "q8_0", "int4": "int4", "int4-g32": "int4", "int8": "int8", "fp8": "fp8", "fp8-wo": "fp8-wo"}
LLAMA_FORMAT_KEY = {"int8": "q8_0", "int4": "q4_0"}
FORMAT_KEYS: tuple[str, ...] = tuple(dict.fromkeys(FORMAT_KEY.values()))
FORMAT_SIGMA = {"q4_0": 0.5, "q4_k_m": 0.5, "q8_0": 0.5}  # prior spread of the format parameters (GLOBALS)
# Formats whose prompt processing first dequantises every weight to an FP16 copy (written, then read by a
# cuBLAS GEMM): bitsandbytes (``dequantize_4bit`` then ``F.linear`` for more than one token; LLM.int8's
# outlier decomposition), exllamav2 (it reconstructs FP16 weights for long inputs); AWQ/GPTQ through
# Marlin (vLLM) and TensorRT-LLM's kernels multiply the packed weights directly.
DEQUANT_COPY = ("nf4", "bnb-fp4", "bnb-int8", "exl2", "gptq")
# The weight format of the workload's int8 / int4 in each runtime (its usual path; the refusals of
# formats a runtime cannot run are core/build/workload_rules.py's RUNTIME_PRECISIONS).
FORMATS: dict[tuple[str, str], str] = {
    ("transformers", "int8"): "bnb-int8", ("transformers", "int4"): "nf4",  # bitsandbytes
    ("compiled", "int8"): "int8", ("compiled", "int4"): "int4-g32",  # gpt-fast's weight-only int8 / int4
    ("vllm", "int8"): "int8", ("vllm", "int4"): "awq",
    ("exllamav2", "int8"): "exl2", ("exllamav2", "int4"): "exl2",
    ("tensorrt-llm", "int8"): "int8", ("tensorrt-llm", "int4"): "awq",
}
EXL2_BITS = {"int8": 8.0, "int4": 4.0}  # the EXL2 bpw the planner takes for the workload's int8 / int4
UBATCH = 512  # tokens llama.cpp's prompt processing multiplies at once (its default batch)
SIXTEEN_BIT = ("amp", "fp16", "bf16")
# Kernels the optimizer step of 2019 launched per parameter tensor (runtime "pytorch-2019"): BertAdam in
# Python (fp32: ~10 elementwise ops per tensor) and APEX's FusedAdam with AMP O2's master weights (fp16: the
# update, the master-to-model copy, unscaling, zeroing) stepped each tensor in turn; current optimizers
# (multi-tensor apply, foreach/fused AdamW) launch a handful of kernels for the whole model.
OPT_KERNELS_PER_TENSOR_2019 = 8
# Bytes an optimizer step moves per trained parameter (mixed precision: FP32 master weights and gradients,
# except adamw-bf16's pure bf16 weights): read weight and gradient, write the weight, read and write each
# state. AdamW/Adam 4+4+4 + 2×8 = 28; AdamW in bf16 2+2+2 + 2×4 = 14; bitsandbytes 8-bit AdamW (paged or
# not) 12 + 2×2 = 16; SGD with momentum 12 + 2×4 = 20; without 12.
OPTIMIZER_TRAFFIC = {"adamw": 28.0, "adam": 28.0, "adamw-bf16": 14.0, "adamw8bit": 16.0,
                     "paged-adamw8bit": 16.0, "sgd": 20.0, "sgd_nomomentum": 12.0}
# Extra kernels a LoRA adapter adds to each adapted projection in a forward pass (dropout, the A and B
# matrix multiplications, scaling and the add; PEFT's ``lora.Linear.forward``), and in backward twice that.
LORA_KERNELS = 5
# Collective latency of a link relative to NVLink (the ``allreduce`` parameter): NCCL's PCIe P2P transport
# and its SHM path through host memory add copies and proxy hops per collective. An assumption of this model
# (no published latency read), stated where it is used.
LINK_LATENCY = {"nvlink": 1.0, "baseboard": 1.0, "pcie": 2.0, "host": 4.0}
# A host memory bandwidth to assume when the build has no CPU or memory (dual-channel DDR4-3200: 51 GB/s)
HOST_BW_DEFAULT = 51.2e9
