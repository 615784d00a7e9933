"""configurator: plan, watch and measure a PyTorch machine."""

__version__ = "0.1.0"
