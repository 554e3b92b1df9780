"""Texts of the Embedding sum page."""

# example inputs, one per language: an untouched default follows the UI language (a link
# carries only text that differs from its language's default, so it still means one view)
EXAMPLES = {
    "emb.sum.default_a": "The cat sat on the mat.",
    "emb.sum.default_b": "It fell asleep in the sun.",
}
EXAMPLES_ZH = {  # a sentence pair: segment A, then segment B
    "emb.sum.default_a": "猫坐在垫子上。",
    "emb.sum.default_b": "它在阳光下睡着了。",
}

EN = {
    **EXAMPLES,
    "emb.sum.dl.table": "This table (CSV)",
    "emb.sum.dl.parts": "Every part, every token (JSON)",
    "emb.sum.dl.ln": "LayerNorm steps (CSV)",
    "emb.sum.dl.output": "What enters layer 1 (CSV)",
    "emb.sum.title": "The embedding sum: what enters layer 1",
    "emb.sum.intro": (
        "BERT's input for a sentence pair is [CLS] A [SEP] B [SEP]. Each token gets three vectors "
        "of the same width: its token embedding (嵌入), its position embedding and its segment "
        "embedding (A or B). They are added, then LayerNorm rescales each token's vector to mean 0 "
        "and spread 1 before a learned scale γ and shift β. The result is exactly what the first "
        "attention layer receives."
    ),
    "emb.sum.a": "Sentence A (segment 0)",
    "emb.sum.b": "Sentence B (segment 1)",
    "emb.sum.empty": "Sentence A is empty. Type a sentence.",
    "emb.sum.too_long": (
        "The pair has {n} tokens but the model has only {max} positions. Shorten the sentences."
    ),
    "emb.sum.no_segments": (
        "This model has no segment embedding, so the segment part is zero for every token."
    ),
    "emb.sum.one_segment": (
        "This model ({family}) has one segment row only: every token adds the same vector, so "
        "the segment part says nothing about which sentence a token is in (the template marks "
        "that with its separator tokens instead)."
    ),
    "emb.sum.offset": (
        "Position ids start at {offset}, not 0 ({family} counts from the padding id + 1): the "
        "first token reads row {offset} of the position table, and rows 0 .. {last} are never "
        "used by a real token."
    ),
    "emb.sum.rotary": (
        "This model ({family}) has no position table: word order enters inside attention, where "
        "rotary positions (RoPE) turn each query and key by its position. So the position part "
        "here is zero, and the sum is the token vector (plus segment, if any)."
    ),
    "emb.sum.projected": (
        "This model ({family}) makes its embeddings {e} wide and normalises them there; a Linear "
        "layer E → H ({e} → {h}) then projects them to the hidden size. What enters layer 1 is "
        "that projection (the last chart below)."
    ),
    "emb.sum.stage.projected": "× W (E → H)",
    "emb.sum.stage.token": "token",
    "emb.sum.stage.position": "+ position",
    "emb.sum.stage.segment": "+ segment",
    "emb.sum.stage.sum": "= sum",
    "emb.sum.stage.output": "LayerNorm(sum)",
    "emb.sum.col.position": "position",
    "emb.sum.col.token": "token",
    "emb.sum.col.id": "id",
    "emb.sum.col.segment": "segment",
    "emb.sum.col.|token|": "|token|",
    "emb.sum.col.|position|": "|position|",
    "emb.sum.col.|segment|": "|segment|",
    "emb.sum.col.|sum|": "|sum|",
    "emb.sum.col.|output|": "|output|",
    "emb.sum.col.mean(sum)": "mean(sum)",
    "emb.sum.col.std(sum)": "std(sum)",
    "emb.sum.table.head": "Every token, part by part",
    "emb.sum.table.caption": (
        "|part| is the length (L2 norm) of each vector; mean and std are taken over the "
        "dimensions of the sum, the two numbers LayerNorm removes."
    ),
    "emb.sum.token.head": "One token, stage by stage",
    "emb.sum.pick": "Token",
    "emb.sum.dims": "Dimensions shown",
    "emb.sum.axis.stage": "stage",
    "emb.sum.stage.title": "'{token}' at position {pos}: the three parts, their sum, LayerNorm",
    "emb.sum.stage.caption": (
        "First {dims} of {hidden} dimensions. Row 4 is rows 1 + 2 + 3 exactly; row 5 is row 4 "
        "after LayerNorm."
    ),
    "emb.sum.ln.mean": "mean μ of the sum",
    "emb.sum.ln.std": "std σ of the sum (with ε)",
    "emb.sum.ln.explain": (
        "LayerNorm, per token: output = (x − μ) / σ × γ + β, with μ and σ taken over this token's "
        "dimensions and γ, β learned per dimension."
    ),
    "emb.sum.ln.x": "x = token + position + segment",
    "emb.sum.ln.norm": "(x − μ) / σ",
    "emb.sum.ln.out": "output (enters layer 1)",
    "emb.sum.overview.head": "All tokens after LayerNorm",
    "emb.sum.overview": "Show the whole input matrix of layer 1",
    "emb.sum.overview.title": "Input of layer 1: one row per token (A/B = segment)",
    "emb.sum.overview.caption": (
        "{n} tokens × {hidden} dimensions: the matrix the first attention layer multiplies by its "
        "query, key and value weights."
    ),
}

ZH = {
    **EXAMPLES_ZH,
    "emb.sum.dl.table": "这张表（CSV）",
    "emb.sum.dl.parts": "每个词元的每个部分（JSON）",
    "emb.sum.dl.ln": "LayerNorm 的各步（CSV）",
    "emb.sum.dl.output": "进入第 1 层的数值（CSV）",
    "emb.sum.title": "嵌入求和：进入第 1 层的是什么",
    "emb.sum.intro": (
        "BERT 对一个句子对的输入是 [CLS] A [SEP] B [SEP]。每个词元 (token) 得到三个宽度相同的向量："
        "词元嵌入 (embedding)、位置嵌入和片段嵌入（A 或 B）。三者相加，然后层归一化 (LayerNorm) "
        "把每个词元的向量缩放到均值 0、离散程度 1，再乘以可学习的缩放 γ、加上平移 β。"
        "结果正是第一层注意力收到的输入。"
    ),
    "emb.sum.a": "句子 A（片段 0）",
    "emb.sum.b": "句子 B（片段 1）",
    "emb.sum.empty": "句子 A 是空的。请输入一个句子。",
    "emb.sum.too_long": "这个句子对有 {n} 个词元，但模型只有 {max} 个位置。请缩短句子。",
    "emb.sum.one_segment": (
        "该模型（{family}）只有一行片段嵌入：每个词元都加上同一个向量，所以片段部分无法区分词元属于哪个句子"
        "（模板改用分隔词元来标记）。"
    ),
    "emb.sum.offset": (
        "位置编号从 {offset} 开始，而不是 0（{family} 从填充编号 + 1 开始计数）：第一个词元读取位置表的第 "
        "{offset} 行，第 0 .. {last} 行从不被真实词元使用。"
    ),
    "emb.sum.rotary": (
        "该模型（{family}）没有位置表：词序在注意力内部进入，旋转位置编码（RoPE）按位置旋转每个查询和键。"
        "所以这里的位置部分为零，和就是词元向量（若有片段，再加片段）。"
    ),
    "emb.sum.projected": (
        "该模型（{family}）的嵌入只有 {e} 维，并在这个宽度上做层归一化；随后一个线性层 E → H（{e} → {h}）"
        "把它投影到隐藏层宽度。进入第 1 层的是这个投影（见下面最后一张图）。"
    ),
    "emb.sum.stage.projected": "× W（E → H）",
    "emb.sum.no_segments": "这个模型没有片段嵌入，所以每个词元的片段部分都是零。",
    "emb.sum.stage.token": "词元",
    "emb.sum.stage.position": "+ 位置",
    "emb.sum.stage.segment": "+ 片段",
    "emb.sum.stage.sum": "= 和",
    "emb.sum.stage.output": "LayerNorm(和)",
    "emb.sum.col.position": "位置",
    "emb.sum.col.token": "词元",
    "emb.sum.col.id": "编号",
    "emb.sum.col.segment": "片段",
    "emb.sum.col.|token|": "|词元|",
    "emb.sum.col.|position|": "|位置|",
    "emb.sum.col.|segment|": "|片段|",
    "emb.sum.col.|sum|": "|和|",
    "emb.sum.col.|output|": "|输出|",
    "emb.sum.col.mean(sum)": "均值(和)",
    "emb.sum.col.std(sum)": "标准差(和)",
    "emb.sum.table.head": "每个词元，逐个部分",
    "emb.sum.table.caption": (
        "|部分| 是各向量的长度（L2 范数）；均值和标准差是在和向量的各维度上计算的，正是 LayerNorm "
        "要去掉的两个数。"
    ),
    "emb.sum.token.head": "一个词元，逐步查看",
    "emb.sum.pick": "词元",
    "emb.sum.dims": "显示的维度数",
    "emb.sum.axis.stage": "阶段",
    "emb.sum.stage.title": "位置 {pos} 上的「{token}」：三个部分、它们的和、LayerNorm",
    "emb.sum.stage.caption": (
        "{hidden} 维中的前 {dims} 维。第 4 行正好等于第 1 + 2 + 3 行；第 5 行是第 4 行经过 "
        "LayerNorm 的结果。"
    ),
    "emb.sum.ln.mean": "和的均值 μ",
    "emb.sum.ln.std": "和的标准差 σ（含 ε）",
    "emb.sum.ln.explain": (
        "LayerNorm 对每个词元：输出 = (x − μ) / σ × γ + β，其中 μ 和 σ 在这个词元的各维度上计算，"
        "γ、β 是每个维度可学习的参数。"
    ),
    "emb.sum.ln.x": "x = 词元 + 位置 + 片段",
    "emb.sum.ln.norm": "(x − μ) / σ",
    "emb.sum.ln.out": "输出（进入第 1 层）",
    "emb.sum.overview.head": "LayerNorm 之后的所有词元",
    "emb.sum.overview": "显示第 1 层的完整输入矩阵",
    "emb.sum.overview.title": "第 1 层的输入：每个词元一行（A/B = 片段）",
    "emb.sum.overview.caption": (
        "{n} 个词元 × {hidden} 维：第一层注意力用查询、键、值权重去相乘的就是这个矩阵。"
    ),
}
