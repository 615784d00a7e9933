"""The Benchmark tab: runs the suite in child processes (QProcess) and shows the results."""

from configurator.ui.bench.process import QtSuiteRunner
from configurator.ui.bench.tab import BenchmarkTab, EstimateFor

__all__ = ["BenchmarkTab", "EstimateFor", "QtSuiteRunner"]
