"""Texts of the model picker and of "How encoders differ"."""

EN = {
    "models.box": "Model: a Hub name or a folder",
    "models.box.placeholder": "Pick one, or type e.g. google-bert/bert-base-chinese",
    "models.box.help": (
        "The models already on this machine: the Hugging Face cache and the folders this server "
        "allows ({dirs}). Type a Hub name (org/name) that is in the cache, or a folder under "
        "those folders. Only safetensors weights are read, and a model's own code is never run."
    ),
    "models.none_here": (
        "No model was found on this machine yet. Pre-download one on the server, e.g. "
        "`huggingface-cli download google-bert/bert-base-chinese`, or copy a model folder into "
        "one of these folders: {dirs}."
    ),
    "models.none": "Pick a model on this machine, or type a Hub name or a folder, above.",
    "models.refused": "This model cannot be opened here: {reason}",
    "models.cut.ours": "Who cut the text: this app's own {kind} code ({steps}).",
    "models.cut.theirs": "Run by Hugging Face tokenizers, not by us: {steps}.",
    "models.cut.vocab_txt": "Who cut the text: this app's own WordPiece code, from vocab.txt.",
    "models.memory": (
        "In this server's memory, shared by every visitor: {models}; {total} of {budget} (the "
        "least recently used model leaves first)."
    ),
    "models.download": "Download {ref}",
    "models.downloading": "Downloading {ref}: {done} of {total}",
    "models.download_failed": "The download failed: {reason}",
    "differ.head": "How encoders differ: the models on this machine, switch by switch",
    "differ.col.model": "model",
    "differ.col.family": "family",
    "differ.col.vocab": "vocabulary",
    "differ.col.size": "layers × hidden",
    "differ.heads": "heads",
    "differ.col.positions": "positions",
    "differ.col.segments": "segments",
    "differ.col.embedding": "embedding E → H",
    "differ.col.norm": "norm",
    "differ.no_bias": ", no bias",
    "differ.col.ffn": "feed-forward",
    "differ.col.sharing": "layer sharing",
    "differ.shared": "1 layer × {n}",
    "differ.col.window": "window",
    "differ.window": "±{w}, global every {n}",
    "differ.col.max": "max tokens",
    "differ.col.p_emb": "params: embeddings",
    "differ.col.p_attn": "params: attention",
    "differ.col.p_ffn": "params: feed-forward",
    "differ.col.p_other": "params: other",
    "differ.col.pooling": "pooling",
    "differ.pos.learned": "learned table ({n})",
    "differ.pos.offset": "learned table ({n}), from id {offset}",
    "differ.pos.rotary": "rotary (RoPE), base {bases}",
    "differ.dl": "Download the table (CSV)",
    "differ.pool.default": "{mode} (no files: our default)",
    "differ.pool.normalised": ", normalised",
    "differ.caption": (
        "{n} models, read from their config.json and tokenizer files (no weights loaded). "
        "Parameters are those of this app's encoder built with each model's switches, counted "
        "by part; a shared layer is counted once. Pooling comes from the sentence-transformers "
        "files."
    ),
    "differ.what.positions": (
        "where word order enters: a learned table added to the token vectors (BERT; RoBERTa "
        "and XLM-R count from the padding id + 1), or rotary positions that turn queries and "
        "keys inside attention (ModernBERT)."
    ),
    "differ.what.segments": (
        "rows that say sentence A or B: BERT has 2, RoBERTa and XLM-R 1 (the same vector for "
        "every token), DistilBERT and ModernBERT none."
    ),
    "differ.what.embedding": (
        "ALBERT and ELECTRA keep the embeddings narrow (E) and project them to the hidden size "
        "H: a vocabulary of V rows then costs V·E + E·H parameters instead of V·H."
    ),
    "differ.what.norm": (
        "post-LN (BERT) normalises after each residual; pre-LN (ModernBERT) normalises each "
        "sub-block's input and adds one final norm, which trains deeper stacks more stably."
    ),
    "differ.what.ffn": (
        "the position-wise feed-forward block: GELU (BERT), tanh-GELU (ALBERT), or GeGLU "
        "(ModernBERT), where a second half of the up-projection gates the first."
    ),
    "differ.what.sharing": (
        "ALBERT applies one layer's weights at every depth: 12 layers of compute, one layer of "
        "parameters."
    ),
    "differ.what.window": (
        "ModernBERT's local layers let a token see only nearby tokens (a sliding window); "
        "every few layers a global one sees the whole text, so long inputs stay affordable."
    ),
    "differ.what.pooling": (
        "how the authors make one sentence vector from the token vectors: the first token "
        "([CLS]), the mean, or the last token, then often a division by the length."
    ),
}

ZH = {
    "models.box": "模型：Hub 名称或文件夹",
    "models.box.placeholder": "选择一个，或输入如 google-bert/bert-base-chinese",
    "models.box.help": (
        "本机已有的模型：Hugging Face 缓存和本服务器允许的文件夹（{dirs}）。可以输入缓存中已有的 "
        "Hub 名称（组织/名称），或这些文件夹下的模型文件夹。只读取 safetensors 权重，从不运行模型自带的代码。"
    ),
    "models.none_here": (
        "本机上还没有找到模型。请在服务器上预先下载，例如 "
        "`huggingface-cli download google-bert/bert-base-chinese`，或把模型文件夹复制到以下文件夹之一：{dirs}。"
    ),
    "models.none": "请在上方选择本机上的模型，或输入 Hub 名称或文件夹。",
    "models.refused": "这个模型无法在这里打开：{reason}",
    "models.cut.ours": "谁切分了文本：本应用自己的 {kind} 代码（{steps}）。",
    "models.cut.theirs": "以下步骤由 Hugging Face tokenizers 运行，而不是我们的代码：{steps}。",
    "models.cut.vocab_txt": "谁切分了文本：本应用自己的 WordPiece 代码，读取 vocab.txt。",
    "models.memory": "本服务器内存中（所有访问者共用）：{models}；共 {total}，上限 {budget}（最久未用的模型先被移出）。",
    "models.download": "下载 {ref}",
    "models.downloading": "正在下载 {ref}：{done} / {total}",
    "models.download_failed": "下载失败：{reason}",
    "differ.head": "编码器之间的差别：本机上的模型，一个开关一个开关地比较",
    "differ.col.model": "模型",
    "differ.col.family": "家族",
    "differ.col.vocab": "词表",
    "differ.col.size": "层数 × 隐藏宽度",
    "differ.heads": "个头",
    "differ.col.positions": "位置",
    "differ.col.segments": "片段",
    "differ.col.embedding": "嵌入 E → H",
    "differ.col.norm": "归一化",
    "differ.no_bias": "，无偏置",
    "differ.col.ffn": "前馈网络",
    "differ.col.sharing": "层共享",
    "differ.shared": "1 层 × {n}",
    "differ.col.window": "窗口",
    "differ.window": "±{w}，每 {n} 层一个全局层",
    "differ.col.max": "最大词元数",
    "differ.col.p_emb": "参数：嵌入",
    "differ.col.p_attn": "参数：注意力",
    "differ.col.p_ffn": "参数：前馈",
    "differ.col.p_other": "参数：其他",
    "differ.col.pooling": "池化",
    "differ.pos.learned": "学习得到的位置表（{n}）",
    "differ.pos.offset": "学习得到的位置表（{n}），从编号 {offset} 开始",
    "differ.pos.rotary": "旋转位置编码（RoPE），底数 {bases}",
    "differ.dl": "下载表格（CSV）",
    "differ.pool.default": "{mode}（没有相关文件：本应用的默认）",
    "differ.pool.normalised": "，归一化",
    "differ.caption": (
        "共 {n} 个模型，读取自它们的 config.json 和分词器文件（没有加载权重）。参数是本应用的编码器按每个"
        "模型的开关搭建后按部分统计的数目；共享的层只算一次。池化方式来自 sentence-transformers 文件。"
    ),
    "differ.what.positions": (
        "词序从哪里进入：加到词元向量上的学习得到的位置表（BERT；RoBERTa 和 XLM-R 从填充编号 + 1 开始计数），"
        "或在注意力内部旋转查询和键的旋转位置编码（ModernBERT）。"
    ),
    "differ.what.segments": (
        "表示句子 A 或 B 的行：BERT 有 2 行，RoBERTa 和 XLM-R 只有 1 行（每个词元都是同一个向量），"
        "DistilBERT 和 ModernBERT 没有。"
    ),
    "differ.what.embedding": (
        "ALBERT 和 ELECTRA 让嵌入保持较窄（E），再投影到隐藏宽度 H：V 行的词表只需 V·E + E·H 个参数，"
        "而不是 V·H。"
    ),
    "differ.what.norm": (
        "后置归一化（BERT）在每个残差之后归一化；前置归一化（ModernBERT）归一化每个子层的输入，"
        "并在最后加一个归一化，更深的网络训练起来更稳定。"
    ),
    "differ.what.ffn": (
        "逐位置的前馈网络：GELU（BERT）、tanh-GELU（ALBERT），或 GeGLU（ModernBERT），"
        "其中升维投影的另一半作为门控乘到第一半上。"
    ),
    "differ.what.sharing": "ALBERT 在每一层都使用同一层的权重：12 层的计算量，只有 1 层的参数。",
    "differ.what.window": (
        "ModernBERT 的局部层只让词元看到附近的词元（滑动窗口）；每隔几层有一个全局层看到全文，"
        "这样长文本的代价仍然可以承受。"
    ),
    "differ.what.pooling": (
        "作者如何从词元向量得到一个句向量：第一个词元（[CLS]）、平均，或最后一个词元，"
        "之后常常再除以长度（归一化）。"
    ),
}
