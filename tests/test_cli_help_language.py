"""The command line's help in the user's language: every sub-command's --help in Chinese with --lang zh_CN
(argparse's own words included), English without it, and the marked copies lupdate reads kept current."""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterator

import pytest
from cli_run import run

from configurator.cli import help as cli_help
from configurator.cli.entry import build_parser
from configurator.cli.help_texts import TEXTS
from configurator.core.parts import CATEGORIES

# What may stay Latin in Chinese help: names, identifiers, units, file names, values the user types.
ALLOWED = {
    "configurator", "nvidia", "pytorch", "cuda", "nvml", "prometheus", "torchrun", "torch", "torchvision", "lora",
    "qlora", "fsdp", "zero", "ddp", "cny", "gb", "tb", "mb", "gib", "w", "kw", "kwh", "json", "csv", "pdf", "toml",
    "utf", "gb18030", "sff", "mid", "full", "rack", "cpu", "gpu", "gpus", "cpus", "auto", "en", "zh_cn", "mps",
    "ssh", "http", "https", "url", "id", "ids", "llm", "pcie", "nvlink", "tflops", "img", "s", "ms", "iqr", "ui",
    "gui", "psu", "ram", "vram", "ssd", "nvme", "os", "api", "host", "port", "python", "pip", "build", "out",
    "recording", "hf", "ttl", "tdp", "rtx", "amp", "fp32", "fp16", "bf16", "int8", "int4", "db", "lang",
    "samples", "tokens", "dataloader", "stderr", "stdout", "sbatch", "rendezvous", "exporter", "hostname",
    "metrics", "dcgm", "psutil", "this", "machine", "matmul", "interpreters", "train", "infer", "none",
    "decode", "prefill", "excel", "rocm", "token", "vllm",
    *CATEGORIES,
}


def identifiers(parser: argparse.ArgumentParser) -> set[str]:
    """What the user types: sub-command names, option values (choices), argument names."""
    out: set[str] = set()
    for action in parser._actions:  # argparse has no public list of a parser's arguments
        out.add(action.dest.lower())
        if isinstance(action.metavar, str):
            out.add(action.metavar.lower())
        if action.choices is not None:
            out.update(str(c).lower() for c in action.choices)
        if isinstance(action, argparse._SubParsersAction):
            for child in action.choices.values():
                out |= identifiers(child)
    return {w for name in out for w in re.split(r"[^a-z0-9]+", name) if w} | out


def sub_commands(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()
                 ) -> Iterator[tuple[str, ...]]:
    for action in parser._actions:  # argparse has no public walk of its sub-commands
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                yield (*path, name)
                yield from sub_commands(child, (*path, name))


IDENTIFIERS = identifiers(build_parser())


def english_words(text: str) -> set[str]:
    text = re.sub(r"`[^`]*`|“[^”]*”|\"[^\"]*\"", " ", text)  # commands in backticks, quoted names
    text = re.sub(r"\b\w+(?:[-_.:/]\w+)+\b|/\w+", " ", text)  # identifiers (resnet50-train, gpu_class), paths
    text = re.sub(r"--?[\w-]+|\{[^}]*\}|\[[^\]]*\]|%\([^)]*\)s|\S+\.(json|csv|pdf|toml|py)\b|https?://\S+", " ", text)
    text = re.sub(r"\b[A-Z][A-Z0-9_]+\b", " ", text)  # metavars and abbreviations (N, PATH, BUILD)
    words = {w.lower() for w in re.findall(r"[A-Za-z][A-Za-z0-9_]+", text)}
    return {w for w in words if w not in ALLOWED | IDENTIFIERS and not re.fullmatch(r"[a-z]+\d+\w*", w)}


def test_the_marked_copies_of_the_help_texts_are_current() -> None:
    cli_help._language["translate"] = None
    current = set(cli_help.help_texts(build_parser()))
    assert current == set(TEXTS), (
        "help texts changed: run `make translations` (python -m configurator.cli.help_texts, then lupdate) and "
        f"translate them; new: {sorted(current - set(TEXTS))[:5]}, gone: {sorted(set(TEXTS) - current)[:5]}")


def test_every_help_in_chinese_has_no_english_words_but_names(capsys) -> None:  # type: ignore[no-untyped-def]
    paths = [(), *sub_commands(build_parser())]
    assert len(paths) > 20
    leftovers: dict[str, set[str]] = {}
    for path in paths:
        code, out, _err = run(capsys, "--lang", "zh_CN", *path, "--help")
        assert code == 0
        assert out.startswith("用法：")
        words = english_words(out.split("\n", 1)[1])  # after the usage line (option names and metavars)
        if words:
            leftovers[" ".join(path) or "(top)"] = words
    assert not leftovers, leftovers


def test_help_and_argparse_errors_follow_lang(capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run(capsys, "check", "--help")
    assert code == 0 and out.startswith("usage:") and "show this help message and exit" in out
    code, _, err = run(capsys, "--lang", "zh_CN", "suggest", "--max-gpus", "x")
    assert code == 2 and "无效" in err and "--max-gpus" in err
    code, _, err = run(capsys, "--lang=zh_CN", "check")
    assert code == 2 and "build" in err and "required" not in err


@pytest.fixture(autouse=True)
def _english_afterwards() -> Iterator[None]:
    yield
    cli_help._language["translate"] = None
