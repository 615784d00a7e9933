<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>App</name>
    <message>
        <source>Database not available</source>
        <translation>数据库不可用</translation>
    </message>
    <message>
        <source>Your database was not changed.</source>
        <translation>你的数据库未被修改。</translation>
    </message>
    <message>
        <source>The app is using a temporary database at {path} for now: changes made in this session will not be kept.</source>
        <translation>应用暂时使用位于 {path} 的临时数据库：本次会话中的修改不会被保留。</translation>
    </message>
    <message>
        <source>Database repaired</source>
        <translation>数据库已修复</translation>
    </message>
    <message>
        <source>Database is read-only</source>
        <translation>数据库为只读</translation>
    </message>
    <message>
        <source>Database problems</source>
        <translation>数据库问题</translation>
    </message>
    <message>
        <source>Welcome</source>
        <translation>欢迎</translation>
    </message>
</context>
<context>
    <name>BenchmarkTab</name>
    <message>
        <source>Throughput (log scale; ● earlier runs here, ◆ guide reference)</source>
        <translation>吞吐量（对数刻度；● 本机此前运行，◆ 指南参考值）</translation>
    </message>
    <message>
        <source>No throughput results yet</source>
        <translation>尚无吞吐量结果</translation>
    </message>
    <message>
        <source>Matmul TFLOPS per shape (line: median, ○: best)</source>
        <translation>各形状的矩阵乘法 TFLOPS（线：中位数，○：最佳）</translation>
    </message>
    <message>
        <source>No matmul results yet</source>
        <translation>尚无矩阵乘法结果</translation>
    </message>
    <message>
        <source>DDP scaling: speed-up over one process</source>
        <translation>DDP 扩展：相对单进程的加速比</translation>
    </message>
    <message>
        <source>(CPU: the processes share the cores, so the ideal is 1×)</source>
        <translation>（CPU：各进程共享核心，理想值为 1×）</translation>
    </message>
    <message>
        <source>No scaling results yet</source>
        <translation>尚无扩展结果</translation>
    </message>
    <message>
        <source>Not measured: {reason}</source>
        <translation>未测得：{reason}</translation>
    </message>
    <message>
        <source>ideal</source>
        <translation>理想</translation>
    </message>
    <message>
        <source>measured</source>
        <translation>实测</translation>
    </message>
    <message>
        <source>PCI-5: 4× RTX 3090, 3.5× measured / 3.7× theoretical</source>
        <translation>PCI-5：4× RTX 3090，实测 3.5× / 理论 3.7×</translation>
    </message>
    <message>
        <source>processes</source>
        <translation>进程数</translation>
    </message>
    <message>
        <source>speed-up (×)</source>
        <translation>加速比（×）</translation>
    </message>
    <message>
        <source>Suite:</source>
        <translation>套件：</translation>
    </message>
    <message>
        <source>Device:</source>
        <translation>设备：</translation>
    </message>
    <message>
        <source>Python:</source>
        <translation>Python：</translation>
    </message>
    <message>
        <source>Link to build:</source>
        <translation>关联配置单：</translation>
    </message>
    <message>
        <source>Quick</source>
        <translation>快速</translation>
    </message>
    <message>
        <source>Standard</source>
        <translation>标准</translation>
    </message>
    <message>
        <source>Full</source>
        <translation>完整</translation>
    </message>
    <message>
        <source>Automatic</source>
        <translation>自动</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>CUDA GPU</source>
        <translation>CUDA GPU</translation>
    </message>
    <message>
        <source>Apple MPS</source>
        <translation>Apple MPS</translation>
    </message>
    <message>
        <source>The interpreter the benchmarks run under: it needs torch (and torchvision, transformers for the model workloads).</source>
        <translation>运行基准测试的解释器：需要 torch（模型测试还需要 torchvision 和 transformers）。</translation>
    </message>
    <message>
        <source>Quick: about 2 minutes on a small CPU. Standard: 10–20 minutes. Full: an hour or more.</source>
        <translation>快速：小型 CPU 上约 2 分钟。标准：10–20 分钟。完整：一小时或更久。</translation>
    </message>
    <message>
        <source>Choose another Python interpreter</source>
        <translation>选择其他 Python 解释器</translation>
    </message>
    <message>
        <source>Look again for Python interpreters on this machine</source>
        <translation>重新查找本机上的 Python 解释器</translation>
    </message>
    <message>
        <source>Run benchmarks</source>
        <translation>运行基准测试</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Export JSON…</source>
        <translation>导出 JSON…</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <source>Log</source>
        <translation>日志</translation>
    </message>
    <message>
        <source>What the benchmarks print shows here while they run (a stored run keeps its results, not its log).</source>
        <translation>基准测试运行时的输出显示在这里（已保存的运行只保留结果，不保留日志）。</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>Median ± IQR</source>
        <translation>中位数 ± 四分位距</translation>
    </message>
    <message>
        <source>vs earlier runs</source>
        <translation>与此前运行相比</translation>
    </message>
    <message>
        <source>vs guide reference</source>
        <translation>与指南参考值相比</translation>
    </message>
    <message>
        <source>vs planner estimate</source>
        <translation>与规划估算相比</translation>
    </message>
    <message>
        <source>Peak memory vs VRAM estimate</source>
        <translation>峰值显存与显存估算对比</translation>
    </message>
    <message>
        <source>Energy</source>
        <translation>能耗</translation>
    </message>
    <message>
        <source>Run {id} of {time}, stored.</source>
        <translation>第 {id} 次运行（{time}），已保存。</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <source>Searching…</source>
        <translation>查找中…</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>Looking for Python interpreters…</source>
        <translation>正在查找 Python 解释器…</translation>
    </message>
    <message>
        <source>Path to a Python interpreter with PyTorch</source>
        <translation>装有 PyTorch 的 Python 解释器路径</translation>
    </message>
    <message>
        <source>Also installed: {packages}</source>
        <translation>另外已安装：{packages}</translation>
    </message>
    <message>
        <source>Could not look for Python interpreters: {error}</source>
        <translation>无法查找 Python 解释器：{error}</translation>
    </message>
    <message>
        <source>No Python with PyTorch found; pick one with “…”.</source>
        <translation>没有找到装有 PyTorch 的 Python；请用“…”选择一个。</translation>
    </message>
    <message>
        <source>Python interpreter</source>
        <translation>Python 解释器</translation>
    </message>
    <message>
        <source>No Python interpreter at {path}: choose one with “…”.</source>
        <translation>{path} 处没有 Python 解释器：请用“…”选择。</translation>
    </message>
    <message>
        <source>Suite {suite} on {device} with {python}</source>
        <translation>套件 {suite}，设备 {device}，解释器 {python}</translation>
    </message>
    <message>
        <source>Checking the interpreter and the hardware…</source>
        <translation>正在检查解释器和硬件…</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <source>Running {job}…</source>
        <translation>正在运行 {job}…</translation>
    </message>
    <message>
        <source>output not understood: {line}</source>
        <translation>无法解析的输出：{line}</translation>
    </message>
    <message>
        <source>{name}: not measured — {reason}</source>
        <translation>{name}：未测得 — {reason}</translation>
    </message>
    <message>
        <source>The suite could not run: {reason}</source>
        <translation>套件无法运行：{reason}</translation>
    </message>
    <message>
        <source>{status} in {seconds} s: {ok} of {n} results measured.</source>
        <translation>{status}，用时 {seconds} 秒：测得 {n} 项中的 {ok} 项。</translation>
    </message>
    <message>
        <source>The results could not be saved: {error}</source>
        <translation>无法保存结果：{error}</translation>
    </message>
    <message>
        <source>No run yet. “Run benchmarks” measures this machine in child processes: matrix multiply, memory bandwidth, ResNet training, GPT-2 inference, data loading and DDP scaling. The quick suite takes about two minutes on a small CPU; a benchmark that crashes or runs out of memory cannot take the app down.</source>
        <translation>尚未运行。“运行基准测试”会在子进程中测量这台机器：矩阵乘法、内存带宽、ResNet 训练、GPT-2 推理、数据加载和 DDP 扩展。快速套件在小型 CPU 上约需两分钟；测试崩溃或内存不足都不会导致本程序退出。</translation>
    </message>
    <message>
        <source>Saved as run {id}.</source>
        <translation>已保存为第 {id} 次运行。</translation>
    </message>
    <message>
        <source>{n} earlier runs on this machine.</source>
        <translation>这台机器上有 {n} 次此前的运行。</translation>
    </message>
    <message>
        <source>No earlier runs on this machine to compare with.</source>
        <translation>这台机器上没有可供比较的此前运行。</translation>
    </message>
    <message>
        <source>{saved} {history}</source>
        <translation>{saved}{history}</translation>
    </message>
    <message>
        <source>⚠ busy: before or during the result other processes used more than {cpu} % of the CPU (all cores together), or the GPU was more than {gpu} % busy with other work or ran another process; the result may be lower than this machine can do.</source>
        <translation>⚠ 繁忙：测量前或测量中，其他进程占用了超过 {cpu} % 的 CPU（所有核心合计），或 GPU 被其他任务占用超过 {gpu} %、或有其他进程在 GPU 上运行；结果可能低于这台机器的实际能力。</translation>
    </message>
    <message>
        <source>≈ unstable: the spread (IQR) is more than {spread} % of the median, or a scaling efficiency is above ideal; such a result is not compared with anything.</source>
        <translation>≈ 不稳定：离散程度（四分位距）超过中位数的 {spread} %，或扩展效率高于理想值；这类结果不与任何数据比较。</translation>
    </message>
    <message>
        <source>not measured</source>
        <translation>未测得</translation>
    </message>
    <message>
        <source>measurement problem</source>
        <translation>测量问题</translation>
    </message>
    <message>
        <source>unstable</source>
        <translation>不稳定</translation>
    </message>
    <message>
        <source>busy</source>
        <translation>繁忙</translation>
    </message>
    <message>
        <source>not compared</source>
        <translation>不比较</translation>
    </message>
    <message>
        <source>{pct} vs {value} (median of {n})</source>
        <translation>{pct}，对比 {value}（{n} 次的中位数）</translation>
    </message>
    <message>
        <source>none for a CPU</source>
        <translation>无 CPU 参考值</translation>
    </message>
    <message>
        <source>The guides&apos; figures for this result are GPU measurements ({refs}); a CPU result is not compared with them.</source>
        <translation>指南中该项的数据是 GPU 的测量值（{refs}）；CPU 结果不与其比较。</translation>
    </message>
    <message>
        <source>{share} of the spec sheet&apos;s {peak}</source>
        <translation>达到规格表 {peak} 的 {share}</translation>
    </message>
    <message>
        <source>measured {measured} against {estimate} estimated, {pct}</source>
        <translation>实测 {measured}，估算 {estimate}，{pct}</translation>
    </message>
    <message>
        <source>Export results</source>
        <translation>导出结果</translation>
    </message>
    <message>
        <source>JSON files (*.json)</source>
        <translation>JSON 文件 (*.json)</translation>
    </message>
    <message>
        <source>Showing run {id} of {time} ({status}); “Run benchmarks” measures again.</source>
        <translation>正在显示第 {id} 次运行（{time}，{status}）；点击“运行基准测试”可重新测量。</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>Wrote {path}.</source>
        <translation>已写入 {path}。</translation>
    </message>
    <message>
        <source>Could not write {path}: {error}</source>
        <translation>无法写入 {path}：{error}</translation>
    </message>
    <message>
        <source>Run {id} · {time} · {suite} on {device} · {status} · {n} results</source>
        <translation>第 {id} 次运行 · {time} · {suite}，{device} · {status} · {n} 项结果</translation>
    </message>
    <message>
        <source>Stored &amp;runs:</source>
        <translation>已存运行(&amp;R)：</translation>
    </message>
    <message>
        <source>The runs stored for this machine, newest first; choose one to open it</source>
        <translation>这台机器已保存的运行，最新的在前；选择一项即可打开</translation>
    </message>
    <message>
        <source>(none stored yet)</source>
        <translation>（尚未保存任何运行）</translation>
    </message>
    <message>
        <source>not recorded</source>
        <translation>未记录</translation>
    </message>
    <message>
        <source>This result was stored before peak memory was recorded.</source>
        <translation>该结果保存于开始记录峰值显存之前。</translation>
    </message>
    <message>
        <source>n/a</source>
        <translation>不适用</translation>
    </message>
    <message>
        <source>Peak memory is measured on CUDA only (torch.cuda.max_memory_allocated, reset before each workload); the CPU has no allocator count of its tensors.</source>
        <translation>峰值显存只在 CUDA 上测量（torch.cuda.max_memory_allocated，每项测试前清零）；CPU 没有统计张量占用的分配器计数。</translation>
    </message>
    <message>
        <source>{peak} peak</source>
        <translation>峰值 {peak}</translation>
    </message>
    <message>
        <source>torch.cuda.max_memory_allocated during this workload; the planner has no VRAM estimate for it.</source>
        <translation>本项测试期间的 torch.cuda.max_memory_allocated；规划器对此项没有显存估算。</translation>
    </message>
    <message>
        <source>{peak} against {estimate} estimated, {pct}</source>
        <translation>实测 {peak}，估算 {estimate}，{pct}</translation>
    </message>
    <message>
        <source>Measured: torch.cuda.max_memory_allocated during this workload (tensors only, reset before it). {how}</source>
        <translation>实测：本项测试期间的 torch.cuda.max_memory_allocated（仅张量，测试前清零）。{how}</translation>
    </message>
    <message>
        <source>NVML reports neither an energy counter nor the power draw of this GPU here (or pynvml is missing from the benchmark&apos;s Python).</source>
        <translation>这里 NVML 既没有报告这张 GPU 的能耗计数器，也没有报告它的功耗（或者运行基准测试的 Python 中没有安装 pynvml）。</translation>
    </message>
    <message>
        <source>The CPU&apos;s RAPL energy counters (/sys/class/powercap) are not readable here; they are often readable by root only.</source>
        <translation>这里无法读取 CPU 的 RAPL 能耗计数器（/sys/class/powercap）；它们通常只有 root 可读。</translation>
    </message>
    <message>
        <source>NVML energy counter</source>
        <translation>NVML 能耗计数器</translation>
    </message>
    <message>
        <source>NVML power draw sampled every 0.1 s</source>
        <translation>NVML 功耗（每 0.1 秒采样一次并积分）</translation>
    </message>
    <message>
        <source>RAPL, whole CPU package</source>
        <translation>RAPL，整个 CPU 封装</translation>
    </message>
    <message>
        <source>J/image</source>
        <translation>焦/张</translation>
    </message>
    <message>
        <source>J/token</source>
        <translation>焦/词元</translation>
    </message>
    <message>
        <source>J/TFLOP</source>
        <translation>焦/TFLOP</translation>
    </message>
    <message>
        <source>J/GB</source>
        <translation>焦/GB</translation>
    </message>
    <message>
        <source>J/sequence</source>
        <translation>焦/序列</translation>
    </message>
    <message>
        <source>{joules} J in {seconds} s (mean {watts} W) over the timed runs and their warm-up, measured by the {method}; per unit of work = mean power ÷ the median rate.</source>
        <translation>计时运行及其预热共 {seconds} 秒内消耗 {joules} J（平均 {watts} W），由{method}测得；每单位工作量能耗 = 平均功率 ÷ 速率中位数。</translation>
    </message>
</context>
<context>
    <name>CustomPartDialog</name>
    <message>
        <source>a spec page&apos;s URL, or where the figures come from</source>
        <translation>规格页面网址，或数据来源说明</translation>
    </message>
    <message>
        <source>Add a custom part</source>
        <translation>添加自定义部件</translation>
    </message>
    <message>
        <source>Add part</source>
        <translation>添加部件</translation>
    </message>
    <message>
        <source>Save template…</source>
        <translation>保存模板…</translation>
    </message>
    <message>
        <source>Many parts at once: save a CSV with this category&apos;s columns (the required ones marked) and an example row, fill it in a spreadsheet, then File → Import parts from CSV…</source>
        <translation>一次添加多个配件：保存一个包含此类别各列（标明必填列）和一行示例的 CSV，在电子表格中填写后，用“文件 → 从 CSV 导入配件…”导入</translation>
    </message>
    <message>
        <source>Fields marked * are required. Units are in the labels. Lists are separated by &apos;;&apos;.</source>
        <translation>带 * 的字段为必填项。单位写在标签中。列表项用“;”分隔。</translation>
    </message>
    <message>
        <source>Copy from…</source>
        <translation>从现有部件复制…</translation>
    </message>
    <message>
        <source>Save a template for your parts</source>
        <translation>保存配件模板</translation>
    </message>
    <message>
        <source>The template was not saved: {error}</source>
        <translation>模板未保存：{error}</translation>
    </message>
    <message>
        <source>Saved {path}: {required} of its {n} columns are required (the second row says which, and what an empty cell means). Put a part on each row, then File → Import parts from CSV…</source>
        <translation>已保存 {path}：{n} 列中有 {required} 列必填（第二行标明哪些必填，以及留空的含义）。每行填一个配件，然后用“文件 → 从 CSV 导入配件…”导入</translation>
    </message>
    <message>
        <source>— a blank part —</source>
        <translation>— 空白部件 —</translation>
    </message>
    <message>
        <source>(copy)</source>
        <translation>（副本）</translation>
    </message>
    <message>
        <source>empty = not applicable</source>
        <translation>留空 = 不适用</translation>
    </message>
    <message>
        <source>optional</source>
        <translation>选填</translation>
    </message>
</context>
<context>
    <name>Diagnostics</name>
    <message>
        <source>Something went wrong</source>
        <translation>出现了问题</translation>
    </message>
    <message>
        <source>An unexpected error occurred: {error}. Your data is safe; the details are in {log}. Please include that file if you report the problem.</source>
        <translation>发生了意外错误：{error}。你的数据是安全的；详细信息在 {log} 中。报告问题时请附上该文件。</translation>
    </message>
    <message>
        <source>It has happened {n} times since this notice opened ({kinds} different errors).</source>
        <translation>自此提示打开以来已发生 {n} 次（共 {kinds} 种不同的错误）。</translation>
    </message>
    <message>
        <source>not installed</source>
        <translation>未安装</translation>
    </message>
    <message>
        <source>NVIDIA driver</source>
        <translation>NVIDIA 驱动</translation>
    </message>
    <message>
        <source>none found</source>
        <translation>未找到</translation>
    </message>
    <message>
        <source>Plan, watch and measure a PyTorch machine. The rules come from two Chinese guides, numbered in the rules catalogue; part specifications from vendors&apos; spec pages.</source>
        <translation>规划、监控与实测你的 PyTorch 主机。规则来自两份中文指南（编号见规则目录）；部件规格来自厂商规格页面。</translation>
    </message>
    <message>
        <source>Database: {db}</source>
        <translation>数据库：{db}</translation>
    </message>
    <message>
        <source>Log: {log}</source>
        <translation>日志：{log}</translation>
    </message>
    <message>
        <source>Rules catalogue</source>
        <translation>规则目录</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Welcome to Configurator&lt;/h3&gt;&lt;p&gt;&lt;b&gt;Planner&lt;/b&gt; — before buying: pick parts, set a budget and a workload, and see the guides&apos; rules (with their IDs) and the estimates update as you edit. Start from a preset or let Suggest find a build; export a PDF build sheet.&lt;/p&gt;&lt;p&gt;&lt;b&gt;Monitor&lt;/b&gt; — while training: your GPUs (NVML) and the host, with alerts that name the likely bottleneck, recordings and a Prometheus exporter.&lt;/p&gt;&lt;p&gt;&lt;b&gt;Benchmark&lt;/b&gt; — after assembling: one click measures the machine in child processes and compares it with earlier runs, the guides&apos; figures and the planner&apos;s estimate.&lt;/p&gt;&lt;p&gt;&lt;b&gt;Parts&lt;/b&gt; — the catalogue with every specification and its source; edit prices or add your own parts.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;欢迎使用 Configurator&lt;/h3&gt;&lt;p&gt;&lt;b&gt;配置规划&lt;/b&gt;——购买之前：选择部件、设定预算和工作负载，指南的规则（附编号）与各项估算会随编辑即时更新。可从预设开始，或让“推荐”为你找出配置；还能导出 PDF 配置单。&lt;/p&gt;&lt;p&gt;&lt;b&gt;监控&lt;/b&gt;——训练期间：通过 NVML 查看 GPU 与主机状态，告警会指出可能的瓶颈，并支持录制和 Prometheus 导出。&lt;/p&gt;&lt;p&gt;&lt;b&gt;基准测试&lt;/b&gt;——装机之后：一键在子进程中实测本机，并与历史结果、指南数据及规划器的估算对比。&lt;/p&gt;&lt;p&gt;&lt;b&gt;部件&lt;/b&gt;——包含全部规格及来源的部件目录；可修改价格或添加自己的部件。&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>GpuMeasurements</name>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Task</source>
        <translation>任务</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>精度</translation>
    </message>
    <message>
        <source>Batch / length</source>
        <translation>批量 / 长度</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>数值</translation>
    </message>
    <message>
        <source>Software</source>
        <translation>软件</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>Date</source>
        <translation>日期</translation>
    </message>
    <message>
        <source>bs {n}</source>
        <translation>批量 {n}</translation>
    </message>
    <message>
        <source>seq {n}</source>
        <translation>序列 {n}</translation>
    </message>
    <message>
        <source>prompt {n}</source>
        <translation>提示 {n}</translation>
    </message>
    <message>
        <source>gen {n}</source>
        <translation>生成 {n}</translation>
    </message>
    <message>
        <source>Published measurements</source>
        <translation>公开实测数据</translation>
    </message>
    <message>
        <source>No published measurement of this GPU is shipped yet; its throughput estimates rest on the model fitted to the others.</source>
        <translation>暂未收录这块显卡的公开实测数据；它的吞吐量估算基于用其他显卡数据拟合的模型。</translation>
    </message>
    <message>
        <source>{n} measurements from {sources} sources; the link opens the exact file or page.</source>
        <translation>共 {n} 条实测，来自 {sources} 个来源；点击链接可打开原始文件或页面。</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Loading…</source>
        <translation>加载中…</translation>
    </message>
    <message>
        <source>Plan, watch and measure a PyTorch machine</source>
        <translation>规划、监控和测量 PyTorch 机器</translation>
    </message>
    <message>
        <source>Parts</source>
        <translation>部件</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Import parts from CSV…</source>
        <translation>从 CSV 导入部件(&amp;I)…</translation>
    </message>
    <message>
        <source>&amp;Colour scheme</source>
        <translation>配色(&amp;C)</translation>
    </message>
    <message>
        <source>Follow the &amp;system</source>
        <translation>跟随系统(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Light</source>
        <translation>浅色(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Dark</source>
        <translation>深色(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Export parts to CSV…</source>
        <translation>导出部件为 CSV(&amp;E)…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;About Configurator</source>
        <translation>关于 Configurator(&amp;A)</translation>
    </message>
    <message>
        <source>Database: {path}</source>
        <translation>数据库：{path}</translation>
    </message>
    <message>
        <source>Import parts</source>
        <translation>导入部件</translation>
    </message>
    <message>
        <source>CSV files (*.csv);;All files (*)</source>
        <translation>CSV 文件 (*.csv);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Importing {path}…</source>
        <translation>正在导入 {path}…</translation>
    </message>
    <message>
        <source>Imported {path}: {added} new custom parts, {prices} prices updated, {replaced} custom parts replaced, {unchanged} unchanged.</source>
        <translation>已导入 {path}：新增 {added} 个自定义部件，更新 {prices} 个价格，替换 {replaced} 个自定义部件，{unchanged} 个未变。</translation>
    </message>
    <message>
        <source>line {line}</source>
        <translation>第 {line} 行</translation>
    </message>
    <message>
        <source>… and {n} more</source>
        <translation>… 另有 {n} 条</translation>
    </message>
    <message>
        <source>Import failed; nothing was changed.</source>
        <translation>导入失败，未做任何修改。</translation>
    </message>
    <message>
        <source>Import failed</source>
        <translation>导入失败</translation>
    </message>
    <message>
        <source>{path} was not imported and nothing was changed. Fix these rows and import it again:</source>
        <translation>{path} 未导入，未做任何修改。请修正以下各行后重新导入：</translation>
    </message>
    <message>
        <source>Export parts</source>
        <translation>导出部件</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>Wrote {n} parts to {path}.</source>
        <translation>已将 {n} 个部件写入 {path}。</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <source>Could not write {path}: {error}</source>
        <translation>无法写入 {path}：{error}</translation>
    </message>
    <message>
        <source>About Configurator</source>
        <translation>关于 Configurator</translation>
    </message>
    <message>
        <source>Rules catalogue…</source>
        <translation>规则目录…</translation>
    </message>
    <message>
        <source>Planner</source>
        <translation>配置规划</translation>
    </message>
    <message>
        <source>Monitor</source>
        <translation>监控</translation>
    </message>
    <message>
        <source>Benchmark</source>
        <translation>基准测试</translation>
    </message>
</context>
<context>
    <name>Monitor</name>
    <message>
        <source>error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>info</source>
        <translation>提示</translation>
    </message>
    <message>
        <source>Severity</source>
        <translation>严重程度</translation>
    </message>
    <message>
        <source>Rule</source>
        <translation>规则</translation>
    </message>
    <message>
        <source>Alert</source>
        <translation>告警</translation>
    </message>
    <message>
        <source>What to do</source>
        <translation>建议</translation>
    </message>
    <message>
        <source>Since</source>
        <translation>开始时间</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>active</source>
        <translation>活动</translation>
    </message>
    <message>
        <source>cleared {time}</source>
        <translation>已于 {time} 解除</translation>
    </message>
    <message>
        <source>idle</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>application clocks</source>
        <translation>应用频率设置</translation>
    </message>
    <message>
        <source>power cap</source>
        <translation>功耗上限</translation>
    </message>
    <message>
        <source>hardware slowdown</source>
        <translation>硬件降速</translation>
    </message>
    <message>
        <source>sync boost</source>
        <translation>同步加速</translation>
    </message>
    <message>
        <source>thermal (software)</source>
        <translation>过热（软件）</translation>
    </message>
    <message>
        <source>thermal (hardware)</source>
        <translation>过热（硬件）</translation>
    </message>
    <message>
        <source>power brake</source>
        <translation>功耗制动</translation>
    </message>
    <message>
        <source>display clocks</source>
        <translation>显示频率</translation>
    </message>
    <message>
        <source>Utilisation</source>
        <translation>利用率</translation>
    </message>
    <message>
        <source>VRAM</source>
        <translation>显存</translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation>温度</translation>
    </message>
    <message>
        <source>Power</source>
        <translation>功耗</translation>
    </message>
    <message>
        <source>Fan</source>
        <translation>风扇</translation>
    </message>
    <message>
        <source>Clocks SM / memory</source>
        <translation>频率 SM / 显存</translation>
    </message>
    <message>
        <source>PCIe link</source>
        <translation>PCIe 链路</translation>
    </message>
    <message>
        <source>PCIe rx / tx</source>
        <translation>PCIe 收 / 发</translation>
    </message>
    <message>
        <source>Slowed by</source>
        <translation>降速原因</translation>
    </message>
    <message>
        <source>ECC errors</source>
        <translation>ECC 错误</translation>
    </message>
    <message>
        <source>MIG device</source>
        <translation>MIG 设备</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Lost: the GPU stopped answering. The monitor retries; the other GPUs go on.</source>
        <translation>已丢失：GPU 停止响应。监控器会重试；其他 GPU 继续监控。</translation>
    </message>
    <message>
        <source>{gpu} (memory {mem})</source>
        <translation>{gpu}（显存 {mem}）</translation>
    </message>
    <message>
        <source>{used} of {total} ({percent})</source>
        <translation>{used} / {total}（{percent}）</translation>
    </message>
    <message>
        <source>{power} of {limit}</source>
        <translation>{power} / {limit}</translation>
    </message>
    <message>
        <source>{link} (max {max})</source>
        <translation>{link}（最大 {max}）</translation>
    </message>
    <message>
        <source>nothing</source>
        <translation>无</translation>
    </message>
    <message>
        <source>CPU (all cores)</source>
        <translation>CPU（全部核心）</translation>
    </message>
    <message>
        <source>Per core</source>
        <translation>每个核心</translation>
    </message>
    <message>
        <source>I/O wait</source>
        <translation>I/O 等待</translation>
    </message>
    <message>
        <source>Load 1 / 5 / 15 min</source>
        <translation>负载 1 / 5 / 15 分钟</translation>
    </message>
    <message>
        <source>RAM</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>Swap</source>
        <translation>交换空间</translation>
    </message>
    <message>
        <source>Disk read / write</source>
        <translation>磁盘读 / 写</translation>
    </message>
    <message>
        <source>Network in / out</source>
        <translation>网络收 / 发</translation>
    </message>
    <message>
        <source>Training process</source>
        <translation>训练进程</translation>
    </message>
    <message>
        <source>DataLoader workers</source>
        <translation>DataLoader 工作进程</translation>
    </message>
    <message>
        <source>This app</source>
        <translation>本应用</translation>
    </message>
    <message>
        <source>Host</source>
        <translation>主机</translation>
    </message>
    <message>
        <source>{n} cores, {low}–{high} %</source>
        <translation>{n} 个核心，{low}–{high} %</translation>
    </message>
    <message>
        <source>{used} of {total}</source>
        <translation>{used} / {total}</translation>
    </message>
    <message>
        <source>none on a GPU</source>
        <translation>GPU 上没有</translation>
    </message>
    <message>
        <source>{name} (PID {pid}), {cpu} of a core</source>
        <translation>{name}（PID {pid}），占用一个核心的 {cpu}</translation>
    </message>
    <message>
        <source>{n}, {cpu} of a core each on average</source>
        <translation>{n} 个，平均每个占用一个核心的 {cpu}</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Stop watching this host</source>
        <translation>停止监控此主机</translation>
    </message>
    <message>
        <source>Remote</source>
        <translation>远程主机</translation>
    </message>
    <message>
        <source>{error} · {n} failed tries; the next in {seconds} s</source>
        <translation>{error} · 已失败 {n} 次；{seconds} 秒后重试</translation>
    </message>
    <message>
        <source>No data yet: the host has not answered.</source>
        <translation>还没有数据：该主机尚未应答。</translation>
    </message>
    <message>
        <source>Waiting for the first scrape…</source>
        <translation>正在等待第一次抓取…</translation>
    </message>
    <message>
        <source>n/a (needs two scrapes)</source>
        <translation>不适用（需要两次抓取）</translation>
    </message>
    <message>
        <source>GPU {gpu} {name}: {util} busy, VRAM {mem}, {temp}, {power}</source>
        <translation>GPU {gpu} {name}：占用 {util}，显存 {mem}，{temp}，{power}</translation>
    </message>
    <message>
        <source>No GPU metrics on this page.</source>
        <translation>此页面没有 GPU 指标。</translation>
    </message>
    <message>
        <source>n/a</source>
        <translation>不适用</translation>
    </message>
    <message>
        <source>{n} s</source>
        <translation>{n} 秒</translation>
    </message>
    <message>
        <source>{n} min</source>
        <translation>{n} 分钟</translation>
    </message>
    <message>
        <source>{n} h</source>
        <translation>{n} 小时</translation>
    </message>
    <message>
        <source>s</source>
        <translation>秒</translation>
    </message>
    <message>
        <source>min</source>
        <translation>分钟</translation>
    </message>
    <message>
        <source>h</source>
        <translation>小时</translation>
    </message>
    <message>
        <source>GPU utilisation over the window</source>
        <translation>时间窗口内的 GPU 利用率</translation>
    </message>
    <message>
        <source>{unit} ago</source>
        <translation>{unit}前</translation>
    </message>
    <message>
        <source>GPU {gpu}</source>
        <translation>GPU {gpu}</translation>
    </message>
    <message>
        <source>No GPU utilisation in this window yet</source>
        <translation>此时间窗口内还没有 GPU 利用率数据</translation>
    </message>
    <message>
        <source>Waiting for the server&apos;s history…</source>
        <translation>正在等待服务器的历史数据…</translation>
    </message>
    <message>
        <source>Prometheus server that scrapes your nodes, e.g. http://prometheus:9090</source>
        <translation>抓取各节点指标的 Prometheus 服务器，例如 http://prometheus:9090</translation>
    </message>
    <message>
        <source>Connect</source>
        <translation>连接</translation>
    </message>
    <message>
        <source>Read the nodes, GPUs and jobs this Prometheus server holds (remembered for next time)</source>
        <translation>读取该 Prometheus 服务器中的节点、GPU 和作业（下次启动时自动记住）</translation>
    </message>
    <message>
        <source>Forget</source>
        <translation>忘记</translation>
    </message>
    <message>
        <source>Stop reading this server and forget its URL</source>
        <translation>停止读取该服务器并忘记其 URL</translation>
    </message>
    <message>
        <source>Window:</source>
        <translation>时间窗口：</translation>
    </message>
    <message>
        <source>How much history the heat map and the node&apos;s plots show, from the server&apos;s own storage</source>
        <translation>热力图和节点曲线显示多长的历史，数据来自服务器自身的存储</translation>
    </message>
    <message>
        <source>Add a Prometheus server to watch a cluster: one that scrapes NVIDIA&apos;s DCGM exporter, node_exporter or this app&apos;s exporter (configurator monitor --serve) on every node.</source>
        <translation>添加一台 Prometheus 服务器即可监控集群：它需要抓取每个节点上的 NVIDIA DCGM exporter、node_exporter 或本应用的导出器（configurator monitor --serve）。</translation>
    </message>
    <message>
        <source>{error} · trying again every {seconds} s</source>
        <translation>{error} · 每 {seconds} 秒重试一次</translation>
    </message>
    <message>
        <source>the numbers below are from {time}</source>
        <translation>下方数值来自 {time}</translation>
    </message>
    <message>
        <source>Asking {url}…</source>
        <translation>正在查询 {url}…</translation>
    </message>
    <message>
        <source>{url}: {nodes} nodes, {gpus} GPUs, {jobs} jobs · updated {time} ({ms} ms for {n} queries)</source>
        <translation>{url}：{nodes} 个节点，{gpus} 块 GPU，{jobs} 个作业 · 更新于 {time}（{n} 次查询共 {ms} ms）</translation>
    </message>
    <message>
        <source>No cluster yet. Enter the address of the Prometheus server that scrapes your nodes above and press Connect: its nodes, their GPUs, the jobs on them and a heat map of every GPU&apos;s utilisation over the window appear here.</source>
        <translation>尚未连接集群。请在上方输入抓取各节点指标的 Prometheus 服务器地址并点击“连接”：这里将显示它的节点、各节点的 GPU、运行在上面的作业，以及时间窗口内每块 GPU 利用率的热力图。</translation>
    </message>
    <message>
        <source>Nothing to show until {url} answers: the line above says how it is going.</source>
        <translation>{url} 应答之前这里没有内容：上方一行显示连接进展。</translation>
    </message>
    <message>
        <source>reading the cluster failed: {error}</source>
        <translation>读取集群失败：{error}</translation>
    </message>
    <message>
        <source>How much history the plots show. Beyond one hour they show one-minute averages.</source>
        <translation>曲线显示多长的历史。超过一小时时显示每分钟平均值。</translation>
    </message>
    <message>
        <source>Every:</source>
        <translation>间隔：</translation>
    </message>
    <message>
        <source>Seconds between samples. Temperature, fan and ECC are read every 5 s at most.</source>
        <translation>两次采样之间的秒数。温度、风扇和 ECC 最多每 5 秒读取一次。</translation>
    </message>
    <message>
        <source>Write every sample to a CSV file, indexed in the database</source>
        <translation>把每个采样写入 CSV 文件，并在数据库中建立索引</translation>
    </message>
    <message>
        <source>Marker, e.g. “lr 3e-4”</source>
        <translation>标记，例如“lr 3e-4”</translation>
    </message>
    <message>
        <source>Add marker</source>
        <translation>添加标记</translation>
    </message>
    <message>
        <source>Mark this moment in the recording</source>
        <translation>在记录中标记此刻</translation>
    </message>
    <message>
        <source>Prometheus exporter on</source>
        <translation>开启 Prometheus 导出器</translation>
    </message>
    <message>
        <source>Serve /metrics for Prometheus and Grafana (MON-2). 127.0.0.1 is reachable from this machine only; 0.0.0.0 from the network.</source>
        <translation>为 Prometheus 和 Grafana 提供 /metrics（MON-2）。127.0.0.1 只能从本机访问；0.0.0.0 可从网络访问。</translation>
    </message>
    <message>
        <source>Remote /metrics URL (this app, DCGM exporter or node_exporter), e.g. gpu-server:9400</source>
        <translation>远程 /metrics URL（本应用、DCGM exporter 或 node_exporter），例如 gpu-server:9400</translation>
    </message>
    <message>
        <source>Add host</source>
        <translation>添加主机</translation>
    </message>
    <message>
        <source>GPU processes</source>
        <translation>GPU 进程</translation>
    </message>
    <message>
        <source>PID</source>
        <translation>PID</translation>
    </message>
    <message>
        <source>{value} ({known} of {total} GPUs)</source>
        <translation>{value}（{total} 块 GPU 中的 {known} 块）</translation>
    </message>
    <message>
        <source>Not exported by this node&apos;s exporters</source>
        <translation>该节点的导出器未提供此指标</translation>
    </message>
    <message>
        <source>{n} ({lost} lost)</source>
        <translation>{n}（{lost} 块丢失）</translation>
    </message>
    <message>
        <source>Mean over the node&apos;s GPUs (lowest–highest)</source>
        <translation>该节点各 GPU 的平均值（最低–最高）</translation>
    </message>
    <message>
        <source>The node&apos;s GPUs together</source>
        <translation>该节点所有 GPU 合计</translation>
    </message>
    <message>
        <source>max {t}</source>
        <translation>最高 {t}</translation>
    </message>
    <message>
        <source>The hottest of the node&apos;s GPUs</source>
        <translation>该节点温度最高的 GPU</translation>
    </message>
    <message>
        <source>Needs node_exporter (or this app&apos;s exporter) on the node</source>
        <translation>需要在该节点上运行 node_exporter（或本应用的导出器）</translation>
    </message>
    <message>
        <source>Seen through: {exporters}</source>
        <translation>数据来源：{exporters}</translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>double-click a node for its GPUs&apos; cards</source>
        <translation>双击节点查看其 GPU 卡片</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU 数</translation>
    </message>
    <message>
        <source>GPU utilisation</source>
        <translation>GPU 利用率</translation>
    </message>
    <message>
        <source>GPU power</source>
        <translation>GPU 功耗</translation>
    </message>
    <message>
        <source>GPU temperature</source>
        <translation>GPU 温度</translation>
    </message>
    <message>
        <source>Host CPU</source>
        <translation>主机 CPU</translation>
    </message>
    <message>
        <source>Jobs</source>
        <translation>作业</translation>
    </message>
    <message>
        <source>No nodes yet.</source>
        <translation>还没有节点。</translation>
    </message>
    <message>
        <source>GPUs grouped by Slurm job or Kubernetes pod; GPU-6 and DIST-1 judged over each job</source>
        <translation>按 Slurm 作业或 Kubernetes Pod 分组的 GPU；GPU-6 和 DIST-1 按作业判断</translation>
    </message>
    <message>
        <source>Job</source>
        <translation>作业</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Verdict</source>
        <translation>结论</translation>
    </message>
    <message>
        <source>No job labels on these GPUs. DCGM exporter&apos;s HPC job mapping (hpc_job), a Slurm exporter&apos;s job id or Kubernetes pod labels group the GPUs by job here.</source>
        <translation>这些 GPU 没有作业标签。有了 DCGM exporter 的 HPC 作业映射（hpc_job）、Slurm exporter 的作业 ID 或 Kubernetes Pod 标签，这里就会按作业对 GPU 分组。</translation>
    </message>
    <message>
        <source>Slurm job</source>
        <translation>Slurm 作业</translation>
    </message>
    <message>
        <source>Kubernetes pod</source>
        <translation>Kubernetes Pod</translation>
    </message>
    <message>
        <source>Process</source>
        <translation>进程</translation>
    </message>
    <message>
        <source>OK</source>
        <translation>正常</translation>
    </message>
    <message>
        <source>Neither GPU-6 (GPUs waiting for data) nor DIST-1 (GPUs out of step) over the window</source>
        <translation>判断窗口内既没有 GPU-6（GPU 等待数据），也没有 DIST-1（GPU 步调不一致）</translation>
    </message>
    <message>
        <source>User</source>
        <translation>用户</translation>
    </message>
    <message>
        <source>GPU memory</source>
        <translation>显存</translation>
    </message>
    <message>
        <source>This machine</source>
        <translation>本机</translation>
    </message>
    <message>
        <source>Cluster (Prometheus)</source>
        <translation>集群（Prometheus）</translation>
    </message>
    <message>
        <source>Recordings</source>
        <translation>记录</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>继续</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>Freeze the plots; sampling, alerts and recording go on</source>
        <translation>冻结曲线；采样、告警和记录继续进行</translation>
    </message>
    <message>
        <source>Alerts</source>
        <translation>告警</translation>
    </message>
    <message>
        <source>No process is using a GPU. Start a training run and it appears here with its GPU memory.</source>
        <translation>没有进程在使用 GPU。开始训练后，进程及其显存占用会显示在这里。</translation>
    </message>
    <message>
        <source>No NVIDIA GPU to list processes for.</source>
        <translation>没有可列出进程的 NVIDIA GPU。</translation>
    </message>
    <message>
        <source>No alerts. The monitor warns when a GPU waits for data (GPU-6), the GPUs of one job drift apart (DIST-1), VRAM is nearly full (OOM-1), a GPU throttles or is lost (MON-1).</source>
        <translation>没有告警。当 GPU 在等待数据（GPU-6）、同一任务的 GPU 利用率相差过大（DIST-1）、显存将满（OOM-1）、GPU 降频或丢失（MON-1）时，监控器会发出警告。</translation>
    </message>
    <message>
        <source>No NVIDIA driver: the NVML library (libnvidia-ml) was not found, so no GPU can be shown. Install the NVIDIA driver to watch GPUs; the host is monitored below.</source>
        <translation>没有 NVIDIA 驱动：未找到 NVML 库（libnvidia-ml），因此无法显示 GPU。安装 NVIDIA 驱动后即可监控 GPU；下方仍监控主机。</translation>
    </message>
    <message>
        <source>No NVIDIA driver loaded: the library is installed but the kernel module is not running (check `lsmod | grep nvidia`, Secure Boot, or reboot after installing). The host is monitored below.</source>
        <translation>未加载 NVIDIA 驱动：库已安装但内核模块未运行（请检查 `lsmod | grep nvidia`、安全启动，或在安装后重启）。下方仍监控主机。</translation>
    </message>
    <message>
        <source>NVML refused access (insufficient permissions). The host is monitored below.</source>
        <translation>NVML 拒绝访问（权限不足）。下方仍监控主机。</translation>
    </message>
    <message>
        <source>NVML is not available ({error}). The host is monitored below.</source>
        <translation>NVML 不可用（{error}）。下方仍监控主机。</translation>
    </message>
    <message>
        <source>The NVIDIA driver {version} is loaded but reports no GPU.</source>
        <translation>NVIDIA 驱动 {version} 已加载，但没有报告任何 GPU。</translation>
    </message>
    <message>
        <source>GPU {gpus} lost; the others are still monitored and the monitor keeps retrying.</source>
        <translation>GPU {gpus} 已丢失；其他 GPU 仍在监控中，监控器会持续重试。</translation>
    </message>
    <message>
        <source>{cpu}; sample took {ms} ms</source>
        <translation>{cpu}；采样耗时 {ms} ms</translation>
    </message>
    <message>
        <source>{cpu} of a core; sample took {ms} ms</source>
        <translation>占用一个核心的 {cpu}；采样耗时 {ms} ms</translation>
    </message>
    <message>
        <source>(access denied)</source>
        <translation>（拒绝访问）</translation>
    </message>
    <message>
        <source>Record to CSV</source>
        <translation>记录到 CSV</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>Cannot record to {path}: {error}</source>
        <translation>无法记录到 {path}：{error}</translation>
    </message>
    <message>
        <source>Marker “{label}” added at {time}</source>
        <translation>已在 {time} 添加标记“{label}”</translation>
    </message>
    <message>
        <source>Recorded {rows} samples to {path}</source>
        <translation>已将 {rows} 个采样记录到 {path}</translation>
    </message>
    <message>
        <source>Stop recording</source>
        <translation>停止记录</translation>
    </message>
    <message>
        <source>Record…</source>
        <translation>记录…</translation>
    </message>
    <message>
        <source>Recording to {path}</source>
        <translation>正在记录到 {path}</translation>
    </message>
    <message>
        <source>cannot listen on {address}: {error}</source>
        <translation>无法监听 {address}：{error}</translation>
    </message>
    <message>
        <source>serving {url}</source>
        <translation>正在提供 {url}</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>← All nodes</source>
        <translation>← 所有节点</translation>
    </message>
    <message>
        <source>Back to the cluster overview</source>
        <translation>返回集群总览</translation>
    </message>
    <message>
        <source>&lt;b&gt;{node}&lt;/b&gt; · {n} GPUs · seen through: {exporters}</source>
        <translation>&lt;b&gt;{node}&lt;/b&gt; · {n} 块 GPU · 数据来源：{exporters}</translation>
    </message>
    <message>
        <source>Run report: {file}</source>
        <translation>运行报告：{file}</translation>
    </message>
    <message>
        <source>Electricity per kWh:</source>
        <translation>电价（每千瓦时）：</translation>
    </message>
    <message>
        <source>Save PDF…</source>
        <translation>保存 PDF…</translation>
    </message>
    <message>
        <source>file missing</source>
        <translation>文件缺失</translation>
    </message>
    <message>
        <source>The recording {path} is no longer there: it was moved or deleted. Put it back to see its report.</source>
        <translation>记录 {path} 已不在原处：它被移动或删除了。把它放回原处即可查看报告。</translation>
    </message>
    <message>
        <source>Reading {file}…</source>
        <translation>正在读取 {file}…</translation>
    </message>
    <message>
        <source>Save the run report as PDF</source>
        <translation>将运行报告保存为 PDF</translation>
    </message>
    <message>
        <source>PDF files (*.pdf)</source>
        <translation>PDF 文件 (*.pdf)</translation>
    </message>
    <message>
        <source>Cannot write {path}: {error}</source>
        <translation>无法写入 {path}：{error}</translation>
    </message>
    <message>
        <source>Wrote {path}</source>
        <translation>已写入 {path}</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>开始时间</translation>
    </message>
    <message>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Minutes</source>
        <translation>分钟</translation>
    </message>
    <message>
        <source>Samples</source>
        <translation>采样数</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>备注</translation>
    </message>
    <message>
        <source>No recordings yet. “Record…” writes every sample to a CSV file; its run report (utilisation, memory, energy, GPU-6) opens here.</source>
        <translation>还没有记录。“记录…”会把每个采样写入 CSV 文件；其运行报告（利用率、显存、能耗、GPU-6）可在此打开。</translation>
    </message>
    <message>
        <source>Open report…</source>
        <translation>打开报告…</translation>
    </message>
    <message>
        <source>The run report of the selected recording</source>
        <translation>所选记录的运行报告</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
</context>
<context>
    <name>PartsBrowser</name>
    <message>
        <source>This part cannot be read: {reason}</source>
        <translation>无法读取此部件：{reason}</translation>
    </message>
    <message>
        <source>Street-price estimate of {date}; double-click to edit</source>
        <translation>{date} 的市场参考价；双击可编辑</translation>
    </message>
    <message>
        <source>All parts</source>
        <translation>全部部件</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>显卡</translation>
    </message>
    <message>
        <source>CPUs</source>
        <translation>处理器</translation>
    </message>
    <message>
        <source>Motherboards</source>
        <translation>主板</translation>
    </message>
    <message>
        <source>Memory kits</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>Storage</source>
        <translation>存储</translation>
    </message>
    <message>
        <source>Power supplies</source>
        <translation>电源</translation>
    </message>
    <message>
        <source>Cases</source>
        <translation>机箱</translation>
    </message>
    <message>
        <source>CPU coolers</source>
        <translation>CPU 散热器</translation>
    </message>
    <message>
        <source>GPU baseboards</source>
        <translation>GPU 基板</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>chipset</source>
        <translation>芯片组</translation>
    </message>
    <message>
        <source>Price:</source>
        <translation>价格：</translation>
    </message>
    <message>
        <source>Save price</source>
        <translation>保存价格</translation>
    </message>
    <message>
        <source>Keep this price; catalogue updates will not overwrite it</source>
        <translation>保留此价格；目录更新不会覆盖它</translation>
    </message>
    <message>
        <source>Catalogue price</source>
        <translation>恢复目录价</translation>
    </message>
    <message>
        <source>Go back to the price shipped with the catalogue</source>
        <translation>恢复为随目录提供的价格</translation>
    </message>
    <message>
        <source>No part selected</source>
        <translation>未选择部件</translation>
    </message>
    <message>
        <source>Pick a part in the table to see every specification, where it comes from, and to edit its price.</source>
        <translation>在表格中选择一个部件，即可查看全部规格及其来源，并编辑价格。</translation>
    </message>
    <message>
        <source>custom part</source>
        <translation>自定义部件</translation>
    </message>
    <message>
        <source>price edited by you</source>
        <translation>价格已由你修改</translation>
    </message>
    <message>
        <source>Slot</source>
        <translation>插槽</translation>
    </message>
    <message>
        <source>Position</source>
        <translation>位置</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>尺寸</translation>
    </message>
    <message>
        <source>Link</source>
        <translation>链路</translation>
    </message>
    <message>
        <source>From</source>
        <translation>来自</translation>
    </message>
    <message>
        <source>Shares lanes with</source>
        <translation>共享通道</translation>
    </message>
    <message>
        <source>Not verified against a vendor source ({n}): {fields}. Check the vendor&apos;s figure before relying on it.</source>
        <translation>未与厂商资料核实（{n} 项）：{fields}。使用前请核对厂商给出的数值。</translation>
    </message>
    <message>
        <source>not given</source>
        <translation>未提供</translation>
    </message>
    <message>
        <source>Price history</source>
        <translation>价格历史</translation>
    </message>
    <message>
        <source>catalogue</source>
        <translation>目录</translation>
    </message>
    <message>
        <source>edited by you</source>
        <translation>由你修改</translation>
    </message>
    <message>
        <source>CSV import</source>
        <translation>CSV 导入</translation>
    </message>
    <message>
        <source>back to catalogue price</source>
        <translation>恢复目录价</translation>
    </message>
    <message>
        <source>Price: street-price estimate in CNY as of {date}; edit it to match your quote.</source>
        <translation>价格：截至 {date} 的人民币市场参考价；可按你的报价修改。</translation>
    </message>
    <message>
        <source>Price not saved</source>
        <translation>价格未保存</translation>
    </message>
    <message>
        <source>Price not reset</source>
        <translation>价格未恢复</translation>
    </message>
    <message>
        <source>{n} parts in the database could not be read and are not usable: {ids}. Fix them with an SQLite tool or import them again from a CSV.</source>
        <translation>数据库中有 {n} 个部件无法读取，不能使用：{ids}。请用 SQLite 工具修复，或从 CSV 重新导入。</translation>
    </message>
    <message>
        <source>The parts could not be read: {error}</source>
        <translation>无法读取部件：{error}</translation>
    </message>
    <message>
        <source>The parts database is empty. Restart the app to reseed it from the catalogue, or import a CSV (File → Import parts).</source>
        <translation>部件数据库为空。请重启应用以从目录重新填充，或导入 CSV（文件 → 导入部件）。</translation>
    </message>
    <message>
        <source>No part matches “{text}”. Search looks in names, ids, brands and every specification; clear the search to see all.</source>
        <translation>没有与“{text}”匹配的部件。搜索范围包括名称、ID、品牌和所有规格；清空搜索即可查看全部。</translation>
    </message>
    <message>
        <source>{shown} of {total} parts shown</source>
        <translation>显示 {shown} / {total} 个部件</translation>
    </message>
    <message>
        <source>Searching…</source>
        <translation>正在搜索…</translation>
    </message>
    <message>
        <source>Price of {name} saved: ¥{price}</source>
        <translation>已保存 {name} 的价格：¥{price}</translation>
    </message>
    <message>
        <source>Delete custom part</source>
        <translation>删除自定义部件</translation>
    </message>
    <message>
        <source>Delete your part “{name}”? This cannot be undone.</source>
        <translation>删除你的部件“{name}”？此操作无法撤销。</translation>
    </message>
    <message>
        <source>Not deleted</source>
        <translation>未删除</translation>
    </message>
    <message>
        <source>Search: name, id, brand or any spec (e.g. 24 nvlink)</source>
        <translation>搜索：名称、ID、品牌或任意规格（例如 24 nvlink）</translation>
    </message>
    <message>
        <source>Add custom part…</source>
        <translation>添加自定义部件…</translation>
    </message>
    <message>
        <source>(unverified)</source>
        <translation>（未核实）</translation>
    </message>
    <message>
        <source>Not found on the vendor&apos;s page: check the vendor&apos;s figure before relying on it</source>
        <translation>厂商页面上未找到：使用前请核对厂商给出的数值</translation>
    </message>
</context>
<context>
    <name>Planner</name>
    <message>
        <source>Cluster: {n} nodes over {network}</source>
        <translation>集群：{n} 个节点，经 {network} 互联</translation>
    </message>
    <message>
        <source>Budget</source>
        <translation>预算</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Task</source>
        <translation>任务</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>精度</translation>
    </message>
    <message>
        <source>{n} cores</source>
        <translation>{n} 核</translation>
    </message>
    <message>
        <source>{n} threads</source>
        <translation>{n} 线程</translation>
    </message>
    <message>
        <source>1 module</source>
        <translation>1 条</translation>
    </message>
    <message>
        <source>{n} modules</source>
        <translation>{n} 条</translation>
    </message>
    <message>
        <source>— none —</source>
        <translation>— 无 —</translation>
    </message>
    <message>
        <source>No {category} matches “{text}”; the build keeps {choice}.</source>
        <translation>没有与“{text}”匹配的{category}；配置仍使用 {choice}。</translation>
    </message>
    <message>
        <source>{file} (cannot be read)</source>
        <translation>{file}（无法读取）</translation>
    </message>
    <message>
        <source>{model} — from {file}</source>
        <translation>{model} — 来自 {file}</translation>
    </message>
    <message>
        <source>A model of your own: its parameters and layers (or image size) below</source>
        <translation>您自己的模型：在下面填写参数量和层数（或图像尺寸）</translation>
    </message>
    <message>
        <source>Hugging Face config.json…</source>
        <translation>Hugging Face config.json…</translation>
    </message>
    <message>
        <source>A model&apos;s config.json from Hugging Face, read from your disk (nothing is downloaded)</source>
        <translation>模型在 Hugging Face 上的 config.json，从本机磁盘读取（不下载任何内容）</translation>
    </message>
    <message>
        <source>No model matches “{text}”; the workload keeps {choice}.</source>
        <translation>没有模型匹配“{text}”；工作负载保留 {choice}。</translation>
    </message>
    <message>
        <source>Working out the guides&apos; tiers…</source>
        <translation>正在按指南的档位配置…</translation>
    </message>
    <message>
        <source>Edit build</source>
        <translation>编辑配置</translation>
    </message>
    <message>
        <source>Price against budget</source>
        <translation>价格 / 预算</translation>
    </message>
    <message>
        <source>Peak power against the PSU</source>
        <translation>峰值功耗 / 电源</translation>
    </message>
    <message>
        <source>VRAM need per GPU against capacity</source>
        <translation>每卡显存需求 / 容量</translation>
    </message>
    <message>
        <source>RAM need against installed</source>
        <translation>内存需求 / 已安装</translation>
    </message>
    <message>
        <source>n/a</source>
        <translation>不适用</translation>
    </message>
    <message>
        <source>Checking the build…</source>
        <translation>正在检查配置…</translation>
    </message>
    <message>
        <source>Break-even against renting</source>
        <translation>与租用相比的回本时间</translation>
    </message>
    <message>
        <source>months</source>
        <translation>个月</translation>
    </message>
    <message>
        <source>Add a GPU or CPU and a workload to see throughput estimates.</source>
        <translation>添加 GPU 或 CPU 以及工作负载后即可看到吞吐量估算。</translation>
    </message>
    <message>
        <source>This build</source>
        <translation>此配置</translation>
    </message>
    <message>
        <source>Estimated throughput beside the guides&apos; tiers (same workload)</source>
        <translation>估算吞吐量与指南各档配置对比（相同工作负载）</translation>
    </message>
    <message>
        <source>Add a GPU or CPU and a workload to compare its throughput with the guides&apos; tiers.</source>
        <translation>添加 GPU 或 CPU 和工作负载，即可将其吞吐量与指南各档位比较。</translation>
    </message>
    <message>
        <source>Untitled build</source>
        <translation>未命名配置</translation>
    </message>
    <message>
        <source>Unsaved changes</source>
        <translation>未保存的修改</translation>
    </message>
    <message>
        <source>“{name}” has changes that are not saved.</source>
        <translation>“{name}”有尚未保存的修改。</translation>
    </message>
    <message>
        <source>Save them before going on?</source>
        <translation>继续之前要保存吗？</translation>
    </message>
    <message>
        <source>Preset {id}</source>
        <translation>预设 {id}</translation>
    </message>
    <message>
        <source>Preset {id} ({source}); filled in: {filled}</source>
        <translation>预设 {id}（{source}）；已补全：{filled}</translation>
    </message>
    <message>
        <source>Reading this machine&apos;s parts…</source>
        <translation>正在读取本机的部件…</translation>
    </message>
    <message>
        <source>Detect this machine</source>
        <translation>识别本机</translation>
    </message>
    <message>
        <source>This machine: {n} parts matched to the catalogue. Save it to keep it as “{name}” (the Upgrade panel and PWR-4 use it).</source>
        <translation>本机：{n} 个部件已匹配到部件库。保存后即作为“{name}”保留（升级面板和 PWR-4 会使用它）。</translation>
    </message>
    <message>
        <source>Not matched, pick them yourself: {parts}.</source>
        <translation>未能匹配，请自行选择：{parts}。</translation>
    </message>
    <message>
        <source>This machine could not be read: {error}</source>
        <translation>无法读取本机：{error}</translation>
    </message>
    <message>
        <source>Suggested build</source>
        <translation>推荐配置</translation>
    </message>
    <message>
        <source>Save build</source>
        <translation>保存配置</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>名称：</translation>
    </message>
    <message>
        <source>Rename</source>
        <translation>重命名</translation>
    </message>
    <message>
        <source>Saved “{name}”.</source>
        <translation>已保存“{name}”。</translation>
    </message>
    <message>
        <source>Build</source>
        <translation>配置</translation>
    </message>
    <message>
        <source>(copy)</source>
        <translation>（副本）</translation>
    </message>
    <message>
        <source>Duplicate</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>This build is not saved.</source>
        <translation>此配置尚未保存。</translation>
    </message>
    <message>
        <source>Delete build</source>
        <translation>删除配置</translation>
    </message>
    <message>
        <source>Delete the saved build “{name}”?</source>
        <translation>删除已保存的配置“{name}”？</translation>
    </message>
    <message>
        <source>Open a saved build</source>
        <translation>打开已保存的配置</translation>
    </message>
    <message>
        <source>No saved builds yet: Save keeps the current one.</source>
        <translation>还没有已保存的配置：点击“保存”即可保存当前配置。</translation>
    </message>
    <message>
        <source>Build files (*.json);;All files (*)</source>
        <translation>配置文件 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>not a regular file</source>
        <translation>不是普通文件</translation>
    </message>
    <message>
        <source>Cannot import</source>
        <translation>无法导入</translation>
    </message>
    <message>
        <source>{path} could not be read: {error}</source>
        <translation>无法读取 {path}：{error}</translation>
    </message>
    <message>
        <source>Cannot use this build file</source>
        <translation>无法使用此配置文件</translation>
    </message>
    <message>
        <source>{where} has problems; nothing was changed:</source>
        <translation>{where} 有问题；未做任何修改：</translation>
    </message>
    <message>
        <source>Build files (*.json)</source>
        <translation>配置文件 (*.json)</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <source>Wrote {path}.</source>
        <translation>已写入 {path}。</translation>
    </message>
    <message>
        <source>Open build file</source>
        <translation>打开配置文件</translation>
    </message>
    <message>
        <source>Opened {path}.</source>
        <translation>已打开 {path}。</translation>
    </message>
    <message>
        <source>Save build file</source>
        <translation>保存配置文件</translation>
    </message>
    <message>
        <source>Could not save</source>
        <translation>无法保存</translation>
    </message>
    <message>
        <source>{path} could not be written: {error}</source>
        <translation>无法写入 {path}：{error}</translation>
    </message>
    <message>
        <source>Export build sheet</source>
        <translation>导出配置单</translation>
    </message>
    <message>
        <source>PDF files (*.pdf)</source>
        <translation>PDF 文件 (*.pdf)</translation>
    </message>
    <message>
        <source>New</source>
        <translation>新建</translation>
    </message>
    <message>
        <source>Open…</source>
        <translation>打开…</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <source>Save as…</source>
        <translation>另存为…</translation>
    </message>
    <message>
        <source>Saved builds…</source>
        <translation>已保存的配置…</translation>
    </message>
    <message>
        <source>Save in app</source>
        <translation>保存到应用</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>PDF…</source>
        <translation>PDF…</translation>
    </message>
    <message>
        <source>Suggest…</source>
        <translation>推荐…</translation>
    </message>
    <message>
        <source>This machine</source>
        <translation>本机</translation>
    </message>
    <message>
        <source>A new, empty build</source>
        <translation>新建一个空配置</translation>
    </message>
    <message>
        <source>Open a build file (.json, the format `configurator check` reads)</source>
        <translation>打开配置文件（.json，即 `configurator check` 读取的格式）</translation>
    </message>
    <message>
        <source>Save the build to its build file (the first time: choose where)</source>
        <translation>将配置保存到它的配置文件（第一次：选择位置）</translation>
    </message>
    <message>
        <source>Save the build to another build file</source>
        <translation>将配置保存到另一个配置文件</translation>
    </message>
    <message>
        <source>Open a build kept in the app&apos;s database</source>
        <translation>打开保存在应用数据库中的配置</translation>
    </message>
    <message>
        <source>Keep the build in the app&apos;s database (the Upgrade panel, benchmark runs and PWR-4 use the builds kept there)</source>
        <translation>把配置保存在应用的数据库中（升级面板、基准测试和 PWR-4 使用那里保存的配置）</translation>
    </message>
    <message>
        <source>Keep a copy of the build in the app&apos;s database</source>
        <translation>在应用的数据库中保存此配置的副本</translation>
    </message>
    <message>
        <source>Delete the build from the app&apos;s database</source>
        <translation>从应用的数据库中删除此配置</translation>
    </message>
    <message>
        <source>Export the build sheet as a PDF</source>
        <translation>将配置单导出为 PDF</translation>
    </message>
    <message>
        <source>This machine as a build: its GPUs, CPU, memory, board and drives matched to catalogue parts (what is not matched is left for you to pick)</source>
        <translation>把本机作为一套配置：GPU、CPU、内存、主板和硬盘匹配到部件库中的部件（未匹配的留给你选择）</translation>
    </message>
    <message>
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
    <message>
        <source>Undo {edit}</source>
        <translation>撤销{edit}</translation>
    </message>
    <message>
        <source>Redo</source>
        <translation>重做</translation>
    </message>
    <message>
        <source>Redo {edit}</source>
        <translation>重做{edit}</translation>
    </message>
    <message>
        <source>Presets</source>
        <translation>预设</translation>
    </message>
    <message>
        <source>Check</source>
        <translation>检查</translation>
    </message>
    <message>
        <source>Upgrade</source>
        <translation>升级</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>no budget</source>
        <translation>不限预算</translation>
    </message>
    <message>
        <source>Parts</source>
        <translation>部件</translation>
    </message>
    <message>
        <source>Qty</source>
        <translation>数量</translation>
    </message>
    <message>
        <source>Used</source>
        <translation>二手</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Open a Hugging Face config.json</source>
        <translation>打开 Hugging Face config.json</translation>
    </message>
    <message>
        <source>Hugging Face config (*.json);;All files (*)</source>
        <translation>Hugging Face 配置 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>{file}: {field}{problem}</source>
        <translation>{file}：{field}{problem}</translation>
    </message>
    <message>
        <source>Applies to inference only: training divides a model&apos;s memory over the GPUs with sharding</source>
        <translation>仅适用于推理：训练时用分片把模型的显存分到各 GPU</translation>
    </message>
    <message>
        <source>Applies to training only</source>
        <translation>仅适用于训练</translation>
    </message>
    <message>
        <source>Serving: the runtime batches the requests in flight itself</source>
        <translation>服务：运行时自行将同时在处理的请求合批</translation>
    </message>
    <message>
        <source>Serving: a request&apos;s length is its prompt and output tokens</source>
        <translation>服务：请求长度即其提示 token 与输出 token 之和</translation>
    </message>
    <message>
        <source>Applies to inference only: training on quantised weights is QLoRA (Fine-tuning), in 8 bits precision FP8</source>
        <translation>仅适用于推理：在量化权重上训练请用 QLoRA（微调），8 位训练请用精度 FP8</translation>
    </message>
    <message>
        <source>Quantised formats apply to transformer models only</source>
        <translation>量化格式仅适用于 Transformer 模型</translation>
    </message>
    <message>
        <source>Applies to LLM inference and serving only</source>
        <translation>仅适用于 LLM 推理和服务</translation>
    </message>
    <message>
        <source>Applies to generative language models only (their KV cache)</source>
        <translation>仅适用于生成式语言模型（其 KV 缓存）</translation>
    </message>
    <message>
        <source>LoRA and QLoRA apply to transformer models only: a CNN is trained in full</source>
        <translation>LoRA 和 QLoRA 仅适用于 Transformer 模型：CNN 做全参数训练</translation>
    </message>
    <message>
        <source>A CNN takes images, not sequences</source>
        <translation>CNN 的输入是图像，不是序列</translation>
    </message>
    <message>
        <source>Applies to language models only (a loss over the vocabulary)</source>
        <translation>仅适用于语言模型（在词表上计算损失）</translation>
    </message>
    <message>
        <source>Applies to transformer models only</source>
        <translation>仅适用于 Transformer 模型</translation>
    </message>
    <message>
        <source>A diffusion model&apos;s work follows from its image size and denoising steps, not a sequence length</source>
        <translation>扩散模型的计算量取决于图像尺寸和去噪步数，而非序列长度</translation>
    </message>
    <message>
        <source>A vision transformer&apos;s sequence follows from its image size (one token per patch)</source>
        <translation>视觉 Transformer 的序列长度由图像尺寸决定（每个图块一个 token）</translation>
    </message>
    <message>
        <source>Applies to LoRA and QLoRA only</source>
        <translation>仅适用于 LoRA 和 QLoRA</translation>
    </message>
    <message>
        <source>model default ({size} px)</source>
        <translation>模型默认（{size} px）</translation>
    </message>
    <message>
        <source>default ({steps})</source>
        <translation>默认（{steps}）</translation>
    </message>
    <message>
        <source>default ({runtime})</source>
        <translation>默认（{runtime}）</translation>
    </message>
    <message>
        <source>Not for training</source>
        <translation>不用于训练</translation>
    </message>
    <message>
        <source>Cannot serve: serving needs continuous batching and a paged KV cache</source>
        <translation>无法用于服务：服务需要连续批处理与分页 KV 缓存</translation>
    </message>
    <message>
        <source>Not for inference</source>
        <translation>不用于推理</translation>
    </message>
    <message>
        <source>For inference only: training needs fp32, amp, bf16, fp16 or fp8</source>
        <translation>仅用于推理：训练需要 fp32、amp、bf16、fp16 或 fp8</translation>
    </message>
    <message>
        <source>For generative language models only</source>
        <translation>仅适用于生成式语言模型</translation>
    </message>
    <message>
        <source>Serving splits a model over the GPUs with tensor parallelism, or runs a copy on each</source>
        <translation>服务时模型要么用张量并行拆分到各 GPU，要么每块 GPU 运行一份副本</translation>
    </message>
    <message>
        <source>For mixture-of-experts models only</source>
        <translation>仅用于混合专家（MoE）模型</translation>
    </message>
    <message>
        <source>{runtime} has no FP8 KV cache; it runs in {allowed}</source>
        <translation>{runtime} 没有 FP8 KV 缓存；它可在 {allowed} 中运行</translation>
    </message>
    <message>
        <source>{runtime} cannot run this format; it runs in {allowed}</source>
        <translation>{runtime} 无法运行此格式；可运行它的是 {allowed}</translation>
    </message>
    <message>
        <source>Second GPU</source>
        <translation>第二块 GPU</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>Motherboard</source>
        <translation>主板</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>Storage</source>
        <translation>存储</translation>
    </message>
    <message>
        <source>Second drive</source>
        <translation>第二块硬盘</translation>
    </message>
    <message>
        <source>Power supply</source>
        <translation>电源</translation>
    </message>
    <message>
        <source>Case</source>
        <translation>机箱</translation>
    </message>
    <message>
        <source>CPU cooler</source>
        <translation>CPU 散热器</translation>
    </message>
    <message>
        <source>GPU baseboard (SXM)</source>
        <translation>GPU 基板（SXM）</translation>
    </message>
    <message>
        <source>{category} {n}</source>
        <translation>{category} {n}</translation>
    </message>
    <message>
        <source>Bought used (BUD-4: test the VRAM before paying)</source>
        <translation>二手购买（BUD-4：付款前测试显存）</translation>
    </message>
    <message>
        <source>Workload</source>
        <translation>工作负载</translation>
    </message>
    <message>
        <source>Load</source>
        <translation>负载</translation>
    </message>
    <message>
        <source>Requests in flight</source>
        <translation>同时在处理的请求</translation>
    </message>
    <message>
        <source>Request rate</source>
        <translation>请求速率</translation>
    </message>
    <message>
        <source>Prompt tokens</source>
        <translation>提示 token 数</translation>
    </message>
    <message>
        <source>Output tokens</source>
        <translation>输出 token 数</translation>
    </message>
    <message>
        <source>Runtime</source>
        <translation>运行框架</translation>
    </message>
    <message>
        <source>Quantisation</source>
        <translation>量化</translation>
    </message>
    <message>
        <source>KV cache</source>
        <translation>KV 缓存</translation>
    </message>
    <message>
        <source>Batch per GPU</source>
        <translation>每卡批大小</translation>
    </message>
    <message>
        <source>Sequence length</source>
        <translation>序列长度</translation>
    </message>
    <message>
        <source>Denoising steps</source>
        <translation>去噪步数</translation>
    </message>
    <message>
        <source>Fine-tuning</source>
        <translation>微调方式</translation>
    </message>
    <message>
        <source>LoRA rank</source>
        <translation>LoRA 秩</translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source>Optimizer step in backward</source>
        <translation>反向传播中更新</translation>
    </message>
    <message>
        <source>Sharding</source>
        <translation>分片</translation>
    </message>
    <message>
        <source>Model parallelism</source>
        <translation>模型并行</translation>
    </message>
    <message>
        <source>Activation checkpointing</source>
        <translation>激活检查点</translation>
    </message>
    <message>
        <source>Offload to CPU</source>
        <translation>卸载到 CPU</translation>
    </message>
    <message>
        <source>Chunked cross-entropy</source>
        <translation>分块交叉熵</translation>
    </message>
    <message>
        <source>Attention kernel</source>
        <translation>注意力内核</translation>
    </message>
    <message>
        <source>Data set</source>
        <translation>数据集</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>参数量</translation>
    </message>
    <message>
        <source>Layers</source>
        <translation>层数</translation>
    </message>
    <message>
        <source>Hidden size</source>
        <translation>隐藏维度</translation>
    </message>
    <message>
        <source>Attention heads</source>
        <translation>注意力头数</translation>
    </message>
    <message>
        <source>Image size</source>
        <translation>图像尺寸</translation>
    </message>
    <message>
        <source>no stored gradients</source>
        <translation>不保存梯度</translation>
    </message>
    <message>
        <source>recompute activations in backward</source>
        <translation>反向传播时重算激活值</translation>
    </message>
    <message>
        <source>no full-vocabulary logits kept</source>
        <translation>不保留完整词表的 logits</translation>
    </message>
    <message>
        <source>Serving (LLM under load)</source>
        <translation>服务（负载下的大模型推理）</translation>
    </message>
    <message>
        <source>requests in flight (concurrency)</source>
        <translation>同时在处理的请求数（并发）</translation>
    </message>
    <message>
        <source>requests per second (rate)</source>
        <translation>每秒请求数（速率）</translation>
    </message>
    <message>
        <source>requests/s</source>
        <translation>请求/秒</translation>
    </message>
    <message>
        <source>Mean tokens in a request&apos;s prompt</source>
        <translation>每个请求提示的平均 token 数</translation>
    </message>
    <message>
        <source>Mean tokens generated per request</source>
        <translation>每个请求生成的平均 token 数</translation>
    </message>
    <message>
        <source>Denoising steps per image (the sampler&apos;s num_inference_steps)</source>
        <translation>每张图像的去噪步数（采样器的 num_inference_steps）</translation>
    </message>
    <message>
        <source>16-bit (the model&apos;s, default)</source>
        <translation>16 位（模型自身的，默认）</translation>
    </message>
    <message>
        <source>FP8 (1 B per element: twice the tokens)</source>
        <translation>FP8（每元素 1 B：可容纳两倍 token）</translation>
    </message>
    <message>
        <source>The KV cache&apos;s element type (vLLM --kv-cache-dtype fp8, TensorRT-LLM KvCacheConfig dtype fp8)</source>
        <translation>KV 缓存的元素类型（vLLM --kv-cache-dtype fp8，TensorRT-LLM KvCacheConfig dtype fp8）</translation>
    </message>
    <message>
        <source>model default (AdamW for transformers, SGD for CNNs)</source>
        <translation>模型默认（Transformer 用 AdamW，CNN 用 SGD）</translation>
    </message>
    <message>
        <source>model default</source>
        <translation>模型默认</translation>
    </message>
    <message>
        <source>not set</source>
        <translation>未设置</translation>
    </message>
    <message>
        <source>Options</source>
        <translation>选项</translation>
    </message>
    <message>
        <source>NVLink bridge</source>
        <translation>NVLink 桥</translation>
    </message>
    <message>
        <source>Cloud rent per month</source>
        <translation>云服务器月租</translation>
    </message>
    <message>
        <source>Hours per day</source>
        <translation>每天使用小时</translation>
    </message>
    <message>
        <source>Electricity per kWh</source>
        <translation>电价（每千瓦时）</translation>
    </message>
    <message>
        <source>Operating system</source>
        <translation>操作系统</translation>
    </message>
    <message>
        <source>Nodes like this one</source>
        <translation>同样配置的节点数</translation>
    </message>
    <message>
        <source>Network between nodes</source>
        <translation>节点间网络</translation>
    </message>
    <message>
        <source>1 (no cluster)</source>
        <translation>1（不组集群）</translation>
    </message>
    <message>
        <source>PCIe map</source>
        <translation>PCIe 插槽分布</translation>
    </message>
    <message>
        <source>Throughput</source>
        <translation>吞吐量</translation>
    </message>
    <message>
        <source>Rule · source</source>
        <translation>规则 · 出处</translation>
    </message>
    <message>
        <source>Finding</source>
        <translation>检查结果</translation>
    </message>
    <message>
        <source>Errors</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>Warnings</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>Information</source>
        <translation>提示</translation>
    </message>
    <message>
        <source>The guide says</source>
        <translation>指南原文</translation>
    </message>
    <message>
        <source>Choose a motherboard to see which slot each GPU gets.</source>
        <translation>选择主板后即可看到每张 GPU 所在的插槽。</translation>
    </message>
    <message>
        <source>the monitor has not sampled the GPUs yet</source>
        <translation>监控尚未采样到 GPU</translation>
    </message>
</context>
<context>
    <name>Report</name>
    <message>
        <source> (GPUs and the CPU packages, from RAPL)</source>
        <translation>（GPU 与 CPU 封装，CPU 部分来自 RAPL）</translation>
    </message>
    <message>
        <source>Alerts during the run</source>
        <translation>运行期间的告警</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>Energy</source>
        <translation>能耗</translation>
    </message>
    <message>
        <source>Energy and cost</source>
        <translation>能耗与电费</translation>
    </message>
    <message>
        <source>For</source>
        <translation>持续</translation>
    </message>
    <message>
        <source>From</source>
        <translation>开始于</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>GPU-6 and the other alerts are replayed from the recorded values with the thresholds the live monitor uses; rule IDs are listed in docs/rules.md.</source>
        <translation>GPU-6 等告警按实时监控所用的阈值，根据记录的数值重放得出；规则编号见 docs/rules.md。</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Host</source>
        <translation>主机</translation>
    </message>
    <message>
        <source>Markers</source>
        <translation>标记</translation>
    </message>
    <message>
        <source>Memory peak / capacity</source>
        <translation>显存峰值 / 容量</translation>
    </message>
    <message>
        <source>NVML energy counter</source>
        <translation>NVML 能耗计数器</translation>
    </message>
    <message>
        <source>None.</source>
        <translation>无。</translation>
    </message>
    <message>
        <source>Power median / max</source>
        <translation>功耗中位数 / 最大值</translation>
    </message>
    <message>
        <source>Rule</source>
        <translation>规则</translation>
    </message>
    <message>
        <source>The recording has neither an energy counter nor power readings.</source>
        <translation>该记录既没有能耗计数器，也没有功耗读数。</translation>
    </message>
    <message>
        <source>Throttled</source>
        <translation>降频时间</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>训练时间</translation>
    </message>
    <message>
        <source>Training process and DataLoader workers</source>
        <translation>训练进程与 DataLoader 工作进程</translation>
    </message>
    <message>
        <source>Training run report</source>
        <translation>训练运行报告</translation>
    </message>
    <message>
        <source>Utilisation median / p95</source>
        <translation>利用率中位数 / p95</translation>
    </message>
    <message>
        <source>What it said</source>
        <translation>告警内容</translation>
    </message>
    <message>
        <source>Time with every DataLoader worker at a full core (the training process, without workers)</source>
        <translation>所有 DataLoader 工作进程都占满一个核心的时间（没有工作进程时看训练进程）</translation>
    </message>
    <message>
        <source>of the run</source>
        <translation>（占整个运行时长）</translation>
    </message>
    <message>
        <source>median</source>
        <translation>中位数</translation>
    </message>
    <message>
        <source>of a core</source>
        <translation>个核心</translation>
    </message>
    <message>
        <source>power × time</source>
        <translation>功耗 × 时间</translation>
    </message>
    <message>
        <source>samples</source>
        <translation>个采样</translation>
    </message>
    <message>
        <source>workers</source>
        <translation>工作进程</translation>
    </message>
</context>
<context>
    <name>Sheet</name>
    <message>
        <source>Unverified: {fields}</source>
        <translation>未核实：{fields}</translation>
    </message>
    <message>
        <source>This build</source>
        <translation>此配置</translation>
    </message>
    <message>
        <source>Build sheet</source>
        <translation>配置单</translation>
    </message>
    <message>
        <source>Build sheet of {date} · Configurator {version}</source>
        <translation>配置单 · {date} · Configurator {version}</translation>
    </message>
    <message>
        <source>{n} error(s): this build will not work as planned.</source>
        <translation>{n} 个错误：此配置无法按计划工作。</translation>
    </message>
    <message>
        <source>No errors; {n} warning(s).</source>
        <translation>没有错误；{n} 条警告。</translation>
    </message>
    <message>
        <source>Parts</source>
        <translation>部件</translation>
    </message>
    <message>
        <source>Qty</source>
        <translation>数量</translation>
    </message>
    <message>
        <source>Part</source>
        <translation>部件</translation>
    </message>
    <message>
        <source>Key specifications</source>
        <translation>关键规格</translation>
    </message>
    <message>
        <source>Unit price</source>
        <translation>单价</translation>
    </message>
    <message>
        <source>Subtotal</source>
        <translation>小计</translation>
    </message>
    <message>
        <source>used</source>
        <translation>二手</translation>
    </message>
    <message>
        <source>Total</source>
        <translation>合计</translation>
    </message>
    <message>
        <source>Budget</source>
        <translation>预算</translation>
    </message>
    <message>
        <source>left</source>
        <translation>剩余</translation>
    </message>
    <message>
        <source>over budget</source>
        <translation>超出预算</translation>
    </message>
    <message>
        <source>Power and PCIe</source>
        <translation>功耗与 PCIe</translation>
    </message>
    <message>
        <source>Estimated peak draw</source>
        <translation>估算峰值功耗</translation>
    </message>
    <message>
        <source>from the CPU</source>
        <translation>CPU 直连</translation>
    </message>
    <message>
        <source>from the chipset</source>
        <translation>经芯片组</translation>
    </message>
    <message>
        <source>Workload, fit and estimates</source>
        <translation>工作负载、容量与估算</translation>
    </message>
    <message>
        <source>Estimated throughput beside the guides&apos; tiers (same workload)</source>
        <translation>估算吞吐量与指南各档配置对比（相同工作负载）</translation>
    </message>
    <message>
        <source>Measured on this machine</source>
        <translation>本机实测</translation>
    </message>
    <message>
        <source>Findings</source>
        <translation>检查结果</translation>
    </message>
    <message>
        <source>error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>info</source>
        <translation>提示</translation>
    </message>
    <message>
        <source>Prices are dated street-price estimates in CNY; specifications come from the vendors&apos; spec pages; rule IDs and sections refer to the two guides (G, M), listed in docs/rules.md. Estimates say how they were made.</source>
        <translation>价格为注明日期的人民币市场参考价；规格来自厂商规格页面；规则编号与章节对应两份指南（G、M），详见 docs/rules.md。各项估算均注明了计算方法。</translation>
    </message>
    <message>
        <source>? not found on the vendor&apos;s page: check the vendor&apos;s figure before relying on it</source>
        <translation>? 厂商页面上未找到：使用前请核对厂商给出的数值</translation>
    </message>
</context>
<context>
    <name>Suggest</name>
    <message>
        <source>Suggest a build</source>
        <translation>推荐配置</translation>
    </message>
    <message>
        <source>Serving (a request rate)</source>
        <translation>推理服务（给定请求速率）</translation>
    </message>
    <message>
        <source>Budget and workload</source>
        <translation>预算与工作负载</translation>
    </message>
    <message>
        <source>Fastest within the budget</source>
        <translation>预算内最快</translation>
    </message>
    <message>
        <source>Cheapest that reaches a target</source>
        <translation>达到目标的最便宜配置</translation>
    </message>
    <message>
        <source>The score to reach: the estimated throughput less the penalties for the build&apos;s warnings.</source>
        <translation>要达到的评分：估算吞吐量扣除该配置各项警告的罚分后的值。</translation>
    </message>
    <message>
        <source>0 allows a build without a GPU</source>
        <translation>0 表示允许不带 GPU 的配置</translation>
    </message>
    <message>
        <source>to</source>
        <translation>至</translation>
    </message>
    <message>
        <source>None checked: any case</source>
        <translation>都不勾选：任意机箱</translation>
    </message>
    <message>
        <source>Allow used-market GPUs (discontinued models; marked used in the build)</source>
        <translation>允许二手市场显卡（已停产型号；在配置中标为二手）</translation>
    </message>
    <message>
        <source>Let Suggest shard (FSDP) or use LoRA/QLoRA for LLM training</source>
        <translation>训练大语言模型时允许分片（FSDP）或改用 LoRA/QLoRA</translation>
    </message>
    <message>
        <source>Off: the workload is trained as given, without sharding and with full fine-tuning.</source>
        <translation>关闭：按原样训练，不分片、全量微调。</translation>
    </message>
    <message>
        <source>Goal</source>
        <translation>目标</translation>
    </message>
    <message>
        <source>Target</source>
        <translation>目标吞吐量</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU 数量</translation>
    </message>
    <message>
        <source>Case</source>
        <translation>机箱</translation>
    </message>
    <message>
        <source>Options</source>
        <translation>选项</translation>
    </message>
    <message>
        <source>requests/s</source>
        <translation>请求/秒</translation>
    </message>
    <message>
        <source>no bound</source>
        <translation>不限</translation>
    </message>
    <message>
        <source>The median time to first token at the request rate, judged on the central estimate (its range is shown with the result).</source>
        <translation>在该请求速率下首 token 时间的中位数，按中心估计判断（结果中会给出其范围）。</translation>
    </message>
    <message>
        <source>Request rate</source>
        <translation>请求速率</translation>
    </message>
    <message>
        <source>Prompt tokens</source>
        <translation>提示词 token 数</translation>
    </message>
    <message>
        <source>Output tokens</source>
        <translation>输出 token 数</translation>
    </message>
    <message>
        <source>Max TTFT</source>
        <translation>首 token 时间上限</translation>
    </message>
    <message>
        <source>Find builds</source>
        <translation>查找配置</translation>
    </message>
    <message>
        <source>Errors rule a build out; each warning lowers its score by a stated penalty. The best build scores highest within the budget (or, for “cheapest”, costs least while reaching the target); the alternatives have other GPUs or GPU counts.</source>
        <translation>有错误的配置一律排除；每条警告按注明的罚分降低评分。最佳配置是预算内评分最高的（选“最便宜”时则是达到目标且价格最低的）；备选配置使用其他 GPU 或其他 GPU 数量。</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>显存策略</translation>
    </message>
    <message>
        <source>{option}: {problem}</source>
        <translation>{option}：{problem}</translation>
    </message>
    <message>
        <source>Finding builds…</source>
        <translation>正在查找配置…</translation>
    </message>
    <message>
        <source>Suggest failed: {error}</source>
        <translation>推荐失败：{error}</translation>
    </message>
    <message>
        <source>{throughput} · scored {score} ({penalties})</source>
        <translation>{throughput} · 评分 {score}（{penalties}）</translation>
    </message>
    <message>
        <source>No warnings: the score is the estimated throughput.</source>
        <translation>没有警告：评分即估算吞吐量。</translation>
    </message>
    <message>
        <source>Each warning lowers the score by its penalty:</source>
        <translation>每条警告按其罚分降低评分：</translation>
    </message>
    <message>
        <source>{rule} −{weight}: {why}</source>
        <translation>{rule} −{weight}：{why}</translation>
    </message>
    <message>
        <source>No build without errors fits this budget and these options.</source>
        <translation>在此预算和这些选项下，没有无错误的配置。</translation>
    </message>
    <message>
        <source>{title}: {build}</source>
        <translation>{title}：{build}</translation>
    </message>
    <message>
        <source>Why {build}</source>
        <translation>为什么选 {build}</translation>
    </message>
    <message>
        <source>Alternatives</source>
        <translation>备选配置</translation>
    </message>
    <message>
        <source>{title} ({build}): {trade}</source>
        <translation>{title}（{build}）：{trade}</translation>
    </message>
    <message>
        <source>Build</source>
        <translation>配置</translation>
    </message>
    <message>
        <source>Throughput</source>
        <translation>吞吐量</translation>
    </message>
    <message>
        <source>Price</source>
        <translation>价格</translation>
    </message>
    <message>
        <source>Use this build</source>
        <translation>使用此配置</translation>
    </message>
    <message>
        <source>Best</source>
        <translation>最佳</translation>
    </message>
    <message>
        <source>Alternative {n}</source>
        <translation>备选 {n}</translation>
    </message>
    <message>
        <source>{part} (used)</source>
        <translation>{part}（二手）</translation>
    </message>
    <message>
        <source>CPU only</source>
        <translation>仅 CPU</translation>
    </message>
</context>
<context>
    <name>Units</name>
    <message>
        <source>img/s</source>
        <translation>张/秒</translation>
    </message>
    <message>
        <source>tokens/s</source>
        <translation>词元/秒</translation>
    </message>
    <message>
        <source>samples/s</source>
        <translation>样本/秒</translation>
    </message>
</context>
<context>
    <name>Upgrade</name>
    <message>
        <source>VRAM</source>
        <translation>显存</translation>
    </message>
    <message>
        <source>the GPU</source>
        <translation>GPU 本身</translation>
    </message>
    <message>
        <source>the CPU (data loading)</source>
        <translation>CPU（数据加载）</translation>
    </message>
    <message>
        <source>storage</source>
        <translation>存储</translation>
    </message>
    <message>
        <source>the PCIe link</source>
        <translation>PCIe 链路</translation>
    </message>
    <message>
        <source>the input pipeline</source>
        <translation>输入流水线</translation>
    </message>
    <message>
        <source>the link between the GPUs</source>
        <translation>GPU 之间的互联</translation>
    </message>
    <message>
        <source>None: from the plan alone</source>
        <translation>无：仅根据配置方案</translation>
    </message>
    <message>
        <source>(file missing)</source>
        <translation>（文件缺失）</translation>
    </message>
    <message>
        <source>None</source>
        <translation>无</translation>
    </message>
    <message>
        <source>The build in the planner ({name})</source>
        <translation>规划器中的配置（{name}）</translation>
    </message>
    <message>
        <source>unnamed</source>
        <translation>未命名</translation>
    </message>
    <message>
        <source>{name} (saved, detected)</source>
        <translation>{name}（已保存，自动检测）</translation>
    </message>
    <message>
        <source>Reading the recording…</source>
        <translation>正在读取记录…</translation>
    </message>
    <message>
        <source>Benchmark run {id} ({device}): {results}</source>
        <translation>基准测试运行 {id}（{device}）：{results}</translation>
    </message>
    <message>
        <source>no successful result</source>
        <translation>没有成功的结果</translation>
    </message>
    <message>
        <source>The saved build cannot be read: {error}</source>
        <translation>无法读取已保存的配置：{error}</translation>
    </message>
    <message>
        <source>The build has no parts yet: pick some, or detect this machine (configurator detect --save).</source>
        <translation>此配置还没有任何配件：请先选择配件，或检测本机（configurator detect --save）。</translation>
    </message>
    <message>
        <source>Checking candidate upgrades as whole builds…</source>
        <translation>正在把每个候选升级作为完整配置进行检查…</translation>
    </message>
    <message>
        <source>The advisor failed: {error}</source>
        <translation>升级顾问出错：{error}</translation>
    </message>
    <message>
        <source>Evidence: {file}, {minutes:.0f} min.</source>
        <translation>依据：{file}，{minutes:.0f} 分钟。</translation>
    </message>
    <message>
        <source>Measured draw {w:,.0f} W: the planner&apos;s PWR-4 and BUD-3 use it for this machine.</source>
        <translation>实测功耗 {w:,.0f} W：规划器的 PWR-4 和 BUD-3 对本机使用该数值。</translation>
    </message>
    <message>
        <source>Press “Find upgrades”: every candidate is checked as a whole build.</source>
        <translation>点击“查找升级”：每个候选方案都会作为完整配置进行检查。</translation>
    </message>
    <message>
        <source>The build has changed since: find upgrades again.</source>
        <translation>配置已更改：请重新查找升级。</translation>
    </message>
    <message>
        <source>The build has no workload: the advice is for ResNet-50 training (mixed precision).</source>
        <translation>此配置没有设置工作负载：以下建议按 ResNet-50 训练（混合精度）给出。</translation>
    </message>
    <message>
        <source>Limited by {what}</source>
        <translation>瓶颈：{what}</translation>
    </message>
    <message>
        <source>No catalogue change that the engine accepts lifts it.</source>
        <translation>目录中没有能通过引擎检查、又能解除该瓶颈的更换方案。</translation>
    </message>
    <message>
        <source>{name} + {parts}</source>
        <translation>{name} + {parts}</translation>
    </message>
    <message>
        <source>Build</source>
        <translation>配置</translation>
    </message>
    <message>
        <source>Apply upgrade</source>
        <translation>应用升级</translation>
    </message>
    <message>
        <source>Build:</source>
        <translation>配置：</translation>
    </message>
    <message>
        <source>Recording:</source>
        <translation>记录：</translation>
    </message>
    <message>
        <source>Benchmark:</source>
        <translation>基准测试：</translation>
    </message>
    <message>
        <source>Up to:</source>
        <translation>价格上限：</translation>
    </message>
    <message>
        <source>any price</source>
        <translation>不限价格</translation>
    </message>
    <message>
        <source>Only upgrades up to this price (¥); 0: any price</source>
        <translation>只列出不超过此价格（¥）的升级；0：不限价格</translation>
    </message>
    <message>
        <source>Find upgrades</source>
        <translation>查找升级</translation>
    </message>
    <message>
        <source>Apply as a new build</source>
        <translation>应用为新配置</translation>
    </message>
    <message>
        <source>Open the upgraded build in the planner as a new, unsaved build; Undo goes back</source>
        <translation>在规划器中把升级后的配置作为新的未保存配置打开；“撤销”可恢复原配置</translation>
    </message>
    <message>
        <source>Buy</source>
        <translation>购买</translation>
    </message>
    <message>
        <source>Replaces</source>
        <translation>替换</translation>
    </message>
    <message>
        <source>Gain</source>
        <translation>提升</translation>
    </message>
    <message>
        <source>Range</source>
        <translation>范围</translation>
    </message>
    <message>
        <source>Price</source>
        <translation>价格</translation>
    </message>
    <message>
        <source>¥ per %</source>
        <translation>每 % 价格</translation>
    </message>
</context>
<context>
    <name>advise</name>
    <message>
        <source>VRAM peaked at {p:.0%} of the card ({src})</source>
        <translation>显存峰值达到该卡的 {p:.0%}（{src}）</translation>
    </message>
    <message>
        <source>the GPUs ran at {u:.0f} % while the DataLoader workers or the CPU were saturated ({src})</source>
        <translation>GPU 利用率仅 {u:.0f} %，同时 DataLoader 工作进程或 CPU 已饱和（{src}）</translation>
    </message>
    <message>
        <source>the GPUs ran at {u:.0f} % with the CPU waiting on the disk ({io:.0f} % iowait, {src})</source>
        <translation>GPU 利用率仅 {u:.0f} %，CPU 在等待磁盘（iowait {io:.0f} %，{src}）</translation>
    </message>
    <message>
        <source>the GPUs ran at {u:.0f} % on a PCIe link below its maximum ({src})</source>
        <translation>GPU 利用率仅 {u:.0f} %，且 PCIe 链路低于其最高规格（{src}）</translation>
    </message>
    <message>
        <source>data-parallel training on {n} GPUs reached {eff:.0f} % of ideal scaling (benchmark run {run}; PCI-5&apos;s reference over PCIe reaches about 87 %): the all-reduce between the GPUs is the limit</source>
        <translation>{n} 张 GPU 的数据并行训练只达到理想扩展的 {eff:.0f} %（基准测试运行 {run}；PCI-5 的参考值在 PCIe 上约为 87 %）：GPU 之间的 all-reduce 是瓶颈</translation>
    </message>
    <message>
        <source>the GPUs ran at {u:.0f} % and the host shows no saturated resource: the input pipeline or the batch size ({src})</source>
        <translation>GPU 利用率仅 {u:.0f} %，主机上没有饱和的资源：问题在输入流水线或批大小（{src}）</translation>
    </message>
    <message>
        <source>the GPUs were busy ({u:.0f} % median, {src}): the GPU itself is the limit</source>
        <translation>GPU 很忙（中位数 {u:.0f} %，{src}）：瓶颈就是 GPU 本身</translation>
    </message>
    <message>
        <source>for this workload the build is VRAM-bound at batch {b}: the estimate does not fit in the card&apos;s memory</source>
        <translation>对该负载，此配置在批大小 {b} 时受显存限制：估算值放不进该卡的显存</translation>
    </message>
    <message>
        <source>for this workload the build is VRAM-bound at batch {b}: the estimate is tight in the card&apos;s memory (within its error)</source>
        <translation>对该负载，此配置在批大小 {b} 时受显存限制：估算值在该卡显存中很紧张（在误差范围内）</translation>
    </message>
    <message>
        <source>from the plan alone (no recording or benchmark): the model fits at batch {b}, so throughput is set by the GPU</source>
        <translation>仅根据配置方案（没有记录或基准测试）：模型在批大小 {b} 时放得下，因此吞吐量由 GPU 决定</translation>
    </message>
    <message>
        <source>the planner&apos;s throughput model: {old:,.0f} → {new:,.0f} {unit}; the cards then match (data-parallel training runs at the slowest card&apos;s pace)</source>
        <translation>规划器的吞吐量模型：{old:,.0f} → {new:,.0f} {unit}；换后各卡型号一致（数据并行训练以最慢的卡为准）</translation>
    </message>
    <message>
        <source>the planner&apos;s throughput model: {old:,.0f} → {new:,.0f} {unit}</source>
        <translation>规划器的吞吐量模型：{old:,.0f} → {new:,.0f} {unit}</translation>
    </message>
    <message>
        <source>the GPUs&apos; measured utilisation lifted to {target:.0f} % (an unbound GPU); the GPUs themselves do not change</source>
        <translation>把实测的 GPU 利用率提升到 {target:.0f} %（不受限的 GPU）；GPU 本身不变</translation>
    </message>
    <message>
        <source>more cores feed more DataLoader workers: {old} → {new} cores lifts the GPUs&apos; measured utilisation towards {target:.0f} % (an unbound GPU) in proportion to the cores added</source>
        <translation>更多核心可以支撑更多 DataLoader 工作进程：{old} → {new} 核，按增加的核心数成比例地把实测 GPU 利用率提升到接近 {target:.0f} %（不受限的 GPU）</translation>
    </message>
    <message>
        <source>a data drive of {gb:,} GB that reads {new:,} MB/s (the fastest drive now: {old}); the GPUs&apos; measured utilisation lifted to {target:.0f} % (an unbound GPU)</source>
        <translation>一块 {gb:,} GB、顺序读取 {new:,} MB/s 的数据盘（现有最快的存储盘：{old}）；把实测的 GPU 利用率提升到 {target:.0f} %（不受限的 GPU）</translation>
    </message>
    <message>
        <source>the all-reduce link {old:.1f} → {new:.1f} GB/s per GPU; the measured scaling {m:.0f} % towards the planner&apos;s {eff:.0f} % on this board</source>
        <translation>all-reduce 链路每张 GPU {old:.1f} → {new:.1f} GB/s；实测扩展效率 {m:.0f} % 向规划器在这块主板上的 {eff:.0f} % 提升</translation>
    </message>
    <message>
        <source>before buying: check that every card sits in a slot wired to the CPU at its full width and that peer-to-peer works (nvidia-smi topo -m; NCCL_DEBUG=INFO names the path NCCL takes), PCI-3</source>
        <translation>购买之前：确认每张卡都插在直连 CPU 且以全带宽运行的插槽上，并且点对点（P2P）通信正常（nvidia-smi topo -m；NCCL_DEBUG=INFO 会显示 NCCL 走的路径），PCI-3</translation>
    </message>
    <message>
        <source>these cards take an NVLink bridge (not a catalogue part: price it at your shop): {old:.1f} → {new:.1f} GB/s per GPU for the all-reduce, PCI-4</source>
        <translation>这些卡可以加装 NVLink 桥（目录中没有这一部件：请向商家询价）：all-reduce 带宽每张 GPU {old:.1f} → {new:.1f} GB/s，PCI-4</translation>
    </message>
    <message>
        <source>UPG-1 (G 七), short term: more VRAM and a more efficient data pipeline. The guide&apos;s example, RTX 3090 → A4000, is wrong: the A4000 has 16 GB, the 3090 24 GB (erratum 2).</source>
        <translation>UPG-1（G 七），短期：增加显存、优化数据流水线。指南的例子“RTX 3090 → A4000”有误：A4000 只有 16 GB，3090 有 24 GB（勘误 2）。</translation>
    </message>
    <message>
        <source>UPG-1, medium term: several nodes (NCCL, or Gloo on CPU) and tensor parallelism (Megatron-LM) once one machine is not enough.</source>
        <translation>UPG-1，中期：一台机器不够时，组建多节点集群（NCCL，CPU 上用 Gloo）并采用张量并行（Megatron-LM）。</translation>
    </message>
    <message>
        <source>UPG-1, long term: a newer GPU generation (the guide names Hopper H100).</source>
        <translation>UPG-1，长期：新一代 GPU 架构（指南举的是 Hopper H100）。</translation>
    </message>
    <message>
        <source>before buying: the largest batch that fits this card is {b} (gradient accumulation keeps the effective batch); gradient checkpointing, LoRA/QLoRA or ZeRO/FSDP sharding lower the need further (FIT-1)</source>
        <translation>购买之前：这张卡能放下的最大批大小是 {b}（用梯度累积保持有效批大小）；梯度检查点、LoRA/QLoRA 或 ZeRO/FSDP 分片可以进一步降低显存需求（FIT-1）</translation>
    </message>
    <message>
        <source>the plan gives every card its full link on this board, so no part to buy fixes it: reseat the card, check a riser cable and the BIOS&apos;s PCIe setting (PCI-3)</source>
        <translation>按配置方案，这块主板能给每张卡完整的链路，所以买什么部件都解决不了：请重新插好显卡，检查延长线和 BIOS 的 PCIe 设置（PCI-3）</translation>
    </message>
    <message>
        <source>before buying: if the data set is on the hard disk ({hdd}), copy it to the {ssd} (STO-1)</source>
        <translation>购买之前：如果数据集放在机械硬盘（{hdd}）上，先把它复制到 {ssd}（STO-1）</translation>
    </message>
    <message>
        <source>no host resource is saturated: first try a larger batch, more DataLoader workers, pinned memory and mixed precision; a faster GPU helps only once it is busy</source>
        <translation>主机上没有饱和的资源：先试试更大的批大小、更多 DataLoader 工作进程、锁页内存和混合精度；GPU 忙起来之后，更快的 GPU 才有用</translation>
    </message>
</context>
<context>
    <name>bench</name>
    <message>
        <source>RTX 3090, FP32, ImageNet (G 五)</source>
        <translation>RTX 3090，FP32，ImageNet（G 五）</translation>
    </message>
    <message>
        <source>RTX 3090, AMP, ImageNet (G 五)</source>
        <translation>RTX 3090，AMP，ImageNet（G 五）</translation>
    </message>
    <message>
        <source>RTX 3060, GPT-2 Small, 512 tokens in ~8 s (M 2.1)</source>
        <translation>RTX 3060，GPT-2 Small，约 8 秒生成 512 个词元（M 2.1）</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>成功</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>timed out</source>
        <translation>超时</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>skipped</source>
        <translation>已跳过</translation>
    </message>
    <message>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>needs a CUDA GPU (this run: {device})</source>
        <translation>需要 CUDA GPU（本次运行：{device}）</translation>
    </message>
    <message>
        <source>needs {package}, which {python} does not have: pip install {package}</source>
        <translation>需要 {package}，但 {python} 中没有：pip install {package}</translation>
    </message>
    <message>
        <source>could not start {python}: {error}</source>
        <translation>无法启动 {python}：{error}</translation>
    </message>
    <message>
        <source>stopped after {seconds} s without finishing</source>
        <translation>运行 {seconds} 秒仍未完成，已停止</translation>
    </message>
    <message>
        <source>{job}: out of memory at batch {batch}, retrying with batch {half}</source>
        <translation>{job}：批大小 {batch} 时内存不足，改用批大小 {half} 重试</translation>
    </message>
    <message>
        <source>out of memory even at batch {batch}</source>
        <translation>即使批大小为 {batch} 仍内存不足</translation>
    </message>
    <message>
        <source>crashed: killed by a signal{detail}</source>
        <translation>崩溃：被信号终止{detail}</translation>
    </message>
    <message>
        <source>crashed: killed by signal {signal}{detail}</source>
        <translation>崩溃：被信号 {signal} 终止{detail}</translation>
    </message>
    <message>
        <source>the worker&apos;s output was not understood: {line}</source>
        <translation>无法解析测试进程的输出：{line}</translation>
    </message>
    <message>
        <source>the worker ended without finishing its job</source>
        <translation>测试进程在完成任务前结束</translation>
    </message>
    <message>
        <source>crashed: exit code {code}{detail}</source>
        <translation>崩溃：退出码 {code}{detail}</translation>
    </message>
    <message>
        <source>the worker reported no fingerprint</source>
        <translation>测试进程没有报告硬件指纹</translation>
    </message>
    <message>
        <source>the worker did not report this result</source>
        <translation>测试进程没有报告此结果</translation>
    </message>
    <message>
        <source>Matrix multiply</source>
        <translation>矩阵乘法</translation>
    </message>
    <message>
        <source>Device memory bandwidth</source>
        <translation>设备内存带宽</translation>
    </message>
    <message>
        <source>Host–device copies</source>
        <translation>主机–设备拷贝</translation>
    </message>
    <message>
        <source>ResNet-18 training</source>
        <translation>ResNet-18 训练</translation>
    </message>
    <message>
        <source>ResNet-50 training</source>
        <translation>ResNet-50 训练</translation>
    </message>
    <message>
        <source>GPT-2 inference</source>
        <translation>GPT-2 推理</translation>
    </message>
    <message>
        <source>DataLoader throughput</source>
        <translation>DataLoader 吞吐量</translation>
    </message>
    <message>
        <source>Data-parallel scaling (DDP)</source>
        <translation>数据并行扩展（DDP）</translation>
    </message>
    <message>
        <source>VRAM pattern test</source>
        <translation>显存图案测试</translation>
    </message>
    <message>
        <source>Matmul FP32</source>
        <translation>矩阵乘法 FP32</translation>
    </message>
    <message>
        <source>Matmul TF32</source>
        <translation>矩阵乘法 TF32</translation>
    </message>
    <message>
        <source>Matmul FP16</source>
        <translation>矩阵乘法 FP16</translation>
    </message>
    <message>
        <source>Matmul BF16</source>
        <translation>矩阵乘法 BF16</translation>
    </message>
    <message>
        <source>Memory bandwidth</source>
        <translation>访存带宽</translation>
    </message>
    <message>
        <source>Host→device, pinned</source>
        <translation>主机→设备，锁页内存</translation>
    </message>
    <message>
        <source>Host→device, pageable</source>
        <translation>主机→设备，可分页内存</translation>
    </message>
    <message>
        <source>Device→host, pinned</source>
        <translation>设备→主机，锁页内存</translation>
    </message>
    <message>
        <source>Device→host, pageable</source>
        <translation>设备→主机，可分页内存</translation>
    </message>
    <message>
        <source>GPT-2 prefill</source>
        <translation>GPT-2 预填充</translation>
    </message>
    <message>
        <source>GPT-2 decode</source>
        <translation>GPT-2 解码</translation>
    </message>
    <message>
        <source>DataLoader, cold cache</source>
        <translation>DataLoader，冷缓存</translation>
    </message>
    <message>
        <source>DataLoader, warm cache</source>
        <translation>DataLoader，热缓存</translation>
    </message>
    <message>
        <source>DDP scaling efficiency</source>
        <translation>DDP 扩展效率</translation>
    </message>
    <message>
        <source>DDP across nodes</source>
        <translation>跨节点 DDP</translation>
    </message>
    <message>
        <source>VRAM bad bytes</source>
        <translation>显存坏字节</translation>
    </message>
    <message>
        <source>torch cannot be imported by {python}: {error}</source>
        <translation>{python} 无法导入 torch：{error}</translation>
    </message>
    <message>
        <source>bad parameters: {error}</source>
        <translation>参数错误：{error}</translation>
    </message>
    <message>
        <source>unknown job {job!r}</source>
        <translation>未知的测试项 {job!r}</translation>
    </message>
    <message>
        <source>out of memory at batch {batch}</source>
        <translation>批大小 {batch} 时内存不足</translation>
    </message>
    <message>
        <source>CUDA was asked for, but torch.cuda.is_available() is False (torch {version}, built for CUDA {cuda}); `configurator doctor` says why</source>
        <translation>指定了 CUDA，但 torch.cuda.is_available() 为 False（torch {version}，为 CUDA {cuda} 构建）；运行 `configurator doctor` 查看原因</translation>
    </message>
    <message>
        <source>MPS was asked for, but this is not an Apple-silicon Mac with MPS support</source>
        <translation>指定了 MPS，但这台机器不是支持 MPS 的 Apple 芯片 Mac</translation>
    </message>
    <message>
        <source>TF32 needs compute capability 8.0 or later (this GPU: {cap})</source>
        <translation>TF32 需要计算能力 8.0 或更高（此 GPU：{cap}）</translation>
    </message>
    <message>
        <source>native BF16 needs compute capability 8.0 or later (this GPU: {cap})</source>
        <translation>原生 BF16 需要计算能力 8.0 或更高（此 GPU：{cap}）</translation>
    </message>
    <message>
        <source>TF32 is a Tensor Core format of NVIDIA GPUs</source>
        <translation>TF32 是 NVIDIA GPU Tensor Core 的数据格式</translation>
    </message>
    <message>
        <source>this CPU has no native {dtype} instructions</source>
        <translation>此 CPU 没有原生 {dtype} 指令</translation>
    </message>
    <message>
        <source>matmul {dtype} {m}×{n}×{k}</source>
        <translation>矩阵乘法 {dtype} {m}×{n}×{k}</translation>
    </message>
    <message>
        <source>copying {mib} MiB on {device}</source>
        <translation>在 {device} 上复制 {mib} MiB</translation>
    </message>
    <message>
        <source>host–device copies over PCIe need a CUDA GPU</source>
        <translation>经 PCIe 的主机–设备拷贝需要 CUDA GPU</translation>
    </message>
    <message>
        <source>{row}: {mib} MiB</source>
        <translation>{row}：{mib} MiB</translation>
    </message>
    <message>
        <source>the VRAM pattern test needs a CUDA GPU</source>
        <translation>显存图案测试需要 CUDA GPU</translation>
    </message>
    <message>
        <source>not enough free VRAM to test ({free} MiB free)</source>
        <translation>可用显存不足，无法测试（空闲 {free} MiB）</translation>
    </message>
    <message>
        <source>pattern {pattern} over {gib} GiB</source>
        <translation>图案 {pattern}，覆盖 {gib} GiB</translation>
    </message>
    <message>
        <source>writing {n} files of {kib} KiB to {dir}</source>
        <translation>正在向 {dir} 写入 {n} 个 {kib} KiB 的文件</translation>
    </message>
    <message>
        <source>DataLoader num_workers={n}, {mode} cache</source>
        <translation>DataLoader num_workers={n}，{mode} 缓存</translation>
    </message>
    <message>
        <source>{dir} is on {fs}, which lives in RAM: there is no cold cache to measure</source>
        <translation>{dir} 位于内存文件系统 {fs} 上：无法测量冷缓存</translation>
    </message>
    <message>
        <source>this system cannot drop a file from the page cache (no posix_fadvise)</source>
        <translation>此系统无法将文件移出页缓存（没有 posix_fadvise）</translation>
    </message>
    <message>
        <source>DDP runs on CPU (gloo) or CUDA (NCCL), not on {device}</source>
        <translation>DDP 只能在 CPU（gloo）或 CUDA（NCCL）上运行，不支持 {device}</translation>
    </message>
    <message>
        <source>this torch build has no torch.distributed</source>
        <translation>此 torch 版本不含 torch.distributed</translation>
    </message>
    <message>
        <source>torchrun: {n} processes × {threads} threads</source>
        <translation>torchrun：{n} 个进程 × {threads} 个线程</translation>
    </message>
    <message>
        <source>needs torchvision ({error}): pip install torchvision</source>
        <translation>需要 torchvision（{error}）：pip install torchvision</translation>
    </message>
    <message>
        <source>{arch}: step {n}</source>
        <translation>{arch}：第 {n} 步</translation>
    </message>
    <message>
        <source>needs transformers ({error}): pip install transformers</source>
        <translation>需要 transformers（{error}）：pip install transformers</translation>
    </message>
    <message>
        <source>GPT-2 prefill of {n} tokens</source>
        <translation>GPT-2 预填充 {n} 个词元</translation>
    </message>
    <message>
        <source>GPT-2 decoding {n} tokens</source>
        <translation>GPT-2 解码 {n} 个词元</translation>
    </message>
    <message>
        <source>there is no file {path}</source>
        <translation>文件 {path} 不存在</translation>
    </message>
    <message>
        <source>{path} is not a program</source>
        <translation>{path} 不是可执行程序</translation>
    </message>
    <message>
        <source>it cannot be started: {error}</source>
        <translation>无法启动：{error}</translation>
    </message>
    <message>
        <source>it ended with exit code {code}: {detail}</source>
        <translation>以退出码 {code} 结束：{detail}</translation>
    </message>
    <message>
        <source>its answer was not understood: {output}</source>
        <translation>无法理解它的输出：{output}</translation>
    </message>
    <message>
        <source>Python {version} is too old: the benchmarks need Python {minimum} or newer</source>
        <translation>Python {version} 太旧：基准测试需要 Python {minimum} 或更新版本</translation>
    </message>
    <message>
        <source>the search was cancelled</source>
        <translation>查找已取消</translation>
    </message>
    <message>
        <source>it did not answer within {seconds} s</source>
        <translation>{seconds} 秒内没有响应</translation>
    </message>
    <message>
        <source>no PyTorch</source>
        <translation>没有 PyTorch</translation>
    </message>
    <message>
        <source>torch {version} (broken)</source>
        <translation>torch {version}（已损坏）</translation>
    </message>
    <message>
        <source>torch {version} (CUDA {cuda})</source>
        <translation>torch {version}（CUDA {cuda}）</translation>
    </message>
    <message>
        <source>torch {version} (ROCm {rocm})</source>
        <translation>torch {version}（ROCm {rocm}）</translation>
    </message>
    <message>
        <source>torch {version} (CPU only)</source>
        <translation>torch {version}（仅 CPU）</translation>
    </message>
    <message>
        <source>torch {version}</source>
        <translation>torch {version}</translation>
    </message>
    <message>
        <source>Python {python} · {torch}</source>
        <translation>Python {python} · {torch}</translation>
    </message>
    <message>
        <source>{python} cannot run the benchmarks: {reason}</source>
        <translation>{python} 无法运行基准测试：{reason}</translation>
    </message>
    <message>
        <source>There is no PyTorch in {python}. Install it with “{command}” (pytorch.org gives the command for your CUDA version), or choose another interpreter.</source>
        <translation>{python} 中没有 PyTorch。请用“{command}”安装（pytorch.org 上有对应你 CUDA 版本的命令），或选择其他解释器。</translation>
    </message>
    <message>
        <source>PyTorch in {python} does not load: {error}</source>
        <translation>{python} 中的 PyTorch 无法加载：{error}</translation>
    </message>
    <message>
        <source>before</source>
        <translation>测量前</translation>
    </message>
    <message>
        <source>during</source>
        <translation>测量中</translation>
    </message>
    <message>
        <source>{when}: other processes used {cpu} % of the CPU</source>
        <translation>{when}：其他进程占用了 {cpu} % 的 CPU</translation>
    </message>
    <message>
        <source>{when}: the GPU was {gpu} % busy with other work</source>
        <translation>{when}：GPU 被其他任务占用 {gpu} %</translation>
    </message>
    <message>
        <source>{when}: other processes on the GPU: {processes}</source>
        <translation>{when}：GPU 上有其他进程：{processes}</translation>
    </message>
    <message>
        <source>For a clean run, close other programs and GPU jobs and run it again: configurator bench --only {name}</source>
        <translation>若要得到干净的测量结果，请关闭其他程序和 GPU 任务后重新运行：configurator bench --only {name}</translation>
    </message>
    <message>
        <source>a measurement problem: {n} processes scaled to {eff} % of ideal, more than is possible (the one-process baseline was slowed, or the machine was busy). {fix}</source>
        <translation>测量有问题：{n} 个进程的扩展效率为理想值的 {eff} %，超过了可能的上限（单进程基线被拖慢，或机器正忙）。{fix}</translation>
    </message>
    <message>
        <source>a measurement problem: {eff} % of ideal scaling is more than is possible. {fix}</source>
        <translation>测量有问题：理想扩展的 {eff} % 超过了可能的上限。{fix}</translation>
    </message>
    <message>
        <source>a measurement problem: the timed runs spread over {iqr} (IQR), more than their median {median}; the machine was too busy or changed speed while it ran. {fix}</source>
        <translation>测量有问题：各次计时的离散度（IQR）为 {iqr}，大于其中位数 {median}；运行时机器太忙或速度发生了变化。{fix}</translation>
    </message>
    <message>
        <source>unstable: the spread (IQR) is {spread} % of the median, more than {limit} %</source>
        <translation>不稳定：离散程度（四分位距）为中位数的 {spread} %，超过 {limit} %</translation>
    </message>
    <message>
        <source>give HOST:PORT, e.g. node1:29500</source>
        <translation>请给出 HOST:PORT，例如 node1:29500</translation>
    </message>
    <message>
        <source>the port must be a number from 1 to 65535</source>
        <translation>端口必须是 1 到 65535 之间的数字</translation>
    </message>
    <message>
        <source>bad rendezvous endpoint {endpoint}</source>
        <translation>rendezvous 地址 {endpoint} 无效</translation>
    </message>
    <message>
        <source>node {node}: not all {nnodes} nodes joined the rendezvous at {endpoint} within {seconds} s; start the same command with each other --node-rank in that time (--print-launch shows them)</source>
        <translation>节点 {node}：{seconds} 秒内未能等齐 {nnodes} 个节点加入 {endpoint} 的 rendezvous；请在这段时间内用其余每个 --node-rank 启动同一条命令（--print-launch 会列出这些命令）</translation>
    </message>
    <message>
        <source>node {node}: another node closed the rendezvous at {endpoint}: not all {nnodes} nodes joined within {seconds} s; start the same command with each other --node-rank in that time (--print-launch shows them)</source>
        <translation>节点 {node}：另一个节点关闭了 {endpoint} 的 rendezvous：{seconds} 秒内未能等齐 {nnodes} 个节点加入；请在这段时间内用其余每个 --node-rank 启动同一条命令（--print-launch 会列出这些命令）</translation>
    </message>
    <message>
        <source>node {node}: the node hosting the rendezvous at {endpoint} stopped before all {nnodes} nodes joined within {seconds} s; start the same command with each other --node-rank in that time (--print-launch shows them)</source>
        <translation>节点 {node}：承载 {endpoint} rendezvous 的节点在 {seconds} 秒内未等齐 {nnodes} 个节点加入便已停止；请在这段时间内用其余每个 --node-rank 启动同一条命令（--print-launch 会列出这些命令）</translation>
    </message>
    <message>
        <source>node {node}: could not reach the rendezvous store at {endpoint} within {seconds} s; is node 0 running, and can this node reach that address and port?</source>
        <translation>节点 {node}：{seconds} 秒内无法连接 {endpoint} 上的 rendezvous 存储；节点 0 是否已启动？本节点能否访问该地址和端口？</translation>
    </message>
    <message>
        <source>node {node}: waiting for {nnodes} nodes at {endpoint} (up to {seconds} s)</source>
        <translation>节点 {node}：正在 {endpoint} 等待 {nnodes} 个节点（最多 {seconds} 秒）</translation>
    </message>
    <message>
        <source>the {nnodes} nodes met, but their --node-rank values were {ranks}: give each of 0 to {last} to exactly one node</source>
        <translation>{nnodes} 个节点已汇合，但它们的 --node-rank 为 {ranks}：0 到 {last} 中的每个值都必须且只能分给一个节点</translation>
    </message>
    <message>
        <source>node 0 reports the scaling against one node</source>
        <translation>相对单节点的扩展效率由节点 0 报告</translation>
    </message>
</context>
<context>
    <name>build</name>
    <message>
        <source>must be a positive integer</source>
        <translation>必须是正整数</translation>
    </message>
    <message>
        <source>must be a number greater than 0</source>
        <translation>必须是大于 0 的数字</translation>
    </message>
    <message>
        <source>must be at most {high:,}</source>
        <translation>不能超过 {high:,}</translation>
    </message>
    <message>
        <source>{what}: at most {limit} in one build, this one has {n}</source>
        <translation>{what}：一个配置最多 {limit} 个，此配置有 {n} 个</translation>
    </message>
    <message>
        <source>must list at most {high} parts, not {n:,}</source>
        <translation>最多只能列出 {high} 个部件，而不是 {n:,} 个</translation>
    </message>
    <message>
        <source>must be at most {high} characters, not {n:,}</source>
        <translation>最多 {high} 个字符，而不是 {n:,} 个</translation>
    </message>
    <message>
        <source>must not contain {char} (character {pos}): control, bidirectional-override and unpaired surrogate characters are not allowed</source>
        <translation>不能包含 {char}（第 {pos} 个字符）：不允许使用控制字符、双向覆盖字符和未配对的代理字符</translation>
    </message>
    <message>
        <source>{n:,} more problems not shown</source>
        <translation>另有 {n:,} 个问题未显示</translation>
    </message>
    <message>
        <source>is nested too deeply: a build file may be at most {limit} levels deep</source>
        <translation>嵌套过深：配置文件最多只能嵌套 {limit} 层</translation>
    </message>
    <message>
        <source>has a number with more than {limit:,} digits</source>
        <translation>包含超过 {limit:,} 位的数字</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>CPUs</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>motherboards</source>
        <translation>主板</translation>
    </message>
    <message>
        <source>memory modules</source>
        <translation>内存条</translation>
    </message>
    <message>
        <source>drives</source>
        <translation>硬盘</translation>
    </message>
    <message>
        <source>power supplies</source>
        <translation>电源</translation>
    </message>
    <message>
        <source>cases</source>
        <translation>机箱</translation>
    </message>
    <message>
        <source>CPU coolers</source>
        <translation>CPU 散热器</translation>
    </message>
    <message>
        <source>GPU baseboards</source>
        <translation>GPU 基板</translation>
    </message>
    <message>
        <source>must be a number, zero or more</source>
        <translation>必须是不小于零的数字</translation>
    </message>
    <message>
        <source>must be true or false</source>
        <translation>必须是 true 或 false</translation>
    </message>
    <message>
        <source>must be text</source>
        <translation>必须是文本</translation>
    </message>
    <message>
        <source>must be an object</source>
        <translation>必须是对象</translation>
    </message>
    <message>
        <source>must be a list</source>
        <translation>必须是列表</translation>
    </message>
    <message>
        <source>unknown key (allowed: {allowed})</source>
        <translation>未知的键（允许：{allowed}）</translation>
    </message>
    <message>
        <source>is required</source>
        <translation>为必填项</translation>
    </message>
    <message>
        <source>must be one of {choices}, not {got!r}</source>
        <translation>必须是 {choices} 之一，而不是 {got!r}</translation>
    </message>
    <message>
        <source>no part {id!r} in the catalogue (`configurator parts list` shows the ids)</source>
        <translation>目录中没有部件 {id!r}（`configurator parts list` 可列出所有 ID）</translation>
    </message>
    <message>
        <source>must be {expected!r}, not {got!r}</source>
        <translation>必须是 {expected!r}，而不是 {got!r}</translation>
    </message>
    <message>
        <source>must be between 0 and 24</source>
        <translation>必须在 0 到 24 之间</translation>
    </message>
    <message>
        <source>a custom model needs {what}</source>
        <translation>自定义模型需要 {what}</translation>
    </message>
    <message>
        <source>only a custom model takes {key}</source>
        <translation>只有自定义模型才接受 {key}</translation>
    </message>
    <message>
        <source>{precision} is for inference; training needs fp32, amp, bf16, fp16 or fp8</source>
        <translation>{precision} 仅用于推理；训练需要 fp32、amp、bf16、fp16 或 fp8</translation>
    </message>
    <message>
        <source>{key} applies to task serve only</source>
        <translation>{key} 仅适用于 task serve</translation>
    </message>
    <message>
        <source>a serving workload needs its load: concurrency (requests in flight) or request_rate (requests/s)</source>
        <translation>服务负载需要给出负载：concurrency（同时在处理的请求数）或 request_rate（请求/秒）</translation>
    </message>
    <message>
        <source>give concurrency or request_rate, not both</source>
        <translation>请给出 concurrency 或 request_rate，不能同时给出</translation>
    </message>
    <message>
        <source>a serving workload needs {key} (mean tokens per request)</source>
        <translation>服务负载需要 {key}（每个请求的平均 token 数）</translation>
    </message>
    <message>
        <source>{key} does not apply to task serve: its load is concurrency or request_rate with prompt_tokens and output_tokens</source>
        <translation>{key} 不适用于 task serve：服务的负载由 concurrency 或 request_rate 以及 prompt_tokens 和 output_tokens 给出</translation>
    </message>
    <message>
        <source>runtime {runtime} cannot serve: serving needs continuous batching and a paged KV cache ({allowed})</source>
        <translation>运行时 {runtime} 不能用于服务：服务需要连续批处理和分页 KV 缓存（{allowed}）</translation>
    </message>
    <message>
        <source>task serve applies to generative (decoder) language models only</source>
        <translation>task serve 仅适用于生成式（解码器）语言模型</translation>
    </message>
    <message>
        <source>serving splits a model over the GPUs with parallel tensor, or runs a copy on each (none), not {got}</source>
        <translation>服务时模型要么用 parallel tensor 切分到各 GPU，要么每张 GPU 各运行一份（none），不能是 {got}</translation>
    </message>
    <message>
        <source>{quant} does not run in {runtime}, the runtime serving uses; {quant} runs in {allowed} (set workload.runtime)</source>
        <translation>{quant} 不能在服务所用的运行时 {runtime} 中运行；{quant} 可在 {allowed} 中运行（请设置 workload.runtime）</translation>
    </message>
    <message>
        <source>quant applies to inference only; training on quantised weights is finetune qlora, in 8 bits precision fp8</source>
        <translation>quant 仅适用于推理；在量化权重上训练请用 finetune qlora，8 位训练请用 precision fp8</translation>
    </message>
    <message>
        <source>runtime {runtime} cannot run {quant}; {quant} runs in {allowed} (set workload.runtime)</source>
        <translation>运行时 {runtime} 无法运行 {quant}；{quant} 可在 {allowed} 中运行（请设置 workload.runtime）</translation>
    </message>
    <message>
        <source>{quant} stores {width} weights and computes in 16 bits: precision must be fp16, bf16 or {width}, not {precision}</source>
        <translation>{quant} 以 {width} 存储权重、以 16 位计算：precision 须为 fp16、bf16 或 {width}，而不是 {precision}</translation>
    </message>
    <message>
        <source>kv_cache applies to the inference and serving of generative (decoder) language models only</source>
        <translation>kv_cache 仅适用于生成式（解码器）语言模型的推理和服务</translation>
    </message>
    <message>
        <source>runtime {runtime} has no FP8 KV cache (its cache types: f32, f16, bf16, q8_0, q4_0, q4_1, iq4_nl, q5_0, q5_1); an FP8 KV cache runs in {allowed} (set workload.runtime)</source>
        <translation>运行时 {runtime} 没有 FP8 KV 缓存（其缓存类型：f32、f16、bf16、q8_0、q4_0、q4_1、iq4_nl、q5_0、q5_1）；FP8 KV 缓存可在 {allowed} 中运行（请设置 workload.runtime）</translation>
    </message>
    <message>
        <source>{gpu} (compute capability {cc}) cannot keep an FP8 KV cache in {runtime}: it runs FP8 on compute capability {need} or newer (Ada, Hopper); use kv_cache 16-bit or runtime vllm</source>
        <translation>{gpu}（计算能力 {cc}）无法在 {runtime} 中使用 FP8 KV 缓存：它只在计算能力 {need} 及以上（Ada、Hopper）运行 FP8；请使用 kv_cache 16-bit 或运行时 vllm</translation>
    </message>
    <message>
        <source>no model {got} in the catalogue (`configurator models list` shows the ids; or &quot;custom&quot;, or {{&quot;hf_config&quot;: &quot;path/config.json&quot;}})</source>
        <translation>模型目录中没有 {got}（`configurator models list` 列出所有 ID；或用 &quot;custom&quot;，或 {{&quot;hf_config&quot;: &quot;path/config.json&quot;}}）</translation>
    </message>
    <message>
        <source>{file}: {field}{problem}</source>
        <translation>{file}：{field}{problem}</translation>
    </message>
    <message>
        <source>{key} applies to training only</source>
        <translation>{key} 仅适用于训练</translation>
    </message>
    <message>
        <source>{key} applies to inference only; training divides memory with sharding</source>
        <translation>{key} 仅适用于推理；训练时请用分片（sharding）分摊显存</translation>
    </message>
    <message>
        <source>{key} applies to transformer models only</source>
        <translation>{key} 仅适用于 Transformer 模型</translation>
    </message>
    <message>
        <source>{key} applies to diffusion models&apos; inference only (the denoising steps per image)</source>
        <translation>{key} 仅适用于扩散模型的推理（每张图像的去噪步数）</translation>
    </message>
    <message>
        <source>runtime {runtime} cannot run precision {precision}; it runs {allowed} (set workload.precision)</source>
        <translation>运行时 {runtime} 不能运行精度 {precision}；它支持 {allowed}（请设置 workload.precision）</translation>
    </message>
    <message>
        <source>is too large: a build file may be at most {limit:,} bytes</source>
        <translation>文件过大：配置文件最大为 {limit:,} 字节</translation>
    </message>
    <message>
        <source>{gpu} (compute capability {cc}) has no FP8 tensor cores: fp8 needs compute capability {need} (Ada, Hopper, Blackwell: RTX 40/50, L4, L40S, H100/H200)</source>
        <translation>{gpu}（计算能力 {cc}）没有 FP8 张量核心：fp8 需要计算能力 {need}（Ada、Hopper、Blackwell：RTX 40/50、L4、L40S、H100/H200）</translation>
    </message>
    <message>
        <source>{gpu} (compute capability {cc}) cannot run {quant} in {runtime}: its kernel ({kernel}) needs compute capability {need} or newer</source>
        <translation>{gpu}（计算能力 {cc}）无法在 {runtime} 中运行 {quant}：其内核（{kernel}）需要计算能力 {need} 或更高</translation>
    </message>
</context>
<context>
    <name>cli</name>
    <message>
        <source>must be one of {choices}, not {got!r}</source>
        <translation>必须是 {choices} 之一，而不是 {got!r}</translation>
    </message>
    <message>
        <source>… and {n} more problems (--json lists them all)</source>
        <translation>……还有 {n} 个问题（--json 会全部列出）</translation>
    </message>
    <message>
        <source>… and {n} more problems</source>
        <translation>……还有 {n} 个问题</translation>
    </message>
    <message>
        <source>is empty; give the database file&apos;s name, or leave it out for the default</source>
        <translation>为空；请给出数据库文件名，或省略它以使用默认数据库</translation>
    </message>
    <message>
        <source>{n} parts. Prices are street-price estimates in CNY; * custom part, ✎ price edited by you.</source>
        <translation>共 {n} 个部件。价格为人民币市场参考价；* 自定义部件，✎ 价格已由你修改。</translation>
    </message>
    <message>
        <source>the part {id!r} is damaged in the database and cannot be read</source>
        <translation>数据库中的配件 {id!r} 已损坏，无法读取</translation>
    </message>
    <message>
        <source>no part {id!r}; `configurator parts list` shows the ids</source>
        <translation>没有部件 {id!r}；`configurator parts list` 可列出所有 ID</translation>
    </message>
    <message>
        <source>Field</source>
        <translation>字段</translation>
    </message>
    <message>
        <source>unverified</source>
        <translation>未核实</translation>
    </message>
    <message>
        <source>Not verified against a vendor source ({n}): {fields}. Check the vendor&apos;s figure before relying on it.</source>
        <translation>未经厂商资料核实（{n} 项）：{fields}。使用前请查对厂商数据。</translation>
    </message>
    <message>
        <source>Wrote {path}: {n} columns, {required} of them required ({names}), and one example row ({example}). Fill a row per part, then: configurator parts import {path}</source>
        <translation>已写入 {path}：共 {n} 列，其中 {required} 列必填（{names}），另有一行示例（{example}）。每个配件填一行，然后运行：configurator parts import {path}</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>Imported {path}: {added} new custom parts, {prices} prices updated, {replaced} custom parts replaced, {unchanged} unchanged.</source>
        <translation>已导入 {path}：新增 {added} 个自定义部件，更新 {prices} 个价格，替换 {replaced} 个自定义部件，{unchanged} 个未变。</translation>
    </message>
    <message>
        <source>Wrote {n} parts to {path}.</source>
        <translation>已将 {n} 个部件写入 {path}。</translation>
    </message>
    <message>
        <source>Looking for a Python interpreter with PyTorch…</source>
        <translation>正在查找装有 PyTorch 的 Python 解释器…</translation>
    </message>
    <message>
        <source>Python</source>
        <translation>Python</translation>
    </message>
    <message>
        <source>PyTorch</source>
        <translation>PyTorch</translation>
    </message>
    <message>
        <source>CUDA</source>
        <translation>CUDA</translation>
    </message>
    <message>
        <source>Path</source>
        <translation>路径</translation>
    </message>
    <message>
        <source>✓ or ✗ after the CUDA version: whether torch.cuda.is_available() in that interpreter.</source>
        <translation>CUDA 版本后的 ✓ 或 ✗：该解释器中 torch.cuda.is_available() 的结果。</translation>
    </message>
    <message>
        <source>Not usable:</source>
        <translation>不可用：</translation>
    </message>
    <message>
        <source>`configurator bench` runs under {path} unless --python says otherwise.</source>
        <translation>除非用 --python 另行指定，`configurator bench` 在 {path} 下运行。</translation>
    </message>
    <message>
        <source>No Python with PyTorch found: install it into one of these (python -m pip install torch torchvision) or give --python PATH.</source>
        <translation>没有找到装有 PyTorch 的 Python：请在上面某个解释器中安装（python -m pip install torch torchvision），或用 --python PATH 指定。</translation>
    </message>
    <message>
        <source>{name}: not measured — {reason}</source>
        <translation>{name}：未测得 — {reason}</translation>
    </message>
    <message>
        <source>{name}: {value} {unit} (median {median}, IQR {iqr})</source>
        <translation>{name}：{value} {unit}（中位数 {median}，四分位距 {iqr}）</translation>
    </message>
    <message>
        <source>unknown workload(s) {names}; choose from {choices}</source>
        <translation>未知的测试项 {names}；可选：{choices}</translation>
    </message>
    <message>
        <source>names no workload</source>
        <translation>未指定任何测试项</translation>
    </message>
    <message>
        <source>no such interpreter: {path}</source>
        <translation>没有这个解释器：{path}</translation>
    </message>
    <message>
        <source>no Python with PyTorch found on this machine; give one with --python PATH (`configurator bench interpreters` lists the interpreters found)</source>
        <translation>本机上没有找到装有 PyTorch 的 Python；请用 --python PATH 指定一个（`configurator bench interpreters` 列出找到的解释器）</translation>
    </message>
    <message>
        <source>{path} is a folder; give a file name</source>
        <translation>{path} 是文件夹；请给出文件名</translation>
    </message>
    <message>
        <source>must be more than 0 seconds</source>
        <translation>必须大于 0 秒</translation>
    </message>
    <message>
        <source>must be at most {high:,} seconds (a day)</source>
        <translation>不能超过 {high:,} 秒（一天）</translation>
    </message>
    <message>
        <source>must be 0 (automatic) or more</source>
        <translation>必须为 0（自动）或更大</translation>
    </message>
    <message>
        <source>must be at most {high:,}</source>
        <translation>不能超过 {high:,}</translation>
    </message>
    <message>
        <source>cannot link to a build with --no-store</source>
        <translation>使用 --no-store 时不能关联配置单</translation>
    </message>
    <message>
        <source>no such folder: {path}</source>
        <translation>没有这个文件夹：{path}</translation>
    </message>
    <message>
        <source>no saved build {id}</source>
        <translation>没有已保存的配置单 {id}</translation>
    </message>
    <message>
        <source>output not understood: {line}</source>
        <translation>无法解析的输出：{line}</translation>
    </message>
    <message>
        <source>The suite could not run: {reason}</source>
        <translation>套件无法运行：{reason}</translation>
    </message>
    <message>
        <source>The run across nodes failed: {reason}</source>
        <translation>跨节点运行失败：{reason}</translation>
    </message>
    <message>
        <source>Workload</source>
        <translation>工作负载</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Unit</source>
        <translation>单位</translation>
    </message>
    <message>
        <source>Median</source>
        <translation>中位数</translation>
    </message>
    <message>
        <source>IQR</source>
        <translation>四分位距</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>备注</translation>
    </message>
    <message>
        <source>Suite {suite} on {device}: {status} in {seconds} s{saved}.</source>
        <translation>套件 {suite}（{device}）：{status}，用时 {seconds} 秒{saved}。</translation>
    </message>
    <message>
        <source>, saved as run {id}</source>
        <translation>，已保存为第 {id} 次运行</translation>
    </message>
    <message>
        <source>Fix: {fix}</source>
        <translation>修复：{fix}</translation>
    </message>
    <message>
        <source>{passed} passed, {warned} warnings, {failed} failed, {skipped} not applicable.</source>
        <translation>{passed} 项通过，{warned} 项警告，{failed} 项失败，{skipped} 项不适用。</translation>
    </message>
    <message>
        <source>No NVIDIA driver: the NVML library (libnvidia-ml) was not found. Monitoring the host only.</source>
        <translation>没有 NVIDIA 驱动：未找到 NVML 库（libnvidia-ml）。仅监控主机。</translation>
    </message>
    <message>
        <source>No NVIDIA driver loaded (the kernel module is not running). Monitoring the host only.</source>
        <translation>未加载 NVIDIA 驱动（内核模块未运行）。仅监控主机。</translation>
    </message>
    <message>
        <source>NVML refused access (insufficient permissions). Monitoring the host only.</source>
        <translation>NVML 拒绝访问（权限不足）。仅监控主机。</translation>
    </message>
    <message>
        <source>NVML is not available ({error}). Monitoring the host only.</source>
        <translation>NVML 不可用（{error}）。仅监控主机。</translation>
    </message>
    <message>
        <source>Host {host}: {cores} cores, {ram} GiB RAM</source>
        <translation>主机 {host}：{cores} 个核心，内存 {ram} GiB</translation>
    </message>
    <message>
        <source>NVIDIA driver {version}, but no GPU found.</source>
        <translation>NVIDIA 驱动 {version}，但未发现 GPU。</translation>
    </message>
    <message>
        <source>NVIDIA driver {version}, {n} GPUs.</source>
        <translation>NVIDIA 驱动 {version}，{n} 块 GPU。</translation>
    </message>
    <message>
        <source>{time}  host: CPU {cpu} %, iowait {iowait} %, load {load}, RAM {ram_used}/{ram_total} GiB, disk r/w {read}/{write} MB/s, net rx/tx {rx}/{tx} MB/s</source>
        <translation>{time}  主机：CPU {cpu} %，iowait {iowait} %，负载 {load}，内存 {ram_used}/{ram_total} GiB，磁盘读/写 {read}/{write} MB/s，网络收/发 {rx}/{tx} MB/s</translation>
    </message>
    <message>
        <source>  GPU {gpu} {name}: LOST (retrying)</source>
        <translation>  GPU {gpu} {name}：已丢失（正在重试）</translation>
    </message>
    <message>
        <source>  GPU {gpu} {name}: {util} % busy, VRAM {used}/{total} GiB, {temp} °C, {power}/{limit} W, fan {fan} %, PCIe Gen{gen} x{width}, processes: {procs}</source>
        <translation>  GPU {gpu} {name}：占用 {util} %，显存 {used}/{total} GiB，{temp} °C，{power}/{limit} W，风扇 {fan} %，PCIe Gen{gen} x{width}，进程：{procs}</translation>
    </message>
    <message>
        <source>{path} is a symbolic link; give the file itself</source>
        <translation>{path} 是符号链接；请指定文件本身</translation>
    </message>
    <message>
        <source>{path} already exists; add --force to overwrite it</source>
        <translation>{path} 已存在；加上 --force 可覆盖它</translation>
    </message>
    <message>
        <source>works on this machine&apos;s GPUs, not with --prometheus</source>
        <translation>只作用于本机 GPU，不能与 --prometheus 同用</translation>
    </message>
    <message>
        <source>must be between 0.1 and 120 seconds</source>
        <translation>必须在 0.1 到 120 秒之间</translation>
    </message>
    <message>
        <source>with --prometheus: must be between 1 and 3600 seconds</source>
        <translation>与 --prometheus 同用时必须在 1 到 3600 秒之间</translation>
    </message>
    <message>
        <source>{nodes} nodes from {source}</source>
        <translation>来自 {source} 的 {nodes} 个节点</translation>
    </message>
    <message>
        <source>{node}: CPU {cpu} %, iowait {iowait} %, RAM {used}/{total} GiB</source>
        <translation>{node}：CPU {cpu} %，iowait {iowait} %，内存 {used}/{total} GiB</translation>
    </message>
    <message>
        <source>  GPU {gpu} {name}: LOST</source>
        <translation>  GPU {gpu} {name}：已丢失</translation>
    </message>
    <message>
        <source>, job {job}</source>
        <translation>，作业 {job}</translation>
    </message>
    <message>
        <source>  GPU {gpu} {name}: {util} % busy, VRAM {used}/{total} GiB, {temp} °C, {power} W{job}</source>
        <translation>  GPU {gpu} {name}：占用 {util} %，显存 {used}/{total} GiB，{temp} °C，{power} W{job}</translation>
    </message>
    <message>
        <source>Slurm job</source>
        <translation>Slurm 作业</translation>
    </message>
    <message>
        <source>Kubernetes pod</source>
        <translation>Kubernetes Pod</translation>
    </message>
    <message>
        <source>Processes</source>
        <translation>进程</translation>
    </message>
    <message>
        <source>{kind} {job} on {nodes}: {n} GPUs, {util} % busy ({low}–{high})</source>
        <translation>{kind} {job} 位于 {nodes}：{n} 块 GPU，占用 {util} %（{low}–{high}）</translation>
    </message>
    <message>
        <source>needs --serve, and a printable name of 1 to 253 characters</source>
        <translation>需要同时使用 --serve，且名称须为 1 到 253 个可打印字符</translation>
    </message>
    <message>
        <source>must be between {low} and {high} seconds, not {got}</source>
        <translation>必须在 {low} 到 {high} 秒之间，而不是 {got}</translation>
    </message>
    <message>
        <source>must be at least 1, not {got}</source>
        <translation>必须至少为 1，而不是 {got}</translation>
    </message>
    <message>
        <source>must be between 0 and 64, not {got}</source>
        <translation>必须在 0 到 64 之间，而不是 {got}</translation>
    </message>
    <message>
        <source>cannot be combined with --once: the exporter serves until you stop it</source>
        <translation>不能与 --once 同时使用：导出器会一直运行直到你停止它</translation>
    </message>
    <message>
        <source>cannot listen on {address}: {error}</source>
        <translation>无法监听 {address}：{error}</translation>
    </message>
    <message>
        <source>Serving Prometheus metrics at {url}</source>
        <translation>Prometheus 指标地址：{url}</translation>
    </message>
    <message>
        <source>ALERT</source>
        <translation>告警</translation>
    </message>
    <message>
        <source>cleared</source>
        <translation>已解除</translation>
    </message>
    <message>
        <source>Recorded {rows} samples to {path}</source>
        <translation>已将 {rows} 个采样记录到 {path}</translation>
    </message>
    <message>
        <source>is not UTF-8 text</source>
        <translation>不是 UTF-8 文本</translation>
    </message>
    <message>
        <source>not valid JSON: {error}</source>
        <translation>不是有效的 JSON：{error}</translation>
    </message>
    <message>
        <source>is a folder, not a build file</source>
        <translation>是文件夹，不是配置文件</translation>
    </message>
    <message>
        <source>is not a regular file</source>
        <translation>不是普通文件</translation>
    </message>
    <message>
        <source>{value} (likely {range})</source>
        <translation>{value}（可能范围 {range}）</translation>
    </message>
    <message>
        <source>Errors</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>Warnings</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>Information</source>
        <translation>提示</translation>
    </message>
    <message>
        <source>Build</source>
        <translation>配置</translation>
    </message>
    <message>
        <source>Estimates</source>
        <translation>估算</translation>
    </message>
    <message>
        <source>is required (or give --target-throughput for the cheapest build that reaches it)</source>
        <translation>为必填项（或给出 --target-throughput，求达到该吞吐量的最便宜配置）</translation>
    </message>
    <message>
        <source>must be a positive number of yuan</source>
        <translation>必须是正数（元）</translation>
    </message>
    <message>
        <source>must be at most ¥{high:,}</source>
        <translation>不能超过 ¥{high:,}</translation>
    </message>
    <message>
        <source>No build without errors within ¥{budget:,.0f} serves {rate:,g} requests/s of this workload{bounds}.</source>
        <translation>在 ¥{budget:,.0f} 以内，没有无错误的配置能以每秒 {rate:,g} 个请求服务此工作负载{bounds}。</translation>
    </message>
    <message>
        <source>No build without errors within ¥{budget:,.0f} reaches {target:,.0f} {unit} for this workload.</source>
        <translation>在 ¥{budget:,.0f} 以内，没有无错误的配置能让此工作负载达到 {target:,.0f} {unit}。</translation>
    </message>
    <message>
        <source>No build without errors fits ¥{budget:,.0f} for this workload.</source>
        <translation>在 ¥{budget:,.0f} 预算内找不到适合此工作负载且没有错误的配置。</translation>
    </message>
    <message>
        <source>Assumed: {dataset:,.0f} GB of data{ds_how}, {kept} checkpoint(s) kept{kept_how}, {env:.0f} GB of system and environment; storage needed {need:,.0f} GB (BAL-4).</source>
        <translation>假设：数据 {dataset:,.0f} GB{ds_how}，保留 {kept} 个检查点{kept_how}，系统与环境 {env:.0f} GB；所需存储 {need:,.0f} GB（BAL-4）。</translation>
    </message>
    <message>
        <source>Relaxed at your request: {rules} (a suggestion may warn on them).</source>
        <translation>已按您的要求放宽：{rules}（建议方案可能对其给出警告）。</translation>
    </message>
    <message>
        <source>Best build</source>
        <translation>最佳配置</translation>
    </message>
    <message>
        <source>Alternative {n}</source>
        <translation>备选 {n}</translation>
    </message>
    <message>
        <source>(scored {score:,.1f}: {penalties})</source>
        <translation>（评分 {score:,.1f}：{penalties}）</translation>
    </message>
    <message>
        <source>(used)</source>
        <translation>（二手）</translation>
    </message>
    <message>
        <source> (the default for this model; give dataset_gb)</source>
        <translation>（此模型的默认值；可用 dataset_gb 指定）</translation>
    </message>
    <message>
        <source> (the default; give checkpoints_kept)</source>
        <translation>（默认值；可用 checkpoints_kept 指定）</translation>
    </message>
    <message>
        <source>(filled: cheapest compatible part)</source>
        <translation>（已补全：最便宜的兼容部件）</translation>
    </message>
    <message>
        <source>Saved as the build “{name}”.</source>
        <translation>已保存为配置“{name}”。</translation>
    </message>
    <message>
        <source>must be a number from 0 to {high:g} ¥/kWh</source>
        <translation>必须是 0 到 {high:g} ¥/kWh 之间的数字</translation>
    </message>
    <message>
        <source>{path}: {duration}, {samples} samples</source>
        <translation>{path}：{duration}，{samples} 个样本</translation>
    </message>
    <message>
        <source>{gpu}: utilisation median {med} %, p95 {p95} %; memory peak {peak} of {cap} GiB; power median {power} W; energy {kj} kJ ({method}); throttled {thr} s {why}</source>
        <translation>{gpu}：利用率中位数 {med} %，p95 {p95} %；显存峰值 {peak} / {cap} GiB；功耗中位数 {power} W；能耗 {kj} kJ（{method}）；降频 {thr} 秒 {why}</translation>
    </message>
    <message>
        <source>Host: CPU median {cpu} % (p95 {cpu95} %), iowait median {io} % (p95 {io95} %), training process and workers {train} % of a core</source>
        <translation>主机：CPU 中位数 {cpu} %（p95 {cpu95} %），iowait 中位数 {io} %（p95 {io95} %），训练进程与工作进程占 {train} % 个核心</translation>
    </message>
    <message>
        <source>Energy {kwh:.3f} kWh × ¥{tariff:g}/kWh = ¥{cost:.2f}</source>
        <translation>能耗 {kwh:.3f} kWh × ¥{tariff:g}/kWh = ¥{cost:.2f}</translation>
    </message>
    <message>
        <source>Wrote {path}.</source>
        <translation>已写入 {path}。</translation>
    </message>
    <message>
        <source>must be a price above 0 and at most ¥{high:,.0f}</source>
        <translation>必须是大于 0、不超过 ¥{high:,.0f} 的价格</translation>
    </message>
    <message>
        <source>no part of this machine matched the catalogue: give a build file</source>
        <translation>本机没有任何部件与目录匹配：请提供配置文件</translation>
    </message>
    <message>
        <source>No catalogue change that the engine accepts lifts it.</source>
        <translation>目录中没有能通过引擎检查、又能解除该瓶颈的更换方案。</translation>
    </message>
    <message>
        <source>Benchmark run {id} ({device}):</source>
        <translation>基准测试运行 {id}（{device}）：</translation>
    </message>
    <message>
        <source>no stored benchmark run {id}</source>
        <translation>没有已保存的基准测试运行 {id}</translation>
    </message>
    <message>
        <source>training</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>inference</source>
        <translation>推理</translation>
    </message>
    <message>
        <source>prefill</source>
        <translation>预填充</translation>
    </message>
    <message>
        <source>decode</source>
        <translation>解码</translation>
    </message>
    <message>
        <source>serving</source>
        <translation>推理服务</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Task</source>
        <translation>任务</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>精度</translation>
    </message>
    <message>
        <source>Batch</source>
        <translation>批大小</translation>
    </message>
    <message>
        <source>Software</source>
        <translation>软件</translation>
    </message>
    <message>
        <source>this machine, run {run}, {date}</source>
        <translation>本机，第 {run} 次运行，{date}</translation>
    </message>
    <message>
        <source>{n} published measurements from {sources} sources; --json gives every field with its URL.</source>
        <translation>{n} 条公开测量数据，来自 {sources} 个来源；--json 给出每个字段及其来源网址。</translation>
    </message>
    <message>
        <source>{n} measurements of this machine&apos;s benchmarks: they calibrate the estimates of builds with the same GPU or CPU.</source>
        <translation>本机基准测试的 {n} 条测量值：用于校准使用相同 GPU 或 CPU 的配置的估算。</translation>
    </message>
    <message>
        <source>GPU class</source>
        <translation>GPU 类别</translation>
    </message>
    <message>
        <source>¥/GPU-hour</source>
        <translation>¥/卡时</translation>
    </message>
    <message>
        <source>Date</source>
        <translation>日期</translation>
    </message>
    <message>
        <source>Rented</source>
        <translation>租用内容</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>* your price (`cloud-prices reset CLASS` restores the shipped one).</source>
        <translation>* 你设置的价格（`cloud-prices reset CLASS` 可恢复为内置价格）。</translation>
    </message>
    <message>
        <source>no GPU class {name!r}; `configurator cloud-prices` lists them</source>
        <translation>没有 GPU 类别 {name!r}；`configurator cloud-prices` 可列出所有类别</translation>
    </message>
    <message>
        <source>say how many nodes take part</source>
        <translation>请说明有多少个节点参与</translation>
    </message>
    <message>
        <source>must be from 1 to {high:,}</source>
        <translation>必须在 1 到 {high:,} 之间</translation>
    </message>
    <message>
        <source>say which node this is (0 to N-1)</source>
        <translation>请说明这是第几个节点（0 到 N-1）</translation>
    </message>
    <message>
        <source>must be from 0 to {high} (--nnodes {n})</source>
        <translation>必须在 0 到 {high} 之间（--nnodes {n}）</translation>
    </message>
    <message>
        <source>say where the nodes meet: HOST:PORT of node 0, e.g. node1:29500</source>
        <translation>请说明节点在哪里汇合：节点 0 的 HOST:PORT，例如 node1:29500</translation>
    </message>
    <message>
        <source>must be from 1 to {high:g} seconds</source>
        <translation>必须在 1 到 {high:g} 秒之间</translation>
    </message>
    <message>
        <source>must be from 0 (automatic) to {high}</source>
        <translation>必须在 0（自动）到 {high} 之间</translation>
    </message>
    <message>
        <source>across nodes only the ddp workload runs: give --only ddp</source>
        <translation>跨节点时只运行 ddp 负载：请指定 --only ddp</translation>
    </message>
    <message>
        <source>runs the ddp workload only: add --only ddp</source>
        <translation>只运行 ddp 负载：请加上 --only ddp</translation>
    </message>
    <message>
        <source># node {rank}{host}</source>
        <translation># 节点 {rank}{host}</translation>
    </message>
    <message>
        <source> (hosts the rendezvous at {endpoint})</source>
        <translation>（在 {endpoint} 主持 rendezvous）</translation>
    </message>
    <message>
        <source>#   which runs: {command}</source>
        <translation>#   它运行：{command}</translation>
    </message>
    <message>
        <source># … and so on to node {last}</source>
        <translation># …… 依此类推，直到节点 {last}</translation>
    </message>
    <message>
        <source># Slurm: save as ddp.sbatch and run `sbatch ddp.sbatch`</source>
        <translation># Slurm：保存为 ddp.sbatch，然后运行 `sbatch ddp.sbatch`</translation>
    </message>
    <message>
        <source>Across {nnodes} nodes ({backend}, {world} processes): {nodes}</source>
        <translation>跨 {nnodes} 个节点（{backend}，{world} 个进程）：{nodes}</translation>
    </message>
    <message>
        <source>node {node} {rate:,.0f} samples/s</source>
        <translation>节点 {node} {rate:,.0f} 样本/秒</translation>
    </message>
    <message>
        <source>  rank {rank} (node {node}, {host}, local rank {local}): {rate:,.0f} samples/s</source>
        <translation>  rank {rank}（节点 {node}，{host}，本地 rank {local}）：{rate:,.0f} 样本/秒</translation>
    </message>
    <message>
        <source>Node 0 alone: {one:,.0f} samples/s; all {nnodes} nodes: {all:,.0f} samples/s, {speedup:.2f}× of an ideal {ideal:g}×{shared}</source>
        <translation>节点 0 单独：{one:,.0f} 样本/秒；全部 {nnodes} 个节点：{all:,.0f} 样本/秒，加速 {speedup:.2f}×，理想值 {ideal:g}×{shared}</translation>
    </message>
    <message>
        <source> (the nodes share one machine here: not a measure of the network)</source>
        <translation>（这些节点共用同一台机器：并不反映网络）</translation>
    </message>
    <message>
        <source>{n} models; `configurator models show ID` gives every field, its source and what is unverified.</source>
        <translation>共 {n} 个模型；`configurator models show ID` 给出每个字段、其来源以及哪些未经核实。</translation>
    </message>
    <message>
        <source>no model {id!r} in the catalogue (`configurator models list` shows the ids)</source>
        <translation>模型目录中没有 {id!r}（`configurator models list` 列出所有 ID）</translation>
    </message>
    <message>
        <source>config.json keys:</source>
        <translation>config.json 键：</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>键</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Bounds</source>
        <translation>取值范围</translation>
    </message>
    <message>
        <source>Default</source>
        <translation>默认值</translation>
    </message>
    <message>
        <source>required</source>
        <translation>必填</translation>
    </message>
</context>
<context>
    <name>cli-help</name>
    <message>
        <source>0 (default) allows a CPU-only build</source>
        <translation>0（默认）表示允许纯 CPU 配置</translation>
    </message>
    <message>
        <source>BUILD.json</source>
        <translation>BUILD.json</translation>
    </message>
    <message>
        <source>BUILD.json (default: this machine, detected)</source>
        <translation>BUILD.json（默认：自动检测本机）</translation>
    </message>
    <message>
        <source>CNY (required unless --target-throughput is given)</source>
        <translation>CNY（未指定 --target-throughput 时必填）</translation>
    </message>
    <message>
        <source>JSON: one document (--once) or one per line</source>
        <translation>以 JSON 输出：单个文档（--once）或每行一个文档</translation>
    </message>
    <message>
        <source>LLM inference and serving: the KV cache&apos;s element type, 16-bit (default) or fp8 (twice the tokens in the same memory)</source>
        <translation>大模型推理与服务：KV 缓存的元素类型，16-bit（默认）或 fp8（同样显存可容纳两倍 token）</translation>
    </message>
    <message>
        <source>OUT.pdf</source>
        <translation>OUT.pdf</translation>
    </message>
    <message>
        <source>Plan, watch and measure a PyTorch machine.</source>
        <translation>规划、监控与实测 PyTorch 主机。</translation>
    </message>
    <message>
        <source>RECORDING.csv (what `monitor --record` or the Monitor tab writes)</source>
        <translation>RECORDING.csv（由 `monitor --record` 或“监控”页写入的文件）</translation>
    </message>
    <message>
        <source>a model id from `models list`</source>
        <translation>`models list` 中的模型 id</translation>
    </message>
    <message>
        <source>a report of a training run from a monitor recording</source>
        <translation>根据监控记录生成一次训练运行的报告</translation>
    </message>
    <message>
        <source>add or update parts from a CSV (UTF-8 or GB18030)</source>
        <translation>从 CSV 文件（UTF-8 或 GB18030）添加或更新部件</translation>
    </message>
    <message>
        <source>allowed case sizes, comma-separated: sff, mid, full, rack</source>
        <translation>允许的机箱尺寸，以逗号分隔：sff, mid, full, rack</translation>
    </message>
    <message>
        <source>also cards sold used only (discontinued); they are marked used in the build (BUD-4)</source>
        <translation>也考虑只能买到二手的显卡（已停产）；它们会在配置中标为二手（BUD-4）</translation>
    </message>
    <message>
        <source>also import torch in each (slower): proves it loads and tells whether CUDA is available</source>
        <translation>同时在每个解释器中导入 torch（较慢）：验证能否加载，并显示 CUDA 是否可用</translation>
    </message>
    <message>
        <source>also show what the workers print on stderr</source>
        <translation>同时显示工作进程输出到 stderr 的内容</translation>
    </message>
    <message>
        <source>also write the full results (settings, details) here</source>
        <translation>另将完整结果（设置、详情）写入此文件</translation>
    </message>
    <message>
        <source>ambiguous option: {0} could match {1}</source>
        <translation>选项有歧义：{0} 可匹配 {1}</translation>
    </message>
    <message>
        <source>argument {0}: expected at least one argument</source>
        <translation>参数 {0}：至少需要提供一个值</translation>
    </message>
    <message>
        <source>argument {0}: expected one argument</source>
        <translation>参数 {0}：需要提供一个值</translation>
    </message>
    <message>
        <source>argument {0}: invalid choice: {1} (choose from {2})</source>
        <translation>参数 {0}：无效的取值：{1}（可选值：{2}）</translation>
    </message>
    <message>
        <source>argument {0}: invalid {1} value: {2}</source>
        <translation>参数 {0}：无效的 {1} 值：{2}</translation>
    </message>
    <message>
        <source>argument {0}: not allowed with argument {1}</source>
        <translation>参数 {0}：不能与参数 {1} 同时使用</translation>
    </message>
    <message>
        <source>auto (default): LLM training that fits no GPU may be sharded (FSDP) or use LoRA/QLoRA, and the answer says which</source>
        <translation>auto（默认）：任何显卡都放不下的 LLM 训练可改用分片（FSDP）或 LoRA/QLoRA，结果中会注明采用了哪种</translation>
    </message>
    <message>
        <source>back to the shipped price</source>
        <translation>恢复为内置价格</translation>
    </message>
    <message>
        <source>check a build file against the guides&apos; rules</source>
        <translation>按指南的规则检查配置文件</translation>
    </message>
    <message>
        <source>check drivers, CUDA, torch and the environment</source>
        <translation>检查驱动、CUDA、torch 及运行环境</translation>
    </message>
    <message>
        <source>checkpoints the run keeps (default 2 for training)</source>
        <translation>训练保留的检查点个数（训练默认 2 个）</translation>
    </message>
    <message>
        <source>cloud GPU rental prices for the break-even (BUD-3)</source>
        <translation>用于回本计算的云 GPU 租用价格（BUD-3）</translation>
    </message>
    <message>
        <source>cnn-train, bert-train, gpt-train, llm-prefill, llm-decode</source>
        <translation>cnn-train, bert-train, gpt-train, llm-prefill, llm-decode</translation>
    </message>
    <message>
        <source>comma-separated jobs or results, e.g. matmul,gpt2</source>
        <translation>以逗号分隔的任务或结果，例如 matmul,gpt2</translation>
    </message>
    <message>
        <source>database file (default: CONFIGURATOR_DB or the per-user data dir)</source>
        <translation>数据库文件（默认：CONFIGURATOR_DB 或当前用户的数据目录）</translation>
    </message>
    <message>
        <source>default 4, at most 8</source>
        <translation>默认 4，最多 8</translation>
    </message>
    <message>
        <source>do not open the database</source>
        <translation>不打开数据库</translation>
    </message>
    <message>
        <source>electricity price in ¥/kWh (default 0.6, the planner&apos;s)</source>
        <translation>电价，单位 ¥/kWh（默认 0.6，与规划器相同）</translation>
    </message>
    <message>
        <source>en or zh_CN (default: the system language)</source>
        <translation>en 或 zh_CN（默认：系统语言）</translation>
    </message>
    <message>
        <source>every field of one model, its source and its unverified fields</source>
        <translation>显示某个模型的全部字段、来源及未经核实的字段</translation>
    </message>
    <message>
        <source>every spec of one part</source>
        <translation>显示某个部件的全部规格</translation>
    </message>
    <message>
        <source>evidence: a monitor recording of a training run</source>
        <translation>依据：一次训练运行的监控记录</translation>
    </message>
    <message>
        <source>evidence: a stored benchmark run (its machine)</source>
        <translation>依据：一次已保存的基准测试运行（以其所测机器为准）</translation>
    </message>
    <message>
        <source>fastest within the budget (default), or cheapest that reaches --target-throughput</source>
        <translation>预算内最快（默认），或达到 --target-throughput 的最便宜方案</translation>
    </message>
    <message>
        <source>fp32, amp, bf16, fp16, int8 or int4 (default amp, as the Suggest dialog; serving bf16)</source>
        <translation>fp32、amp、bf16、fp16、int8 或 int4（默认 amp，与“推荐配置”对话框相同；推理服务默认 bf16）</translation>
    </message>
    <message>
        <source>full, lora or qlora (given: Suggest keeps it)</source>
        <translation>full、lora 或 qlora（指定后“推荐”不会更改）</translation>
    </message>
    <message>
        <source>global options (also accepted before the sub-command)</source>
        <translation>全局选项（也可放在子命令之前）</translation>
    </message>
    <message>
        <source>gpu, cpu, motherboard, memory, storage, psu, case, cooler or platform</source>
        <translation>gpu、cpu、motherboard、memory、storage、psu、case、cooler 或 platform</translation>
    </message>
    <message>
        <source>how many machines take part (start each the same way)</source>
        <translation>参与的机器数量（每台都以相同方式启动）</translation>
    </message>
    <message>
        <source>in the workload&apos;s unit (img/s, samples/s, tokens/s); implies --goal cheapest</source>
        <translation>以工作负载的单位计（img/s、samples/s、token/秒）；隐含 --goal cheapest</translation>
    </message>
    <message>
        <source>interpreter to run the benchmarks under (default: this one; in the app bundle, the first one found with torch)</source>
        <translation>运行基准测试所用的 Python 解释器（默认：当前解释器；在打包的应用中为找到的第一个装有 torch 的解释器）</translation>
    </message>
    <message>
        <source>link the run to this saved build</source>
        <translation>将本次运行关联到此已保存的配置</translation>
    </message>
    <message>
        <source>list parts</source>
        <translation>列出部件</translation>
    </message>
    <message>
        <source>list the Python interpreters found here, with their torch and CUDA</source>
        <translation>列出本机找到的 Python 解释器及其 torch 和 CUDA 版本</translation>
    </message>
    <message>
        <source>list the models (size, layers, heads, context, source)</source>
        <translation>列出模型（参数量、层数、注意力头数、上下文长度、来源）</translation>
    </message>
    <message>
        <source>list them (with source URL and software)</source>
        <translation>列出实测数据（附来源 URL 和软件版本）</translation>
    </message>
    <message>
        <source>none, zero1, zero2, zero3 or fsdp (given: Suggest keeps it)</source>
        <translation>none、zero1、zero2、zero3 或 fsdp（指定后“推荐”不会更改）</translation>
    </message>
    <message>
        <source>one of the arguments {0} is required</source>
        <translation>必须提供参数 {0} 之一</translation>
    </message>
    <message>
        <source>only this catalogue GPU id</source>
        <translation>只看目录中该 id 的 GPU</translation>
    </message>
    <message>
        <source>only upgrades up to this price</source>
        <translation>只考虑不超过此价格的升级</translation>
    </message>
    <message>
        <source>options</source>
        <translation>选项</translation>
    </message>
    <message>
        <source>positional arguments</source>
        <translation>位置参数</translation>
    </message>
    <message>
        <source>print one JSON document on stdout</source>
        <translation>在 stdout 上输出一个 JSON 文档</translation>
    </message>
    <message>
        <source>print one snapshot and exit (0 with or without a driver)</source>
        <translation>输出一次快照后退出（无论有无驱动，退出码均为 0）</translation>
    </message>
    <message>
        <source>print the command for each node and an sbatch script, and run nothing</source>
        <translation>输出每个节点的命令和一个 sbatch 脚本，不实际运行</translation>
    </message>
    <message>
        <source>processes on each node (default: one per GPU; one on the CPU)</source>
        <translation>每个节点的进程数（默认：每块 GPU 一个；仅 CPU 时为一个）</translation>
    </message>
    <message>
        <source>read a cluster from a Prometheus server (DCGM exporter, node_exporter, this app&apos;s exporter)</source>
        <translation>从 Prometheus 服务器读取集群数据（DCGM exporter、node_exporter、本应用的 exporter）</translation>
    </message>
    <message>
        <source>read the file as this encoding (e.g. latin-1, cp1252) instead of detecting UTF-8 or GB18030</source>
        <translation>按此编码读取文件（如 latin-1、cp1252），而不是自动识别 UTF-8 或 GB18030</translation>
    </message>
    <message>
        <source>record every sample to a CSV file (a new file, or see --force)</source>
        <translation>将每次采样记录到 CSV 文件（须为新文件，否则见 --force）</translation>
    </message>
    <message>
        <source>resnet18, resnet50, bert-base, gpt2, llama-7b … (default resnet50, as the Suggest dialog)</source>
        <translation>resnet18、resnet50、bert-base、gpt2、llama-7b 等（默认 resnet50，与“推荐”对话框一致）</translation>
    </message>
    <message>
        <source>rules a suggestion may warn on, comma-separated (BAL-1 cores per GPU, BAL-2 memory channels, BAL-3 RAM against VRAM, BAL-4 storage; for training CUD-4 an AMD card under ROCm, PCI-3 a GPU on a chipset or x4 link); by default they are constraints</source>
        <translation>允许推荐结果出现警告的规则，以逗号分隔（BAL-1 每 GPU 的 CPU 核数、BAL-2 内存通道、BAL-3 内存相对显存、BAL-4 存储；训练时还有 CUD-4 需 ROCm 的 AMD 显卡、PCI-3 接在芯片组或 x4 链路上的 GPU）；默认这些规则都是硬性约束</translation>
    </message>
    <message>
        <source>run the benchmark suite in child processes</source>
        <translation>在子进程中运行基准测试套件</translation>
    </message>
    <message>
        <source>save it as the build &quot;This machine&quot; (replacing an older one)</source>
        <translation>保存为名为“This machine”（本机）的配置（替换旧的同名配置）</translation>
    </message>
    <message>
        <source>seconds between samples (default 1)</source>
        <translation>两次采样之间的秒数（默认 1）</translation>
    </message>
    <message>
        <source>seconds each job may run (default: per suite)</source>
        <translation>每个任务最长可运行的秒数（默认：由测试套件决定）</translation>
    </message>
    <message>
        <source>seconds to wait for every node to join (default 300)</source>
        <translation>等待所有节点加入的秒数（默认 300）</translation>
    </message>
    <message>
        <source>serve N requests/s (task serve, open loop): with --goal cheapest (implied) the cheapest build whose estimate serves them</source>
        <translation>每秒服务 N 个请求（task serve，开环）：配合 --goal cheapest（隐含）给出估算能承载该负载的最便宜配置</translation>
    </message>
    <message>
        <source>serve Prometheus /metrics (e.g. 127.0.0.1:9400)</source>
        <translation>提供 Prometheus /metrics 接口（如 127.0.0.1:9400）</translation>
    </message>
    <message>
        <source>serving: mean output tokens per request</source>
        <translation>推理服务：每个请求的平均输出 token 数</translation>
    </message>
    <message>
        <source>serving: mean prompt tokens per request</source>
        <translation>推理服务：每个请求的平均提示词 token 数</translation>
    </message>
    <message>
        <source>serving: the median time per output token at most MS (judged on the central estimate)</source>
        <translation>推理服务：每个输出 token 的中位时间不超过 MS 毫秒（按中心估计判断）</translation>
    </message>
    <message>
        <source>serving: the median time to first token at most MS (judged on the central estimate)</source>
        <translation>推理服务：首 token 时间中位数不超过 MS 毫秒（按中心估计判断）</translation>
    </message>
    <message>
        <source>serving: vllm (default) or tensorrt-llm</source>
        <translation>推理服务：vllm（默认）或 tensorrt-llm</translation>
    </message>
    <message>
        <source>several nodes (the ddp workload through torchrun)</source>
        <translation>多节点（通过 torchrun 运行 ddp 负载）</translation>
    </message>
    <message>
        <source>shipped (published) or local (this machine&apos;s benchmarks); default both</source>
        <translation>shipped（内置的公开数据）或 local（本机的基准测试）；默认两者都列出</translation>
    </message>
    <message>
        <source>show this help message and exit</source>
        <translation>显示此帮助信息并退出</translation>
    </message>
    <message>
        <source>simulate N NVIDIA GPUs (demos, screenshots)</source>
        <translation>模拟 N 块 NVIDIA GPU（用于演示、截图）</translation>
    </message>
    <message>
        <source>stop after N samples</source>
        <translation>采样 N 次后停止</translation>
    </message>
    <message>
        <source>the JSON Schema itself</source>
        <translation>JSON Schema 本身</translation>
    </message>
    <message>
        <source>the JSON Schema of a build file or a part: every key, type and bound</source>
        <translation>构建文件或部件的 JSON Schema：每个键、类型和取值范围</translation>
    </message>
    <message>
        <source>the best build for a budget and workload</source>
        <translation>按预算和工作负载推荐最佳配置</translation>
    </message>
    <message>
        <source>the data set in GB (default: ImageNet-1k for image training)</source>
        <translation>数据集大小，单位 GB（默认：图像训练按 ImageNet-1k 计）</translation>
    </message>
    <message>
        <source>the fields of one category&apos;s part (a CSV column or a JSON key each)</source>
        <translation>某一类部件的字段（每个对应一个 CSV 列或 JSON 键）</translation>
    </message>
    <message>
        <source>the file to write (UTF-8 with BOM, for Excel); without it, the CSV goes to standard output</source>
        <translation>要写入的文件（带 BOM 的 UTF-8，便于 Excel 打开）；不指定则输出到标准输出</translation>
    </message>
    <message>
        <source>the following arguments are required: {0}</source>
        <translation>缺少以下必需参数：{0}</translation>
    </message>
    <message>
        <source>the guides&apos; tiers as build files</source>
        <translation>以配置文件形式给出指南中的各档配置</translation>
    </message>
    <message>
        <source>the keys of a build file (configurator.build/1)</source>
        <translation>构建文件（configurator.build/1）的键</translation>
    </message>
    <message>
        <source>the model catalogue: architectures a workload may name</source>
        <translation>模型库：工作负载可指定的模型架构</translation>
    </message>
    <message>
        <source>the part category</source>
        <translation>部件类别</translation>
    </message>
    <message>
        <source>the parts catalogue</source>
        <translation>部件库</translation>
    </message>
    <message>
        <source>the published measurements behind the throughput estimates</source>
        <translation>吞吐量估算所依据的公开实测数据</translation>
    </message>
    <message>
        <source>this machine as a build of catalogue parts (NVML, /proc, /sys)</source>
        <translation>把本机识别为由目录中部件组成的配置（NVML、/proc、/sys）</translation>
    </message>
    <message>
        <source>this machine&apos;s number, 0 to N-1; node 0 reports</source>
        <translation>本机的编号，0 到 N-1；由节点 0 汇报结果</translation>
    </message>
    <message>
        <source>torch threads in the workers</source>
        <translation>工作进程中的 torch 线程数</translation>
    </message>
    <message>
        <source>train, infer or serve (default train; serve with --request-rate)</source>
        <translation>train、infer 或 serve（默认 train；serve 需配合 --request-rate）</translation>
    </message>
    <message>
        <source>unrecognized arguments: {0}</source>
        <translation>无法识别的参数：{0}</translation>
    </message>
    <message>
        <source>usage: </source>
        <translation>用法： </translation>
    </message>
    <message>
        <source>watch the GPUs and the host (NVML + psutil)</source>
        <translation>监控 GPU 和主机（NVML + psutil）</translation>
    </message>
    <message>
        <source>what holds a build back, and the cheapest checked upgrade</source>
        <translation>找出配置的瓶颈，以及经过检查的最便宜升级方案</translation>
    </message>
    <message>
        <source>where the DataLoader job writes its files (the disk to test)</source>
        <translation>DataLoader 任务写入文件的目录（即要测试的磁盘）</translation>
    </message>
    <message>
        <source>where the nodes meet: node 0&apos;s address and a free port (torchrun&apos;s c10d rendezvous)</source>
        <translation>节点汇合地址：节点 0 的地址和一个空闲端口（torchrun 的 c10d rendezvous）</translation>
    </message>
    <message>
        <source>with --prometheus: seconds a query may take (default 5)</source>
        <translation>配合 --prometheus：单次查询最长可用的秒数（默认 5）</translation>
    </message>
    <message>
        <source>with --record: overwrite the file if it exists</source>
        <translation>配合 --record：文件已存在时覆盖</translation>
    </message>
    <message>
        <source>with --serve: the hostname label of the metrics (default: this host&apos;s name)</source>
        <translation>配合 --serve：指标的 hostname 标签值（默认：本机主机名）</translation>
    </message>
    <message>
        <source>write a CSV to fill with your own parts: the required columns marked, one example row</source>
        <translation>写出一个 CSV 模板供填写自己的配件：标明必填列，附一行示例</translation>
    </message>
    <message>
        <source>write a build sheet (A4 PDF); works without a display</source>
        <translation>生成配置单（A4 PDF）；无需图形界面也可运行</translation>
    </message>
    <message>
        <source>write every part to a CSV (UTF-8 with BOM)</source>
        <translation>将所有部件写入 CSV 文件（UTF-8 带 BOM）</translation>
    </message>
    <message>
        <source>write the report as an A4 PDF</source>
        <translation>将报告输出为 A4 PDF</translation>
    </message>
    <message>
        <source>your own price per GPU and hour for a GPU class (kept across upgrades)</source>
        <translation>为某类 GPU 设置你自己的每卡每小时价格（应用升级后仍保留）</translation>
    </message>
</context>
<context>
    <name>cloud</name>
    <message>
        <source>on demand</source>
        <translation>按需计费</translation>
    </message>
    <message>
        <source>spot</source>
        <translation>竞价实例</translation>
    </message>
    <message>
        <source>reserved</source>
        <translation>预留实例</translation>
    </message>
    <message>
        <source>per card</source>
        <translation>按卡计价</translation>
    </message>
    <message>
        <source>the instance&apos;s price ÷ {n}</source>
        <translation>整机价格 ÷ {n}</translation>
    </message>
    <message>
        <source>{label}, {more}</source>
        <translation>{label}，{more}</translation>
    </message>
    <message>
        <source>must be a number from {low} to {high:,.0f}, not {got}</source>
        <translation>必须是 {low} 到 {high:,.0f} 之间的数，而不是 {got}</translation>
    </message>
    <message>
        <source>{file} {where}: {problem}</source>
        <translation>{file} {where}：{problem}</translation>
    </message>
    <message>
        <source>{file} cannot be read: {error}</source>
        <translation>无法读取 {file}：{error}</translation>
    </message>
    <message>
        <source>must be a number of CNY per USD from {low:g} to {high:g}, not {got}</source>
        <translation>必须是 {low:g} 到 {high:g} 之间的美元兑人民币汇率，而不是 {got}</translation>
    </message>
    <message>
        <source>must be a list of [[price]] tables</source>
        <translation>必须是由 [[price]] 表组成的列表</translation>
    </message>
    <message>
        <source>must be a [[price]] table</source>
        <translation>必须是一个 [[price]] 表</translation>
    </message>
    <message>
        <source>must be a non-empty text</source>
        <translation>必须是非空文本</translation>
    </message>
    <message>
        <source>must be a list of GPU ids</source>
        <translation>必须是 GPU id 的列表</translation>
    </message>
    <message>
        <source>must be a whole number of GPUs from 1 to 64, not {got}</source>
        <translation>必须是 1 到 64 之间的整数块 GPU，而不是 {got}</translation>
    </message>
    <message>
        <source>must be a text</source>
        <translation>必须是文本</translation>
    </message>
    <message>
        <source>must be one of {choices}, not {got}</source>
        <translation>必须是 {choices} 之一，而不是 {got}</translation>
    </message>
</context>
<context>
    <name>csv</name>
    <message>
        <source>cannot be read: {error}</source>
        <translation>无法读取：{error}</translation>
    </message>
    <message>
        <source>is not a part field (see `configurator parts export` for the columns)</source>
        <translation>不是部件字段（列名见 `configurator parts export`）</translation>
    </message>
    <message>
        <source>column is missing</source>
        <translation>缺少此列</translation>
    </message>
    <message>
        <source>has a header but no parts</source>
        <translation>只有表头，没有部件</translation>
    </message>
    <message>
        <source>has {n} more cells than the header has columns</source>
        <translation>比表头多出 {n} 个单元格</translation>
    </message>
    <message>
        <source>required</source>
        <translation>必填</translation>
    </message>
    <message>
        <source>optional</source>
        <translation>选填</translation>
    </message>
    <message>
        <source>optional, empty: {default}</source>
        <translation>选填，留空为 {default}</translation>
    </message>
    <message>
        <source>the day of the import</source>
        <translation>导入当天</translation>
    </message>
    <message>
        <source>one of {choices}</source>
        <translation>取值之一：{choices}</translation>
    </message>
    <message>
        <source>a list: A; B</source>
        <translation>列表：A; B</translation>
    </message>
    <message>
        <source>a JSON list, as `configurator parts export` writes it</source>
        <translation>JSON 列表，格式同 `configurator parts export` 的输出</translation>
    </message>
    <message>
        <source>{mark} (rows whose first cell starts with # are skipped)</source>
        <translation>{mark}（首个单元格以 # 开头的行会被跳过）</translation>
    </message>
    <message>
        <source>lowercase brand-model, e.g. nvidia-rtx-4090-used</source>
        <translation>小写的“品牌-型号”，如 nvidia-rtx-4090-used</translation>
    </message>
    <message>
        <source>yuan</source>
        <translation>元</translation>
    </message>
    <message>
        <source>2026-11 or 2026-11-29</source>
        <translation>2026-11 或 2026-11-29</translation>
    </message>
    <message>
        <source>a spec page&apos;s URL, or where the figures come from in words</source>
        <translation>规格页面网址，或用文字说明数据来源</translation>
    </message>
    <message>
        <source>unknown encoding {encoding!r}: use one of {choices}</source>
        <translation>未知的编码 {encoding!r}：请使用 {choices} 之一</translation>
    </message>
    <message>
        <source>is not {encoding} text (this line has a byte that is not): check the encoding</source>
        <translation>不是 {encoding} 文本（此行有一个不符合该编码的字节）：请检查编码</translation>
    </message>
    <message>
        <source>the file is not UTF-8 or GB18030 (this line has a byte that is neither): save it as CSV UTF-8 and try again, or name its encoding (configurator parts import --encoding cp1252)</source>
        <translation>文件既不是 UTF-8 也不是 GB18030 编码（此行有一个两种编码都不符合的字节）：请另存为 CSV UTF-8 后重试，或指定其编码（configurator parts import --encoding cp1252）</translation>
    </message>
    <message>
        <source>has a cell longer than {limit} KiB, the most a cell may hold (is this a parts CSV?); nothing after it was read</source>
        <translation>有单元格超过 {limit} KiB，即单元格的上限（这是部件 CSV 吗？）；其后的内容均未读取</translation>
    </message>
    <message>
        <source>cannot be read as CSV: {error}; nothing after it was read</source>
        <translation>无法按 CSV 读取：{error}；其后的内容均未读取</translation>
    </message>
    <message>
        <source>this line has a byte the encoding cannot read: check the encoding</source>
        <translation>此行有该编码无法读取的字节：请检查编码</translation>
    </message>
    <message>
        <source>is too large a number ({digits} digits)</source>
        <translation>数字过大（{digits} 位）</translation>
    </message>
    <message>
        <source>is too large a number (at most 9,223,372,036,854,775,807)</source>
        <translation>数字过大（最大为 9,223,372,036,854,775,807）</translation>
    </message>
    <message>
        <source>must be a finite number, not {got!r}</source>
        <translation>必须是有限的数字，而不是 {got!r}</translation>
    </message>
    <message>
        <source>contains a NUL byte (\0): is this a text file? Save it as CSV UTF-8</source>
        <translation>包含 NUL 字节（\0）：这是文本文件吗？请另存为 CSV UTF-8</translation>
    </message>
    <message>
        <source>contains a lone surrogate (\ud800–\udfff), which is not text</source>
        <translation>包含孤立的代理字符（\ud800–\udfff），这不是有效的文本</translation>
    </message>
    <message>
        <source>must be one of {choices}, not {got!r}</source>
        <translation>必须是 {choices} 之一，而不是 {got!r}</translation>
    </message>
    <message>
        <source>{id} is already on line {other}</source>
        <translation>{id} 已在第 {other} 行出现</translation>
    </message>
    <message>
        <source>{id} is a {old} part, not a {new}</source>
        <translation>{id} 是 {old} 类部件，不是 {new}</translation>
    </message>
    <message>
        <source>{id} is a catalogue part: only price_cny and price_date can change (changed: {fields}); give your variant a new id to add it as a custom part</source>
        <translation>{id} 是目录部件：只能修改 price_cny 和 price_date（已修改：{fields}）；如需添加变体，请使用新的 ID 作为自定义部件</translation>
    </message>
    <message>
        <source>cannot be written ({error}); nothing was imported</source>
        <translation>无法写入（{error}）；未导入任何内容</translation>
    </message>
</context>
<context>
    <name>detect</name>
    <message>
        <source>no catalogue part matches “{reported}”: pick it</source>
        <translation>目录中没有与“{reported}”匹配的部件：请手动选择</translation>
    </message>
    <message>
        <source>the reported name fits {n} catalogue parts; the first is taken: check it</source>
        <translation>报告的名称符合目录中的 {n} 个部件；已取第一个：请核对</translation>
    </message>
    <message>
        <source>the driver does not name this card; its PCI id {pci} does (look it up in the PCI ID Repository, or update the driver): pick it</source>
        <translation>驱动程序无法识别这张卡的型号，但它的 PCI ID {pci} 可以（在 PCI ID Repository 中查询，或更新驱动程序）：请手动选择</translation>
    </message>
    <message>
        <source>the card reports {reported} GB, the catalogue&apos;s {name} has {catalogue} GB: check it</source>
        <translation>该卡报告 {reported} GB 显存，目录中的 {name} 为 {catalogue} GB：请核对</translation>
    </message>
    <message>
        <source>only the total size is readable (the modules&apos; make and speed need root): a kit of that size is assumed; pick yours</source>
        <translation>只能读取内存总容量（内存条的品牌和频率需要 root 权限）：已假定一套该容量的内存，请选择您实际的型号</translation>
    </message>
    <message>
        <source>the power supply and the case cannot be read from the system: add them to judge power and fit</source>
        <translation>系统无法读出电源和机箱：请补充它们，以便判断供电和安装空间</translation>
    </message>
    <message>
        <source>no GPU was read ({error}): the GPUs are left for you to pick</source>
        <translation>未能读取 GPU（{error}）：请手动选择 GPU</translation>
    </message>
    <message>
        <source>This machine</source>
        <translation>本机</translation>
    </message>
    <message>
        <source>unknown: pick it</source>
        <translation>未知：请选择</translation>
    </message>
</context>
<context>
    <name>doctor</name>
    <message>
        <source>NVIDIA driver</source>
        <translation>NVIDIA 驱动</translation>
    </message>
    <message>
        <source>CUDA runtime vs driver</source>
        <translation>CUDA 运行时与驱动</translation>
    </message>
    <message>
        <source>torch.version.cuda</source>
        <translation>torch.version.cuda</translation>
    </message>
    <message>
        <source>cuDNN</source>
        <translation>cuDNN</translation>
    </message>
    <message>
        <source>torch.cuda.is_available()</source>
        <translation>torch.cuda.is_available()</translation>
    </message>
    <message>
        <source>Compute capability vs torch&apos;s architectures</source>
        <translation>计算能力与 torch 支持的架构</translation>
    </message>
    <message>
        <source>PCIe link</source>
        <translation>PCIe 链路</translation>
    </message>
    <message>
        <source>CPU threads</source>
        <translation>CPU 线程</translation>
    </message>
    <message>
        <source>Operating system / WSL2</source>
        <translation>操作系统 / WSL2</translation>
    </message>
    <message>
        <source>Isolated Python environment</source>
        <translation>隔离的 Python 环境</translation>
    </message>
    <message>
        <source>pip check</source>
        <translation>pip check</translation>
    </message>
    <message>
        <source>Non-ASCII characters in model paths</source>
        <translation>模型路径中的非 ASCII 字符</translation>
    </message>
    <message>
        <source>no NVIDIA GPU found: the benchmarks run on the CPU</source>
        <translation>未发现 NVIDIA GPU：基准测试在 CPU 上运行</translation>
    </message>
    <message>
        <source>{n} NVIDIA GPU(s) on the PCI bus, but no driver is loaded (nvidia-smi is missing or fails)</source>
        <translation>PCI 总线上有 {n} 块 NVIDIA GPU，但没有加载驱动（nvidia-smi 缺失或运行失败）</translation>
    </message>
    <message>
        <source>Install the NVIDIA driver (Ubuntu: sudo ubuntu-drivers install), reboot, then check that nvidia-smi lists the card.</source>
        <translation>安装 NVIDIA 驱动（Ubuntu：sudo ubuntu-drivers install），重启，然后确认 nvidia-smi 能列出显卡。</translation>
    </message>
    <message>
        <source>driver {version}, supports CUDA up to {cuda}</source>
        <translation>驱动 {version}，最高支持 CUDA {cuda}</translation>
    </message>
    <message>
        <source>torch cannot be imported: {error}</source>
        <translation>无法导入 torch：{error}</translation>
    </message>
    <message>
        <source>Install PyTorch into this environment (pip install torch, with the index URL from pytorch.org for your CUDA version).</source>
        <translation>在此环境中安装 PyTorch（pip install torch，并使用 pytorch.org 上与你的 CUDA 版本对应的索引地址）。</translation>
    </message>
    <message>
        <source>torch {version} is a CPU-only build, but this machine has an NVIDIA GPU</source>
        <translation>torch {version} 是仅 CPU 版本，但这台机器有 NVIDIA GPU</translation>
    </message>
    <message>
        <source>Install a CUDA build: pip install torch --index-url https://download.pytorch.org/whl/cu128 (pick the CUDA version your driver supports).</source>
        <translation>安装 CUDA 版本：pip install torch --index-url https://download.pytorch.org/whl/cu128（选择驱动支持的 CUDA 版本）。</translation>
    </message>
    <message>
        <source>torch {version}, CPU-only build (no CUDA)</source>
        <translation>torch {version}，仅 CPU 版本（无 CUDA）</translation>
    </message>
    <message>
        <source>torch {version} built for CUDA {cuda}</source>
        <translation>torch {version}，为 CUDA {cuda} 构建</translation>
    </message>
    <message>
        <source>torch&apos;s CUDA {cuda} runtime needs driver {need} or newer; this driver is {have}</source>
        <translation>torch 的 CUDA {cuda} 运行时需要 {need} 或更新的驱动；当前驱动为 {have}</translation>
    </message>
    <message>
        <source>Update the NVIDIA driver, or install a torch build for an older CUDA (pip wheels bundle the CUDA runtime and cuDNN: only the driver must be new enough).</source>
        <translation>更新 NVIDIA 驱动，或安装面向较旧 CUDA 的 torch（pip 安装包自带 CUDA 运行时和 cuDNN：只需驱动足够新）。</translation>
    </message>
    <message>
        <source>the pip wheel bundles CUDA {cuda}; driver {have} is new enough</source>
        <translation>pip 安装包自带 CUDA {cuda}；驱动 {have} 足够新</translation>
    </message>
    <message>
        <source>nothing to match: no CUDA build of torch with an NVIDIA driver</source>
        <translation>无需匹配：没有 CUDA 版 torch 与 NVIDIA 驱动的组合</translation>
    </message>
    <message>
        <source>True: {n} device(s)</source>
        <translation>True：{n} 个设备</translation>
    </message>
    <message>
        <source>False although an NVIDIA GPU is present{why}</source>
        <translation>有 NVIDIA GPU，但结果为 False{why}</translation>
    </message>
    <message>
        <source>Usually the driver is too old for this torch build or was updated without a reboot; check the driver line above, reboot, and that CUDA_VISIBLE_DEVICES is not empty.</source>
        <translation>通常是驱动对此 torch 版本来说太旧，或更新驱动后未重启；请查看上面的驱动一行、重启，并确认 CUDA_VISIBLE_DEVICES 不为空。</translation>
    </message>
    <message>
        <source>cuDNN {version} (bundled with torch)</source>
        <translation>cuDNN {version}（随 torch 自带）</translation>
    </message>
    <message>
        <source>torch cannot load cuDNN</source>
        <translation>torch 无法加载 cuDNN</translation>
    </message>
    <message>
        <source>Reinstall torch from the pip wheel (it bundles cuDNN); remove a system cuDNN from LD_LIBRARY_PATH if it shadows the bundled one.</source>
        <translation>用 pip 安装包重新安装 torch（自带 cuDNN）；如果系统 cuDNN 在 LD_LIBRARY_PATH 中遮盖了自带的版本，请将其移除。</translation>
    </message>
    <message>
        <source>CUDA is not usable, so cuDNN cannot be checked</source>
        <translation>CUDA 不可用，无法检查 cuDNN</translation>
    </message>
    <message>
        <source>torch has no CUDA</source>
        <translation>torch 不含 CUDA</translation>
    </message>
    <message>
        <source>{gpus} not in this torch build&apos;s architectures: {archs}</source>
        <translation>{gpus} 不在此 torch 版本支持的架构中：{archs}</translation>
    </message>
    <message>
        <source>Install a torch build that lists this architecture (a newer CUDA wheel for new GPUs, an older one for old GPUs).</source>
        <translation>安装支持该架构的 torch（新 GPU 用较新 CUDA 的安装包，老 GPU 用较旧的）。</translation>
    </message>
    <message>
        <source>every GPU is covered by {archs}</source>
        <translation>所有 GPU 都在 {archs} 范围内</translation>
    </message>
    <message>
        <source>no usable CUDA device</source>
        <translation>没有可用的 CUDA 设备</translation>
    </message>
    <message>
        <source>the link could not be read</source>
        <translation>无法读取链路信息</translation>
    </message>
    <message>
        <source>a GPU runs on fewer lanes than it supports: {links}</source>
        <translation>有 GPU 运行的通道数少于其支持的数量：{links}</translation>
    </message>
    <message>
        <source>Move the card to a CPU-attached x16 slot, reseat it, or check which M.2 or slot shares its lanes (board manual).</source>
        <translation>把显卡移到直连 CPU 的 x16 插槽、重新插紧，或查看主板手册中哪个 M.2 或插槽与它共享通道。</translation>
    </message>
    <message>
        <source>torch uses {torch} threads of {usable} usable ({physical} cores); OMP_NUM_THREADS={omp}</source>
        <translation>torch 使用 {torch} 个线程，可用 {usable} 个（{physical} 个核心）；OMP_NUM_THREADS={omp}</translation>
    </message>
    <message>
        <source>Unset OMP_NUM_THREADS or set it to the number of physical cores; check the process&apos;s CPU affinity (taskset, container CPU limits).</source>
        <translation>取消设置 OMP_NUM_THREADS，或将其设为物理核心数；检查进程的 CPU 亲和性（taskset、容器的 CPU 限制）。</translation>
    </message>
    <message>
        <source>WSL 1: CUDA does not work under WSL 1</source>
        <translation>WSL 1：CUDA 无法在 WSL 1 下工作</translation>
    </message>
    <message>
        <source>Convert the distribution: wsl --set-version &lt;distro&gt; 2</source>
        <translation>转换发行版：wsl --set-version &lt;distro&gt; 2</translation>
    </message>
    <message>
        <source>WSL2 ({release}): use the Windows NVIDIA driver, do not install a Linux driver inside WSL</source>
        <translation>WSL2（{release}）：使用 Windows 端的 NVIDIA 驱动，不要在 WSL 内安装 Linux 驱动</translation>
    </message>
    <message>
        <source>native Windows: the guides recommend Ubuntu LTS or WSL2</source>
        <translation>原生 Windows：指南推荐 Ubuntu LTS 或 WSL2</translation>
    </message>
    <message>
        <source>Install WSL2 (wsl --install) and run the training inside it.</source>
        <translation>安装 WSL2（wsl --install），并在其中运行训练。</translation>
    </message>
    <message>
        <source>{os}</source>
        <translation>{os}</translation>
    </message>
    <message>
        <source>isolated: {prefix}</source>
        <translation>已隔离：{prefix}</translation>
    </message>
    <message>
        <source>Python runs from the system installation {prefix}</source>
        <translation>Python 运行自系统安装 {prefix}</translation>
    </message>
    <message>
        <source>Create a virtual environment (python -m venv .venv) or a conda environment per project.</source>
        <translation>为每个项目创建虚拟环境（python -m venv .venv）或 conda 环境。</translation>
    </message>
    <message>
        <source>pip is not available in this environment</source>
        <translation>此环境中没有 pip</translation>
    </message>
    <message>
        <source>no broken requirements</source>
        <translation>没有损坏的依赖</translation>
    </message>
    <message>
        <source>{n} conflict(s): {lines}</source>
        <translation>{n} 处冲突：{lines}</translation>
    </message>
    <message>
        <source>Install the versions pip asks for (pip install &apos;package==version&apos;), or start a fresh environment; conda list / pip list shows what is there.</source>
        <translation>安装 pip 要求的版本（pip install &apos;package==version&apos;），或新建一个环境；conda list / pip list 可查看已安装的内容。</translation>
    </message>
    <message>
        <source>non-ASCII characters in {paths}</source>
        <translation>{paths} 中含有非 ASCII 字符</translation>
    </message>
    <message>
        <source>Keep models and caches under ASCII-only paths: e.g. export HF_HOME=/data/hf TORCH_HOME=/data/torch, and run from an ASCII folder.</source>
        <translation>把模型和缓存放在只含 ASCII 字符的路径下：例如 export HF_HOME=/data/hf TORCH_HOME=/data/torch，并在 ASCII 路径的文件夹中运行。</translation>
    </message>
    <message>
        <source>ASCII only: {paths}</source>
        <translation>仅含 ASCII：{paths}</translation>
    </message>
</context>
<context>
    <name>estimates</name>
    <message>
        <source>, checkpointing</source>
        <translation>，梯度检查点</translation>
    </message>
    <message>
        <source>fits</source>
        <translation>装得下</translation>
    </message>
    <message>
        <source>tight</source>
        <translation>偏紧</translation>
    </message>
    <message>
        <source>does not fit</source>
        <translation>装不下</translation>
    </message>
    <message>
        <source>, {lo:g}–{hi:g} GiB for the display</source>
        <translation>，显示输出 {lo:g}–{hi:g} GiB</translation>
    </message>
    <message>
        <source>compute</source>
        <translation>算力</translation>
    </message>
    <message>
        <source>memory</source>
        <translation>访存带宽</translation>
    </message>
    <message>
        <source>power</source>
        <translation>功耗</translation>
    </message>
    <message>
        <source>launch-overhead</source>
        <translation>内核启动开销</translation>
    </message>
    <message>
        <source>communication</source>
        <translation>通信</translation>
    </message>
    <message>
        <source>host-transfer</source>
        <translation>主机传输</translation>
    </message>
    <message>
        <source> (the default: the build does not name one)</source>
        <translation>（默认值：构建未指定）</translation>
    </message>
    <message>
        <source> (the build&apos;s)</source>
        <translation>（构建所指定）</translation>
    </message>
    <message>
        <source>tensor</source>
        <translation>Tensor Core</translation>
    </message>
    <message>
        <source>shader (SIMT)</source>
        <translation>着色器（SIMT）</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>, and at least ×{lo:g}–×{hi:g} of the estimate (published fine-tuning peak memory against this estimate: 10th–90th percentile)</source>
        <translation>，且至少为估算值的 ×{lo:g}–×{hi:g}（已发布的微调峰值显存相对本估算：第 10–90 百分位）</translation>
    </message>
    <message>
        <source> Optimizer in backward: one parameter&apos;s gradient at a time ({g:.2f} GiB), none stored.</source>
        <translation> 优化器融入反向传播：每次只保留一个参数的梯度（{g:.2f} GiB），不存储全部梯度。</translation>
    </message>
    <message>
        <source> Chunked cross-entropy: one chunk&apos;s logits and gradients ({lg:.2f} GiB), no full log-softmax saved.</source>
        <translation> 分块交叉熵：只保留一个分块的 logits 和梯度（{lg:.2f} GiB），不保存完整的 log-softmax。</translation>
    </message>
    <message>
        <source> Paged optimizer: its {o:.1f} GiB of states can page out to host RAM under pressure (the low end assumes they do; the host needs the same room).</source>
        <translation> 分页优化器：其 {o:.1f} GiB 的状态在显存紧张时可换页到主机内存（下限按已换出计算；主机需留出同样大小的空间）。</translation>
    </message>
    <message>
        <source> Activation offload: {host:.1f} GiB of saved tensors in pinned host memory, one layer&apos;s on the GPU.</source>
        <translation> 激活卸载：{host:.1f} GiB 的保存张量位于锁页主机内存中，GPU 上只保留一层的。</translation>
    </message>
    <message>
        <source> Optimizer offload: {off:.1f} GiB of states (and master weights) in host RAM.</source>
        <translation> 优化器卸载：{off:.1f} GiB 的状态（及主权重）位于主机内存中。</translation>
    </message>
    <message>
        <source> FP8 KV cache: {kv:.2f} GiB at 1 B per cached K or V element (a 16-bit cache takes twice that).</source>
        <translation> FP8 KV 缓存：{kv:.2f} GiB，每个缓存的 K 或 V 元素 1 B（16 位缓存占用两倍）。</translation>
    </message>
    <message>
        <source>{low:.1f}–{high:.1f} GiB ({verdict} in {vram} GiB). Counted: weights, the activations alive in a forward pass at batch {batch} ({precision}, {attention} attention), KV cache, {ctx:g} GiB CUDA context, {frag:.0%} allocator margin{display}.{options} Range: activations ±{err:.0%} (the validation against PyTorch), allocator 0–25 %, context {ctx_low:g}–{ctx_high:g} GiB. Not counted: cuDNN benchmark workspaces, NCCL buffers, other processes.</source>
        <translation>{low:.1f}–{high:.1f} GiB（在 {vram} GiB 中{verdict}）。计入：权重、批大小 {batch} 时一次前向传播中同时存在的激活（{precision}，{attention} 注意力）、KV 缓存、{ctx:g} GiB CUDA 上下文、{frag:.0%} 分配器余量{display}。{options} 范围：激活 ±{err:.0%}（对照 PyTorch 的验证），分配器 0–25 %，上下文 {ctx_low:g}–{ctx_high:g} GiB。未计入：cuDNN benchmark 工作区、NCCL 缓冲区、其他进程。</translation>
    </message>
    <message>
        <source>GPUs at board power + CPU at TDP + platform: the draw while serving under load, an upper figure (decoding is bound by memory bandwidth more than by compute; a lightly loaded server draws less).</source>
        <translation>GPU 按板卡功耗 + CPU 按 TDP + 平台：负载下服务时的功耗，为偏高的估计（解码受显存带宽限制多于受算力限制；负载较轻的服务器功耗更低）。</translation>
    </message>
    <message>
        <source>GPUs at board power + CPU at TDP + platform: the average draw while training.</source>
        <translation>GPU 按整卡功耗 + CPU 按 TDP + 平台：训练时的平均功耗。</translation>
    </message>
    <message>
        <source>Largest per-GPU batch whose estimate fits {vram} GiB even at the high end of its range.</source>
        <translation>按估算范围的上限仍能装入 {vram} GiB 的最大每卡批大小。</translation>
    </message>
    <message>
        <source>No throughput: the workload does not fit in GPU memory ({need:.1f} GiB per GPU estimated, {have} GiB on the card; FIT-1). RAM-4 lists what makes it fit.</source>
        <translation>不给出吞吐量：该负载放不进显存（估算每卡 {need:.1f} GiB，显卡只有 {have} GiB；FIT-1）。RAM-4 列出了能让它放下的办法。</translation>
    </message>
    <message>
        <source>The tokens/s of the machine, summed over the batch: {copies} copies of the model, each split over {k} GPUs ({parallel} parallel, over {link}) and decoding {batch} stream(s) together; each GPU reads its share of the weights, the collectives per layer cost the link&apos;s latency and bandwidth (the one-GPU figure above is this split model&apos;s).</source>
        <translation>整机的 token/秒，按批次内各序列求和：{copies} 份模型副本，每份拆分到 {k} 块 GPU（{parallel}并行，经 {link}），同时解码 {batch} 个序列；每块 GPU 读取自己那份权重，每层的集合通信计入链路的延迟和带宽（上面的单 GPU 数值即此拆分模型的数值）。</translation>
    </message>
    <message>
        <source>The tokens/s of the machine, summed over the batch: {n} GPU(s), each decoding {batch} stream(s) together (more GPUs serve more streams; they do not make one stream faster without tensor or pipeline parallelism).</source>
        <translation>整机的 token/秒，按批次内各序列求和：{n} 块 GPU，每块同时解码 {batch} 个序列（更多 GPU 可服务更多序列；没有张量或流水线并行时，并不能让单个序列更快）。</translation>
    </message>
    <message>
        <source>One GPU: the whole build&apos;s figure is its own.</source>
        <translation>一张 GPU：整机的数字即它自己的。</translation>
    </message>
    <message>
        <source>, LoRA adapters only</source>
        <translation>，仅 LoRA 适配器</translation>
    </message>
    <message>
        <source>At {offered:,g} requests in flight ({prompt:,} prompt and {output:,} output tokens each) in {runtime}</source>
        <translation>在 {runtime} 中同时处理 {offered:,g} 个请求（每个请求 {prompt:,} 个提示 token、{output:,} 个输出 token）时</translation>
    </message>
    <message>
        <source>At {offered:,g} requests/s ({prompt:,} prompt and {output:,} output tokens each) in {runtime}</source>
        <translation>在 {runtime} 中每秒 {offered:,g} 个请求（每个请求 {prompt:,} 个提示 token、{output:,} 个输出 token）时</translation>
    </message>
    <message>
        <source>{engines} copies of the model, one per GPU</source>
        <translation>模型共 {engines} 份，每张 GPU 一份</translation>
    </message>
    <message>
        <source>one copy over {tp} GPUs (tensor parallel, {link})</source>
        <translation>一份模型跨 {tp} 张 GPU（张量并行，{link}）</translation>
    </message>
    <message>
        <source>one copy of the model on one GPU</source>
        <translation>一张 GPU 上运行一份模型</translation>
    </message>
    <message>
        <source>{load}, {engines}: the KV cache holds ≈ {value:,.0f} sequences ({low:,.0f}–{high:,.0f}): {budget:.1f} GiB per GPU left for it ({fraction:.0%} of the card less {weights:.1f} GiB of weights, the prompt chunk&apos;s activations and CUDA graphs), {kv:,.0f} KiB per token (2 × layers × KV heads × head width × 2 B per GPU), sequences holding prompt + output/2 tokens on average (low: all at full length); at most {cap} per copy (the runtime&apos;s batch limit).</source>
        <translation>{load}，{engines}：KV 缓存可容纳约 {value:,.0f} 个序列（{low:,.0f}–{high:,.0f}）：每张 GPU 留给它 {budget:.1f} GiB（显卡的 {fraction:.0%}，减去 {weights:.1f} GiB 权重、提示分块的激活和 CUDA 图），每个 token {kv:,.0f} KiB（每张 GPU 上 2 × 层数 × KV 头数 × 头宽 × 2 B），序列平均占用提示 + 输出/2 个 token（下限：全部按完整长度）；每份模型最多 {cap} 个（运行时的批大小上限）。</translation>
    </message>
    <message>
        <source>{load}, {engines}: the KV cache holds ≈ {value:,.0f} sequences ({low:,.0f}–{high:,.0f}): {budget:.1f} GiB per GPU left for it ({fraction:.0%} of the memory left beside {weights:.1f} GiB of weights, the prompt chunk&apos;s activations and CUDA graphs), {kv:,.0f} KiB per token (2 × layers × KV heads × head width × 2 B per GPU), each request&apos;s whole prompt + output reserved when it starts (TensorRT-LLM&apos;s default scheduler, guaranteed no-evict); at most {cap} per copy (the runtime&apos;s batch limit).</source>
        <translation>{load}，{engines}：KV 缓存可容纳约 {value:,.0f} 个序列（{low:,.0f}–{high:,.0f}）：每张 GPU 留给它 {budget:.1f} GiB（除 {weights:.1f} GiB 权重、提示分块的激活和 CUDA 图之外剩余显存的 {fraction:.0%}），每个 token {kv:,.0f} KiB（每张 GPU 上 2 × 层数 × KV 头数 × 头宽 × 2 B），每个请求开始时即为其完整的提示 + 输出预留空间（TensorRT-LLM 的默认调度策略 guaranteed no-evict）；每份模型最多 {cap} 个（运行时的批大小上限）。</translation>
    </message>
    <message>
        <source>{load}, {engines}: the FP8 KV cache holds ≈ {value:,.0f} sequences ({low:,.0f}–{high:,.0f}): {budget:.1f} GiB per GPU left for it ({fraction:.0%} of the card less {weights:.1f} GiB of weights, the prompt chunk&apos;s activations and CUDA graphs), {kv:,.0f} KiB per token (2 × layers × KV heads × head width × 1 B per GPU), sequences holding prompt + output/2 tokens on average (low: all at full length); at most {cap} per copy (the runtime&apos;s batch limit).</source>
        <translation>{load}，{engines}：FP8 KV 缓存可容纳约 {value:,.0f} 个序列（{low:,.0f}–{high:,.0f}）：每张 GPU 留给它 {budget:.1f} GiB（显卡的 {fraction:.0%}，减去 {weights:.1f} GiB 权重、提示分块的激活和 CUDA 图），每个 token {kv:,.0f} KiB（每张 GPU 上 2 × 层数 × KV 头数 × 头宽 × 1 B），序列平均占用提示 + 输出/2 个 token（下限：全部按完整长度）；每份模型最多 {cap} 个（运行时的批大小上限）。</translation>
    </message>
    <message>
        <source>{load}, {engines}: the FP8 KV cache holds ≈ {value:,.0f} sequences ({low:,.0f}–{high:,.0f}): {budget:.1f} GiB per GPU left for it ({fraction:.0%} of the memory left beside {weights:.1f} GiB of weights, the prompt chunk&apos;s activations and CUDA graphs), {kv:,.0f} KiB per token (2 × layers × KV heads × head width × 1 B per GPU), each request&apos;s whole prompt + output reserved when it starts (TensorRT-LLM&apos;s default scheduler, guaranteed no-evict); at most {cap} per copy (the runtime&apos;s batch limit).</source>
        <translation>{load}，{engines}：FP8 KV 缓存可容纳约 {value:,.0f} 个序列（{low:,.0f}–{high:,.0f}）：每张 GPU 留给它 {budget:.1f} GiB（除 {weights:.1f} GiB 权重、提示分块的激活和 CUDA 图之外剩余显存的 {fraction:.0%}），每个 token {kv:,.0f} KiB（每张 GPU 上 2 × 层数 × KV 头数 × 头宽 × 1 B），每个请求开始时即为其完整的提示 + 输出预留空间（TensorRT-LLM 的默认调度策略 guaranteed no-evict）；每份模型最多 {cap} 个（运行时的批大小上限）。</translation>
    </message>
    <message>
        <source>{load}, {engines}: {running:,.1f} sequences decoded together per copy{queued}: ≈ {value:,.0f} output tokens/s ({low:,.0f}–{high:,.0f}); each step reads the weights once and every sequence&apos;s KV cache, and runs the prompts of the requests that start in it (chunked prefill); {bound}-bound.</source>
        <translation>{load}，{engines}：每份模型同时解码 {running:,.1f} 个序列{queued}：约 {value:,.0f} 输出 token/秒（{low:,.0f}–{high:,.0f}）；每一步读取一次权重和每个序列的 KV 缓存，并处理在这一步开始的请求的提示（分块预填充）；受{bound}限制。</translation>
    </message>
    <message>
        <source>{load}: ≈ {value:,.2f} requests/s ({low:,.2f}–{high:,.2f}) completed: output tokens/s ÷ output tokens per request; the build serves at most ≈ {capacity:,.2f} requests/s (its KV cache full).</source>
        <translation>{load}：约完成 {value:,.2f} 请求/秒（{low:,.2f}–{high:,.2f}）：输出 token/秒 ÷ 每个请求的输出 token 数；该配置最多约服务 {capacity:,.2f} 请求/秒（KV 缓存占满时）。</translation>
    </message>
    <message>
        <source>{load}: median time to first token ≈ {value:,.0f} ms ({low:,.0f}–{high:,.0f}): half a step waiting, ≈ {wait:,.0f} ms behind other prompts, the prompt&apos;s prefill inside a decode step{queued}. This is the engine&apos;s own time for requests that arrive spread out; the high end allows for what published serving stacks measured above it under load.</source>
        <translation>{load}：首 token 时间中位数约 {value:,.0f} ms（{low:,.0f}–{high:,.0f}）：等待半个步骤，排在其他提示之后约 {wait:,.0f} ms，提示的预填充在一个解码步骤内完成{queued}。这是请求分散到达时推理引擎自身的时间；上限计入了公开测得的服务栈在负载下高出的部分。</translation>
    </message>
    <message>
        <source>{load}: median time to first token ≈ {value:,.0f} ms ({low:,.0f}–{high:,.0f}), the geometric mean of two ends: ≈ {spread:,.0f} ms for requests that arrive spread out (half a step waiting, ≈ {wait:,.0f} ms behind other prompts, the prompt&apos;s prefill inside a decode step{queued}) and ≈ {lockstep:,.0f} ms once clients sending identical requests fall into step (as benchmark tools&apos; clients do: their prompts share steps in groups, each group waiting for the one before it). Where between them a deployment lies depends on how alike its requests are and how many prompt tokens its engine runs a step; published fixed-length sweeps lie between them. The range widens each end by what published serving stacks measured beyond it.</source>
        <translation>{load}：首 token 时间中位数约 {value:,.0f} ms（{low:,.0f}–{high:,.0f}），取两端的几何平均：请求分散到达时约 {spread:,.0f} ms（等待半个步骤，排在其他提示之后约 {wait:,.0f} ms，提示的预填充在一个解码步骤内完成{queued}），发送相同请求的客户端步调一致后约 {lockstep:,.0f} ms（基准测试工具的客户端正是如此：它们的提示按组共用步骤，每组等待前一组）。实际部署落在两者之间的哪里，取决于其请求彼此有多相似、以及推理引擎每步处理多少提示 token；公开的固定长度测试结果都落在两者之间。范围在两端各自计入了公开测得的服务栈超出该端的部分。</translation>
    </message>
    <message>
        <source>{load}: median time per output token ≈ {value:,.1f} ms ({low:,.1f}–{high:,.1f}): one step of the running batch with its share of prompts.</source>
        <translation>{load}：每个输出 token 的时间中位数约 {value:,.1f} ms（{low:,.1f}–{high:,.1f}）：运行中批次的一个步骤，含其分摊的提示处理。</translation>
    </message>
    <message>
        <source>; {queued:,.0f} requests wait for room in the KV cache</source>
        <translation>；{queued:,.0f} 个请求在等待 KV 缓存空间</translation>
    </message>
    <message>
        <source>{load}: the build serves at most ≈ {capacity:,.2f} requests/s (its KV cache full); at this rate the queue grows without bound, so no time to first token.</source>
        <translation>{load}：该配置最多约服务 {capacity:,.2f} 请求/秒（KV 缓存占满时）；在此请求速率下队列无限增长，因此没有首 token 时间。</translation>
    </message>
    <message>
        <source>No serving estimate: {reason}</source>
        <translation>无服务估算：{reason}</translation>
    </message>
    <message>
        <source>the build has no GPU to serve on (CPU serving is not modelled).</source>
        <translation>该配置没有可用于服务的 GPU（未对 CPU 服务建模）。</translation>
    </message>
    <message>
        <source>no room for the KV cache of one request ({need:,} tokens) beside the weights ({weights:.1f} GiB per GPU) on a {vram} GiB card.</source>
        <translation>在 {vram} GiB 的显卡上，除权重（每张 GPU {weights:.1f} GiB）外放不下一个请求（{need:,} 个 token）的 KV 缓存。</translation>
    </message>
    <message>
        <source>NVLink ({gbs:g} GB/s per GPU, through NVSwitch)</source>
        <translation>NVLink（每块 GPU {gbs:g} GB/s，经 NVSwitch）</translation>
    </message>
    <message>
        <source>NVLink ({gbs:g} GB/s per GPU, direct links)</source>
        <translation>NVLink（每块 GPU {gbs:g} GB/s，两两直连）</translation>
    </message>
    <message>
        <source>{name} via host memory</source>
        <translation>{name}，经内存中转</translation>
    </message>
    <message>
        <source>; FP8 tensor cores at twice the 16-bit rate, with the 16-bit GEMM efficiency (no published fp8 row fitted)</source>
        <translation>；FP8 张量核心按 16 位速率的两倍计，沿用 16 位 GEMM 效率（尚无已发表的 fp8 数据参与拟合）</translation>
    </message>
    <message>
        <source>; weights {quant}, {bits:.3g} bits per weight, kernel {kernel}</source>
        <translation>；权重 {quant}，每个权重 {bits:.3g} 位，内核 {kernel}</translation>
    </message>
    <message>
        <source>This weight format&apos;s kernel ({key}): {n} published rows ({origins}) held out by GPU, median error {median:.0%}; its range {low:,.4g}–{high:,.4g} {unit}.</source>
        <translation>该权重格式的内核（{key}）：{n} 条已发表数据（{origins}）按 GPU 留出验证，误差中位数 {median:.0%}；其自身范围 {low:,.4g}–{high:,.4g} {unit}。</translation>
    </message>
    <message>
        <source>This weight format&apos;s kernel ({key}): {n} published rows of this family, too few for a range of its own; its efficiencies rest on their stated priors and the family&apos;s range applies.</source>
        <translation>该权重格式的内核（{key}）：本类别只有 {n} 条已发表数据，不足以给出自身范围；其效率取自声明的先验值，沿用该类别的范围。</translation>
    </message>
    <message>
        <source>{n} GPUs over {link}: speed-up {s:.2f}× = n × η^log2(n) × t / (t + half the ring all-reduce time of {gb:,.3g} GB of gradients{adapters}), η = {eta:.3f} calibrated on REF-1.</source>
        <translation>{n} 块 GPU 经 {link}：加速比 {s:.2f}× = n × η^log2(n) × t / (t + {gb:,.3g} GB 梯度{adapters}的环形 all-reduce 时间的一半)，η = {eta:.3f}，按 REF-1 校准。</translation>
    </message>
    <message>
        <source>{low:.1f}–{high:.1f} GiB ({verdict} in {vram} GiB). Counted: weights, gradients, optimizer states ({optimizer}; sharded by {sharding}, fine-tuning {finetune}, offload {offload}), the tensors autograd saves at batch {batch} ({precision}{ckpt}, {attention} attention), autocast&apos;s weight copies, logits and the loss&apos;s gradients, KV cache, {ctx:g} GiB CUDA context, {frag:.0%} allocator margin{display}.{options} Range: saved tensors ±{err:.0%} (the validation against PyTorch), allocator 0–25 %, context {ctx_low:g}–{ctx_high:g} GiB{published}. Not counted: cuDNN benchmark workspaces, NCCL buffers, other processes.</source>
        <translation>{low:.1f}–{high:.1f} GiB（在 {vram} GiB 中{verdict}）。计入：权重、梯度、优化器状态（{optimizer}；按 {sharding} 分片，微调方式 {finetune}，卸载 {offload}）、批大小 {batch} 时 autograd 保存的张量（{precision}{ckpt}，{attention} 注意力）、autocast 的权重副本、logits 及损失的梯度、KV 缓存、{ctx:g} GiB CUDA 上下文、{frag:.0%} 分配器余量{display}。{options} 范围：保存的张量 ±{err:.0%}（对照 PyTorch 的验证），分配器 0–25 %，上下文 {ctx_low:g}–{ctx_high:g} GiB{published}。未计入：cuDNN benchmark 工作区、NCCL 缓冲区、其他进程。</translation>
    </message>
    <message>
        <source>First principles: OS and libraries + the host copies of the weights while loading ({copies} × {bytes:g} B per parameter: one per process, one in all for FSDP / ZeRO-3 rank-0 loading and memory-mapped inference runtimes) + DataLoader prefetch (4 workers × 2 batches per GPU) + what offloading keeps in host RAM.</source>
        <translation>第一性原理：操作系统与库 + 加载时权重的主机副本（{copies} × 每参数 {bytes:g} B：每个进程一份；FSDP / ZeRO-3 由 rank 0 加载及内存映射的推理运行时共一份）+ DataLoader 预取（每 GPU 4 个 worker × 2 批）+ 卸载留在主机内存中的部分。</translation>
    </message>
    <message>
        <source>{gpu}: {bound}-bound on {units} cores ({precision}{weights}). {assumes}</source>
        <translation>{gpu}：受{bound}限制，运行于 {units} 单元（{precision}{weights}）。{assumes}</translation>
    </message>
    <message>
        <source> FP8 KV cache: each stream&apos;s cache read at 1 B per element, half a 16-bit cache&apos;s bytes.</source>
        <translation> FP8 KV 缓存：每路流的缓存按每元素 1 B 读取，是 16 位缓存字节数的一半。</translation>
    </message>
    <message>
        <source>Prompt processing (prefill): {batch} prompt(s) of {prompt} tokens together, 2 × params + attention FLOPs per token on the tensor cores, the weights read once per step; {bound}-bound.</source>
        <translation>提示处理（prefill）：{batch} 个 {prompt} token 的提示一起处理，每个 token 在张量核心上计 2 × 参数量 + 注意力的 FLOPs，每步读取一次权重；受{bound}限制。</translation>
    </message>
    <message>
        <source>{batch} streams decoded together on each of {n} copies of the model (over {per} GPU(s) each): the weights are read once per step for all streams, each stream&apos;s KV cache for it; {alone:,.4g} tokens/s for one stream alone.</source>
        <translation>{n} 份模型副本（每份占 {per} 块 GPU）各自同时解码 {batch} 个序列：每步为所有序列读取一次权重，每个序列各读自己的 KV 缓存；单个序列单独运行时为 {alone:,.4g} token/秒。</translation>
    </message>
    <message>
        <source>These GeForce cards have no peer-to-peer (PCI-11): the all-reduce goes through host memory at {bw:.1f} GB/s per GPU, taken as half the PCIe link&apos;s one-way rate and capped by the host memory&apos;s bandwidth shared by {n} GPUs.</source>
        <translation>这些 GeForce 显卡不支持点对点（P2P，PCI-11）：all-reduce 经主机内存进行，每卡 {bw:.1f} GB/s，按 PCIe 链路单向速率的一半计，并受 {n} 块 GPU 共享的主机内存带宽限制。</translation>
    </message>
    <message>
        <source>{k} of the build&apos;s {m} GPUs have no slot or baseboard and are not counted.</source>
        <translation>配置中的 {m} 块 GPU 有 {k} 块没有插槽或基板可用，未计入。</translation>
    </message>
    <message>
        <source>≈ {value:,.3g} {unit}, likely {low:,.3g}–{high:,.3g} (no CPU measurements: the stated priors, a factor of 2 either way). CPU alone: {cores} cores × {lanes} FP32 lanes × 2 FMA units × 2 FLOPs × {ghz:.2f} GHz = {peak:.2f} TFLOPS peak, {eff:.0%} reached; {bw:.0f} GB/s memory ({channels} channels), {bw_eff:.0%} reached.</source>
        <translation>≈ {value:,.3g} {unit}，可能范围 {low:,.3g}–{high:,.3g}（没有 CPU 实测数据：采用既定先验，上下浮动 2 倍）。仅 CPU：{cores} 核 × {lanes} 条 FP32 通道 × 2 个 FMA 单元 × 2 FLOPs × {ghz:.2f} GHz = 峰值 {peak:.2f} TFLOPS，可达到 {eff:.0%}；内存带宽 {bw:.0f} GB/s（{channels} 通道），可达到 {bw_eff:.0%}。</translation>
    </message>
    <message>
        <source>leave-one-source-out</source>
        <translation>留一来源交叉验证</translation>
    </message>
    <message>
        <source>leave-one-GPU-out</source>
        <translation>留一 GPU 交叉验证</translation>
    </message>
    <message>
        <source>leave-one-source-out, every family&apos;s residuals pooled: this family&apos;s own sources disagree</source>
        <translation>留一来源交叉验证，汇总所有类别的残差：本类别自身的各来源彼此不一致</translation>
    </message>
    <message>
        <source>≈ {value:,.4g} {unit}, likely {low:,.4g}–{high:,.4g} (no measurements of this family: a factor of 2 either way).</source>
        <translation>≈ {value:,.4g} {unit}，可能范围 {low:,.4g}–{high:,.4g}（这一类工作负载没有实测数据：上下浮动 2 倍）。</translation>
    </message>
    <message>
        <source>≈ {value:,.4g} {unit}, likely {low:,.4g}–{high:,.4g}; {n} measurements of this family (leave-one-GPU-out error: median {median:.0%}, 90th percentile {p90:.0%}).</source>
        <translation>≈ {value:,.4g} {unit}，可能范围 {low:,.4g}–{high:,.4g}；这一类工作负载有 {n} 条实测数据（留一 GPU 交叉验证误差：中位数 {median:.0%}，90 分位 {p90:.0%}）。</translation>
    </message>
    <message>
        <source>The range holds {coverage:.0%} of {n} held-out measurements ({basis}).</source>
        <translation>该范围包含 {n} 个留出测量值中的 {coverage:.0%}（{basis}）。</translation>
    </message>
    <message>
        <source>Published for this GPU and workload: {value:,.4g} {unit} ({software}; {url}).</source>
        <translation>此 GPU 与工作负载的公开数据：{value:,.4g} {unit}（{software}；{url}）。</translation>
    </message>
    <message>
        <source>≈ {value:,.4g} {unit}, likely {low:,.4g}–{high:,.4g}; published measurements of this family from {origins} sources, each held out in turn: median error {median:.0%}.</source>
        <translation>≈ {value:,.4g} {unit}，可能范围 {low:,.4g}–{high:,.4g}；该类工作负载来自 {origins} 个来源的公开测量，逐个来源留出验证：误差中位数 {median:.0%}。</translation>
    </message>
    <message>
        <source>The guide&apos;s RAM-1 formula: params × batch × 4 B × 1.2, halved for mixed precision (G 三.2).</source>
        <translation>指南的 RAM-1 公式：参数量 × 批大小 × 4 B × 1.2，混合精度减半（G 三.2）。</translation>
    </message>
    <message>
        <source>Per-layer-type work (GEMM/convolution FLOPs on the unit the precision runs on, memory-bound traffic on DRAM, launch overhead per kernel) with efficiencies per architecture and runtime fitted to {n} published measurements (ridge towards stated priors). Software as measured: NGC PyTorch with TF32 for FP32 on Ampere and newer, synthetic data. Runtime: {runtime}{default}.</source>
        <translation>按层类型计算工作量（GEMM/卷积 FLOPs 在该精度所用的计算单元上、受显存带宽限制的 DRAM 流量、每个内核的启动开销），各架构与运行时的效率拟合自 {n} 条公开测量（向给定先验做岭回归）。软件与测量时一致：NGC PyTorch，Ampere 及更新架构上 FP32 使用 TF32，合成数据。运行时：{runtime}{default}。</translation>
    </message>
    <message>
        <source>{n} × one GPU × scaling efficiency.</source>
        <translation>{n} × 单卡 × 扩展效率。</translation>
    </message>
    <message>
        <source>{n} GPUs, each running its own batches (independent requests).</source>
        <translation>{n} 张 GPU，各自运行自己的批次（相互独立的请求）。</translation>
    </message>
    <message>
        <source>Throughput ÷ build price.</source>
        <translation>吞吐量 ÷ 配置总价。</translation>
    </message>
    <message>
        <source>{gpu} W GPUs + {cpu} W CPU (maximum power) + {platform} W platform + {transient} W transient headroom = {peak} W. The ATX 3.x supply is specified to carry 200 % of its rating for 100 µs, so the GPUs&apos; excursions to 3 × board power need only max(0, GPU power − half the sustained draw) above the sustained draw (ATX 3.0 PSU Design Guide)</source>
        <translation>GPU {gpu} W + CPU {cpu} W（最大功耗）+ 平台 {platform} W + 瞬态余量 {transient} W = {peak} W。ATX 3.x 电源按规范可在 100 µs 内承受额定功率的 200 %，因此 GPU 冲到 3 倍板卡功耗的瞬态只需在持续功耗之上再留出“GPU 功耗减去持续功耗的一半”（不小于 0）（ATX 3.0 电源设计指南）</translation>
    </message>
    <message>
        <source>{gpu} W GPUs + {cpu} W CPU (maximum power) + {platform} W platform + {transient} W transient headroom (30 % of GPU board power) = {peak} W</source>
        <translation>GPU {gpu} W + CPU {cpu} W（最大功耗）+ 平台 {platform} W + 瞬时余量 {transient} W（GPU 整卡功耗的 30%）= {peak} W</translation>
    </message>
    <message>
        <source>high confidence</source>
        <translation>可信度高</translation>
    </message>
    <message>
        <source>medium confidence</source>
        <translation>可信度中</translation>
    </message>
    <message>
        <source>low confidence</source>
        <translation>可信度低</translation>
    </message>
    <message>
        <source>Peak power</source>
        <translation>峰值功耗</translation>
    </message>
    <message>
        <source>Draw while training</source>
        <translation>训练时功耗</translation>
    </message>
    <message>
        <source>Draw while serving</source>
        <translation>服务时功耗</translation>
    </message>
    <message>
        <source>VRAM per GPU</source>
        <translation>每卡显存</translation>
    </message>
    <message>
        <source>Largest batch that fits</source>
        <translation>可容纳的最大批大小</translation>
    </message>
    <message>
        <source>RAM (first principles)</source>
        <translation>内存（第一性原理）</translation>
    </message>
    <message>
        <source>RAM (guide&apos;s formula)</source>
        <translation>内存（指南公式）</translation>
    </message>
    <message>
        <source>Throughput, one GPU</source>
        <translation>吞吐量（单卡）</translation>
    </message>
    <message>
        <source>Throughput, all streams of the batch</source>
        <translation>吞吐量（批内所有流合计）</translation>
    </message>
    <message>
        <source>Prefill</source>
        <translation>预填充（prefill）</translation>
    </message>
    <message>
        <source>Multi-GPU scaling efficiency</source>
        <translation>多卡扩展效率</translation>
    </message>
    <message>
        <source>Throughput, whole build</source>
        <translation>吞吐量（整机）</translation>
    </message>
    <message>
        <source>Throughput per ¥1000</source>
        <translation>每 ¥1000 吞吐量</translation>
    </message>
    <message>
        <source>CPU alone</source>
        <translation>仅 CPU</translation>
    </message>
    <message>
        <source>Throughput, all nodes</source>
        <translation>吞吐量，全部节点</translation>
    </message>
    <message>
        <source>Scaling across nodes</source>
        <translation>跨节点扩展效率</translation>
    </message>
    <message>
        <source>Price, all nodes</source>
        <translation>价格，全部节点</translation>
    </message>
    <message>
        <source>Draw while training, all nodes</source>
        <translation>训练时功耗，全部节点</translation>
    </message>
    <message>
        <source>Throughput</source>
        <translation>吞吐量</translation>
    </message>
    <message>
        <source>{gpu}&apos;s spec-sheet dense {dtype} peak ({source}); the measured share of it is what the card reaches on this software.</source>
        <translation>{gpu} 规格表中的 {dtype} 稠密峰值（{source}）；实测占比即此显卡在当前软件下能达到的水平。</translation>
    </message>
    <message>
        <source>Planner estimate for {hw} at the benchmark&apos;s settings ({precision}, batch {batch}).</source>
        <translation>规划器按基准测试的设置（{precision}，批大小 {batch}）对 {hw} 的估算。</translation>
    </message>
    <message>
        <source>Planner VRAM estimate at the benchmark&apos;s settings ({precision}, batch {batch}): {tensors:.2f} GiB of tensors (weights, gradients, optimizer states, saved activations, logits, KV cache), {total:.2f} GiB with the CUDA context and the allocator&apos;s margin.</source>
        <translation>规划器按该基准测试的设置（{precision}，批大小 {batch}）估算的显存：张量 {tensors:.2f} GiB（权重、梯度、优化器状态、保存的激活值、logits、KV 缓存），加上 CUDA 上下文和分配器余量共 {total:.2f} GiB。</translation>
    </message>
    <message>
        <source>{workload} measured {measured:,.4g} {unit} where the model estimates {estimated:,.4g} (×{ratio:.2f}; {software})</source>
        <translation>{workload} 实测 {measured:,.4g} {unit}，模型估算 {estimated:,.4g}（×{ratio:.2f}；{software}）</translation>
    </message>
    <message>
        <source>benchmarks of this workload family</source>
        <translation>同类负载的基准测试</translation>
    </message>
    <message>
        <source>no benchmark of this workload family here, so all of this hardware&apos;s benchmarks</source>
        <translation>本机没有同类负载的基准测试，因此采用该硬件的全部基准测试</translation>
    </message>
    <message>
        <source>, likely {low:,.4g}–{high:,.4g}</source>
        <translation>，可能范围 {low:,.4g}–{high:,.4g}</translation>
    </message>
    <message>
        <source>Calibrated on this machine&apos;s benchmark of {date}: ×{factor:.2f} → ≈ {value:,.4g} {unit}{range}. The factor is measured ÷ the model&apos;s estimate of the same benchmark on {hardware} ({scope}): {points}. The fit itself is unchanged.</source>
        <translation>已按本机 {date} 的基准测试校准：×{factor:.2f} → ≈ {value:,.4g} {unit}{range}。系数 = 实测值 ÷ 模型对 {hardware} 上同一基准测试的估算（{scope}）：{points}。拟合模型本身未改动。</translation>
    </message>
    <message>
        <source>{name} ({gbit:g} Gb/s, {gbs:.2f} GB/s of payload, {hop:g} µs per hop; {source})</source>
        <translation>{name}（{gbit:g} Gb/s，有效载荷 {gbs:.2f} GB/s，每跳 {hop:g} µs；{source}）</translation>
    </message>
    <message>
        <source>{n} nodes × {g} GPUs, data parallel: a ring all-reduce of {grad:,.0f} MB of gradients inside each node ({intra:.1f} ms per step after overlap), then across the nodes over {net}: {network:.1f} ms ({buckets} buckets of 25 MiB), and inside again; {step:.1f} ms of compute per step. The network: one port per node, NCCL over TCP on Ethernet and RDMA on InfiniBand.</source>
        <translation>{n} 个节点 × {g} 块 GPU，数据并行：{grad:,.0f} MB 梯度先在每个节点内做环形 all-reduce（扣除重叠后每步 {intra:.1f} ms），再经 {net} 在节点间传输：{network:.1f} ms（{buckets} 个 25 MiB 的桶），然后再回到节点内；每步计算 {step:.1f} ms。网络按每节点一个端口计，以太网上 NCCL 走 TCP，InfiniBand 上走 RDMA。</translation>
    </message>
    <message>
        <source>{n} nodes, each serving its own requests: nothing is exchanged between them.</source>
        <translation>{n} 个节点各自处理自己的请求，节点之间不交换数据。</translation>
    </message>
    <message>
        <source>The cluster&apos;s throughput ÷ ({n} × one node&apos;s {node:,.1f} {unit}).</source>
        <translation>集群吞吐量 ÷（{n} × 单节点的 {node:,.1f} {unit}）。</translation>
    </message>
    <message>
        <source>{n} × this build&apos;s ¥{each:,}; network adapters, switch and cables are not counted.</source>
        <translation>{n} × 本配置的 ¥{each:,}；未计网卡、交换机和线缆。</translation>
    </message>
    <message>
        <source>{n} × {each:,.0f} W while training; peak {peak:,.0f} W per node, {peak_all:,.0f} W in all (the network switch not counted).</source>
        <translation>训练时 {n} × {each:,.0f} W；每节点峰值 {peak:,.0f} W，合计 {peak_all:,.0f} W（未计网络交换机）。</translation>
    </message>
    <message>
        <source>Most requests in flight</source>
        <translation>最多同时处理的请求</translation>
    </message>
    <message>
        <source>Output tokens/s</source>
        <translation>输出 token/秒</translation>
    </message>
    <message>
        <source>Requests/s</source>
        <translation>请求/秒</translation>
    </message>
    <message>
        <source>Time to first token (TTFT)</source>
        <translation>首 token 时间（TTFT）</translation>
    </message>
    <message>
        <source>Time per output token (TPOT)</source>
        <translation>每个输出 token 时间（TPOT）</translation>
    </message>
    <message>
        <source>Serving</source>
        <translation>服务</translation>
    </message>
</context>
<context>
    <name>models</name>
    <message>
        <source>is required</source>
        <translation>为必填项</translation>
    </message>
    <message>
        <source>must be a positive integer, not {got}</source>
        <translation>必须是正整数，而不是 {got}</translation>
    </message>
    <message>
        <source>must be a number greater than 0, not {got}</source>
        <translation>必须是大于 0 的数，而不是 {got}</translation>
    </message>
    <message>
        <source>must be text</source>
        <translation>必须是文本</translation>
    </message>
    <message>
        <source>must be true or false</source>
        <translation>必须是 true 或 false</translation>
    </message>
    <message>
        <source>the file must hold a JSON object (a config.json), not {got}</source>
        <translation>文件必须是一个 JSON 对象（config.json），而不是 {got}</translation>
    </message>
    <message>
        <source>no such file</source>
        <translation>文件不存在</translation>
    </message>
    <message>
        <source>cannot be read: {reason}</source>
        <translation>无法读取：{reason}</translation>
    </message>
    <message>
        <source>is too large for a config.json ({size:,} bytes; at most {limit:,})</source>
        <translation>作为 config.json 过大（{size:,} 字节；最多 {limit:,}）</translation>
    </message>
    <message>
        <source>is not valid JSON: {error} (line {line})</source>
        <translation>不是有效的 JSON：{error}（第 {line} 行）</translation>
    </message>
    <message>
        <source>is not valid TOML: {error}</source>
        <translation>不是有效的 TOML：{error}</translation>
    </message>
    <message>
        <source>unknown model_type {got!r} and no usable fields (hidden_size, num_hidden_layers, num_attention_heads): supported are {types}</source>
        <translation>未知的 model_type {got!r}，且没有可用字段（hidden_size、num_hidden_layers、num_attention_heads）：支持的有 {types}</translation>
    </message>
    <message>
        <source>{heads} attention heads do not share {kv} key/value heads evenly</source>
        <translation>{heads} 个注意力头无法平均共享 {kv} 个键/值头</translation>
    </message>
    <message>
        <source>id {id!r} is also used in {other}</source>
        <translation>ID {id!r} 也在 {other} 中使用</translation>
    </message>
    <message>
        <source>must be one of {choices}, not {got!r}</source>
        <translation>必须是 {choices} 之一，而不是 {got!r}</translation>
    </message>
    <message>
        <source>must be an https:// URL</source>
        <translation>必须是 https:// 网址</translation>
    </message>
    <message>
        <source>must be at most the number of experts ({experts})</source>
        <translation>不得超过专家数（{experts}）</translation>
    </message>
    <message>
        <source>Throughput is not estimated for {name}: no published source states its compute per image (a UNet&apos;s convolution MACs depend on the resolution and the sampler&apos;s steps), and the planner does not invent one; memory is estimated from its {params:,.0f} M parameters.</source>
        <translation>未估算 {name} 的吞吐量：没有公开来源给出其每张图像的计算量（UNet 的卷积乘加次数取决于分辨率和采样步数），规划器不会凭空编造；显存按其 {params:,.0f} M 参数估算。</translation>
    </message>
</context>
<context>
    <name>monitor</name>
    <message>
        <source>the {n} DataLoader workers are saturating the CPU (each at {cpu} % of a core): add workers (num_workers) or move preprocessing to the GPU (STO-5)</source>
        <translation>{n} 个 DataLoader 工作进程已占满 CPU（每个占一个核心的 {cpu} %）：增加工作进程（num_workers）或把预处理移到 GPU 上（STO-5）</translation>
    </message>
    <message>
        <source>the training process loads data itself at {cpu} % of a core: use DataLoader workers (num_workers ≥ 4, STO-5)</source>
        <translation>训练进程自己加载数据，占用一个核心的 {cpu} %：请使用 DataLoader 工作进程（num_workers ≥ 4，STO-5）</translation>
    </message>
    <message>
        <source>the host CPU is busy ({cpu} % over all cores): data loading cannot keep up</source>
        <translation>主机 CPU 繁忙（所有核心 {cpu} %）：数据加载跟不上</translation>
    </message>
    <message>
        <source>the CPU waits for the disk ({iowait} % iowait): keep the data set on NVMe or in RAM (STO-1, STO-4)</source>
        <translation>CPU 在等待磁盘（iowait {iowait} %）：请把数据集放在 NVMe 或内存中（STO-1、STO-4）</translation>
    </message>
    <message>
        <source>its PCIe link runs at Gen{gen} x{width}, below its maximum Gen{gen_max} x{width_max}: check the slot and the BIOS setting (PCI-3)</source>
        <translation>它的 PCIe 链路运行在 Gen{gen} x{width}，低于最大的 Gen{gen_max} x{width_max}：请检查插槽和 BIOS 设置（PCI-3）</translation>
    </message>
    <message>
        <source>the host shows no bottleneck: try a larger batch size, mixed precision, or profile the input pipeline</source>
        <translation>主机上没有发现瓶颈：可尝试更大的 batch size、混合精度，或对输入流水线做性能分析</translation>
    </message>
    <message>
        <source>GPU {gpu} lost</source>
        <translation>GPU {gpu} 已丢失</translation>
    </message>
    <message>
        <source>GPU {gpu} ({name}) stopped answering. The other GPUs are still monitored; the monitor tries to reach it again. Check `dmesg` for Xid errors, the power cables and the card&apos;s temperature.</source>
        <translation>GPU {gpu}（{name}）停止响应。其他 GPU 仍在监控中，监控器会再次尝试连接它。请用 `dmesg` 查看 Xid 错误，并检查供电线缆和显卡温度。</translation>
    </message>
    <message>
        <source>GPU {gpu} under-used</source>
        <translation>GPU {gpu} 利用不足</translation>
    </message>
    <message>
        <source>GPU {gpu} has been under {threshold} % busy ({util} % now) while training; likely bottleneck: {cause}.</source>
        <translation>训练期间 GPU {gpu} 的利用率持续低于 {threshold} %（当前 {util} %）；可能的瓶颈：{cause}。</translation>
    </message>
    <message>
        <source>GPU {gpu} VRAM nearly full</source>
        <translation>GPU {gpu} 显存将满</translation>
    </message>
    <message>
        <source>VRAM of GPU {gpu} is {percent} % full ({used} of {total} GiB). Before CUDA runs out of memory: a smaller batch with gradient accumulation, gradient checkpointing, mixed precision; torch.cuda.memory_summary() shows what holds it.</source>
        <translation>GPU {gpu} 的显存已用 {percent} %（{used} / {total} GiB）。在 CUDA 显存不足之前：减小 batch 并使用梯度累积、梯度检查点、混合精度；torch.cuda.memory_summary() 可显示显存被谁占用。</translation>
    </message>
    <message>
        <source>GPU {gpu} thermal throttling</source>
        <translation>GPU {gpu} 过热降频</translation>
    </message>
    <message>
        <source>GPU {gpu} lowers its clocks because it is too hot ({temp} °C): check the case airflow, the fans and the space between cards.</source>
        <translation>GPU {gpu} 因温度过高（{temp} °C）而降低频率：请检查机箱风道、风扇以及显卡之间的间距。</translation>
    </message>
    <message>
        <source>GPU {gpu} power brake</source>
        <translation>GPU {gpu} 功耗制动</translation>
    </message>
    <message>
        <source>GPU {gpu} is slowed by the hardware power brake: the power supply or its cables may not deliver the peak draw. Check the PSU rating and use separate PCIe cables per connector.</source>
        <translation>GPU {gpu} 被硬件功耗制动降速：电源或线缆可能无法提供峰值功耗。请检查电源额定功率，并为每个接口使用单独的 PCIe 供电线。</translation>
    </message>
    <message>
        <source>GPU {gpu} at its power limit</source>
        <translation>GPU {gpu} 达到功耗上限</translation>
    </message>
    <message>
        <source>GPU {gpu} is held at its power limit ({power} of {limit} W). That is normal under full load; a higher limit buys little speed for much heat.</source>
        <translation>GPU {gpu} 被限制在功耗上限（{power} / {limit} W）。满载时这是正常的；提高上限只能换来很少的速度和大量的发热。</translation>
    </message>
    <message>
        <source>GPUs of one job out of step</source>
        <translation>同一任务的多块 GPU 不同步</translation>
    </message>
    <message>
        <source>GPUs {gpus} run one job but differ by {spread} points of utilisation (GPU {low} at {low_util} %): an uneven data split or a slow rank. Run with NCCL_DEBUG=INFO and check that every rank gets the same batch size.</source>
        <translation>GPU {gpus} 运行同一个任务，但利用率相差 {spread} 个百分点（GPU {low} 为 {low_util} %）：数据划分不均或某个 rank 较慢。请用 NCCL_DEBUG=INFO 运行，并确认每个 rank 的 batch size 相同。</translation>
    </message>
    <message>
        <source>{text!r} is not HOST:PORT (for IPv6: [ADDRESS]:PORT)</source>
        <translation>{text!r} 不是 HOST:PORT 格式（IPv6 请用 [地址]:端口）</translation>
    </message>
    <message>
        <source>{text!r} is not HOST:PORT: the port must be a number</source>
        <translation>{text!r} 不是 HOST:PORT 格式：端口必须是数字</translation>
    </message>
    <message>
        <source>port {port} is out of range (0–65535)</source>
        <translation>端口 {port} 超出范围（0–65535）</translation>
    </message>
    <message>
        <source>{host!r} is not an IP address or host name</source>
        <translation>{host!r} 不是 IP 地址或主机名</translation>
    </message>
    <message>
        <source>Anyone who can reach {url} can read these metrics without a password: they name this host, its GPUs and the processes using them (names and PIDs). Serve on 127.0.0.1 unless a firewall or an authenticating proxy guards the port.</source>
        <translation>任何能访问 {url} 的人都无需密码即可读取这些指标：其中包含本机的主机名、GPU 以及正在使用 GPU 的进程（名称和 PID）。除非有防火墙或带身份验证的代理保护该端口，否则请只在 127.0.0.1 上提供服务。</translation>
    </message>
    <message>
        <source>enter the URL of a /metrics page</source>
        <translation>请输入 /metrics 页面的 URL</translation>
    </message>
    <message>
        <source>{url!r} is not an http(s) URL such as http://gpu-server:9400/metrics</source>
        <translation>{url!r} 不是 http(s) URL，例如 http://gpu-server:9400/metrics</translation>
    </message>
    <message>
        <source>enter the URL of a Prometheus server, such as http://prometheus:9090</source>
        <translation>请输入 Prometheus 服务器的 URL，例如 http://prometheus:9090</translation>
    </message>
    <message>
        <source>{url!r} is not an http(s) URL of a Prometheus server such as http://prometheus:9090</source>
        <translation>{url!r} 不是 Prometheus 服务器的 http(s) URL（例如 http://prometheus:9090）</translation>
    </message>
    <message>
        <source>{url!r} has an invalid port</source>
        <translation>{url!r} 的端口无效</translation>
    </message>
    <message>
        <source>{url} answered {path} with JSON that is not Prometheus&apos;s query result</source>
        <translation>{url} 对 {path} 返回的 JSON 不是 Prometheus 的查询结果</translation>
    </message>
    <message>
        <source>{url} did not answer within {seconds} s</source>
        <translation>{url} 在 {seconds} 秒内没有应答</translation>
    </message>
    <message>
        <source>{url} is not a Prometheus server: {path} answered HTTP {code} with {what}, not the API&apos;s JSON</source>
        <translation>{url} 不是 Prometheus 服务器：{path} 返回 HTTP {code}，内容为 {what}，而不是 API 的 JSON</translation>
    </message>
    <message>
        <source>{url} gave up the query after {seconds} s: {error}</source>
        <translation>{url} 在 {seconds} 秒后放弃了查询：{error}</translation>
    </message>
    <message>
        <source>{url} refused the query ({kind}): {error}</source>
        <translation>{url} 拒绝了查询（{kind}）：{error}</translation>
    </message>
    <message>
        <source>{url} sent more than 64 MiB for one query</source>
        <translation>{url} 为一次查询返回了超过 64 MiB 的数据</translation>
    </message>
    <message>
        <source>{url} answered HTTP {code}</source>
        <translation>{url} 返回 HTTP {code}</translation>
    </message>
    <message>
        <source>cannot reach {url}: {reason}</source>
        <translation>无法连接 {url}：{reason}</translation>
    </message>
    <message>
        <source>{url} sent more than 16 MiB</source>
        <translation>{url} 返回的数据超过 16 MiB</translation>
    </message>
    <message>
        <source>{url} is not a Prometheus metrics page ({error})</source>
        <translation>{url} 不是 Prometheus 指标页面（{error}）</translation>
    </message>
    <message>
        <source>{url} has no metrics from this app, the DCGM exporter or node_exporter</source>
        <translation>{url} 中没有来自本应用、DCGM exporter 或 node_exporter 的指标</translation>
    </message>
    <message>
        <source>{url} answers, but holds no metrics from this app&apos;s exporter, the DCGM exporter or node_exporter: check its scrape configuration</source>
        <translation>{url} 有应答，但其中没有本应用导出器、DCGM exporter 或 node_exporter 的指标：请检查它的抓取（scrape）配置</translation>
    </message>
    <message>
        <source>Job {job} under-uses its GPUs</source>
        <translation>作业 {job} 的 GPU 利用不足</translation>
    </message>
    <message>
        <source>All {n} GPUs of job {job} (on {nodes}) stayed under {threshold} % busy for the last {window} s (GPU {gpu} on {node} at most {util} %); likely bottleneck on {node}: {cause}.</source>
        <translation>作业 {job} 的全部 {n} 块 GPU（位于 {nodes}）在最近 {window} 秒内利用率一直低于 {threshold} %（{node} 上的 GPU {gpu} 最高仅 {util} %）；{node} 上可能的瓶颈：{cause}。</translation>
    </message>
    <message>
        <source>GPUs of job {job} out of step</source>
        <translation>作业 {job} 的各 GPU 步调不一致</translation>
    </message>
    <message>
        <source>The GPUs of job {job} (on {nodes}) differ by {spread} points of utilisation over the last {window} s: GPU {low} on {low_node} averages {low_util} %, GPU {high} on {high_node} {high_util} %. An uneven data split, a slow rank or a slow link between nodes: run with NCCL_DEBUG=INFO and check that every rank gets the same batch size.</source>
        <translation>作业 {job} 的各 GPU（位于 {nodes}）在最近 {window} 秒内利用率相差 {spread} 个百分点：{low_node} 上的 GPU {low} 平均 {low_util} %，{high_node} 上的 GPU {high} 平均 {high_util} %。可能是数据划分不均、某个 rank 过慢或节点间网络过慢：请设置 NCCL_DEBUG=INFO 运行，并检查每个 rank 的 batch size 是否相同。</translation>
    </message>
    <message>
        <source>Prometheus has no host metrics for {node} (CPU, iowait): run node_exporter there to tell a data-loading bottleneck</source>
        <translation>Prometheus 中没有 {node} 的主机指标（CPU、iowait）：请在该节点上运行 node_exporter，以便判断数据加载瓶颈</translation>
    </message>
</context>
<context>
    <name>numbers</name>
    <message>
        <source>8-pin inputs of the card&apos;s adapter</source>
        <translation>显卡转接线的 8-pin 输入</translation>
    </message>
    <message>
        <source>Batch per GPU</source>
        <translation>每卡批大小</translation>
    </message>
    <message>
        <source>Fastest drive&apos;s sequential read</source>
        <translation>最快硬盘的顺序读取</translation>
    </message>
    <message>
        <source>Board form factor</source>
        <translation>主板板型</translation>
    </message>
    <message>
        <source>Board socket</source>
        <translation>主板插槽</translation>
    </message>
    <message>
        <source>Board memory type</source>
        <translation>主板内存类型</translation>
    </message>
    <message>
        <source>Board launch year</source>
        <translation>主板发布年份</translation>
    </message>
    <message>
        <source>Boost clock</source>
        <translation>加速频率</translation>
    </message>
    <message>
        <source>VRAM by use</source>
        <translation>显存用途明细</translation>
    </message>
    <message>
        <source>Budget</source>
        <translation>预算</translation>
    </message>
    <message>
        <source>Card&apos;s PCIe generation</source>
        <translation>显卡 PCIe 代数</translation>
    </message>
    <message>
        <source>Boards the case takes</source>
        <translation>机箱支持的主板</translation>
    </message>
    <message>
        <source>Longest card the case takes</source>
        <translation>机箱可容纳的最长显卡</translation>
    </message>
    <message>
        <source>Case expansion slots</source>
        <translation>机箱扩展槽位</translation>
    </message>
    <message>
        <source>Checked</source>
        <translation>核对日期</translation>
    </message>
    <message>
        <source>Cloud rent per month</source>
        <translation>云服务器月租</translation>
    </message>
    <message>
        <source>Compute capability</source>
        <translation>计算能力</translation>
    </message>
    <message>
        <source>Cores</source>
        <translation>核心</translation>
    </message>
    <message>
        <source>Slot positions covered</source>
        <translation>占用的槽位</translation>
    </message>
    <message>
        <source>CPU socket</source>
        <translation>CPU 插槽</translation>
    </message>
    <message>
        <source>CPU memory types</source>
        <translation>CPU 支持的内存类型</translation>
    </message>
    <message>
        <source>CPU power</source>
        <translation>CPU 功耗</translation>
    </message>
    <message>
        <source>CPU launch year</source>
        <translation>CPU 发布年份</translation>
    </message>
    <message>
        <source>CPUs</source>
        <translation>CPU 数量</translation>
    </message>
    <message>
        <source>First GPU drives the display</source>
        <translation>第一块显卡连接显示器</translation>
    </message>
    <message>
        <source>Draw while training</source>
        <translation>训练时功耗</translation>
    </message>
    <message>
        <source>Minimum driver per CUDA version</source>
        <translation>各 CUDA 版本所需的最低驱动</translation>
    </message>
    <message>
        <source>ECC</source>
        <translation>ECC</translation>
    </message>
    <message>
        <source>Electricity per kWh</source>
        <translation>电价（每千瓦时）</translation>
    </message>
    <message>
        <source>Electricity per month</source>
        <translation>每月电费</translation>
    </message>
    <message>
        <source>8-pin EPS inputs needed</source>
        <translation>所需 8-pin EPS 接口</translation>
    </message>
    <message>
        <source>Fast (NVMe) storage</source>
        <translation>高速（NVMe）存储</translation>
    </message>
    <message>
        <source>Fine-tuning</source>
        <translation>微调方式</translation>
    </message>
    <message>
        <source>First CUDA version</source>
        <translation>最早支持的 CUDA 版本</translation>
    </message>
    <message>
        <source>First driver</source>
        <translation>最早支持的驱动</translation>
    </message>
    <message>
        <source>RAM need (first principles)</source>
        <translation>内存需求（按原理估算）</translation>
    </message>
    <message>
        <source>Lanes from</source>
        <translation>通道来自</translation>
    </message>
    <message>
        <source>PCIe generation</source>
        <translation>PCIe 代数</translation>
    </message>
    <message>
        <source>GFX target</source>
        <translation>GFX 目标</translation>
    </message>
    <message>
        <source>Global batch</source>
        <translation>全局批大小</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>16-pin inputs on the GPUs</source>
        <translation>显卡的 16-pin 接口</translation>
    </message>
    <message>
        <source>8-pin inputs on the GPUs</source>
        <translation>显卡的 8-pin 接口</translation>
    </message>
    <message>
        <source>GPU length</source>
        <translation>显卡长度</translation>
    </message>
    <message>
        <source>GPU power</source>
        <translation>显卡功耗</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>显卡数量</translation>
    </message>
    <message>
        <source>The guide&apos;s figure</source>
        <translation>指南给出的数值</translation>
    </message>
    <message>
        <source>The guide&apos;s batch</source>
        <translation>指南使用的批大小</translation>
    </message>
    <message>
        <source>RAM need (the guide&apos;s formula)</source>
        <translation>内存需求（指南公式）</translation>
    </message>
    <message>
        <source>The guide&apos;s measurement</source>
        <translation>指南中的测量</translation>
    </message>
    <message>
        <source>PSU the guide asks for</source>
        <translation>指南要求的电源功率</translation>
    </message>
    <message>
        <source>High end</source>
        <translation>上限</translation>
    </message>
    <message>
        <source>Hours per day</source>
        <translation>每天使用小时</translation>
    </message>
    <message>
        <source>Memory kit type</source>
        <translation>内存套条类型</translation>
    </message>
    <message>
        <source>L3 cache</source>
        <translation>三级缓存</translation>
    </message>
    <message>
        <source>Lanes</source>
        <translation>通道数</translation>
    </message>
    <message>
        <source>Left of the budget</source>
        <translation>预算剩余</translation>
    </message>
    <message>
        <source>Low end</source>
        <translation>下限</translation>
    </message>
    <message>
        <source>Lowest slot position used</source>
        <translation>用到的最低槽位</translation>
    </message>
    <message>
        <source>Board&apos;s maximum memory</source>
        <translation>主板最大内存</translation>
    </message>
    <message>
        <source>GPUs per NVLink group</source>
        <translation>每组 NVLink 显卡数</translation>
    </message>
    <message>
        <source>Memory modules</source>
        <translation>内存条数</translation>
    </message>
    <message>
        <source>Months to break even</source>
        <translation>回本月数</translation>
    </message>
    <message>
        <source>VRAM need</source>
        <translation>显存需求</translation>
    </message>
    <message>
        <source>NVLink bandwidth</source>
        <translation>NVLink 带宽</translation>
    </message>
    <message>
        <source>Offload</source>
        <translation>卸载</translation>
    </message>
    <message>
        <source>Model parallelism</source>
        <translation>模型并行</translation>
    </message>
    <message>
        <source>Parameters (millions)</source>
        <translation>参数量（百万）</translation>
    </message>
    <message>
        <source>Part</source>
        <translation>部件</translation>
    </message>
    <message>
        <source>RAM by use</source>
        <translation>内存用途明细</translation>
    </message>
    <message>
        <source>Peak power</source>
        <translation>峰值功耗</translation>
    </message>
    <message>
        <source>Throughput per 100 W</source>
        <translation>每 100 W 吞吐量</translation>
    </message>
    <message>
        <source>GPUs placed</source>
        <translation>已安置的显卡</translation>
    </message>
    <message>
        <source>Board, memory, drives and fans</source>
        <translation>主板、内存、硬盘和风扇</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>精度</translation>
    </message>
    <message>
        <source>16-pin cables of the PSU</source>
        <translation>电源的 16-pin 线缆</translation>
    </message>
    <message>
        <source>8-pin PCIe cables of the PSU</source>
        <translation>电源的 8-pin PCIe 线缆</translation>
    </message>
    <message>
        <source>8-pin EPS cables of the PSU</source>
        <translation>电源的 8-pin EPS 线缆</translation>
    </message>
    <message>
        <source>PSU rating</source>
        <translation>电源额定功率</translation>
    </message>
    <message>
        <source>Published figure</source>
        <translation>公开发表的数值</translation>
    </message>
    <message>
        <source>Published measurement</source>
        <translation>公开发表的测量</translation>
    </message>
    <message>
        <source>PyTorch builds</source>
        <translation>PyTorch 版本</translation>
    </message>
    <message>
        <source>RAM installed</source>
        <translation>已装内存</translation>
    </message>
    <message>
        <source>Ratio</source>
        <translation>比值</translation>
    </message>
    <message>
        <source>Registered (RDIMM)</source>
        <translation>寄存式（RDIMM）</translation>
    </message>
    <message>
        <source>Recommended VRAM</source>
        <translation>建议显存</translation>
    </message>
    <message>
        <source>Reference</source>
        <translation>参考</translation>
    </message>
    <message>
        <source>The guide&apos;s price</source>
        <translation>指南中的价格</translation>
    </message>
    <message>
        <source>Measured</source>
        <translation>实测</translation>
    </message>
    <message>
        <source>In theory</source>
        <translation>理论值</translation>
    </message>
    <message>
        <source>Sharding</source>
        <translation>分片</translation>
    </message>
    <message>
        <source>Slot</source>
        <translation>插槽</translation>
    </message>
    <message>
        <source>Memory slots</source>
        <translation>内存插槽</translation>
    </message>
    <message>
        <source>Sockets</source>
        <translation>插槽数</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>Sustained power</source>
        <translation>持续功耗</translation>
    </message>
    <message>
        <source>Threads</source>
        <translation>线程</translation>
    </message>
    <message>
        <source>The model&apos;s error</source>
        <translation>模型误差</translation>
    </message>
    <message>
        <source>Total price</source>
        <translation>总价</translation>
    </message>
    <message>
        <source>Total storage</source>
        <translation>总存储容量</translation>
    </message>
    <message>
        <source>Transient headroom</source>
        <translation>瞬时功耗余量</translation>
    </message>
    <message>
        <source>Unit</source>
        <translation>单位</translation>
    </message>
    <message>
        <source>PSU the card&apos;s maker recommends</source>
        <translation>显卡厂商建议的电源功率</translation>
    </message>
    <message>
        <source>Verdict</source>
        <translation>结论</translation>
    </message>
    <message>
        <source>VRAM</source>
        <translation>显存</translation>
    </message>
    <message>
        <source>x16 slots</source>
        <translation>x16 插槽</translation>
    </message>
    <message>
        <source>weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>gradients</source>
        <translation>梯度</translation>
    </message>
    <message>
        <source>optimizer states</source>
        <translation>优化器状态</translation>
    </message>
    <message>
        <source>saved activations</source>
        <translation>保存的激活值</translation>
    </message>
    <message>
        <source>OS and libraries</source>
        <translation>系统和库</translation>
    </message>
    <message>
        <source>DataLoader prefetch</source>
        <translation>DataLoader 预取</translation>
    </message>
    <message>
        <source>autocast&apos;s weight copies</source>
        <translation>autocast 的权重副本</translation>
    </message>
    <message>
        <source>logits and their gradients</source>
        <translation>logits 及其梯度</translation>
    </message>
    <message>
        <source>recomputed layer</source>
        <translation>重算的层</translation>
    </message>
    <message>
        <source>KV cache</source>
        <translation>KV 缓存</translation>
    </message>
    <message>
        <source>allocator margin</source>
        <translation>分配器余量</translation>
    </message>
    <message>
        <source>CUDA context</source>
        <translation>CUDA 上下文</translation>
    </message>
    <message>
        <source>display</source>
        <translation>显示输出</translation>
    </message>
    <message>
        <source>total</source>
        <translation>合计</translation>
    </message>
    <message>
        <source>low end</source>
        <translation>下限</translation>
    </message>
    <message>
        <source>high end</source>
        <translation>上限</translation>
    </message>
    <message>
        <source>fits</source>
        <translation>装得下</translation>
    </message>
    <message>
        <source>tight</source>
        <translation>偏紧</translation>
    </message>
    <message>
        <source>does not fit</source>
        <translation>装不下</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>chipset</source>
        <translation>芯片组</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>full</source>
        <translation>全量</translation>
    </message>
    <message>
        <source>months</source>
        <translation>个月</translation>
    </message>
    <message>
        <source>h</source>
        <translation>小时</translation>
    </message>
</context>
<context>
    <name>parts</name>
    <message>
        <source>GPU</source>
        <translation>显卡</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>Motherboard</source>
        <translation>主板</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>Storage</source>
        <translation>存储</translation>
    </message>
    <message>
        <source>Power supply</source>
        <translation>电源</translation>
    </message>
    <message>
        <source>Case</source>
        <translation>机箱</translation>
    </message>
    <message>
        <source>CPU cooler</source>
        <translation>CPU 散热器</translation>
    </message>
    <message>
        <source>GPU baseboard</source>
        <translation>GPU 基板</translation>
    </message>
    <message>
        <source>ID</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Brand</source>
        <translation>品牌</translation>
    </message>
    <message>
        <source>Category</source>
        <translation>类别</translation>
    </message>
    <message>
        <source>Price</source>
        <translation>价格</translation>
    </message>
    <message>
        <source>Price date</source>
        <translation>报价日期</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>Launch year</source>
        <translation>发布年份</translation>
    </message>
    <message>
        <source>Notes</source>
        <translation>备注</translation>
    </message>
    <message>
        <source>Custom part</source>
        <translation>自定义部件</translation>
    </message>
    <message>
        <source>Used-market price</source>
        <translation>二手市场价</translation>
    </message>
    <message>
        <source>Price edited by you</source>
        <translation>价格已由你修改</translation>
    </message>
    <message>
        <source>Unverified figures</source>
        <translation>未经核实的数据</translation>
    </message>
    <message>
        <source>Vendor</source>
        <translation>厂商</translation>
    </message>
    <message>
        <source>Architecture</source>
        <translation>架构</translation>
    </message>
    <message>
        <source>Compute capability</source>
        <translation>计算能力</translation>
    </message>
    <message>
        <source>GFX target</source>
        <translation>GFX 目标</translation>
    </message>
    <message>
        <source>Form factor</source>
        <translation>规格/外形</translation>
    </message>
    <message>
        <source>VRAM</source>
        <translation>显存</translation>
    </message>
    <message>
        <source>VRAM type</source>
        <translation>显存类型</translation>
    </message>
    <message>
        <source>Memory bandwidth</source>
        <translation>显存带宽</translation>
    </message>
    <message>
        <source>FP32</source>
        <translation>FP32</translation>
    </message>
    <message>
        <source>Tensor Cores</source>
        <translation>Tensor Core</translation>
    </message>
    <message>
        <source>FP16 tensor (dense)</source>
        <translation>FP16 张量（稠密）</translation>
    </message>
    <message>
        <source>BF16 tensor (dense)</source>
        <translation>BF16 张量（稠密）</translation>
    </message>
    <message>
        <source>INT8 (dense)</source>
        <translation>INT8（稠密）</translation>
    </message>
    <message>
        <source>Board power</source>
        <translation>整卡功耗</translation>
    </message>
    <message>
        <source>Recommended PSU</source>
        <translation>推荐电源</translation>
    </message>
    <message>
        <source>8-pin PCIe power inputs</source>
        <translation>8-pin PCIe 供电接口</translation>
    </message>
    <message>
        <source>12VHPWR/12V-2x6 inputs</source>
        <translation>12VHPWR/12V-2x6 接口</translation>
    </message>
    <message>
        <source>8-pin inputs of the bundled adapter</source>
        <translation>随附转接线所需 8-pin 数</translation>
    </message>
    <message>
        <source>8-pin EPS (CPU) inputs</source>
        <translation>8-pin EPS（CPU）接口</translation>
    </message>
    <message>
        <source>PCIe generation</source>
        <translation>PCIe 代数</translation>
    </message>
    <message>
        <source>PCIe lanes</source>
        <translation>PCIe 通道数</translation>
    </message>
    <message>
        <source>Slot width</source>
        <translation>占用槽位</translation>
    </message>
    <message>
        <source>slots</source>
        <translation>槽</translation>
    </message>
    <message>
        <source>Length</source>
        <translation>长度</translation>
    </message>
    <message>
        <source>Cooling</source>
        <translation>散热</translation>
    </message>
    <message>
        <source>NVLink</source>
        <translation>NVLink</translation>
    </message>
    <message>
        <source>NVLink bandwidth</source>
        <translation>NVLink 带宽</translation>
    </message>
    <message>
        <source>NVLink GPUs per link group</source>
        <translation>每组 NVLink 互联 GPU 数</translation>
    </message>
    <message>
        <source>Minimum driver (Linux)</source>
        <translation>最低驱动（Linux）</translation>
    </message>
    <message>
        <source>Minimum CUDA</source>
        <translation>最低 CUDA</translation>
    </message>
    <message>
        <source>Supported by current ROCm</source>
        <translation>当前 ROCm 支持</translation>
    </message>
    <message>
        <source>Socket</source>
        <translation>插槽/接口</translation>
    </message>
    <message>
        <source>Cores</source>
        <translation>核心</translation>
    </message>
    <message>
        <source>Threads</source>
        <translation>线程</translation>
    </message>
    <message>
        <source>Performance cores</source>
        <translation>性能核</translation>
    </message>
    <message>
        <source>Base clock</source>
        <translation>基础频率</translation>
    </message>
    <message>
        <source>Boost clock</source>
        <translation>加速频率</translation>
    </message>
    <message>
        <source>L3 cache</source>
        <translation>三级缓存</translation>
    </message>
    <message>
        <source>TDP</source>
        <translation>TDP</translation>
    </message>
    <message>
        <source>Maximum power</source>
        <translation>最大功耗</translation>
    </message>
    <message>
        <source>Memory types</source>
        <translation>内存类型</translation>
    </message>
    <message>
        <source>Memory channels</source>
        <translation>内存通道</translation>
    </message>
    <message>
        <source>Memory speed</source>
        <translation>内存频率</translation>
    </message>
    <message>
        <source>Maximum memory</source>
        <translation>最大内存</translation>
    </message>
    <message>
        <source>ECC</source>
        <translation>ECC</translation>
    </message>
    <message>
        <source>Registered (RDIMM)</source>
        <translation>寄存式（RDIMM）</translation>
    </message>
    <message>
        <source>Unbuffered (UDIMM)</source>
        <translation>无缓冲（UDIMM）</translation>
    </message>
    <message>
        <source>AVX-512</source>
        <translation>AVX-512</translation>
    </message>
    <message>
        <source>Integrated graphics</source>
        <translation>核显</translation>
    </message>
    <message>
        <source>Sockets per system</source>
        <translation>每系统最多路数</translation>
    </message>
    <message>
        <source>CPU sockets</source>
        <translation>CPU 插槽数</translation>
    </message>
    <message>
        <source>Chipset</source>
        <translation>芯片组</translation>
    </message>
    <message>
        <source>Memory type</source>
        <translation>内存类型</translation>
    </message>
    <message>
        <source>Memory slots</source>
        <translation>内存插槽</translation>
    </message>
    <message>
        <source>PCIe slots</source>
        <translation>PCIe 插槽</translation>
    </message>
    <message>
        <source>M.2 slots</source>
        <translation>M.2 插槽</translation>
    </message>
    <message>
        <source>SATA ports</source>
        <translation>SATA 接口</translation>
    </message>
    <message>
        <source>Capacity</source>
        <translation>容量</translation>
    </message>
    <message>
        <source>Modules</source>
        <translation>条数</translation>
    </message>
    <message>
        <source>Speed</source>
        <translation>频率</translation>
    </message>
    <message>
        <source>CAS latency</source>
        <translation>CAS 时序</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Interface</source>
        <translation>接口</translation>
    </message>
    <message>
        <source>Sequential read</source>
        <translation>顺序读取</translation>
    </message>
    <message>
        <source>Sequential write</source>
        <translation>顺序写入</translation>
    </message>
    <message>
        <source>Random read (4K)</source>
        <translation>随机读取（4K）</translation>
    </message>
    <message>
        <source>Rated power</source>
        <translation>额定功率</translation>
    </message>
    <message>
        <source>Efficiency</source>
        <translation>能效认证</translation>
    </message>
    <message>
        <source>ATX version</source>
        <translation>ATX 版本</translation>
    </message>
    <message>
        <source>8-pin PCIe connectors</source>
        <translation>8-pin PCIe 接头</translation>
    </message>
    <message>
        <source>12V-2x6 connectors</source>
        <translation>12V-2x6 接头</translation>
    </message>
    <message>
        <source>8-pin EPS connectors</source>
        <translation>8-pin EPS 接头</translation>
    </message>
    <message>
        <source>Modular cabling</source>
        <translation>模组化线材</translation>
    </message>
    <message>
        <source>Maximum GPU length</source>
        <translation>显卡限长</translation>
    </message>
    <message>
        <source>Expansion slots</source>
        <translation>扩展槽位</translation>
    </message>
    <message>
        <source>Board form factors</source>
        <translation>支持主板规格</translation>
    </message>
    <message>
        <source>Maximum CPU cooler height</source>
        <translation>CPU 散热器限高</translation>
    </message>
    <message>
        <source>PSU form factors</source>
        <translation>电源规格</translation>
    </message>
    <message>
        <source>Maximum board width</source>
        <translation>主板最大宽度</translation>
    </message>
    <message>
        <source>Maximum board depth</source>
        <translation>主板最大深度</translation>
    </message>
    <message>
        <source>Radiator sizes</source>
        <translation>冷排尺寸</translation>
    </message>
    <message>
        <source>Radiator</source>
        <translation>冷排</translation>
    </message>
    <message>
        <source>Server airflow (front to back)</source>
        <translation>服务器风道（前进后出）</translation>
    </message>
    <message>
        <source>Power supply mounts</source>
        <translation>电源安装位</translation>
    </message>
    <message>
        <source>Width</source>
        <translation>宽度</translation>
    </message>
    <message>
        <source>Depth</source>
        <translation>深度</translation>
    </message>
    <message>
        <source>Cooler in the box</source>
        <translation>盒装附带散热器</translation>
    </message>
    <message>
        <source>Redundant module</source>
        <translation>冗余电源模块</translation>
    </message>
    <message>
        <source>Sockets</source>
        <translation>插座</translation>
    </message>
    <message>
        <source>Height</source>
        <translation>高度</translation>
    </message>
    <message>
        <source>Rated TDP</source>
        <translation>额定 TDP</translation>
    </message>
    <message>
        <source>3.5&quot; drive bays</source>
        <translation>3.5 英寸硬盘位</translation>
    </message>
    <message>
        <source>2.5&quot; drive mounts</source>
        <translation>2.5 英寸硬盘位</translation>
    </message>
    <message>
        <source>Module form factor</source>
        <translation>模块规格</translation>
    </message>
    <message>
        <source>GPU architectures</source>
        <translation>GPU 架构</translation>
    </message>
    <message>
        <source>GPU module sockets</source>
        <translation>GPU 模块插座</translation>
    </message>
    <message>
        <source>GPU interconnect</source>
        <translation>GPU 互连</translation>
    </message>
    <message>
        <source>NVSwitch chips</source>
        <translation>NVSwitch 芯片</translation>
    </message>
    <message>
        <source>NVLink per GPU</source>
        <translation>每卡 NVLink</translation>
    </message>
    <message>
        <source>Host link PCIe generation</source>
        <translation>主机链路 PCIe 版本</translation>
    </message>
    <message>
        <source>Host link lanes per GPU</source>
        <translation>每卡主机链路通道数</translation>
    </message>
    <message>
        <source>Open-air (axial fans)</source>
        <translation>开放式（轴流风扇）</translation>
    </message>
    <message>
        <source>Blower (exhausts out of the case)</source>
        <translation>涡轮（向机箱外排风）</translation>
    </message>
    <message>
        <source>Passive (needs server airflow)</source>
        <translation>被动散热（需服务器风道）</translation>
    </message>
    <message>
        <source>Air cooler</source>
        <translation>风冷散热器</translation>
    </message>
    <message>
        <source>All-in-one liquid cooler</source>
        <translation>一体式水冷</translation>
    </message>
    <message>
        <source>Fully modular</source>
        <translation>全模组</translation>
    </message>
    <message>
        <source>Semi-modular</source>
        <translation>半模组</translation>
    </message>
    <message>
        <source>Not modular</source>
        <translation>非模组</translation>
    </message>
    <message>
        <source>Direct links between GPUs</source>
        <translation>GPU 之间直连</translation>
    </message>
    <message>
        <source>is a URL but not a page&apos;s (https://host/path): give the spec page&apos;s URL, or write where the figures come from as text, not {got!r}</source>
        <translation>是网址但不是具体页面（https://主机/路径）：请填写规格页面的网址，或用文字说明数据来源，而不是 {got!r}</translation>
    </message>
    <message>
        <source>SATA SSD</source>
        <translation>SATA 固态硬盘</translation>
    </message>
    <message>
        <source>Hard disk</source>
        <translation>机械硬盘</translation>
    </message>
    <message>
        <source>NVMe SSD</source>
        <translation>NVMe 固态硬盘</translation>
    </message>
    <message>
        <source>PCIe card</source>
        <translation>PCIe 插卡</translation>
    </message>
    <message>
        <source>SXM module</source>
        <translation>SXM 模组</translation>
    </message>
    <message>
        <source>OAM module</source>
        <translation>OAM 模组</translation>
    </message>
    <message>
        <source>Mid tower</source>
        <translation>中塔</translation>
    </message>
    <message>
        <source>Full tower</source>
        <translation>全塔</translation>
    </message>
    <message>
        <source>Mini tower</source>
        <translation>迷你塔</translation>
    </message>
    <message>
        <source>Mini-ITX tower (SFF)</source>
        <translation>Mini-ITX 小机箱（SFF）</translation>
    </message>
    <message>
        <source>4U rackmount</source>
        <translation>4U 机架式</translation>
    </message>
    <message>
        <source>4U rackmount / tower (server)</source>
        <translation>4U 机架式/塔式（服务器）</translation>
    </message>
    <message>
        <source>Supermicro PWS (redundant)</source>
        <translation>Supermicro PWS（冗余）</translation>
    </message>
    <message>
        <source>NVSwitch</source>
        <translation>NVSwitch</translation>
    </message>
    <message>
        <source>chipset</source>
        <translation>芯片组</translation>
    </message>
    <message>
        <source>is required</source>
        <translation>为必填项</translation>
    </message>
    <message>
        <source>unknown field for a {category}</source>
        <translation>不是 {category} 的字段</translation>
    </message>
    <message>
        <source>must be {expected}, not {got!r}</source>
        <translation>必须是{expected}，而不是 {got!r}</translation>
    </message>
    <message>
        <source>must be one of {choices}, not {got!r}</source>
        <translation>必须是 {choices} 之一，而不是 {got!r}</translation>
    </message>
    <message>
        <source>must not be negative</source>
        <translation>不能为负数</translation>
    </message>
    <message>
        <source>must be greater than zero</source>
        <translation>必须大于零</translation>
    </message>
    <message>
        <source>must be lowercase letters, digits and single &apos;-&apos; (brand-model), not {got!r}</source>
        <translation>只能包含小写字母、数字和单个“-”（品牌-型号），而不是 {got!r}</translation>
    </message>
    <message>
        <source>must be a date like 2026-11 or 2026-11-29, not {got!r}</source>
        <translation>必须是 2026-11 或 2026-11-29 这样的日期，而不是 {got!r}</translation>
    </message>
    <message>
        <source>must be DDR4 or DDR5, not {got!r}</source>
        <translation>必须是 DDR4 或 DDR5，而不是 {got!r}</translation>
    </message>
    <message>
        <source>is {n:,} characters long: at most {limit} are allowed</source>
        <translation>长度为 {n:,} 个字符，最多允许 {limit} 个</translation>
    </message>
    <message>
        <source>an integer</source>
        <translation>整数</translation>
    </message>
    <message>
        <source>a number</source>
        <translation>数字</translation>
    </message>
    <message>
        <source>text</source>
        <translation>文本</translation>
    </message>
    <message>
        <source>true or false</source>
        <translation>true 或 false</translation>
    </message>
    <message>
        <source>a list</source>
        <translation>列表</translation>
    </message>
    <message>
        <source>n/a</source>
        <translation>不适用</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
</context>
<context>
    <name>planner</name>
    <message>
        <source>benchmark run {id}</source>
        <translation>基准测试运行 {id}</translation>
    </message>
</context>
<context>
    <name>report</name>
    <message>
        <source>power cap</source>
        <translation>功耗墙</translation>
    </message>
    <message>
        <source>hardware slowdown</source>
        <translation>硬件降频</translation>
    </message>
    <message>
        <source>thermal (software)</source>
        <translation>温度（软件降频）</translation>
    </message>
    <message>
        <source>thermal (hardware)</source>
        <translation>温度（硬件降频）</translation>
    </message>
    <message>
        <source>power brake</source>
        <translation>电源刹车</translation>
    </message>
    <message>
        <source>{path} is {size} MiB: larger than a recording this report reads (1 GiB)</source>
        <translation>{path} 有 {size} MiB：超过报告可读取的记录大小（1 GiB）</translation>
    </message>
    <message>
        <source>{path} is not a UTF-8 text file: not a monitor recording</source>
        <translation>{path} 不是 UTF-8 文本文件：不是监控记录</translation>
    </message>
    <message>
        <source>cannot read {path}: {error}</source>
        <translation>无法读取 {path}：{error}</translation>
    </message>
    <message>
        <source>{path} is not a monitor recording (its first row must be time, epoch_s, marker, …)</source>
        <translation>{path} 不是监控记录（第一行应为 time, epoch_s, marker, …）</translation>
    </message>
    <message>
        <source>{path} has {n} samples: a report needs at least two</source>
        <translation>{path} 只有 {n} 个采样：生成报告至少需要两个</translation>
    </message>
    <message>
        <source>no training process was seen on a GPU: GPU-6 cannot be judged</source>
        <translation>未在任何 GPU 上看到训练进程：无法按 GPU-6 判断</translation>
    </message>
    <message>
        <source>the GPUs were kept busy: median {util} % while training (GPU-6 asks for ≥ {low} %)</source>
        <translation>GPU 保持繁忙：训练期间利用率中位数 {util} %（GPU-6 要求 ≥ {low} %）</translation>
    </message>
    <message>
        <source>the GPUs waited: median {util} % while training, under GPU-6&apos;s {low} %; most often because {why}</source>
        <translation>GPU 在等待：训练期间利用率中位数 {util} %，低于 GPU-6 的 {low} %；最常见的原因是{why}</translation>
    </message>
    <message>
        <source>{n} s</source>
        <translation>{n} 秒</translation>
    </message>
    <message>
        <source>{n} min</source>
        <translation>{n} 分钟</translation>
    </message>
    <message>
        <source>{n} h</source>
        <translation>{n} 小时</translation>
    </message>
    <message>
        <source>the tariff must be a number from 0 to 100 ¥/kWh</source>
        <translation>电价必须是 0 到 100 ¥/kWh 之间的数字</translation>
    </message>
    <message>
        <source>the recording {name}</source>
        <translation>记录 {name}</translation>
    </message>
</context>
<context>
    <name>rule catalogue</name>
    <message>
        <source>Budget and cost</source>
        <translation>预算与成本</translation>
    </message>
    <message>
        <source>Power</source>
        <translation>电源</translation>
    </message>
    <message>
        <source>PCIe and multi-GPU</source>
        <translation>PCIe 与多卡</translation>
    </message>
    <message>
        <source>Drivers, CUDA, software stack</source>
        <translation>驱动、CUDA 与软件栈</translation>
    </message>
    <message>
        <source>GPU and VRAM</source>
        <translation>GPU 与显存</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>Memory (RAM)</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>Storage</source>
        <translation>存储</translation>
    </message>
    <message>
        <source>Compatibility and fit</source>
        <translation>兼容性与适配</translation>
    </message>
    <message>
        <source>Reference performance</source>
        <translation>参考性能</translation>
    </message>
    <message>
        <source>Presets (the guides&apos; tiers)</source>
        <translation>预设（指南中的配置档次）</translation>
    </message>
    <message>
        <source>Monitoring and troubleshooting</source>
        <translation>监控与故障排查</translation>
    </message>
    <message>
        <source>Beyond the guides</source>
        <translation>指南之外</translation>
    </message>
    <message>
        <source>error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>info</source>
        <translation>提示</translation>
    </message>
    <message>
        <source>doctor: fail</source>
        <translation>环境诊断：失败</translation>
    </message>
    <message>
        <source>doctor: warn</source>
        <translation>环境诊断：警告</translation>
    </message>
    <message>
        <source>checked</source>
        <translation>已检查</translation>
    </message>
    <message>
        <source>the guide&apos;s advice (not checked)</source>
        <translation>指南建议（不检查）</translation>
    </message>
    <message>
        <source>planned</source>
        <translation>计划中</translation>
    </message>
    <message>
        <source>The rules catalogue</source>
        <translation>规则目录</translation>
    </message>
    <message>
        <source>Every finding, alert and doctor check cites one of these rule IDs and its source: G is the PyTorch hardware guide, M the guide to minimum CNN and GPT configurations.</source>
        <translation>每条检查结果、告警和环境诊断都会注明下列规则编号及其出处：G 为《本地部署PyTorch硬件配置指南》，M 为《本地部署CNN与GPT的最低配置指南》。</translation>
    </message>
    <message>
        <source>What each rule checks and why, and the guides&apos; errata: {path} (English).</source>
        <translation>每条规则检查什么、为什么检查，以及指南的勘误：{path}（英文）。</translation>
    </message>
    <message>
        <source>Rule</source>
        <translation>规则</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>出处</translation>
    </message>
    <message>
        <source>Severity</source>
        <translation>严重程度</translation>
    </message>
    <message>
        <source>What</source>
        <translation>内容</translation>
    </message>
    <message>
        <source>The parts&apos; total stays within the budget</source>
        <translation>部件总价不超出预算</translation>
    </message>
    <message>
        <source>A basic local AI box fits in ¥5,000</source>
        <translation>¥5000 内可搭建基础的本地 AI 主机</translation>
    </message>
    <message>
        <source>Months until the build pays for itself against renting</source>
        <translation>与租用云服务器相比，几个月回本</translation>
    </message>
    <message>
        <source>Test a used GPU&apos;s memory before paying</source>
        <translation>购买二手显卡前先测试显存</translation>
    </message>
    <message>
        <source>The supply meets the guide&apos;s and the vendor&apos;s PSU figure</source>
        <translation>电源达到指南和厂商的推荐功率</translation>
    </message>
    <message>
        <source>The supply covers the estimated peak draw</source>
        <translation>电源额定功率覆盖估算的峰值功耗</translation>
    </message>
    <message>
        <source>The supply has the power connectors the parts need</source>
        <translation>电源提供部件所需的供电接口</translation>
    </message>
    <message>
        <source>Throughput per watt</source>
        <translation>每瓦吞吐量</translation>
    </message>
    <message>
        <source>GPUs in PCIe 4.0 slots or better</source>
        <translation>GPU 插在 PCIe 4.0 或更高的插槽上</translation>
    </message>
    <message>
        <source>Every GPU gets a usable x16-length slot</source>
        <translation>每块 GPU 都有可用的 x16 长度插槽</translation>
    </message>
    <message>
        <source>Which link each GPU gets</source>
        <translation>每块 GPU 获得的链路</translation>
    </message>
    <message>
        <source>NVLink bridges only where the cards support them</source>
        <translation>仅在显卡支持时使用 NVLink 桥</translation>
    </message>
    <message>
        <source>Data-parallel scaling reference: 4 cards reach 3.5×</source>
        <translation>数据并行扩展参考：4 卡达到 3.5 倍</translation>
    </message>
    <message>
        <source>Communication can cancel the gain of more cards</source>
        <translation>通信开销可能抵消多卡收益</translation>
    </message>
    <message>
        <source>With DDP the global batch grows with the card count</source>
        <translation>使用 DDP 时全局 batch 随卡数增大</translation>
    </message>
    <message>
        <source>Driver, CUDA and PyTorch builds for the GPU&apos;s architecture</source>
        <translation>适合该 GPU 架构的驱动、CUDA 与 PyTorch 版本</translation>
    </message>
    <message>
        <source>RTX 30 cards: the guides&apos; CUDA 11.3 against the vendor&apos;s 11.1</source>
        <translation>RTX 30 系列：指南要求 CUDA 11.3，厂商最低为 11.1</translation>
    </message>
    <message>
        <source>CUDA and cuDNN match the framework build</source>
        <translation>CUDA 与 cuDNN 与框架版本匹配</translation>
    </message>
    <message>
        <source>AMD GPUs need ROCm</source>
        <translation>AMD 显卡需要 ROCm</translation>
    </message>
    <message>
        <source>Verify the stack: nvidia-smi, torch.cuda, torch.version</source>
        <translation>验证软件栈：nvidia-smi、torch.cuda、torch.version</translation>
    </message>
    <message>
        <source>Ubuntu LTS, WSL2 on Windows, an isolated Python</source>
        <translation>Ubuntu LTS；Windows 上用 WSL2；Python 环境隔离</translation>
    </message>
    <message>
        <source>Containerise: a CUDA base image matching the driver</source>
        <translation>容器化：使用与驱动匹配的 CUDA 基础镜像</translation>
    </message>
    <message>
        <source>What a 6 GB card is good for</source>
        <translation>6 GB 显卡适合做什么</translation>
    </message>
    <message>
        <source>Transformers: 24 GB of VRAM recommended</source>
        <translation>Transformer 模型：建议 24 GB 显存</translation>
    </message>
    <message>
        <source>BERT-base: batch 64 on 24 GB, batch 32 on 12 GB</source>
        <translation>BERT-base：24 GB 用 batch 64，12 GB 用 batch 32</translation>
    </message>
    <message>
        <source>CNN minimum: a 4 GB card, batch 32 on it</source>
        <translation>CNN 最低要求：4 GB 显卡，batch 32</translation>
    </message>
    <message>
        <source>GPT minimum: RTX 3060 12 GB; 16 GB for GPT-2 Medium</source>
        <translation>GPT 最低要求：RTX 3060 12 GB；GPT-2 Medium 需 16 GB</translation>
    </message>
    <message>
        <source>GPU busy under 70 % while training: a bottleneck elsewhere</source>
        <translation>训练时 GPU 利用率低于 70 %：瓶颈在别处</translation>
    </message>
    <message>
        <source>No GPU: small models only</source>
        <translation>无 GPU：只适合小模型</translation>
    </message>
    <message>
        <source>8 cores or more</source>
        <translation>8 核或以上</translation>
    </message>
    <message>
        <source>SMT / Hyper-Threading is worth 20–30 %</source>
        <translation>SMT/超线程可提升 20–30 %</translation>
    </message>
    <message>
        <source>16 MB of L3 cache or more</source>
        <translation>L3 缓存 16 MB 或以上</translation>
    </message>
    <message>
        <source>CPU-only inference: prefer AVX-512</source>
        <translation>纯 CPU 推理：优先选择 AVX-512</translation>
    </message>
    <message>
        <source>CPU minimum: 6 cores / 12 threads at 3.6 GHz</source>
        <translation>CPU 最低要求：6 核 12 线程，3.6 GHz</translation>
    </message>
    <message>
        <source>Ryzen 9 5950X against i9-12900K</source>
        <translation>Ryzen 9 5950X 与 i9-12900K 对比</translation>
    </message>
    <message>
        <source>The guide&apos;s RAM formula, beside a first-principles estimate</source>
        <translation>指南的内存公式，与基于原理的估算并列</translation>
    </message>
    <message>
        <source>CNN: 16 GB of DDR4-3200, 8 GB kept free</source>
        <translation>CNN：16 GB DDR4-3200，预留 8 GB 空闲</translation>
    </message>
    <message>
        <source>GPT: 32 GB of RAM, 64 GB better</source>
        <translation>GPT：32 GB 内存，64 GB 更佳</translation>
    </message>
    <message>
        <source>Ways to need less memory</source>
        <translation>降低内存需求的方法</translation>
    </message>
    <message>
        <source>How long one pass over the data set takes</source>
        <translation>读一遍数据集需要多久</translation>
    </message>
    <message>
        <source>Tier the storage: hot data on SSD, archives on HDD</source>
        <translation>分级存储：常用数据放 SSD，归档放 HDD</translation>
    </message>
    <message>
        <source>An NVMe drive of 2000 MB/s; 256 GB (CNN) or 512 GB (GPT)</source>
        <translation>NVMe 硬盘 2000 MB/s；256 GB（CNN）或 512 GB（GPT）</translation>
    </message>
    <message>
        <source>The working data set fits on the fast tier</source>
        <translation>工作数据集放得进高速存储</translation>
    </message>
    <message>
        <source>Data-loader tips</source>
        <translation>数据加载建议</translation>
    </message>
    <message>
        <source>The CPU fits the board&apos;s socket</source>
        <translation>CPU 与主板插槽匹配</translation>
    </message>
    <message>
        <source>Memory type, RDIMM/UDIMM and ECC suit board and CPU</source>
        <translation>内存类型、RDIMM/UDIMM 与 ECC 与主板和 CPU 匹配</translation>
    </message>
    <message>
        <source>Module count and capacity within the board&apos;s limits</source>
        <translation>内存条数量与容量在主板上限之内</translation>
    </message>
    <message>
        <source>Cards and board fit the case</source>
        <translation>显卡和主板装得进机箱</translation>
    </message>
    <message>
        <source>A CPU newer than the board may need a BIOS update</source>
        <translation>比主板新的 CPU 可能需要先更新 BIOS</translation>
    </message>
    <message>
        <source>The workload fits in each GPU&apos;s memory</source>
        <translation>工作负载放得进每块 GPU 的显存</translation>
    </message>
    <message>
        <source>The host RAM holds what training needs</source>
        <translation>主机内存满足训练所需</translation>
    </message>
    <message>
        <source>The data set fits on the build&apos;s storage</source>
        <translation>数据集放得进整机存储</translation>
    </message>
    <message>
        <source>ResNet-50 on RTX 3090: 230 img/s FP32, 460 img/s AMP per card</source>
        <translation>RTX 3090 上的 ResNet-50：单卡 FP32 230 img/s，AMP 460 img/s</translation>
    </message>
    <message>
        <source>GTX 1660 Super: 37 % of an RTX 3090 on ResNet-18</source>
        <translation>GTX 1660 Super：ResNet-18 上为 RTX 3090 的 37 %</translation>
    </message>
    <message>
        <source>RTX 3060: GPT-2 Small writes 512 tokens in about 8 s</source>
        <translation>RTX 3060：GPT-2 Small 约 8 秒生成 512 个 token</translation>
    </message>
    <message>
        <source>INT8 quantisation: −75 % memory, 2–3× faster inference</source>
        <translation>INT8 量化：内存 −75 %，推理快 2–3 倍</translation>
    </message>
    <message>
        <source>ONNX Runtime: about 30 % faster inference</source>
        <translation>ONNX Runtime：推理快约 30 %</translation>
    </message>
    <message>
        <source>Pruning half the parameters costs about 2 % accuracy</source>
        <translation>剪枝一半参数约损失 2 % 精度</translation>
    </message>
    <message>
        <source>Entry tier: RTX 3060 12GB, Ryzen 5 5600X, 32 GB, 1 TB NVMe</source>
        <translation>入门级：RTX 3060 12GB、Ryzen 5 5600X、32 GB、1 TB NVMe</translation>
    </message>
    <message>
        <source>Professional tier: 2× RTX 3090 + NVLink, Threadripper Pro</source>
        <translation>专业级：2× RTX 3090 + NVLink、Threadripper Pro</translation>
    </message>
    <message>
        <source>Enterprise tier: 4× A100 80GB, 2× Xeon Platinum 8380</source>
        <translation>企业级：4× A100 80GB、2× Xeon Platinum 8380</translation>
    </message>
    <message>
        <source>CNN minimum: GTX 1650 Super, i5-10400F, 16 GB, 256 GB NVMe</source>
        <translation>CNN 最低配置：GTX 1650 Super、i5-10400F、16 GB、256 GB NVMe</translation>
    </message>
    <message>
        <source>GPT minimum: RTX 3060 12GB, 32 GB, 512 GB SSD</source>
        <translation>GPT 最低配置：RTX 3060 12GB、32 GB、512 GB SSD</translation>
    </message>
    <message>
        <source>Watch temperature, memory, utilisation and the host</source>
        <translation>监控温度、显存、利用率和主机</translation>
    </message>
    <message>
        <source>Prometheus and Grafana dashboards</source>
        <translation>Prometheus 与 Grafana 仪表盘</translation>
    </message>
    <message>
        <source>Before CUDA runs out of memory</source>
        <translation>在 CUDA 显存不足之前</translation>
    </message>
    <message>
        <source>GPUs of one job out of step</source>
        <translation>同一任务的多块 GPU 步调不一</translation>
    </message>
    <message>
        <source>Version conflicts: pip check</source>
        <translation>版本冲突：pip check</translation>
    </message>
    <message>
        <source>Model paths with Chinese or special characters</source>
        <translation>含中文或特殊字符的模型路径</translation>
    </message>
    <message>
        <source>The upgrade path: short, medium and long term</source>
        <translation>升级路径：短期、中期与长期</translation>
    </message>
    <message>
        <source>Passively cooled cards need forced airflow</source>
        <translation>被动散热显卡需要强制风道</translation>
    </message>
    <message>
        <source>Open-air cards need a gap between them</source>
        <translation>开放式散热显卡之间需要留空</translation>
    </message>
    <message>
        <source>The PSU&apos;s form factor fits the case</source>
        <translation>电源规格装得进机箱</translation>
    </message>
    <message>
        <source>The board&apos;s dimensions fit the case</source>
        <translation>主板尺寸装得进机箱</translation>
    </message>
    <message>
        <source>The CPU cooler fits the socket, the case and the CPU</source>
        <translation>CPU 散热器与插槽、机箱和 CPU 匹配</translation>
    </message>
    <message>
        <source>Drives fit M.2 slots, SATA ports and bays</source>
        <translation>硬盘有对应的 M.2 插槽、SATA 接口和仓位</translation>
    </message>
    <message>
        <source>Several PSUs, ATX 3.x headroom, 90 % load</source>
        <translation>多电源、ATX 3.x 余量与 90 % 负载</translation>
    </message>
    <message>
        <source>SXM/OAM modules sit on their baseboard</source>
        <translation>SXM/OAM 模组须装在其基板上</translation>
    </message>
    <message>
        <source>One CPU on a dual-socket board: half the slots are dead</source>
        <translation>双路主板只装一颗 CPU：一半插槽不可用</translation>
    </message>
    <message>
        <source>An M.2 drive can take lanes from a GPU slot</source>
        <translation>M.2 硬盘可能占用 GPU 插槽的通道</translation>
    </message>
    <message>
        <source>GeForce 40/50 cards have no peer-to-peer</source>
        <translation>GeForce 40/50 系列不支持点对点（P2P）</translation>
    </message>
    <message>
        <source>NVLink bridges have fixed slot spacings</source>
        <translation>NVLink 桥的插槽间距是固定的</translation>
    </message>
    <message>
        <source>Enough CPU cores per GPU to feed it</source>
        <translation>每块 GPU 配足够的 CPU 核心喂数据</translation>
    </message>
    <message>
        <source>Populate the CPU&apos;s memory channels</source>
        <translation>插满 CPU 的内存通道</translation>
    </message>
    <message>
        <source>Host RAM at least the total VRAM</source>
        <translation>主机内存不少于显存总量</translation>
    </message>
    <message>
        <source>Storage for the data, the environment and the checkpoints</source>
        <translation>存储容纳数据、环境和检查点</translation>
    </message>
    <message>
        <source>Where a guide&apos;s figure and measurements disagree</source>
        <translation>指南数据与实测不一致之处</translation>
    </message>
    <message>
        <source>Across nodes the network sets the scaling</source>
        <translation>跨节点时由网络决定扩展效率</translation>
    </message>
</context>
<context>
    <name>rules</name>
    <message>
        <source>Total ¥{total:,}; no budget set.</source>
        <translation>总价 ¥{total:,}；未设置预算。</translation>
    </message>
    <message>
        <source>Over budget: ¥{total:,} against ¥{budget:,.0f}, ¥{over:,.0f} too much.</source>
        <translation>超出预算：¥{total:,}，预算 ¥{budget:,.0f}，超出 ¥{over:,.0f}。</translation>
    </message>
    <message>
        <source>Within budget: ¥{total:,} of ¥{budget:,.0f}, ¥{left:,.0f} left.</source>
        <translation>在预算内：¥{total:,} / ¥{budget:,.0f}，剩余 ¥{left:,.0f}。</translation>
    </message>
    <message>
        <source>The guide&apos;s basic local AI box fits in ¥{ref:,}; this build is ¥{total:,} ({verdict}).</source>
        <translation>指南的基础本地 AI 主机预算为 ¥{ref:,}；此配置 ¥{total:,}（{verdict}）。</translation>
    </message>
    <message>
        <source>within it</source>
        <translation>在此范围内</translation>
    </message>
    <message>
        <source>above it</source>
        <translation>超出此范围</translation>
    </message>
    <message>
        <source>{name} is bought used: test its VRAM before paying (the Benchmark tab&apos;s VRAM pattern test), and check for ex-mining wear (fans, thermal pads).</source>
        <translation>{name} 为二手：付款前请测试显存（基准测试页的显存图案测试），并检查矿卡磨损（风扇、导热垫）。</translation>
    </message>
    <message>
        <source>The cloud price table has no comparable rental for {names}.</source>
        <translation>云价格表中没有与 {names} 相当的租用选项。</translation>
    </message>
    <message>
        <source>{label}, ¥{price:g}/GPU-h, {date}</source>
        <translation>{label}，¥{price:g}/卡时，{date}</translation>
    </message>
    <message>
        <source>{first}; {next}</source>
        <translation>{first}；{next}</translation>
    </message>
    <message>
        <source>Renting {n} comparable GPU(s) ({basis}) at {hours:g} h/day costs ¥{rent:,.0f}/month, less than the electricity: against that it never pays for itself.</source>
        <translation>租用 {n} 块相当的 GPU（{basis}），每天 {hours:g} 小时，每月 ¥{rent:,.0f}，低于电费：与之相比永远无法回本。</translation>
    </message>
    <message>
        <source>Against renting {n} comparable GPU(s) ({basis}) at {hours:g} h/day, ¥{rent:,.0f}/month: {months:.1f} months.</source>
        <translation>与租用 {n} 块相当的 GPU（{basis}）、每天 {hours:g} 小时、每月 ¥{rent:,.0f} 相比：{months:.1f} 个月回本。</translation>
    </message>
    <message>
        <source>GPUs and CPU packages</source>
        <translation>GPU 和 CPU 封装</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source> Draw measured: {measured:,.0f} W ({what}, mean over {source}) + {rest} W estimated for the rest of the platform.</source>
        <translation>实测功耗：{measured:,.0f} W（{what}，{source} 期间的平均值）+ 平台其余部分估算 {rest} W。</translation>
    </message>
    <message>
        <source>Renting at ¥{cloud:,.0f}/month costs less than this build&apos;s electricity (¥{power:,.0f}/month): it never pays for itself. {rent}{measured}</source>
        <translation>按每月 ¥{cloud:,.0f} 租用比此配置的电费（每月 ¥{power:,.0f}）还便宜：永远无法回本。{rent}{measured}</translation>
    </message>
    <message>
        <source>Pays for itself in {months:.1f} months against renting at ¥{cloud:,.0f}/month (the guide&apos;s figure): ¥{total:,} ÷ (¥{cloud:,.0f} − ¥{power:,.0f} electricity at {draw} W × {hours:g} h/day × ¥{tariff:g}/kWh). {rent}{measured}</source>
        <translation>与每月 ¥{cloud:,.0f} 的租用（指南的数字）相比，{months:.1f} 个月回本：¥{total:,} ÷（¥{cloud:,.0f} − 电费 ¥{power:,.0f}，按 {draw} W × 每天 {hours:g} 小时 × ¥{tariff:g}/kWh）。{rent}{measured}</translation>
    </message>
    <message>
        <source>No power supply chosen; the build needs at least {peak} W ({formula}).</source>
        <translation>尚未选择电源；此配置至少需要 {peak} W（{formula}）。</translation>
    </message>
    <message>
        <source>The {psu} W power supply is below the estimated peak draw of {peak} W: {formula}.</source>
        <translation>{psu} W 电源低于估算峰值功耗 {peak} W：{formula}。</translation>
    </message>
    <message>
        <source>Estimated peak draw {peak} W of the {psu} W supply ({load:.0%}): {formula}.</source>
        <translation>估算峰值功耗 {peak} W，占 {psu} W 电源的 {load:.0%}：{formula}。</translation>
    </message>
    <message>
        <source>The vendor recommends a {rec} W supply for this GPU; this one has {psu} W.</source>
        <translation>厂商为此 GPU 推荐 {rec} W 电源；当前电源为 {psu} W。</translation>
    </message>
    <message>
        <source>The vendor recommends a {rec} W supply for this GPU setup ({base} W for one card + {extra} W for the others); this one has {psu} W.</source>
        <translation>厂商为此多卡配置推荐 {rec} W 电源（单卡 {base} W + 其余各卡 {extra} W）；当前电源为 {psu} W。</translation>
    </message>
    <message>
        <source>The guide asks for {guide_w} W or more with an RTX 3090 and the vendor recommends {rec} W for this GPU setup; this supply has {psu} W.</source>
        <translation>指南要求 RTX 3090 配 {guide_w} W 或以上电源，厂商对此 GPU 配置建议 {rec} W；此电源为 {psu} W。</translation>
    </message>
    <message>
        <source>The guide asks for {guide_w} W or more with an RTX 3090 (NVIDIA&apos;s own figure is 750 W for one card); this supply has {psu} W.</source>
        <translation>指南要求 RTX 3090 配 {guide_w} W 以上电源（NVIDIA 官方单卡推荐为 750 W）；当前电源为 {psu} W。</translation>
    </message>
    <message>
        <source>{n} redundant supply modules: {watts} W usable, one module&apos;s worth kept spare (N+1), so the machine keeps running when one fails.</source>
        <translation>{n} 个冗余电源模块：可用 {watts} W，留一个模块作备份（N+1），其中一个故障时机器仍可继续运行。</translation>
    </message>
    <message>
        <source>{n} power supplies add up to {watts} W. Give each GPU all its cables from one supply, and have them start together (a multi-PSU adapter, or a board or chassis made for several).</source>
        <translation>{n} 个电源合计 {watts} W。每张 GPU 的供电线都应来自同一个电源，并让各电源同时启动（使用多电源同步启动板，或支持多电源的主板/机箱）。</translation>
    </message>
    <message>
        <source>Not every supply is ATX 3.x, so the sizing keeps the older 30 % transient headroom.</source>
        <translation>并非所有电源都是 ATX 3.x，因此功率核算仍按旧的 30 % 瞬态余量。</translation>
    </message>
    <message>
        <source>{psu} is one module of a redundant (N+1) set: alone it has no spare, and the machine stops when it fails. Fit at least two; N+1 modules deliver N modules&apos; watts.</source>
        <translation>{psu} 是冗余（N+1）电源组中的一个模块：单独使用没有备份，它一旦故障整机即停。至少装两个；N+1 个模块提供 N 个模块的功率。</translation>
    </message>
    <message>
        <source>The sustained draw of {sustained} W is {load:.1%} of the {watts} W the supplies deliver: above 80 % for hours runs the supply hot, loud and short-lived. {need} W or more keeps it under 80 %.</source>
        <translation>持续功耗 {sustained} W 为电源可提供的 {watts} W 的 {load:.1%}：长时间超过 80 % 会使电源发热、噪音大且寿命缩短。{need} W 或以上可保持在 80 % 以下。</translation>
    </message>
    <message>
        <source>The estimated peak of {peak} W is {load:.1%} of the {watts} W rating: above 90 % leaves no margin for the estimate&apos;s error, ageing and a hot room. A supply of {need} W or more stays under 90 %.</source>
        <translation>估算峰值 {peak} W 达到额定 {watts} W 的 {load:.1%}：超过 90 % 就没有余量应对估算误差、电源老化和高室温。选用 {need} W 或以上的电源可保持在 90 % 以下。</translation>
    </message>
    <message>
        <source>Not enough GPU power connectors: the cards need {n8} × 8-pin and {n16} × 16-pin (12VHPWR/12V-2x6){eps}; the supply has {p8} × 8-pin and {p16} × 16-pin.</source>
        <translation>GPU 供电接口不足：显卡需要 {n8} 个 8-pin 和 {n16} 个 16-pin（12VHPWR/12V-2x6）{eps}；电源只有 {p8} 个 8-pin 和 {p16} 个 16-pin。</translation>
    </message>
    <message>
        <source>, and {a} × 8-pin for the EPS adapters</source>
        <translation>，以及 EPS 转接线所需的 {a} 个 8-pin</translation>
    </message>
    <message>
        <source>{n} 16-pin input(s) must use the cards&apos; bundled adapters ({a} × 8-pin): it works, but a native 12V-2x6 cable is safer.</source>
        <translation>{n} 个 16-pin 接口需使用显卡附带的转接线（{a} 个 8-pin）：可以工作，但原生 12V-2x6 线材更安全。</translation>
    </message>
    <message>
        <source>{n} × {gpu}: the card&apos;s power input is an 8-pin CPU (EPS) socket and the supply&apos;s EPS cables go to the CPUs, so it takes the adapter shipped with the card ({per} × PCIe 8-pin → 8-pin EPS). Use that adapter, never a CPU cable from another supply; check it is in the box.</source>
        <translation>{n} × {gpu}：该卡的供电接口是 8-pin CPU（EPS）插座，而电源的 EPS 线已接 CPU，因此需使用随卡附带的转接线（{per} × PCIe 8-pin → 8-pin EPS）。请使用该转接线，切勿使用其他电源的 CPU 线；请确认包装内有此转接线。</translation>
    </message>
    <message>
        <source>Not enough 8-pin EPS connectors: {need} needed (CPUs and data-centre GPUs), the supply has {have}.</source>
        <translation>8-pin EPS 接口不足：需要 {need} 个（CPU 和数据中心 GPU），电源只有 {have} 个。</translation>
    </message>
    <message>
        <source>{per_w:.3g} {unit} per kilowatt at {watts} W measured draw.{measured}</source>
        <translation>实测功耗 {watts} W 时，每千瓦 {per_w:.3g} {unit}。{measured}</translation>
    </message>
    <message>
        <source>{per_w:.3g} {unit} per watt at {watts} W measured draw.{measured}</source>
        <translation>实测功耗 {watts} W 时，每瓦 {per_w:.3g} {unit}。{measured}</translation>
    </message>
    <message>
        <source>{per_w:.3g} {unit} per kilowatt at {watts} W average draw.</source>
        <translation>平均功耗 {watts} W 时，每千瓦 {per_w:.3g} {unit}。</translation>
    </message>
    <message>
        <source>{per_w:.3g} {unit} per watt at {watts} W average draw.</source>
        <translation>平均功耗 {watts} W 时，每瓦 {per_w:.3g} {unit}。</translation>
    </message>
    <message>
        <source>{gpu} ({target}) needs ROCm and PyTorch&apos;s ROCm wheels; libraries built for CUDA only (many custom kernels) will not run.</source>
        <translation>{gpu}（{target}）需要 ROCm 及 PyTorch 的 ROCm 版本；只为 CUDA 构建的库（许多自定义算子）无法运行。</translation>
    </message>
    <message>
        <source>{gpu} ({target}) is supported by neither current ROCm nor PyTorch&apos;s ROCm wheels: no GPU path for PyTorch; it would train on the CPU.</source>
        <translation>{gpu}（{target}）既不受当前 ROCm 支持，也不受 PyTorch ROCm 版本支持：PyTorch 无法使用它，只能在 CPU 上训练。</translation>
    </message>
    <message>
        <source>{gpu} (sm_{cc}) is not in the newest PyTorch CUDA builds: install the {pytorch}.</source>
        <translation>{gpu}（sm_{cc}）不在最新的 PyTorch CUDA 版本中：请安装 {pytorch}。</translation>
    </message>
    <message>
        <source>{gpu}: {arch}, sm_{cc}: CUDA ≥ {cuda} (Linux driver ≥ {driver}); PyTorch {pytorch}. Table checked {checked}.</source>
        <translation>{gpu}：{arch}，sm_{cc}：CUDA ≥ {cuda}（Linux 驱动 ≥ {driver}）；PyTorch {pytorch}。表格核对于 {checked}。</translation>
    </message>
    <message>
        <source>The guides ask for driver ≥ 450.80.02 and CUDA ≥ 11.3 for RTX 30 cards; the vendor minimum is CUDA 11.1 with driver ≥ 455.23.04 (450.80.02 is CUDA 11.0&apos;s, which has no sm_86). Current PyTorch wheels bundle a newer CUDA anyway.</source>
        <translation>指南要求 RTX 30 系显卡驱动 ≥ 450.80.02、CUDA ≥ 11.3；厂商最低要求是 CUDA 11.1 与驱动 ≥ 455.23.04（450.80.02 属于 CUDA 11.0，不支持 sm_86）。当前的 PyTorch 安装包本就自带更新的 CUDA。</translation>
    </message>
    <message>
        <source>PyTorch&apos;s pip wheels bundle the CUDA runtime and cuDNN: only the driver must be new enough. A system or conda CUDA must match the framework build, or GPU acceleration silently fails.</source>
        <translation>PyTorch 的 pip 安装包自带 CUDA 运行时和 cuDNN：只需驱动足够新。系统或 conda 安装的 CUDA 必须与框架版本匹配，否则 GPU 加速会悄然失效。</translation>
    </message>
    <message>
        <source>To isolate the stack, use a CUDA base image no newer than the driver supports, then install the framework in it.</source>
        <translation>为隔离环境，请使用不高于驱动所支持版本的 CUDA 基础镜像，再在其中安装框架。</translation>
    </message>
    <message>
        <source>On Windows, train under WSL2 (Ubuntu LTS) in a venv or conda environment.</source>
        <translation>在 Windows 上，请在 WSL2（Ubuntu LTS）中使用 venv 或 conda 环境训练。</translation>
    </message>
    <message>
        <source>{os}: a current Ubuntu LTS (24.04) is the best-supported choice.</source>
        <translation>{os}：当前的 Ubuntu LTS（24.04）支持最好。</translation>
    </message>
    <message>
        <source>No GPU: small models (MNIST-sized) train on the CPU or integrated graphics; anything like BERT pre-training needs a professional GPU.</source>
        <translation>没有 GPU：小模型（MNIST 规模）可在 CPU 或集成显卡上训练；BERT 预训练之类的任务需要专业级 GPU。</translation>
    </message>
    <message>
        <source>A {vram} GiB card suits fewer than 100k samples, CNNs under 50M parameters and real-time inference under 50 ms; this workload has {params:.0f}M parameters.</source>
        <translation>{vram} GiB 显卡适合 10 万以内样本、5000 万参数以下的 CNN 以及 50 ms 以内的实时推理；此工作负载有 {params:.0f}M 参数。</translation>
    </message>
    <message>
        <source>The CNN minimum is a 4 GiB card (GTX 1650 Super); this one has {vram} GiB.</source>
        <translation>CNN 最低需要 4 GiB 显卡（GTX 1650 Super）；此卡只有 {vram} GiB。</translation>
    </message>
    <message>
        <source>On a 4 GiB card the guide suggests batch 32; this workload uses {b}.</source>
        <translation>指南建议 4 GiB 显卡使用批大小 32；此工作负载为 {b}。</translation>
    </message>
    <message>
        <source>For Transformer models the guide recommends 24 GiB or more of VRAM; this card has {vram}.</source>
        <translation>指南建议 Transformer 模型使用 24 GiB 以上显存；此卡为 {vram}。</translation>
    </message>
    <message>
        <source>The guide trains BERT-base with batch {g} on {vram} GiB; batch {b} is above it.</source>
        <translation>指南在 {vram} GiB 上以批大小 {g} 训练 BERT-base；批大小 {b} 超出了它。</translation>
    </message>
    <message>
        <source>With 12–23 GiB the guide uses batch 32 for BERT-base, about 40 % longer training than batch 64 on 24 GiB.</source>
        <translation>在 12–23 GiB 显存上，指南对 BERT-base 使用批大小 32，训练时间比 24 GiB 上的批大小 64 长约 40%。</translation>
    </message>
    <message>
        <source>For GPT-2 Medium (345M) the guide recommends the RTX 3090 24 GB or A4000 16 GB, so {need} GiB or more (its GPT minimum is the RTX 3060 12 GB with FP16 mixed precision); this card has {vram} GiB. Whether it fits is FIT-1&apos;s estimate, not this recommendation.</source>
        <translation>对于 GPT-2 Medium（345M），指南推荐 RTX 3090 24 GB 或 A4000 16 GB，即 {need} GiB 或以上（其 GPT 最低配置为使用 FP16 混合精度的 RTX 3060 12 GB）；此卡为 {vram} GiB。能否放下以 FIT-1 的估算为准，而非这条建议。</translation>
    </message>
    <message>
        <source>The guide&apos;s GPT minimum is the RTX 3060 12 GB (FP16 mixed precision); this card has {vram} GiB. Whether it fits is FIT-1&apos;s estimate, not this recommendation.</source>
        <translation>指南的 GPT 最低配置是 RTX 3060 12 GB（FP16 混合精度）；此卡为 {vram} GiB。能否放下以 FIT-1 的估算为准，而非这条建议。</translation>
    </message>
    <message>
        <source>{cores} cores; the guide recommends 8 or more (for model parallelism).</source>
        <translation>{cores} 核；指南建议 8 核以上（模型并行时）。</translation>
    </message>
    <message>
        <source>{cpu} has no SMT/Hyper-Threading, which the guide values at +20–30 %.</source>
        <translation>{cpu} 不支持 SMT/超线程，指南认为超线程可提升 20–30%。</translation>
    </message>
    <message>
        <source>{l3:g} MB of L3 cache; the guide recommends 16 MB or more.</source>
        <translation>三级缓存 {l3:g} MB；指南建议 16 MB 以上。</translation>
    </message>
    <message>
        <source>CPU-only inference: {cpu} has no AVX-512, which the guide prefers.</source>
        <translation>纯 CPU 推理：{cpu} 不支持指南推荐的 AVX-512。</translation>
    </message>
    <message>
        <source>Below the guide&apos;s CPU minimum (6 cores/12 threads such as i5-10400F or Ryzen 5 3600, ≥ 3.6 GHz): {cores} cores, {threads} threads, {ghz:g} GHz.</source>
        <translation>低于指南的 CPU 最低要求（6 核 12 线程，如 i5-10400F 或 Ryzen 5 3600，≥ 3.6 GHz）：{cores} 核，{threads} 线程，{ghz:g} GHz。</translation>
    </message>
    <message>
        <source>The guide measured the Ryzen 9 5950X 18 % faster than the i9-12900K at data preprocessing, and equal at launching CUDA kernels.</source>
        <translation>指南实测 Ryzen 9 5950X 在数据预处理上比 i9-12900K 快 18%，在 CUDA 内核调用上相当。</translation>
    </message>
    <message>
        <source>Estimated host RAM need {need:.1f} GiB (first principles: OS and libraries, a host copy of the weights per process, DataLoader prefetch) is more than the {ram} GiB installed.</source>
        <translation>估算主机内存需求 {need:.1f} GiB（第一性原理：操作系统与库、每个进程一份主机端权重副本、DataLoader 预取）超过已安装的 {ram} GiB。</translation>
    </message>
    <message>
        <source>The guide&apos;s formula (params × batch × 4 B × 1.2, halved for mixed precision) asks for {guide_gb:.0f} GiB; {ram} GiB is installed. The formula scales weights with the batch, which memory does not do; the first-principles estimate is {fp:.1f} GiB.</source>
        <translation>指南公式（参数量 × 批大小 × 4 B × 1.2，混合精度减半）要求 {guide_gb:.0f} GiB；已安装 {ram} GiB。该公式让权重随批大小增长，而实际内存并非如此；第一性原理估算为 {fp:.1f} GiB。</translation>
    </message>
    <message>
        <source>Guide&apos;s formula: {guide_gb:.1f} GiB; first-principles estimate: {fp:.1f} GiB; installed: {ram} GiB.</source>
        <translation>指南公式：{guide_gb:.1f} GiB；第一性原理估算：{fp:.1f} GiB；已安装：{ram} GiB。</translation>
    </message>
    <message>
        <source>The guide&apos;s CNN minimum is 16 GB DDR4-3200; {ram} GiB installed.</source>
        <translation>指南的 CNN 最低内存为 16 GB DDR4-3200；已安装 {ram} GiB。</translation>
    </message>
    <message>
        <source>Keep at least 8 GiB free for data loading; about {free:.1f} GiB would be left.</source>
        <translation>数据加载需至少保留 8 GiB 空闲内存；估计只剩约 {free:.1f} GiB。</translation>
    </message>
    <message>
        <source>The guide&apos;s GPT minimum is 32 GB of RAM (64 GB better); {ram} GiB installed.</source>
        <translation>指南的 GPT 最低内存为 32 GB（64 GB 更佳）；已安装 {ram} GiB。</translation>
    </message>
    <message>
        <source>32 GB meets the GPT minimum; the guide prefers 64 GB.</source>
        <translation>32 GB 满足 GPT 最低要求；指南更推荐 64 GB。</translation>
    </message>
    <message>
        <source>No NVMe drive: the guides want NVMe (≥ 2000 MB/s) for loading weights and data.</source>
        <translation>没有 NVMe 硬盘：指南要求使用 NVMe（≥ 2000 MB/s）加载权重和数据。</translation>
    </message>
    <message>
        <source>The fastest NVMe reads {mbs} MB/s; the guide asks for ≥ 2000 MB/s.</source>
        <translation>最快的 NVMe 读取速度为 {mbs} MB/s；指南要求 ≥ 2000 MB/s。</translation>
    </message>
    <message>
        <source>{gb} GB of SSD; the guide asks for ≥ {min} GB for this kind of work.</source>
        <translation>SSD 容量 {gb} GB；指南对此类任务要求 ≥ {min} GB。</translation>
    </message>
    <message>
        <source>The {ds:g} GB data set does not fit on {gb} GB of storage.</source>
        <translation>{ds:g} GB 的数据集放不进 {gb} GB 的存储。</translation>
    </message>
    <message>
        <source>The {ds:g} GB data set does not fit on the {gb} GB fast tier (SSD/NVMe); epochs will read from the hard disk.</source>
        <translation>{ds:g} GB 的数据集放不进 {gb} GB 的高速层（SSD/NVMe）；训练时将从机械硬盘读取。</translation>
    </message>
    <message>
        <source>Reading {ds:g} GB once at {mbs} MB/s takes about {sec:,.0f} s (guide&apos;s reference: HDD 150, SATA SSD 550, NVMe 3500 MB/s).</source>
        <translation>以 {mbs} MB/s 读取一遍 {ds:g} GB 约需 {sec:,.0f} 秒（指南参考：HDD 150、SATA SSD 550、NVMe 3500 MB/s）。</translation>
    </message>
    <message>
        <source>Tiered storage: keep the hot data set on the SSD and archives on the hard disk.</source>
        <translation>分级存储：常用数据放在 SSD，归档数据放在机械硬盘。</translation>
    </message>
    <message>
        <source>Data loading: num_workers ≥ 4, memory-map huge files, DALI for GPU preprocessing.</source>
        <translation>数据加载：num_workers ≥ 4，超大文件使用内存映射，GPU 预处理使用 DALI。</translation>
    </message>
    <message>
        <source>Estimated {need:.1f} GiB per GPU (range {low:.1f}–{high:.1f}: weights {w:.1f}, gradients {g:.1f}, optimizer {o:.1f}, activations {a:.1f}, logits and loss {lg:.1f}, KV cache {kv:.1f}, CUDA context, display and allocator margin {c:.1f}): even the low end is more than the {have} GiB on the card. {fixes}</source>
        <translation>估算每卡需要 {need:.1f} GiB（范围 {low:.1f}–{high:.1f}：权重 {w:.1f}，梯度 {g:.1f}，优化器状态 {o:.1f}，激活 {a:.1f}，logits 与损失 {lg:.1f}，KV 缓存 {kv:.1f}，CUDA 上下文、显示输出与分配器余量 {c:.1f}）：即使按下限也超过显卡的 {have} GiB。{fixes}</translation>
    </message>
    <message>
        <source>It fits with: {options} (RAM-4).</source>
        <translation>采用以下任一办法即可放下：{options}（RAM-4）。</translation>
    </message>
    <message>
        <source>No single option makes it fit (RAM-4): a card with more memory.</source>
        <translation>没有哪一项单独采用就能放下（RAM-4）：需要显存更大的显卡。</translation>
    </message>
    <message>
        <source>Each option alone, estimated per GPU against the {have} GiB on the card: {options}. The guide&apos;s advice: gradient checkpointing, mixed precision (about −50 % activations).</source>
        <translation>逐项单独采用时的每卡估算，对照显卡的 {have} GiB：{options}。指南的建议：梯度检查点、混合精度（激活约减少 50%）。</translation>
    </message>
    <message>
        <source>none applies to this workload</source>
        <translation>没有适用于该负载的办法</translation>
    </message>
    <message>
        <source>LoRA (rank {rank})</source>
        <translation>LoRA（秩 {rank}）</translation>
    </message>
    <message>
        <source>QLoRA (4-bit base, rank {rank})</source>
        <translation>QLoRA（4 位基座，秩 {rank}）</translation>
    </message>
    <message>
        <source>optimizer states offloaded to host RAM</source>
        <translation>优化器状态卸载到主机内存</translation>
    </message>
    <message>
        <source>activation checkpointing</source>
        <translation>激活检查点</translation>
    </message>
    <message>
        <source>8-bit AdamW (bitsandbytes)</source>
        <translation>8 位 AdamW（bitsandbytes）</translation>
    </message>
    <message>
        <source>AdamW in bf16 (no fp32 master copy)</source>
        <translation>bf16 AdamW（不保留 fp32 主副本）</translation>
    </message>
    <message>
        <source>mixed precision (amp)</source>
        <translation>混合精度（amp）</translation>
    </message>
    <message>
        <source>batch {batch} with gradient accumulation</source>
        <translation>batch {batch} 加梯度累积</translation>
    </message>
    <message>
        <source>FSDP (ZeRO-3) over {gpus} GPUs</source>
        <translation>FSDP（ZeRO-3）分片到 {gpus} 块 GPU</translation>
    </message>
    <message>
        <source>int8 weights</source>
        <translation>int8 权重</translation>
    </message>
    <message>
        <source>int4 weights</source>
        <translation>int4 权重</translation>
    </message>
    <message>
        <source>tensor parallel over {gpus} GPUs</source>
        <translation>张量并行到 {gpus} 块 GPU</translation>
    </message>
    <message>
        <source>fits</source>
        <translation>放得下</translation>
    </message>
    <message>
        <source>tight</source>
        <translation>偏紧</translation>
    </message>
    <message>
        <source>does not fit</source>
        <translation>放不下</translation>
    </message>
    <message>
        <source>{name} {gib:.1f} GiB ({verdict})</source>
        <translation>{name} {gib:.1f} GiB（{verdict}）</translation>
    </message>
    <message>
        <source>Tight: estimated {need:.1f} GiB per GPU (range {low:.1f}–{high:.1f}) against {have} GiB; within the estimate&apos;s error (saved tensors ±10 %, allocator margin 0–25 %) it may run out of memory. Leave {margin:.1f} GiB more room to be sure.</source>
        <translation>偏紧：估算每卡需要 {need:.1f} GiB（范围 {low:.1f}–{high:.1f}），显卡为 {have} GiB；在估算误差范围内（保存的张量 ±10 %，分配器余量 0–25 %）可能会显存不足。为稳妥起见，请再多留 {margin:.1f} GiB。</translation>
    </message>
    <message>
        <source>Fits: estimated {need:.1f} GiB per GPU (range {low:.1f}–{high:.1f}) of {have} GiB ({share:.0%}); {margin:.1f} GiB to spare at the high end.</source>
        <translation>装得下：估算每卡需要 {need:.1f} GiB（范围 {low:.1f}–{high:.1f}），占 {have} GiB 的 {share:.0%}；按上限计仍余 {margin:.1f} GiB。</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>chipset</source>
        <translation>芯片组</translation>
    </message>
    <message>
        <source>GPU {n}: x{lanes} Gen{gen} through the {src} in {slot}: host-to-GPU copies are limited and shared.</source>
        <translation>GPU {n}：经{src}连接 x{lanes} Gen{gen}（{slot}）：主机到 GPU 的拷贝受限且共享带宽。</translation>
    </message>
    <message>
        <source>GPU {n}: x{lanes} Gen{gen} from the {src} in {slot}.</source>
        <translation>GPU {n}：{src}直连 x{lanes} Gen{gen}（{slot}）。</translation>
    </message>
    <message>
        <source>GPU {n} runs at PCIe Gen{gen} though it supports Gen{card}; the guide recommends PCIe 4.0 slots.</source>
        <translation>GPU {n} 运行在 PCIe Gen{gen}，而它支持 Gen{card}；指南建议使用 PCIe 4.0 插槽。</translation>
    </message>
    <message>
        <source> No board in the catalogue seats {n} cards {width:g} slots wide on x8 or more from the CPU; cards two slots wide (blower or water-cooled) fit the workstation and server boards with {n} x16 slots.</source>
        <translation> 目录中没有主板能让 {n} 块 {width:g} 槽宽的显卡都从 CPU 获得 x8 或更多通道；双槽宽的显卡（涡轮或水冷）可装进有 {n} 个 x16 插槽的工作站和服务器主板。</translation>
    </message>
    <message>
        <source> Boards in the catalogue that seat all {n} on x8 or more from the CPU, cheapest first: {boards} (each with a CPU for its socket).</source>
        <translation> 目录中能装下全部 {n} 块、且每块都从 CPU 获得 x8 或更多通道的主板（按价格从低到高）：{boards}（各需搭配对应插座的 CPU）。</translation>
    </message>
    <message>
        <source>An NVLink bridge needs two GPUs; this build has {n}.</source>
        <translation>NVLink 桥需要两张 GPU；此配置有 {n} 张。</translation>
    </message>
    <message>
        <source>different models</source>
        <translation>型号不同</translation>
    </message>
    <message>
        <source>An NVLink bridge only joins two identical NVLink-capable cards ({names} cannot).</source>
        <translation>NVLink 桥只能连接两张相同且支持 NVLink 的显卡（{names} 不行）。</translation>
    </message>
    <message>
        <source>{name} bridges are {limit}-way: {n} cards form {pairs} NVLink pairs joined over PCIe, not one NVLink group (the guide&apos;s &quot;4 cards via NVLink&quot; is not possible).</source>
        <translation>{name} 的桥接为 {limit} 路：{n} 张卡组成 {pairs} 对 NVLink，各对之间经 PCIe 连接，而不是一个 NVLink 组（指南的“4 张卡通过 NVLink 连接”无法实现）。</translation>
    </message>
    <message>
        <source>NVLink: {bw:g} GB/s between bridged cards (both directions together); PCIe 4.0 x16 gives about 32 GB/s each way. The guide&apos;s &quot;100 GB/s vs PCIe 3.0 16 GB/s&quot; compares NVLink&apos;s two-way total with one PCIe direction.</source>
        <translation>NVLink：桥接卡之间 {bw:g} GB/s（双向合计）；PCIe 4.0 x16 每个方向约 32 GB/s。指南的“100 GB/s 对比 PCIe 3.0 16 GB/s”是拿 NVLink 的双向总和与 PCIe 单向相比。</translation>
    </message>
    <message>
        <source>These cards support an NVLink bridge ({bw:g} GB/s); it speeds up gradient exchange. DataParallel and DDP work without it.</source>
        <translation>这些显卡支持 NVLink 桥（{bw:g} GB/s），可加快梯度交换。DataParallel 和 DDP 不需要它也能工作。</translation>
    </message>
    <message>
        <source>Data-parallel reference: 4× RTX 3090 reach 3.5× of one card (3.7× in theory); expect {n} cards to scale less than {n}×.</source>
        <translation>数据并行参考：4 张 RTX 3090 实测为单卡的 3.5 倍（理论 3.7 倍）；{n} 张卡的加速比会低于 {n} 倍。</translation>
    </message>
    <message>
        <source>With DDP the global batch is {b} per card × {n} cards = {g}; scale the learning rate accordingly.</source>
        <translation>使用 DDP 时全局批大小为每卡 {b} × {n} 张卡 = {g}；请相应调整学习率。</translation>
    </message>
    <message>
        <source>{mode} gathers the parameters over the GPU link in every step: on PCIe the communication can cancel the gain of more cards.</source>
        <translation>{mode} 每一步都要经 GPU 互联收集参数：在 PCIe 上，通信开销可能抵消多卡收益。</translation>
    </message>
    <message>
        <source>{cpu} ({cs}) does not fit {board} ({bs}).</source>
        <translation>{cpu}（{cs}）无法安装在 {board}（{bs}）上。</translation>
    </message>
    <message>
        <source>{n} CPUs but {board} has {s} socket(s).</source>
        <translation>有 {n} 颗 CPU，但 {board} 只有 {s} 个插座。</translation>
    </message>
    <message>
        <source>{cpu} supports {m}-socket systems only; the build has {n}.</source>
        <translation>{cpu} 只支持 {m} 路系统；此配置有 {n} 颗。</translation>
    </message>
    <message>
        <source>{n} memory modules but {board} has {slots} working slots.</source>
        <translation>{n} 条内存，但 {board} 只有 {slots} 个可用插槽。</translation>
    </message>
    <message>
        <source>{cpu} ({cy}) is newer than {board} ({by}): the board may need a BIOS update before it starts with this CPU.</source>
        <translation>{cpu}（{cy} 年）比 {board}（{by} 年）新：主板可能需要先更新 BIOS 才能点亮此 CPU。</translation>
    </message>
    <message>
        <source>Only {placed} of {n} GPUs fit on {board}: it has {slots} usable x16-length slots and the cards are {width} slots wide, so they cover neighbouring slots. The estimates count the {placed} that fit.{fix}</source>
        <translation>{board} 上只能装下 {n} 块 GPU 中的 {placed} 块：它有 {slots} 个可用的 x16 长度插槽，而显卡宽 {width} 槽，会挡住相邻插槽。估算只计入能装下的 {placed} 块。{fix}</translation>
    </message>
    <message>
        <source>{n} cards on {board} do not all get x8 or more from the CPU.{fix}</source>
        <translation>{board} 上的 {n} 块显卡并非都能从 CPU 获得 x8 或更多通道。{fix}</translation>
    </message>
    <message>
        <source>DDR4 and DDR5 kits cannot be mixed.</source>
        <translation>DDR4 和 DDR5 内存不能混用。</translation>
    </message>
    <message>
        <source>Registered (RDIMM) and unbuffered (UDIMM) modules cannot be mixed.</source>
        <translation>寄存式（RDIMM）和无缓冲（UDIMM）内存不能混用。</translation>
    </message>
    <message>
        <source>{kit} is {kt}; {board} takes {bt}.</source>
        <translation>{kit} 是 {kt}；{board} 使用 {bt}。</translation>
    </message>
    <message>
        <source>{kit} is {kt}; {cpu} supports {ct} only.</source>
        <translation>{kit} 是 {kt}；{cpu} 只支持 {ct}。</translation>
    </message>
    <message>
        <source>{kit} is registered (RDIMM); {who} takes unbuffered DIMMs only.</source>
        <translation>{kit} 是寄存式（RDIMM）；{who} 只支持无缓冲内存。</translation>
    </message>
    <message>
        <source>{kit} is unbuffered; {board} takes registered DIMMs (RDIMM) only.</source>
        <translation>{kit} 是无缓冲内存；{board} 只支持寄存式内存（RDIMM）。</translation>
    </message>
    <message>
        <source>{kit} is ECC but {who} does not support ECC: it will run without error correction.</source>
        <translation>{kit} 是 ECC 内存，但 {who} 不支持 ECC：将以无纠错模式运行。</translation>
    </message>
    <message>
        <source>{ram} GiB of memory is more than the {limit} GiB the board and CPU support.</source>
        <translation>{ram} GiB 内存超过主板和 CPU 支持的 {limit} GiB。</translation>
    </message>
    <message>
        <source>{gpu} is {len} mm long; {case} takes cards up to {max} mm.</source>
        <translation>{gpu} 长 {len} mm；{case} 的显卡限长为 {max} mm。</translation>
    </message>
    <message>
        <source>{case} takes {ffs} boards, not {ff} ({board}).</source>
        <translation>{case} 支持 {ffs} 主板，不支持 {ff}（{board}）。</translation>
    </message>
    <message>
        <source>The GPUs reach expansion position {pos}; {case} has {slots} expansion slots.</source>
        <translation>显卡占用到第 {pos} 个扩展槽位；{case} 只有 {slots} 个扩展槽位。</translation>
    </message>
    <message>
        <source>real data</source>
        <translation>真实数据</translation>
    </message>
    <message>
        <source>synthetic data</source>
        <translation>合成数据</translation>
    </message>
    <message>
        <source>data not stated</source>
        <translation>未说明数据类型</translation>
    </message>
    <message>
        <source>the guide loads and augments real images on the CPU while the publication feeds synthetic data, and its software is older</source>
        <translation>指南在 CPU 上加载并增强真实图像，而公开结果使用合成数据，且指南所用软件较旧</translation>
    </message>
    <message>
        <source>different software (framework version, container, kernels)</source>
        <translation>软件不同（框架版本、容器、内核）</translation>
    </message>
    <message>
        <source>{ref}: the guide&apos;s {guide_value:,.0f} {unit} on {gpu} ({guide_sw}, {guide_data}) is {ratio:.2f}× the {published:,.0f} {unit} published at {url} ({pub_sw}, {pub_data}); they differ by more than the model&apos;s error ({err:.0%}). Likely reason: {why}.</source>
        <translation>{ref}：指南中 {gpu} 的 {guide_value:,.0f} {unit}（{guide_sw}，{guide_data}）是 {url} 公布的 {published:,.0f} {unit}（{pub_sw}，{pub_data}）的 {ratio:.2f} 倍；两者之差超出了模型误差（{err:.0%}）。可能原因：{why}。</translation>
    </message>
    <message>
        <source>{gpu} is passively cooled (a heatsink, no fan): it needs a server chassis that forces air front to back through it.</source>
        <translation>{gpu} 为被动散热（只有散热片，没有风扇）：需要能强制气流前进后出穿过显卡的服务器机箱。</translation>
    </message>
    <message>
        <source>{gpu} is passively cooled (a heatsink, no fan) and relies on a server chassis&apos;s forced front-to-back airflow; {case} has none, so the card overheats and throttles or shuts down under load. Use a server chassis, or an actively cooled card.</source>
        <translation>{gpu} 为被动散热（只有散热片，没有风扇），依赖服务器机箱前进后出的强制风道；{case} 没有这种风道，显卡在负载下会过热降频甚至关机。请使用服务器机箱，或选用主动散热的显卡。</translation>
    </message>
    <message>
        <source>{n} open-air cards in a mid tower ({case}): they blow about {watts:,} W into the case, more than its fans move out, and the cards throttle. At most two open-air cards with a free slot between them fit a mid tower; for more, use a full tower or rack chassis, or blower or water-cooled cards.</source>
        <translation>中塔机箱（{case}）中有 {n} 块开放式散热显卡：它们向机箱内排出约 {watts:,} W 热量，超过机箱风扇的排风能力，显卡会降频。中塔机箱最多容纳两块开放式散热显卡且中间需空一个槽位；更多显卡请用全塔或机架式机箱，或涡轮/水冷显卡。</translation>
    </message>
    <message>
        <source>GPU {n} ({gpu}, open-air fans) in {slot} sits directly above GPU {m} in {slot2} with no free slot between: its fans draw air from a gap of a few millimetres and it throttles under sustained load. Leave a slot free between them (a board with wider slot spacing), or use blower-style or water-cooled cards, which stack, or a rack chassis with a fan wall.</source>
        <translation>GPU {n}（{gpu}，开放式风扇）位于 {slot}，紧贴在 {slot2} 中的 GPU {m} 上方，中间没有空槽：其风扇只能从几毫米的缝隙进风，持续负载下会降频。请在两卡之间空出一个槽位（选槽距更宽的主板），或使用可叠放的涡轮式或水冷显卡，或带风扇墙的机架式机箱。</translation>
    </message>
    <message>
        <source>{n} power supplies, and {case} mounts {mounts}: the others have nowhere to go. Use one supply that covers the build, or a case made for two.</source>
        <translation>{n} 个电源，而 {case} 只能安装 {mounts} 个：其余电源无处安装。请用一个足以带动整机的电源，或选用支持双电源的机箱。</translation>
    </message>
    <message>
        <source>{psu} is {ff}; {case} has an ATX bay: it fits with an {ff}-to-ATX adapter bracket.</source>
        <translation>{psu} 是 {ff} 规格；{case} 是 ATX 电源位：需要 {ff} 转 ATX 的转接支架才能安装。</translation>
    </message>
    <message>
        <source>{psu} is {ff}; {case} takes {ffs} power supplies only.</source>
        <translation>{psu} 是 {ff} 规格；{case} 只能安装 {ffs} 电源。</translation>
    </message>
    <message>
        <source>{board} is {size} mm wide ({ff}); {case} takes boards up to {limit} mm wide.</source>
        <translation>{board} 宽 {size} mm（{ff}）；{case} 只能安装宽度不超过 {limit} mm 的主板。</translation>
    </message>
    <message>
        <source>{board} is {size} mm deep ({ff}); {case} takes boards up to {limit} mm deep.</source>
        <translation>{board} 深 {size} mm（{ff}）；{case} 只能安装深度不超过 {limit} mm 的主板。</translation>
    </message>
    <message>
        <source>{board} is {size} mm wide, more than ATX&apos;s {atx} mm; {case} publishes no width limit: check that it takes a board this wide.</source>
        <translation>{board} 宽 {size} mm，超过 ATX 的 {atx} mm；{case} 未公布主板宽度上限：请确认它能装下这么宽的主板。</translation>
    </message>
    <message>
        <source>No CPU cooler chosen, and {cpu} comes without one: add a cooler rated for its {w} W that fits socket {socket} (a server chassis&apos;s heatsink is also bought separately).</source>
        <translation>未选择 CPU 散热器，而 {cpu} 不附带散热器：请添加一款能压住 {w} W、适配 {socket} 插座的散热器（服务器机箱的散热片也需单独购买）。</translation>
    </message>
    <message>
        <source>{n} CPU cooler(s) for {cpus} CPUs: each CPU needs its own.</source>
        <translation>{n} 个 CPU 散热器对应 {cpus} 颗 CPU：每颗 CPU 都需要自己的散热器。</translation>
    </message>
    <message>
        <source>{cooler} mounts on {sockets}, not on {cpu}&apos;s {socket}.</source>
        <translation>{cooler} 适用于 {sockets}，不适用于 {cpu} 的 {socket} 插座。</translation>
    </message>
    <message>
        <source>{vendor} publishes no TDP rating for {cooler}: check the vendor&apos;s CPU compatibility list for {cpu} ({w} W maximum power).</source>
        <translation>{vendor} 未公布 {cooler} 的 TDP 额定值：请查阅厂商的 CPU 兼容列表，确认它能否压住 {cpu}（最大功耗 {w} W）。</translation>
    </message>
    <message>
        <source>{cooler} is rated for {tdp} W; {cpu} draws up to {w} W, so under sustained all-core load (data loading, CPU inference) it runs at its temperature limit and clocks down.</source>
        <translation>{cooler} 的额定值为 {tdp} W；{cpu} 最高功耗 {w} W，持续全核负载（数据加载、CPU 推理）时会撞到温度墙并降频。</translation>
    </message>
    <message>
        <source>{case} publishes no CPU cooler height; {cooler} is {h} mm tall: check it fits.</source>
        <translation>{case} 未公布 CPU 散热器限高；{cooler} 高 {h} mm：请确认能装下。</translation>
    </message>
    <message>
        <source>{cooler} is {h} mm tall; {case} takes CPU coolers up to {max} mm.</source>
        <translation>{cooler} 高 {h} mm；{case} 的 CPU 散热器限高为 {max} mm。</translation>
    </message>
    <message>
        <source>{case} publishes no radiator mounts; {cooler} has a {r} mm radiator: check it fits.</source>
        <translation>{case} 未公布冷排安装位；{cooler} 的冷排为 {r} mm：请确认能装下。</translation>
    </message>
    <message>
        <source>{cooler} has a {r} mm radiator; {case} has no radiator mount.</source>
        <translation>{cooler} 的冷排为 {r} mm；{case} 没有冷排安装位。</translation>
    </message>
    <message>
        <source>{cooler} has a {r} mm radiator; {case} mounts {sizes} mm radiators.</source>
        <translation>{cooler} 的冷排为 {r} mm；{case} 只能安装 {sizes} mm 的冷排。</translation>
    </message>
    <message>
        <source>{cores} CPU cores for {n} GPU(s): decoding and augmenting images wants {workers} DataLoader workers per GPU plus the training process, {need} cores; the GPUs will wait for data.</source>
        <translation>{cores} 个 CPU 核心对应 {n} 块 GPU：解码和增强图像需要每块 GPU {workers} 个 DataLoader 工作进程外加训练进程，共 {need} 个核心；GPU 将等待数据。</translation>
    </message>
    <message>
        <source>{cores} CPU cores for {n} GPU(s): tokenized, memory-mapped text wants {workers} loader worker per GPU plus the process that drives it, {need} cores; the GPUs will wait for the CPU.</source>
        <translation>{cores} 个 CPU 核心对应 {n} 块 GPU：已分词并内存映射的文本需要每块 GPU {workers} 个加载进程外加驱动它的进程，共 {need} 个核心；GPU 将等待 CPU。</translation>
    </message>
    <message>
        <source>{modules} memory module(s) per CPU fill {filled} of {cpu}&apos;s {channels} memory channels: {share:.1%} of its memory bandwidth. Fit {reach} modules (one per channel) for all of it.</source>
        <translation>每个 CPU {modules} 条内存，只占用 {cpu} 的 {channels} 个内存通道中的 {filled} 个：仅有其内存带宽的 {share:.1%}。装 {reach} 条（每通道一条）才能用满。</translation>
    </message>
    <message>
        <source>{ram} GiB of RAM for a model of {need:.1f} GiB at its precision: loading stages the weights in host memory before they go to the GPUs, so host RAM should hold them.</source>
        <translation>{ram} GiB 内存对应按其精度为 {need:.1f} GiB 的模型：加载时权重先暂存在主机内存再送往 GPU，因此主机内存应能容纳它们。</translation>
    </message>
    <message>
        <source>{ram} GiB of RAM for {vram} GiB of VRAM: host RAM should be at least the GPUs&apos; total VRAM, so pinned buffers, checkpoints and a host copy of what the GPUs hold fit (common practice; Tim Dettmers&apos; hardware guide asks for at least the largest GPU&apos;s memory: {url}).</source>
        <translation>{vram} GiB 显存只配 {ram} GiB 内存：主机内存应不少于所有 GPU 显存之和，才能容纳锁页缓冲区、检查点以及 GPU 中数据的主机副本（常见做法；Tim Dettmers 的硬件指南要求至少等于最大一块 GPU 的显存：{url}）。</translation>
    </message>
    <message>
        <source>{ds:,.0f} GB of data (ImageNet-1k, archives and extracted files; set dataset_gb for yours)</source>
        <translation>{ds:,.0f} GB 数据（ImageNet-1k，压缩包加解压后的文件；请用 dataset_gb 设置您自己的数据集）</translation>
    </message>
    <message>
        <source>{ds:,.0f} GB of data</source>
        <translation>{ds:,.0f} GB 数据</translation>
    </message>
    <message>
        <source>{have:,} GB of storage for {need:,.0f} GB: {data}, {env:.0f} GB of system and PyTorch environment, {weights:,.0f} GB of model weights and {kept} checkpoint(s) of {ckpt:,.1f} GB ({kept_how}). Fit a drive of {need:,.0f} GB or more.</source>
        <translation>{have:,} GB 存储，需要 {need:,.0f} GB：{data}，系统与 PyTorch 环境 {env:.0f} GB，模型权重 {weights:,.0f} GB，以及 {kept} 个各 {ckpt:,.1f} GB 的检查点（{kept_how}）。请配 {need:,.0f} GB 或更大的硬盘。</translation>
    </message>
    <message>
        <source>the default for this workload; set checkpoints_kept</source>
        <translation>此工作负载的默认值；可设置 checkpoints_kept</translation>
    </message>
    <message>
        <source>as the workload says</source>
        <translation>按工作负载的设定</translation>
    </message>
    <message>
        <source>{board} holds {ff} modules of the {arch} architecture; the build has none for it.</source>
        <translation>{board} 安装 {arch} 架构的 {ff} 模块；此配置中没有适用的模块。</translation>
    </message>
    <message>
        <source>{name} is an {ff} module: it only runs on a GPU baseboard (HGX/OAM platform), never in a PCIe slot; add a baseboard for {n} module(s).</source>
        <translation>{name} 是 {ff} 模块：只能装在 GPU 基板（HGX/OAM 平台）上，不能插入 PCIe 插槽；请为 {n} 个模块添加基板。</translation>
    </message>
    <message>
        <source>No baseboard in this build takes {name} ({ff}, {arch}).</source>
        <translation>此配置中没有能安装 {name}（{ff}，{arch}）的基板。</translation>
    </message>
    <message>
        <source>{n} modules but the baseboard(s) have {room} sockets; the estimates count {room}.</source>
        <translation>{n} 个模块，但基板只有 {room} 个插座；估算按 {room} 个计。</translation>
    </message>
    <message>
        <source>SXM/OAM modules take no PCIe NVLink bridge: their NVLink runs through the baseboard.</source>
        <translation>SXM/OAM 模块不使用 PCIe NVLink 桥：它们的 NVLink 经由基板连接。</translation>
    </message>
    <message>
        <source>{board}: no NVSwitch. Each GPU&apos;s NVLink ({bw:g} GB/s) is split over direct links to the other {others} ({pair:g} GB/s per pair). Erratum 10: the guide&apos;s &quot;4× A100 (NVSwitch)&quot; does not exist; NVSwitch is on the 8-GPU HGX board.</source>
        <translation>{board}：没有 NVSwitch。每块 GPU 的 NVLink（{bw:g} GB/s）分成直连其余 {others} 块的链路（每对 {pair:g} GB/s）。勘误 10：指南中的“4× A100（NVSwitch）”并不存在；NVSwitch 在 8-GPU HGX 基板上。</translation>
    </message>
    <message>
        <source>{board}: {n} modules all-to-all through {chips} NVSwitch chips, {bw:g} GB/s NVLink per GPU; host links PCIe Gen{gen} x{lanes} per GPU.</source>
        <translation>{board}：{n} 个模块通过 {chips} 颗 NVSwitch 芯片全互连，每卡 NVLink {bw:g} GB/s；每卡主机链路 PCIe Gen{gen} x{lanes}。</translation>
    </message>
    <message>
        <source>{board} has {s} sockets and {n} CPU: the slots of the empty socket ({slots}) do not work, and only {mem} of the {all} memory slots do.</source>
        <translation>{board} 有 {s} 个插座，只装了 {n} 个 CPU：空插座的插槽（{slots}）无法使用，{all} 个内存插槽中也只有 {mem} 个可用。</translation>
    </message>
    <message>
        <source>To give it back: one M.2 drive fewer (a larger one), since {clear} leave the GPU slots their lanes and hold the other drives; or a SATA drive instead ({free} of {ports} SATA ports free).</source>
        <translation>恢复办法：少用一块 M.2 硬盘（换一块容量更大的），因为不占 GPU 插槽通道的 {clear} 已装着其他硬盘；或改用 SATA 硬盘（{ports} 个 SATA 接口中空闲 {free} 个）。</translation>
    </message>
    <message>
        <source>Every M.2 connector on {board} that is free takes GPU lanes: use a SATA drive instead ({free} of {ports} SATA ports free), or a board whose M.2 connectors leave the GPU slots their lanes.</source>
        <translation>{board} 上空着的 M.2 接口都会占用 GPU 通道：改用 SATA 硬盘（{ports} 个 SATA 接口中空闲 {free} 个），或换一块 M.2 接口不占 GPU 插槽通道的主板。</translation>
    </message>
    <message>
        <source>GPU {n} in {slot} runs x{lanes} instead of x{was} because of the drive {drive} in {m2}: that connector takes the slot&apos;s other lanes (board manual). {fix}</source>
        <translation>GPU {n} 在 {slot} 中以 x{lanes} 而非 x{was} 运行，原因是 {m2} 中的硬盘 {drive}：该接口占用了这个插槽的其余通道（见主板手册）。{fix}</translation>
    </message>
    <message>
        <source>{slot} is off while {m2} holds a drive (they share lanes).</source>
        <translation>{m2} 装有硬盘时 {slot} 被禁用（两者共享通道）。</translation>
    </message>
    <message>
        <source>{slot} drops to x{lanes} while {m2} holds a drive.</source>
        <translation>{m2} 装有硬盘时 {slot} 降为 x{lanes}。</translation>
    </message>
    <message>
        <source>{n} M.2 drives but {board} has {slots} usable M.2 connectors.</source>
        <translation>{n} 块 M.2 硬盘，但 {board} 只有 {slots} 个可用 M.2 接口。</translation>
    </message>
    <message>
        <source>{n} SATA drives but {board} has {ports} SATA ports.</source>
        <translation>{n} 块 SATA 硬盘，但 {board} 只有 {ports} 个 SATA 接口。</translation>
    </message>
    <message>
        <source>{n} U.2 drive(s): each needs a U.2 port (OCuLink, SlimSAS or MCIO on server boards), a backplane or a PCIe adapter card; the board&apos;s connectors are not counted here.</source>
        <translation>{n} 块 U.2 硬盘：每块需要一个 U.2 接口（服务器主板上的 OCuLink、SlimSAS 或 MCIO）、背板或 PCIe 转接卡；这里不核对主板的接口。</translation>
    </message>
    <message>
        <source>{n} 3.5&quot; drives but {case} has {bays} 3.5&quot; bays.</source>
        <translation>{n} 块 3.5 英寸硬盘，但 {case} 只有 {bays} 个 3.5 英寸硬盘位。</translation>
    </message>
    <message>
        <source>{n} 2.5&quot; drives but {case} has {small} 2.5&quot; mounts and {free} free 3.5&quot; bays.</source>
        <translation>{n} 块 2.5 英寸硬盘，但 {case} 只有 {small} 个 2.5 英寸硬盘位和 {free} 个空闲 3.5 英寸硬盘位。</translation>
    </message>
    <message>
        <source>{names}: no peer-to-peer between GeForce RTX 40/50 cards, so every all-reduce goes through host memory (NCCL&apos;s SHM path) at about half the PCIe rate; the scaling estimate uses that path.</source>
        <translation>{names}：GeForce RTX 40/50 显卡之间没有点对点（P2P），每次 all-reduce 都经主机内存（NCCL 的 SHM 路径），速率约为 PCIe 的一半；多卡扩展估算按此路径计算。</translation>
    </message>
    <message>
        <source>{a} and {b} are {gap} slots apart: check that an NVLink bridge for {gpu} comes in that spacing.</source>
        <translation>{a} 与 {b} 相距 {gap} 个槽位：请确认 {gpu} 的 NVLink 桥有这种间距。</translation>
    </message>
    <message>
        <source>{a} and {b} are {gap} slots apart; NVLink bridges for {gpu} come in {sizes}-slot spacings only, so no bridge joins these two cards.</source>
        <translation>{a} 与 {b} 相距 {gap} 个槽位；{gpu} 的 NVLink 桥只有 {sizes} 槽间距，没有桥能连接这两块卡。</translation>
    </message>
    <message>
        <source>{a} and {b} are {gap} slots apart: use a {gap}-slot NVLink bridge.</source>
        <translation>{a} 与 {b} 相距 {gap} 个槽位：请使用 {gap} 槽的 NVLink 桥。</translation>
    </message>
    <message>
        <source>Across {n} nodes over {net}, scaling efficiency about {eff:.0%}: the all-reduce across nodes adds {network:.1f} ms to each {step:.1f} ms step.</source>
        <translation>经 {net} 跨 {n} 个节点，扩展效率约 {eff:.0%}：节点间的 all-reduce 使每个 {step:.1f} ms 的训练步多出 {network:.1f} ms。</translation>
    </message>
    <message>
        <source> {better} would bring it to about {eff:.0%}.</source>
        <translation>换成 {better} 可提高到约 {eff:.0%}。</translation>
    </message>
    <message>
        <source> Even the fastest network listed would limit it: use fewer, larger nodes, a larger batch per GPU, or gradient accumulation.</source>
        <translation>即使换成列表中最快的网络仍会受限：请改用更少但更大的节点、更大的单卡批量，或梯度累积。</translation>
    </message>
    <message>
        <source>The network, not the GPUs, limits this job: over {net} each step waits {network:.0f} ms for the all-reduce across {n} nodes and computes for {step:.0f} ms, so the cluster scales to about {eff:.0%} of {n} nodes.{fix}</source>
        <translation>限制这个任务的是网络而不是 GPU：经 {net} 时，每步要等 {network:.0f} ms 完成 {n} 个节点间的 all-reduce，而计算只需 {step:.0f} ms，因此集群只能达到 {n} 个节点理想值的约 {eff:.0%}。{fix}</translation>
    </message>
    <message>
        <source>{part}&apos;s {field}</source>
        <translation>{part}的{field}</translation>
    </message>
    <message>
        <source>{a}; {b}</source>
        <translation>{a}；{b}</translation>
    </message>
    <message>
        <source>{finding} This rests on a figure not verified against a vendor source ({figures}): check the vendor&apos;s figure.</source>
        <translation>{finding}此结论依据的数据未经厂商资料核实（{figures}）：请查对厂商数据。</translation>
    </message>
</context>
<context>
    <name>software</name>
    <message>
        <source>Volta</source>
        <translation>Volta</translation>
    </message>
    <message>
        <source>cu126 builds; CUDA 12.8+ and 13.x builds dropped sm_70</source>
        <translation>cu126 版本；CUDA 12.8 及以上与 13.x 版本已不含 sm_70</translation>
    </message>
    <message>
        <source>Turing</source>
        <translation>Turing</translation>
    </message>
    <message>
        <source>cu126, cu128, cu130 builds (sm_75)</source>
        <translation>cu126、cu128、cu130 版本（sm_75）</translation>
    </message>
    <message>
        <source>Ampere (GA100)</source>
        <translation>Ampere (GA100)</translation>
    </message>
    <message>
        <source>cu126, cu128, cu130 builds (sm_80)</source>
        <translation>cu126、cu128、cu130 版本（sm_80）</translation>
    </message>
    <message>
        <source>Ampere (GA10x)</source>
        <translation>Ampere (GA10x)</translation>
    </message>
    <message>
        <source>cu126, cu128, cu130 builds (sm_86); PyTorch ≥ 1.7.1</source>
        <translation>cu126、cu128、cu130 版本（sm_86）；PyTorch ≥ 1.7.1</translation>
    </message>
    <message>
        <source>Ada Lovelace</source>
        <translation>Ada Lovelace</translation>
    </message>
    <message>
        <source>cu126, cu128, cu130 builds (sm_86 kernels run on sm_89)</source>
        <translation>cu126、cu128、cu130 版本（其 sm_86 内核可在 sm_89 上运行）</translation>
    </message>
    <message>
        <source>Hopper</source>
        <translation>Hopper</translation>
    </message>
    <message>
        <source>cu126, cu128, cu130 builds (sm_90)</source>
        <translation>cu126、cu128、cu130 版本（sm_90）</translation>
    </message>
    <message>
        <source>Blackwell (data centre)</source>
        <translation>Blackwell（数据中心）</translation>
    </message>
    <message>
        <source>cu128 and cu130 builds only (sm_100)</source>
        <translation>仅 cu128 与 cu130 版本（sm_100）</translation>
    </message>
    <message>
        <source>Blackwell (GeForce/RTX PRO)</source>
        <translation>Blackwell（GeForce/RTX PRO）</translation>
    </message>
    <message>
        <source>cu128 and cu130 builds only (sm_120; PyTorch ≥ 2.7)</source>
        <translation>仅 cu128 与 cu130 版本（sm_120；PyTorch ≥ 2.7）</translation>
    </message>
</context>
<context>
    <name>sources</name>
    <message>
        <source>vendor specs</source>
        <translation>厂商规格</translation>
    </message>
    <message>
        <source>first principles</source>
        <translation>第一性原理</translation>
    </message>
    <message>
        <source>board manual</source>
        <translation>主板说明书</translation>
    </message>
    <message>
        <source>board manuals</source>
        <translation>主板说明书</translation>
    </message>
    <message>
        <source>common practice</source>
        <translation>通行做法</translation>
    </message>
    <message>
        <source>common practice (d2l, Dettmers)</source>
        <translation>通行做法（d2l、Dettmers）</translation>
    </message>
    <message>
        <source>published measurements</source>
        <translation>公开实测数据</translation>
    </message>
</context>
<context>
    <name>store</name>
    <message>
        <source>The database {original} was damaged ({reason}). It was kept as {moved_to} and a fresh database was created. Your saved builds and edited prices are in the old file; it can be opened with any SQLite tool.</source>
        <translation>数据库 {original} 已损坏（{reason}）。原文件已保留为 {moved_to}，并已新建数据库。你保存的配置和修改过的价格仍在旧文件中，可用任意 SQLite 工具打开。</translation>
    </message>
    <message>
        <source>The database is still busy saving something else; nothing was changed. Try again.</source>
        <translation>数据库仍在保存其他内容，本次未做任何更改。请稍后重试。</translation>
    </message>
    <message>
        <source>The database {path} is locked by another program: {holders}. Close it and try again; nothing was changed.</source>
        <translation>数据库 {path} 被其他程序锁定：{holders}。请关闭该程序后重试；未做任何修改。</translation>
    </message>
    <message>
        <source>The database {path} is locked by another program. Close it and try again; nothing was changed.</source>
        <translation>数据库 {path} 被其他程序锁定。请关闭该程序后重试；未做任何修改。</translation>
    </message>
    <message>
        <source>The disk holding the database {path} is full. Free some space and try again; nothing was changed.</source>
        <translation>数据库 {path} 所在的磁盘已满。请释放一些空间后重试；未做任何修改。</translation>
    </message>
    <message>
        <source>the disk is full</source>
        <translation>磁盘已满</translation>
    </message>
    <message>
        <source>it is locked by another program</source>
        <translation>被其他程序锁定</translation>
    </message>
    <message>
        <source>the file or its folder is read-only</source>
        <translation>文件或其所在文件夹为只读</translation>
    </message>
    <message>
        <source>The database {path} cannot be written: the file or its folder is read-only.</source>
        <translation>无法写入数据库 {path}：文件或其所在文件夹为只读。</translation>
    </message>
    <message>
        <source>Could not upgrade the database {path}: {error}. It was not changed.</source>
        <translation>无法升级数据库 {path}：{error}。数据库未被修改。</translation>
    </message>
    <message>
        <source>Could not create the database {path}: {error}</source>
        <translation>无法创建数据库 {path}：{error}</translation>
    </message>
    <message>
        <source>it is on a read-only disk</source>
        <translation>所在磁盘为只读</translation>
    </message>
    <message>
        <source>the file is read-only</source>
        <translation>文件为只读</translation>
    </message>
    <message>
        <source>the folder is read-only</source>
        <translation>文件夹为只读</translation>
    </message>
    <message>
        <source>Cannot save to the database {path}: it is read-only ({reason}).</source>
        <translation>无法保存到数据库 {path}：数据库为只读（{reason}）。</translation>
    </message>
    <message>
        <source>Cannot save to the database {path}: the disk is full.</source>
        <translation>无法保存到数据库 {path}：磁盘已满。</translation>
    </message>
    <message>
        <source>The database {path} has a table {table} with rows that its schema version does not have; it was not changed.</source>
        <translation>数据库 {path} 中的表 {table} 含有数据，但该表不属于数据库当前的结构版本；数据库未被修改。</translation>
    </message>
    <message>
        <source>The database {path} has {count} damaged entries (a value of the wrong type, not valid JSON, not a date or not UTF-8), which are skipped and kept in the file: {rows}. The rest of the database is fine.</source>
        <translation>数据库 {path} 中有 {count} 条损坏的记录（值的类型不对、不是有效的 JSON、不是日期或不是 UTF-8），已跳过并保留在文件中：{rows}。数据库的其余部分完好。</translation>
    </message>
    <message>
        <source>Cannot create the folder for the database {path}: {error}</source>
        <translation>无法为数据库创建文件夹 {path}：{error}</translation>
    </message>
    <message>
        <source>The database {path} is not a file.</source>
        <translation>数据库 {path} 不是文件。</translation>
    </message>
    <message>
        <source>{path} is not a configurator database (it is not an SQLite file). It was left as it is; choose another database file.</source>
        <translation>{path} 不是 configurator 数据库（不是 SQLite 文件）。文件保持原样；请选择其他数据库文件。</translation>
    </message>
    <message>
        <source>The database {path} was made by configurator {version}; this is {current}, which is older. Update configurator to open it; nothing was changed.</source>
        <translation>数据库 {path} 由 configurator {version} 创建；当前版本 {current} 较旧。请更新 configurator 后再打开；未做任何修改。</translation>
    </message>
    <message>
        <source>The database {path} was made by a newer version of configurator; this is {current}. Update configurator to open it; nothing was changed.</source>
        <translation>数据库 {path} 由更新版本的 configurator 创建；当前版本为 {current}。请更新 configurator 后再打开；未做任何修改。</translation>
    </message>
    <message>
        <source>{path} is an SQLite database of another program, not configurator&apos;s. It was left as it is; choose another database file.</source>
        <translation>{path} 是其他程序的 SQLite 数据库，不属于 configurator。文件保持原样；请选择其他数据库文件。</translation>
    </message>
    <message>
        <source>The database {path} cannot be created: {reason}.</source>
        <translation>无法创建数据库 {path}：{reason}。</translation>
    </message>
    <message>
        <source>The database {path} needs an upgrade to this version of configurator, but {reason}; nothing was changed.</source>
        <translation>数据库 {path} 需要升级到此版本的 configurator，但{reason}；未做任何修改。</translation>
    </message>
    <message>
        <source>The database {path} is on a read-only disk or in a read-only folder with unsaved changes in {wal}, which cannot be read from there; copy both files to a writable folder to see them.</source>
        <translation>数据库 {path} 位于只读磁盘或只读文件夹中，{wal} 中还有尚未写入主文件的修改，在该位置无法读取；请把这两个文件复制到可写的文件夹中查看。</translation>
    </message>
    <message>
        <source>The database {path} is read-only ({reason}): you can browse and check, but changes cannot be saved.</source>
        <translation>数据库 {path} 为只读（{reason}）：可以浏览和检查，但无法保存修改。</translation>
    </message>
    <message>
        <source>Could not copy the database {path} aside before upgrading it ({error}); the database was not changed.</source>
        <translation>升级前无法备份数据库 {path}（{error}）；数据库未被修改。</translation>
    </message>
    <message>
        <source>The updated parts catalogue could not be saved ({error}); the database works as before.</source>
        <translation>无法保存更新后的部件目录（{error}）；数据库仍照常工作。</translation>
    </message>
    <message>
        <source>The database {path} was upgraded to this version of configurator (the old one is kept as {backup}), but then it could not be opened: {reason}. Your data is in it; try again once that is fixed.</source>
        <translation>数据库 {path} 已升级到此版本的 configurator（旧版本保存为 {backup}），但随后无法打开：{reason}。您的数据仍在其中；问题解决后请重试。</translation>
    </message>
    <message>
        <source>The database {path} was upgraded to this version of configurator, but then it could not be opened: {reason}. Your data is in it; try again once that is fixed.</source>
        <translation>数据库 {path} 已升级到此版本的 configurator，但随后无法打开：{reason}。您的数据仍在其中；问题解决后请重试。</translation>
    </message>
    <message>
        <source>The shipped measurements could not be read ({error}); the ones stored before are kept.</source>
        <translation>无法读取随附的测量数据（{error}）；保留之前存储的数据。</translation>
    </message>
    <message>
        <source>The updated measurements could not be saved ({error}); the database works as before.</source>
        <translation>无法保存更新后的测量数据（{error}）；数据库仍照常工作。</translation>
    </message>
    <message>
        <source>The database {path} is damaged ({reason}) but cannot be moved aside: {error}. It was left as it is.</source>
        <translation>数据库 {path} 已损坏（{reason}），但无法将其移开：{error}。文件保持原样。</translation>
    </message>
    <message>
        <source>Cannot open the database {path}: {error}</source>
        <translation>无法打开数据库 {path}：{error}</translation>
    </message>
    <message>
        <source>{n} parts in the database could not be read and are left out: {ids}</source>
        <translation>数据库中有 {n} 个部件无法读取，已略去：{ids}</translation>
    </message>
    <message>
        <source>A price must be a whole number of yuan, zero or more.</source>
        <translation>价格必须是不小于零的整数（元）。</translation>
    </message>
    <message>
        <source>{id} is a custom part: it has no catalogue price.</source>
        <translation>{id} 是自定义部件：没有目录价。</translation>
    </message>
    <message>
        <source>a part with the id {id} already exists</source>
        <translation>ID 为 {id} 的部件已存在</translation>
    </message>
    <message>
        <source>{id} comes from the catalogue and cannot be deleted.</source>
        <translation>{id} 来自目录，不能删除。</translation>
    </message>
    <message>
        <source>There is no part with the id {id}.</source>
        <translation>不存在 ID 为 {id} 的部件。</translation>
    </message>
    <message>
        <source>The saved build {id} no longer exists.</source>
        <translation>已保存的配置 {id} 已不存在。</translation>
    </message>
    <message>
        <source>There is no benchmark run {id}.</source>
        <translation>没有第 {id} 次基准测试运行。</translation>
    </message>
</context>
<context>
    <name>suggest</name>
    <message>
        <source>must be fastest or cheapest</source>
        <translation>必须是 fastest 或 cheapest</translation>
    </message>
    <message>
        <source>a serving workload&apos;s target is its request rate; give no throughput target</source>
        <translation>推理服务工作负载的目标是其请求速率；请不要再给出吞吐量目标</translation>
    </message>
    <message>
        <source>the goal &quot;cheapest&quot; needs a positive target throughput</source>
        <translation>目标“最便宜”需要一个大于 0 的目标吞吐量</translation>
    </message>
    <message>
        <source>at least {low} GPUs and at most {high} contradict each other</source>
        <translation>至少 {low} 块 GPU 与至多 {high} 块 GPU 相互矛盾</translation>
    </message>
    <message>
        <source>the GPU count must be a range within 0–{high}</source>
        <translation>GPU 数量必须是 0–{high} 之内的一个范围</translation>
    </message>
    <message>
        <source>unknown case size {names}; choose from {choices}</source>
        <translation>未知的机箱尺寸 {names}；可选：{choices}</translation>
    </message>
    <message>
        <source>{rules}: not a rule that can be relaxed; choose from {choices}</source>
        <translation>{rules}：不是可放宽的规则；请从 {choices} 中选择</translation>
    </message>
    <message>
        <source>must be a positive number of milliseconds</source>
        <translation>必须是正的毫秒数</translation>
    </message>
    <message>
        <source>applies to a serving workload at a request rate only (task serve with request_rate)</source>
        <translation>只适用于给定请求速率的推理服务工作负载（task serve 且给出 request_rate）</translation>
    </message>
    <message>
        <source>applies to goal cheapest (the cheapest build that serves the request rate)</source>
        <translation>只适用于目标 cheapest（能承载该请求速率的最便宜配置）</translation>
    </message>
    <message>
        <source>must be auto or as-given</source>
        <translation>必须是 auto 或 as-given</translation>
    </message>
    <message>
        <source>The catalogue has no case of the sizes chosen ({sizes}).</source>
        <translation>目录中没有所选尺寸（{sizes}）的机箱。</translation>
    </message>
    <message>
        <source>The {sizes} cases in the catalogue take {forms} boards, and the catalogue has no such board: add one (Parts → Add custom part…) or allow other case sizes.</source>
        <translation>目录中 {sizes} 机箱只能装 {forms} 主板，而目录中没有这种主板：请添加一块（部件 → 添加自定义部件…），或允许其他机箱尺寸。</translation>
    </message>
    <message>
        <source>Even the cheapest CPU, board, memory, drive, supply and case together cost ¥{floor:,}, more than ¥{budget:,.0f}.</source>
        <translation>即使最便宜的 CPU、主板、内存、硬盘、电源和机箱加起来也要 ¥{floor:,}，超过 ¥{budget:,.0f}。</translation>
    </message>
    <message>
        <source>No card the options allow holds the workload: it needs at least {need:.1f} GiB per GPU even across {n} GPUs (FIT-1).</source>
        <translation>选项允许的显卡都装不下此工作负载：即使分到 {n} 块 GPU，每块也至少需要 {need:.1f} GiB（FIT-1）。</translation>
    </message>
    <message>
        <source>Left-over budget bought the platform, not nothing: {parts} (¥{spent:,}; ¥{left:,.0f} still unspent).</source>
        <translation>剩余预算用于升级平台而非闲置：{parts}（¥{spent:,}；仍有 ¥{left:,.0f} 未花）。</translation>
    </message>
    <message>
        <source>Held as constraints for training, and let through because no GPU build within the budget and the options passes them: {rules} (priced in as warnings).</source>
        <translation>训练时作为硬性约束、但因预算和选项内没有任何 GPU 配置能满足而放行：{rules}（按警告计入评分）。</translation>
    </message>
    <message>
        <source>Split over {n} GPUs with tensor parallelism (vLLM or TensorRT-LLM, --tensor-parallel-size {n}): each GPU holds 1/{n} of the weights and the KV cache, and one stream decodes over their combined memory bandwidth.</source>
        <translation>用张量并行拆分到 {n} 块 GPU（vLLM 或 TensorRT-LLM，--tensor-parallel-size {n}）：每块 GPU 存放 1/{n} 的权重和 KV 缓存，单路生成可利用它们合计的显存带宽。</translation>
    </message>
    <message>
        <source>Sharded with FSDP (ZeRO-3): without sharding no GPU build within the budget holds the model&apos;s weights, gradients and optimizer states; FSDP splits them across the GPUs.</source>
        <translation>使用 FSDP（ZeRO-3）分片：不分片时，预算内没有哪套 GPU 配置放得下模型的权重、梯度和优化器状态；FSDP 把它们分摊到各块 GPU 上。</translation>
    </message>
    <message>
        <source>Sharded with FSDP (ZeRO-3) and the optimizer states offloaded to host memory: sharding alone does not fit any GPU build within the budget.</source>
        <translation>使用 FSDP（ZeRO-3）分片并将优化器状态卸载到主机内存：仅分片时预算内没有任何 GPU 配置能装下。</translation>
    </message>
    <message>
        <source>Fine-tuned with LoRA (rank {rank}): full training does not fit any GPU build within the budget, even sharded; LoRA trains small adapters beside the frozen weights.</source>
        <translation>使用 LoRA 微调（秩 {rank}）：即使分片，全量训练也放不进预算内的任何 GPU 配置；LoRA 在冻结的权重旁训练小型适配器。</translation>
    </message>
    <message>
        <source>Fine-tuned with QLoRA (4-bit base, rank {rank}): neither full training nor LoRA fits any GPU build within the budget.</source>
        <translation>使用 QLoRA 微调（4 位基座，秩 {rank}）：全量训练和 LoRA 都放不进预算内的任何 GPU 配置。</translation>
    </message>
    <message>
        <source>The cheapest build without errors whose score reaches {target:,.0f} {unit}: ¥{price:,}.</source>
        <translation>评分达到 {target:,.0f} {unit} 的无错误配置中最便宜的：¥{price:,}。</translation>
    </message>
    <message>
        <source>The best score without errors within ¥{budget:,.0f}: {value:,.0f} {unit} estimated.</source>
        <translation>¥{budget:,.0f} 预算内无错误配置中评分最高：估算 {value:,.0f} {unit}。</translation>
    </message>
    <message>
        <source>Balanced: no warnings to trade off ({ram} GB of RAM for {vram} GB of VRAM, {cores} CPU cores for {gpus} GPU(s)).</source>
        <translation>均衡：没有需要权衡的警告（{vram} GB 显存配 {ram} GB 内存，{gpus} 块 GPU 配 {cores} 个 CPU 核心）。</translation>
    </message>
    <message>
        <source>Balanced: no warnings to trade off.</source>
        <translation>均衡：没有需要权衡的警告。</translation>
    </message>
    <message>
        <source>Its warnings ({penalties}) do not count against a serving target, which the estimate meets or not; the rules held as constraints (balance, heat, power) it passes.</source>
        <translation>它的警告（{penalties}）不折算推理服务目标——估算要么满足、要么不满足；作为约束的规则（均衡、散热、供电）它都通过。</translation>
    </message>
    <message>
        <source>Its warnings are priced in ({penalties}) and it still scores highest: {score:,.0f} {unit}.</source>
        <translation>计入其警告的罚分（{penalties}）后评分仍然最高：{score:,.0f} {unit}。</translation>
    </message>
    <message>
        <source>The cheapest of {n} builds within 1 % of the best score.</source>
        <translation>与最高评分相差不到 1 % 的 {n} 套配置中最便宜的一套。</translation>
    </message>
    <message>
        <source>Binding: the target of {target:,.0f} {unit}; every cheaper configuration estimates below it.</source>
        <translation>制约因素：目标 {target:,.0f} {unit}；每个更便宜的配置估算都达不到它。</translation>
    </message>
    <message>
        <source>Binding: none; no faster configuration is in the catalogue.</source>
        <translation>制约因素：无；目录中没有更快的配置。</translation>
    </message>
    <message>
        <source>Binding: the warnings; {name} would be faster but scores lower once its warnings are priced in.</source>
        <translation>制约因素：警告；{name} 会更快，但计入其警告后评分更低。</translation>
    </message>
    <message>
        <source>Binding: the budget; {name} would be faster, but no valid build with it fits ¥{budget:,.0f}.</source>
        <translation>制约因素：预算；{name} 会更快，但含它的有效配置都超出 ¥{budget:,.0f}。</translation>
    </message>
    <message>
        <source>Binding: the budget; the next faster option, {name}, needs at least ¥{price:,} for the whole build.</source>
        <translation>制约因素：预算；更快的下一个选项 {name}，整机至少需要 ¥{price:,}。</translation>
    </message>
    <message>
        <source>Binding: the GPU count ({low}–{high}); {name} would be faster.</source>
        <translation>制约因素：GPU 数量（{low}–{high}）；{name} 会更快。</translation>
    </message>
    <message>
        <source>Every configuration within ¥{budget:,.0f} fails a rule (configurations stopped: {rules}); --relax {relax} lets those warnings through, or raise the budget.</source>
        <translation>¥{budget:,.0f} 以内的每种配置都未通过某条规则（被拦下的配置数：{rules}）；使用 --relax {relax} 可放行这些警告，或提高预算。</translation>
    </message>
    <message>
        <source>Binding: none within the budget and the options; no faster configuration fits them.</source>
        <translation>制约因素：预算和选项内没有；没有更快的配置符合它们。</translation>
    </message>
    <message>
        <source>Binding: the rules; {name} would be faster, but no build with it passes {rules}.</source>
        <translation>制约因素：规则；{name} 会更快，但用它的配置都通不过 {rules}。</translation>
    </message>
    <message>
        <source>No CPU, board and GPU count the options allow fits ¥{budget:,.0f}: raise the budget or widen the GPU count.</source>
        <translation>在选项允许范围内，没有 CPU、主板和 GPU 数量的组合能控制在 ¥{budget:,.0f} 以内：请提高预算或放宽 GPU 数量。</translation>
    </message>
    <message>
        <source>Every configuration within ¥{budget:,.0f} fails a rule (configurations stopped: {rules}); raise the budget or widen the options.</source>
        <translation>¥{budget:,.0f} 以内的每种配置都未通过某条规则（被拦下的配置数：{rules}）；请提高预算或放宽选项。</translation>
    </message>
    <message>
        <source>The cheapest build without errors that serves {rate:,g} requests/s{bounds} by the engine&apos;s central estimates: ¥{price:,}.</source>
        <translation>按引擎的中心估计，能服务每秒 {rate:,g} 个请求{bounds}的最便宜无错误配置：¥{price:,}。</translation>
    </message>
    <message>
        <source>The workload needs about {need:.1f} GiB per GPU; the {gpu} has {have} GB.</source>
        <translation>该工作负载每块 GPU 约需 {need:.1f} GiB；{gpu} 有 {have} GB。</translation>
    </message>
    <message>
        <source>Binding: none; no cheaper GPU option is in the catalogue and the options.</source>
        <translation>制约因素：无；目录和选项中没有更便宜的 GPU 方案。</translation>
    </message>
    <message>
        <source>Binding: the request rate; the next cheaper option, {name}, serves at most ≈ {cap:,.2f} requests/s.</source>
        <translation>制约因素：请求速率；次便宜的方案 {name} 最多只能服务每秒约 {cap:,.2f} 个请求。</translation>
    </message>
    <message>
        <source>Binding: the time to first token; the next cheaper option, {name}, serves the rate with a median of ≈ {ttft:,.0f} ms.</source>
        <translation>制约因素：首 token 时间；次便宜的方案 {name} 能承载该速率，但中位数约为 {ttft:,.0f} 毫秒。</translation>
    </message>
    <message>
        <source>Binding: the time per output token; the next cheaper option, {name}, serves the rate with a median of ≈ {tpot:,.1f} ms.</source>
        <translation>制约因素：每个输出 token 的时间；次便宜的方案 {name} 能承载该速率，但中位时间约为 {tpot:,.1f} 毫秒。</translation>
    </message>
    <message>
        <source>Binding: the rules; the next cheaper option, {name}, meets the target, but no build with it passes {rules}.</source>
        <translation>制约因素：规则；次便宜的方案 {name} 能达到目标，但用它组成的配置都无法通过 {rules}。</translation>
    </message>
    <message>
        <source>Binding: the price of the rest; the next cheaper option, {name}, meets the target, but no valid build with it costs less.</source>
        <translation>制约因素：其余部件的价格；次便宜的方案 {name} 能达到目标，但用它组成的有效配置都不更便宜。</translation>
    </message>
    <message>
        <source>¥{cny:,} more; median time to first token ≈ {ttft:,.0f} ms</source>
        <translation>贵 ¥{cny:,}；首 token 时间中位数约 {ttft:,.0f} 毫秒</translation>
    </message>
    <message>
        <source>¥{cny:,} less but more GPUs; median time to first token ≈ {ttft:,.0f} ms</source>
        <translation>便宜 ¥{cny:,} 但 GPU 更多；首 token 时间中位数约 {ttft:,.0f} 毫秒</translation>
    </message>
    <message>
        <source>¥{cny:,} less, {pct:.0%} slower; warnings: {penalties}</source>
        <translation>便宜 ¥{cny:,}，慢 {pct:.0%}；警告：{penalties}</translation>
    </message>
    <message>
        <source>¥{cny:,} less, {pct:.0%} slower</source>
        <translation>便宜 ¥{cny:,}，慢 {pct:.0%}</translation>
    </message>
    <message>
        <source>¥{cny:,} less, {pct:.0%} faster but scored lower for its warnings: {penalties}</source>
        <translation>便宜 ¥{cny:,}，快 {pct:.0%}，但因警告评分更低：{penalties}</translation>
    </message>
    <message>
        <source>¥{cny:,} more, {pct:.0%} slower; warnings: {penalties}</source>
        <translation>贵 ¥{cny:,}，慢 {pct:.0%}；警告：{penalties}</translation>
    </message>
    <message>
        <source>¥{cny:,} more, {pct:.0%} slower</source>
        <translation>贵 ¥{cny:,}，慢 {pct:.0%}</translation>
    </message>
    <message>
        <source>¥{cny:,} more, {pct:.0%} faster but scored lower for its warnings: {penalties}</source>
        <translation>贵 ¥{cny:,}，快 {pct:.0%}，但因警告评分更低：{penalties}</translation>
    </message>
    <message>
        <source>less host RAM than VRAM: pinned buffers and checkpoints stall</source>
        <translation>主机内存少于显存：锁页缓冲区和检查点会卡顿</translation>
    </message>
    <message>
        <source>open-air cards stacked without a gap throttle</source>
        <translation>开放式散热显卡紧挨着叠放会降频</translation>
    </message>
    <message>
        <source>the drives cannot hold the data set, environment and checkpoints</source>
        <translation>硬盘容纳不下数据集、环境和检查点</translation>
    </message>
    <message>
        <source>too few CPU cores to feed the GPUs&apos; data loaders</source>
        <translation>CPU 核心太少，喂不饱 GPU 的数据加载器</translation>
    </message>
    <message>
        <source>half of a dual-socket board is dead with one CPU</source>
        <translation>双路主板只装一颗 CPU 时有一半无法使用</translation>
    </message>
    <message>
        <source>the model only just fits: it may run out of memory</source>
        <translation>模型刚好放得下：可能显存不足</translation>
    </message>
    <message>
        <source>a used GPU: its memory must be tested before paying</source>
        <translation>二手 GPU：付款前必须测试显存</translation>
    </message>
    <message>
        <source>an AMD card: ROCm instead of CUDA</source>
        <translation>AMD 显卡：用 ROCm 而不是 CUDA</translation>
    </message>
    <message>
        <source>the supply runs above 90 % of its rating at peak</source>
        <translation>峰值时电源负载超过额定功率的 90 %</translation>
    </message>
    <message>
        <source>the supply is below the vendor&apos;s recommendation</source>
        <translation>电源低于厂商推荐功率</translation>
    </message>
    <message>
        <source>memory channels left empty</source>
        <translation>有内存通道空着</translation>
    </message>
    <message>
        <source>a card gets fewer than 8 lanes</source>
        <translation>有显卡分到的通道少于 8 条</translation>
    </message>
    <message>
        <source>an M.2 drive takes lanes from a GPU slot</source>
        <translation>M.2 硬盘占用了 GPU 插槽的通道</translation>
    </message>
    <message>
        <source>the CPU cooler is rated below the CPU</source>
        <translation>CPU 散热器的额定散热能力低于 CPU 功耗</translation>
    </message>
    <message>
        <source>new PyTorch builds leave the GPU&apos;s architecture out</source>
        <translation>新版 PyTorch 已不再支持该 GPU 架构</translation>
    </message>
    <message>
        <source>RAM below the guide&apos;s formula</source>
        <translation>内存低于指南公式的要求</translation>
    </message>
    <message>
        <source>RAM below the guide&apos;s figure for CNNs</source>
        <translation>内存低于指南对 CNN 的建议</translation>
    </message>
    <message>
        <source>RAM below the guide&apos;s figure for GPT</source>
        <translation>内存低于指南对 GPT 的建议</translation>
    </message>
    <message>
        <source>the SSD is slower or smaller than the guide&apos;s</source>
        <translation>SSD 比指南建议的慢或小</translation>
    </message>
    <message>
        <source>the data set does not fit on the SSD</source>
        <translation>数据集放不进 SSD</translation>
    </message>
    <message>
        <source>less than the 24 GB the guide recommends for Transformers</source>
        <translation>少于指南为 Transformer 推荐的 24 GB</translation>
    </message>
    <message>
        <source>less GPU memory than the guide recommends for GPT</source>
        <translation>显存少于指南为 GPT 推荐的容量</translation>
    </message>
    <message>
        <source>a 16-pin input through the bundled adapter</source>
        <translation>16 针供电经由随附的转接线</translation>
    </message>
    <message>
        <source>a Gen4 card on a Gen3 link</source>
        <translation>Gen4 显卡接在 Gen3 链路上</translation>
    </message>
    <message>
        <source>more cards than the NVLink bridge joins</source>
        <translation>显卡多于 NVLink 桥能连接的数量</translation>
    </message>
    <message>
        <source>no peer-to-peer: all-reduce through host memory</source>
        <translation>不支持点对点（P2P）：all-reduce 经由主机内存</translation>
    </message>
    <message>
        <source>fewer than 8 CPU cores with several GPUs</source>
        <translation>多块 GPU 却少于 8 个 CPU 核心</translation>
    </message>
    <message>
        <source>less than 16 MB of L3 cache</source>
        <translation>L3 缓存少于 16 MB</translation>
    </message>
    <message>
        <source>CPU-only inference without AVX-512</source>
        <translation>纯 CPU 推理但不支持 AVX-512</translation>
    </message>
    <message>
        <source>below the guide&apos;s CPU minimum</source>
        <translation>低于指南的 CPU 最低要求</translation>
    </message>
    <message>
        <source>ECC modules where ECC is not supported</source>
        <translation>在不支持 ECC 的平台上用了 ECC 内存</translation>
    </message>
    <message>
        <source>the CPU may need a BIOS update on this board</source>
        <translation>在此主板上 CPU 可能需要更新 BIOS</translation>
    </message>
    <message>
        <source>a 6 GB card for a large model</source>
        <translation>大模型用 6 GB 显卡</translation>
    </message>
    <message>
        <source>a batch above the guide&apos;s for the card&apos;s memory</source>
        <translation>批大小超过指南对该显存容量的建议</translation>
    </message>
    <message>
        <source>below the guide&apos;s CNN minimum of GPU memory</source>
        <translation>显存低于指南对 CNN 的最低要求</translation>
    </message>
    <message>
        <source>an SFX supply in an ATX bay needs a bracket</source>
        <translation>SFX 电源装进 ATX 电源位需要转接架</translation>
    </message>
    <message>
        <source>a warning of the engine</source>
        <translation>检查引擎的一条警告</translation>
    </message>
    <message>
        <source>small form factor</source>
        <translation>小机箱（SFF）</translation>
    </message>
    <message>
        <source>mini or mid tower</source>
        <translation>迷你或中塔</translation>
    </message>
    <message>
        <source>full tower</source>
        <translation>全塔</translation>
    </message>
    <message>
        <source>rack</source>
        <translation>机架式</translation>
    </message>
    <message>
        <source> with a median time to first token of at most {ttft:,g} ms and per output token of at most {tpot:,g} ms</source>
        <translation>，且首 token 时间中位数不超过 {ttft:,g} 毫秒、每个输出 token 的中位时间不超过 {tpot:,g} 毫秒</translation>
    </message>
    <message>
        <source> with a median time to first token of at most {ttft:,g} ms</source>
        <translation>，且首 token 时间中位数不超过 {ttft:,g} 毫秒</translation>
    </message>
    <message>
        <source> with a median time per output token of at most {tpot:,g} ms</source>
        <translation>，且每个输出 token 的中位时间不超过 {tpot:,g} 毫秒</translation>
    </message>
    <message>
        <source>Judged at {rate:,g} requests/s ({prompt:,} prompt and {output:,} output tokens each, {runtime}) on the central estimates: it serves them, at most ≈ {capacity:,.2f} requests/s ({low:,.2f}–{high:,.2f} over the decode model&apos;s range).</source>
        <translation>按每秒 {rate:,g} 个请求（每个请求 {prompt:,} 个提示词 token 和 {output:,} 个输出 token，{runtime}）的中心估计判断：能够承载，最多约每秒 {capacity:,.2f} 个请求（按解码模型的范围为 {low:,.2f}–{high:,.2f}）。</translation>
    </message>
    <message>
        <source> (bound {bound:,g} ms)</source>
        <translation>（上限 {bound:,g} 毫秒）</translation>
    </message>
    <message>
        <source>Median time to first token ≈ {ttft:,.0f} ms ({low:,.0f}–{high:,.0f}){bound}; per output token ≈ {tpot:,.1f} ms ({tpot_low:,.1f}–{tpot_high:,.1f}){tpot_bound}.</source>
        <translation>首 token 时间中位数约 {ttft:,.0f} 毫秒（{low:,.0f}–{high:,.0f}）{bound}；每个输出 token 约 {tpot:,.1f} 毫秒（{tpot_low:,.1f}–{tpot_high:,.1f}）{tpot_bound}。</translation>
    </message>
    <message>
        <source>The central estimates meet the target; the ranges&apos; pessimistic ends do not ({figures}): measure the build under this load before relying on it.</source>
        <translation>中心估计满足目标，但范围的悲观端不满足（{figures}）：在依赖它之前，请在此负载下实测该配置。</translation>
    </message>
    <message>
        <source>{count} GPU option(s) within ¥{budget:,.0f} meet the serving target by their estimate (the cheapest: {names}), but no complete build with them passes the rules:</source>
        <translation>在 ¥{budget:,.0f} 以内有 {count} 个 GPU 方案按估算满足推理服务目标（最便宜的：{names}），但用它们组成的完整配置都无法通过规则：</translation>
    </message>
    <message>
        <source>No GPU option within ¥{budget:,.0f} holds the model&apos;s weights and one request&apos;s KV cache.</source>
        <translation>在 ¥{budget:,.0f} 以内，没有 GPU 方案能同时放下模型权重和一个请求的 KV 缓存。</translation>
    </message>
    <message>
        <source>No build within ¥{budget:,.0f} serves {rate:,g} requests/s: the most is ≈ {best:,.2f} requests/s, {n} × {gpu} (its KV cache full).</source>
        <translation>在 ¥{budget:,.0f} 以内，没有配置能服务每秒 {rate:,g} 个请求：最多约为每秒 {best:,.2f} 个请求，{n} × {gpu}（KV 缓存已满）。</translation>
    </message>
    <message>
        <source>Of the builds within ¥{budget:,.0f} that serve {rate:,g} requests/s, the lowest median time to first token is ≈ {ttft:,.0f} ms ({n} × {gpu}), above {bound:,g} ms.</source>
        <translation>在 ¥{budget:,.0f} 以内能服务每秒 {rate:,g} 个请求的配置中，首 token 时间的最低中位数约为 {ttft:,.0f} 毫秒（{n} × {gpu}），高于 {bound:,g} 毫秒。</translation>
    </message>
    <message>
        <source>Of the builds within ¥{budget:,.0f} that serve {rate:,g} requests/s, the lowest median time per output token is ≈ {tpot:,.1f} ms ({n} × {gpu}), above {bound:,g} ms.</source>
        <translation>在 ¥{budget:,.0f} 以内能服务每秒 {rate:,g} 个请求的配置中，每个输出 token 的最低中位时间约为 {tpot:,.1f} 毫秒（{n} × {gpu}），高于 {bound:,g} 毫秒。</translation>
    </message>
    <message>
        <source>Builds within ¥{budget:,.0f} meet the time to first token or the time per output token at {rate:,g} requests/s, none both.</source>
        <translation>在 ¥{budget:,.0f} 以内，有配置在每秒 {rate:,g} 个请求时满足首 token 时间或每个输出 token 的时间，但没有配置同时满足两者。</translation>
    </message>
</context>
<context>
    <name>tiers</name>
    <message>
        <source>RTX 3060 12GB, Ryzen 5 5600X, 32GB DDR4, 1TB NVMe SSD</source>
        <translation>GPU：RTX 3060 12GB；CPU：Ryzen 5 5600X；内存：32GB DDR4；存储：1TB NVMe SSD</translation>
    </message>
    <message>
        <source>RTX 3090×2 + NVLink, Threadripper Pro 3975WX, 128GB ECC DDR4, 2TB NVMe SSD + 8TB HDD</source>
        <translation>GPU：RTX 3090×2 + NVLink；CPU：Threadripper Pro 3975WX；内存：128GB ECC DDR4；存储：2TB NVMe SSD + 8TB HDD阵列</translation>
    </message>
    <message>
        <source>A100 80GB×4 (NVSwitch), Xeon Platinum 8380×2, 512GB DDR5, all-flash array + distributed FS</source>
        <translation>GPU：A100 80GB×4（NVSwitch连接）；CPU：Xeon Platinum 8380×2；内存：512GB DDR5；存储：全闪存阵列 + 分布式文件系统</translation>
    </message>
    <message>
        <source>GTX 1650 Super, i5-10400F / Ryzen 5 3600, 16GB DDR4-3200, 256GB NVMe SSD (≥ 2000 MB/s)</source>
        <translation>GPU：NVIDIA GTX 1650 Super；CPU：Intel i5-10400F 或 AMD Ryzen 5 3600；内存：16GB DDR4（3200MHz）；存储：256GB NVMe SSD（读取速度≥2000MB/s）</translation>
    </message>
    <message>
        <source>RTX 3060 12GB, 32GB RAM, 512GB SSD</source>
        <translation>最低GPU：NVIDIA RTX 3060（12GB GDDR6）；内存：32GB DDR4；存储：512GB SSD</translation>
    </message>
    <message>
        <source>Entry level (students, individuals)</source>
        <translation>入门级（学生/个人）</translation>
    </message>
    <message>
        <source>Professional (research teams)</source>
        <translation>专业级（研究团队）</translation>
    </message>
    <message>
        <source>Enterprise (large-scale training)</source>
        <translation>企业级（大规模训练）</translation>
    </message>
    <message>
        <source>CNN minimum</source>
        <translation>CNN 最低配置</translation>
    </message>
    <message>
        <source>GPT minimum</source>
        <translation>GPT 最低配置</translation>
    </message>
    <message>
        <source>Entry</source>
        <translation>入门级</translation>
    </message>
    <message>
        <source>Pro</source>
        <translation>专业级</translation>
    </message>
    <message>
        <source>Enterprise</source>
        <translation>企业级</translation>
    </message>
    <message>
        <source>CNN min.</source>
        <translation>CNN 最低</translation>
    </message>
    <message>
        <source>GPT min.</source>
        <translation>GPT 最低</translation>
    </message>
</context>
<context>
    <name>units</name>
    <message>
        <source>img/s</source>
        <translation>张/秒</translation>
    </message>
    <message>
        <source>images/s</source>
        <translation>张/秒</translation>
    </message>
    <message>
        <source>tokens/s</source>
        <translation>token/秒</translation>
    </message>
    <message>
        <source>sequences/s</source>
        <translation>序列/秒</translation>
    </message>
    <message>
        <source>samples</source>
        <translation>个样本</translation>
    </message>
    <message>
        <source>s/iter</source>
        <translation>秒/迭代</translation>
    </message>
    <message>
        <source>s/image</source>
        <translation>秒/张</translation>
    </message>
    <message>
        <source>{unit} per ¥1000</source>
        <translation>{unit}（每 ¥1000）</translation>
    </message>
    <message>
        <source>requests</source>
        <translation>个请求</translation>
    </message>
    <message>
        <source>requests/s</source>
        <translation>请求/秒</translation>
    </message>
</context>
<context>
    <name>verdict</name>
    <message>
        <source>Pick parts on the left, or start from a preset or Suggest. Findings and estimates appear here as you choose.</source>
        <translation>在左侧选择部件，或从预设、推荐开始。检查结果和估算会随选择即时显示在这里。</translation>
    </message>
    <message>
        <source>The workload cannot be estimated: {problems}</source>
        <translation>无法估算这个工作负载：{problems}</translation>
    </message>
    <message>
        <source>{n} error(s): this build will not work as planned.</source>
        <translation>{n} 个错误：此配置无法按计划工作。</translation>
    </message>
    <message>
        <source>Not a whole build yet: still to choose {missing}. Judged so far: {errors} error(s), {warnings} warning(s).</source>
        <translation>配置尚不完整：还需选择{missing}。目前的检查：{errors} 个错误，{warnings} 个警告。</translation>
    </message>
    <message>
        <source>Also still to choose: {missing}.</source>
        <translation>另外还需选择：{missing}。</translation>
    </message>
    <message>
        <source>Still to choose: {missing}. The findings judge only the parts chosen.</source>
        <translation>尚未选择：{missing}。以下检查结果只针对已选的配件。</translation>
    </message>
    <message>
        <source>No errors; {n} recommendation(s) from the guides not met.</source>
        <translation>没有错误；有 {n} 条指南建议未满足。</translation>
    </message>
    <message>
        <source>No errors and no warnings.</source>
        <translation>没有错误，也没有警告。</translation>
    </message>
    <message>
        <source>, </source>
        <translation>、</translation>
    </message>
</context>
<context>
    <name>workload</name>
    <message>
        <source>Training</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>Inference</source>
        <translation>推理</translation>
    </message>
    <message>
        <source>FP32</source>
        <translation>FP32</translation>
    </message>
    <message>
        <source>Mixed precision (AMP: fp16 compute, fp32 weights)</source>
        <translation>混合精度（AMP：fp16 计算，fp32 权重）</translation>
    </message>
    <message>
        <source>BF16</source>
        <translation>BF16</translation>
    </message>
    <message>
        <source>FP16</source>
        <translation>FP16</translation>
    </message>
    <message>
        <source>INT8 weights</source>
        <translation>INT8 权重</translation>
    </message>
    <message>
        <source>INT4 weights</source>
        <translation>INT4 权重</translation>
    </message>
    <message>
        <source>FP8 (Ada, Hopper and newer tensor cores)</source>
        <translation>FP8（Ada、Hopper 及更新的张量核心）</translation>
    </message>
    <message>
        <source>Hugging Face transformers (generate)</source>
        <translation>Hugging Face transformers（generate）</translation>
    </message>
    <message>
        <source>PyTorch with torch.compile</source>
        <translation>PyTorch + torch.compile</translation>
    </message>
    <message>
        <source>vLLM</source>
        <translation>vLLM</translation>
    </message>
    <message>
        <source>llama.cpp</source>
        <translation>llama.cpp</translation>
    </message>
    <message>
        <source>ExLlamaV2</source>
        <translation>ExLlamaV2</translation>
    </message>
    <message>
        <source>TensorRT-LLM</source>
        <translation>TensorRT-LLM</translation>
    </message>
    <message>
        <source>PyTorch (eager)</source>
        <translation>PyTorch（eager 模式）</translation>
    </message>
    <message>
        <source>Full (every weight trained)</source>
        <translation>全参数（训练全部权重）</translation>
    </message>
    <message>
        <source>LoRA (adapters on frozen weights)</source>
        <translation>LoRA（冻结权重上的适配器）</translation>
    </message>
    <message>
        <source>QLoRA (adapters on 4-bit frozen weights)</source>
        <translation>QLoRA（4 位冻结权重上的适配器）</translation>
    </message>
    <message>
        <source>AdamW (fp32 states)</source>
        <translation>AdamW（fp32 状态）</translation>
    </message>
    <message>
        <source>Adam (fp32 states)</source>
        <translation>Adam（fp32 状态）</translation>
    </message>
    <message>
        <source>AdamW with bf16 states</source>
        <translation>AdamW（bf16 状态）</translation>
    </message>
    <message>
        <source>SGD with momentum</source>
        <translation>SGD（带动量）</translation>
    </message>
    <message>
        <source>SGD without momentum</source>
        <translation>SGD（无动量）</translation>
    </message>
    <message>
        <source>AdamW 8-bit (bitsandbytes)</source>
        <translation>8 位 AdamW（bitsandbytes）</translation>
    </message>
    <message>
        <source>Paged AdamW 8-bit (bitsandbytes)</source>
        <translation>分页 8 位 AdamW（bitsandbytes）</translation>
    </message>
    <message>
        <source>None (a full copy per GPU)</source>
        <translation>无（每块 GPU 一份完整副本）</translation>
    </message>
    <message>
        <source>ZeRO-1 (optimizer states split)</source>
        <translation>ZeRO-1（切分优化器状态）</translation>
    </message>
    <message>
        <source>ZeRO-2 (optimizer states and gradients split)</source>
        <translation>ZeRO-2（切分优化器状态和梯度）</translation>
    </message>
    <message>
        <source>ZeRO-3 (states, gradients and weights split)</source>
        <translation>ZeRO-3（切分状态、梯度和权重）</translation>
    </message>
    <message>
        <source>FSDP (fully sharded)</source>
        <translation>FSDP（完全分片）</translation>
    </message>
    <message>
        <source>None (the whole model on each GPU)</source>
        <translation>无（每块 GPU 放完整模型）</translation>
    </message>
    <message>
        <source>Tensor parallel (each layer split over the GPUs)</source>
        <translation>张量并行（每层切分到各 GPU）</translation>
    </message>
    <message>
        <source>Pipeline parallel (layers split over the GPUs)</source>
        <translation>流水线并行（各层分配到各 GPU）</translation>
    </message>
    <message>
        <source>Expert parallel (the experts spread over the GPUs)</source>
        <translation>专家并行（专家分布到各 GPU）</translation>
    </message>
    <message>
        <source>None</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Optimizer states to CPU memory</source>
        <translation>优化器状态卸载到内存</translation>
    </message>
    <message>
        <source>Activations to CPU memory</source>
        <translation>激活值卸载到内存</translation>
    </message>
    <message>
        <source>Optimizer states and activations to CPU memory</source>
        <translation>优化器状态和激活值卸载到内存</translation>
    </message>
    <message>
        <source>AWQ 4-bit (group 128)</source>
        <translation>AWQ 4 位（每组 128）</translation>
    </message>
    <message>
        <source>GPTQ 4-bit (group 128)</source>
        <translation>GPTQ 4 位（每组 128）</translation>
    </message>
    <message>
        <source>bitsandbytes NF4 (4-bit)</source>
        <translation>bitsandbytes NF4（4 位）</translation>
    </message>
    <message>
        <source>bitsandbytes LLM.int8 (8-bit)</source>
        <translation>bitsandbytes LLM.int8（8 位）</translation>
    </message>
    <message>
        <source>GGUF Q4_K_M (about 4.85 bits per weight)</source>
        <translation>GGUF Q4_K_M（每个权重约 4.85 位）</translation>
    </message>
    <message>
        <source>GGUF Q8_0 (8.5 bits per weight)</source>
        <translation>GGUF Q8_0（每个权重 8.5 位）</translation>
    </message>
    <message>
        <source>torchao int4 weight-only (group 128)</source>
        <translation>torchao int4 仅权重（每组 128）</translation>
    </message>
    <message>
        <source>torchao int8 weight-only</source>
        <translation>torchao int8 仅权重</translation>
    </message>
    <message>
        <source>FP8 weight-only (W8A16)</source>
        <translation>FP8 仅权重（W8A16）</translation>
    </message>
    <message>
        <source>FP8 weights and activations (W8A8)</source>
        <translation>FP8 权重与激活（W8A8）</translation>
    </message>
    <message>
        <source>EXL2 (4.65 bits per weight)</source>
        <translation>EXL2（每个权重 4.65 位）</translation>
    </message>
    <message>
        <source>None (the precision&apos;s bit width)</source>
        <translation>无（按精度的位宽）</translation>
    </message>
    <message>
        <source>SDPA (flash / memory-efficient kernels)</source>
        <translation>SDPA（flash / 省显存内核）</translation>
    </message>
    <message>
        <source>Eager (keeps the attention scores)</source>
        <translation>eager（保留注意力分数）</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Task</source>
        <translation>任务</translation>
    </message>
    <message>
        <source>Runtime</source>
        <translation>运行框架</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>精度</translation>
    </message>
    <message>
        <source>Quantisation</source>
        <translation>量化</translation>
    </message>
    <message>
        <source>KV cache</source>
        <translation>KV 缓存</translation>
    </message>
    <message>
        <source>Batch per GPU</source>
        <translation>每 GPU 批大小</translation>
    </message>
    <message>
        <source>Sequence length</source>
        <translation>序列长度</translation>
    </message>
    <message>
        <source>Fine-tuning</source>
        <translation>微调方式</translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source>Sharding</source>
        <translation>分片</translation>
    </message>
    <message>
        <source>Parallelism</source>
        <translation>模型并行</translation>
    </message>
    <message>
        <source>Activation checkpointing</source>
        <translation>激活检查点</translation>
    </message>
    <message>
        <source>Offload</source>
        <translation>卸载</translation>
    </message>
    <message>
        <source>Chunked cross-entropy</source>
        <translation>分块交叉熵</translation>
    </message>
    <message>
        <source>Attention</source>
        <translation>注意力</translation>
    </message>
    <message>
        <source>on</source>
        <translation>开</translation>
    </message>
    <message>
        <source>FP8 (1 B per cached element)</source>
        <translation>FP8（每个缓存元素 1 B）</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关</translation>
    </message>
    <message>
        <source>{runtime} (default)</source>
        <translation>{runtime}（默认）</translation>
    </message>
    <message>
        <source>{method}, rank {rank}</source>
        <translation>{method}，秩 {rank}</translation>
    </message>
    <message>
        <source>{optimizer}, stepped in backward (no stored gradients)</source>
        <translation>{optimizer}，在反向传播中更新（不保存梯度）</translation>
    </message>
    <message>
        <source>{optimizer} (the model&apos;s default)</source>
        <translation>{optimizer}（模型默认）</translation>
    </message>
    <message>
        <source>{name} · {size}</source>
        <translation>{name} · {size}</translation>
    </message>
    <message>
        <source>{size} ({active} active)</source>
        <translation>{size}（激活 {active}）</translation>
    </message>
    <message>
        <source>Custom model</source>
        <translation>自定义模型</translation>
    </message>
    <message>
        <source>Load</source>
        <translation>负载</translation>
    </message>
    <message>
        <source>Tokens per request</source>
        <translation>每个请求的 token</translation>
    </message>
    <message>
        <source>Denoising steps</source>
        <translation>去噪步数</translation>
    </message>
    <message>
        <source>Image size</source>
        <translation>图像尺寸</translation>
    </message>
    <message>
        <source>Serving (LLM under load)</source>
        <translation>服务（负载下的大模型推理）</translation>
    </message>
    <message>
        <source>{n} requests in flight</source>
        <translation>{n} 个请求同时在处理</translation>
    </message>
    <message>
        <source>{rate} requests/s (Poisson arrivals)</source>
        <translation>{rate} 请求/秒（泊松到达）</translation>
    </message>
    <message>
        <source>{prompt} prompt + {output} output</source>
        <translation>{prompt} 提示 + {output} 输出</translation>
    </message>
    <message>
        <source>Serving at {load}, {tokens} tokens per request</source>
        <translation>服务负载：{load}，每个请求 {tokens} token</translation>
    </message>
    <message>
        <source>{value} (default)</source>
        <translation>{value}（默认）</translation>
    </message>
</context>
</TS>
