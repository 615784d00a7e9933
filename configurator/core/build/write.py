"""Writing a build back as a build file's document (:func:`build_to_dict`): only what differs from the
defaults, a serving workload as ``task: serve``, a config.json model as ``{"hf_config": path}``."""

from __future__ import annotations

import dataclasses
from typing import Any

from configurator.core.build.limits import FORMAT, HF_CONFIG
from configurator.core.build.records import Build, Options, Workload


def build_to_dict(build: Build) -> dict[str, Any]:
    doc: dict[str, Any] = {"format": FORMAT}
    if build.name:
        doc["name"] = build.name
    if build.budget_cny is not None:
        doc["budget_cny"] = int(build.budget_cny) if float(build.budget_cny).is_integer() else build.budget_cny
    doc["parts"] = []
    for p in build.parts:
        item: dict[str, Any] = {"id": p.id}
        if p.qty != 1:
            item["qty"] = p.qty
        if p.used:
            item["used"] = True
        doc["parts"].append(item)
    defaults = Options()
    opts = {f.name: getattr(build.options, f.name) for f in dataclasses.fields(Options)
            if getattr(build.options, f.name) != getattr(defaults, f.name)}
    if opts:
        doc["options"] = opts
    if build.workload is not None:
        w = build.workload
        wd: dict[str, Any] = {"model": {HF_CONFIG: w.hf_config} if w.hf_config is not None else w.model,
                              "task": "serve" if w.serving else w.task}
        for f in dataclasses.fields(Workload):
            if f.name in ("model", "task", HF_CONFIG):
                continue
            value = getattr(w, f.name)
            if value != f.default:
                wd[f.name] = value
        doc["workload"] = wd
    if build.cluster is not None:
        doc["cluster"] = {"nodes": build.cluster.nodes, "interconnect": build.cluster.interconnect}
    return doc
