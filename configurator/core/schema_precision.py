"""A quantity's display precision: how ``--json`` rounds it (configurator/cli/rounding.py). A record's field
declares it as ``Annotated`` metadata (core/schema.py's :func:`~configurator.core.schema.record` registers
it in :data:`DECLARED` by the field's name); the command line's rounding looks a key up there first.

Kept free of the schema library so that the command line's JSON output can use it without importing it."""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Precision:
    """How a quantity is rounded for display: to ``decimals`` places, but keeping at least ``significant``
    significant figures (0.0193 TFLOPS stays 0.0193); ``integer``: to a whole number (an int)."""

    decimals: int = 0
    significant: int = 0
    integer: bool = False
    # |x| at or above it has the significant figures with ``decimals`` places alone (no log10 needed)
    _enough: float = dataclasses.field(init=False, repr=False, compare=False, default=0.0)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_enough", 10.0 ** (self.significant - 1 - self.decimals) if self.significant else 0.0)

    def __call__(self, x: float) -> float | int:
        if self.integer:
            # NaN and infinity stay as they are: json.dumps(allow_nan=False) refuses them, a bug where
            # they were computed
            return round(x) if math.isfinite(x) else x
        if x >= self._enough or -x >= self._enough or x != x or x == 0:
            return round(x, self.decimals)  # round() keeps NaN and infinity
        places = max(self.decimals, self.significant - 1 - math.floor(math.log10(abs(x))))
        return round(x, places)


# The display precisions of the quantities (the records' fields declare theirs; cli/rounding.py uses the same
# for the documents nothing declares: the monitor's samples, the benchmarks' rows, the estimates).
WATTS = Precision(decimals=1)
SIZES = Precision(decimals=2)  # VRAM, RAM (GiB) and storage (decimal GB) sizes
CNY = Precision(integer=True)  # prices and costs, in yuan
TARIFF = Precision(decimals=2)  # yuan per kWh
# img/s, tokens/s, TFLOPS, GB/s …: 2 decimals, or 3 significant figures below 1 (0.0193 TFLOPS). Two
# decimals, not one: published measurements (72.79 img/s) and spec sheets (35.58 TFLOPS) give them.
THROUGHPUT = Precision(decimals=2, significant=3)
FRACTION = Precision(decimals=4)  # 0–1 shares, efficiencies, relative errors
COUNT = Precision(integer=True)  # parameters, samples, IOPS
MHZ = Precision(integer=True)  # clocks, memory speeds (MT/s)
GHZ = Precision(decimals=3)
MM = Precision(decimals=1)
MB = Precision(decimals=1)  # cache sizes (MB), MB/s
DECIMAL_1 = Precision(decimals=1)  # months, hours a day, slot widths
PERCENT = Precision(decimals=1, significant=2)  # 0.55 % of a core stays 0.55
CELSIUS = Precision(decimals=1)
BYTES = Precision(integer=True)  # byte counts and byte rates
LOAD = Precision(decimals=2)  # load averages
SECONDS = Precision(decimals=1, significant=3)  # durations
RATE = Precision(decimals=1, significant=3)  # per-second rates named ``*_per_s`` (requests/s, samples/s)
MILLISECONDS = Precision(decimals=2, significant=3)
TIMESTAMP = Precision(decimals=3)  # seconds since the epoch: to the millisecond
# A figure with no finer unit (a score, a confidence, a count of millions): 2 decimals, at least 4 significant
# figures. Also what an undeclared float gets (tests/cli/test_cli_json_numbers.py fails on one).
FIGURE = Precision(decimals=2, significant=4)


# The display precision of every number a ``--json`` document holds, declared once per output kind, by the key
# it has there. The records of core/parts.py and core/schema_build.py declare theirs as field metadata
# (core/schema.py's :func:`~configurator.core.schema.record` registers them below); the other documents are
# dicts or dataclasses whose JSON keys are declared here, so that the command line's rounding reads them without
# importing the records (cli/rounding.py stays light). A name two outputs declare must have one precision
# (:func:`declare` refuses another): it is looked up by name wherever it appears.

# bench/results.py (a run's fingerprint and settings), bench/workloads' details
BENCH: dict[str, Precision] = {
    "batch": COUNT, "chunk_mib": COUNT, "cpu_mhz": MHZ, "cpu_percent": PERCENT, "duration_s": SECONDS,
    "efficiency": FRACTION, "gpu_percent": PERCENT, "mb_per_s": RATE, "mean_w": WATTS, "memory_gib": SIZES,
    "params": COUNT, "peak_memory_bytes": BYTES, "peak_memory_gib": SIZES, "ram_gib": SIZES, "samples_per_s": RATE,
    "seconds": SECONDS, "speedup": FRACTION, "tested_gib": SIZES, "total_gib": SIZES,
}
# suggest --json, the planner's serving bounds and storage (cli/planner.py, core/suggest)
SUGGEST: dict[str, Precision] = {
    "budget_cny": CNY, "checkpoint_gb": SIZES, "dataset_gb": SIZES, "environment_gb": SIZES,
    "max_tpot_ms": MILLISECONDS, "max_ttft_ms": MILLISECONDS, "requests_per_s": RATE, "storage_need_gb": SIZES,
    "throughput": THROUGHPUT, "total_cny": CNY, "tpot_ms": MILLISECONDS, "ttft_ms": MILLISECONDS, "weights_gb": SIZES,
}
# core/advise.py's records (advise --json, detect --json)
ADVICE: dict[str, Precision] = {
    "build_total_cny": CNY, "cny_per_percent": PERCENT, "gain_high_percent": PERCENT, "gain_low_percent": PERCENT,
    "gain_percent": PERCENT, "price_cny": CNY, "scaling_percent": PERCENT,
}
# an estimate's inputs and basis (core/engine/, core/estimate/, core/cluster_estimates.py)
ESTIMATE_INPUTS: dict[str, Precision] = {
    "activation_error": FRACTION, "adapter_bytes": BYTES, "capacity_requests_per_s": RATE, "cast_bytes": BYTES,
    "cluster_power_w": WATTS, "cluster_price_cny": CNY, "context_gib": SIZES, "cpu_w": WATTS,
    "cv_median_error": FRACTION, "cv_p90_error": FRACTION, "loso_median_error": FRACTION,
    "decode_batch_tokens_per_s": RATE,
    "decode_tokens_per_s": RATE, "first_principles_gib": SIZES, "format_cv_median_error": FRACTION, "gbit_s": SECONDS,
    "gpu_link_bytes_per_s": BYTES, "gpu_w": WATTS, "grad_bytes": BYTES, "grad_gb": SIZES, "guide_gib": SIZES,
    "hop_s": SECONDS, "intra_ms": MILLISECONDS, "intra_s": SECONDS, "kv_bytes": BYTES, "link_gbs": THROUGHPUT,
    "load": FRACTION, "median_error": FRACTION, "memory_bandwidth_gbs": THROUGHPUT, "memory_bytes": BYTES,
    "need_gib": SIZES, "network_gbs": THROUGHPUT, "network_ms": MILLISECONDS, "network_s": SECONDS,
    "one_stream_tokens_per_s": RATE, "peak_memory_gb": SIZES, "peak_per_node_w": WATTS, "peak_power_w": WATTS,
    "peak_w": WATTS, "per_node_cny": CNY, "per_node_w": WATTS, "platform_w": WATTS, "power_w": WATTS,
    "prefill_tokens_per_s": RATE, "prompt_wait_ms": MILLISECONDS, "ram_first_principles_gib": SIZES,
    "ram_guide_formula_gib": SIZES, "ttft_lockstep_ms": MILLISECONDS, "ttft_spread_ms": MILLISECONDS,
    "serving_draw_w": WATTS, "serving_output_tokens_per_s": RATE, "serving_requests_per_s": RATE,
    "serving_tpot_ms": MILLISECONDS, "serving_ttft_ms": MILLISECONDS, "size_bytes": BYTES, "step_ms": MILLISECONDS,
    "step_s": SECONDS, "tokens_per_s": RATE, "training_draw_w": WATTS, "transient_w": WATTS, "vram_gib": SIZES,
    "vram_per_gpu_gib": SIZES, "weights_gib": SIZES,
}
# a finding's numbers (core/rules/*, labelled by core/numbers.py)
FINDING_NUMBERS: dict[str, Precision] = {
    "best_seq_read_mbs": MB, "board_depth_mm": MM, "board_width_mm": MM, "boost_ghz": GHZ, "breakdown_gib": SIZES,
    "case_max_depth_mm": MM, "case_max_mm": MM, "case_max_width_mm": MM, "case_radiator_mm": MM,
    "cloud_cny_per_month": CNY, "cpu_max_power_w": WATTS, "draw_w": WATTS, "electricity_cny_per_kwh": TARIFF,
    "electricity_cny_per_month": CNY, "fast_gb": SIZES, "first_principles_gb": SIZES, "gpu_length_mm": MM,
    "guide_formula_gb": SIZES, "guide_psu_w": WATTS, "heat_w": WATTS, "high_gib": SIZES, "hours_per_day": DECIMAL_1,
    "l3_mb": MB, "left_cny": CNY, "low_gib": SIZES, "max_gb": SIZES, "measured_w": WATTS, "months": DECIMAL_1,
    "need_gb": SIZES, "nvlink_gbs": THROUGHPUT, "nvlink_gbs_per_gpu": THROUGHPUT, "over_cny": CNY,
    "pair_gbs": THROUGHPUT, "parts_gb": SIZES, "per_watt": THROUGHPUT, "psu_w": WATTS, "ram_gb": SIZES,
    "recommended_gb": SIZES, "reference_cny": CNY, "rent_cny_per_month": CNY, "storage_gb": SIZES,
    "sustained_w": WATTS, "total_gb": SIZES, "vendor_psu_w": WATTS, "vram_gb": SIZES,
}
# part specs also shown in findings, suggestions and CSV reports
PARTS: dict[str, Precision] = {
    "board_power_w": WATTS, "capacity_gb": SIZES, "depth_mm": MM, "height_mm": MM, "length_mm": MM,
    "max_board_depth_mm": MM, "max_board_width_mm": MM, "max_cpu_cooler_mm": MM, "max_gpu_length_mm": MM,
    "max_memory_gb": SIZES, "max_power_w": WATTS, "memory_max_mts": MHZ, "radiator_mm": MM, "radiator_sizes_mm": MM,
    "random_read_iops": COUNT, "rated_tdp_w": WATTS, "recommended_psu_w": WATTS, "seq_read_mbs": MB,
    "seq_write_mbs": MB, "speed_mts": MHZ, "tdp_w": WATTS, "width_mm": MM,
}
# monitor/snapshot.py's samples (monitor --json), the cluster's node metrics, host/gpu.py
MONITOR: dict[str, Precision] = {
    "cpu_energy_j": FIGURE,  # the host's RAPL counter, J
    "disk_read_bytes_per_s": BYTES, "disk_write_bytes_per_s": BYTES, "dram_active_percent": PERCENT,
    "fan_percent": PERCENT, "gpu_memory_bytes": BYTES, "graphics_active_percent": PERCENT, "iowait_percent": PERCENT,
    "load_15m": LOAD, "load_1m": LOAD, "load_5m": LOAD, "mem_used_gib": SIZES, "memory_clock_mhz": MHZ,
    "memory_mib": COUNT, "memory_total_bytes": BYTES, "memory_used_bytes": BYTES, "net_rx_bytes_per_s": BYTES,
    "net_tx_bytes_per_s": BYTES, "own_cpu_percent": PERCENT, "pcie_rx_bytes_per_s": BYTES,
    "pcie_tx_bytes_per_s": BYTES, "per_cpu_percent": PERCENT, "power_limit_w": WATTS, "sm_active_percent": PERCENT,
    "sm_clock_mhz": MHZ, "sm_occupancy_percent": PERCENT, "swap_total_bytes": BYTES, "swap_used_bytes": BYTES,
    "swap_used_gib": SIZES, "temperature_c": CELSIUS, "tensor_active_percent": PERCENT, "time": TIMESTAMP,
    "utilization_gpu_percent": PERCENT, "utilization_memory_percent": PERCENT, "utilization_percent": PERCENT,
    "workers_cpu_percent": PERCENT,
}
# monitor/report.py (report --json)
REPORT: dict[str, Precision] = {
    "busy_s": SECONDS, "cost_cny": CNY, "memory_capacity_gib": SIZES, "memory_peak_gib": SIZES,
    "pcie_degraded_s": SECONDS, "power_max_w": WATTS, "power_median_w": WATTS, "tariff_cny_per_kwh": TARIFF,
    "throttled_s": SECONDS, "training_s": SECONDS, "util_median_percent": PERCENT, "util_p95_percent": PERCENT,
}

# Numbers under keys that say no unit: declared by the key of the output they are in
NAMED: dict[str, Precision] = {
    "throughput": THROUGHPUT, "per_watt": THROUGHPUT, "speedup": FRACTION, "share": FRACTION, "load": FRACTION,
    "efficiency": FRACTION, "e_tc": FRACTION, "e_bw": FRACTION, "e_conv": FRACTION, "e_simt": FRACTION,
    "params": COUNT, "batch": COUNT, "seconds": SECONDS, "time": TIMESTAMP, "months": DECIMAL_1,
    # report --json: the run's start and end (s since the epoch), its energy, the host's CPU and I/O-wait shares
    "start": FIGURE, "end": FIGURE, "kwh": FIGURE, "energy_j": FIGURE, "cpu_median": FIGURE, "cpu_p95": FIGURE,
    "iowait_median": FIGURE, "iowait_p95": FIGURE,
    # check --json: a finding's numbers
    "bandwidth_share": FIGURE, "params_m": FIGURE, "reference_measured": FIGURE, "reference_theory": FIGURE,
    "rent_months": FIGURE,
    # cloud-prices --json (store/cloud_prices.py) and the break-even finding's rent_prices
    "cny_per_gpu_hour": FIGURE,
    # detect --json: how sure a part's match is; suggest --json: a suggestion's score and the target asked for
    "confidence": FIGURE, "score": FIGURE, "target_throughput": FIGURE,
    # a serving workload's requests per second (suggest --json's workload, a build file's)
    "request_rate": FIGURE,
    # models list/show --json (core/model_specs.py)
    "active_params": FIGURE, "active_params_published": FIGURE, "frozen_params": FIGURE, "gmacs": FIGURE,
    "gmacs_224": FIGURE, "params_published": FIGURE,
}

# An estimate's value, low and high (and the numbers of its inputs and basis that declare none), by the estimate's
# key (core/findings.py's Estimate.key)
ESTIMATES: dict[str, Precision] = {
    "peak_power_w": WATTS, "training_draw_w": WATTS, "serving_draw_w": WATTS, "cluster_power_w": WATTS,
    "vram_per_gpu_gib": SIZES, "ram_first_principles_gib": SIZES, "ram_guide_formula_gib": SIZES,
    "largest_batch": COUNT,  # samples
    "throughput_total": THROUGHPUT, "throughput_one_gpu": THROUGHPUT, "throughput_cpu": THROUGHPUT,
    "throughput_batch": THROUGHPUT, "throughput_per_kcny": THROUGHPUT, "throughput_not_estimated": THROUGHPUT,
    "prefill_tokens_per_s": THROUGHPUT, "cluster_throughput": THROUGHPUT,
    "serving_output_tokens_per_s": THROUGHPUT, "serving_requests_per_s": THROUGHPUT,
    "serving_max_concurrency": FIGURE,  # requests
    "serving_ttft_ms": MILLISECONDS, "serving_tpot_ms": MILLISECONDS,
    "scaling_efficiency": FRACTION, "cluster_scaling_efficiency": FRACTION, "serving_not_estimated": FRACTION,
    "cluster_price_cny": CNY,
}

# A value, median, iqr, low or high beside a ``unit`` and no estimate key (a benchmark's row, a published
# measurement, a suggestion's figures), by that unit
_RATES = ("img/s", "images/s", "samples/s", "sequences/s", "tokens/s", "requests/s", "s/image", "s/iter")
UNITS: dict[str, Precision] = {
    "W": WATTS, "GiB": SIZES, "GB": SIZES, "CNY": CNY, "¥": CNY, "%": PERCENT, "": FRACTION, "samples": COUNT,
    "ms": MILLISECONDS, "s": SECONDS, "°C": CELSIUS, "requests": FIGURE,
    "TFLOPS": THROUGHPUT, "TOPS": THROUGHPUT, "GB/s": THROUGHPUT, "MB/s": THROUGHPUT,
    **{unit: THROUGHPUT for unit in _RATES}, **{f"{unit} per ¥1000": THROUGHPUT for unit in _RATES},
}
UNIT_PREFIXES: dict[str, Precision] = {"ratio_to:": FRACTION}  # a published "ratio_to:GPU"


def unit_precision(unit: object) -> Precision | None:
    """The precision a unit declares; None for a unit nothing declares."""
    if not isinstance(unit, str):
        return None
    found = UNITS.get(unit)
    if found is None:
        found = next((p for prefix, p in UNIT_PREFIXES.items() if unit.startswith(prefix)), None)
    return found


DECLARED: dict[str, Precision] = {}


def declare(name: str, precision: Precision) -> None:
    """``name`` is shown with ``precision`` wherever it appears; ValueError where another output declares it
    with another."""
    if DECLARED.setdefault(name, precision) != precision:
        raise ValueError(f"{name}: declared as {DECLARED[name]} and as {precision}")


OUTPUTS: dict[str, dict[str, Precision]] = {
    "monitor": MONITOR, "report": REPORT, "bench": BENCH, "advice": ADVICE, "suggest": SUGGEST,
    "estimate inputs": ESTIMATE_INPUTS, "finding numbers": FINDING_NUMBERS, "parts": PARTS, "named": NAMED,
}
for _table in OUTPUTS.values():
    for _name, _precision in _table.items():
        declare(_name, _precision)
