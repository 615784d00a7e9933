"""The rules catalogue's COMP-* entries: compatibility. The checks are in configurator/core/rules/comp.py."""

from __future__ import annotations

from configurator.core.i18n import QT_TRANSLATE_NOOP
from configurator.core.rules.catalogue.model import Rule

RULES = (
    Rule("COMP-1", "vendor specs", QT_TRANSLATE_NOOP("rule catalogue", "The CPU fits the board's socket"),
         "The CPU's socket must be the board's, and there must be no more CPUs than the board has sockets "
         "or than the CPU supports in one system. A dual-socket board with one CPU is PCI-9's: its second "
         "socket's slots and memory are dead.",
         {"error": "socket mismatch, or too many CPUs for the board or the CPU"}),
    Rule("COMP-2", "vendor specs",
         QT_TRANSLATE_NOOP("rule catalogue", "Memory type, RDIMM/UDIMM and ECC suit board and CPU"),
         "DDR4 and DDR5 do not mix and do not fit each other's slots; registered and unbuffered modules do "
         "not mix and each board and CPU takes one kind. ECC modules on a platform without ECC run, but "
         "without error correction.",
         {"error": "a memory type or module kind the board or CPU cannot take",
          "warning": "ECC modules where ECC is not supported"}, errata=(3,)),
    Rule("COMP-3", "vendor specs",
         QT_TRANSLATE_NOOP("rule catalogue", "Module count and capacity within the board's limits"),
         "No more modules than memory slots, and no more memory than the board and CPUs address.",
         {"error": "too many modules, or more capacity than supported"}),
    Rule("COMP-4", "vendor specs", QT_TRANSLATE_NOOP("rule catalogue", "Cards and board fit the case"),
         "The longest card against the case's GPU clearance, the board's form factor against those the case "
         "takes, and the lowest expansion position the cards reach against the case's slots.",
         {"error": "a card too long, a board form factor the case does not take, or too few expansion slots"}),
    Rule("COMP-5", "G 六.3", QT_TRANSLATE_NOOP("rule catalogue", "A CPU newer than the board may need a BIOS update"),
         "When the CPU launched after the board, the board may not start with it until its BIOS is "
         "updated (which may need an older CPU or a flashback button).",
         {"warning": "the CPU's launch year is after the board's"}),
)
