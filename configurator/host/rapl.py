"""CPU package energy from Linux's powercap files (RAPL), standard library only: the monitor's host
backend and the benchmark worker's energy meter (which runs where only torch is installed) both read
it here."""

from __future__ import annotations

from pathlib import Path

from configurator.host.files import value


class Rapl:
    """CPU package energy from Linux's powercap interface (Intel RAPL; AMD Zen through the same
    files): the ``energy_uj`` counter of each package domain (``intel-rapl:N`` named ``package-N``),
    kept as a running total across counter wrap-arounds (``max_energy_range_uj``). Since the
    PLATYPUS fix (CVE-2020-8694) the counters are readable by root only on most systems: then there
    is no reading (None), never a guess."""

    def __init__(self, root: Path = Path("/sys/class/powercap")):
        self.domains: list[tuple[Path, int]] = []
        try:
            entries = sorted(root.glob("intel-rapl:*"))
        except OSError:
            entries = []
        for d in entries:
            if d.name.count(":") != 1:  # sub-domains (core, uncore, dram) are inside the package
                continue
            name = value(d / "name")
            top = value(d / "max_energy_range_uj")
            if name and name.startswith("package") and top and top.isdigit() and value(d / "energy_uj"):
                self.domains.append((d / "energy_uj", int(top)))
        self._last: list[int] | None = None
        self.total_j = 0.0

    @property
    def available(self) -> bool:
        return bool(self.domains)

    def read(self) -> float | None:
        """Joules since the first read (None where the counters cannot be read)."""
        if not self.domains:
            return None
        now: list[int] = []
        for path, _top in self.domains:
            text = value(path)
            if text is None or not text.isdigit():
                return None
            now.append(int(text))
        if self._last is not None:
            for (_, top), uj, uj0 in zip(self.domains, now, self._last, strict=True):
                self.total_j += ((uj - uj0) if uj >= uj0 else (top - uj0 + uj)) / 1e6
        self._last = now
        return self.total_j

