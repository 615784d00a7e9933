"""DataLoader throughput over files it generates, for several ``num_workers``, with the
page cache dropped for those files (cold) and kept (warm), reported apart (STO-5)."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from configurator.bench.i18n import QT_TRANSLATE_NOOP
from configurator.bench.workloads.common import Context, timing_details
from configurator.host import system


class RawImages:
    """Map-style dataset: each file is a raw 3×H×W uint8 image; the label is in the name."""

    def __init__(self, files: list[str], image: int):
        self.files = files
        self.image = image

    def __len__(self) -> int:
        return len(self.files)

    def __getitem__(self, i: int) -> Any:
        import torch

        with open(self.files[i], "rb") as f:
            data = bytearray(f.read())
        x = torch.frombuffer(data, dtype=torch.uint8).view(3, self.image, self.image)
        label = int(os.path.basename(self.files[i]).split("_")[1].split(".")[0])
        return x.float().div_(255.0).sub_(0.5), label


def drop_cache(files: list[str]) -> None:
    """Ask the kernel to drop these files' pages (they were fsync'ed, so the pages are clean)."""
    for name in files:
        fd = os.open(name, os.O_RDONLY)
        try:
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        finally:
            os.close(fd)


def make_files(root: Path, count: int, image: int) -> list[str]:
    size = 3 * image * image
    files = []
    for i in range(count):
        path = root / f"{i:06d}_{i % 1000}.raw"
        with open(path, "wb") as f:
            f.write(os.urandom(size))
            f.flush()
            os.fsync(f.fileno())
        files.append(str(path))
    return files


def run_dataloader(ctx: Context) -> None:
    from torch.utils.data import DataLoader

    p = ctx.params
    count, image, batch = int(p["files"]), int(p["image"]), int(p["batch"])
    workers = [int(w) for w in p["workers"]]
    base = p.get("data_dir") or tempfile.gettempdir()
    Path(base).mkdir(parents=True, exist_ok=True)
    root = Path(tempfile.mkdtemp(prefix="configurator-dataloader-", dir=base))
    fstype = system.filesystem_of(root)
    can_drop = hasattr(os, "posix_fadvise") and fstype not in ("tmpfs", "ramfs")
    file_bytes = 3 * image * image
    try:
        ctx.emit.progress(0.02, QT_TRANSLATE_NOOP("bench", "writing {n} files of {kib} KiB to {dir}"),
                          n=count, kib=file_bytes // 1024, dir=str(root))
        files = make_files(root, count, image)
        modes = ["cold", "warm"] if can_drop else ["warm"]
        results: dict[str, list[dict[str, Any]]] = {m: [] for m in modes}
        total = len(workers) * len(modes)
        done = 0
        for nw in workers:
            dataset: Any = RawImages(files, image)
            loader: Any = DataLoader(dataset, batch_size=batch, shuffle=False, num_workers=nw,
                                persistent_workers=nw > 0, pin_memory=ctx.device == "cuda")

            def epoch(loader: Any = loader) -> None:
                for x, _y in loader:
                    if ctx.device != "cpu":
                        x.to(ctx.device, non_blocking=True)

            for mode in modes:
                ctx.emit.progress(0.05 + 0.95 * done / total,
                                  QT_TRANSLATE_NOOP("bench", "DataLoader num_workers={n}, {mode} cache"),
                                  n=nw, mode=mode)
                timing = ctx.measure(epoch, setup=(lambda: drop_cache(files)) if mode == "cold" else None,
                                     warmup=1 if mode == "warm" else 0)
                best, med, iqr = timing.rate_stats(float(count))
                results[mode].append({"num_workers": nw, "samples_per_s": med, "iqr": iqr, "best": best,
                                      "mb_per_s": med * file_bytes / 1e6, **timing_details(timing)})
                done += 1
            del loader
        settings = ctx.settings(files=count, file_bytes=file_bytes, batch=batch, workers=workers,
                                data_dir=str(base), filesystem=fstype, shuffle=False,
                                cold_method="posix_fadvise(POSIX_FADV_DONTNEED) per file before each epoch")
        for mode in ("cold", "warm"):
            name = f"dataloader-{mode}"
            if mode not in results:
                if fstype in ("tmpfs", "ramfs"):
                    ctx.emit.skipped(name, QT_TRANSLATE_NOOP(
                        "bench", "{dir} is on {fs}, which lives in RAM: there is no cold cache to measure"),
                        dir=str(base), fs=fstype)
                else:
                    ctx.emit.skipped(name, QT_TRANSLATE_NOOP(
                        "bench", "this system cannot drop a file from the page cache (no posix_fadvise)"))
                continue
            rows = results[mode]
            top = max(rows, key=lambda r: r["samples_per_s"])
            ctx.emit.result(name, top["samples_per_s"], "samples/s", top["samples_per_s"], top["iqr"],
                            settings={**settings, "cache": mode},
                            details={"per_workers": rows, "best_num_workers": top["num_workers"],
                                     "mb_per_s": top["mb_per_s"]})
    finally:
        shutil.rmtree(root, ignore_errors=True)
