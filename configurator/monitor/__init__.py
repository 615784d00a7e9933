"""Live monitor (no Qt): NVML and psutil backends, a fake NVML, the sampler thread,
history rings, alerts, CSV recorder, Prometheus exporter and remote scraper."""
