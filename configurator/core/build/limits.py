"""The build file's format and vocabulary: the tasks, precisions, optimizers, memory options and runtimes a
workload may name, the defaults (runtime, sequence length, cloud price, hours, tariff), and the limits that
bound every count and size in one build (per category, per workload key, the file's size and depth)."""

from __future__ import annotations

from configurator.core.model_specs import DIFFUSERS_DEFAULT_STEPS

FORMAT = "configurator.build/1"
TASKS = ("train", "infer")
# "serve": LLM inference under a serving load (core/estimate/serving.py): in the file ``task: serve`` with
# concurrency or request_rate and prompt_tokens / output_tokens; in a Workload task "infer" with those keys set.
FILE_TASKS = (*TASKS, "serve")
# Runtimes that serve: continuous batching and a paged KV cache (vLLM's PagedAttention, TensorRT-LLM's paged
# KV cache with in-flight batching). llama.cpp's server batches continuously but gives each of its -np slots a
# fixed share of one KV cache (not paged); transformers' generate and a compiled loop batch statically;
# exllamav2's dynamic generator is not modelled: those are refused for serving.
SERVE_RUNTIMES = ("vllm", "tensorrt-llm")
SERVE_DEFAULT_RUNTIME = "vllm"
MAX_CONCURRENCY = 65_536
MAX_REQUEST_RATE = 1_000_000.0  # requests/s
# fp8: the GEMMs in FP8 on FP8 tensor cores (compute capability >= 8.9), training (Transformer Engine, torchao
# float8) and inference (vLLM / TensorRT-LLM fp8, W8A8)
PRECISIONS = ("fp32", "amp", "bf16", "fp16", "int8", "int4", "fp8")
SHARDING = ("none", "zero1", "zero2", "zero3", "fsdp")
# sgd: with momentum. adamw-bf16: AdamW with its two states (and the update) in bf16, no fp32 master copy kept
# apart (torchao / "pure bf16" recipes); adamw8bit: bitsandbytes' blockwise 8-bit states; paged-adamw8bit: the
# same states in CUDA unified memory, paged to host RAM under memory pressure (bitsandbytes PagedAdamW8bit).
OPTIMIZERS = ("adamw", "adam", "adamw-bf16", "sgd", "sgd_nomomentum", "adamw8bit", "paged-adamw8bit")
# Memory options (FIT-1): attention kernel, fine-tuning method, offload, model parallelism.
ATTENTION = ("sdpa", "eager")  # sdpa: Hugging Face transformers' default since 4.36 (GPT-2, BERT, LLaMA)
FINETUNE = ("full", "lora", "qlora")
# optimizer: ZeRO-Offload / FSDP CPU offload of the optimizer states (and the step); activations: the tensors
# saved for backward go to pinned host memory (torch.autograd.graph.save_on_cpu); all: both.
OFFLOAD = ("none", "optimizer", "activations", "all")
# tensor / pipeline: one model split over the build's GPUs (Megatron-style tensor parallel, layer split);
# expert: a mixture-of-experts model's experts spread over the GPUs (expert parallel), attention replicated.
PARALLEL = ("none", "tensor", "pipeline", "expert")
# The KV cache's element type in LLM inference and serving: "16-bit" (the model's fp16 / bf16 K and V, what vLLM's
# --kv-cache-dtype auto and TensorRT-LLM's default keep) or "fp8" (one byte per element: vLLM's --kv-cache-dtype
# fp8, TensorRT-LLM's KvCacheConfig(dtype="fp8")): twice the tokens in the same memory, half the bytes each decode
# step reads from the cache. A workload without kv_cache keeps the 16-bit cache.
KV_CACHES = ("16-bit", "fp8")
# How the model is run. Inference: Hugging Face transformers' generate (eager), a torch.compile'd static-KV
# decode loop (gpt-fast style), vLLM, llama.cpp, ExLlamaV2, TensorRT-LLM. Training: eager PyTorch, or with
# torch.compile. None: the default for the task (DEFAULT_RUNTIME), stated beside every estimate.
INFER_RUNTIMES = ("transformers", "torch-compile", "vllm", "llama.cpp", "exllamav2", "tensorrt-llm")
TRAIN_RUNTIMES = ("pytorch", "torch-compile")
RUNTIMES = (*INFER_RUNTIMES, "pytorch")
# The sequence length a workload without seq_len runs at: the model's context, at most 4,096 tokens (Llama 2's
# context, the length fine-tuning recipes and the published fine-tuning measurements use). Llama 3.1's
# 131,072-token context is what it can read, not what a run is sized for: set seq_len for long-context work.
DEFAULT_SEQ_LEN = 4096
DEFAULT_RUNTIME = {"infer": "llama.cpp", "train": "pytorch"}
OS_CHOICES = ("ubuntu-24.04", "ubuntu-22.04", "ubuntu-20.04", "debian-12", "windows-11", "windows-10",
              "windows-wsl2", "other-linux")
# BUD-3 (M 四.1): AWS p3.2xlarge ~¥8000/month; hours and tariff are typical defaults, all editable.
DEFAULT_CLOUD_CNY_PER_MONTH = 8000.0
DEFAULT_HOURS_PER_DAY = 8.0
DEFAULT_ELECTRICITY_CNY_PER_KWH = 0.6
# -- Limits: what one build can hold, so no input can make the checker expand a quantity without bound. --
# A build file is a few hundred bytes and three levels deep; these leave room for any real one.
MAX_BUILD_FILE_BYTES = 1024 * 1024
MAX_DEPTH = 32
MAX_NAME_CHARS = 200  # also keeps the PDF title short enough to lay out at once
MAX_ID_CHARS = 200
MAX_PART_ENTRIES = 136  # one line per part; the category limits below add up to 134
MAX_ERRORS = 100  # problems reported for one file; the rest are counted
# Per category, counted in what the category holds: GPUs 16 (DGX-2 / HGX-2: 16 GPUs in one system), CPUs 8
# (8-socket servers), one board and one case (a build is one machine), memory 32 modules (2 sockets x 8
# channels x 2 DIMMs), drives 64 (a 60-bay storage server), PSUs 4 (2 + 2 redundant server supplies), CPU
# coolers 8 (one per CPU), GPU baseboards 2 (HGX-2: two 8-GPU boards).
PART_LIMITS: dict[str, int] = {"gpu": 16, "cpu": 8, "motherboard": 1, "memory": 32, "storage": 64, "psu": 4,
                               "case": 1, "cooler": 8, "platform": 2}
MAX_QTY = max(PART_LIMITS.values())  # a part not in the catalogue: the largest category limit
MAX_BUDGET_CNY = 100_000_000
MAX_CLOUD_CNY_PER_MONTH = 10_000_000  # a rack of 8-GPU cloud servers is about ¥2,000,000 a month
MAX_ELECTRICITY_CNY_PER_KWH = 10  # tariffs are ¥0.3-1.5/kWh
MAX_DATASET_GB = 1_000_000  # 1 PB
MAX_CHECKPOINTS_KEPT = 1000
MAX_PARAMS = 10**13  # ten trillion; the largest published models have about 2 trillion
WORKLOAD_INT_LIMITS: dict[str, int] = {
    "batch_size": 65_536,  # the largest published training batches (LAMB, BERT) are 64 Ki
    "seq_len": 1_048_576,  # 1 Mi tokens, the longest contexts offered
    "layers": 1_024, "hidden": 65_536, "heads": 1_024, "vocab": 1_048_576, "image_size": 8_192,
    "steps": 1_000,  # a diffusion sampler's denoising steps (DDPM's schedule has 1,000)
}
DEFAULT_DIFFUSION_STEPS = DIFFUSERS_DEFAULT_STEPS  # a diffusion model without its own default (model_specs)
HF_CONFIG = "hf_config"  # Workload.model of a workload that names a config.json
