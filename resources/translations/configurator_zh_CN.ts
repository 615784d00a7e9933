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
        <source>The app is using a temporary database at {path} for now: changes made in this session will not be kept.</source>
        <translation>应用暂时使用位于 {path} 的临时数据库：本次会话中的修改不会被保留。</translation>
    </message>
    <message>
        <source>Database repaired</source>
        <translation>数据库已修复</translation>
    </message>
</context>
<context>
    <name>CustomPartDialog</name>
    <message>
        <source>Add a custom part</source>
        <translation>添加自定义部件</translation>
    </message>
    <message>
        <source>Add part</source>
        <translation>添加部件</translation>
    </message>
    <message>
        <source>Fields marked * are required. Units are in the labels. Lists are separated by &apos;;&apos;.</source>
        <translation>带 * 的字段为必填项。单位写在标签中。列表项用“;”分隔。</translation>
    </message>
    <message>
        <source>empty = not applicable</source>
        <translation>留空 = 不适用</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Configurator — plan, watch and measure a PyTorch machine</source>
        <translation>Configurator — 规划、监控与实测你的 PyTorch 主机</translation>
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
        <source>Configurator {version}
PySide6 {qt}
Database: {db}

Knowledge from two Chinese guides; rules are numbered in RULES.md.</source>
        <translation>Configurator {version}
PySide6 {qt}
数据库：{db}

知识来自两份中文指南；规则编号见 RULES.md。</translation>
    </message>
</context>
<context>
    <name>PartsBrowser</name>
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
</context>
<context>
    <name>cli</name>
    <message>
        <source>must be one of {choices}, not {got!r}</source>
        <translation>必须是 {choices} 之一，而不是 {got!r}</translation>
    </message>
    <message>
        <source>{n} parts. Prices are street-price estimates in CNY; * custom part, ✎ price edited by you.</source>
        <translation>共 {n} 个部件。价格为人民币市场参考价；* 自定义部件，✎ 价格已由你修改。</translation>
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
</context>
<context>
    <name>csv</name>
    <message>
        <source>is neither UTF-8 nor GB18030 text: save it as CSV UTF-8 and try again</source>
        <translation>既不是 UTF-8 也不是 GB18030 文本：请另存为“CSV UTF-8”后重试</translation>
    </message>
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
        <source>Price edited by you</source>
        <translation>价格已由你修改</translation>
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
        <source>PSU form factor</source>
        <translation>电源规格</translation>
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
        <source>must be the URL of the model&apos;s spec page (https://…/path), not {got!r}</source>
        <translation>必须是该型号规格页面的网址（https://…/路径），而不是 {got!r}</translation>
    </message>
    <message>
        <source>must be DDR4 or DDR5, not {got!r}</source>
        <translation>必须是 DDR4 或 DDR5，而不是 {got!r}</translation>
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
    <name>store</name>
    <message>
        <source>The database {original} was damaged ({reason}). It was kept as {moved_to} and a fresh database was created. Your saved builds and edited prices are in the old file; it can be opened with any SQLite tool.</source>
        <translation>数据库 {original} 已损坏（{reason}）。原文件已保留为 {moved_to}，并已新建数据库。你保存的配置和修改过的价格仍在旧文件中，可用任意 SQLite 工具打开。</translation>
    </message>
    <message>
        <source>Cannot create the folder for the database {path}: {error}</source>
        <translation>无法为数据库创建文件夹 {path}：{error}</translation>
    </message>
    <message>
        <source>Could not prepare the database {path}: {error}. A copy is at {backup}.</source>
        <translation>无法准备数据库 {path}：{error}。副本位于 {backup}。</translation>
    </message>
    <message>
        <source>Cannot open the database {path}: {error}</source>
        <translation>无法打开数据库 {path}：{error}</translation>
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
</context>
</TS>
