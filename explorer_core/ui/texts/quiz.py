"""Texts of "Predict, then reveal" (keys "quiz.*"), shared by the Tokenizer Lab, BERT inputs and
Attention pages."""

EN = {
    "quiz.toggle": "Predict first",
    "quiz.toggle.help": (
        "Guess before you look: the page hides the answer until you press Reveal, then grades your "
        "guess and keeps a score for this session."
    ),
    "quiz.reveal": "Reveal",
    "quiz.none": "no answer",
    "quiz.right": "Right: {right} of {asked}.",
    "quiz.wrong": "Not quite: {right} of {asked} right.",
    "quiz.score": "Your score this session: **{right} of {asked}**",
    "quiz.merge.title": "Predict merge {rank:,}",
    "quiz.merge.ask": "Which pair merges next (merge {rank:,})?",
    "quiz.merge.answer": "Merge {rank:,} joined **{pair}**. You picked {picked}.",
    "quiz.merge.ahead": (
        "It occurred {count:,} times in the training text, more than any other pair (the next one: "
        "{runner:,}). BPE always merges the most frequent neighbouring pair."
    ),
    "quiz.merge.tie": (
        "It occurred {count:,} times, and so did the runner-up: a tie. Equal counts go to the pair "
        "with the smaller ids (left first, then right), as in Hugging Face tokenizers."
    ),
    "quiz.mask.title": "Predict the masking",
    "quiz.mask.ask": (
        "This draw selected {n} tokens (highlighted; about 15% of the non-special tokens). For each, "
        "guess what BERT put in its place: [MASK], a random token, or the token itself."
    ),
    "quiz.mask.item": "Position {pos}: {token}",
    "quiz.mask.nothing": "This draw selected no token, so there is nothing to predict: draw again.",
    "quiz.mask.first": "Asking about the first {n} of the {total} selected tokens.",
    "quiz.mask.lesson": (
        "Guessing [MASK] every time would have scored {mask} of {n} here. On average it is right "
        "80% of the time: of the selected tokens, 80% become [MASK], 10% a random token and 10% "
        "stay. The other 20% are why the model must predict every selected token, even the ones "
        "that look untouched."
    ),
    "quiz.col.guess": "your guess",
    "quiz.col.real": "what happened",
    "quiz.col.ok": "right?",
    "quiz.attn.title": "Predict the attention",
    "quiz.attn.ask": "Which token does the query {query} look at most in this head?",
    "quiz.attn.placeholder": "Pick a token",
    "quiz.attn.answer": (
        "The largest weight of this row goes to **{best}**: {weight}. You picked {picked} "
        "(weight {mine})."
    ),
    "quiz.attn.tie": "A tie: {n} tokens share the largest weight, and each counts as right.",
}

ZH = {
    "quiz.toggle": "先预测",
    "quiz.toggle.help": "先猜再看：页面会隐藏答案，点击“揭晓”后再给你的猜测打分，并记录本次会话的得分。",
    "quiz.reveal": "揭晓",
    "quiz.none": "未作答",
    "quiz.right": "答对了：{asked} 题中对了 {right} 题。",
    "quiz.wrong": "差一点：{asked} 题中对了 {right} 题。",
    "quiz.score": "本次会话得分：**{asked} 题中答对 {right} 题**",
    "quiz.merge.title": "预测第 {rank:,} 次合并",
    "quiz.merge.ask": "下一次（第 {rank:,} 次）合并的是哪一对？",
    "quiz.merge.answer": "第 {rank:,} 次合并的是 **{pair}**。你选的是 {picked}。",
    "quiz.merge.ahead": (
        "它在训练文本中出现了 {count:,} 次，比其他任何一对都多（第二名：{runner:,} 次）。"
        "BPE 每次都合并出现最多的相邻一对。"
    ),
    "quiz.merge.tie": (
        "它出现了 {count:,} 次，第二名也是这么多：打平了。计数相同时选编号较小的一对"
        "（先比左边，再比右边），与 Hugging Face tokenizers 一致。"
    ),
    "quiz.mask.title": "预测掩码（mask）",
    "quiz.mask.ask": (
        "这次抽样选中了 {n} 个词元（高亮显示，约占非特殊词元的 15%）。"
        "逐个猜一猜 BERT 把它换成了什么：[MASK]、随机词元，还是保持原样。"
    ),
    "quiz.mask.item": "位置 {pos}：{token}",
    "quiz.mask.nothing": "这次抽样没有选中任何词元，没有可预测的内容：请重新抽样。",
    "quiz.mask.first": "只问被选中的 {total} 个词元中的前 {n} 个。",
    "quiz.mask.lesson": (
        "如果每次都猜 [MASK]，这里能对 {n} 题中的 {mask} 题。平均来说这样猜有 80% 是对的："
        "被选中的词元中 80% 换成 [MASK]，10% 换成随机词元，10% 保持原样。"
        "正是这 20% 让模型必须预测每个被选中的词元，哪怕它看起来没有变化。"
    ),
    "quiz.col.guess": "你的猜测",
    "quiz.col.real": "实际结果",
    "quiz.col.ok": "对吗？",
    "quiz.attn.title": "预测注意力",
    "quiz.attn.ask": "在这个注意力头中，查询词元 {query} 最关注哪个词元？",
    "quiz.attn.placeholder": "选择一个词元",
    "quiz.attn.answer": "这一行最大的权重落在 **{best}** 上：{weight}。你选的是 {picked}（权重 {mine}）。",
    "quiz.attn.tie": "打平了：有 {n} 个词元的权重并列最大，选其中任何一个都算对。",
}
