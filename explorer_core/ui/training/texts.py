"""Texts of the Train the model page."""

EN = {
    "train.dl.loss": "Loss log (CSV)",
    "train.dl.eval": "Evaluation log (CSV)",
    "train.dl.log": "Whole log (JSON)",
    "train.dl.scores": "Spearman by split (CSV)",
    "train.title": "Train a sentence-embedding model",
    "train.intro": (
        "Pre-train a small BERT with masked-language modelling (MLM, predict hidden tokens) and "
        "next-sentence prediction (NSP), then fine-tune it on sentence pairs scored 0-5 so that "
        "the cosine of two sentence vectors (mean pooling, 池化) follows the score. Training runs "
        "in the background: watch the curves, stop when you like, or visit other pages meanwhile."
    ),
    "train.data.head": "1. Data: sentence pairs scored 0-5",
    "train.data": "Pairs",
    "train.data.builtin": "Built-in (English + Chinese)",
    "train.data.upload": "Upload a file",
    "train.data.file": "ChineseSTS lines or a TSV/CSV with sentence1, sentence2, score columns",
    "train.data.file_help": (
        "ChineseSTS: id1<TAB>sentence1<TAB>id2<TAB>sentence2<TAB>score, no header. Table: a header "
        "naming sentence1, sentence2 and score; a split column (train/dev/test) is used if present."
    ),
    "train.data.wait": "Upload a file of sentence pairs, or use the built-in pairs.",
    "train.data.bad": "This file cannot be used: {reason}",
    "train.data.counts": (
        "{used} usable pairs ({malformed} malformed rows skipped): train {train}, dev {dev}, "
        "test {test}."
    ),
    "train.data.builtin_counts": (
        "The project's own bilingual pairs: train {train}, dev {dev}, test {test}. "
        "The pre-training corpus is the Tokenizer Lab's built-in English and Chinese prose."
    ),
    "train.tok.head": "2. Tokenizer (分词器)",
    "train.tok": "Tokenizer",
    "train.tok.lab": "From the Tokenizer Lab",
    "train.tok.train": "Train one now",
    "train.tok.vocab": "Load a vocab.txt",
    "train.tok.no_lab": (
        "No tokenizer was trained in the Tokenizer Lab in this session. Train one there, or choose "
        "another option."
    ),
    "train.tok.algo": "Algorithm",
    "train.tok.size": "Vocabulary size",
    "train.tok.file": "BERT vocab.txt (one token per line), e.g. bert-base-chinese's",
    "train.tok.lower": "Lower-case the text (for uncased vocabularies)",
    "train.tok.wait": "Upload a vocab.txt to use it.",
    "train.tok.bad": "This vocab.txt cannot be used: {reason}",
    "train.tok.info": "Tokenizer: {name}, {ids} ids with BERT's special tokens.",
    "train.model.head": "3. Model",
    "train.preset": "Preset",
    "train.preset.tiny": "Tiny (~1M parameters)",
    "train.preset.small": "Small (~4M parameters)",
    "train.preset.tutorial": "Tutorial (the Chinese tutorial's model)",
    "train.desc.tiny": "Hidden 128, 2 layers, 4 heads: the loss drops visibly within a minute.",
    "train.desc.small": "Hidden 256, 4 layers, 4 heads: better, but minutes per epoch.",
    "train.desc.tutorial": (
        "As Small, with the tutorial's choices: pre-LN blocks, fixed sinusoidal positions with "
        "LayerNorm, ReLU feed-forward, no segment embedding, mean pooling."
    ),
    "train.edit": "Edit the configuration",
    "train.hidden": "Hidden size",
    "train.layers": "Layers",
    "train.heads": "Attention heads",
    "train.ffn": "Feed-forward size",
    "train.max_length": "Tokens per sentence",
    "train.batch": "Batch size (pairs)",
    "train.lr": "Peak learning rate",
    "train.seed": "Seed",
    "train.size": (
        "{params} parameters; this run holds about {mb} MB of the server's memory (its worker "
        "process, one training step, the snapshots for the before/after views)."
    ),
    "train.bad_config": "This configuration cannot be trained: {reason}",
    "train.objective.head": "4. Objective and budget",
    "train.objective": "Objective",
    "train.objective.pretrain+finetune": "Pre-train (MLM + NSP), then fine-tune",
    "train.objective.finetune": "Fine-tune directly (from random weights)",
    "train.objective.pretrain": "Pre-train only (MLM + NSP; keeps the MLM head for the logit lens)",
    "train.pre_steps": "Pre-training steps",
    "train.whole_word": "Whole-word masking in pre-training",
    "train.whole_word.help": (
        "Choose whole words to mask instead of single tokens: Chinese text is cut into words by "
        "jieba and every character of a chosen word is masked together; other text keeps a word "
        "and its ## pieces together. See the BERT inputs page for a side-by-side and a "
        "measurement."
    ),
    "train.whole_word.missing": (
        "Whole-word masking needs the word segmenter jieba, which is not installed here "
        "(pip install jieba); turn the switch off to train."
    ),
    "train.fine_steps": "Fine-tuning steps",
    "train.budget": "Time budget in seconds (0 = steps only)",
    "train.start": "Train",
    "train.stop": "Stop (keep the model as it is)",
    "train.already": "A run is already going in this session; stop it or wait for it to finish.",
    "train.run.head": "Progress",
    "train.cancel": "Cancel (leave the queue)",
    "train.server": (
        "Training on this server, all users together: {running} training (at most {limit} at "
        "once), {waiting} waiting; {used} of {budget} MB of training memory in use."
    ),
    "train.queue": (
        "Waiting for a free place: number {place} in the queue ({running} of {limit} runs "
        "training). Your run starts by itself when its turn comes."
    ),
    "train.queue.start": "Your run should start in about {s} s.",
    "train.queue.start.unknown": (
        "Start time: estimated once a run like yours has finished on this server."
    ),
    "train.queue.dropped": (
        "Your request left the queue: this page did not ask for news for more than {s} s. "
        "Press Train again."
    ),
    "train.refused.budget": (
        "The server cannot take this run: it needs about {need} MB, more than the {budget} MB it "
        "sets aside for all training runs together. Choose fewer layers, a smaller hidden size, "
        "batch or length."
    ),
    "train.refused.engine": (
        "Training is off for now: the class's training engine cannot be reached ({reason}). "
        "Nothing was started; tell the teacher, then press Train again."
    ),
    "train.keepalive.running": "Training in the background: {phase}, step {step}.",
    "train.keepalive.waiting": "Your training run waits in the queue: number {place}.",
    "train.none": "No run yet in this session. Choose the settings above and press Train.",
    "train.phase.pretrain": "pre-training",
    "train.phase.finetune": "fine-tuning",
    "train.phase.lm": "the decoder",
    "train.phase.": "starting",
    "train.progress": ("{phase}: step {step}{total} · {elapsed} s elapsed · {eta}"),
    "train.eta": "about {s} s left",
    "train.eta.unknown": "estimating time left",
    "train.state.finished": "Finished after {s} s.",
    "train.state.stopped": "Stopped after {s} s; the model is kept as it was at that step.",
    "train.state.failed": "Training failed: {error}",
    "train.loss.title": "Training loss (log scale)",
    "train.loss.mlm_loss": "MLM loss",
    "train.loss.nsp_loss": "NSP loss",
    "train.loss.sim_loss": "similarity loss",
    "train.loss.mnr_loss": "in-batch negatives loss",
    "train.axis.step": "optimiser step (pre-training, then fine-tuning)",
    "train.axis.loss": "loss",
    "train.loss.caption": (
        "One point per optimiser step of the model being trained in this session. MLM is the "
        "cross-entropy of the hidden tokens (starts near ln(vocabulary size)), NSP the "
        "cross-entropy of IsNext/NotNext (chance: ln 2 ≈ 0.69), similarity the mean of "
        "(cos − score/5)²."
    ),
    "train.eval.title": "Dev Spearman at each evaluation",
    "train.axis.spearman": "Spearman ρ (cosine vs gold score)",
    "train.eval.model": "this model",
    "train.eval.baseline": "lexical baseline (TF-IDF)",
    "train.eval.caption": (
        "Rank correlation between the model's cosine and the gold score on the dev pairs, "
        "measured during fine-tuning; dashed: character 1-2 gram TF-IDF cosine on the same pairs."
    ),
    "train.eval.none": "Dev Spearman appears once fine-tuning reaches its first evaluation.",
    "train.result.head": "Your model",
    "train.result.label": "Model in this session: {label}",
    "train.result.none": "No model yet: train one above or upload a checkpoint zip below.",
    "train.result.col.split": "split",
    "train.result.col.pairs": "pairs",
    "train.result.col.model": "Spearman: this model",
    "train.result.col.baseline": "Spearman: lexical baseline",
    "train.result.caption": (
        "Spearman correlation between cosine and gold score on the dev and test pairs of the "
        "data chosen above, for this model and for the TF-IDF baseline fitted on the training "
        "pairs. Open the Similarity page to probe the model."
    ),
    "train.download": "Download the checkpoint (zip)",
    "train.zip": "Upload a checkpoint zip",
    "train.zip_help": "A zip made by the download button above (config.json, model.safetensors).",
    "train.zip.ok": "Loaded the checkpoint: {label}",
    "train.zip.bad": "This zip was not loaded; the previous model stays. {reason}",
    "train.zip.busy": "Wait for the run to finish before uploading a checkpoint.",
    "train.label": "{name}, trained in this session: {parts} steps",
    "train.label.pretrain": "{n} pre-training",
    "train.label.finetune": "{n} fine-tuning",
    "train.label.stopped": " (stopped early)",
}

ZH = {
    "train.dl.loss": "损失记录（CSV）",
    "train.dl.eval": "评估记录（CSV）",
    "train.dl.log": "完整记录（JSON）",
    "train.dl.scores": "各数据集的 Spearman（CSV）",
    "train.title": "训练一个句向量模型",
    "train.intro": (
        "先用掩码语言模型（MLM，预测被掩码 mask 的词元）和下一句预测（NSP）预训练一个小型 BERT，"
        "再用打了 0-5 分的句子对微调，使两个句向量（平均池化 pooling）的余弦值跟随分数。"
        "训练在后台进行：观察曲线，随时停止，或在此期间访问其他页面。"
    ),
    "train.data.head": "1. 数据：打了 0-5 分的句子对",
    "train.data": "句子对",
    "train.data.builtin": "内置（英文 + 中文）",
    "train.data.upload": "上传文件",
    "train.data.file": "ChineseSTS 格式，或带 sentence1、sentence2、score 列的 TSV/CSV",
    "train.data.file_help": (
        "ChineseSTS：id1<TAB>句子1<TAB>id2<TAB>句子2<TAB>分数，无表头。表格：表头包含 sentence1、"
        "sentence2 和 score；若有 split 列（train/dev/test）则按它划分。"
    ),
    "train.data.wait": "请上传一个句子对文件，或使用内置句子对。",
    "train.data.bad": "无法使用这个文件：{reason}",
    "train.data.counts": (
        "{used} 个可用句子对（跳过 {malformed} 个格式错误的行）："
        "训练 {train}，验证 {dev}，测试 {test}。"
    ),
    "train.data.builtin_counts": (
        "本项目自己编写的双语句子对：训练 {train}，验证 {dev}，测试 {test}。"
        "预训练语料是分词器实验室内置的中英文文章。"
    ),
    "train.tok.head": "2. 分词器（tokenizer）",
    "train.tok": "分词器",
    "train.tok.lab": "来自分词器实验室",
    "train.tok.train": "现在训练一个",
    "train.tok.vocab": "加载 vocab.txt",
    "train.tok.no_lab": (
        "本次会话中还没有在分词器实验室训练分词器。请先去那里训练，或选择其他选项。"
    ),
    "train.tok.algo": "算法",
    "train.tok.size": "词表大小",
    "train.tok.file": "BERT 的 vocab.txt（每行一个词元），例如 bert-base-chinese 的词表",
    "train.tok.lower": "把文本转成小写（用于不区分大小写的词表）",
    "train.tok.wait": "请上传 vocab.txt。",
    "train.tok.bad": "无法使用这个 vocab.txt：{reason}",
    "train.tok.info": "分词器：{name}，加上 BERT 的特殊词元共 {ids} 个编号。",
    "train.model.head": "3. 模型",
    "train.preset": "预设",
    "train.preset.tiny": "Tiny（约 100 万参数）",
    "train.preset.small": "Small（约 400 万参数）",
    "train.preset.tutorial": "Tutorial（中文教程的模型）",
    "train.desc.tiny": "隐藏维度 128，2 层，4 个头：一分钟内就能看到损失明显下降。",
    "train.desc.small": "隐藏维度 256，4 层，4 个头：效果更好，但每轮要几分钟。",
    "train.desc.tutorial": (
        "与 Small 同样大小，采用教程的选择：Pre-LN 结构，固定正弦位置编码（positional encoding）"
        "加层归一化，ReLU 前馈层，没有片段嵌入，平均池化。"
    ),
    "train.edit": "编辑配置",
    "train.hidden": "隐藏维度",
    "train.layers": "层数",
    "train.heads": "注意力头数",
    "train.ffn": "前馈层维度",
    "train.max_length": "每句词元数",
    "train.batch": "批大小（句子对）",
    "train.lr": "最大学习率",
    "train.seed": "随机种子",
    "train.size": "{params} 个参数；这次训练大约占用服务器 {mb} MB 内存（训练进程、一步训练、训练前后对比用的快照）。",
    "train.bad_config": "这个配置无法训练：{reason}",
    "train.objective.head": "4. 训练目标与预算",
    "train.objective": "训练目标",
    "train.objective.pretrain+finetune": "先预训练（MLM + NSP），再微调",
    "train.objective.finetune": "直接微调（从随机权重开始）",
    "train.objective.pretrain": "只做预训练（MLM + NSP；保留 MLM 头，供逻辑透镜使用）",
    "train.pre_steps": "预训练步数",
    "train.whole_word": "预训练使用全词掩码",
    "train.whole_word.help": (
        "按整词而不是按单个词元选择要掩盖的内容：中文文本由 jieba 切成词，被选中的词的每个字一起被掩盖；"
        "其他文本把一个词和它的 ## 子词放在一起。并排对比和测量结果见“BERT 输入”页面。"
    ),
    "train.whole_word.missing": "全词掩码需要分词器 jieba，但这里没有安装（pip install jieba）；关掉这个开关即可训练。",
    "train.fine_steps": "微调步数",
    "train.budget": "时间预算（秒，0 = 只看步数）",
    "train.start": "开始训练",
    "train.stop": "停止（保留当前模型）",
    "train.already": "本次会话已有一个训练在进行；请先停止它或等它结束。",
    "train.run.head": "进度",
    "train.cancel": "取消（离开队列）",
    "train.server": (
        "本服务器所有用户的训练：{running} 个正在训练（最多同时 {limit} 个），{waiting} 个在排队；"
        "训练内存已用 {used} / {budget} MB。"
    ),
    "train.queue": "正在等待空位：排在队列第 {place} 位（{running}/{limit} 个训练在进行）。轮到你时会自动开始。",
    "train.queue.start": "你的训练大约 {s} 秒后开始。",
    "train.queue.start.unknown": "开始时间：等这台服务器上有一个同类训练完成后即可估计。",
    "train.queue.dropped": "你的请求已离开队列：这个页面超过 {s} 秒没有查询进度。请再点一次“开始训练”。",
    "train.refused.budget": (
        "服务器无法接受这次训练：它大约需要 {need} MB，超过了服务器为所有训练预留的 {budget} MB。"
        "请减少层数、隐藏层大小、批大小或长度。"
    ),
    "train.refused.engine": "暂时无法训练：连不上课堂的训练引擎（{reason}）。训练没有开始；请告诉老师，然后再点一次“开始训练”。",
    "train.keepalive.running": "后台训练中：{phase}，第 {step} 步。",
    "train.keepalive.waiting": "你的训练在排队：第 {place} 位。",
    "train.none": "本次会话还没有训练。请在上面选择设置，然后点击“开始训练”。",
    "train.phase.pretrain": "预训练",
    "train.phase.finetune": "微调",
    "train.phase.lm": "解码器",
    "train.phase.": "准备中",
    "train.progress": "{phase}：第 {step}{total} 步 · 已用 {elapsed} 秒 · {eta}",
    "train.eta": "大约还剩 {s} 秒",
    "train.eta.unknown": "正在估计剩余时间",
    "train.state.finished": "训练完成，用时 {s} 秒。",
    "train.state.stopped": "已在 {s} 秒后停止；模型保持停止那一步的状态。",
    "train.state.failed": "训练失败：{error}",
    "train.loss.title": "训练损失（对数坐标）",
    "train.loss.mlm_loss": "MLM 损失",
    "train.loss.nsp_loss": "NSP 损失",
    "train.loss.sim_loss": "相似度损失",
    "train.loss.mnr_loss": "批内负例损失",
    "train.axis.step": "优化步（先预训练，后微调）",
    "train.axis.loss": "损失",
    "train.loss.caption": (
        "本次会话中正在训练的模型，每个优化步一个点。"
        "MLM 是被掩码词元的交叉熵（起点约为 ln(词表大小)），"
        "NSP 是 IsNext/NotNext 的交叉熵（随机猜测为 ln 2 ≈ 0.69），"
        "相似度损失是 (cos − 分数/5)² 的平均。"
    ),
    "train.eval.title": "每次评估时的验证集 Spearman",
    "train.axis.spearman": "Spearman ρ（余弦与人工分数）",
    "train.eval.model": "本模型",
    "train.eval.baseline": "词面基线（TF-IDF）",
    "train.eval.caption": (
        "微调期间在验证集句子对上测得的模型余弦与人工分数的等级相关；"
        "虚线：同一批句子对上字符 1-2 元组 TF-IDF 余弦的结果。"
    ),
    "train.eval.none": "微调到第一次评估后，这里会显示验证集 Spearman。",
    "train.result.head": "你的模型",
    "train.result.label": "本次会话的模型：{label}",
    "train.result.none": "还没有模型：在上面训练一个，或在下面上传检查点 zip。",
    "train.result.col.split": "数据划分",
    "train.result.col.pairs": "句子对数",
    "train.result.col.model": "Spearman：本模型",
    "train.result.col.baseline": "Spearman：词面基线",
    "train.result.caption": (
        "在上面所选数据的验证集和测试集上，余弦与人工分数的 Spearman 相关："
        "本模型，以及在训练集上拟合的 TF-IDF 基线。打开“相似度”页面来探查这个模型。"
    ),
    "train.download": "下载检查点（zip）",
    "train.zip": "上传检查点 zip",
    "train.zip_help": "由上面的下载按钮生成的 zip（含 config.json、model.safetensors）。",
    "train.zip.ok": "已加载检查点：{label}",
    "train.zip.bad": "没有加载这个 zip；之前的模型保持不变。{reason}",
    "train.zip.busy": "请等训练结束后再上传检查点。",
    "train.label": "{name}，本次会话中训练：{parts} 步",
    "train.label.pretrain": "预训练 {n}",
    "train.label.finetune": "微调 {n}",
    "train.label.stopped": "（提前停止）",
}
