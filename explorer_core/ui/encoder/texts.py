"""Texts of the Inside the encoder page (and its screen in the guided lesson)."""

EN = {
    "enc.nav": "Inside the encoder",
    "enc.title": "Inside the encoder: one layer, every number",
    "enc.intro": (
        "Attention is only the first half of a BERT layer. After it come the output projection "
        "W_O, a residual add, LayerNorm, the feed-forward network (前馈网络 feed-forward: expand, "
        "GELU, restore), a second residual add and a second LayerNorm; then the same again in "
        "the next layer. Every number below comes from this app's own BERT code (the same code "
        "the Attention page runs), traced step by step."
    ),
    "enc.default_text": "I sat by the bank of the river.",
    "enc.default_edit": "I sat by the bank of the lake.",
    "enc.default_own": "The bank raised its rates.\nWe fished from the bank of the river.",
    "enc.default_word": "bank",
    "enc.text": "Sentence",
    "enc.source": "Model",
    "enc.view": "View",
    "enc.view.layer": "One layer, every number",
    "enc.view.mixing": "Who wrote into this vector",
    "enc.view.stack": "Layer by layer",
    "enc.view.contexts": "One word, many contexts",
    "enc.view.decoder": "Encoder against decoder",
    "enc.view.families": "How encoders differ",
    "enc.layer": "Layer",
    "enc.token": "Token",
    "enc.empty": "The sentence is empty. Type at least one word.",
    "enc.too_long": (
        "The input has {n} tokens, but this model has only {limit} positions. Shorten the text."
    ),
    "enc.missing": (
        "This view needs the encoder analyses (explorer_core.analysis.encoder), which this "
        "install does not have yet."
    ),
    "enc.shape": "{name} ({shape})",
    # ---- one layer
    "enc.flow.title": "Layer {layer}, token “{token}”: every step",
    "enc.flow.x": "dimension",
    "enc.flow.value": "value ÷ row's largest |value|",
    "enc.flow.caption": (
        "Each row is one vector of the token “{token}” on its way through layer {layer}, "
        "coloured by its value divided by the row's largest absolute value (hover for the real "
        "number; the right column gives each row's length ‖v‖). Rows of width {h} are the "
        "hidden size, of width {i} the feed-forward's inner size. Source: {src}."
    ),
    "enc.step.input": "x: the layer's input",
    "enc.step.ln_in": "LayerNorm(x) (pre-LN: before attention)",
    "enc.step.heads": "heads' outputs side by side = concat",
    "enc.step.wo": "× W_O: the attention's update",
    "enc.step.res1": "x + update (residual)",
    "enc.step.ln1": "LayerNorm: (v − mean) / std · γ + β",
    "enc.step.ln_ffn": "LayerNorm (pre-LN: before the FFN)",
    "enc.step.up": "× W_1 + b_1: up-projection",
    "enc.step.gelu": "GELU",
    "enc.step.no_ln": "no LayerNorm here: layer 1 reads the embeddings, just normalised",
    "enc.step.glu_in": "× W_in: the input half of the up-projection (GeGLU)",
    "enc.step.gate": "× W_gate: the gate half of the up-projection",
    "enc.step.glu": "GELU(input half) ⊙ gate: what W_2 reads",
    "enc.local": (
        "Layer {layer} is a **local** layer: each token sees only the keys within ±{w} "
        "positions of itself (a sliding window; the others get weight 0), and its rotary "
        "positions turn with base {base:,.0f}. Every {n}-th layer is global."
    ),
    "enc.global_rope": (
        "Layer {layer} is a **global** layer: every token sees every token, and its rotary "
        "positions turn with base {base:,.0f}."
    ),
    "enc.step.down": "× W_2 + b_2: down-projection",
    "enc.step.res2": "+ residual",
    "enc.step.ln2": "LayerNorm = the next layer's input",
    "enc.step.out": "output = the next layer's input",
    "enc.step.gamma": "γ of this LayerNorm",
    "enc.step.beta": "β of this LayerNorm",
    "enc.norm.col": "‖v‖",
    "enc.order.post": (
        "**Post-LN (BERT, MiniLM):** x → attention → x + update → LayerNorm → FFN → + residual "
        "→ LayerNorm. The LayerNorm sits on the main path, after each add."
    ),
    "enc.order.pre": (
        "**Pre-LN (the tutorial preset):** x → LayerNorm → attention → x + update → LayerNorm "
        "→ FFN → + residual. The LayerNorm only feeds each sublayer; the main path is never "
        "normalised inside the stack (one final LayerNorm after the last layer)."
    ),
    "enc.metric.attn": "attention update ‖Δ‖ / ‖x‖",
    "enc.metric.ffn": "FFN update ‖Δ‖ / ‖x‖",
    "enc.metric.mean": "LayerNorm mean",
    "enc.metric.std": "LayerNorm std",
    "enc.metric.heads": "heads × width",
    "enc.metric.help": (
        "The length of the update divided by the length of the vector it is added to: 0.1 "
        "means the sublayer nudges the token, 1 means it rewrites it."
    ),
    "enc.ln.head": "LayerNorm, by the numbers",
    "enc.ln.caption": (
        "LayerNorm takes the token's {h} numbers, subtracts their mean ({mean}) and divides by "
        "their standard deviation ({std}), then multiplies each dimension by its learned γ and "
        "adds β. The chart shows the values before (x) and after (y), one dot per dimension: "
        "a straight line would mean γ = 1 and β = 0 everywhere."
    ),
    "enc.ln.title": "LayerNorm of layer {layer}: before and after",
    "enc.ln.before": "before LayerNorm",
    "enc.ln.after": "after LayerNorm",
    "enc.gelu.head": "The feed-forward network: expand, GELU, restore",
    "enc.gelu.title": "GELU of layer {layer}: {i} neurons of “{token}”",
    "enc.gelu.pre": "before GELU (W_1 x + b_1)",
    "enc.gelu.post": "after GELU",
    "enc.gelu.curve": "GELU(z) = z · Φ(z)",
    "enc.gelu.neurons": "neurons",
    "enc.gelu.caption": (
        "Each dot is one of the {i} inner neurons for this token: GELU lets positive values "
        "through almost unchanged and squashes negative ones towards 0 (never below −0.17). "
        "The table lists the most active neurons. FFN weights in this layer: 2 × {h} × {i} = "
        "{ffn} against 4 × {h}² = {attn} for attention."
    ),
    "enc.col.neuron": "neuron",
    "enc.col.pre": "before GELU",
    "enc.col.post": "after GELU",
    "enc.dl.layer": "This layer's steps (JSON)",
    "enc.dl.flow": "This token's steps (CSV)",
    # ---- who wrote into this vector
    "enc.mix.weights": "1. attention weights",
    "enc.mix.norm": "2. × ‖f(x)‖",
    "enc.mix.residual": "3. + residual, LayerNorm",
    "enc.mix.title": "Layer {layer}: how much of each token's output comes from each token",
    "enc.mix.self": "{step}. kept from itself",
    "enc.mix.self.help": "The diagonal's mean: the share of each token's output that is its own.",
    "enc.mix.x": "from token (column)",
    "enc.mix.y": "into token (row)",
    "enc.mix.value": "share",
    "enc.mix.caption": (
        "Layer {layer}. Each row shows how much of that token's new vector comes from each "
        "token (rows sum to 1). **1:** the attention weights, averaged over the heads. **2:** "
        "each weight times the length of the transformed value vector it mixes in, ‖α f(x)‖ "
        "(Kobayashi et al. 2020): "
        "[CLS], [SEP] and punctuation get large weights but small vectors, so their columns "
        "fade. **3:** the residual path and LayerNorm included (Kobayashi et al. 2021): most of "
        "each token's output is "
        "its own input (the diagonal), attention adds the rest. Source: {src}."
    ),
    "enc.dl.mix": "The three matrices (JSON)",
    # ---- layer by layer
    "enc.grid.move": "How far each token moves, layer by layer",
    "enc.grid.norm": "Each token's length, layer by layer",
    "enc.grid.x": "layer (0 = embeddings)",
    "enc.grid.y": "token",
    "enc.grid.move.value": "1 − cos(h_l, h_(l−1))",
    "enc.grid.norm.value": "‖h_l‖",
    "enc.grid.caption": (
        "Left: how much each token's vector turns in each layer, 1 − cosine between its vectors "
        "before and after the layer (0: unchanged direction). Right: each vector's length. "
        "Column 0 is the embedding layer's output. Source: {src}."
    ),
    "enc.pooled.title": "The pooled sentence vector (mean over tokens) at each layer",
    "enc.pooled.x": "dimension",
    "enc.pooled.y": "layer",
    "enc.pooled.value": "value",
    "enc.pooled.caption": (
        "Mean pooling of every layer's token vectors; the last row is what the Similarity page "
        "compares (before normalisation). Source: {src}."
    ),
    "enc.cross.head": "Where do the two languages meet?",
    "enc.cross.en": "English sentence",
    "enc.cross.zh": "Its Chinese translation",
    "enc.cross.title": "Cosine of the two sentences' pooled vectors, layer by layer",
    "enc.cross.y": "cosine",
    "enc.cross.caption": (
        "MiniLM + 中文: the English sentence and its Chinese translation, mean-pooled at every "
        "layer and compared. A rising line means the layers map the two languages towards the "
        "same place. Source: {src}."
    ),
    "enc.cross.only_taught": (
        "The two-language comparison needs MiniLM + 中文 (pick it as the model once it is built)."
    ),
    "enc.lens.head": "Logit lens: what would the MLM head say at each layer?",
    "enc.lens.caption": (
        "A logit lens: every layer's vector of each token sent through the model's own masked "
        "language model head (trained for the last layer only), top word per cell. Earlier "
        "layers were never trained to be read this way, so treat it as a probe, not the "
        "model's belief. Source: {src}."
    ),
    "enc.lens.none": (
        "No logit lens here: this app runs the encoder without a masked-language-model head "
        "(MiniLM was distilled into a sentence encoder and its head was dropped; an opened model "
        "is read without its head). Pre-train a model on the Train page to see one."
    ),
    "enc.lens.finetuned": (
        "No logit lens for this model: fine-tuning moved its layers away from what its MLM head "
        "learnt to read, so the head was not kept. On the Train page, pre-train with 0 "
        "fine-tuning steps to see the lens on a model whose head still fits it."
    ),
    "enc.dl.stack": "Token × layer numbers (CSV)",
    "enc.dl.pooled": "Pooled vectors per layer (JSON)",
    # ---- many contexts
    "enc.set": "Sentences",
    "enc.set.bank": "bank (river / money)",
    "enc.set.apple": "苹果 (fruit / company)",
    "enc.set.da": "打 (打电话 / 打篮球 / 打车)",
    "enc.set.own": "My own",
    "enc.own": "Your sentences, one per line",
    "enc.word": "The word to follow",
    "enc.standardize": "Standardise dimensions",
    "enc.standardize.help": (
        "Subtract each dimension's mean and divide by its standard deviation (over the tokens "
        "of these sentences) before the cosine: a few rogue dimensions with huge values "
        "otherwise dominate every cosine."
    ),
    "enc.ctx.title": "“{word}” in {n} sentences: how alike are its vectors at each layer?",
    "enc.ctx.x": "layer (0 = embeddings)",
    "enc.ctx.y": "mean cosine",
    "enc.ctx.self": "self-similarity of “{word}”",
    "enc.ctx.base": "random token pairs (baseline)",
    "enc.ctx.adjusted": "self-similarity − baseline",
    "enc.ctx.caption": (
        "Self-similarity: the mean cosine between the word's vectors in different sentences. "
        "Baseline: the mean cosine of random pairs of tokens at the same layer (anisotropy, "
        "Ethayarajh 2019): even unrelated tokens point the same way. What matters is the gap. "
        "At layer 0 the vectors are almost the same (only the position differs); the deeper "
        "the layer, the more each sentence pulls its own “{word}” apart. Source: {src}."
    ),
    "enc.ctx.no_word": "“{word}” does not occur in these sentences. Pick a word that does.",
    "enc.ctx.few": "Give a word and at least two sentences that contain it.",
    "enc.ctx.unknown": (
        "This model does not know “{word}” (it becomes [UNK]): pick MiniLM + 中文 for Chinese "
        "words, or another word."
    ),
    "enc.ctx.within": "pairs with the same sense",
    "enc.ctx.across": "pairs with different senses",
    "enc.ctx.sense": "sense",
    "enc.ctx.sentences": "The sentences",
    "enc.dl.ctx": "Self-similarity per layer (CSV)",
    # ---- encoder against decoder
    "enc.edit": "The same sentence with one word changed",
    "enc.dec.bert": "BERT's mask (encoder): every token sees every token",
    "enc.dec.causal": "Causal mask (decoder): a token sees only the past",
    "enc.dec.x": "layer (0 = embeddings)",
    "enc.dec.y": "token",
    "enc.dec.value": "‖Δh‖",
    "enc.dec.caption": (
        "The same weights run twice on each sentence, once with BERT's mask and once with a "
        "causal mask; each cell is how far that token's vector moved when the edit was made. "
        "With the causal mask every row before the edit (token {pos}) is exactly 0 in every "
        "layer: nothing before a word can see it. With BERT's mask every row moves. "
        "Source: {src}."
    ),
    "enc.dec.same_length": (
        "The edited sentence must have the same number of tokens ({n}) as the sentence above; "
        "it has {m}. Change one word for one word."
    ),
    "enc.dec.same": "The two sentences are the same: change one word.",
    "enc.dec.zero": "Rows before the edit with the causal mask: largest ‖Δh‖ = {value}.",
    "enc.dec.explain": (
        "**Trained for what?** BERT is trained to fill in masked words from both sides, so each "
        "token's vector mixes in the whole sentence, and averaging them gives a good sentence "
        "vector. A decoder (GPT) is trained to predict the next token, so it may only look back: "
        "its early tokens know nothing of the rest, and only the last token has seen the whole "
        "sentence — decoders' sentence vectors usually take the last token, not the mean."
    ),
    "enc.dl.dec": "Both change matrices (JSON)",
    # ---- predict first
    "enc.quiz.title": "Which writes more into this token here?",
    "enc.quiz.ask": (
        "In layer {layer}, which changes the vector of “{token}” more (its update's length "
        "next to the vector it is added to): attention or the feed-forward network?"
    ),
    "enc.quiz.attention": "attention · 注意力",
    "enc.quiz.ffn": "feed-forward · 前馈",
    "enc.quiz.answer": (
        "Attention's update is {attn} of the vector it is added to, the feed-forward's {ffn} "
        "(‖Δ‖ / ‖x‖): **{best}** changes “{token}” more in layer {layer}. You picked {picked}."
    ),
    "class.poll.enc.answer": "‖Δ‖ / ‖x‖ of attention's update: {attn}; of the feed-forward's: {ffn}.",
    "enc.note": (
        "These are the model's real intermediate values, but a large number is not an "
        "explanation: a dimension can be large and unused, and the same output can be reached "
        "in many ways."
    ),
}

ZH = {
    "enc.nav": "编码器内部",
    "enc.title": "编码器内部：一层里的每一个数",
    "enc.intro": (
        "注意力只是 BERT 一层的前一半。它之后还有输出投影 W_O、残差相加、层归一化 (LayerNorm)、"
        "前馈网络 (feed-forward：先升维、再 GELU、再降维)、第二次残差相加和第二次层归一化；"
        "然后下一层再来一遍。下面的每个数都来自本应用自己的 BERT 代码（与“注意力”页面相同的代码），"
        "逐步追踪得到。"
    ),
    "enc.default_text": "我今天买了一个苹果，味道很甜。",
    "enc.default_edit": "我今天买了一个梨子，味道很甜。",
    # 行: a bank (银行), "works" (行不通), a group (一行人); in MiniLM's vocabulary too
    "enc.default_own": "银行今天不开门。\n这个办法行不通。\n我们一行人去了北京。",
    "enc.default_word": "行",
    "enc.text": "句子",
    "enc.source": "模型",
    "enc.view": "视图",
    "enc.view.layer": "一层里的每一个数",
    "enc.view.mixing": "谁写进了这个向量",
    "enc.view.stack": "一层接一层",
    "enc.view.contexts": "一个词，多种语境",
    "enc.view.decoder": "编码器对比解码器",
    "enc.view.families": "编码器之间的差别",
    "enc.layer": "层",
    "enc.token": "词元",
    "enc.empty": "句子是空的。请至少输入一个词。",
    "enc.too_long": "输入有 {n} 个词元，但这个模型只有 {limit} 个位置。请缩短文本。",
    "enc.missing": "这个视图需要编码器分析模块（explorer_core.analysis.encoder），本机还没有安装。",
    "enc.shape": "{name}（{shape}）",
    "enc.flow.title": "第 {layer} 层，词元“{token}”：每一步",
    "enc.flow.x": "维度",
    "enc.flow.value": "数值 ÷ 本行最大的 |数值|",
    "enc.flow.caption": (
        "每一行是词元“{token}”在第 {layer} 层中经过的一个向量，颜色是数值除以这一行最大的绝对值"
        "（鼠标悬停可看到真实数值；右边一列是每行的长度 ‖v‖）。宽 {h} 的行是隐藏层大小，"
        "宽 {i} 的行是前馈网络内部的大小。来源：{src}。"
    ),
    "enc.step.input": "x：这一层的输入",
    "enc.step.ln_in": "LayerNorm(x)（前置归一化：注意力之前）",
    "enc.step.heads": "各个头的输出并排 = 拼接",
    "enc.step.wo": "× W_O：注意力的更新量",
    "enc.step.res1": "x + 更新量（残差）",
    "enc.step.ln1": "层归一化：(v − 均值) / 标准差 · γ + β",
    "enc.step.ln_ffn": "层归一化（前置：前馈网络之前）",
    "enc.step.up": "× W_1 + b_1：升维投影",
    "enc.step.gelu": "GELU 激活",
    "enc.step.no_ln": "这里没有层归一化：第 1 层直接读取刚归一化过的嵌入",
    "enc.step.glu_in": "× W_in：升维投影的输入半部分（GeGLU）",
    "enc.step.gate": "× W_gate：升维投影的门控半部分",
    "enc.step.glu": "GELU(输入半部分) ⊙ 门控：W_2 读取的向量",
    "enc.local": (
        "第 {layer} 层是**局部**层：每个词元只看到自身前后 ±{w} 个位置内的键（滑动窗口；其余的权重为 0），"
        "它的旋转位置编码以 {base:,.0f} 为底。每隔 {n} 层有一个全局层。"
    ),
    "enc.global_rope": (
        "第 {layer} 层是**全局**层：每个词元都能看到所有词元，它的旋转位置编码以 {base:,.0f} 为底。"
    ),
    "enc.step.down": "× W_2 + b_2：降维投影",
    "enc.step.res2": "+ 残差",
    "enc.step.ln2": "层归一化 = 下一层的输入",
    "enc.step.out": "输出 = 下一层的输入",
    "enc.step.gamma": "这次层归一化的 γ",
    "enc.step.beta": "这次层归一化的 β",
    "enc.norm.col": "‖v‖",
    "enc.order.post": (
        "**后置归一化 (post-LN，BERT、MiniLM)：** x → 注意力 → x + 更新量 → 层归一化 → 前馈网络 "
        "→ + 残差 → 层归一化。层归一化位于主通路上，在每次相加之后。"
    ),
    "enc.order.pre": (
        "**前置归一化 (pre-LN，教程预设)：** x → 层归一化 → 注意力 → x + 更新量 → 层归一化 "
        "→ 前馈网络 → + 残差。层归一化只给子层提供输入；主通路在各层之间从不被归一化"
        "（最后一层之后有一次最终的层归一化）。"
    ),
    "enc.metric.attn": "注意力更新量 ‖Δ‖ / ‖x‖",
    "enc.metric.ffn": "前馈更新量 ‖Δ‖ / ‖x‖",
    "enc.metric.mean": "层归一化的均值",
    "enc.metric.std": "层归一化的标准差",
    "enc.metric.heads": "头数 × 宽度",
    "enc.metric.help": (
        "更新量的长度除以它被加到的那个向量的长度：0.1 表示子层轻轻推了一下这个词元，"
        "1 表示几乎把它重写了。"
    ),
    "enc.ln.head": "层归一化，逐个数字看",
    "enc.ln.caption": (
        "层归一化拿到这个词元的 {h} 个数，减去它们的均值（{mean}），除以它们的标准差（{std}），"
        "再把每一维乘以学到的 γ、加上 β。图中横轴是归一化之前、纵轴是之后的值，每个点是一维："
        "如果处处 γ = 1、β = 0，这些点就会落在一条直线上。"
    ),
    "enc.ln.title": "第 {layer} 层的层归一化：之前与之后，每个点是一维",
    "enc.ln.before": "层归一化之前",
    "enc.ln.after": "层归一化之后",
    "enc.gelu.head": "前馈网络：升维、GELU、降维",
    "enc.gelu.title": "第 {layer} 层的 GELU：“{token}”的 {i} 个神经元",
    "enc.gelu.pre": "GELU 之前（W_1 x + b_1）",
    "enc.gelu.post": "GELU 之后",
    "enc.gelu.curve": "GELU(z) = z · Φ(z)",
    "enc.gelu.neurons": "神经元",
    "enc.gelu.caption": (
        "每个点是这个词元的 {i} 个内部神经元之一：GELU 让正值几乎原样通过，把负值压向 0"
        "（永远不低于 −0.17）。表格列出最活跃的神经元。这一层前馈网络的权重：2 × {h} × {i} = "
        "{ffn}，注意力只有 4 × {h}² = {attn}。"
    ),
    "enc.col.neuron": "神经元",
    "enc.col.pre": "GELU 之前",
    "enc.col.post": "GELU 之后",
    "enc.dl.layer": "这一层的每一步（JSON）",
    "enc.dl.flow": "这个词元的每一步（CSV）",
    "enc.mix.weights": "1. 注意力权重",
    "enc.mix.norm": "2. × ‖f(x)‖",
    "enc.mix.residual": "3. + 残差、层归一化",
    "enc.mix.title": "第 {layer} 层：每个词元的输出有多少来自各个词元",
    "enc.mix.self": "{step}. 来自自身的份额",
    "enc.mix.self.help": "对角线的平均值：每个词元的输出中属于它自己的份额。",
    "enc.mix.x": "来自词元（列）",
    "enc.mix.y": "写入词元（行）",
    "enc.mix.value": "份额",
    "enc.mix.caption": (
        "第 {layer} 层。每一行表示这个词元的新向量有多少来自各个词元（每行之和为 1）。"
        "**1：** 注意力权重，在各个头上取平均。**2：** 每个权重乘以它混入的变换后值向量的长度 "
        "‖α f(x)‖（Kobayashi 等 2020）：[CLS]、[SEP] 和标点得到的权重大，但向量短，所以它们的列变淡了。"
        "**3：** 加上残差通路和层归一化（Kobayashi 等 2021）：每个词元的输出大部分是它自己的输入（对角线），"
        "注意力只补上其余部分。来源：{src}。"
    ),
    "enc.dl.mix": "这三个矩阵（JSON）",
    "enc.grid.move": "每个词元在每一层移动了多远",
    "enc.grid.norm": "每个词元在每一层的长度",
    "enc.grid.x": "层（0 = 嵌入）",
    "enc.grid.y": "词元",
    "enc.grid.move.value": "1 − cos(h_l, h_(l−1))",
    "enc.grid.norm.value": "‖h_l‖",
    "enc.grid.caption": (
        "左：每个词元的向量在每一层转了多少，即这一层前后两个向量的 1 − 余弦（0：方向不变）。"
        "右：每个向量的长度。第 0 列是嵌入层的输出。来源：{src}。"
    ),
    "enc.pooled.title": "每一层的池化句向量（词元平均）",
    "enc.pooled.x": "维度",
    "enc.pooled.y": "层",
    "enc.pooled.value": "数值",
    "enc.pooled.caption": (
        "对每一层的词元向量做平均池化；最后一行就是“相似度”页面比较的向量（归一化之前）。"
        "来源：{src}。"
    ),
    "enc.cross.head": "两种语言在哪里相遇？",
    "enc.cross.en": "英文句子",
    "enc.cross.zh": "它的中文翻译",
    "enc.cross.title": "两个句子池化向量的余弦，一层接一层",
    "enc.cross.y": "余弦",
    "enc.cross.caption": (
        "MiniLM + 中文：英文句子和它的中文翻译，在每一层做平均池化后比较。曲线上升，"
        "说明这些层把两种语言映射到同一个地方。来源：{src}。"
    ),
    "enc.cross.only_taught": "两种语言的比较需要 MiniLM + 中文（构建之后把它选为模型）。",
    "enc.lens.head": "逻辑透镜 (logit lens)：每一层的 MLM 头会说什么？",
    "enc.lens.caption": (
        "逻辑透镜：把每个词元在每一层的向量送进模型自己的掩码语言模型头"
        "（它只为最后一层训练过），每格显示排名第一的词。前面的层从没被训练成可以这样读，"
        "所以这只是一种探针，不是模型的“想法”。来源：{src}。"
    ),
    "enc.lens.none": (
        "这里没有逻辑透镜：本应用运行的编码器没有掩码语言模型头（MiniLM 被蒸馏成句子编码器，"
        "去掉了它的头；打开的模型也不读取它的头）。在“训练”页面预训练一个模型就能看到。"
    ),
    "enc.lens.finetuned": (
        "这个模型没有逻辑透镜：微调让它的各层离开了 MLM 头学会读取的样子，所以没有保留这个头。"
        "在“训练”页面把微调步数设为 0、只做预训练，就能在头仍然匹配的模型上看到透镜。"
    ),
    "enc.dl.stack": "词元 × 层 的数字（CSV）",
    "enc.dl.pooled": "每层的池化向量（JSON）",
    "enc.set": "句子",
    "enc.set.bank": "bank（河岸 / 银行）",
    "enc.set.apple": "苹果（水果 / 公司）",
    "enc.set.da": "打（打电话 / 打篮球 / 打车）",
    "enc.set.own": "我自己的",
    "enc.own": "你的句子，每行一句",
    "enc.word": "要追踪的词",
    "enc.standardize": "标准化各维",
    "enc.standardize.help": (
        "在计算余弦之前，每一维减去均值、除以标准差（在这些句子的词元上统计）："
        "否则少数几个数值特别大的“异常维度”会主导每一个余弦。"
    ),
    "enc.ctx.title": "“{word}”出现在 {n} 个句子里：它的向量在每一层有多相似？",
    "enc.ctx.x": "层（0 = 嵌入）",
    "enc.ctx.y": "平均余弦",
    "enc.ctx.self": "“{word}”的自相似度",
    "enc.ctx.base": "随机词元对（基线）",
    "enc.ctx.adjusted": "自相似度 − 基线",
    "enc.ctx.caption": (
        "自相似度：这个词在不同句子里的向量两两之间的平均余弦。基线：同一层随机词元对的平均余弦"
        "（各向异性，Ethayarajh 2019）：即使毫不相关的词元也指向差不多的方向，重要的是两者之差。"
        "第 0 层的向量几乎相同（只差位置）；层越深，每个句子越把自己的“{word}”拉开。来源：{src}。"
    ),
    "enc.ctx.no_word": "这些句子里没有“{word}”。请选一个出现过的词。",
    "enc.ctx.few": "请给出一个词，以及至少两个包含它的句子。",
    "enc.ctx.unknown": "这个模型不认识“{word}”（它变成了 [UNK]）：中文词请选 MiniLM + 中文，或换一个词。",
    "enc.ctx.within": "同一词义的句子对",
    "enc.ctx.across": "不同词义的句子对",
    "enc.ctx.sense": "词义",
    "enc.ctx.sentences": "这些句子",
    "enc.dl.ctx": "每层的自相似度（CSV）",
    "enc.edit": "同一个句子，改掉一个词",
    "enc.dec.bert": "BERT 的掩码（编码器）：每个词元看到所有词元",
    "enc.dec.causal": "因果掩码（解码器）：词元只能看到过去",
    "enc.dec.x": "层（0 = 嵌入）",
    "enc.dec.y": "词元",
    "enc.dec.value": "‖Δh‖",
    "enc.dec.caption": (
        "同样的权重在每个句子上各跑两次，一次用 BERT 的掩码，一次用因果掩码；每格是改词之后"
        "这个词元的向量移动了多远。用因果掩码时，改动位置（第 {pos} 个词元）之前的每一行在每一层"
        "都正好是 0：前面的词看不到后面的词。用 BERT 的掩码时，每一行都在变。来源：{src}。"
    ),
    "enc.dec.same_length": (
        "改过的句子必须和上面的句子有同样多的词元（{n} 个）；它有 {m} 个。请用一个词替换一个词。"
    ),
    "enc.dec.same": "两个句子一样：请改掉一个词。",
    "enc.dec.zero": "因果掩码下改动之前的各行：最大的 ‖Δh‖ = {value}。",
    "enc.dec.explain": (
        "**为什么而训练？** BERT 被训练成从两边填出被遮住的词，所以每个词元的向量都混入了整个句子，"
        "把它们平均起来就是一个好的句向量。解码器（GPT）被训练成预测下一个词元，所以只能往回看："
        "前面的词元对后文一无所知，只有最后一个词元看过整个句子——解码器的句向量通常取最后一个词元，"
        "而不是平均。"
    ),
    "enc.dl.dec": "两个变化矩阵（JSON）",
    "enc.quiz.title": "在这里，谁往这个词元写得更多？",
    "enc.quiz.ask": (
        "在第 {layer} 层，注意力和前馈网络，谁让“{token}”的向量变得更多"
        "（更新量的长度与它所加到的向量相比）？"
    ),
    "enc.quiz.attention": "attention · 注意力",
    "enc.quiz.ffn": "feed-forward · 前馈",
    "enc.quiz.answer": (
        "注意力的更新量是它所加到的向量的 {attn}，前馈网络的是 {ffn}（‖Δ‖ / ‖x‖）："
        "在第 {layer} 层，**{best}** 让“{token}”变得更多。你选的是 {picked}。"
    ),
    "class.poll.enc.answer": "注意力更新量的 ‖Δ‖ / ‖x‖：{attn}；前馈网络的：{ffn}。",
    "enc.note": (
        "这些是模型真实的中间值，但数值大并不等于解释：某一维可以很大却没被用到，"
        "同一个输出也可以由许多方式得到。"
    ),
}
