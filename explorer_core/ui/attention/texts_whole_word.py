"""Texts of the BERT inputs page's whole-word masking section (ui/attention/whole_word_views.py)."""

# the measured comparison: bench/whole_word_masking.py, run on this project's built-in corpus
BENCH_EN = "(not measured yet)"
BENCH_ZH = "（尚未测量）"

EN = {
    "inputs.default_wwm_text": "使用语言模型来预测下一个词的概率。",  # Cui et al. 2019's example
    "inputs.wwm.head": "Whole-word masking for Chinese (全词掩码)",
    "inputs.wwm.intro": (
        "BERT reads Chinese one character per token, so masking 15% of the *tokens* often hides "
        "half a word (模[MASK]) and the model fills it in from the other half. Whole-word masking "
        "(Cui et al. 2019, Chinese BERT-wwm) first cuts the text into words with a segmenter "
        "(here jieba), then chooses whole words: every character of a chosen word is masked "
        "together (模型 → [MASK][MASK]). Each word is chosen with probability 15%, so on average "
        "15% of the tokens are still chosen; then 80% of the chosen words become [MASK], 10% "
        "random tokens and 10% stay as they are, decided once per word. Below, the same text and "
        "the same seed, masked both ways (MiniLM's vocabulary: most characters are [UNK] to it, "
        "so the table shows the characters themselves)."
    ),
    "inputs.wwm.text": "Chinese text",
    "inputs.wwm.missing": (
        "Whole-word masking of Chinese needs the word segmenter jieba, which is not installed "
        "here (pip install jieba)."
    ),
    "inputs.wwm.words": "jieba's words: {words}",
    "inputs.wwm.col.char": "character masking: model sees",
    "inputs.wwm.col.char_kind": "character masking",
    "inputs.wwm.col.word": "whole-word masking: model sees",
    "inputs.wwm.col.word_kind": "whole-word masking",
    "inputs.wwm.col.kind": "kind",
    "inputs.wwm.col.char_once": "character masking: this draw",
    "inputs.wwm.col.word_once": "whole-word masking: this draw",
    "inputs.wwm.col.char_share": "character masking: share over the draws",
    "inputs.wwm.col.word_share": "whole-word masking: share over the draws",
    "inputs.wwm.col.expected": "expected share",
    "inputs.wwm.scheme.char": "Character masking",
    "inputs.wwm.scheme.word": "Whole-word masking",
    "inputs.wwm.caption": (
        "Counts: one draw each with seed {seed} (the seed above); whole-word masking chose "
        "{chosen} of {words} words. Shares: of the text's tokens over {draws} draws (the draws "
        "above): both schemes choose 15% of the tokens on average, whole-word masking in whole "
        "words."
    ),
    "inputs.wwm.bench.head": "Does it help? A measurement",
    "inputs.wwm.bench": BENCH_EN,
}
ZH = {
    "inputs.default_wwm_text": "使用语言模型来预测下一个词的概率。",
    "inputs.wwm.head": "中文的全词掩码 (whole-word masking)",
    "inputs.wwm.intro": (
        "BERT 读中文时每个字是一个词元，所以按*词元*掩盖 15% 时，常常只遮住半个词（模[MASK]），"
        "模型看另一半就能猜出来。全词掩码（Cui 等 2019，中文 BERT-wwm）先用分词器（这里是 jieba）"
        "把文本切成词，再按整词选择：被选中的词，它的每个字一起被掩盖（模型 → [MASK][MASK]）。"
        "每个词以 15% 的概率被选中，所以平均仍有 15% 的词元被选中；被选中的词中 80% 变成 [MASK]，"
        "10% 变成随机词元，10% 保持原样，每个词只决定一次。下面是同一段文本、同一个随机种子的两种掩码"
        "（MiniLM 的词表：多数汉字对它是 [UNK]，所以表中直接显示汉字本身）。"
    ),
    "inputs.wwm.text": "中文文本",
    "inputs.wwm.missing": "中文全词掩码需要分词器 jieba，但这里没有安装（pip install jieba）。",
    "inputs.wwm.words": "jieba 的分词：{words}",
    "inputs.wwm.col.char": "按字掩码：模型看到",
    "inputs.wwm.col.char_kind": "按字掩码",
    "inputs.wwm.col.word": "全词掩码：模型看到",
    "inputs.wwm.col.word_kind": "全词掩码",
    "inputs.wwm.col.kind": "类别",
    "inputs.wwm.col.char_once": "按字掩码：本次抽样",
    "inputs.wwm.col.word_once": "全词掩码：本次抽样",
    "inputs.wwm.col.char_share": "按字掩码：多次抽样的占比",
    "inputs.wwm.col.word_share": "全词掩码：多次抽样的占比",
    "inputs.wwm.col.expected": "期望占比",
    "inputs.wwm.scheme.char": "按字掩码",
    "inputs.wwm.scheme.word": "全词掩码",
    "inputs.wwm.caption": (
        "计数：各抽样一次，随机种子 {seed}（即上面的种子）；全词掩码从 {words} 个词中选中了 {chosen} 个。"
        "占比：{draws} 次抽样（即上面的抽样次数）中文本词元各类别的比例：两种方案平均都选中 15% 的词元，"
        "全词掩码按整词选择。"
    ),
    "inputs.wwm.bench.head": "有用吗？一次测量",
    "inputs.wwm.bench": BENCH_ZH,
}
