"""Spending what is left: left-over budget buys the platform part (CPU, drive, RAM) that lifts the binding
platform limit, while the build stays valid and keeps its throughput."""

from __future__ import annotations

from typing import cast

from configurator.core.build import BuildPart
from configurator.core.i18n import QT_TRANSLATE_NOOP, Message
from configurator.core.parts import Cpu, Gpu, Memory, Storage
from configurator.core.rules.bal import cores_needed, ram_needed_gib, storage_need
from configurator.core.suggest.candidates import memory_options
from configurator.core.suggest.complete import Completion
from configurator.core.suggest.score import warning_rules
from configurator.core.suggest.suggestion import Found


def upgrade(search: Completion, f: Found) -> tuple[Found, list[Message]]:
    """Left-over budget buys the platform part that lifts the binding platform limit before it is left
    unspent, in the order the workload needs them (images: the CPU that decodes them, then the drive,
    then RAM; language models: RAM, the drive, then the CPU). Targets, a judgement stated: twice BAL-1's
    cores (and CPU-1's 8), twice BAL-3's RAM, twice BAL-4's storage. Each step keeps the build valid and
    its throughput."""
    left = search.budget - f.price
    if left <= 0 or f.cfg.gpu is None:
        return f, []
    parts = list(f.build.parts)
    cat = search.catalogue
    gpus = [cast(Gpu, cat[p.id]) for p in parts for _ in range(p.qty) if cat[p.id].category == "gpu"]
    w = search.w
    steps = ("cpu", "storage", "memory") if w.spec().family == "cnn" else ("memory", "storage", "cpu")
    bought: list[str] = []
    spent = 0
    warned = warning_rules(f.report.findings)

    def index(category: str) -> int:
        return next(i for i, p in enumerate(parts) if cat[p.id].category == category)

    for step in steps:
        i = index(step) if any(cat[p.id].category == step for p in parts) else -1
        if i < 0:
            continue
        now, qty = cat[parts[i].id], parts[i].qty
        options: list[tuple[int, BuildPart, str]] = []
        added: dict[str, BuildPart] = {}  # a cooler that goes with a CPU sold without one
        if step == "cpu" and isinstance(now, Cpu):
            target = max(2 * cores_needed(w, len(gpus))[0], 8)
            if now.cores >= target:
                continue
            has_cooler = any(cat[p.id].category == "cooler" for p in parts)
            for c in search.parts_by.get("cpu", []):
                if not (isinstance(c, Cpu) and c.socket == now.socket and now.cores < c.cores
                        and c.rdimm == now.rdimm and c.memory_types == now.memory_types):
                    continue
                extra_cost, text = (c.price_cny - now.price_cny) * qty, f"{c.name} ({now.cores} → {c.cores} cores)"
                if not c.boxed_cooler and not has_cooler:  # the cheapest cooler for the socket rated for it
                    fits = [k for k in search.coolers if c.socket in k.cpu_sockets
                            and (k.rated_tdp_w is None or k.rated_tdp_w >= c.max_power_w)]
                    if not fits:
                        continue
                    added[c.id] = BuildPart(fits[0].id, qty)
                    extra_cost += fits[0].price_cny * qty
                    text += f" + {fits[0].name}"
                options.append((extra_cost, BuildPart(c.id, qty), text))
            options.sort(key=lambda o: (-min(cast(Cpu, cat[o[1].id]).cores, target), o[0], o[1].id))
        elif step == "memory" and isinstance(now, Memory):
            target_gib = 2 * ram_needed_gib(w, gpus)[0]
            have = now.capacity_gb * qty
            if have >= target_gib:
                continue
            board, cpu = f.cfg.board, f.cfg.cpu
            kits = [m for m in search.parts_by.get("memory", []) if isinstance(m, Memory)]
            for price, m, q in memory_options(kits, board, cpu, f.cfg.cpus, target_gib, now.modules * qty):
                options.append((price - now.price_cny * qty, BuildPart(m.id, q),
                                f"{m.capacity_gb * q} GB RAM ({have} → {m.capacity_gb * q} GB)"))
        elif step == "storage" and isinstance(now, Storage):
            target_gb = 2 * storage_need(w).total_gb
            if now.capacity_gb * qty >= target_gb:
                continue
            for d in search.drives:
                if d.capacity_gb >= target_gb and d.kind == now.kind and d.seq_read_mbs >= now.seq_read_mbs:
                    options.append((d.price_cny - now.price_cny * qty, BuildPart(d.id),
                                    f"{d.name} ({now.capacity_gb * qty} → {d.capacity_gb} GB)"))
            options.sort(key=lambda o: (o[0], o[1].id))
        for extra, part, text in options[:6]:
            if extra <= 0 or extra > left - spent:
                continue
            trial = [*parts[:i], part, *parts[i + 1:]]
            if part.id in added:
                trial.append(added[part.id])
            r = search.rules_check(trial)
            # No new warning (FIT-6 …), except that a newer CPU on the same board may need a BIOS update
            # first (COMP-5), which the build sheet says.
            allowed = warned | {"COMP-5"} if step == "cpu" else warned
            if search.valid(r) and warning_rules(r.findings) <= allowed:
                parts, spent = trial, spent + extra
                bought.append(text)
                break
    if not bought:
        return f, []
    better = search.found(f.cfg, parts, search.rules_check(parts))
    if better.throughput < f.throughput * (1 - 1e-9) or not search.valid(better.report):
        return f, []
    return better, [Message("suggest", QT_TRANSLATE_NOOP(
        "suggest", "Left-over budget bought the platform, not nothing: {parts} (¥{spent:,}; ¥{left:,.0f} still "
                   "unspent)."), {"parts": "; ".join(bought), "spent": spent, "left": search.budget - better.price})]
