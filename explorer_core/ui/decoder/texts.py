"""Texts of the Decoder page (Train section): a GPT-style decoder trained here."""

EN = {
    "dec.nav": "Decoder",
    "dec.title": "Train a decoder: text from next-token guesses",
    "dec.intro": (
        "A decoder (解码器, GPT's kind of model) is the same stack of layers as the encoder, with "
        "one change: token i may only look at tokens 1 … i (the causal mask), and every position "
        "learns to guess the token that comes next. Train a small one on the app's own corpus "
        "for a few seconds: its samples below move from noise to words."
    ),
    "dec.settings.head": "1) What to train",
    "dec.lang": "Corpus",
    "dec.lang.en": "English",
    "dec.lang.zh": "Chinese",
    "dec.lang.both": "Both",
    "dec.seconds": "Seconds of training",
    "dec.seconds.help": "The run stops after this many seconds (or when you press Stop).",
    "dec.seed": "Seed",
    "dec.seed.help": "Same seed, same tokenizer, same starting weights, same batches.",
    "dec.scale": "Multiply embeddings by √d_model",
    "dec.scale.help": (
        "The original Transformer (and the tutorial) scales token vectors by √d_model so the "
        "positions do not drown them; BERT and GPT-2 do not."
    ),
    "dec.tie": "Tie the embedding to the output layer",
    "dec.tie.help": (
        "One matrix both turns ids into vectors and scores every token at the output (GPT-2, "
        "BERT's MLM head): fewer weights to learn."
    ),
    "dec.bad_settings": "These settings cannot train: {reason}",
    "dec.sizes": (
        "Model: {layers} layers, hidden size {hidden}, {heads} heads, {block} tokens of context, "
        "a byte-level BPE vocabulary of {vocab} tokens trained on the corpus."
    ),
    "dec.start": "Train the decoder",
    "dec.stop": "Stop",
    "dec.cancel": "Cancel",
    "dec.run.head": "2) Training",
    "dec.none": "No decoder has trained in this session yet. Press Train.",
    "dec.queue": "Waiting for a free slot: place {place} in the server's queue.",
    "dec.state.running": "Training: step {step}, {s} s of {total} s",
    "dec.state.starting": "Preparing the corpus and the tokenizer…",
    "dec.state.finished": "Finished after {s} s: the decoder is saved.",
    "dec.state.stopped": "Stopped after {s} s: the decoder is saved as it was.",
    "dec.state.failed": "The run failed: {error}",
    "dec.loss.title": "Held-out loss: the decoder against two references",
    "dec.loss.model": "decoder",
    "dec.loss.uniform": "uniform guess (ln V)",
    "dec.loss.bigram": "bigram counts",
    "dec.axis.step": "optimiser step",
    "dec.axis.loss": "cross-entropy (nats per token)",
    "dec.loss.caption": (
        "Fresh model trained here now. The loss is the mean −ln p(next token) on held-out text. "
        "Guessing every token equally gives ln V = {uniform:.2f}; a model that only counts which "
        "token follows which (a bigram, add-k smoothing) gives {bigram:.2f}. Below the bigram "
        "line, the decoder uses more than the previous token."
    ),
    "dec.samples.head": "Samples while it learns (newest first)",
    "dec.samples.none": "The first sample comes after a few steps.",
    "dec.sample": "step {step} · {s:.0f} s",
    "dec.samples.caption": "Each sample continues the prompt “{prompt}” with the model of that step.",
    "dec.model.head": "3) Ask the trained decoder",
    "dec.model.none": "Train a decoder above; then its next-token probabilities appear here.",
    "dec.model.label": "{name}, trained {s:.0f} s (step {step})",
    "dec.model.broken": "The saved decoder could not be opened: {reason}",
    "dec.prompt": "Prompt",
    "dec.default_prompt": "The ",
    "dec.prompt.empty": "The prompt is empty. Type a few characters for the decoder to continue.",
    "dec.temperature": "Temperature",
    "dec.temperature.help": "Below 1 sharpens the distribution, above 1 flattens it.",
    "dec.top_k": "Top-k (0: off)",
    "dec.top_k.help": "Keep only the k most likely tokens.",
    "dec.top_p": "Top-p",
    "dec.top_p.help": "Keep the most likely tokens until their probabilities add up to p.",
    "dec.bars.title": "The next token after “{prompt}”",
    "dec.bars.raw": "raw softmax",
    "dec.bars.kept": "after temperature, top-k, top-p",
    "dec.bars.cut": "cut",
    "dec.bars.x": "probability",
    "dec.bars.caption": (
        "The {n} most likely next tokens of the decoder trained here. Outline: the model's own "
        "softmax. Filled: what sampling draws from after temperature {temperature}, top-k {k} "
        "and top-p {p}; grey bars at 0 are tokens those filters cut ({cut} of the {shown} "
        "shown). ␣ is a space, ↵ a line break."
    ),
    "dec.bad_sampling": "These sampling settings do not work: {reason}",
    "dec.new_tokens": "Tokens to generate",
    "dec.generate": "Generate",
    "dec.generated": "Continuation (seed {seed}):",
    "dec.save.head": "Keep it",
    "dec.saved": (
        "Saved as a GPT-2 folder on this machine: {folder}. Every model page lists it under "
        "“A model on this machine” (Inside the encoder, Attention)."
    ),
    "dec.download": "Download the decoder (zip)",
    "dec.download.help": (
        "A GPT-2 folder: transformers.GPT2LMHeadModel.from_pretrained(folder) and "
        "AutoTokenizer.from_pretrained(folder) open it."
    ),
    "dec.open": "Open it on Inside the encoder",
    "dec.open.link": "Inside the encoder, with this decoder opened",
}

ZH = {
    "dec.nav": "解码器",
    "dec.title": "训练一个解码器：逐个猜下一个词元，写出文字",
    "dec.intro": (
        "解码器（decoder，GPT 这一类模型）和编码器是同一叠层，只改了一处：第 i 个词元只能看第 1 … i "
        "个词元（因果掩码 causal mask），而且每个位置都学着猜下一个词元。用本应用自带的语料训练一个"
        "小解码器，几秒钟就够：下面的样本会从乱码慢慢变成词语。"
    ),
    "dec.settings.head": "1) 训练什么",
    "dec.lang": "语料",
    "dec.lang.en": "英文",
    "dec.lang.zh": "中文",
    "dec.lang.both": "中英都有",
    "dec.seconds": "训练秒数",
    "dec.seconds.help": "训练到这么多秒就停止（或者你按“停止”）。",
    "dec.seed": "随机种子",
    "dec.seed.help": "种子相同，分词器、初始权重和批次都相同。",
    "dec.scale": "词向量乘以 √d_model",
    "dec.scale.help": "原始 Transformer（以及教程）把词向量乘以 √d_model，免得被位置向量淹没；BERT 和 GPT-2 不乘。",
    "dec.tie": "输入词嵌入与输出层共享权重",
    "dec.tie.help": "同一个矩阵既把编号变成向量，又在输出端给每个词元打分（GPT-2、BERT 的 MLM 头）：要学的权重更少。",
    "dec.bad_settings": "这些设置无法训练：{reason}",
    "dec.sizes": (
        "模型：{layers} 层，隐藏维度 {hidden}，{heads} 个头，上下文 {block} 个词元，"
        "在语料上训练的字节级 BPE 词表共 {vocab} 个词元。"
    ),
    "dec.start": "训练解码器",
    "dec.stop": "停止",
    "dec.cancel": "取消",
    "dec.run.head": "2) 训练过程",
    "dec.none": "本次会话还没有训练过解码器。请按“训练解码器”。",
    "dec.queue": "等待空闲名额：在服务器队列中排第 {place} 位。",
    "dec.state.running": "训练中：第 {step} 步，{s} 秒 / {total} 秒",
    "dec.state.starting": "正在准备语料和分词器……",
    "dec.state.finished": "{s} 秒后完成：解码器已保存。",
    "dec.state.stopped": "{s} 秒后停止：解码器按当时的样子保存。",
    "dec.state.failed": "训练失败：{error}",
    "dec.loss.title": "留出文本上的损失：解码器与两条参考线",
    "dec.loss.model": "解码器",
    "dec.loss.uniform": "均匀乱猜（ln V）",
    "dec.loss.bigram": "二元组计数（bigram）",
    "dec.axis.step": "优化步数",
    "dec.axis.loss": "交叉熵（每个词元的奈特数）",
    "dec.loss.caption": (
        "此处从头训练的新模型。损失是留出文本上 −ln p(下一个词元) 的平均值。每个词元都猜得一样，"
        "损失是 ln V = {uniform:.2f}；只数“哪个词元后面跟哪个”的模型（bigram，加 k 平滑）是 "
        "{bigram:.2f}。低于 bigram 线，说明解码器用到的不只是前一个词元。"
    ),
    "dec.samples.head": "学习中的样本（最新的在上）",
    "dec.samples.none": "训练几步之后出现第一个样本。",
    "dec.sample": "第 {step} 步 · {s:.0f} 秒",
    "dec.samples.caption": "每个样本都用那一步的模型续写提示“{prompt}”。",
    "dec.model.head": "3) 问问训练好的解码器",
    "dec.model.none": "先在上面训练一个解码器，这里才会显示它对下一个词元的概率。",
    "dec.model.label": "{name}，训练了 {s:.0f} 秒（第 {step} 步）",
    "dec.model.broken": "保存的解码器打不开：{reason}",
    "dec.prompt": "提示",
    "dec.default_prompt": "今天",
    "dec.prompt.empty": "提示是空的。请输入几个字，让解码器接着写。",
    "dec.temperature": "温度",
    "dec.temperature.help": "小于 1 让分布更尖，大于 1 让分布更平。",
    "dec.top_k": "Top-k（0：不用）",
    "dec.top_k.help": "只保留概率最高的 k 个词元。",
    "dec.top_p": "Top-p",
    "dec.top_p.help": "从概率最高的词元开始保留，直到概率之和达到 p。",
    "dec.bars.title": "“{prompt}”之后的下一个词元",
    "dec.bars.raw": "原始 softmax",
    "dec.bars.kept": "温度、top-k、top-p 之后",
    "dec.bars.cut": "被截掉",
    "dec.bars.x": "概率",
    "dec.bars.caption": (
        "此处训练的解码器最可能的 {n} 个下一个词元。空心条：模型自己的 softmax。实心条：经过温度 "
        "{temperature}、top-k {k}、top-p {p} 之后采样实际使用的概率；灰色、为 0 的是被这些筛选截掉的"
        "词元（显示的 {shown} 个中有 {cut} 个）。␣ 是空格，↵ 是换行。"
    ),
    "dec.bad_sampling": "这些采样设置不可用：{reason}",
    "dec.new_tokens": "生成的词元数",
    "dec.generate": "生成",
    "dec.generated": "续写（种子 {seed}）：",
    "dec.save.head": "保存下来",
    "dec.saved": (
        "已在本机保存为 GPT-2 文件夹：{folder}。每个模型页面的“本机上的模型”都会列出它"
        "（编码器内部、注意力）。"
    ),
    "dec.download": "下载解码器（zip）",
    "dec.download.help": (
        "一个 GPT-2 文件夹：transformers.GPT2LMHeadModel.from_pretrained(folder) 和 "
        "AutoTokenizer.from_pretrained(folder) 都能打开。"
    ),
    "dec.open": "在“编码器内部”页面打开它",
    "dec.open.link": "编码器内部（已打开这个解码器）",
}
