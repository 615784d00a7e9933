"""This machine, read: CPU, memory, board, drives, the NVIDIA GPUs on the PCI bus and through
nvidia-smi, RAPL energy counters, and the GPUs' identity as NVML reports it. One function per fact,
used by the monitor, the benchmark worker's fingerprint, the environment doctor and ``detect``.

Below the services (bench, monitor, store) and above core; no Qt (import contracts). Every module
but :mod:`configurator.host.facts` uses the standard library only and imports nothing of core,
because the benchmark worker (which runs where only torch is installed) reads the machine here too.
What cannot be read is ``None`` (or left out); nothing here raises.

- :mod:`.files`: reading one /proc or /sys file
- :mod:`.cpu`: model, clock, counts (logical, usable, physical), sockets
- :mod:`.memory`: total memory
- :mod:`.gpu`: NVIDIA devices on the PCI bus, their links, nvidia-smi, the kernel driver's version
- :mod:`.system`: WSL, the file system holding a path
- :mod:`.rapl`: CPU package energy (Linux powercap)
- :mod:`.facts`: the board, the drives, the GPUs' NVML identity, and all of it as core.detect's MachineFacts
"""
