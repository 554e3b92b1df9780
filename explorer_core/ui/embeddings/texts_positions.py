"""Texts of the Position encodings page."""

EN = {
    "emb.pos.dl.table": "Encoding table (CSV)",
    "emb.pos.dl.similarity": "Similarity matrix (CSV)",
    "emb.pos.dl.rotation": "Rotation of this pair (CSV)",
    "emb.pos.dl.spectrum": "Angles and wavelengths (CSV)",
    "emb.pos.dl.decay": "Score by offset (CSV)",
    "emb.pos.axis.angle": "angle (rad)",
    "emb.pos.title": "Position encodings: how order becomes geometry",
    "emb.pos.intro": (
        "Attention treats its input as a set: shuffle the tokens and every token sees the same "
        "neighbours. A positional encoding (位置编码) puts word order back in. Four families, on "
        "the same sliders: two absolute ones added to the token vectors (sinusoidal, learned), and "
        "two that act inside attention (relative, rotary)."
    ),
    "emb.pos.length": "Sequence length T (positions)",
    "emb.pos.dim": "Width d (dimensions)",
    "emb.pos.base": "Frequency base",
    "emb.pos.clip": "Relative clip window k (±positions)",
    "emb.pos.trained": "Trained length (positions seen in training)",
    "emb.pos.scheme": "Scheme",
    "emb.pos.scheme.sinusoidal": "Sinusoidal",
    "emb.pos.scheme.learned": "Learned",
    "emb.pos.scheme.relative": "Relative",
    "emb.pos.scheme.rotary": "Rotary (RoPE)",
    "emb.pos.about.sinusoidal": (
        "PE(pos, 2i) = sin(pos / base^(2i/d)), PE(pos, 2i+1) = cos(pos / base^(2i/d)): each pair "
        "of "
        "columns is a clock turning at its own speed, fast on the left, slow on the right. No "
        "weights are learned."
    ),
    "emb.pos.about.learned": (
        "BERT learns one vector per position, like a second embedding table indexed by position. "
        "Shown: the real table of the pretrained MiniLM (512 rows × 384 dimensions)."
    ),
    "emb.pos.about.relative": (
        "Shaw-style relative positions: attention from token i to token j adds q_i · r[j − i], "
        "with one learned vector per distance, clipped to ±{clip}. Only distances matter; beyond "
        "±{clip} all distances look the same."
    ),
    "emb.pos.about.rotary": (
        "RoPE rotates every 2-D pair of a query or key by the angle m·θᵢ at position m, "
        "θᵢ = base^(−2i/d). The dot product q_m · k_n then depends only on m − n."
    ),
    "emb.pos.axis.dim": "dimension (index)",
    "emb.pos.axis.pos": "position (index)",
    "emb.pos.axis.pair": "pair i (index)",
    "emb.pos.axis.value": "value (no unit)",
    "emb.pos.axis.key": "key position j",
    "emb.pos.axis.query": "query position i",
    "emb.pos.axis.distance": "clipped distance j − i (positions)",
    "emb.pos.axis.cosine": "cosine (1 = same direction)",
    "emb.pos.axis.bias": "bias q·r (no unit)",
    "emb.pos.axis.x": "dimension {a}",
    "emb.pos.axis.y": "dimension {b}",
    "emb.pos.axis.wavelength": "wavelength (positions per full turn, log scale)",
    "emb.pos.axis.offset": "offset m − n (positions)",
    "emb.pos.axis.score": "q·k (1 at offset 0)",
    "emb.pos.sin.title": "Sinusoidal table PE (positions × dimensions)",
    "emb.pos.learned.title": "Learned position table of MiniLM",
    "emb.pos.rel.title": "Which distance each (i, j) uses, clipped to ±{clip} (first {shown})",
    "emb.pos.rope.title": "RoPE angles: cos(m·θᵢ) per position and pair",
    "emb.pos.sim.title.sinusoidal": "PE·PEᵀ / (d/2): similarity of positions",
    "emb.pos.sim.title.learned": "PE·PEᵀ of the learned table, rows scaled to length 1 (cosine)",
    "emb.pos.sim.title.relative": "Position part of the score: q·r[j − i]",
    "emb.pos.sim.title.rotary": "R_m u · R_n u / d: position-only q·k",
    "emb.pos.caption.sinusoidal": (
        "T = {length}, d = {dim}, base = {base}. Right: each position's vector dotted with every "
        "other's, divided by d/2; it depends only on the distance and fades with it. The dashed "
        "line marks the trained length: the formula simply continues past it."
    ),
    "emb.pos.caption.learned": (
        "First {length} rows of MiniLM's 512 learned positions. Right: every row dotted with every "
        "other after scaling each to length 1 (position 0 is much longer than the rest); nearby "
        "positions learned similar vectors, although nothing forced them to."
    ),
    "emb.pos.caption.relative": (
        "Left: the distance j − i each query/key pair looks up, clamped to ±{clip}; each of the "
        "2·{clip}+1 values has its own learned vector (d = {dim}). Right: the resulting bias for "
        "one fixed query, constant along every diagonal and flat beyond ±{clip}."
    ),
    "emb.pos.caption.rotary": (
        "T = {length}, d = {dim}, base = {base}. Right: the all-ones vector u rotated at position "
        "m, "
        "dotted with itself rotated at n, divided by d. It is the same matrix as the sinusoid's: "
        "RoPE turns the sinusoid's clocks into rotations of q and k."
    ),
    "emb.pos.origin.formula": "Exact values of the formula (no trained weights).",
    "emb.pos.origin.pretrained": "Real weights of the pretrained all-MiniLM-L6-v2.",
    "emb.pos.origin.fresh": (
        "Illustrative: a fresh, untrained relative table and query drawn from N(0, 1) with seed 0."
    ),
    "emb.pos.rope.head": "RoPE up close",
    "emb.pos.rope": "Show one pair's rotation, the frequency spectrum and the decay with distance",
    "emb.pos.pair": "Pair i",
    "emb.pos.rot.title": "Pair {pair} of (1, 0) turns by θ = {theta:.4f} rad per position",
    "emb.pos.spec.title": "Frequency spectrum: one wavelength per pair",
    "emb.pos.trained_line": "trained length {n}",
    "emb.pos.rot.caption": (
        "Left: RoPE applied (by our code) to a vector whose pair {pair} is (1, 0), at positions "
        "0, 1, 2, …; in the half-split convention pair i is dimensions i and i + d/2 (d = {dim}). "
        "Right: 2π/θᵢ, how many positions each pair needs for a full turn. Pairs above the dashed "
        "line never completed a turn within the trained length."
    ),
    "emb.pos.decay.title": "q·k against distance: RoPE's long-range decay",
    "emb.pos.decay.score": "q·k for q = k = all ones",
    "emb.pos.decay.bound": "RoFormer's decay term (1/(d/2))·Σⱼ|Sⱼ|, relative",
    "emb.pos.decay.caption": (
        "Exact values for d = {dim}, base = {base}: the same vector at two positions m − n apart "
        "scores less and less as the distance grows (with ripples). The RoFormer paper (section "
        "3.4.3) bounds |q·k| by a constant times the term in orange, S_j = Σ_(k<j) e^(i(m−n)θ_k), "
        "which decays with distance; both curves are divided by their value at offset 0."
    ),
    "emb.pos.beyond.head": "Beyond the trained length ({n} positions)",
    "emb.pos.beyond.sin": "Sinusoidal",
    "emb.pos.beyond.sin_value": "continues",
    "emb.pos.beyond.rope": "RoPE pairs never turned once",
    "emb.pos.beyond.learned": "Learned table",
    "emb.pos.beyond.learned_ok": "covers T",
    "emb.pos.beyond.learned_value": "no row past {n}",
    "emb.pos.beyond.text": (
        "A learned table has exactly {n} rows: position {n} has no vector at all, so a model like "
        "BERT refuses longer inputs. The sinusoid and RoPE are formulas and give a value at every "
        "position, but {unseen} of {pairs} RoPE pairs reach angles past the trained length that "
        "the model never saw, which is why long-context models rescale the positions or raise "
        "the base. Relative positions clipped to ±{clip} never see a new distance: every distance "
        "beyond {clip} reuses the edge vector."
    ),
    "emb.pos.compare.head": "Comparison",
    "emb.pos.compare.scheme": "Scheme",
    "emb.pos.compare.col.how": "How",
    "emb.pos.compare.col.strengths": "Strengths",
    "emb.pos.compare.col.weaknesses": "Weaknesses",
    "emb.pos.compare.col.used": "Where used",
    "emb.pos.compare.sinusoidal": "APE, sinusoidal",
    "emb.pos.compare.sinusoidal.how": "fixed sin/cos vector added to each token",
    "emb.pos.compare.sinusoidal.strengths": "no parameters; defined for any position",
    "emb.pos.compare.sinusoidal.weaknesses": (
        "absolute; mixes with token content; weak extrapolation in practice"
    ),
    "emb.pos.compare.sinusoidal.used": "original Transformer (2017)",
    "emb.pos.compare.learned": "APE, learned",
    "emb.pos.compare.learned.how": "one trained vector per position, added to each token",
    "emb.pos.compare.learned.strengths": "simple; learns what the data needs",
    "emb.pos.compare.learned.weaknesses": "hard maximum length; rare positions are poorly trained",
    "emb.pos.compare.learned.used": "BERT, RoBERTa, GPT-2, MiniLM",
    "emb.pos.compare.relative": "RPE, Shaw-style",
    "emb.pos.compare.relative.how": "learned vector per clipped distance j − i, added in attention",
    "emb.pos.compare.relative.strengths": "only distance matters; any length works",
    "emb.pos.compare.relative.weaknesses": (
        "distances beyond ±k are indistinguishable; extra work in every attention layer"
    ),
    "emb.pos.compare.relative.used": "Shaw et al. 2018, Music Transformer; T5 uses bucketed biases",
    "emb.pos.compare.rotary": "RoPE",
    "emb.pos.compare.rotary.how": "rotates q and k pairs by position × θᵢ in attention",
    "emb.pos.compare.rotary.strengths": (
        "relative by construction; no parameters; works with fast attention kernels"
    ),
    "emb.pos.compare.rotary.weaknesses": (
        "unseen angles past the trained length; needs scaling tricks for long context"
    ),
    "emb.pos.compare.rotary.used": "RoFormer, GPT-J, GPT-NeoX, LLaMA, Qwen",
    "emb.pos.model.head": "A real model's own positions",
    "emb.pos.model.intro": (
        "Pick a model on this machine (the one every page shows) to see how it was given word "
        "order: its own learned table, or its rotary bases and attention window."
    ),
    "emb.pos.model.other": "{label} uses {kind} positions.",
    "emb.pos.model.table": "{label}: its learned position table",
    "emb.pos.model.learned": (
        "The first {n} of the table's {rows} rows, as {label} stores them: row m is added to "
        "the token at position m (up to {tokens} tokens). Right: the cosine of every two rows."
    ),
    "emb.pos.model.offset": (
        "The first {n} rows that real tokens read, as {label} stores them: the first token reads "
        "row {first} (the padding id + 1), so rows 0 .. {last} of the {rows} are never used and "
        "it takes {tokens} tokens, not {rows}. Right: the cosine of every two of these rows."
    ),
    "emb.pos.model.global": "global",
    "emb.pos.model.local": "local",
    "emb.pos.model.layers": (
        "{label} has no position table: each head turns its {dim}-wide queries and keys by "
        "their positions (RoPE). Its layers: {layers}."
    ),
    "emb.pos.model.decay": "q·k against the offset, base {base}",
    "emb.pos.model.window": "Which keys a local layer sees (±{w})",
    "emb.pos.model.sees": "seen (1) or not (0)",
    "emb.pos.model.rotary": (
        "Each chart: the position-only score of two all-ones vectors {dim} wide, rotated with "
        "that base, against their offset (0 .. {n}). A larger base turns slower, so the score "
        "stays high over longer offsets: what global layers need for long texts."
    ),
}

ZH = {
    "emb.pos.dl.table": "编码表（CSV）",
    "emb.pos.dl.similarity": "相似度矩阵（CSV）",
    "emb.pos.dl.rotation": "这一对维度的旋转（CSV）",
    "emb.pos.dl.spectrum": "角速度和波长（CSV）",
    "emb.pos.dl.decay": "按距离的得分（CSV）",
    "emb.pos.axis.angle": "角度（弧度）",
    "emb.pos.title": "位置编码：顺序如何变成几何",
    "emb.pos.intro": (
        "注意力把输入当作一个集合：打乱词元的顺序，每个词元看到的邻居不变。位置编码 (positional "
        "encoding) 把词序重新放回来。这里用同一组滑块展示四类方法：两种加在词元向量上的绝对编码"
        "（正弦、可学习），以及两种在注意力内部起作用的编码（相对、旋转）。"
    ),
    "emb.pos.length": "序列长度 T（位置数）",
    "emb.pos.dim": "宽度 d（维数）",
    "emb.pos.base": "频率基数",
    "emb.pos.clip": "相对位置截断窗口 k（±位置）",
    "emb.pos.trained": "训练长度（训练中见过的位置数）",
    "emb.pos.scheme": "方案",
    "emb.pos.scheme.sinusoidal": "正弦",
    "emb.pos.scheme.learned": "可学习",
    "emb.pos.scheme.relative": "相对",
    "emb.pos.scheme.rotary": "旋转 (RoPE)",
    "emb.pos.about.sinusoidal": (
        "PE(pos, 2i) = sin(pos / base^(2i/d))，PE(pos, 2i+1) = cos(pos / base^(2i/d))：每两列是一个"
        "以自己速度转动的时钟，左边快、右边慢。没有任何需要学习的权重。"
    ),
    "emb.pos.about.learned": (
        "BERT 为每个位置学习一个向量，就像第二张按位置索引的嵌入表。"
        "这里显示的是预训练 MiniLM 的真实表格（512 行 × 384 维）。"
    ),
    "emb.pos.about.relative": (
        "Shaw 式相对位置：词元 i 对词元 j 的注意力加上 q_i · r[j − i]，每个距离一个可学习向量，"
        "距离截断到 ±{clip}。只有距离起作用；超过 ±{clip} 的距离看起来都一样。"
    ),
    "emb.pos.about.rotary": (
        "RoPE 把查询或键的每个二维分量对在位置 m 旋转角度 m·θᵢ，θᵢ = base^(−2i/d)。"
        "于是点积 q_m · k_n 只取决于 m − n。"
    ),
    "emb.pos.axis.dim": "维度（序号）",
    "emb.pos.axis.pos": "位置（序号）",
    "emb.pos.axis.pair": "分量对 i（序号）",
    "emb.pos.axis.value": "数值（无单位）",
    "emb.pos.axis.key": "键的位置 j",
    "emb.pos.axis.query": "查询的位置 i",
    "emb.pos.axis.distance": "截断后的距离 j − i（位置）",
    "emb.pos.axis.cosine": "余弦（1 = 方向相同）",
    "emb.pos.axis.bias": "偏置 q·r（无单位）",
    "emb.pos.axis.x": "维度 {a}",
    "emb.pos.axis.y": "维度 {b}",
    "emb.pos.axis.wavelength": "波长（转一整圈所需的位置数，对数刻度）",
    "emb.pos.axis.offset": "偏移 m − n（位置）",
    "emb.pos.axis.score": "q·k（偏移为 0 时为 1）",
    "emb.pos.sin.title": "正弦表 PE（位置 × 维度）",
    "emb.pos.learned.title": "MiniLM 的可学习位置表",
    "emb.pos.rel.title": "每个 (i, j) 使用的距离，截断到 ±{clip}（前 {shown} 个位置）",
    "emb.pos.rope.title": "RoPE 角度：每个位置和分量对的 cos(m·θᵢ)",
    "emb.pos.sim.title.sinusoidal": "PE·PEᵀ / (d/2)：位置之间的相似度",
    "emb.pos.sim.title.learned": "可学习表的 PE·PEᵀ，各行先缩放到长度 1（余弦）",
    "emb.pos.sim.title.relative": "得分中的位置部分：q·r[j − i]",
    "emb.pos.sim.title.rotary": "R_m u · R_n u / d：只含位置的 q·k",
    "emb.pos.caption.sinusoidal": (
        "T = {length}，d = {dim}，base = {base}。右图：每个位置的向量与其他每个位置的向量做点积，"
        "再除以 d/2；它只取决于距离，并随距离减弱。虚线标出训练长度：公式在它之后照样继续。"
    ),
    "emb.pos.caption.learned": (
        "MiniLM 的 512 个可学习位置中的前 {length} 行。右图：先把每一行缩放到长度 1（位置 0 比其他"
        "行长得多），"
        "再与其他每一行做点积；相邻位置学到了相似的向量，尽管没有任何东西强迫它们这样。"
    ),
    "emb.pos.caption.relative": (
        "左图：每对查询/键所查的距离 j − i，截断到 ±{clip}；这 2·{clip}+1 个值各有一个可学习向量"
        "（d = {dim}）。右图：对一个固定查询得到的偏置，沿每条对角线不变，超过 ±{clip} 后保持平坦。"
    ),
    "emb.pos.caption.rotary": (
        "T = {length}，d = {dim}，base = {base}。右图：全 1 向量 u 在位置 m 旋转后，与它在位置 n "
        "旋转后的点积，再除以 d。它与正弦编码的矩阵完全相同：RoPE 把正弦的时钟变成了 q 和 k 的旋转"
        "。"
    ),
    "emb.pos.origin.formula": "公式的精确值（没有训练过的权重）。",
    "emb.pos.origin.pretrained": "预训练 all-MiniLM-L6-v2 的真实权重。",
    "emb.pos.origin.fresh": "示意：新建、未训练的相对位置表和查询，由种子 0 从 N(0, 1) 抽取。",
    "emb.pos.rope.head": "近看 RoPE",
    "emb.pos.rope": "显示一个分量对的旋转、频谱和随距离的衰减",
    "emb.pos.pair": "分量对 i",
    "emb.pos.rot.title": "(1, 0) 的第 {pair} 对每个位置旋转 θ = {theta:.4f} 弧度",
    "emb.pos.spec.title": "频谱：每个分量对一个波长",
    "emb.pos.trained_line": "训练长度 {n}",
    "emb.pos.rot.caption": (
        "左图：用我们的代码对第 {pair} 对为 (1, 0) 的向量在位置 0, 1, 2, … 应用 RoPE；在对半切分的"
        "约定中，"
        "第 i 对是维度 i 和 i + d/2（d = {dim}）。右图：2π/θᵢ，即每个分量对转一整圈需要多少个位置。"
        "虚线以上的分量对在训练长度内一圈都没转完。"
    ),
    "emb.pos.decay.title": "q·k 随距离变化：RoPE 的远程衰减",
    "emb.pos.decay.score": "q = k = 全 1 时的 q·k",
    "emb.pos.decay.bound": "RoFormer 的衰减项 (1/(d/2))·Σⱼ|Sⱼ|（相对值）",
    "emb.pos.decay.caption": (
        "d = {dim}、base = {base} 时的精确值：同一个向量放在相距 m − n 的两个位置上，距离越大，"
        "得分越低（带有波动）。RoFormer 论文（第 3.4.3 节）用一个常数乘以橙色的这一项来界定 |q·k|，"
        "其中 S_j = Σ_(k<j) e^(i(m−n)θ_k)，它随距离衰减；两条曲线都除以了偏移为 0 时的值。"
    ),
    "emb.pos.beyond.head": "超出训练长度（{n} 个位置）之后",
    "emb.pos.beyond.sin": "正弦",
    "emb.pos.beyond.sin_value": "照样继续",
    "emb.pos.beyond.rope": "一圈都没转完的 RoPE 分量对",
    "emb.pos.beyond.learned": "可学习表",
    "emb.pos.beyond.learned_ok": "覆盖 T",
    "emb.pos.beyond.learned_value": "{n} 之后没有行",
    "emb.pos.beyond.text": (
        "可学习表恰好有 {n} 行：位置 {n} 根本没有向量，所以像 BERT 这样的模型会拒绝更长的输入。"
        "正弦编码和 RoPE 是公式，在每个位置都有值，但 {pairs} 个 RoPE 分量对中有 {unseen} 个在超出"
        "训练长度后"
        "会到达模型从未见过的角度，这就是长上下文模型要对位置重新缩放或调大基数的原因。"
        "截断到 ±{clip} 的相对位置永远不会遇到新的距离：超过 {clip} 的距离都复用边缘的向量。"
    ),
    "emb.pos.compare.head": "比较",
    "emb.pos.compare.scheme": "方案",
    "emb.pos.compare.col.how": "做法",
    "emb.pos.compare.col.strengths": "优点",
    "emb.pos.compare.col.weaknesses": "缺点",
    "emb.pos.compare.col.used": "用在哪里",
    "emb.pos.compare.sinusoidal": "绝对位置编码 (APE)，正弦",
    "emb.pos.compare.sinusoidal.how": "把固定的 sin/cos 向量加到每个词元上",
    "emb.pos.compare.sinusoidal.strengths": "没有参数；任何位置都有定义",
    "emb.pos.compare.sinusoidal.weaknesses": "绝对位置；与词元内容混在一起；实际外推能力弱",
    "emb.pos.compare.sinusoidal.used": "原始 Transformer（2017）",
    "emb.pos.compare.learned": "绝对位置编码 (APE)，可学习",
    "emb.pos.compare.learned.how": "每个位置一个训练出来的向量，加到每个词元上",
    "emb.pos.compare.learned.strengths": "简单；学到数据所需要的",
    "emb.pos.compare.learned.weaknesses": "有硬性的最大长度；少见的位置训练不足",
    "emb.pos.compare.learned.used": "BERT、RoBERTa、GPT-2、MiniLM",
    "emb.pos.compare.relative": "相对位置编码 (RPE)，Shaw 式",
    "emb.pos.compare.relative.how": "每个截断距离 j − i 一个可学习向量，在注意力中相加",
    "emb.pos.compare.relative.strengths": "只有距离起作用；任意长度都可用",
    "emb.pos.compare.relative.weaknesses": "超过 ±k 的距离无法区分；每个注意力层都有额外计算",
    "emb.pos.compare.relative.used": "Shaw 等 2018、Music Transformer；T5 使用分桶偏置",
    "emb.pos.compare.rotary": "旋转位置编码 (RoPE)",
    "emb.pos.compare.rotary.how": "在注意力中把 q 和 k 的分量对按 位置 × θᵢ 旋转",
    "emb.pos.compare.rotary.strengths": "天然是相对的；没有参数；可配合快速注意力内核",
    "emb.pos.compare.rotary.weaknesses": "超出训练长度后出现没见过的角度；长上下文需要缩放技巧",
    "emb.pos.compare.rotary.used": "RoFormer、GPT-J、GPT-NeoX、LLaMA、Qwen",
}

# word order: the same tokens in two orders (analysis.positions.word_order)
EN |= {
    "emb.pos.default_order_a": "dog bites man",
    "emb.pos.default_order_b": "man bites dog",
    "emb.pos.order.head": "Word order: the same tokens, two inputs",
    "emb.pos.order.intro": (
        "Swap the words of a sentence and its token embeddings stay the same bag of rows of E: "
        "nothing in them says who bit whom. Only the position vector added to each token tells "
        "the model the order. Below, both sentences go through the same lookup, first without "
        "positions, then with them."
    ),
    "emb.pos.order.a": "Sentence A",
    "emb.pos.order.b": "Sentence B: the same words in another order",
    "emb.pos.order.bag": "Token embeddings: |Σ E(A) − Σ E(B)|",
    "emb.pos.order.inputs": "With positions: largest |x_A − x_B| at one position",
    "emb.pos.order.same": (
        "Same tokens, so the same bag of token embeddings (difference {gap:.1e}); once positions "
        "are added, the inputs differ at every position where the token changed."
    ),
    "emb.pos.order.not_same": (
        "These two sentences do not hold the same tokens: the bags differ too. Use the same "
        "words in another order to see what positions alone change."
    ),
    "emb.pos.order.empty": "Type a sentence in both boxes.",
    "emb.pos.order.too_long": "Too long for this model's positions: at most {limit} tokens.",
    "emb.pos.order.col.token": "Token",
    "emb.pos.order.col.id": "Id",
    "emb.pos.order.col.a": "Position in A",
    "emb.pos.order.col.b": "Position in B",
    "emb.pos.order.col.gap": "|x_A − x_B| = |P(a) − P(b)|",
    "emb.pos.order.caption": (
        "Token and position embeddings of {model}; positions counted as in BERT's input ([CLS] "
        "at 0). A token that kept its place has the same input in both sentences (0); one that "
        "moved differs by exactly the distance between its two position vectors."
    ),
}
ZH |= {
    "emb.pos.default_order_a": "狗咬人",
    "emb.pos.default_order_b": "人咬狗",
    "emb.pos.order.head": "词序：同样的词元，两个不同的输入",
    "emb.pos.order.intro": (
        "把句子里的词换个顺序，词元嵌入还是 E 的同一袋行向量：其中没有任何信息说明谁咬了谁。"
        "只有加到每个词元上的位置向量告诉模型顺序。下面两个句子经过同样的查表，先不加位置，再加上位置。"
    ),
    "emb.pos.order.a": "句子 A",
    "emb.pos.order.b": "句子 B：同样的词，换一种顺序",
    "emb.pos.order.bag": "词元嵌入：|Σ E(A) − Σ E(B)|",
    "emb.pos.order.inputs": "加上位置后：某一位置上最大的 |x_A − x_B|",
    "emb.pos.order.same": (
        "词元相同，所以词元嵌入是同一袋（差 {gap:.1e}）；加上位置以后，凡是词元换了位置的地方，输入都不同。"
    ),
    "emb.pos.order.not_same": (
        "这两个句子的词元并不相同，所以两袋词元嵌入也不同。请用同样的词换一种顺序，看看仅仅位置会改变什么。"
    ),
    "emb.pos.order.empty": "请在两个框里都输入句子。",
    "emb.pos.order.too_long": "超出了这个模型的位置数：最多 {limit} 个词元。",
    "emb.pos.order.col.token": "词元",
    "emb.pos.order.col.id": "编号",
    "emb.pos.order.col.a": "在 A 中的位置",
    "emb.pos.order.col.b": "在 B 中的位置",
    "emb.pos.order.col.gap": "|x_A − x_B| = |P(a) − P(b)|",
    "emb.pos.order.caption": (
        "词元嵌入和位置嵌入来自 {model}；位置按 BERT 的输入计数（[CLS] 在 0）。"
        "位置没变的词元在两个句子里的输入完全相同（0）；换了位置的词元，差正好是它两个位置向量之间的距离。"
    ),
    "emb.pos.model.head": "一个真实模型自己的位置编码",
    "emb.pos.model.intro": (
        "选择本机上的一个模型（每个页面都显示它），看看它是怎样获得词序的：它自己学习得到的位置表，"
        "或它的旋转位置编码底数和注意力窗口。"
    ),
    "emb.pos.model.other": "{label} 使用 {kind} 位置编码。",
    "emb.pos.model.table": "{label}：它学习得到的位置表",
    "emb.pos.model.learned": (
        "位置表 {rows} 行中的前 {n} 行，按 {label} 存储的原样：第 m 行加到位置 m 的词元上（最多 {tokens} "
        "个词元）。右图：每两行之间的余弦。"
    ),
    "emb.pos.model.offset": (
        "真实词元读取的前 {n} 行，按 {label} 存储的原样：第一个词元读取第 {first} 行（填充编号 + 1），"
        "所以 {rows} 行中的第 0 .. {last} 行从不使用，它最多接受 {tokens} 个词元而不是 {rows} 个。"
        "右图：这些行两两之间的余弦。"
    ),
    "emb.pos.model.global": "全局",
    "emb.pos.model.local": "局部",
    "emb.pos.model.layers": (
        "{label} 没有位置表：每个头按位置旋转它 {dim} 维的查询和键（RoPE）。它的各层：{layers}。"
    ),
    "emb.pos.model.decay": "q·k 随偏移的变化，底数 {base}",
    "emb.pos.model.window": "局部层能看到哪些键（±{w}）",
    "emb.pos.model.sees": "看得到 (1) 或看不到 (0)",
    "emb.pos.model.rotary": (
        "每张图：两个 {dim} 维全 1 向量按该底数旋转后，只由位置决定的得分随偏移（0 .. {n}）的变化。"
        "底数越大转得越慢，得分在更长的偏移上保持较高：这正是全局层处理长文本所需要的。"
    ),
}
