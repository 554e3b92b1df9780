"""Texts of the guided lesson when it runs MiniLM + 中文 (taught here), and of its build notice.

A key `<key>.taught` replaces `<key>` while the lesson runs the taught model (`frame.variant`);
`{vocab}` is its vocabulary size and `{added}` how many Chinese entries it added to MiniLM's.
"""

EN = {
    "lesson.source.taught": (
        "Computed now by this app's code with MiniLM + 中文, taught here: the real pretrained "
        "all-MiniLM-L6-v2 (6 layers, 12 heads, 384 dimensions) with {added:,} Chinese characters "
        "added to its vocabulary ({vocab:,} tokens) and taught Chinese by distillation on this "
        'server (Train page, "Teach MiniLM Chinese").'
    ),
    "lesson.tokens.caption.taught": (
        "MiniLM + 中文's WordPiece tokenizer (bert-base-uncased vocabulary and {added:,} Chinese "
        "characters): {n} tokens, [CLS] and [SEP] included."
    ),
    "lesson.ids.caption.taught": (
        "Ids from MiniLM + 中文's vocabulary ({vocab:,} entries: MiniLM's 30,522, then the Chinese "
        "characters). This row of {n} ids is the model's input."
    ),
    "lesson.onehot.body.taught": (
        "An id can be written as a **one-hot** row: {vocab:,} numbers, all 0 except a single 1 "
        "at place id. Multiplying this row by the embedding (嵌入) matrix **E** ({vocab:,} × 384) "
        "adds up 0 × every row except 1 × row id, so one-hot × E **is** row id of E. That is why "
        "an embedding layer is just a table lookup."
    ),
    "lesson.tokens.body.taught": (
        "A tokenizer cuts the text into **tokens** (词元), pieces from a fixed vocabulary. MiniLM"
        " + 中文's WordPiece lower-cases the text, splits it at spaces and punctuation (each "
        "Chinese character counts as a word of its own), then cuts each word into the longest "
        "pieces its vocabulary holds; a piece that continues a word starts with **##**. It adds"
        " **[CLS]** at the start and **[SEP]** at the end. A word that cannot be built from the"
        " vocabulary's pieces becomes **[UNK]** (unknown). MiniLM + 中文 added {added:,} Chinese "
        "characters to MiniLM's vocabulary, so ordinary Chinese text no longer becomes [UNK]."
    ),
    "lesson.zh.none": (
        "This lesson runs the English-only MiniLM, so most Chinese characters show as [UNK]. "
        "Build **MiniLM + 中文** once (about 10 minutes) and it reads Chinese."
    ),
    "lesson.zh.build": "Build MiniLM + 中文",
    "lesson.zh.building": "Building MiniLM + 中文 for this lesson: {text}",
}

ZH = {
    "lesson.source.taught": (
        "由本应用的代码用 MiniLM + 中文（本机教会）实时计算：真实的预训练模型 all-MiniLM-L6-v2"
        "（6 层、12 个注意力头、384 维），词表加入了 {added:,} 个汉字（共 {vocab:,} 个词元），"
        "并在这台服务器上用蒸馏教会了中文（“训练模型”页面的“教 MiniLM 学中文”）。"
    ),
    "lesson.tokens.caption.taught": (
        "MiniLM + 中文 的 WordPiece 分词器（bert-base-uncased 词表加 {added:,} 个汉字）："
        "共 {n} 个词元，含 [CLS] 和 [SEP]。"
    ),
    "lesson.ids.caption.taught": (
        "编号来自 MiniLM + 中文 的词表（{vocab:,} 项：先是 MiniLM 的 30,522 项，再是汉字）。"
        "这一行 {n} 个编号就是模型的输入。"
    ),
    "lesson.onehot.body.taught": (
        "一个编号可以写成**独热**（one-hot）行：{vocab:,} 个数，除了第 id 位是 1，其余全是 0。"
        "把这一行乘以嵌入（embedding）矩阵 **E**（{vocab:,} × 384），就是把每一行乘 0 再相加，"
        "只有第 id 行乘 1，所以 one-hot × E **就是** E 的第 id 行。这就是为什么嵌入层只是查表。"
    ),
    "lesson.tokens.body.taught": (
        "分词器把文本切成**词元**（token），即固定词表中的片段。MiniLM + 中文 "
        "的 WordPiece 先把文本转成小写，在空格和标点处切开（每个汉字单独算一个词），再"
        "把每个词切成词表中尽可能长的片段；接续前一片的片段以 **##** 开头。它在开头加上 "
        "**[CLS]**，在结尾加上 "
        "**[SEP]**。无法用词表中的片段拼出的词（例如词表里没有的汉字）变成 "
        "**[UNK]**（未知）。MiniLM + 中文 在 MiniLM 的词表里加入了 "
        "{added:,} 个汉字，所以普通的中文文本不再变成 [UNK]。"
    ),
    "lesson.zh.none": (
        "本课程运行的是只懂英文的 MiniLM，所以大部分汉字显示为 [UNK]。构建一次 **MiniLM + 中文**"
        "（约 10 分钟），它就能读懂中文。"
    ),
    "lesson.zh.build": "构建 MiniLM + 中文",
    "lesson.zh.building": "正在为本课程构建 MiniLM + 中文：{text}",
}
