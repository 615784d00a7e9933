"""Storage (STO-1..5): NVMe and its speed, SSD capacity for the kind of work, reading the data set,
tiering, the data set on the fast tier, loader tips. Whether the data set fits at all is FIT-3's (fit.py)."""

from __future__ import annotations

from configurator.core.i18n import QT_TRANSLATE_NOOP
from configurator.core.rules.shared import Ctx


def storage(ctx: Ctx) -> None:
    r = ctx.r
    w = ctx.workload
    if not r.storage:
        return
    fast = [(s, q) for s, q in r.storage if s.kind != "hdd"]
    fast_gb = sum(s.capacity_gb * q for s, q in fast)
    total_gb = sum(s.capacity_gb * q for s, q in r.storage)
    nvme = [s for s, _q in r.storage if s.kind == "nvme"]
    best = max(r.storage, key=lambda sq: sq[0].seq_read_mbs)[0]
    transformer = bool(w and w.spec().is_transformer)
    min_gb = 512 if transformer else 256
    # Drives are sold as 250/256 and 500/512 GB classes: a 250 GB drive is the guide's 256 GB.
    class_gb = {512: 500, 256: 250}[min_gb]
    numbers: dict[str, float] = {"fast_gb": fast_gb, "total_gb": total_gb, "best_seq_read_mbs": best.seq_read_mbs}
    if not nvme:
        ctx.add("STO-3", "warning", "M 1.1, 2.1",
                QT_TRANSLATE_NOOP(
                    "rules",
                    "No NVMe drive: the guides want NVMe (≥ 2000 MB/s) for loading weights and data."),
                numbers, guide="存储：256GB NVMe SSD（读取速度≥2000MB/s）")
    else:
        fastest = max(s.seq_read_mbs for s in nvme)
        if fastest < 2000:
            ctx.add("STO-3", "warning", "M 1.1",
                    QT_TRANSLATE_NOOP("rules", "The fastest NVMe reads {mbs} MB/s; the guide asks for ≥ 2000 MB/s."),
                    numbers, guide="读取速度≥2000MB/s", mbs=fastest)
    if fast_gb < class_gb:
        ctx.add("STO-3", "warning", "M 1.1, 2.1",
                QT_TRANSLATE_NOOP("rules", "{gb} GB of SSD; the guide asks for ≥ {min} GB for this kind of work."),
                numbers, gb=fast_gb, min=min_gb)
    hdd = any(s.kind == "hdd" for s, _q in r.storage)
    if w is not None and w.dataset_gb:
        numbers["dataset_gb"] = w.dataset_gb
        seconds = w.dataset_gb * 1000 / best.seq_read_mbs
        if fast_gb < w.dataset_gb <= total_gb:  # above total_gb it does not fit at all: FIT-3
            ctx.add("STO-4", "warning", "G 四.1",
                    QT_TRANSLATE_NOOP(
                        "rules",
                        "The {ds:g} GB data set does not fit on the {gb} GB fast tier (SSD/NVMe); epochs will read "
                        "from the hard disk."), numbers, guide="将常用数据放在SSD", ds=w.dataset_gb,
                    gb=fast_gb)
        ctx.add("STO-1", "info", "G 四.1",
                QT_TRANSLATE_NOOP(
                    "rules",
                    "Reading {ds:g} GB once at {mbs} MB/s takes about {sec:,.0f} s (guide's reference: HDD 150, "
                    "SATA SSD 550, NVMe 3500 MB/s)."),
                {**numbers, "seconds": round(seconds)}, ds=w.dataset_gb, mbs=best.seq_read_mbs, sec=seconds)
    if hdd and fast:
        ctx.add("STO-2", "info", "G 四.1",
                QT_TRANSLATE_NOOP(
                    "rules",
                    "Tiered storage: keep the hot data set on the SSD and archives on the hard disk."),
                numbers, guide="建议采用“SSD+HDD”分级存储方案")
    if w is not None and w.task == "train":
        ctx.add("STO-5", "info", "G 四.2",
                QT_TRANSLATE_NOOP(
                    "rules",
                    "Data loading: num_workers ≥ 4, memory-map huge files, DALI for GPU preprocessing."),
                {}, guide="启用多线程数据加载（num_workers≥4）")
