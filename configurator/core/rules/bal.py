"""Balance beyond the guides (RULES.md): CPU cores per GPU for data loading (BAL-1), memory channels
populated (BAL-2), host RAM against the GPUs' VRAM (BAL-3), storage against the data set, the
environment and the checkpoints kept (BAL-4).

The check reports them as warnings (a build that fails them runs, badly); Suggest takes them as
constraints unless the user relaxes them (``configurator suggest --relax BAL-3``)."""

from __future__ import annotations

from dataclasses import dataclass

from configurator.core.build import Workload
from configurator.core.estimate.memory import OPTIMIZER_BYTES, WEIGHT_BYTES
from configurator.core.i18n import QT_TRANSLATE_NOOP, Message
from configurator.core.parts import Gpu
from configurator.core.rules.shared import Ctx
from configurator.core.units import GIB

LOADER_WORKERS_PER_GPU = 4  # G 四.2 / STO-5: num_workers ≥ 4
CORES_PER_GPU = LOADER_WORKERS_PER_GPU + 1  # plus the training process itself
# BAL-1 per family, for training: (loader workers per GPU, basis). Images are decoded (JPEG) and augmented
# on the CPU for every sample: the guide's num_workers ≥ 4 per GPU (G 四.2). Text is tokenized once ahead
# of the run and read memory-mapped (STO-5's "mmap for huge files"): one worker per GPU keeps up. Plus
# the training process per GPU.
LOADER_WORKERS = {"cnn": (LOADER_WORKERS_PER_GPU, "G 四.2"), "transformer": (1, "G 四.2, first principles")}
# Tim Dettmers asks for at least the largest GPU's memory; for several GPUs common practice is their
# total, so pinned staging buffers, checkpoints and a host copy of what the GPUs hold fit.
BAL3_SOURCE = "https://timdettmers.com/2018/12/16/deep-learning-hardware-guide/"

# BAL-4: what a run keeps on its drives besides its data set.
# The operating system: Ubuntu Desktop's stated minimum of 25 GB of disk (Ubuntu 20.04 LTS system
# requirements, quoted in https://gist.github.com/gussenov/5fdebed22fa6ceeff6dc6088c0f1b945).
OS_GB = 25.0
# A Python environment with PyTorch and its CUDA libraries: measured on the wheel of torch 2.14.1+cu130
# installed with pip (du -sm: torch 1,182 MB, nvidia 3,209 MB, triton 897 MB = 5.3 GB).
PYTORCH_ENV_GB = 5.3
ENVIRONMENT_GB = OS_GB + PYTORCH_ENV_GB
# The data set where the workload gives none: image models are trained on ImageNet-1k (ILSVRC2012),
# whose archives are 138 GB (train) and 6.3 GB (validation) (the download script of
# https://github.com/raajay/pmls-caffe/blob/master/data/ilsvrc12/download-data.sh); extracting them needs
# the archives and the extracted files on the drive at once, twice their size.
IMAGENET_ARCHIVES_GB = 138.0 + 6.3
IMAGENET_GB = 2 * IMAGENET_ARCHIVES_GB
# Hugging Face checkpoints are stored in 16-bit (the weights a language model is downloaded as).
DOWNLOAD_BYTES = 2.0


def default_checkpoints(w: Workload) -> int:
    """Checkpoints a run keeps where the workload does not say: training keeps the latest and the best
    (2); inference keeps none (only the model's weights)."""
    return 2 if w.task == "train" else 0


@dataclass(frozen=True)
class StorageNeed:
    dataset_gb: float
    dataset_default: bool  # the data set is this module's default for the model, not the workload's
    environment_gb: float
    weights_gb: float  # the model's weights as downloaded (language models)
    checkpoints: int
    checkpoints_default: bool
    checkpoint_gb: float  # one checkpoint

    @property
    def total_gb(self) -> float:
        return self.dataset_gb + self.environment_gb + self.weights_gb + self.checkpoints * self.checkpoint_gb


def storage_need(w: Workload) -> StorageNeed:
    """BAL-4: the data set, the environment, the model's weights and the checkpoints kept, in GB."""
    spec = w.spec()
    default_ds = w.dataset_gb is None
    if not default_ds:
        ds = float(w.dataset_gb or 0.0)
    else:
        ds = IMAGENET_GB if spec.family == "cnn" and w.task == "train" else 0.0
    weights = spec.params * DOWNLOAD_BYTES / 1e9 if spec.family == "transformer" else 0.0
    if w.task != "train":
        ckpt = 0.0
    elif w.finetune in ("lora", "qlora"):
        ckpt = 0.0  # the adapters: megabytes beside the frozen base, which is stored once (weights)
    else:  # the weights at the training precision and the optimizer's states, to resume from
        ckpt = spec.params * (WEIGHT_BYTES[w.precision] + OPTIMIZER_BYTES.get(w.effective_optimizer, 8.0)) / 1e9
    kept = w.checkpoints_kept
    return StorageNeed(ds, default_ds, ENVIRONMENT_GB, weights, default_checkpoints(w) if kept is None else kept,
                       kept is None, ckpt)


def cores_needed(w: Workload | None, gpus: int) -> tuple[int, int, str]:
    """BAL-1: (cores, loader workers per GPU, basis) for ``gpus`` GPUs: the workers plus the process."""
    family = w.spec().family if w is not None else "cnn"
    workers, basis = LOADER_WORKERS.get(family, LOADER_WORKERS["cnn"])
    return (workers + 1) * gpus, workers, basis


def ram_needed_gib(w: Workload | None, counted: list[Gpu]) -> tuple[float, str]:
    """BAL-3: (GiB, what it is): the GPUs' total VRAM for training (or no workload); the model's
    weights at the workload's precision for inference (loading stages them in host memory)."""
    if w is not None and w.task != "train":
        return w.spec().params * WEIGHT_BYTES.get(w.precision, 2.0) / GIB, "weights"
    return float(sum(g.vram_gb for g in counted)), "vram"


def cores_per_gpu(ctx: Ctx) -> None:
    """BAL-1: CPU cores for the GPUs' data loading (training)."""
    r = ctx.r
    counted = ctx.counted
    w = ctx.workload
    cpu = r.cpu
    if cpu is None or not counted or w is None or w.task != "train":
        return
    cores = cpu.cores * max(r.cpu_count, 1)
    need, workers, basis = cores_needed(w, len(counted))
    if cores < need:
        template = QT_TRANSLATE_NOOP(
            "rules",
            "{cores} CPU cores for {n} GPU(s): decoding and augmenting images wants {workers} DataLoader workers "
            "per GPU plus the training process, {need} cores; the GPUs will wait for data.") \
            if w.spec().family == "cnn" else QT_TRANSLATE_NOOP(
            "rules",
            "{cores} CPU cores for {n} GPU(s): tokenized, memory-mapped text wants {workers} loader worker per "
            "GPU plus the process that drives it, {need} cores; the GPUs will wait for the CPU.")
        ctx.add("BAL-1", "warning", basis, template,
                {"cores": cores, "gpus": len(counted), "needed": need, "workers_per_gpu": workers},
                guide="启用多线程数据加载（num_workers≥4）", cores=cores, n=len(counted),
                workers=workers, need=need)


def channels(ctx: Ctx) -> None:
    """BAL-2: the memory channels the modules fill."""
    r = ctx.r
    cpu, board = r.cpu, r.board
    if cpu is None or not r.memory:
        return
    cpus = max(r.cpu_count, 1)
    per_cpu = r.modules // cpus
    reachable = cpu.memory_channels
    if board is not None:
        reachable = min(reachable, max(board.memory_slots // max(board.sockets, 1), 1))
    filled = min(per_cpu, reachable)
    if filled >= reachable:
        return
    share = filled / cpu.memory_channels
    ctx.add("BAL-2", "warning", "vendor specs", QT_TRANSLATE_NOOP(
        "rules",
        "{modules} memory module(s) per CPU fill {filled} of {cpu}'s {channels} memory channels: {share:.1%} of its "
        "memory bandwidth. Fit {reach} modules (one per channel) for all of it."),
        {"modules_per_cpu": per_cpu, "channels_filled": filled, "channels": cpu.memory_channels,
         "bandwidth_share": round(share, 3)},
        modules=per_cpu, filled=filled, cpu=cpu.name, channels=cpu.memory_channels, share=share, reach=reachable)


def ram_vs_vram(ctx: Ctx) -> None:
    """BAL-3: host RAM against the GPUs' VRAM (training) or the model's weights (inference)."""
    r = ctx.r
    counted = ctx.counted
    if not counted or not r.memory:
        return
    need, what = ram_needed_gib(ctx.workload, counted)
    if r.ram_gb >= need:
        return
    if what == "weights":
        ctx.add("BAL-3", "warning", "common practice", QT_TRANSLATE_NOOP(
            "rules",
            "{ram} GiB of RAM for a model of {need:.1f} GiB at its precision: loading stages the weights in host "
            "memory before they go to the GPUs, so host RAM should hold them."),
            {"ram_gb": r.ram_gb, "weights_gib": round(need, 1)}, ram=r.ram_gb, need=need)
        return
    ctx.add("BAL-3", "warning", "common practice", QT_TRANSLATE_NOOP(
        "rules",
        "{ram} GiB of RAM for {vram} GiB of VRAM: host RAM should be at least the GPUs' total VRAM, so pinned "
        "buffers, checkpoints and a host copy of what the GPUs hold fit (common practice; Tim Dettmers' "
        "hardware guide asks for at least the largest GPU's memory: {url})."),
        {"ram_gb": r.ram_gb, "vram_gb": int(need), "source": BAL3_SOURCE}, ram=r.ram_gb, vram=int(need),
        url=BAL3_SOURCE)


def storage(ctx: Ctx) -> None:
    """BAL-4: the drives hold the data set, the environment, the weights and the checkpoints kept."""
    r, w = ctx.r, ctx.workload
    if w is None or not r.storage:
        return
    have = sum(s.capacity_gb * q for s, q in r.storage)
    need = storage_need(w)
    if have >= need.total_gb:
        return
    numbers = {"storage_gb": have, "need_gb": round(need.total_gb, 1), "dataset_gb": round(need.dataset_gb, 1),
               "dataset_default": need.dataset_default, "environment_gb": need.environment_gb,
               "weights_gb": round(need.weights_gb, 1), "checkpoints_kept": need.checkpoints,
               "checkpoints_default": need.checkpoints_default, "checkpoint_gb": round(need.checkpoint_gb, 1)}
    ds = (QT_TRANSLATE_NOOP("rules", "{ds:,.0f} GB of data (ImageNet-1k, archives and extracted files; set "
                                     "dataset_gb for yours)") if need.dataset_default and need.dataset_gb else
          QT_TRANSLATE_NOOP("rules", "{ds:,.0f} GB of data"))
    ctx.add("BAL-4", "warning", "G 四.1, first principles", QT_TRANSLATE_NOOP(
        "rules",
        "{have:,} GB of storage for {need:,.0f} GB: {data}, {env:.0f} GB of system and PyTorch environment, "
        "{weights:,.0f} GB of model weights and {kept} checkpoint(s) of {ckpt:,.1f} GB ({kept_how}). Fit a drive "
        "of {need:,.0f} GB or more."),
        numbers, have=have, need=need.total_gb, data=Message("rules", ds, {"ds": need.dataset_gb}),
        env=need.environment_gb, weights=need.weights_gb, kept=need.checkpoints, ckpt=need.checkpoint_gb,
        kept_how=Message("rules", QT_TRANSLATE_NOOP("rules", "the default for this workload; set checkpoints_kept")
                         if need.checkpoints_default else QT_TRANSLATE_NOOP("rules", "as the workload says")))
