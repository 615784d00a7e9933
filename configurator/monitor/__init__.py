"""Live monitor (NVML + psutil): filled in by the monitor issue."""
