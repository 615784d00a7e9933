"""The Monitor tab: GPU and host cards with rolling plots, processes, alerts, recording,
exporter and remote hosts."""

from configurator.ui.monitor.tab import MonitorTab

__all__ = ["MonitorTab"]
