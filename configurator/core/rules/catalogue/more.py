"""Compatibility and fit, the guides' reference figures and tiers, monitoring and
troubleshooting, the checks beyond the guides, and the errata."""

from __future__ import annotations

from configurator.core.i18n import QT_TRANSLATE_NOOP
from configurator.core.rules.catalogue.model import Erratum, Rule

COMPATIBILITY = (
    Rule("COMP-1", "vendor specs", QT_TRANSLATE_NOOP("rule catalogue", "The CPU fits the board's socket"),
         "The CPU's socket must be the board's, and there must be no more CPUs than the board has sockets "
         "or than the CPU supports in one system. A dual-socket board with one CPU is PCI-9's: its second "
         "socket's slots and memory are dead.",
         {"error": "socket mismatch, or too many CPUs for the board or the CPU"}),
    Rule("COMP-2", "vendor specs",
         QT_TRANSLATE_NOOP("rule catalogue", "Memory type, RDIMM/UDIMM and ECC suit board and CPU"),
         "DDR4 and DDR5 do not mix and do not fit each other's slots; registered and unbuffered modules do "
         "not mix and each board and CPU takes one kind. ECC modules on a platform without ECC run, but "
         "without error correction.",
         {"error": "a memory type or module kind the board or CPU cannot take",
          "warning": "ECC modules where ECC is not supported"}, errata=(3,)),
    Rule("COMP-3", "vendor specs",
         QT_TRANSLATE_NOOP("rule catalogue", "Module count and capacity within the board's limits"),
         "No more modules than memory slots, and no more memory than the board and CPUs address.",
         {"error": "too many modules, or more capacity than supported"}),
    Rule("COMP-4", "vendor specs", QT_TRANSLATE_NOOP("rule catalogue", "Cards and board fit the case"),
         "The longest card against the case's GPU clearance, the board's form factor against those the case "
         "takes, and the lowest expansion position the cards reach against the case's slots.",
         {"error": "a card too long, a board form factor the case does not take, or too few expansion slots"}),
    Rule("COMP-5", "G 六.3", QT_TRANSLATE_NOOP("rule catalogue", "A CPU newer than the board may need a BIOS update"),
         "When the CPU launched after the board, the board may not start with it until its BIOS is "
         "updated (which may need an older CPU or a flashback button).",
         {"warning": "the CPU's launch year is after the board's"}),
    Rule("FIT-1", "first principles", QT_TRANSLATE_NOOP("rule catalogue", "The workload fits in each GPU's memory"),
         "Estimates the memory per GPU from the model and the workload (weights, gradients, optimizer "
         "states as sharded, the activations autograd saves at the batch and precision, autocast copies, "
         "logits, KV cache, the CUDA context, the display and the allocator's margin), with its range, "
         "and compares the range with the smallest card. When it does not fit, it names the options that "
         "make it fit with their figures (RAM-4), and the build shows no throughput.",
         {"error": "even the low end of the range is above the card's memory",
          "warning": "the card's memory is within the range (tight)",
          "info": "it fits, with what is left at the high end"}, where=("planner", "estimates"),
         errata=(4,)),
    Rule("FIT-2", "first principles", QT_TRANSLATE_NOOP("rule catalogue", "The host RAM holds what training needs"),
         "Estimates host memory from first principles: the OS and libraries, a host copy of the weights per "
         "process, and the DataLoader's prefetched batches.",
         {"error": "the estimate is above the installed RAM"}, where=("planner", "estimates"), errata=(5,)),
    Rule("FIT-3", "G 四.1", QT_TRANSLATE_NOOP("rule catalogue", "The data set fits on the build's storage"),
         "A data set larger than all drives together cannot be trained on from local disk.",
         {"error": "the data set is larger than the build's storage"}),
)

REFERENCE = (
    Rule("REF-1", "G 五",
         QT_TRANSLATE_NOOP("rule catalogue", "ResNet-50 on RTX 3090: 230 img/s FP32, 460 img/s AMP per card"),
         "The guide's measured table (one and two cards, FP32 and AMP, with their memory). It calibrates "
         "the multi-GPU scaling estimate, the benchmark compares its ResNet-50 result with it, and EST-1 "
         "shows where current publications differ.",
         {}, where=("estimates", "benchmark")),
    Rule("REF-2", "G 二.1", QT_TRANSLATE_NOOP("rule catalogue", "GTX 1660 Super: 37 % of an RTX 3090 on ResNet-18"),
         "A ratio, not a throughput: kept with the published measurements as the guide's figure, but no "
         "estimate or comparison uses it.", {}, where=(), status="advice"),
    Rule("REF-3", "M 2.1", QT_TRANSLATE_NOOP("rule catalogue", "RTX 3060: GPT-2 Small writes 512 tokens in about 8 s"),
         "About 64 tokens/s; the benchmark's GPT-2 decode result is compared with it.",
         {}, where=("estimates", "benchmark")),
    Rule("REF-4", "M 1.3",
         QT_TRANSLATE_NOOP("rule catalogue", "INT8 quantisation: −75 % memory, 2–3× faster inference"),
         "The guide's figure for post-training quantisation; documented, not used in an estimate.",
         {}, where=(), status="advice"),
    Rule("REF-5", "M 2.3", QT_TRANSLATE_NOOP("rule catalogue", "ONNX Runtime: about 30 % faster inference"),
         "The guide's figure; documented, not used in an estimate.", {}, where=(), status="advice",
         errata=(12,)),
    Rule("REF-6", "M 四.3", QT_TRANSLATE_NOOP("rule catalogue", "Pruning half the parameters costs about 2 % accuracy"),
         "The guide's figure; documented, not used in an estimate.", {}, where=(), status="advice"),
)

TIERS = (
    Rule("TIER-entry", "G 五.3",
         QT_TRANSLATE_NOOP("rule catalogue", "Entry tier: RTX 3060 12GB, Ryzen 5 5600X, 32 GB, 1 TB NVMe"),
         "The guide's student/personal tier as a preset; parts it leaves out are filled with the cheapest "
         "that adds no error, and marked as filled.", {}, where=("presets",)),
    Rule("TIER-pro", "G 五.3",
         QT_TRANSLATE_NOOP("rule catalogue", "Professional tier: 2× RTX 3090 + NVLink, Threadripper Pro"),
         "The guide's research-team tier (3975WX, 128 GB ECC DDR4, 2 TB NVMe + 8 TB HDD) as a preset.",
         {}, where=("presets",)),
    Rule("TIER-enterprise", "G 五.3",
         QT_TRANSLATE_NOOP("rule catalogue", "Enterprise tier: 4× A100 80GB, 2× Xeon Platinum 8380"),
         "The guide's large-scale tier as written, so checking it reports its DDR5 with a DDR4-only CPU and "
         "its SXM modules without a baseboard.", {}, where=("presets",), errata=(3, 10)),
    Rule("TIER-cnn-min", "M 1.1",
         QT_TRANSLATE_NOOP("rule catalogue", "CNN minimum: GTX 1650 Super, i5-10400F, 16 GB, 256 GB NVMe"),
         "The guide's minimum for CNN work as a preset.", {}, where=("presets",)),
    Rule("TIER-gpt-min", "M 2.1", QT_TRANSLATE_NOOP("rule catalogue", "GPT minimum: RTX 3060 12GB, 32 GB, 512 GB SSD"),
         "The guide's minimum for GPT work as a preset.", {}, where=("presets",)),
)

MONITORING = (
    Rule("MON-1", "G 七, M 3.2",
         QT_TRANSLATE_NOOP("rule catalogue", "Watch temperature, memory, utilisation and the host"),
         "The Monitor tab and `configurator monitor` show what `nvidia-smi -l 1`, `nvidia-smi dmon` and "
         "`htop` show, record it, and alert on what needs a person: a lost GPU, thermal throttling, a GPU "
         "held at its power limit.",
         {"error": "a GPU stopped answering", "warning": "thermal throttling",
          "info": "a GPU held at its power limit"}, where=("monitor",)),
    Rule("MON-2", "M 3.2", QT_TRANSLATE_NOOP("rule catalogue", "Prometheus and Grafana dashboards"),
         "The monitor serves /metrics for Prometheus; a Grafana dashboard and alerting rules ship in "
         "resources/.", {}, where=("monitor",)),
    Rule("OOM-1", "G 六.1, M 五", QT_TRANSLATE_NOOP("rule catalogue", "Before CUDA runs out of memory"),
         "The monitor warns when a GPU's memory stays nearly full, with the guide's remedies (smaller batch "
         "and accumulation, checkpointing, mixed precision, torch.cuda.memory_summary()).",
         {"warning": "VRAM above 95 % for a while"}, where=("monitor",)),
    Rule("DIST-1", "G 六.2", QT_TRANSLATE_NOOP("rule catalogue", "GPUs of one job out of step"),
         "When the GPUs of one job differ widely in utilisation, a rank is slow or the data is split "
         "unevenly; the alert suggests NCCL_DEBUG=INFO and equal batches per rank.",
         {"warning": "utilisation 30 points apart for a while"}, where=("monitor",), errata=(8,)),
    Rule("ENV-1", "M 五", QT_TRANSLATE_NOOP("rule catalogue", "Version conflicts: pip check"),
         "The doctor runs `pip check` in the chosen interpreter and reports broken requirements.",
         {"fail": "pip check finds broken requirements"}, where=("doctor",)),
    Rule("ENV-2", "M 五", QT_TRANSLATE_NOOP("rule catalogue", "Model paths with Chinese or special characters"),
         "Some loaders fail on such paths; the doctor checks the paths it is given.",
         {"warn": "a path with non-ASCII or special characters"}, where=("doctor",)),
    Rule("UPG-1", "G 七", QT_TRANSLATE_NOOP("rule catalogue", "The upgrade path: short, medium and long term"),
         "The upgrade advisor (`configurator advise`) says what the guide's path means for the build's limit "
         "(more VRAM and a better data pipeline first, then several nodes, then new GPU generations), with "
         "its erratum about the A4000 (advice beside the limit it finds, not a finding).", {}, where=("advisor",),
         errata=(2,)),
)

BEYOND = (
    Rule("THERM-1", "vendor specs", QT_TRANSLATE_NOOP("rule catalogue", "Passively cooled cards need forced airflow"),
         "Data-centre PCIe cards have no fans; they rely on the server's front-to-back airflow and overheat "
         "in a desktop case.", {"error": "a passive card in a case without server airflow",
                                "info": "a passive card with no case chosen yet"}),
    Rule("THERM-2", "vendor specs", QT_TRANSLATE_NOOP("rule catalogue", "Open-air cards need a gap between them"),
         "Open-air coolers in adjacent slots starve the upper card's fans; blower cards can be stacked, and a "
         "rack chassis's fan wall forces air through stacked cards. Each open-air card blows its board power into "
         "the case: a mid tower takes at most two, with a free slot between them.",
         {"error": "open-air cards in adjacent slots outside a rack chassis, or more than two open-air cards in a "
                   "mid tower"}),
    Rule("FIT-4", "vendor specs", QT_TRANSLATE_NOOP("rule catalogue", "The PSU's form factor fits the case"),
         "ATX, SFX and SFX-L supplies against the case's PSU mount, and the number of supplies against the "
         "case's mounts (one unless its data says more; redundant modules go in the chassis's cage).",
         {"error": "the supply's form factor is not one the case's bay takes, or more supplies than mounts",
          "warning": "an SFX or SFX-L supply in an ATX bay (it fits with an adapter bracket)"}),
    Rule("FIT-5", "vendor specs", QT_TRANSLATE_NOOP("rule catalogue", "The board's dimensions fit the case"),
         "E-ATX and SSI-EEB widths differ between vendors: the board's measured size against the case's limit.",
         {"error": "the board is wider or deeper than the case takes",
          "info": "a board wider than ATX in a case that publishes no width limit"}),
    Rule("FIT-6", "vendor specs",
         QT_TRANSLATE_NOOP("rule catalogue", "The CPU cooler fits the socket, the case and the CPU"),
         "The cooler's socket support, its height against the case, and its rating against the CPU's "
         "maximum power.", {"error": "wrong socket, too tall for the case, or a radiator the case cannot mount",
                            "warning": "rated below the CPU's maximum power (it throttles)",
                            "info": "no cooler for a CPU sold without one, fewer coolers than CPUs, or no "
                                    "published rating"}),
    Rule("FIT-7", "vendor specs", QT_TRANSLATE_NOOP("rule catalogue", "Drives fit M.2 slots, SATA ports and bays"),
         "Every drive needs a connector on the board and a place in the case.",
         {"error": "more M.2 drives, SATA drives or drives for the case's bays than there are",
          "info": "a U.2 drive (it needs an adapter or a backplane)"}),
    Rule("PWR-5", "ATX 3.x, vendor specs",
         QT_TRANSLATE_NOOP("rule catalogue", "Several PSUs, ATX 3.x headroom, 90 % load"),
         "Several supplies add up; an ATX 3.x supply is specified for GPU power excursions, so it needs less "
         "transient headroom; a supply above 90 % of its rating at the estimated peak, or above 80 % at the "
         "sustained draw of a training run, runs hot and loud; a redundant module alone has no spare (N+1).",
         {"warning": "above 90 % of the rating at the estimated peak, above 80 % sustained, or one redundant module "
                     "alone",
          "info": "several supplies (or redundant modules) and what they deliver together; a mix of ATX 3.x "
                  "and older supplies keeps the older headroom"}),
    Rule("PCI-8", "vendor specs", QT_TRANSLATE_NOOP("rule catalogue", "SXM/OAM modules sit on their baseboard"),
         "SXM and OAM modules go on an HGX/OAM baseboard with NVLink or NVSwitch, never in a PCIe slot and "
         "never with a PCIe NVLink bridge.",
         {"error": "an SXM/OAM module without its baseboard, on the wrong one, beyond its sockets, or with a "
                   "PCIe NVLink bridge",
          "info": "the baseboard's NVLink/NVSwitch topology, and erratum 10 where it applies"}, errata=(10,)),
    Rule("PCI-9", "vendor specs",
         QT_TRANSLATE_NOOP("rule catalogue", "One CPU on a dual-socket board: half the slots are dead"),
         "The slots and memory wired to an empty socket do not work.",
         {"warning": "one CPU on a dual-socket board: the slots and memory of the empty socket listed, "
                     "and only the working half counted"}),
    Rule("PCI-10", "board manuals", QT_TRANSLATE_NOOP("rule catalogue", "An M.2 drive can take lanes from a GPU slot"),
         "Where the manual says an M.2 slot shares lanes with a GPU slot, populating it lowers that slot's link; "
         "the warning names the drive and the fix (one M.2 drive fewer, a SATA drive, another board).",
         {"warning": "a GPU's link drops because of a populated M.2 slot",
          "info": "an empty slot switched off or narrowed by a populated M.2 slot"}),
    Rule("PCI-11", "vendor specs", QT_TRANSLATE_NOOP("rule catalogue", "GeForce 40/50 cards have no peer-to-peer"),
         "Without P2P, all-reduce between the cards goes through host memory; the scaling estimate says so.",
         {"warning": "a multi-GPU training build of such cards: all-reduce through host memory",
          "info": "a multi-GPU inference build of such cards (no P2P between them)"}),
    Rule("PCI-12", "vendor specs", QT_TRANSLATE_NOOP("rule catalogue", "NVLink bridges have fixed slot spacings"),
         "A bridge spans two, three or four slots; the two cards' slots must be one of those apart.",
         {"error": "no bridge spacing matches the cards' slots",
          "info": "the bridge spacing the cards' slots need"}),
    Rule("BAL-1", "G 四.2, first principles",
         QT_TRANSLATE_NOOP("rule catalogue", "Enough CPU cores per GPU to feed it"),
         "Training, per family: images are decoded and augmented on the CPU, so the guide's num_workers ≥ 4 per "
         "GPU plus the training process (cores = GPUs × 5); text is tokenized ahead and memory-mapped, so one "
         "worker per GPU plus the process (cores = GPUs × 2). Suggest holds it as a constraint unless relaxed.",
         {"warning": "fewer cores than the GPUs' loaders need"}),
    Rule("BAL-2", "vendor specs", QT_TRANSLATE_NOOP("rule catalogue", "Populate the CPU's memory channels"),
         "Memory bandwidth grows with the channels populated: one module on an 8-channel CPU gets an eighth.",
         {"warning": "fewer modules than memory channels, with the bandwidth share"}),
    Rule("BAL-3", "common practice (d2l, Dettmers)",
         QT_TRANSLATE_NOOP("rule catalogue", "Host RAM at least the total VRAM"),
         "Loading, pinning and checkpointing stage the GPUs' contents in host memory: for training, host RAM at "
         "least the GPUs' total VRAM; for inference, at least the model's weights at its precision. Suggest holds "
         "it as a constraint unless relaxed.",
         {"warning": "less RAM than the GPUs' memory together (training) or the model's weights (inference)"}),
    Rule("BAL-4", "G 四.1, first principles",
         QT_TRANSLATE_NOOP("rule catalogue", "Storage for the data, the environment and the checkpoints"),
         "The drives hold the data set (default for image training: ImageNet-1k, 138 + 6.3 GB of archives, "
         "twice that while extracting), the system and PyTorch environment (25 GB Ubuntu minimum + 5.3 GB "
         "measured PyTorch with CUDA libraries), a language model's 16-bit weights, and the checkpoints kept "
         "(default 2 for training; each the weights at the training precision and the optimizer states). "
         "Suggest holds it as a constraint unless relaxed.",
         {"warning": "less storage than the data set, environment, weights and checkpoints need"}),
    Rule("EST-1", "published measurements",
         QT_TRANSLATE_NOOP("rule catalogue", "Where a guide's figure and measurements disagree"),
         "When a guide's reference figure and current published measurements on the same GPU and workload "
         "differ by more than the throughput model's error, both are shown with the likely reason (real "
         "data loaded on the CPU against synthetic data, or different software).",
         {"info": "the figures differ by more than the model's error"}, where=("planner", "estimates")),
    Rule("CLU-1", "first principles", QT_TRANSLATE_NOOP("rule catalogue", "Across nodes the network sets the scaling"),
         "For a build with a cluster (nodes and interconnect), data-parallel training is estimated as a "
         "hierarchical ring all-reduce: inside each node over its GPU links, across the nodes over one network "
         "port per node (the standard's data rate, TCP or InfiniBand framing, a stated latency per hop, DDP's "
         "25 MiB buckets). When the step waits longer for the network than it computes, the network, not the "
         "GPUs, limits the job; the slowest interconnect that would not is named.",
         {"warning": "the step waits longer for the all-reduce across nodes than it computes",
          "info": "the estimated scaling across nodes"}, where=("planner", "estimates")),
)

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
