"""What PyTorch itself saves for one training step on the CPU, counted, beside the VRAM estimator's
terms: the instrument of tests/core/test_memory_vs_pytorch.py (which holds every term within 10 %) and
of `make bench --only memory` (which prints the table). Random weights, nothing downloaded.

Counted, deduplicated by storage:

- the tensors autograd saves for backward (``torch.autograd.graph.saved_tensors_hooks``),
  leaving out storages that belong to parameters or buffers (ops save the weights themselves)
  and autocast's 16-bit copies of the weights, which are counted on their own;
- parameters, gradients and, after ``optimizer.step()``, the optimizer's state tensors.

What differs on CUDA, and how the CPU stands in for it:

- CPU autocast with ``dtype=torch.bfloat16`` stands in for CUDA autocast; fp16 and bf16 are the
  same size, and both keep the residual stream, LayerNorm and softmax in fp32.
- Dropout: CUDA's fused kernel keeps a bool mask (1 B per element); the CPU keeps a noise
  tensor of the input's dtype. The estimator takes the device (``device="cpu"`` here).
- Attention: ``attn_implementation`` is set explicitly. "eager" saves the softmax output,
  the dropout mask and output (the s² terms). "sdpa" on CUDA runs the flash or
  memory-efficient kernel, with dropout, and saves Q, K, V, the output and the log-sum-exp;
  on the CPU the flash kernel has no dropout (with dropout SDPA falls back to the math path),
  so the SDPA cases set the attention dropout to 0, which is the kernel CUDA runs.
- Not counted by either: CUDA context, cuBLAS/cuDNN workspaces, allocator rounding.

torch, torchvision and transformers are imported when a case runs, not with this module.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Callable
from typing import Any, NamedTuple

from configurator.core.estimate.memory import (
    OPTIMIZER_BYTES,
    resnet_saved,
    transformer_params,
    transformer_saved,
)
from configurator.core.model_specs import KNOWN_MODELS, ModelSpec


class Row(NamedTuple):
    """One term: what PyTorch kept (bytes) beside what the estimator says."""

    model: str
    settings: str
    measured: float
    estimated: float


@dataclasses.dataclass
class Measured:
    rows: list[Row]
    params_counted: int  # bytes of the parameters PyTorch made
    params_estimated: float  # bytes of the parameters the layout says


_VIEWS = {"TBackward0", "ViewBackward0", "PermuteBackward0", "TransposeBackward0", "ExpandBackward0",
          "UnsafeViewBackward0", "AliasBackward0"}


def _is_weight_copy(t: Any) -> bool:
    """Autocast's cast of a parameter (possibly viewed): ToCopyBackward0 straight onto an AccumulateGrad."""
    fn = t.grad_fn
    for _ in range(4):
        if fn is None:
            return False
        name = type(fn).__name__
        if name == "ToCopyBackward0":
            nxt = fn.next_functions[0][0]
            return nxt is not None and type(nxt).__name__ == "AccumulateGrad"
        if name not in _VIEWS:
            return False
        fn = fn.next_functions[0][0]
    return False


@dataclasses.dataclass
class Counted:
    activations: int
    copies: int
    params: int
    grads: int
    optimizer: int


def count_step(model: Any, loss_fn: Callable[[], Any], optimizer: str = "adamw", autocast: bool = False) -> Counted:
    owned = {p.untyped_storage().data_ptr() for p in model.parameters()}
    owned |= {b.untyped_storage().data_ptr() for b in model.buffers()}
    acts: dict[int, int] = {}
    copies: dict[int, int] = {}

    def pack(t: Any) -> Any:
        storage = t.untyped_storage()
        ptr = storage.data_ptr()
        if ptr not in owned and ptr not in acts and ptr not in copies:
            (copies if _is_weight_copy(t) else acts)[ptr] = storage.nbytes()
        return t

    import torch

    amp = torch.autocast("cpu", dtype=torch.bfloat16) if autocast else contextlib.nullcontext()
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t), amp:
        loss = loss_fn()
    loss.backward()
    opt = {"adamw": lambda: torch.optim.AdamW(model.parameters()),
           "sgd": lambda: torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)}[optimizer]()
    opt.step()
    state = sum(v.numel() * v.element_size() for s in opt.state.values() for k, v in s.items()
                if torch.is_tensor(v) and k != "step")  # AdamW's step counter: one 4-byte scalar per tensor
    return Counted(sum(acts.values()), sum(copies.values()),
                   sum(p.numel() * p.element_size() for p in model.parameters()),
                   sum(p.grad.numel() * p.grad.element_size() for p in model.parameters() if p.grad is not None),
                   state)


def _gpt2_spec(layers: int, hidden: int, heads: int, vocab: int, ctx: int, attn_dropout: float) -> ModelSpec:
    base = KNOWN_MODELS["gpt2"]
    return dataclasses.replace(base, name="gpt2-tiny", params=0.0, layers=layers, hidden=hidden, heads=heads,
                               vocab=vocab, context=ctx, attention_dropout=attn_dropout)


def _bert_spec(layers: int, hidden: int, heads: int, vocab: int, ctx: int, attn_dropout: float) -> ModelSpec:
    base = KNOWN_MODELS["bert-base"]
    return dataclasses.replace(base, name="bert-tiny", params=0.0, layers=layers, hidden=hidden, heads=heads,
                               vocab=vocab, context=ctx, attention_dropout=attn_dropout)


def _hf_model(spec: ModelSpec, attention: str) -> Any:
    import transformers

    transformers.logging.set_verbosity_error()
    if spec.decoder:
        cfg = transformers.GPT2Config(n_layer=spec.layers, n_embd=spec.hidden, n_head=spec.heads,
                                      vocab_size=spec.vocab, n_positions=spec.context, n_inner=spec.ffn,
                                      resid_pdrop=spec.dropout, embd_pdrop=spec.dropout,
                                      attn_pdrop=spec.attention_dropout, activation_function=spec.activation,
                                      attn_implementation=attention, bos_token_id=0, eos_token_id=0)
        model = transformers.GPT2LMHeadModel(cfg)
    else:
        cfg = transformers.BertConfig(num_hidden_layers=spec.layers, hidden_size=spec.hidden,
                                      num_attention_heads=spec.heads, intermediate_size=spec.ffn,
                                      vocab_size=spec.vocab, max_position_embeddings=spec.context,
                                      hidden_dropout_prob=spec.dropout,
                                      attention_probs_dropout_prob=spec.attention_dropout,
                                      attn_implementation=attention)
        model = transformers.BertForMaskedLM(cfg)
    assert model.config._attn_implementation == attention
    model.train()
    return model


TRANSFORMER_CASES = [
    # (family, layers, hidden, heads, vocab, batch, seq, amp, attention, checkpointing)
    ("gpt2", 2, 192, 4, 3000, 2, 128, False, "eager", False),
    ("gpt2", 2, 192, 4, 3000, 4, 64, True, "eager", False),
    ("gpt2", 3, 128, 4, 2000, 2, 256, False, "sdpa", False),
    ("gpt2", 3, 128, 4, 2000, 3, 96, True, "sdpa", False),
    ("gpt2", 2, 192, 4, 3000, 2, 128, True, "sdpa", True),
    ("gpt2", 2, 192, 4, 3000, 2, 128, False, "eager", True),
    ("bert", 2, 256, 4, 3000, 2, 128, False, "eager", False),
    ("bert", 2, 256, 4, 3000, 4, 64, True, "eager", False),
    ("bert", 3, 128, 4, 2000, 2, 160, False, "sdpa", False),
    ("bert", 3, 128, 4, 2000, 2, 160, True, "sdpa", False),
    ("bert", 2, 256, 4, 3000, 2, 128, True, "sdpa", True),
]


RESNET_CASES = [
    # (arch, batch, side, amp, checkpointing)
    ("resnet18", 2, 64, False, False),
    ("resnet18", 4, 96, True, False),
    ("resnet18", 2, 80, False, True),
    ("resnet50", 2, 64, False, False),
    ("resnet50", 2, 64, True, False),
]


def measure_transformer(family: str, layers: int, hidden: int, heads: int, vocab: int, batch: int, seq: int,
                        amp: bool, attention: str, ckpt: bool) -> Measured:
    """One training step of a tiny GPT-2 or BERT (transformers' own classes), counted."""
    import torch

    torch.set_num_threads(1)
    torch.manual_seed(0)
    # SDPA on the CPU has no dropout kernel: attention dropout 0 runs the flash kernel CUDA runs
    attn_dropout = 0.1 if attention == "eager" else 0.0
    make = _gpt2_spec if family == "gpt2" else _bert_spec
    spec = make(layers, hidden, heads, vocab, seq, attn_dropout)
    linear, other = transformer_params(spec)
    spec = dataclasses.replace(spec, params=linear + other)
    model = _hf_model(spec, attention)
    if ckpt:  # transformers 5.x renamed it; 4.x has only the old name
        getattr(model, "activation_checkpointing_enable", model.gradient_checkpointing_enable)()
    ids = torch.randint(0, vocab, (batch, seq))
    counted = count_step(model, lambda: model(input_ids=ids, labels=ids).loss, autocast=amp)
    precision = "amp" if amp else "fp32"
    est = transformer_saved(spec, batch, seq, precision, checkpointing=ckpt, attention=attention, device="cpu")
    settings = f"b{batch} s{seq} {precision} {attention}{' ckpt' if ckpt else ''}"
    name = f"{family} L{layers} h{hidden} V{vocab}"
    rows = [Row(name, settings + " activations", counted.activations, est.activations)]
    if amp and not ckpt:  # under checkpointing the copies are cached, not saved (recomputed in backward)
        rows.append(Row(name, settings + " autocast copies", counted.copies, est.autocast_copies))
    rows.append(Row(name, settings + " grads+AdamW", counted.grads + counted.optimizer,
                    spec.params * (4 + OPTIMIZER_BYTES["adamw"])))
    return Measured(rows, counted.params, spec.params * 4)


def _checkpoint_blocks(model: Any) -> None:
    """torch.utils.checkpoint around every residual block (what the estimator's ResNet checkpointing means)."""
    import torch.utils.checkpoint as cp

    for stage in (model.layer1, model.layer2, model.layer3, model.layer4):
        for block in stage:
            forward = block.forward
            block.forward = lambda x, f=forward: cp.checkpoint(f, x, use_reentrant=False)


def measure_resnet(arch: str, batch: int, side: int, amp: bool, ckpt: bool) -> Measured:
    """One training step of torchvision's ResNet (random weights, 100 classes), counted."""
    import torch
    import torchvision

    torch.set_num_threads(1)
    torch.manual_seed(0)
    classes = 100
    model = getattr(torchvision.models, arch)(weights=None, num_classes=classes)
    model.train()
    params = sum(p.numel() for p in model.parameters())
    spec = dataclasses.replace(KNOWN_MODELS[arch], params=float(params), image_size=side, classes=classes)
    if ckpt:
        _checkpoint_blocks(model)
    x = torch.randn(batch, 3, side, side)
    y = torch.randint(0, classes, (batch,))
    counted = count_step(model, lambda: torch.nn.functional.cross_entropy(model(x), y), optimizer="sgd",
                         autocast=amp)
    precision = "amp" if amp else "fp32"
    est = resnet_saved(spec, batch, precision, checkpointing=ckpt)
    settings = f"b{batch} {side}px {precision}{' ckpt' if ckpt else ''}"
    rows = [Row(arch, settings + " activations", counted.activations, est.activations)]
    if amp:
        rows.append(Row(arch, settings + " autocast copies", counted.copies, est.autocast_copies))
    rows.append(Row(arch, settings + " grads+SGD momentum", counted.grads + counted.optimizer,
                    spec.params * (4 + OPTIMIZER_BYTES["sgd"])))
    return Measured(rows, counted.params, spec.params * 4)
