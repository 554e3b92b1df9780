"""Texts of the guided lesson when it runs a model opened from this machine, and of its choice.

A key `<key>.opened` replaces `<key>` while the lesson runs the opened model (`frame.variant`).
Their fields (`calls.opened_sizes`): {model} its label, {family}, {layers}, {heads}, {width} (the
hidden size), {vocab} (vocabulary size), {vocab_kind}, {cut} (which code cut the text, a line
in the UI's language from `ui.models.calls.cut_line`), {pooling} (its pipeline's pooling), {chosen} (who chose it) and
{normalised}.
"""

EN = {
    "lesson.model": "Model the lesson follows",
    "lesson.model.minilm": "all-MiniLM-L6-v2",
    "lesson.model.opened": "{model} (opened)",
    "lesson.vocab_kind.wordpiece": "WordPiece",
    "lesson.vocab_kind.byte-bpe": "byte-level BPE",
    "lesson.vocab_kind.unigram": "Unigram",
    "lesson.pooled.normalised": ", then divided by its length (length 1)",
    "lesson.pooled.by_files": "its sentence-transformers files say so",
    "lesson.pooled.by_default": "it has no sentence-transformers files: mean pooling, our default",
    "lesson.source.opened": (
        "Computed now by this app's own encoder with {model}, opened from this machine: a "
        "{family} model ({layers} layers, {heads} heads, {width} dimensions, {vocab_kind} "
        "vocabulary of {vocab:,} tokens). {cut}"
    ),
    "lesson.too_long.opened": (
        "The sentence has {n} tokens with the model's special tokens, but {model} reads at most "
        "{limit}. Shorten it to follow it through the model (steps 7 to 11)."
    ),
    "lesson.tokens.body.opened": (
        "A tokenizer cuts the text into **tokens** (词元), pieces from a fixed vocabulary. "
        "{model} brings its own {vocab_kind} tokenizer (its tokenizer.json): it normalises the "
        "text, splits it into words, then cuts each word into pieces its vocabulary holds. "
        "WordPiece marks a piece that continues a word with **##**; byte-level BPE marks a piece "
        "that starts after a space with **Ġ**, Unigram one that starts a word with **▁**. Then "
        "it wraps the pieces in the model's own special tokens (its template), shown grey."
    ),
    "lesson.tokens.caption.opened": (
        "{model}'s own {vocab_kind} tokenizer and template: {n} tokens, special tokens included."
    ),
    "lesson.tokens.unknown.opened": (
        "{n} of the {total} tokens are the vocabulary's unknown token: {model} cannot tell "
        "those characters apart."
    ),
    "lesson.kind.piece.opened": "continues a word",
    "lesson.kind.unknown.opened": "unknown",
    "lesson.ids.body.opened": (
        "The model works with numbers, so each token is replaced by its **id**: its row number in "
        "the model's vocabulary (counting from 0). The id says *which* token, nothing more: a "
        'bigger id is not "more". The special tokens of the template have ids of their own.'
    ),
    "lesson.ids.caption.opened": (
        "Ids from {model}'s vocabulary ({vocab:,} entries). This row of {n} ids is the model's "
        "input."
    ),
    "lesson.onehot.body.opened": (
        "An id can be written as a **one-hot** row: {vocab:,} numbers, all 0 except a single 1 "
        "at place id. Multiplying this row by the embedding (嵌入) matrix **E** (one row per "
        "vocabulary entry) adds up 0 × every row except 1 × row id, so one-hot × E **is** row id "
        "of E. That is why an embedding layer is just a table lookup."
    ),
    "lesson.onehot.caption.opened": (
        "The 1 sits at place {id}. The table shows rows {lo} to {hi} of E (their first {dims} "
        "numbers) and their one-hot entry; the product one-hot × E equals row {id} exactly "
        "(difference {gap})."
    ),
    "lesson.unknown_row.opened": (
        "'{covers}' is not in the vocabulary: it became the unknown token, and every unknown "
        "character shares this one row (id {id}), so the model sees them all as the same token."
    ),
    "lesson.vector.body.opened": (
        "Row id of **E** is the token's **embedding**: numbers learned in training so that "
        "tokens used alike get similar rows. The bars show the first numbers of the row. No single "
        'number means "animal" or "plural": meaning is spread over all of them.'
    ),
    "lesson.vector.caption.opened": (
        "The first {dims} of {hidden} numbers of row {id} of {model}'s word-embedding matrix, "
        "unchanged by the sentence: the same token always starts from the same vector. Its length "
        "|E[{id}]| is {norm:.3f}."
    ),
    "lesson.position.body.opened": (
        "Without help, the model would not know the order of the tokens. BERT adds a learned "
        "**position** vector (位置编码 positional encoding) and a **segment** vector to each token "
        "vector. Other families differ: where {family} does, a note on the left says how (rotary "
        "positions inside attention, one segment row or none). **LayerNorm** then rescales the sum "
        "to mean 0 and spread 1. The last row is exactly what enters layer 1."
    ),
    "lesson.attention.body.opened": (
        "In each of the {layers} layers, {heads} **attention heads** (注意力头) let every token "
        "look at other tokens. A row of the heatmap is one token reading: its weights over the "
        "tokens sum to 1, and the token's new vector is the weighted mix of what it reads. "
        "Different heads learn different habits: the next token, the previous one, the end "
        "token, the same word."
    ),
    "lesson.attention.caption.opened": (
        "Softmax weights of {model}'s layer {layer}, head {head} for this sentence; each row sums "
        "to 1. The most-read token of row '{query}' is '{read}' ({weight:.2f})."
    ),
    "lesson.layer.body.opened": (
        "Attention is only half of each layer. Its heads' outputs are concatenated and "
        "multiplied by W_O, and this **update** is added to the token's vector (the residual), "
        "with a **LayerNorm** (层归一化) before or after. Then the **feed-forward network** "
        "(前馈网络) widens each token, applies its activation and narrows it back, with a second "
        "residual add. Each strip on the right is one of {model}'s steps, with its real numbers."
    ),
    "lesson.pooled.body.opened": (
        "After {layers} layers every token has a new {width}-number vector that depends on the "
        "whole sentence. **Pooling** (池化) turns them into one vector for the sentence; "
        "{model} pools by **{pooling}** ({chosen}), and the lesson runs exactly that pipeline: "
        "the vector below is {model}'s own sentence embedding."
    ),
    "lesson.pooled.mean.opened": "{pooling} pooling",
    "lesson.pooled.unit.opened": "sentence vector",
    "lesson.pooled.length.opened": "|pooled| before normalising",
    "lesson.pooled.caption.opened": (
        "First {dims} of {hidden} numbers. Rows: each token's output of layer {layers}, then "
        "{model}'s {pooling} pooling over the {n} tokens (length {norm:.3f}), then its sentence "
        "vector, as its own pipeline gives it{normalised}."
    ),
    "lesson.cosine.caption.opened": (
        "{model}'s own sentence vectors ({pooling} pooling) of the three sentences; the formula "
        "uses the pooled vectors before normalising (normalising first gives the same cosine)."
    ),
    "lesson.cosine.unknown.opened": (
        "Many tokens here are the unknown token: sentences made mostly of it look alike to "
        "{model}, so their cosine says little about their meaning."
    ),
}

ZH = {
    "lesson.model": "课程跟随的模型",
    "lesson.model.minilm": "all-MiniLM-L6-v2",
    "lesson.model.opened": "{model}（已打开）",
    "lesson.vocab_kind.wordpiece": "WordPiece",
    "lesson.vocab_kind.byte-bpe": "字节级 BPE",
    "lesson.vocab_kind.unigram": "Unigram",
    "lesson.pooled.normalised": "，再除以它的长度（长度为 1）",
    "lesson.pooled.by_files": "它的 sentence-transformers 文件这样写",
    "lesson.pooled.by_default": "它没有 sentence-transformers 文件：用我们默认的平均池化",
    "lesson.source.opened": (
        "由本应用自己的编码器用从本机打开的 {model} 实时计算：一个 {family} 模型（{layers} 层、"
        "{heads} 个注意力头、{width} 维，{vocab_kind} 词表，共 {vocab:,} 个词元）。{cut}"
    ),
    "lesson.too_long.opened": (
        "这句话连同模型的特殊词元共有 {n} 个词元，但 {model} 最多只读 {limit} 个。"
        "请缩短句子，才能让它走过模型（第 7 到 11 步）。"
    ),
    "lesson.tokens.body.opened": (
        "分词器把文本切成**词元**（token），即固定词表中的片段。{model} 自带 {vocab_kind} "
        "分词器（它的 tokenizer.json）：先规范化文本，切成词，再把每个词切成词表中有的片段。"
        "WordPiece 用 **##** 标记接续一个词的片段；字节级 BPE 用 **Ġ** 标记空格之后开始的片段，"
        "Unigram 用 **▁** 标记词的开头。最后用模型自己的特殊词元（它的模板）把片段包起来，显示为灰色。"
    ),
    "lesson.tokens.caption.opened": (
        "{model} 自己的 {vocab_kind} 分词器和模板：共 {n} 个词元，含特殊词元。"
    ),
    "lesson.tokens.unknown.opened": (
        "{total} 个词元中有 {n} 个是词表的未知词元：{model} 无法区分这些字符。"
    ),
    "lesson.kind.piece.opened": "接续一个词",
    "lesson.kind.unknown.opened": "未知",
    "lesson.ids.body.opened": (
        "模型只处理数字，所以每个词元都被替换成它的**编号**（id）：它在模型词表中的行号"
        "（从 0 数起）。编号只说明“是哪个词元”，别无他意：编号大并不表示“更多”。"
        "模板中的特殊词元也有各自的编号。"
    ),
    "lesson.ids.caption.opened": (
        "编号来自 {model} 的词表（{vocab:,} 项）。这一行 {n} 个编号就是模型的输入。"
    ),
    "lesson.onehot.body.opened": (
        "一个编号可以写成**独热**（one-hot）行：{vocab:,} 个数，除了第 id 位是 1，其余全是 0。"
        "把这一行乘以嵌入（embedding）矩阵 **E**（词表每一项一行），就是把每一行乘 0 再相加，"
        "只有第 id 行乘 1，所以 独热 × E **就是** E 的第 id 行。这就是为什么嵌入层只是一次查表。"
    ),
    "lesson.onehot.caption.opened": (
        "1 位于第 {id} 位。下表是 E 的第 {lo} 到 {hi} 行（前 {dims} 个数）及其独热值；"
        "乘积 独热 × E 与第 {id} 行完全相等（差值 {gap}）。"
    ),
    "lesson.unknown_row.opened": (
        "“{covers}”不在词表里：它变成了未知词元，所有未知字符共用这一行（编号 {id}），"
        "所以模型把它们都看成同一个词元。"
    ),
    "lesson.vector.body.opened": (
        "E 的第 id 行就是这个词元的**嵌入**（embedding）：在训练中学到的一组数，"
        "用法相近的词元得到相近的行。柱状图显示这一行的前几个数。没有哪一个数单独表示"
        "“动物”或“复数”：含义分散在所有的数里。"
    ),
    "lesson.vector.caption.opened": (
        "{model} 词嵌入矩阵第 {id} 行 {hidden} 个数中的前 {dims} 个，与句子无关：同一个词元总是从"
        "同一个向量出发。它的长度 |E[{id}]| 为 {norm:.3f}。"
    ),
    "lesson.position.body.opened": (
        "如果没有帮助，模型不知道词元的先后顺序。BERT 给每个词元向量加上一个学到的**位置**向量"
        "（位置编码 positional encoding）和一个**片段**（segment）向量。其他模型家族各有不同："
        "{family} 有不同之处时，左边的说明写出它的做法（在注意力里用旋转位置编码、只有一行片段或没有片段）。"
        "然后 **LayerNorm**（层归一化）把和重新缩放为均值 0、标准差 1。最后一行正是进入第 1 层的内容。"
    ),
    "lesson.attention.body.opened": (
        "在 {layers} 层中的每一层里，{heads} 个**注意力头**（attention head）让每个词元看到其他词元。"
        "热力图的每一行是一个词元在“读”：它对各词元的权重之和为 1，它的新向量就是所读内容的"
        "加权混合。不同的头学到不同的习惯：看下一个词元、看上一个、看结尾词元、看相同的词。"
    ),
    "lesson.attention.caption.opened": (
        "{model} 第 {layer} 层第 {head} 个头对这句话的 softmax 权重；每行之和为 1。"
        "“{query}”这一行读得最多的是“{read}”（{weight:.2f}）。"
    ),
    "lesson.layer.body.opened": (
        "注意力只是每一层的一半。各个头的输出拼接起来、乘以 W_O，这个**更新量**加到词元的向量上"
        "（残差），之前或之后有一次**层归一化** (LayerNorm)。然后**前馈网络** (feed-forward) "
        "把每个词元扩宽，经过激活函数再缩回来，再做一次残差相加。右边每一条是 {model} 的一步，"
        "都是真实的数。"
    ),
    "lesson.pooled.body.opened": (
        "经过 {layers} 层之后，每个词元都有一个新的 {width} 维向量，它取决于整句话。**池化**"
        "（pooling）把它们变成整句话的一个向量；{model} 用 **{pooling}** 池化（{chosen}），"
        "本课程完全按照这个流程计算：下面的向量就是 {model} 自己的句向量。"
    ),
    "lesson.pooled.mean.opened": "{pooling} 池化",
    "lesson.pooled.unit.opened": "句向量",
    "lesson.pooled.length.opened": "归一化之前的 |池化向量|",
    "lesson.pooled.caption.opened": (
        "{hidden} 个数中的前 {dims} 个。各行依次是：每个词元在第 {layers} 层的输出，"
        "{model} 对 {n} 个词元的 {pooling} 池化（长度 {norm:.3f}），以及它自己的流程给出的句向量"
        "{normalised}。"
    ),
    "lesson.cosine.caption.opened": (
        "三句话经 {model} 自己的流程（{pooling} 池化）得到的句向量；公式使用归一化之前的池化向量"
        "（先归一化得到的余弦相同）。"
    ),
    "lesson.cosine.unknown.opened": (
        "这里很多词元是未知词元：对 {model} 来说，主要由它组成的句子彼此很像，"
        "所以它们的余弦不太能说明意思是否相近。"
    ),
}
