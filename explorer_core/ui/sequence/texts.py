"""Texts of the Sequence models page (and its class poll's explanation)."""

EN = {
    "seq.nav": "Sequence models",
    "seq.title": "Before attention: n-gram windows, RNNs, LSTMs and GRUs",
    "seq.intro": (
        "Before the Transformer, a sequence was read in order. A **feed-forward n-gram window** "
        "(Bengio et al. 2003) concatenates the embeddings of the n − 1 tokens before position t "
        "and applies one tanh layer: nothing further back can reach it. A **simple RNN** (循环神经"
        "网络, recurrent neural network) carries a hidden state from token to token, "
        "h_i = σ(U h_(i−1) + V x_i + b); a **bidirectional RNN** runs a second chain from right "
        "to left, so each output is 2d wide. The **LSTM** and the **GRU** add gates (门控) that "
        "decide what to keep. Below, all of them and one self-attention layer (注意力, attention) "
        "read the same sentence, with weights drawn from one seed."
    ),
    "seq.text": "Sentence",
    "seq.default_text": "The cat sat on the mat because it was tired.",
    "seq.window": "n of the n-gram window",
    "seq.window.help": "The window model reads the n − 1 tokens before each position, no more.",
    "seq.seed": "Seed",
    "seq.seed.help": "Draws the embedding table and every model's weights.",
    "seq.empty": "The sentence is empty. Type at least one word.",
    "seq.too_short": (
        "The n-gram window reads {context} tokens but the sentence has only {tokens}: make n "
        "smaller or the sentence longer."
    ),
    "seq.view": "View",
    "seq.view.states": "Hidden states",
    "seq.view.steps": "Steps and path length",
    "seq.view.gradient": "Gradient over distance",
    "seq.view.recall": "Recall task",
    "seq.model.ngram": "n-gram window",
    "seq.model.rnn": "RNN",
    "seq.model.birnn": "Bidirectional RNN",
    "seq.model.lstm": "LSTM",
    "seq.model.gru": "GRU",
    "seq.model.attention": "Self-attention",
    "seq.tokens": "{n} tokens ({tokenizer}'s WordPiece): {tokens}",
    "seq.unknown": (
        "{n} of the {total} tokens are [UNK]: MiniLM's vocabulary lacks them, so they share one "
        "row of the embedding table. In the Chinese UI, once MiniLM + 中文 is built (Train page), "
        "its vocabulary cuts Chinese into characters it knows."
    ),
    "seq.states.all": "Hidden states h_1 … h_L of every model, token by token",
    "seq.states.title": "{model}: h_1 … h_L ({width} numbers per token)",
    "seq.states.unit": "hidden unit",
    "seq.states.token": "token",
    "seq.states.value": "h",
    "seq.states.caption": (
        "Each row is one token's hidden state. Random initialisation with seed {seed}: every "
        "token's embedding is a random row (N(0, 1), {d} numbers) and no model was trained, so "
        "the numbers are illustrative; what differs is who can see what. The bidirectional RNN's "
        "row is 2 × {d} wide: left-to-right then right-to-left."
    ),
    "seq.gates.all": "Gates per token (each the mean over the {d} units)",
    "seq.gates.title.lstm": "LSTM gates per token (mean over the {d} units)",
    "seq.gates.title.gru": "GRU gates per token (mean over the {d} units)",
    "seq.gates.gate": "gate",
    "seq.gates.value": "mean",
    "seq.gate.i": "i: input",
    "seq.gate.f": "f: forget",
    "seq.gate.g": "g: candidate",
    "seq.gate.o": "o: output",
    "seq.gate.r": "r: reset",
    "seq.gate.z": "z: update",
    "seq.gate.n": "n: candidate",
    "seq.gates.caption": (
        "i, f, o (LSTM) and r, z (GRU) are sigmoid gates between 0 and 1; g and n are tanh "
        "candidates between −1 and 1. Seed {seed}, untrained: a trained LSTM learns when to "
        "forget."
    ),
    "seq.window.title": "What position t can read: the n-gram window (n = {n})",
    "seq.window.read": "token it reads",
    "seq.window.at": "position t",
    "seq.window.value": "readable",
    "seq.window.yes": "inside the window",
    "seq.window.no": "out of reach",
    "seq.window.caption": (
        "A hard limit: position t reads exactly the {context} tokens before it. Everything "
        "further back is out of reach whatever the weights; an RNN reads all earlier tokens, "
        "attention every token."
    ),
    "seq.steps.intro": (
        "Vaswani et al. (2017, Table 1) compare layers by the steps that must run one after "
        "another and by the longest path a signal travels from one token to another. Here both "
        "are counted from the runs, and one forward pass is timed for L = 16, 64 and 256 tokens: "
        "our Python loop of L cell steps against one masked matmul."
    ),
    "seq.steps.col.model": "model",
    "seq.steps.col.length": "L",
    "seq.steps.col.steps": "sequential steps",
    "seq.steps.col.path": "longest path",
    "seq.steps.col.ms": "ms (measured)",
    "seq.steps.col.ratio": "× attention's time",
    "seq.steps.title": "One forward pass, measured on this server now",
    "seq.steps.x": "sentence length L (tokens)",
    "seq.steps.y": "time (ms, log scale)",
    "seq.steps.caption": (
        "Measured on this server at {when} (UTC): the fastest of 7 forward passes, batch 1, "
        "d = 64, random initialisation with seed 0. Times depend on the server and on what else "
        "it runs; compare the models within one measurement. Sequential steps: L for the RNN "
        "and LSTM, 1 for attention."
    ),
    "seq.steps.again": "Measure again",
    "seq.grad.title": "‖∂h_L/∂x_t‖: how strongly the last position feels token t",
    "seq.grad.x": "distance L − t (tokens back)",
    "seq.grad.y": "‖∂h_L/∂x_t‖ (log scale)",
    "seq.grad.caption": (
        "Your sentence ({n} tokens), random initialisation with seed {seed}, no training. The "
        "RNN's gradient is a product of one step Jacobian per token, so it shrinks with "
        "distance; attention reaches every token in one step. Zeros are left out of the log "
        "axis."
    ),
    "seq.grad.trained.title": "Before and after training on the recall task (k = {k})",
    "seq.grad.before": "{model}, initialisation",
    "seq.grad.after": "{model}, trained",
    "seq.grad.trained.caption": (
        "The recall task's own networks (k = {k}): dashed at their initialisation (seed {seed}), "
        "solid after {steps} Adam steps, on one fresh sentence of {length} random symbols."
    ),
    "seq.grad.not_yet": (
        "Run the recall task (the Recall task view) to see the same curves after training."
    ),
    "seq.quiz.title": "Predict first: who still feels the first token?",
    "seq.quiz.ask": (
        "The first token lies {distance} tokens before the last. Whose last hidden state h_L "
        "feels it most (largest ‖∂h_L/∂x_1‖)?"
    ),
    "seq.quiz.answer": (
        "Largest: **{best}** (‖∂h_L/∂x_1‖ = {norm}). You picked {picked}. The values: {values}."
    ),
    "class.poll.seq.answer": "Largest ‖∂h_L/∂x_1‖: {best} ({norm}).",
    "seq.recall.intro": (
        "A task trained here, now: at every position, name the token k steps back. The sentence "
        "is k + {targets} random symbols out of {vocab} (chance {chance:.3f}); each model and k "
        "is trained from scratch for {steps} Adam steps (seed {seed}), then scored on "
        "{eval} fresh sentences."
    ),
    "seq.recall.start": "Train the recall task",
    "seq.recall.progress": "Training: {done} of {total} runs, {seconds:.0f} s so far",
    "seq.recall.title": "Recall the token k steps back: accuracy",
    "seq.recall.x": "k (tokens back, log scale)",
    "seq.recall.y": "accuracy on fresh sentences",
    "seq.recall.chance": "chance",
    "seq.recall.caption": (
        "Trained on this server for {seconds:.0f} s in all, {steps} Adam steps per point, seed "
        "{seed}. What this run showed (accuracy ≥ 0.5 up to): {summary}."
    ),
    "seq.recall.reached": "{model}: k = {k}",
    "seq.recall.never": "{model}: no k",
    "seq.recall.failed": "The recall run failed: {reason}",
    "seq.recall.waiting": "Not trained on this server yet: press the button (it runs in the "
    "background; you can switch views meanwhile).",
    "seq.note": (
        "Why the Transformer replaced them: simple RNNs are hard to train (the gradient over a "
        "long chain vanishes or explodes), and RNNs cannot handle very long text (L steps one "
        "after another, and a path of length L between the first token and the last). "
        "Attention takes one step and a path of length 1."
    ),
}

ZH = {
    "seq.nav": "序列模型",
    "seq.title": "注意力之前：n 元窗口、RNN、LSTM 与 GRU",
    "seq.intro": (
        "在 Transformer 之前，序列是按顺序读的。**前馈 n 元窗口模型**（Bengio 等，2003）把位置 t "
        "之前 n − 1 个词元的嵌入拼接起来，过一层 tanh：更早的词元完全够不着。**简单 RNN**（循环神经"
        "网络，recurrent neural network）把隐藏状态从一个词元传到下一个："
        "h_i = σ(U h_(i−1) + V x_i + b)；**双向 RNN** 再从右往左跑一条链，所以每个输出宽 2d。"
        "**LSTM** 和 **GRU** 加入门控（gate），决定保留什么。下面它们和一层自注意力（注意力，"
        "attention）读同一个句子，权重都由同一个种子抽取。"
    ),
    "seq.text": "句子",
    "seq.default_text": "猫坐在垫子上，因为它累了。",
    "seq.window": "n 元窗口的 n",
    "seq.window.help": "窗口模型只读每个位置之前的 n − 1 个词元，不多不少。",
    "seq.seed": "随机种子",
    "seq.seed.help": "决定嵌入表和每个模型的权重。",
    "seq.empty": "句子是空的。请至少输入一个词。",
    "seq.too_short": (
        "n 元窗口要读 {context} 个词元，但句子只有 {tokens} 个：请把 n 调小，或把句子写长。"
    ),
    "seq.view": "视图",
    "seq.view.states": "隐藏状态",
    "seq.view.steps": "步数与路径长度",
    "seq.view.gradient": "梯度随距离的变化",
    "seq.view.recall": "回忆任务",
    "seq.model.ngram": "n 元窗口",
    "seq.model.rnn": "循环网络 RNN",
    "seq.model.birnn": "双向 RNN",
    "seq.model.lstm": "长短期记忆 LSTM",
    "seq.model.gru": "门控循环单元 GRU",
    "seq.model.attention": "自注意力",
    "seq.tokens": "{n} 个词元（{tokenizer} 的 WordPiece）：{tokens}",
    "seq.unknown": (
        "{total} 个词元中有 {n} 个是 [UNK]：MiniLM 的词表里没有它们，所以它们共用嵌入表的同一行。"
        "在中文界面里，一旦构建了 MiniLM + 中文（训练页），它的词表就能把中文切成它认识的字。"
    ),
    "seq.states.all": "每个模型的隐藏状态 h_1 … h_L，逐个词元",
    "seq.states.title": "{model}：h_1 … h_L（每个词元 {width} 个数）",
    "seq.states.unit": "隐藏单元",
    "seq.states.token": "词元",
    "seq.states.value": "h",
    "seq.states.caption": (
        "每一行是一个词元的隐藏状态。随机初始化，种子 {seed}：每个词元的嵌入是随机的一行"
        "（N(0, 1)，{d} 个数），模型都没有训练，所以数值只是示意；不同的是谁能看到什么。"
        "双向 RNN 的一行宽 2 × {d}：先是从左到右，再是从右到左。"
    ),
    "seq.gates.all": "每个词元的门（各为 {d} 个单元的平均）",
    "seq.gates.title.lstm": "LSTM 每个词元的门（{d} 个单元的平均）",
    "seq.gates.title.gru": "GRU 每个词元的门（{d} 个单元的平均）",
    "seq.gates.gate": "门",
    "seq.gates.value": "平均",
    "seq.gate.i": "i：输入门",
    "seq.gate.f": "f：遗忘门",
    "seq.gate.g": "g：候选值",
    "seq.gate.o": "o：输出门",
    "seq.gate.r": "r：重置门",
    "seq.gate.z": "z：更新门",
    "seq.gate.n": "n：候选值",
    "seq.gates.caption": (
        "i、f、o（LSTM）和 r、z（GRU）是 0 到 1 之间的 sigmoid 门；g 和 n 是 −1 到 1 之间的 "
        "tanh 候选值。种子 {seed}，未训练：训练过的 LSTM 会学会何时遗忘。"
    ),
    "seq.window.title": "位置 t 能读到什么：n 元窗口（n = {n}）",
    "seq.window.read": "被读的词元",
    "seq.window.at": "位置 t",
    "seq.window.value": "可读",
    "seq.window.yes": "在窗口内",
    "seq.window.no": "够不着",
    "seq.window.caption": (
        "硬性限制：位置 t 恰好读它之前的 {context} 个词元。更早的词元无论权重如何都够不着；"
        "RNN 能读到之前所有词元，注意力能读到每一个词元。"
    ),
    "seq.steps.intro": (
        "Vaswani 等（2017，表 1）用两样东西比较各种层：必须一个接一个执行的步数，以及信号从一个"
        "词元走到另一个词元的最长路径。这里两者都从实际运行中数出来，并对 L = 16、64、256 个词元"
        "各计时一次前向计算：我们的 Python 循环跑 L 步单元，对比一次带掩码的矩阵乘法。"
    ),
    "seq.steps.col.model": "模型",
    "seq.steps.col.length": "L",
    "seq.steps.col.steps": "顺序步数",
    "seq.steps.col.path": "最长路径",
    "seq.steps.col.ms": "毫秒（实测）",
    "seq.steps.col.ratio": "× 注意力的时间",
    "seq.steps.title": "一次前向计算，此刻在本服务器上实测",
    "seq.steps.x": "句子长度 L（词元）",
    "seq.steps.y": "时间（毫秒，对数刻度）",
    "seq.steps.caption": (
        "于 {when}（UTC）在本服务器上实测：7 次前向计算中最快的一次，批大小 1，d = 64，随机初始化，"
        "种子 0。时间取决于服务器和它同时在跑的任务；请在同一次测量内比较各模型。顺序步数："
        "RNN 和 LSTM 为 L，注意力为 1。"
    ),
    "seq.steps.again": "重新测量",
    "seq.grad.title": "‖∂h_L/∂x_t‖：最后一个位置对词元 t 有多敏感",
    "seq.grad.x": "距离 L − t（往回数的词元数）",
    "seq.grad.y": "‖∂h_L/∂x_t‖（对数刻度）",
    "seq.grad.caption": (
        "你的句子（{n} 个词元），随机初始化，种子 {seed}，未训练。RNN 的梯度是每个词元一个步骤"
        "雅可比矩阵的连乘，所以随距离变小；注意力一步就能到达每个词元。为零的值不画在对数轴上。"
    ),
    "seq.grad.trained.title": "在回忆任务（k = {k}）上训练前后",
    "seq.grad.before": "{model}，初始化",
    "seq.grad.after": "{model}，训练后",
    "seq.grad.trained.caption": (
        "回忆任务自己的网络（k = {k}）：虚线是初始化时（种子 {seed}），实线是 {steps} 步 Adam "
        "之后，在一个由 {length} 个随机符号组成的新句子上。"
    ),
    "seq.grad.not_yet": "先运行回忆任务（“回忆任务”视图），就能看到训练后的同一组曲线。",
    "seq.quiz.title": "先预测：谁还能感受到第一个词元？",
    "seq.quiz.ask": (
        "第一个词元在最后一个词元之前 {distance} 个位置。谁的最后隐藏状态 h_L 对它最敏感"
        "（‖∂h_L/∂x_1‖ 最大）？"
    ),
    "seq.quiz.answer": "最大的是 **{best}**（‖∂h_L/∂x_1‖ = {norm}）。你选的是 {picked}。各值：{values}。",
    "class.poll.seq.answer": "‖∂h_L/∂x_1‖ 最大的是：{best}（{norm}）。",
    "seq.recall.intro": (
        "一个就在这里、现在训练的任务：在每个位置，说出 k 步之前的词元。句子由 k + {targets} 个"
        "随机符号组成，共 {vocab} 种符号（随机猜的正确率 {chance:.3f}）；每个模型、每个 k 都从头"
        "训练 {steps} 步 Adam（种子 {seed}），再在 {eval} 个新句子上打分。"
    ),
    "seq.recall.start": "训练回忆任务",
    "seq.recall.progress": "训练中：{total} 次中的第 {done} 次，已用 {seconds:.0f} 秒",
    "seq.recall.title": "回忆 k 步之前的词元：正确率",
    "seq.recall.x": "k（往回数的词元数，对数刻度）",
    "seq.recall.y": "新句子上的正确率",
    "seq.recall.chance": "随机猜",
    "seq.recall.caption": (
        "在本服务器上共训练 {seconds:.0f} 秒，每个点 {steps} 步 Adam，种子 {seed}。这次运行显示"
        "（正确率 ≥ 0.5 直到）：{summary}。"
    ),
    "seq.recall.reached": "{model}：k = {k}",
    "seq.recall.never": "{model}：没有任何 k",
    "seq.recall.failed": "回忆任务运行失败：{reason}",
    "seq.recall.waiting": "本服务器上还没有训练过：请按按钮（它在后台运行，其间可以切换视图）。",
    "seq.note": (
        "为什么 Transformer 取代了它们：简单 RNN 难以训练（长链上的梯度会消失或爆炸），RNN 也"
        "处理不了很长的文本（L 步必须一个接一个执行，第一个词元到最后一个词元的路径长为 L）。"
        "注意力只需一步，路径长度为 1。"
    ),
}
