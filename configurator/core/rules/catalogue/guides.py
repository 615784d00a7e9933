"""The rules the two guides state (RULES.md's sections up to "Monitoring and troubleshooting").

Each entry says, in the project's words, what the app checks and why; the titles are
translatable (context "rule catalogue"), the longer texts are the documentation's (English).
"""

from __future__ import annotations

from configurator.core.i18n import QT_TRANSLATE_NOOP
from configurator.core.rules.catalogue.model import Rule

BUDGET = (
    Rule("BUD-1", "G 五.3, M 结语", QT_TRANSLATE_NOOP("rule catalogue", "The parts' total stays within the budget"),
         "Adds up price × quantity of every part and compares it with the budget the user set, saying how "
         "much is left or how much too much. A plan that costs more than the buyer has cannot be bought as "
         "it stands.",
         {"error": "the total is above the budget",
          "info": "within the budget (what is left), or no budget set (the total)"}),
    Rule("BUD-2", "M 结语", QT_TRANSLATE_NOOP("rule catalogue", "A basic local AI box fits in ¥5,000"),
         "Places the build against the guide's reference point for a first machine, so a beginner sees "
         "whether the plan is in the class the guide calls basic.",
         {"info": "always, with the build's total and whether it is within ¥5,000"}),
    Rule("BUD-3", "M 四.1",
         QT_TRANSLATE_NOOP("rule catalogue", "Months until the build pays for itself against renting"),
         "Divides the build's price by what it saves each month against renting the same number of "
         "comparable GPUs: a dated, sourced price per GPU class and hour (db/cloud_prices.toml; your own "
         "prices through `configurator cloud-prices set`) times GPUs × hours per day, minus the "
         "electricity at the estimated training draw and the tariff (hours and tariff editable in the "
         "build's options); for \"This machine\" the draw measured on it (a monitor recording's energy, or a "
         "benchmark's joules per sample, chosen in the Planner's Upgrade panel) plus the platform's estimate, "
         "said in the finding. The guide's flat ¥8,000 a month for a V100 instance (an AWS p3.2xlarge) is "
         "quoted beside it as the guide's figure.",
         {"info": "always when the build has parts; \"never\" when renting costs less than the electricity"}),
    Rule("BUD-4", "M 四.2", QT_TRANSLATE_NOOP("rule catalogue", "Test a used GPU's memory before paying"),
         "A GPU marked as bought used (many RTX 30 cards come from mining) gets a reminder to run the "
         "Benchmark tab's VRAM pattern test and to look for worn fans and pads: faulty memory shows up "
         "as silent errors in training, not as a refusal to start.",
         {"warning": "a GPU of the build is marked used"}, where=("planner", "benchmark")),
)

POWER = (
    Rule("PWR-1", "G 六.3",
         QT_TRANSLATE_NOOP("rule catalogue", "The supply meets the guide's and the vendor's PSU figure"),
         "Compares the power supply with the vendor's recommended PSU for the card (plus the board power "
         "of every further card) and, for an RTX 3090, with the guide's 850 W. These are recommendations "
         "made for an average system; whether the supply can carry the load is PWR-2's estimate.",
         {"warning": "the supply is below the vendor's or the guide's figure"}),
    Rule("PWR-2", "G 六.3", QT_TRANSLATE_NOOP("rule catalogue", "The supply covers the estimated peak draw"),
         "Estimates the peak draw (every GPU's board power, the CPUs' maximum power, the platform, and "
         "headroom for the short excursions GPUs make) and compares it with the supply's rating. A supply "
         "below the peak shuts the machine down under load. In the monitor, the GPU's hardware power brake "
         "is reported under this rule too: it means the supply or its cables did not keep up.",
         {"error": "the estimated peak is above the supply's rating",
          "warning": "monitor: a GPU is slowed by its hardware power brake",
          "info": "the peak and the supply's load, or the peak to size a supply for when none is chosen"},
         where=("planner", "monitor")),
    Rule("PWR-3", "G 六.3", QT_TRANSLATE_NOOP("rule catalogue", "The supply has the power connectors the parts need"),
         "Counts the cards' 8-pin PCIe and 16-pin (12VHPWR / 12V-2x6) inputs and the 8-pin EPS inputs of "
         "the CPUs and data-centre cards against the supply's cables. A 16-pin input without a native "
         "cable may use the card's bundled adapter, which takes 8-pin cables in turn; so may the EPS input of "
         "a workstation card that ships with a PCIe-to-EPS adapter (RTX A6000) where the CPUs take the EPS cables.",
         {"error": "too few GPU or EPS connectors, even with the adapters",
          "warning": "a 16-pin input has to use the bundled 8-pin adapter, or a workstation card's EPS input its "
                     "shipped PCIe-to-EPS adapter (named)"}),
    Rule("PWR-4", "G 二.1", QT_TRANSLATE_NOOP("rule catalogue", "Throughput per watt"),
         "Shows the estimated throughput divided by the sustained draw (for \"This machine\" the draw measured "
         "on it, as BUD-3 takes it, marked as measured), the figure behind the guide's point "
         "that a GTX 1660 Super gives about 37 % of an RTX 3090's ResNet-18 speed at a third of its power.",
         {"info": "whenever a throughput is estimated"}, where=("planner", "estimates")),
)

PCIE = (
    Rule("PCI-1", "G 六.3", QT_TRANSLATE_NOOP("rule catalogue", "GPUs in PCIe 4.0 slots or better"),
         "Flags a card that supports PCIe 4.0 or newer but lands in a slot (or behind a CPU) that runs it "
         "at Gen3 or older: host-to-GPU copies then take twice as long.",
         {"warning": "a Gen4-capable card runs at Gen3 or older", "warn": "doctor: the measured link is "
          "below the card's maximum"}, where=("planner", "doctor")),
    Rule("PCI-2", "G 二.3, 六.3", QT_TRANSLATE_NOOP("rule catalogue", "Every GPU gets a usable x16-length slot"),
         "Places the cards in the board's x16-length slots, letting a card two or three slots wide cover "
         "its neighbours, and reports any card left without a slot; the estimates count only the cards "
         "that get one, and names the cheapest boards in the catalogue that seat every card on x8 or more "
         "from the CPU (or, for cards too wide for any, that two-slot cards would fit). SXM/OAM modules are "
         "PCI-8's (they sit on a baseboard, not in a slot).",
         {"error": "a card finds no slot"}),
    Rule("PCI-3", "G 二.3", QT_TRANSLATE_NOOP("rule catalogue", "Which link each GPU gets"),
         "Says for every card the slot, the lane count, the PCIe generation and whether the lanes come from "
         "the CPU or the chipset. Chipset lanes and links narrower than x8 are shared and slow down data "
         "transfers; the doctor reads the link a running card actually negotiated. Suggest holds it as a "
         "constraint for training (relaxable with --relax PCI-3) unless no build without it fits.",
         {"warning": "a card gets fewer than 8 lanes or chipset lanes",
          "info": "the link of every card; with two or more cards not all on x8 CPU lanes, the boards "
                  "in the catalogue that give them that",
          "warn": "doctor: a card runs below its maximum link"}, where=("planner", "doctor")),
    Rule("PCI-4", "G 二.3", QT_TRANSLATE_NOOP("rule catalogue", "NVLink bridges only where the cards support them"),
         "An NVLink bridge joins two identical NVLink-capable cards; the app rejects it elsewhere, warns "
         "when more cards are bridged than a bridge can join, and states the bandwidth both ways so the "
         "guide's comparison with PCIe can be read correctly.",
         {"error": "a bridge with fewer than two cards, or cards that cannot be bridged",
          "warning": "more cards than the bridge joins (they form pairs, not one group)",
          "info": "the bandwidth of the bridge, or that the cards could use one"}, errata=(6, 9)),
    Rule("PCI-5", "G 二.3", QT_TRANSLATE_NOOP("rule catalogue", "Data-parallel scaling reference: 4 cards reach 3.5×"),
         "Reminds that several cards do not scale linearly (the guide's 4× RTX 3090: 3.7× in theory, 3.5× "
         "measured); the benchmark's DDP scaling result is compared with the same figure, and the upgrade "
         "advisor reads a stored run below 80 % of ideal as the link between the GPUs limiting the machine.",
         {"info": "the build has two or more GPUs"}, where=("planner", "benchmark", "advisor")),
    Rule("PCI-6", "G 二.3", QT_TRANSLATE_NOOP("rule catalogue", "Communication can cancel the gain of more cards"),
         "With ZeRO-3 or FSDP the parameters travel over the GPU link in every step; over PCIe this traffic "
         "can eat the speed-up of the extra cards.",
         {"info": "a training workload on two or more GPUs shards its parameters"}),
    Rule("PCI-7", "G 二.3", QT_TRANSLATE_NOOP("rule catalogue", "With DDP the global batch grows with the card count"),
         "Shows the global batch (per-card batch × cards) so the learning rate can be scaled with it.",
         {"info": "a training workload on two or more GPUs"}),
)

SOFTWARE = (
    Rule("CUD-1", "G 一",
         QT_TRANSLATE_NOOP("rule catalogue", "Driver, CUDA and PyTorch builds for the GPU's architecture"),
         "Looks the card's compute capability up in a dated table (first CUDA release, minimum Linux driver "
         "per CUDA major, the PyTorch builds that contain its kernels), each row with its source; the "
         "guides' own RTX 30 figures are shown beside it.",
         {"warning": "the newest PyTorch CUDA builds leave the architecture out",
          "info": "the versions the card needs", "fail": "doctor: the driver is older than the runtime needs"},
         where=("planner", "doctor"), errata=(11,)),
    Rule("CUD-2", "M 2.2",
         QT_TRANSLATE_NOOP("rule catalogue", "RTX 30 cards: the guides' CUDA 11.3 against the vendor's 11.1"),
         "For compute capability 8.6 the guides ask for CUDA 11.3 and driver 450.80.02; the app shows the "
         "vendor's minimum (CUDA 11.1, driver 455.23.04) next to them, and notes that current wheels bundle a "
         "newer CUDA anyway.", {"info": "the build has an RTX 30 (sm_86) card"}, errata=(11,)),
    Rule("CUD-3", "M 1.2", QT_TRANSLATE_NOOP("rule catalogue", "CUDA and cuDNN match the framework build"),
         "A system or conda CUDA that does not match the framework's build disables GPU acceleration "
         "without a clear error. PyTorch's pip wheels bundle their CUDA runtime and cuDNN, so then only the "
         "driver must be new enough. The doctor compares the installed pieces.",
         {"info": "planner: the build has a GPU",
          "fail": "doctor: torch cannot be imported, its CUDA runtime is newer than the driver runs, or it has "
                  "no kernels for the card"}, where=("planner", "doctor")),
    Rule("CUD-4", "M 1.1", QT_TRANSLATE_NOOP("rule catalogue", "AMD GPUs need ROCm"),
         "An AMD card runs PyTorch only through ROCm and its wheels, and libraries with CUDA-only kernels do "
         "not run. For cards ROCm no longer supports (the RX 570, gfx803) there is no GPU path at all: the "
         "build would train on the CPU. Suggest holds it as a constraint for training (the guide takes AMD "
         "only on a limited budget, with poor ecosystem compatibility): an AMD card only where no NVIDIA "
         "build fits, or with --relax CUD-4.",
         {"warning": "the build has an AMD card (with or without ROCm support)"}, errata=(14,)),
    Rule("CUD-5", "G 一, M 1.2",
         QT_TRANSLATE_NOOP("rule catalogue", "Verify the stack: nvidia-smi, torch.cuda, torch.version"),
         "The doctor does what the guides ask to do by hand: reads the driver through NVML, asks torch "
         "whether CUDA is available and which CUDA it was built with.",
         {"fail": "no NVIDIA driver answers, or torch sees no usable CUDA device"},
         where=("doctor",)),
    Rule("CUD-6", "M 1.2", QT_TRANSLATE_NOOP("rule catalogue", "Ubuntu LTS, WSL2 on Windows, an isolated Python"),
         "The build records its operating system: on Windows, training belongs under WSL2; an old or other "
         "Linux gets a note that a current Ubuntu LTS is best supported. The doctor detects WSL2 and "
         "whether Python runs in a venv or conda environment.",
         {"warning": "Windows without WSL2", "info": "an older or other Linux",
          "fail": "doctor: WSL 1, where CUDA does not work",
          "warn": "doctor: native Windows, or Python outside a venv or conda environment"},
         where=("planner", "doctor"), errata=(11,)),
    Rule("CUD-7", "M 3.1", QT_TRANSLATE_NOOP("rule catalogue", "Containerise: a CUDA base image matching the driver"),
         "Advises a CUDA base image no newer than the driver supports, with the framework installed on top.",
         {"info": "the build has a GPU"}),
)

GPU = (
    Rule("GPU-1", "G 二.1", QT_TRANSLATE_NOOP("rule catalogue", "What a 6 GB card is good for"),
         "A card of 6 GB or less suits small data sets (< 100k samples), CNNs under 50M parameters and "
         "real-time inference under 50 ms, as the guide says of the GTX 1660 Super.",
         {"warning": "the workload is a Transformer or has 50M parameters or more",
          "info": "a smaller workload on such a card"}),
    Rule("GPU-2", "G 二.2", QT_TRANSLATE_NOOP("rule catalogue", "Transformers: 24 GB of VRAM recommended"),
         "The guide's recommendation for Transformer work; whether a given model fits is FIT-1's estimate.",
         {"warning": "a non-CNN workload on a card with less than 24 GB"}, errata=(1,)),
    Rule("GPU-3", "G 二.2", QT_TRANSLATE_NOOP("rule catalogue", "BERT-base: batch 64 on 24 GB, batch 32 on 12 GB"),
         "Compares a BERT training batch with the guide's figures and repeats its note that halving the "
         "batch on 12 GB costs about 40 % more training time.",
         {"warning": "the batch is above the guide's for the card's memory",
          "info": "a 12–23 GB card (batch 32, about 40 % slower)"}),
    Rule("GPU-4", "M 1.1, 1.3", QT_TRANSLATE_NOOP("rule catalogue", "CNN minimum: a 4 GB card, batch 32 on it"),
         "The guide's CNN minimum is a GTX 1650 Super with 4 GB, trained with batch 32.",
         {"warning": "a CNN on less than 4 GB, or above batch 32 on 4 GB"}, errata=(13,)),
    Rule("GPU-5", "M 2.1", QT_TRANSLATE_NOOP("rule catalogue", "GPT minimum: RTX 3060 12 GB; 16 GB for GPT-2 Medium"),
         "The guide's recommendation for decoder models: 12 GB with FP16 mixed precision, 16 or 24 GB "
         "(A4000, RTX 3090) for GPT-2 Medium. It stays a recommendation: whether the model fits is "
         "FIT-1's estimate, since the guide's \"a 4 GB card cannot load GPT-2 Small\" is wrong.",
         {"warning": "a decoder model on less than the recommended memory"}, errata=(4,)),
    Rule("GPU-6", "M 1.1",
         QT_TRANSLATE_NOOP("rule catalogue", "GPU busy under 70 % while training: a bottleneck elsewhere"),
         "The monitor raises it when a GPU that a training process uses stays under 70 % busy for a while, "
         "and names the likely cause from the host's signals: DataLoader workers saturating the CPU, a busy "
         "CPU, disk iowait, or a PCIe link below its maximum.",
         {"warning": "sustained low utilisation while training"}, where=("monitor",)),
    Rule("GPU-7", "G 一", QT_TRANSLATE_NOOP("rule catalogue", "No GPU: small models only"),
         "Without a GPU, MNIST-sized models still train on the CPU or integrated graphics; work like BERT "
         "pre-training needs a professional card.", {"info": "the build has no GPU"}),
)

CPU = (
    Rule("CPU-1", "G 三.1", QT_TRANSLATE_NOOP("rule catalogue", "8 cores or more"),
         "The guide recommends at least 8 cores when the work is spread over several GPUs; the doctor "
         "counts the threads the process may use.",
         {"warning": "fewer than 8 cores with two or more GPUs", "info": "fewer than 8 cores, one GPU",
          "warn": "doctor: few CPU threads available"}, where=("planner", "doctor")),
    Rule("CPU-2", "G 三.1", QT_TRANSLATE_NOOP("rule catalogue", "SMT / Hyper-Threading is worth 20–30 %"),
         "Notes a CPU without simultaneous multithreading, which the guide values at 20–30 % for data "
         "loading and preprocessing.", {"info": "the CPU has one thread per core"}),
    Rule("CPU-3", "G 三.1", QT_TRANSLATE_NOOP("rule catalogue", "16 MB of L3 cache or more"),
         "A smaller L3 cache lengthens data-loading latency, says the guide.",
         {"warning": "less than 16 MB of L3"}),
    Rule("CPU-4", "G 三.1", QT_TRANSLATE_NOOP("rule catalogue", "CPU-only inference: prefer AVX-512"),
         "Without a GPU the vector units do the work; AVX-512 doubles the lanes of AVX2.",
         {"warning": "no GPU and no AVX-512"}),
    Rule("CPU-5", "M 1.1", QT_TRANSLATE_NOOP("rule catalogue", "CPU minimum: 6 cores / 12 threads at 3.6 GHz"),
         "The guide's minimum CPU (i5-10400F or Ryzen 5 3600): 12 threads and a boost clock of 3.6 GHz "
         "or more.", {"warning": "fewer threads or a lower clock"}),
    Rule("CPU-6", "G 三.1", QT_TRANSLATE_NOOP("rule catalogue", "Ryzen 9 5950X against i9-12900K"),
         "Repeats the guide's measurement for these two CPUs: the 5950X 18 % faster at preprocessing, the "
         "two equal at launching CUDA kernels.", {"info": "the build has one of the two"}),
)

MEMORY = (
    Rule("RAM-1", "G 三.2",
         QT_TRANSLATE_NOOP("rule catalogue", "The guide's RAM formula, beside a first-principles estimate"),
         "The guide sizes RAM as params × batch × 4 B × 1.2 (halved for mixed precision). That formula "
         "scales the weights with the batch, which memory does not do, so the app shows it labelled as "
         "the guide's, next to its own estimate; the error belongs to FIT-2.",
         {"warning": "the installed RAM is below the guide's formula",
          "info": "both figures and the installed RAM"}, where=("planner", "estimates"), errata=(5,)),
    Rule("RAM-2", "M 1.1", QT_TRANSLATE_NOOP("rule catalogue", "CNN: 16 GB of DDR4-3200, 8 GB kept free"),
         "The guide's CNN minimum, and its advice to keep 8 GB free for data loading beyond what training "
         "needs.", {"warning": "less than 16 GB, or less than 8 GB left over"}),
    Rule("RAM-3", "M 2.1", QT_TRANSLATE_NOOP("rule catalogue", "GPT: 32 GB of RAM, 64 GB better"),
         "The guide's minimum host memory for decoder models.",
         {"warning": "less than 32 GB", "info": "32–63 GB (the guide prefers 64)"}),
    Rule("RAM-4", "G 三.2, 六.1", QT_TRANSLATE_NOOP("rule catalogue", "Ways to need less memory"),
         "When a workload does not fit, lists each option the planner models that applies to it, with the "
         "memory estimate per GPU it gives and whether that fits: LoRA, QLoRA, optimizer offload, activation "
         "checkpointing, 8-bit or bf16 AdamW, mixed precision, the largest batch that fits (with gradient "
         "accumulation), FSDP over the fewest GPUs that fit (training); int8/int4 weights, tensor parallel "
         "(inference).",
         {"info": "FIT-1 finds that the workload does not fit"}, errata=(7,)),
)

STORAGE = (
    Rule("STO-1", "G 四.1", QT_TRANSLATE_NOOP("rule catalogue", "How long one pass over the data set takes"),
         "Divides the data set by the fastest drive's sequential read, with the guide's reference speeds "
         "(HDD 150, SATA SSD 550, NVMe 3500 MB/s) beside it.", {"info": "the workload states a data set size"}),
    Rule("STO-2", "G 四.1", QT_TRANSLATE_NOOP("rule catalogue", "Tier the storage: hot data on SSD, archives on HDD"),
         "A build with both kinds of drive gets the guide's tiering advice.",
         {"info": "the build has an SSD and a hard disk"}),
    Rule("STO-3", "M 1.1, 2.1",
         QT_TRANSLATE_NOOP("rule catalogue", "An NVMe drive of 2000 MB/s; 256 GB (CNN) or 512 GB (GPT)"),
         "The guides' storage minimum. Drives sold as 250 or 500 GB count as the guide's 256 or 512 GB class.",
         {"warning": "no NVMe drive, a slower one, or less SSD than the class"}),
    Rule("STO-4", "G 四.1", QT_TRANSLATE_NOOP("rule catalogue", "The working data set fits on the fast tier"),
         "A data set larger than the SSDs is read from the hard disk in every epoch.",
         {"warning": "the data set is larger than the SSD capacity (but fits the build's storage)"}),
    Rule("STO-5", "G 四.2", QT_TRANSLATE_NOOP("rule catalogue", "Data-loader tips"),
         "num_workers ≥ 4, memory-map huge files, DALI for preprocessing on the GPU.",
         {"info": "a training workload"}),
)
