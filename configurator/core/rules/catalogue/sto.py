"""The rules catalogue's STO-* entries: storage. The checks are in configurator/core/rules/sto.py."""

from __future__ import annotations

from configurator.core.i18n import QT_TRANSLATE_NOOP
from configurator.core.rules.catalogue.model import Rule

RULES = (
    Rule("STO-1", "G 四.1", QT_TRANSLATE_NOOP("rule catalogue", "How long one pass over the data set takes"),
         "Divides the data set by the fastest drive's sequential read, with the guide's reference speeds "
         "(HDD 150, SATA SSD 550, NVMe 3500 MB/s) beside it.", {"info": "the workload states a data set size"}),
    Rule("STO-2", "G 四.1", QT_TRANSLATE_NOOP("rule catalogue", "Tier the storage: hot data on SSD, archives on HDD"),
         "A build with both kinds of drive gets the guide's tiering advice.",
         {"info": "the build has an SSD and a hard disk"}),
    Rule("STO-3", "M 1.1, 2.1",
         QT_TRANSLATE_NOOP("rule catalogue", "An NVMe drive of 2000 MB/s; 256 GB (CNN) or 512 GB (GPT)"),
         "The guides' storage minimum. Drives sold as 250 or 500 GB count as the guide's 256 or 512 GB class.",
         {"warning": "no NVMe drive, a slower one, or less SSD than the class"}),
    Rule("STO-4", "G 四.1", QT_TRANSLATE_NOOP("rule catalogue", "The working data set fits on the fast tier"),
         "A data set larger than the SSDs is read from the hard disk in every epoch.",
         {"warning": "the data set is larger than the SSD capacity (but fits the build's storage)"}),
    Rule("STO-5", "G 四.2", QT_TRANSLATE_NOOP("rule catalogue", "Data-loader tips"),
         "num_workers ≥ 4, memory-map huge files, DALI for preprocessing on the GPU.",
         {"info": "a training workload"}),
)
