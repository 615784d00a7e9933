"""Estimators: power, memory (VRAM/RAM), throughput and cost. Each returns its value, how
it was made (a translatable sentence with its inputs) and how sure it is."""
