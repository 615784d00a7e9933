"""The rules catalogue's PCI-* entries: PCIe and multi-GPU.
The checks are in configurator/core/rules/pci.py."""

from __future__ import annotations

from configurator.core.i18n import QT_TRANSLATE_NOOP
from configurator.core.rules.catalogue.model import Rule

RULES = (
    Rule("PCI-1", "G 六.3", QT_TRANSLATE_NOOP("rule catalogue", "GPUs in PCIe 4.0 slots or better"),
         "Flags a card that supports PCIe 4.0 or newer but lands in a slot (or behind a CPU) that runs it "
         "at Gen3 or older: host-to-GPU copies then take twice as long.",
         {"warning": "a Gen4-capable card runs at Gen3 or older", "warn": "doctor: the measured link is "
          "below the card's maximum"}, where=("planner", "doctor")),
    Rule("PCI-2", "G 二.3, 六.3", QT_TRANSLATE_NOOP("rule catalogue", "Every GPU gets a usable x16-length slot"),
         "Places the cards in the board's x16-length slots, letting a card two or three slots wide cover "
         "its neighbours, and reports any card left without a slot; the estimates count only the cards "
         "that get one, and names the cheapest boards in the catalogue that seat every card on x8 or more "
         "from the CPU (or, for cards too wide for any, that two-slot cards would fit). SXM/OAM modules are "
         "PCI-8's (they sit on a baseboard, not in a slot).",
         {"error": "a card finds no slot"}),
    Rule("PCI-3", "G 二.3", QT_TRANSLATE_NOOP("rule catalogue", "Which link each GPU gets"),
         "Says for every card the slot, the lane count, the PCIe generation and whether the lanes come from "
         "the CPU or the chipset. Chipset lanes and links narrower than x8 are shared and slow down data "
         "transfers; the doctor reads the link a running card actually negotiated. Suggest holds it as a "
         "constraint for training (relaxable with --relax PCI-3) unless no build without it fits.",
         {"warning": "a card gets fewer than 8 lanes or chipset lanes",
          "info": "the link of every card; with two or more cards not all on x8 CPU lanes, the boards "
                  "in the catalogue that give them that",
          "warn": "doctor: a card runs below its maximum link"}, where=("planner", "doctor")),
    Rule("PCI-4", "G 二.3", QT_TRANSLATE_NOOP("rule catalogue", "NVLink bridges only where the cards support them"),
         "An NVLink bridge joins two identical NVLink-capable cards; the app rejects it elsewhere, warns "
         "when more cards are bridged than a bridge can join, and states the bandwidth both ways so the "
         "guide's comparison with PCIe can be read correctly.",
         {"error": "a bridge with fewer than two cards, or cards that cannot be bridged",
          "warning": "more cards than the bridge joins (they form pairs, not one group)",
          "info": "the bandwidth of the bridge, or that the cards could use one"}, errata=(6, 9)),
    Rule("PCI-5", "G 二.3", QT_TRANSLATE_NOOP("rule catalogue", "Data-parallel scaling reference: 4 cards reach 3.5×"),
         "Reminds that several cards do not scale linearly (the guide's 4× RTX 3090: 3.7× in theory, 3.5× "
         "measured); the benchmark's DDP scaling result is compared with the same figure, and the upgrade "
         "advisor reads a stored run below 80 % of ideal as the link between the GPUs limiting the machine.",
         {"info": "the build has two or more GPUs"}, where=("planner", "benchmark", "advisor")),
    Rule("PCI-6", "G 二.3", QT_TRANSLATE_NOOP("rule catalogue", "Communication can cancel the gain of more cards"),
         "With ZeRO-3 or FSDP the parameters travel over the GPU link in every step; over PCIe this traffic "
         "can eat the speed-up of the extra cards.",
         {"info": "a training workload on two or more GPUs shards its parameters"}),
    Rule("PCI-7", "G 二.3", QT_TRANSLATE_NOOP("rule catalogue", "With DDP the global batch grows with the card count"),
         "Shows the global batch (per-card batch × cards) so the learning rate can be scaled with it.",
         {"info": "a training workload on two or more GPUs"}),
)

# Beyond the guides: what an expert builder also checks.
BEYOND = (
    Rule("PCI-8", "vendor specs", QT_TRANSLATE_NOOP("rule catalogue", "SXM/OAM modules sit on their baseboard"),
         "SXM and OAM modules go on an HGX/OAM baseboard with NVLink or NVSwitch, never in a PCIe slot and "
         "never with a PCIe NVLink bridge.",
         {"error": "an SXM/OAM module without its baseboard, on the wrong one, beyond its sockets, or with a "
                   "PCIe NVLink bridge",
          "info": "the baseboard's NVLink/NVSwitch topology, and erratum 10 where it applies"}, errata=(10,)),
    Rule("PCI-9", "vendor specs",
         QT_TRANSLATE_NOOP("rule catalogue", "One CPU on a dual-socket board: half the slots are dead"),
         "The slots and memory wired to an empty socket do not work.",
         {"warning": "one CPU on a dual-socket board: the slots and memory of the empty socket listed, "
                     "and only the working half counted"}),
    Rule("PCI-10", "board manuals", QT_TRANSLATE_NOOP("rule catalogue", "An M.2 drive can take lanes from a GPU slot"),
         "Where the manual says an M.2 slot shares lanes with a GPU slot, populating it lowers that slot's link; "
         "the warning names the drive and the fix (one M.2 drive fewer, a SATA drive, another board).",
         {"warning": "a GPU's link drops because of a populated M.2 slot",
          "info": "an empty slot switched off or narrowed by a populated M.2 slot"}),
    Rule("PCI-11", "vendor specs", QT_TRANSLATE_NOOP("rule catalogue", "GeForce 40/50 cards have no peer-to-peer"),
         "Without P2P, all-reduce between the cards goes through host memory; the scaling estimate says so.",
         {"warning": "a multi-GPU training build of such cards: all-reduce through host memory",
          "info": "a multi-GPU inference build of such cards (no P2P between them)"}),
    Rule("PCI-12", "vendor specs", QT_TRANSLATE_NOOP("rule catalogue", "NVLink bridges have fixed slot spacings"),
         "A bridge spans two, three or four slots; the two cards' slots must be one of those apart.",
         {"error": "no bridge spacing matches the cards' slots",
          "info": "the bridge spacing the cards' slots need"}),
)
