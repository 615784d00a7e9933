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
    WEIGHT_BYTES,
    frozen_backbone_params,
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


# -- LLaMA layout and the memory options (#28) ---------------------------------------------------------------
# A tiny LLaMA from transformers' own LlamaConfig (RMSNorm, rotary positions, SwiGLU, grouped-query attention),
# random weights. Each case counts one training step and sets each count beside estimate/memory's term.

LLAMA_CASES = [
    # (precision, attention, finetune, chunked_ce, checkpointing)
    ("fp32", "sdpa", "full", False, False),
    ("fp32", "eager", "full", False, False),
    ("bf16", "sdpa", "full", False, False),
    ("bf16", "eager", "full", False, False),
    ("amp", "sdpa", "full", False, False),
    ("bf16", "sdpa", "full", True, False),
    ("bf16", "sdpa", "full", False, True),
    ("bf16", "sdpa", "lora", False, False),
    ("fp32", "sdpa", "lora", False, False),
    ("amp", "sdpa", "lora", False, False),
]
LLAMA = {"layers": 2, "hidden": 256, "heads": 8, "kv_heads": 2, "ffn": 688, "vocab": 3000, "batch": 2, "seq": 128}
LORA_RANK = 8


def llama_spec() -> ModelSpec:
    c = LLAMA
    spec = dataclasses.replace(KNOWN_MODELS["llama-7b"], name="llama-tiny", params=0.0, layers=c["layers"],
                               hidden=c["hidden"], heads=c["heads"], kv_heads=c["kv_heads"],
                               intermediate=c["ffn"], vocab=c["vocab"], context=c["seq"])
    linear, other = transformer_params(spec)
    return dataclasses.replace(spec, params=linear + other)


def _llama(attention: str, dtype: Any) -> Any:
    import torch
    import transformers

    transformers.logging.set_verbosity_error()
    c = LLAMA
    cfg = transformers.LlamaConfig(num_hidden_layers=c["layers"], hidden_size=c["hidden"],
                                   num_attention_heads=c["heads"], num_key_value_heads=c["kv_heads"],
                                   intermediate_size=c["ffn"], vocab_size=c["vocab"],
                                   max_position_embeddings=c["seq"], attn_implementation=attention,
                                   tie_word_embeddings=False)
    model = transformers.LlamaForCausalLM(cfg).to(dtype or torch.float32)
    model.train()
    return model


class _Lora:
    """peft's LoRA layer, written out (peft is not a dependency): y = base(x) + B(A(x cast to A's dtype)),
    adapters in fp32 (peft's autocast_adapter_dtype), base frozen."""

    @staticmethod
    def wrap(model: Any, rank: int) -> None:
        import torch

        class Adapter(torch.nn.Module):
            def __init__(self, base: Any) -> None:
                super().__init__()
                self.base = base
                self.lora_A = torch.nn.Linear(base.in_features, rank, bias=False, dtype=torch.float32)
                self.lora_B = torch.nn.Linear(rank, base.out_features, bias=False, dtype=torch.float32)

            def forward(self, x: Any) -> Any:
                return self.base(x) + self.lora_B(self.lora_A(x.to(self.lora_A.weight.dtype))).to(x.dtype)

        model.requires_grad_(False)
        for layer in model.model.layers:
            for name in ("q_proj", "k_proj", "v_proj", "o_proj"):
                setattr(layer.self_attn, name, Adapter(getattr(layer.self_attn, name)))


def _chunked_loss(model: Any, ids: Any, chunks: int) -> Any:
    """The head and the cross-entropy chunk by chunk of the tokens, each chunk under torch.utils.checkpoint:
    no vocabulary-wide tensor is saved for backward (what Liger's fused linear cross-entropy achieves)."""
    import torch.nn.functional as nnf
    import torch.utils.checkpoint as cp

    hidden = model.model(input_ids=ids).last_hidden_state[:, :-1]
    labels = ids[:, 1:]
    n = labels.numel()

    def chunk_loss(x: Any, y: Any) -> Any:
        return nnf.cross_entropy(model.lm_head(x).float().flatten(0, 1), y.flatten(), reduction="sum")

    total = 0.0
    for x, y in zip(hidden.tensor_split(chunks, dim=1), labels.tensor_split(chunks, dim=1), strict=True):
        total = total + cp.checkpoint(chunk_loss, x, y, use_reentrant=False)
    return total / n


def all_option_rows() -> list[Row]:
    """Every LLaMA case and option count, for the bench table."""
    rows = [r for case in LLAMA_CASES for r in measure_llama(*case).rows]
    return rows + measure_optimizers() + measure_grads_in_backward() + measure_activation_offload("bf16") \
        + measure_activation_offload("fp32")


def measure_llama(precision: str, attention: str, finetune: str, chunked: bool, ckpt: bool) -> Measured:
    """One training step of the tiny LLaMA, counted: the saved tensors, and (full fine-tuning) the gradients
    and AdamW's states; LoRA: the adapters' parameter count."""
    import torch

    from configurator.core.estimate.memory import ADAPTER_BYTES, CE_CHUNKS, lora_params

    torch.set_num_threads(1)
    torch.manual_seed(0)
    spec = llama_spec()
    lora = finetune == "lora"
    # estimate/memory's LoRA base is 16-bit under amp (autocast then makes no weight copies), fp32 adapters
    model = _llama(attention, torch.bfloat16 if precision == "bf16" or (lora and precision == "amp")
                   else torch.float32)
    if lora:
        _Lora.wrap(model, LORA_RANK)
    if ckpt:
        getattr(model, "activation_checkpointing_enable", model.gradient_checkpointing_enable)()
    c = LLAMA
    ids = torch.randint(0, c["vocab"], (c["batch"], c["seq"]))
    loss = (lambda: _chunked_loss(model, ids, CE_CHUNKS)) if chunked else (
        lambda: model(input_ids=ids, labels=ids).loss)
    counted = count_step(model, loss, autocast=precision == "amp")
    est = transformer_saved(spec, c["batch"], c["seq"], precision, checkpointing=ckpt, attention=attention,
                            device="cpu", frozen=lora, adapter_bytes=ADAPTER_BYTES if lora else 0.0,
                            lora_rank=LORA_RANK if lora else 0, chunked_ce=chunked)
    settings = f"b{c['batch']} s{c['seq']} {precision} {attention}{' lora' if lora else ''}" \
               f"{' chunked-CE' if chunked else ''}{' ckpt' if ckpt else ''}"
    name = f"llama L{c['layers']} h{c['hidden']} kv{c['kv_heads']} V{c['vocab']}"
    rows = [Row(name, settings + " activations", counted.activations, est.activations)]
    if precision == "amp" and not ckpt and not lora:
        rows.append(Row(name, settings + " autocast copies", counted.copies, est.autocast_copies))
    trained = sum(p.numel() for p in model.parameters() if p.requires_grad)
    if lora:
        rows.append(Row(name, settings + " adapter parameters", trained, lora_params(spec, LORA_RANK)))
    else:
        rows.append(Row(name, settings + " grads+AdamW", counted.grads + counted.optimizer,
                        spec.params * (WEIGHT_BYTES[precision] + OPTIMIZER_BYTES[
                            "adamw-bf16" if precision == "bf16" else "adamw"])))
    base = 2 if precision == "bf16" or (lora and precision == "amp") else 4
    return Measured(rows, counted.params - (trained * 4 if lora else 0), spec.params * base)


def measure_optimizers() -> list[Row]:
    """Optimizer state bytes per parameter as torch.optim makes them, beside OPTIMIZER_BYTES (+ master weights):
    AdamW on fp32 and on bf16 parameters (a pure-bf16 run: its states are bf16, no fp32 copy), SGD with and
    without momentum. bitsandbytes' 8-bit states are not measured (not installed): estimate/memory takes their
    layout from its source."""
    import torch

    from configurator.core.estimate.memory import NO_MASTER_OPTIMIZERS

    torch.manual_seed(0)
    spec = llama_spec()
    rows = []
    cases = [("adamw", torch.float32, "fp32"), ("adamw-bf16", torch.bfloat16, "bf16"), ("sgd", torch.float32, "fp32"),
             ("sgd_nomomentum", torch.float32, "fp32")]
    for name, dtype, precision in cases:
        model = _llama("sdpa", dtype)
        ids = torch.randint(0, LLAMA["vocab"], (1, 16))
        model(input_ids=ids, labels=ids).loss.backward()
        params = list(model.parameters())
        opt: Any = (torch.optim.AdamW(params) if name.startswith("adamw")
                    else torch.optim.SGD(params, lr=0.1, momentum=0.9 if name == "sgd" else 0.0))
        opt.step()
        state = sum(v.numel() * v.element_size() for st in opt.state.values() for k, v in st.items()
                    if torch.is_tensor(v) and k != "step")
        master = 4.0 if precision in ("bf16", "fp16") and name not in NO_MASTER_OPTIMIZERS else 0.0
        rows.append(Row("llama-tiny", f"{name} on {precision} weights: optimizer states", state,
                        spec.params * (OPTIMIZER_BYTES[name] + master)))
    return rows


def measure_grads_in_backward() -> list[Row]:
    """The most gradient bytes alive at once in backward, with the step fused into backward (a
    post-accumulate-grad hook steps the parameter and frees its gradient, as in the PyTorch tutorial "How to
    save memory by fusing the optimizer step into the backward pass") and without (all gradients kept until
    optimizer.step()), beside estimate/memory (largest_param, the parameter count)."""
    import torch

    from configurator.core.estimate.memory import largest_param

    torch.manual_seed(0)
    spec = llama_spec()
    rows = []
    for fused in (False, True):
        model = _llama("sdpa", torch.bfloat16)
        params = list(model.parameters())
        live = {"now": 0, "peak": 0}
        optimizers = {p: torch.optim.AdamW([p]) for p in params} if fused else {}

        def hook(p: Any, optimizers: dict[Any, Any] = optimizers, live: dict[str, int] = live,
                 fused: bool = fused) -> None:
            live["now"] += p.grad.numel() * p.grad.element_size()
            live["peak"] = max(live["peak"], live["now"])
            if fused:
                optimizers[p].step()
                live["now"] -= p.grad.numel() * p.grad.element_size()
                p.grad = None

        for p in params:
            p.register_post_accumulate_grad_hook(hook)
        ids = torch.randint(0, LLAMA["vocab"], (1, 16))
        model(input_ids=ids, labels=ids).loss.backward()
        estimate = (largest_param(spec) if fused else spec.params) * 2.0
        rows.append(Row("llama-tiny", f"bf16 gradients alive in backward{', optimizer in backward' if fused else ''}",
                        live["peak"], estimate))
    return rows


def measure_activation_offload(precision: str = "bf16") -> list[Row]:
    """Activation offload as torch.autograd.graph.save_on_cpu / torchtune's OffloadActivations do it: every
    tensor the model saves (not the parameters) is copied to host memory in forward and back, one autograd
    node's at a time, in backward. Counted: the bytes sent to the host, and the most bytes brought back alive
    at once (what stays on the GPU), beside estimate/memory's host_activations and its one-layer GPU share. The
    loss is computed outside the offloaded region (as torchtune's recipes do)."""
    import weakref

    import torch

    torch.manual_seed(0)
    torch.set_num_threads(1)
    spec = llama_spec()
    model = _llama("sdpa", torch.bfloat16 if precision == "bf16" else torch.float32)
    owned = {p.untyped_storage().data_ptr() for p in model.parameters()}
    owned |= {b.untyped_storage().data_ptr() for b in model.buffers()}
    sent: dict[int, int] = {}
    host: dict[int, Any] = {}
    alive: list[Any] = []  # the forward's originals, kept until backward so no address is reused while counting
    live = {"now": 0, "peak": 0}

    def pack(t: Any) -> Any:
        ptr = t.untyped_storage().data_ptr()
        if ptr in owned:
            return ("kept", t)
        if ptr not in host:
            host[ptr] = t.untyped_storage().clone()  # the pinned host copy
            sent[ptr] = host[ptr].nbytes()
            alive.append(t)
        return ("host", ptr, t.dtype, t.shape, t.stride(), t.storage_offset())

    def unpack(packed: Any) -> Any:
        if packed[0] == "kept":
            return packed[1]
        _tag, ptr, dtype, shape, stride, offset = packed
        storage = host[ptr].clone()  # the copy back to the GPU
        n = storage.nbytes()
        live["now"] += n
        live["peak"] = max(live["peak"], live["now"])
        back = torch.empty(0, dtype=dtype).set_(storage, offset, shape, stride)
        weakref.finalize(back, lambda n=n: live.__setitem__("now", live["now"] - n))
        return back

    c = LLAMA
    ids = torch.randint(0, c["vocab"], (c["batch"], c["seq"]))
    with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
        logits = model(input_ids=ids).logits
    alive.clear()  # on a GPU the originals are freed as soon as their copies are on the host
    loss = torch.nn.functional.cross_entropy(logits[:, :-1].float().flatten(0, 1), ids[:, 1:].flatten())
    loss.backward()
    full = transformer_saved(spec, c["batch"], c["seq"], precision, device="cpu")
    one = transformer_saved(spec, c["batch"], c["seq"], precision, device="cpu", checkpointing=True)
    loss_bytes = 4.0 * spec.vocab * c["batch"] * c["seq"]
    ids_bytes = 8.0 * c["batch"] * c["seq"]  # the labels are not saved inside the model: the loss is outside
    host_estimate = full.activations - loss_bytes - ids_bytes
    name = "llama-tiny"
    return [Row(name, f"{precision} activation offload: bytes sent to host", sum(sent.values()), host_estimate),
            Row(name, f"{precision} activation offload: most alive on the device in backward (≤ one layer's)",
                live["peak"], one.recompute)]


# -- detection and diffusion (#36) ----------------------------------------------------------------------------
# torchvision's Faster R-CNN (weights=None, weights_backbone=None: random weights, BatchNorm trained, every layer
# trainable) on synthetic targets, and diffusers' UNet2DConditionModel from a small config of the Stable Diffusion
# layout (random weights). Small images keep each case under a few seconds on one CPU thread.

DETECTION_CASES = [
    # (arch, batch, min_size, max_size, classes, trainable backbone layers or None, frozen BatchNorm)
    # None: the model as fasterrcnn_resnet50_fpn(weights=None, weights_backbone=None) builds it (torchvision's
    # _validate_trainable_layers sets 5 without a pretrained backbone, and nn.BatchNorm2d); 3 with frozen BN: the
    # model it builds on a pretrained backbone (FrozenBatchNorm2d, trainable_backbone_layers default 3), made here
    # the same way with random weights
    ("fasterrcnn", 2, 160, 256, 91, None, False),
    ("fasterrcnn", 1, 224, 320, 21, None, False),
    ("retinanet", 1, 160, 256, 91, None, False),
    ("fasterrcnn", 2, 160, 256, 91, 3, True),
    ("fasterrcnn", 1, 224, 320, 21, 3, False),  # MMDetection's frozen_stages=1 with BatchNorm's affine trained
    ("retinanet", 1, 160, 256, 91, 3, True),
]
UNET_CASES = [
    # (name, channels, attention per level, transformer depth per level, heads, head_channels, linear projection,
    #  context dim, batch, latent side, precision)
    ("sd-like", (32, 64, 64), (True, True, False), (1, 1, 1), 4, 0, False, 48, 2, 16, "fp32"),
    ("sd-like", (32, 64, 64), (True, True, False), (1, 1, 1), 4, 0, False, 48, 2, 16, "bf16"),
    ("sdxl-like", (32, 64, 128), (False, True, True), (1, 2, 3), 0, 16, True, 64, 1, 24, "fp32"),
]
CONTEXT_TOKENS = 77


def detection_spec(arch: str, classes: int, height: int, width: int, trainable: int = 5,
                   frozen_bn: bool = False) -> ModelSpec:
    return ModelSpec(f"{arch}-test", "cnn", 0.0, "", arch=arch, image_size=height, image_width=width,
                     classes=classes, blocks=(3, 4, 6, 3), bottleneck=True, trainable_stages=trainable,
                     frozen_bn=frozen_bn)


def _torchvision_detector(arch: str, classes: int, min_size: int, max_size: int, trainable: int | None,
                          frozen_bn: bool) -> Any:
    """``{arch}_resnet50_fpn`` with random weights: as torchvision builds it without a pretrained backbone
    (``trainable`` None), or as it builds it on one (FrozenBatchNorm2d, ``trainable`` stages: the builder's own
    steps, resnet50(norm_layer=...) and _resnet_fpn_extractor, without the weights)."""
    import torchvision
    from torchvision.models.detection import backbone_utils, faster_rcnn, mask_rcnn, retinanet
    from torchvision.ops import misc

    kwargs = {"num_classes": classes, "min_size": min_size, "max_size": max_size}
    if trainable is None:
        build = getattr(torchvision.models.detection, f"{arch}_resnet50_fpn")
        return build(weights=None, weights_backbone=None, **kwargs)
    norm = misc.FrozenBatchNorm2d if frozen_bn else None
    body = torchvision.models.resnet50(weights=None, norm_layer=norm)
    if arch == "retinanet":
        backbone = backbone_utils._resnet_fpn_extractor(
            body, trainable, returned_layers=[2, 3, 4], extra_blocks=retinanet.LastLevelP6P7(256, 256))
        return retinanet.RetinaNet(backbone, **kwargs)
    backbone = backbone_utils._resnet_fpn_extractor(body, trainable)
    return (mask_rcnn.MaskRCNN if arch == "maskrcnn" else faster_rcnn.FasterRCNN)(backbone, **kwargs)


def measure_detection(arch: str, batch: int, min_size: int, max_size: int, classes: int,
                      trainable: int | None = None, frozen_bn: bool = False) -> Measured:
    """One training step of torchvision's ``{arch}_resnet50_fpn`` at a small size (min_size / max_size: what its
    transform resizes to), two synthetic boxes per image, counted beside memory.detection_saved."""
    import torch

    from configurator.core.estimate.memory import detection_saved

    torch.set_num_threads(1)
    torch.manual_seed(0)
    model = _torchvision_detector(arch, classes, min_size, max_size, trainable, frozen_bn)
    model.train()
    side = min_size
    images = [torch.rand(3, side, side) for _ in range(batch)]
    targets = [{"boxes": torch.tensor([[10.0, 20.0, 100.0, 120.0], [50.0, 60.0, 200.0, 220.0]]),
                "labels": torch.tensor([1, 2])} for _ in range(batch)]
    counted = count_step(model, lambda: sum(model(images, targets).values()), optimizer="sgd")
    # the transform resized the square images to min_size × min_size, padded to a multiple of 32
    padded = -(-side // 32) * 32
    params = sum(p.numel() for p in model.parameters())
    n = 5 if trainable is None else trainable
    spec = dataclasses.replace(detection_spec(arch, classes, padded, padded, n, frozen_bn), params=float(params))
    est = detection_saved(spec, batch, "fp32")
    settings = f"b{batch} {side}px fp32 " + ("as built without weights" if trainable is None else
                                           f"{trainable} trainable, {'frozen' if frozen_bn else 'trained'} BN")
    trained = spec.params - frozen_backbone_params(spec)
    rows = [Row(f"{arch}_resnet50_fpn", settings + " activations", counted.activations, est.activations),
            Row(f"{arch}_resnet50_fpn", settings + " grads+SGD momentum", counted.grads + counted.optimizer,
                trained * (4 + OPTIMIZER_BYTES["sgd"]))]
    return Measured(rows, counted.params, spec.params * 4)


def unet_layout(channels: tuple[int, ...], attention: tuple[bool, ...], depth: tuple[int, ...], heads: int,
                head_channels: int, linear: bool, context: int) -> Any:
    from configurator.core.model_specs import UNetLayout

    return UNetLayout(channels, attention, depth, heads=heads, head_channels=head_channels, context_dim=context,
                      linear_projection=linear)


def diffusers_unet(layout: Any) -> Any:
    """diffusers' UNet2DConditionModel for a layout (random weights; its config keys as the catalogue reads them)."""
    from diffusers import UNet2DConditionModel

    down = tuple("CrossAttnDownBlock2D" if a else "DownBlock2D" for a in layout.attention)
    up = tuple("CrossAttnUpBlock2D" if a else "UpBlock2D" for a in reversed(layout.attention))
    heads = layout.heads or tuple(c // layout.head_channels for c in layout.channels)
    return UNet2DConditionModel(
        block_out_channels=layout.channels, layers_per_block=layout.layers, down_block_types=down,
        up_block_types=up, transformer_layers_per_block=layout.depth, attention_head_dim=heads,
        cross_attention_dim=layout.context_dim, use_linear_projection=layout.linear_projection,
        norm_num_groups=32 if min(layout.channels) >= 32 else 8)


def measure_unet(name: str, channels: tuple[int, ...], attention: tuple[bool, ...], depth: tuple[int, ...],
                 heads: int, head_channels: int, linear: bool, context: int, batch: int, side: int,
                 precision: str) -> Measured:
    """One training step of diffusers' UNet2DConditionModel (the noise-prediction MSE loss), counted beside
    vision.unet_saved at the same latent size."""
    import torch

    from configurator.core.vision import unet_saved

    torch.set_num_threads(1)
    torch.manual_seed(0)
    layout = unet_layout(channels, attention, depth, heads, head_channels, linear, context)
    dtype = torch.bfloat16 if precision == "bf16" else torch.float32
    model = diffusers_unet(layout).to(dtype)
    model.train()
    x = torch.randn(batch, layout.latent_channels, side, side, dtype=dtype)
    ctx = torch.randn(batch, CONTEXT_TOKENS, context, dtype=dtype)
    t = torch.randint(0, 1000, (batch,))
    noise = torch.randn(batch, layout.latent_channels, side, side)

    def loss() -> Any:
        out = model(x, t, ctx).sample
        return torch.nn.functional.mse_loss(out.float(), noise)

    counted = count_step(model, loss)
    image = side * layout.vae_factor
    e = 2.0 if precision == "bf16" else 4.0
    est = unet_saved(layout, image, image, batch, e)
    params = sum(p.numel() for p in model.parameters())
    rows = [Row(f"unet {name} {channels}", f"b{batch} latent {side}² {precision} activations",
                counted.activations, est)]
    return Measured(rows, counted.params, float(params) * WEIGHT_BYTES[precision])


def vision_rows() -> list[Row]:
    """Every detection and UNet case, for the bench table."""
    return [r for case in DETECTION_CASES for r in measure_detection(*case).rows] + \
        [r for case in UNET_CASES for r in measure_unet(*case).rows]


# -- Flux-class transformers (#36) ----------------------------------------------------------------------------
# diffusers' FluxTransformer2DModel from a reduced config (fewer and narrower blocks: the full 19 + 38 blocks of 3072
# do not train on this CPU), random weights, the flow-matching MSE loss on the packed latent. The saved-tensor terms
# are per token and block (vision.flux_saved), so they hold at full size as they hold here: the full model's count
# is the same sums with d = 3072, 57 blocks and T = 4096 + 512 tokens at 1024².

FLUX_CASES = [
    # (double blocks, single blocks, heads, head_dim, latent side (packed tokens per side), text tokens, batch,
    #  precision)
    (1, 2, 4, 32, 16, 64, 1, "fp32"),
    (2, 1, 4, 32, 12, 32, 2, "bf16"),
    (1, 1, 2, 64, 8, 16, 1, "fp32"),
]
FLUX_CONTEXT_DIM = 64
FLUX_POOLED_DIM = 32


def flux_layout(double: int, single: int, heads: int, head_dim: int, text: int) -> Any:
    from configurator.core.model_specs import FluxLayout

    return FluxLayout(double, single, heads, head_dim, context_dim=FLUX_CONTEXT_DIM, context_tokens=text,
                      in_channels=64, guidance=True)


def measure_flux(double: int, single: int, heads: int, head_dim: int, side: int, text: int, batch: int,
                 precision: str) -> Measured:
    """One training step of diffusers' FluxTransformer2DModel at a reduced size, counted beside vision.flux_saved
    (the image is side × 16 pixels per side: side² packed tokens), and its parameters beside flux_params."""
    import torch
    from diffusers import FluxTransformer2DModel

    from configurator.core.vision import flux_saved

    torch.set_num_threads(1)
    torch.manual_seed(0)
    layout = flux_layout(double, single, heads, head_dim, text)
    rope = (head_dim // 4, 3 * head_dim // 8, 3 * head_dim // 8)  # FLUX.1's (16, 56, 56) of 128, scaled
    dtype = torch.bfloat16 if precision == "bf16" else torch.float32
    model = FluxTransformer2DModel(patch_size=1, in_channels=64, num_layers=double, num_single_layers=single,
                                   attention_head_dim=head_dim, num_attention_heads=heads,
                                   joint_attention_dim=FLUX_CONTEXT_DIM, pooled_projection_dim=FLUX_POOLED_DIM,
                                   guidance_embeds=True, axes_dims_rope=rope).to(dtype)
    model.train()
    n = side * side
    x = torch.randn(batch, n, 64, dtype=dtype)
    ctx = torch.randn(batch, text, FLUX_CONTEXT_DIM, dtype=dtype)
    pooled = torch.randn(batch, FLUX_POOLED_DIM, dtype=dtype)
    ids = torch.zeros(side, side, 3)
    ids[..., 1] = torch.arange(side)[:, None]
    ids[..., 2] = torch.arange(side)[None, :]
    target = torch.randn(batch, n, 64)

    def loss() -> Any:
        out = model(hidden_states=x, encoder_hidden_states=ctx, pooled_projections=pooled,
                    timestep=torch.full((batch,), 0.5), img_ids=ids.reshape(-1, 3), txt_ids=torch.zeros(text, 3),
                    guidance=torch.full((batch,), 3.5)).sample
        return torch.nn.functional.mse_loss(out.float(), target)

    counted = count_step(model, loss)
    pixels = side * layout.vae_factor * layout.patch
    est = flux_saved(layout, pixels, pixels, batch, WEIGHT_BYTES[precision])
    params = sum(p.numel() for p in model.parameters())
    name = f"flux {double}+{single} blocks d{heads * head_dim}"
    rows = [Row(name, f"b{batch} {n}+{text} tokens {precision} activations", counted.activations, est),
            Row(name, f"b{batch} {precision} grads+AdamW", counted.grads + counted.optimizer,
                params * (WEIGHT_BYTES[precision] + OPTIMIZER_BYTES["adamw-bf16" if precision == "bf16" else "adamw"]))]
    return Measured(rows, counted.params, float(params) * WEIGHT_BYTES[precision])


def flux_rows() -> list[Row]:
    """Every Flux case, for the bench table."""
    return [r for case in FLUX_CASES for r in measure_flux(*case).rows]


# -- DETR (#36) -------------------------------------------------------------------------------------------------
# transformers' DetrForObjectDetection from DetrConfig's defaults (the facebook/detr-resnet-50 layout) with
# transformers' own ResNet-50 (use_timm_backbone=False: timm is not installed), random weights, SDPA attention. Two
# set-ups, and why: DetrConvEncoder freezes every backbone parameter whose name lacks "stage.1" / "stage.2" /
# "stage.3", which transformers' ResNetBackbone names "encoder.stages.N" never contain, so the whole backbone is
# frozen there; DETR's own recipe (facebookresearch/detr models/backbone.py) trains layer2-4 at lr 1e-5: its stages
# 1-3 are set trainable here. The Hungarian matcher needs scipy (not installed): it is computed under no_grad and
# saves nothing, so the matching is replaced by query i ↔ target i. Reduced images: the terms are per pixel, token
# and query, so they hold at 800 × 1,333 as here (T = 25 × 42 tokens there).

DETR_CASES = [
    # (batch, height, width, classes)
    (2, 256, 384, 91),
    (1, 320, 320, 91),
]


def detr_model(classes: int) -> Any:
    """DetrForObjectDetection (random weights) with DETR's trained stages and a matcher that needs no scipy."""
    import numpy as np
    import transformers.loss.loss_for_object_detection as detr_loss
    from transformers import DetrConfig, DetrForObjectDetection

    detr_loss.requires_backends = lambda *a, **k: None  # type: ignore[attr-defined]
    detr_loss.linear_sum_assignment = lambda c: (np.arange(min(c.shape)), np.arange(min(c.shape)))  # type: ignore

    model = DetrForObjectDetection(DetrConfig(use_timm_backbone=False, use_pretrained_backbone=False,
                                              num_labels=classes))
    for name, p in model.model.backbone.model.named_parameters():
        if any(f"stages.{k}." in name for k in (1, 2, 3)):
            p.requires_grad_(True)
    return model


def measure_detr(batch: int, height: int, width: int, classes: int) -> Measured:
    """One training step of DETR (AdamW), counted beside memory.detr_saved, the weights, gradients and AdamW
    states beside the spec's parameters less the frozen stem and layer1."""
    import torch

    from configurator.core.estimate.memory import detr_saved

    torch.set_num_threads(1)
    torch.manual_seed(0)
    model = detr_model(classes)
    model.train()
    x = torch.rand(batch, 3, height, width)
    mask = torch.ones(batch, height, width, dtype=torch.long)
    labels = [{"class_labels": torch.tensor([1, 2]),
               "boxes": torch.tensor([[0.3, 0.4, 0.2, 0.2], [0.6, 0.5, 0.3, 0.4]])} for _ in range(batch)]
    counted = count_step(model, lambda: model(pixel_values=x, pixel_mask=mask, labels=labels).loss)
    params = sum(p.numel() for p in model.parameters())
    spec = ModelSpec("detr-test", "cnn", float(params), "", arch="detr", image_size=height, image_width=width,
                     classes=classes, trainable_stages=3, frozen_bn=True)
    est = detr_saved(spec, batch, "fp32", device="cpu")
    trained = params - frozen_backbone_params(spec)
    settings = f"b{batch} {height}x{width} fp32"
    rows = [Row("detr-resnet-50 (transformers)", settings + " activations", counted.activations, est.activations),
            Row("detr-resnet-50 (transformers)", settings + " weights", counted.params, params * 4.0),
            Row("detr-resnet-50 (transformers)", settings + " grads+AdamW", counted.grads + counted.optimizer,
                trained * (4 + OPTIMIZER_BYTES["adamw"]))]
    return Measured(rows, counted.params, params * 4.0)


def detr_rows() -> list[Row]:
    """Every DETR case, for the bench table."""
    return [r for case in DETR_CASES for r in measure_detr(*case).rows]
