"""Texts of the guided lesson's "why attention" screen (`why_screen`)."""

EN = {
    "lesson.step.why": "Why attention",
    "lesson.why.body": (
        "Before the Transformer, a sentence was read by an RNN: one token after another, each "
        "step waiting for the last. For your sentence of L tokens that is L steps in a row, and "
        "the first token reaches the last position only through L cell steps. Attention "
        "(注意力) reads all tokens in one step, with a path of length 1. Simple RNNs are hard to "
        "train, and RNNs cannot handle very long text: the chart shows why."
    ),
    "lesson.why.numbers": (
        "Your sentence: L = {n} tokens. How strongly the last position feels the first token, "
        "‖∂h_L/∂x_1‖: RNN {rnn}, attention {attn}."
    ),
    "lesson.why.title": "‖∂h_L/∂x_t‖ over your {n} tokens: RNN against attention",
    "lesson.why.caption": (
        "The lesson's {n} tokens, each a random embedding; an RNN and one self-attention layer, "
        "random initialisation with seed {seed}, untrained: the Sequence models page's numbers "
        "for the same tokens."
    ),
    "lesson.why.tokens": "Only the tokens come from the lesson's model:",
}

ZH = {
    "lesson.step.why": "为什么用注意力",
    "lesson.why.body": (
        "在 Transformer 之前，句子由 RNN 来读：一个词元接一个词元，每一步都要等上一步。对于 L 个"
        "词元的句子，就是连续 L 步，而第一个词元要经过 L 步单元计算才能到达最后一个位置。注意力"
        "（attention）一步就读完所有词元，路径长度为 1。简单 RNN 难以训练，RNN 也处理不了很长的"
        "文本：图中显示了原因。"
    ),
    "lesson.why.numbers": (
        "你的句子：L = {n} 个词元。最后一个位置对第一个词元有多敏感，‖∂h_L/∂x_1‖：RNN {rnn}，"
        "注意力 {attn}。"
    ),
    "lesson.why.title": "你的 {n} 个词元上的 ‖∂h_L/∂x_t‖：RNN 对比注意力",
    "lesson.why.caption": (
        "课程的 {n} 个词元，每个是一个随机嵌入；一个 RNN 和一层自注意力，随机初始化，种子 {seed}，"
        "未训练：与“序列模型”页对同样词元算出的数值相同。"
    ),
    "lesson.why.tokens": "只有词元来自课程所用的模型：",
}
