"""The units the app counts in, defined once.

VRAM and RAM sizes are binary (a "24 GB" card has 24 GiB, as vendors market them); storage and
data sets are decimal GB (see DESIGN.md, "Units")."""

from __future__ import annotations

MIB = 1024**2
GIB = 1024**3
