"""The Parts tab: browser (layout, category list, search), model (the lazy table over SQL), detail
pane, a GPU's published measurements, and the actions on custom parts."""

from configurator.ui.parts.browser import PartsBrowser

__all__ = ["PartsBrowser"]
