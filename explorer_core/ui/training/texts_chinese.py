"""Texts of the Train page's "Teach MiniLM Chinese" and of the build the guided lesson asks for."""

EN = {
    "train.kind": "What to train",
    "train.kind.model": "Train a model",
    "train.kind.chinese": "Teach MiniLM Chinese",
    "train.zh.head": "Teach MiniLM Chinese (multilingual distillation)",
    "train.zh.explain": (
        "all-MiniLM-L6-v2 was trained on English only: its vocabulary has almost no Chinese "
        "characters, so most of a Chinese sentence becomes `[UNK]` and its vectors mean little. "
        "Here it learns Chinese by **knowledge distillation (知识蒸馏)**, the recipe of Reimers & "
        "Gurevych (2020):\n\n"
        "1. **New vocabulary rows.** About 7,000 Chinese characters (every character of the "
        "GB 2312 standard and of the training sentences) join the WordPiece vocabulary. Each gets "
        "a new row in the token embedding table, starting at the mean of the few Chinese rows "
        "MiniLM already had; every old id and row stays as it was.\n"
        "2. **A teacher and a student.** The *teacher* is MiniLM as it was, frozen. The "
        "*student* starts as a copy with the new rows. For each English sentence *s* and its "
        "Chinese translation *t* the student is trained so that **both** land on the teacher's "
        "vector of *s*: loss = MSE(student(s), teacher(s)) + MSE(student(t), teacher(s)).\n"
        "3. **Why Chinese lands near English.** The second term pulls a Chinese sentence onto "
        "the vector of its English meaning; the first keeps the English space where it was. "
        "Since English sentences with similar meanings already had close vectors, their "
        "translations end up close too: the student's similarities in Chinese follow the "
        "teacher's in English, without a single scored Chinese pair."
    ),
    "train.zh.data": (
        "Data: {pairs:,} English–Chinese sentence pairs written for this project (everyday life, "
        "pictures, news-like, the app's own lessons); {epochs:g} passes, batch {batch}, learning "
        "rate {lr:g}. The curve is measured on the built-in dev pairs ({dev} Chinese, {dev_en} "
        "English), which training never sees."
    ),
    "train.zh.time": (
        "It runs once per install, in a worker process: about 10 minutes on a 2-core laptop, "
        "much less on a GPU. Every page and every learner of this server then uses the result."
    ),
    "train.zh.built": (
        "**MiniLM + 中文, taught here** is built on this install ({steps} steps, "
        "{minutes:.1f} min{stopped}). It is a model source on Token embeddings, Embedding sum, "
        "Attention and Similarity, and the Chinese guided lesson uses it."
    ),
    "train.zh.stopped": ", stopped early",
    "train.zh.not_built": "MiniLM + 中文 has not been built on this install yet.",
    "train.zh.start": "Build",
    "train.zh.rebuild": "Build again",
    "train.zh.stop": "Stop",
    "train.zh.stop_help": "Only the browser that started the build can stop it.",
    "train.zh.already": "MiniLM + 中文 is being built already; its progress is below.",
    "train.zh.other": "Started from another browser; the result is shared by everyone here.",
    "train.zh.waiting": "Waiting for a free training slot: number {place} in the queue.",
    "train.zh.progress": "Step {step} of {total} · {seconds:.0f} s{eta}",
    "train.zh.eta": " · about {eta:.0f} s left",
    "train.zh.eta_min": " · about {minutes:.0f} min left at this pace",
    "train.zh.preparing": "Preparing: adding the Chinese rows, computing the teacher's vectors…",
    "train.zh.paused": "Paused at step {step} of {total}: a student's training run has the slot.",
    "train.zh.failed": "The build failed: {error}",
    "train.zh.ended.stopped": "Stopped. The model as it was is installed; build again to finish.",
    "train.zh.ended.finished": "Done: MiniLM + 中文 is installed for every page.",
    "train.zh.run.head": "Progress",
    "train.zh.none": "No build is running.",
    "train.zh.installed_curve": "No build is running; these are the curves of the installed model's build.",
    "train.zh.chart.lang": "Sentence similarity, dev pairs (Spearman)",
    "train.zh.chart.unk": "Chinese tokens that are [UNK]",
    "train.zh.chart.loss": "Distillation loss (MSE to the teacher's vectors)",
    "train.zh.axis.step": "step",
    "train.zh.axis.rho": "Spearman ρ",
    "train.zh.axis.unk": "share of tokens",
    "train.zh.curve.dev_spearman_zh": "Chinese, student",
    "train.zh.curve.dev_spearman_en": "English, student",
    "train.zh.curve.before:dev_spearman_zh": "Chinese, MiniLM as it was",
    "train.zh.curve.before:dev_spearman_en": "English, MiniLM as it was",
    "train.zh.curve.unk": "student (MiniLM + Chinese rows)",
    "train.zh.curve.unk_before": "MiniLM as it was",
    "train.zh.chart.lang_caption": (
        "Solid: the student after each stretch of training; dashed: MiniLM before any Chinese. "
        "Chinese should rise well above its dashed line; English should stay on its own."
    ),
    "train.zh.chart.unk_caption": (
        "Measured on the built-in Chinese prose. It falls at step 0, when the characters join the "
        "vocabulary; training then teaches the new rows what they mean."
    ),
    "train.loss.en_loss": "English: MSE(student(s), teacher(s))",
    "train.loss.zh_loss": "Chinese: MSE(student(t), teacher(s))",
    "train.zh.table.head": "Before and after",
    "train.zh.table.measure": "Measure",
    "train.zh.table.minilm": "MiniLM as it was",
    "train.zh.table.start": "+ Chinese rows, untaught",
    "train.zh.table.taught": "MiniLM + 中文, taught here",
    "train.zh.table.unk": "Chinese tokens that are [UNK]",
    "train.zh.table.zh": "Chinese dev Spearman",
    "train.zh.table.en": "English dev Spearman",
    "train.zh.table.vocab": "Vocabulary size",
    "train.zh.table.caption": (
        "Dev pairs of the built-in data, scored by the cosine of mean-pooled vectors. The middle "
        "column is the student before its first step: it already reads the characters, but their "
        "rows do not mean anything yet."
    ),
    "train.zh.table.none": "The table appears once the model has been built.",
    "train.zh.try": "Try it:",
    "train.zh.try.lesson": "Guided lesson (中文)",
    "train.zh.try.attention": "Attention",
    "train.zh.try.similarity": "Similarity",
    "train.zh.refused.budget": (
        "The server cannot take the build: it needs about {need} MB, more than the {budget} MB "
        "it sets aside for all training runs together."
    ),
}

ZH = {
    "train.kind": "训练什么",
    "train.kind.model": "训练一个模型",
    "train.kind.chinese": "教 MiniLM 学中文",
    "train.zh.head": "教 MiniLM 学中文（多语言蒸馏）",
    "train.zh.explain": (
        "all-MiniLM-L6-v2 只用英文训练过：它的词表几乎没有汉字，所以中文句子的大部分都变成 "
        "`[UNK]`，得到的向量几乎没有意义。这里用 **知识蒸馏（knowledge distillation）** 教它中文，"
        "即 Reimers 与 Gurevych（2020）的方法：\n\n"
        "1. **新的词表行。** 大约 7000 个汉字（GB 2312 标准里的全部汉字，以及训练句子里出现的汉字）"
        "加入 WordPiece 词表。每个字在词元嵌入表里得到新的一行，初值是 MiniLM 原有的少数汉字行的"
        "平均值；所有旧的 id 和行都保持不变。\n"
        "2. **老师和学生。** *老师* 是原来的 MiniLM，参数冻结。*学生* 从带新行的副本开始。"
        "对每个英文句子 *s* 和它的中文译文 *t*，训练学生让两者 **都** 落到老师给 *s* 的向量上："
        "损失 = MSE(学生(s), 老师(s)) + MSE(学生(t), 老师(s))。\n"
        "3. **为什么中文会落在英文旁边。** 第二项把中文句子拉到它英文意思的向量上；第一项让英文"
        "空间保持原样。意思相近的英文句子本来就有相近的向量，所以它们的译文也会彼此靠近："
        "学生在中文上的相似度跟随老师在英文上的相似度，而不需要任何一对打过分的中文句子。"
    ),
    "train.zh.data": (
        "数据：为本项目编写的 {pairs:,} 对英中句子（日常生活、图片描述、新闻风格、本应用的课程）；"
        "{epochs:g} 轮，批大小 {batch}，学习率 {lr:g}。曲线在内置的验证集句对上测量"
        "（中文 {dev} 对，英文 {dev_en} 对），训练从不使用它们。"
    ),
    "train.zh.time": (
        "每次安装只需运行一次，在后台工作进程里进行：双核笔记本上大约 10 分钟，有 GPU 时快得多。"
        "之后这台服务器上的每个页面、每位学习者都使用这个结果。"
    ),
    "train.zh.built": (
        "**MiniLM + 中文（本机教会）** 已在本机构建（{steps} 步，{minutes:.1f} 分钟{stopped}）。"
        "它是“词元嵌入”“嵌入相加”“注意力”和“相似度”页面的模型来源之一，中文导览课程也使用它。"
    ),
    "train.zh.stopped": "，提前停止",
    "train.zh.not_built": "本机还没有构建 MiniLM + 中文。",
    "train.zh.start": "构建",
    "train.zh.rebuild": "重新构建",
    "train.zh.stop": "停止",
    "train.zh.stop_help": "只有开始构建的那个浏览器可以停止它。",
    "train.zh.already": "MiniLM + 中文 已经在构建中；进度见下方。",
    "train.zh.other": "由另一个浏览器开始；结果由这里的每个人共享。",
    "train.zh.waiting": "正在等待空闲的训练位置：排在队列第 {place} 位。",
    "train.zh.progress": "第 {step} / {total} 步 · {seconds:.0f} 秒{eta}",
    "train.zh.eta": " · 约剩 {eta:.0f} 秒",
    "train.zh.eta_min": " · 按当前速度约剩 {minutes:.0f} 分钟",
    "train.zh.preparing": "准备中：加入汉字的新行，计算老师的向量……",
    "train.zh.paused": "已暂停于第 {step} / {total} 步：学生的训练正在使用这个位置。",
    "train.zh.failed": "构建失败：{error}",
    "train.zh.ended.stopped": "已停止。当时的模型已安装；再次构建可以完成训练。",
    "train.zh.ended.finished": "完成：MiniLM + 中文 已安装，所有页面都可以使用。",
    "train.zh.run.head": "进度",
    "train.zh.none": "当前没有正在进行的构建。",
    "train.zh.installed_curve": "当前没有正在进行的构建；下面是已安装模型构建时的曲线。",
    "train.zh.chart.lang": "句子相似度，验证集句对（Spearman）",
    "train.zh.chart.unk": "中文词元中 [UNK] 的比例",
    "train.zh.chart.loss": "蒸馏损失（与老师向量的 MSE）",
    "train.zh.axis.step": "步",
    "train.zh.axis.rho": "Spearman ρ",
    "train.zh.axis.unk": "词元比例",
    "train.zh.curve.dev_spearman_zh": "中文，学生",
    "train.zh.curve.dev_spearman_en": "英文，学生",
    "train.zh.curve.before:dev_spearman_zh": "中文，原来的 MiniLM",
    "train.zh.curve.before:dev_spearman_en": "英文，原来的 MiniLM",
    "train.zh.curve.unk": "学生（MiniLM + 汉字新行）",
    "train.zh.curve.unk_before": "原来的 MiniLM",
    "train.zh.chart.lang_caption": (
        "实线：每训练一段之后的学生；虚线：加入中文之前的 MiniLM。中文应当明显升到虚线之上；"
        "英文应当保持在它自己的虚线附近。"
    ),
    "train.zh.chart.unk_caption": (
        "在内置的中文文本上测量。它在第 0 步就下降了，因为汉字在那时加入词表；之后的训练教新行"
        "学会这些字的意思。"
    ),
    "train.loss.en_loss": "英文：MSE(学生(s), 老师(s))",
    "train.loss.zh_loss": "中文：MSE(学生(t), 老师(s))",
    "train.zh.table.head": "前后对比",
    "train.zh.table.measure": "指标",
    "train.zh.table.minilm": "原来的 MiniLM",
    "train.zh.table.start": "+ 汉字新行，未训练",
    "train.zh.table.taught": "MiniLM + 中文（本机教会）",
    "train.zh.table.unk": "中文词元中 [UNK] 的比例",
    "train.zh.table.zh": "中文验证集 Spearman",
    "train.zh.table.en": "英文验证集 Spearman",
    "train.zh.table.vocab": "词表大小",
    "train.zh.table.caption": (
        "内置数据的验证集句对，用平均池化向量的余弦打分。中间一列是学生第一步之前的样子："
        "它已经认得这些字，但它们的行还没有任何意义。"
    ),
    "train.zh.table.none": "模型构建完成后会出现这张表。",
    "train.zh.try": "试一试：",
    "train.zh.try.lesson": "导览课程（中文）",
    "train.zh.try.attention": "注意力",
    "train.zh.try.similarity": "相似度",
    "train.zh.refused.budget": (
        "服务器无法接受这次构建：它大约需要 {need} MB，超过了服务器为所有训练预留的 {budget} MB。"
    ),
}
