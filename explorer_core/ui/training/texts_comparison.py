"""Texts of the Train page's start choice and model comparison (ui/training/comparison.py)."""

EN = {
    "cmp.start": "Start from",
    "cmp.start.fresh": "A fresh model (random weights)",
    "cmp.start.session": "The model of this session",
    "cmp.start.minilm": "Pretrained MiniLM (all-MiniLM-L6-v2)",
    "cmp.start.taught": "MiniLM + 中文, taught here",
    "cmp.start.help": (
        "Fresh: the preset above, learning from nothing. This session's model: keep training the "
        "model you trained or uploaded. MiniLM: fine-tune a real pretrained model with its own "
        "WordPiece vocabulary and mean pooling (learning rate 2e-5, no pre-training); the "
        "tokenizer and model sections above are then not used. MiniLM + 中文 (offered once it "
        "has been built on this install with “Teach MiniLM Chinese”): the same, from the MiniLM "
        "that learned Chinese here, with its vocabulary extended by Chinese characters. A model "
        "you opened (offered by its name once a page opened one): the same, with its own "
        "tokenizer, architecture and pooling."
    ),
    "cmp.start.minilm_note": (
        "MiniLM has 22.7 M parameters: on a laptop CPU one step takes about a second, so a run "
        "of a minute or two sees each training pair a few times."
    ),
    "cmp.start.taught_note": (
        "MiniLM + 中文 keeps MiniLM's English and reads Chinese characters as its own pieces (no "
        "[UNK]); fine-tuning on scored pairs teaches it what these data call similar. About a "
        "second per step on a laptop CPU, like MiniLM."
    ),
    "cmp.start.taught_missing": (
        "The link (or lesson pack) asked to start from MiniLM + 中文, which has not been built "
        "on this install yet: starting from a fresh model instead. Build it once with “Teach MiniLM Chinese” "
        "(above, the second kind of training), or wait for the background build."
    ),
    "cmp.start.opened_note": (
        "The model you opened fine-tunes with its own tokenizer, its family's architecture and "
        "its authors' pooling (learning rate 2e-5, no pre-training); the tokenizer and model "
        "sections above are then not used. Its size sets the time per step."
    ),
    "cmp.start.bad": "Cannot start from this model: {reason}",
    "cmp.device": "Train on",
    "cmp.device.cuda": "GPU (CUDA)",
    "cmp.device.cpu": "CPU",
    "cmp.head": "How does it compare?",
    "cmp.intro": (
        "The same test pairs scored by every model you have: the Spearman correlation between "
        "its cosine and the gold score, per language. 1 means the same order as people's scores."
    ),
    "cmp.button": "Compare on the test pairs",
    "cmp.wait": "Train or upload a model first; the comparison then scores it on the test pairs.",
    "cmp.none": "This data has fewer than three test pairs: nothing to compare on.",
    "cmp.running": "Scoring every model on the test pairs…",
    "cmp.model.lexical": "Lexical baseline (TF-IDF)",
    "cmp.model.fresh": "Before training",
    "cmp.model.trained": "Trained from scratch",
    "cmp.model.minilm": "MiniLM as is",
    "cmp.model.minilm_ft": "MiniLM fine-tuned",
    "cmp.model.taught": "MiniLM + 中文 as is",
    "cmp.model.taught_ft": "MiniLM + 中文 fine-tuned",
    "cmp.model.opened_ft": "The opened model, fine-tuned",
    "cmp.model.session": "Continued training",
    "cmp.lang.en": "English",
    "cmp.lang.zh": "Chinese",
    "cmp.lang.all": "All pairs",
    "cmp.col.model": "model",
    "cmp.chart.title": "Test Spearman by model and language",
    "cmp.chart.x": "model",
    "cmp.chart.y": "Spearman correlation",
    "cmp.caption": (
        "{pairs} test pairs of the data chosen above; real models, computed now. The lexical "
        "baseline is TF-IDF over character 1-2 grams fitted on the training pairs; the [UNK] "
        "columns give the share of each tokenizer's tokens that are unknown."
    ),
    "cmp.why": (
        "**Why MiniLM fails on Chinese:** its vocabulary is bert-base-uncased's English WordPiece "
        "(30,522 pieces). Many Chinese characters are not in it and become [UNK] (here "
        "{unk_zh} of its tokens on the Chinese pairs), and the few it has were rarely seen in "
        "its English training, so two different Chinese sentences look alike to it. The model "
        "trained from scratch uses a character-level tokenizer built from the training pairs: "
        "every character it has seen has its own vector, in both languages, so it can learn "
        "from Chinese pairs what MiniLM never could."
    ),
}

ZH = {
    "cmp.start": "起点",
    "cmp.start.fresh": "全新模型（随机权重）",
    "cmp.start.session": "本次会话的模型",
    "cmp.start.minilm": "预训练的 MiniLM（all-MiniLM-L6-v2）",
    "cmp.start.taught": "MiniLM + 中文（本机教会）",
    "cmp.start.help": (
        "全新：上面的预设，从零开始学。本次会话的模型：继续训练你已训练或上传的模型。MiniLM：微调一个真实的"
        "预训练模型，沿用它自己的 WordPiece 词表和平均池化（学习率 2e-5，不做预训练）；此时上面的分词器"
        "和模型设置不起作用。MiniLM + 中文（用“教 MiniLM 学中文”在本机构建后才会出现）：同样的做法，"
        "起点换成在本机学会中文的 MiniLM，它的词表扩充了汉字。你打开的模型（某个页面打开模型后，以它的名字出现）："
        "同样的做法，沿用它自己的分词器、结构和池化方式。"
    ),
    "cmp.start.minilm_note": (
        "MiniLM 有 2270 万个参数：在笔记本 CPU 上一步约需一秒，所以一两分钟的训练只会把每个训练句对看几遍。"
    ),
    "cmp.start.taught_note": (
        "MiniLM + 中文 保留了 MiniLM 的英文能力，并把汉字当作自己的词元来读（不再是 [UNK]）；"
        "在评分句对上微调，能让它学会这份数据所说的“相似”。在笔记本 CPU 上一步约需一秒，和 MiniLM 一样。"
    ),
    "cmp.start.taught_missing": (
        "链接（或课程包）要求从 MiniLM + 中文 开始，但本机还没有构建它：改为从全新模型开始。请用“教 MiniLM 学中文”"
        "（上方的第二种训练）构建一次，或等待后台构建完成。"
    ),
    "cmp.start.opened_note": (
        "你打开的模型用它自己的分词器、所属模型族的结构和作者的池化方式来微调（学习率 2e-5，不做预训练）；"
        "此时上面的分词器和模型设置不起作用。每一步的时间取决于模型的大小。"
    ),
    "cmp.start.bad": "无法从这个模型开始：{reason}",
    "cmp.device": "训练设备",
    "cmp.device.cuda": "GPU（CUDA）",
    "cmp.device.cpu": "CPU",
    "cmp.head": "比一比",
    "cmp.intro": (
        "用同一批测试句对给你拥有的每个模型打分：按语言计算其余弦相似度与人工评分之间的 Spearman "
        "相关系数。1 表示排序与人的评分完全一致。"
    ),
    "cmp.button": "在测试句对上比较",
    "cmp.wait": "请先训练或上传一个模型；之后比较会在测试句对上给它打分。",
    "cmp.none": "这份数据的测试句对少于三个，无法比较。",
    "cmp.running": "正在用测试句对给每个模型打分……",
    "cmp.model.lexical": "词面基线（TF-IDF）",
    "cmp.model.fresh": "训练前",
    "cmp.model.trained": "从零训练",
    "cmp.model.minilm": "原样的 MiniLM",
    "cmp.model.minilm_ft": "微调后的 MiniLM",
    "cmp.model.taught": "原样的 MiniLM + 中文",
    "cmp.model.taught_ft": "微调后的 MiniLM + 中文",
    "cmp.model.opened_ft": "微调后的已打开模型",
    "cmp.model.session": "继续训练",
    "cmp.lang.en": "英文",
    "cmp.lang.zh": "中文",
    "cmp.lang.all": "全部句对",
    "cmp.col.model": "模型",
    "cmp.chart.title": "各模型、各语言的测试 Spearman",
    "cmp.chart.x": "模型",
    "cmp.chart.y": "Spearman 相关系数",
    "cmp.caption": (
        "上面所选数据中的 {pairs} 个测试句对；真实模型，当场计算。词面基线是在训练句对上拟合的字符 1-2 元组 "
        "TF-IDF；[UNK] 列是各分词器的词元中未知词元所占的比例。"
    ),
    "cmp.why": (
        "**为什么 MiniLM 在中文上不行：** 它的词表是 bert-base-uncased 的英文 WordPiece（30,522 个"
        "片段）。很多汉字不在其中，会变成 [UNK]（在这里的中文句对上占它词元的 {unk_zh}）；"
        "它认识的少数汉字在英文训练中也几乎没出现过，所以两个不同的中文句子在它看来差不多。"
        "从零训练的模型用的是在训练句对上建立的字符级分词器：见过的每个字符都有自己的向量，"
        "中英文都一样，所以它能从中文句对中学到 MiniLM 学不到的东西。"
    ),
}
