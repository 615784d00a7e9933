"""The rules catalogue's CPU-* entries: CPU. The checks are in configurator/core/rules/cpu.py."""

from __future__ import annotations

from configurator.core.i18n import QT_TRANSLATE_NOOP
from configurator.core.rules.catalogue.model import Rule

RULES = (
    Rule("CPU-1", "G 三.1", QT_TRANSLATE_NOOP("rule catalogue", "8 cores or more"),
         "The guide recommends at least 8 cores when the work is spread over several GPUs; the doctor "
         "counts the threads the process may use.",
         {"warning": "fewer than 8 cores with two or more GPUs", "info": "fewer than 8 cores, one GPU",
          "warn": "doctor: few CPU threads available"}, where=("planner", "doctor")),
    Rule("CPU-2", "G 三.1", QT_TRANSLATE_NOOP("rule catalogue", "SMT / Hyper-Threading is worth 20–30 %"),
         "Notes a CPU without simultaneous multithreading, which the guide values at 20–30 % for data "
         "loading and preprocessing.", {"info": "the CPU has one thread per core"}),
    Rule("CPU-3", "G 三.1", QT_TRANSLATE_NOOP("rule catalogue", "16 MB of L3 cache or more"),
         "A smaller L3 cache lengthens data-loading latency, says the guide.",
         {"warning": "less than 16 MB of L3"}),
    Rule("CPU-4", "G 三.1", QT_TRANSLATE_NOOP("rule catalogue", "CPU-only inference: prefer AVX-512"),
         "Without a GPU the vector units do the work; AVX-512 doubles the lanes of AVX2.",
         {"warning": "no GPU and no AVX-512"}),
    Rule("CPU-5", "M 1.1", QT_TRANSLATE_NOOP("rule catalogue", "CPU minimum: 6 cores / 12 threads at 3.6 GHz"),
         "The guide's minimum CPU (i5-10400F or Ryzen 5 3600): 12 threads and a boost clock of 3.6 GHz "
         "or more.", {"warning": "fewer threads or a lower clock"}),
    Rule("CPU-6", "G 三.1", QT_TRANSLATE_NOOP("rule catalogue", "Ryzen 9 5950X against i9-12900K"),
         "Repeats the guide's measurement for these two CPUs: the 5950X 18 % faster at preprocessing, the "
         "two equal at launching CUDA kernels.", {"info": "the build has one of the two"}),
)
