"""The rules catalogue's MON-* entries: monitoring."""

from __future__ import annotations

from configurator.core.i18n import QT_TRANSLATE_NOOP
from configurator.core.rules.catalogue.model import Rule

RULES = (
    Rule("MON-1", "G 七, M 3.2",
         QT_TRANSLATE_NOOP("rule catalogue", "Watch temperature, memory, utilisation and the host"),
         "The Monitor tab and `configurator monitor` show what `nvidia-smi -l 1`, `nvidia-smi dmon` and "
         "`htop` show, record it, and alert on what needs a person: a lost GPU, thermal throttling, a GPU "
         "held at its power limit.",
         {"error": "a GPU stopped answering", "warning": "thermal throttling",
          "info": "a GPU held at its power limit"}, where=("monitor",)),
    Rule("MON-2", "M 3.2", QT_TRANSLATE_NOOP("rule catalogue", "Prometheus and Grafana dashboards"),
         "The monitor serves /metrics for Prometheus; a Grafana dashboard and alerting rules ship in "
         "resources/.", {}, where=("monitor",)),
)
