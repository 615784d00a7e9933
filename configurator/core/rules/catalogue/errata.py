"""The guides' errata: where a guide disagrees with vendor specifications or arithmetic, and the rules that
must not repeat the mistake."""

from __future__ import annotations

from configurator.core.rules.catalogue.model import Erratum

ERRATA = (
    Erratum(1, "G 二.2", "The table gives the A100 40GB 19.5 TFLOPS FP16, says the Tesla T4 has no Tensor "
            "Cores, and lists the RTX 3090 at 35.6 TFLOPS.",
            "19.5 TFLOPS is the A100's FP32 rate; its dense FP16 Tensor Core rate is 312 TFLOPS. The T4 has 320 "
            "Tensor Cores (about 65 TFLOPS FP16). The RTX 3090's 35.6 TFLOPS is its shader rate, not its "
            "Tensor Core rate. The catalogue uses the vendors' figures.", ("GPU-2",)),
    Erratum(2, "G 七.1", "Upgrade from an RTX 3090 to an A4000 for more VRAM.",
            "The A4000 has 16 GB, the RTX 3090 24 GB: that is less memory, not more.", ("UPG-1",)),
    Erratum(3, "G 五.3", "The enterprise tier pairs the Xeon Platinum 8380 with DDR5.",
            "Ice Lake-SP takes DDR4-3200. The preset keeps the guide's DDR5 so that COMP-2 reports it.",
            ("TIER-enterprise", "COMP-2")),
    Erratum(4, "M 2.1", "A GTX 1650 Super cannot load GPT-2 Small.",
            "124M parameters are about 0.5 GB in FP32; inference fits in 4 GB. GPU-5 stays the guide's "
            "recommendation and FIT-1 decides whether it fits.", ("GPU-5", "FIT-1")),
    Erratum(5, "G 三.2", "RAM ≥ params × batch × 4 × 1.2.",
            "This multiplies the weights by the batch size, which is not how memory is used. The app shows "
            "it as the guide's conservative rule (RAM-1) next to a first-principles estimate (FIT-2).",
            ("RAM-1", "FIT-2")),
    Erratum(6, "M 2.3", "DataParallel needs NVLink.",
            "It does not; NVLink only makes copies between the GPUs faster.", ("PCI-4",)),
    Erratum(7, "G 三.2", "Enable the CUDA memory pool with torch.cuda.empty_cache().",
            "That call gives cached blocks back to the driver; PyTorch's caching allocator is always on.",
            ("RAM-4",)),
    Erratum(8, "G 六.2", "Use init_process_group instead of DDP.",
            "DistributedDataParallel needs a process group: the two are used together.", ("DIST-1",)),
    Erratum(9, "G 二.3", "Four RTX 3090 cards linked by NVLink; NVLink 100 GB/s against PCIe 3.0 16 GB/s.",
            "RTX 3090 bridges are two-way only: four cards are two pairs joined over PCIe. The comparison sets "
            "NVLink's total of both directions (112.5 GB/s) against one direction of PCIe 3.0 x16 (about 16 "
            "GB/s; 32 GB/s both ways).", ("PCI-4",)),
    Erratum(10, "G 五.3", "A100 80GB × 4 connected by NVSwitch.",
            "Four-GPU HGX A100 boards link the GPUs directly; NVSwitch is on the eight-GPU board. SXM modules "
            "never go in PCIe slots.", ("TIER-enterprise", "PCI-8")),
    Erratum(11, "M 1.2", "PyTorch 1.12, CUDA 11.6, cuDNN 8.2, Python 3.8, Ubuntu 20.04.",
            "These versions are out of date; the app recommends the current supported versions per GPU "
            "architecture from its dated table.", ("CUD-1", "CUD-2", "CUD-6")),
    Erratum(12, "M 2.3", "Dynamic batching: use torch.nn.DataParallel.",
            "DataParallel is not dynamic batching, and PyTorch recommends DistributedDataParallel over it.",
            ("REF-5",)),
    Erratum(13, "G 三.2, M 1.1", "Mixed precision (FP16/BF16) as general advice, beside GTX 16 cards as the "
            "CNN minimum.",
            "GTX 16-series cards (1650/1660 Super) have no Tensor Cores, so mixed precision gains little on "
            "them; native BF16 needs compute capability 8.0 or later.", ("GPU-4",)),
    Erratum(14, "M 1.1", "The RX 570 works with ROCm.",
            "Current ROCm and PyTorch's ROCm wheels do not support the RX 570 (gfx803): it has no GPU path.",
            ("CUD-4",)),
)
