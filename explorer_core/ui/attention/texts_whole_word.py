"""Texts of the BERT inputs page's whole-word masking section (ui/attention/whole_word_views.py)."""

# Measured by bench/whole_word_masking.py on this project's built-in corpus (2026-11-27 and -28,
# one CPU thread, seed 0): `--steps 400` and `--steps 2000`. Rerun it after changing the masking
# or the corpus and copy its table here.
BENCH_TABLE_EN = (
    "| steps | pre-training masks | loss, whole word masked | loss, one character masked | characters right, whole word masked | one character right |\n"
    "|---|---|---|---|---|---|\n"
    "| 400 | characters (15%) | 6.76 | 6.75 | 1.15% | 1.26% |\n"
    "| 400 | whole words (jieba) | 6.78 | 6.83 | 1.26% | 0.84% |\n"
    "| 2,000 | characters (15%) | 8.12 | 7.98 | 0.94% | 1.68% |\n"
    "| 2,000 | whole words (jieba) | 7.75 | 8.30 | 2.20% | 0.63% |\n"
)
BENCH_TABLE_ZH = (
    "| 步数 | 预训练的掩码 | 损失：整词被掩盖 | 损失：只掩盖一个字 | 整词被掩盖时猜对的字 | 只掩盖一个字时猜对 |\n"
    "|---|---|---|---|---|---|\n"
    "| 400 | 按字（15%） | 6.76 | 6.75 | 1.15% | 1.26% |\n"
    "| 400 | 整词（jieba） | 6.78 | 6.83 | 1.26% | 0.84% |\n"
    "| 2,000 | 按字（15%） | 8.12 | 7.98 | 0.94% | 1.68% |\n"
    "| 2,000 | 整词（jieba） | 7.75 | 8.30 | 2.20% | 0.63% |\n"
)
BENCH_EN = (
    "Measured on 2026-11-28 by `python bench/whole_word_masking.py --steps 400` and "
    "`--steps 2000` (seed 0): the Tiny BERT (hidden 128, 2 layers) pre-trained with MLM only on "
    "the built-in Chinese corpus (281 lines; every 7th of 328 lines held out), once with "
    "character masking and once with whole-word masking, everything else the same. Tested on the "
    "443 words of two or more characters in the held-out lines: cross-entropy per masked "
    "character in nats (lower is better; 7.17 is a blind guess among the 1,298 characters) and "
    "how many characters the model gets right.\n\n"
    + BENCH_TABLE_EN
    + "\nWhat it says: each model is better at the test it was trained for. After 2,000 steps "
    "the whole-word model predicts a fully hidden word better (loss 7.75 against 8.12) and a "
    "single hidden character worse (8.30 against 7.98). But the numbers are close to a blind "
    "guess, and worse after 2,000 steps than after 400: on ~9,000 characters this small model "
    "memorises its training lines rather than learning Chinese, and one seed gives no error "
    "bars. Cui et al. (2019) measured whole-word masking's gains on downstream tasks with a "
    "BERT-base pre-trained on Chinese Wikipedia; this bench shows the mechanism, not that gain."
)
BENCH_ZH = (
    "2026-11-28 用 `python bench/whole_word_masking.py --steps 400` 和 `--steps 2000`（随机种子 0）"
    "测得：Tiny BERT（隐藏维度 128，2 层）只用 MLM 在内置中文语料上预训练（281 行；328 行中每 7 行留出 "
    "1 行），一次按字掩码，一次全词掩码，其余完全相同。在留出句子中 443 个两字及以上的词上测试："
    "每个被掩盖的字的交叉熵（单位 nats，越低越好；在 1,298 个字里盲猜是 7.17），以及猜对的字的比例。\n\n"
    + BENCH_TABLE_ZH
    + "\n结论：每个模型都更擅长它训练时做的那种题。2,000 步后，全词掩码的模型更会预测整个被遮住的词"
    "（损失 7.75 对 8.12），而预测单个被遮住的字更差（8.30 对 7.98）。但这些数都接近盲猜，而且 2,000 步比 "
    "400 步更差：在约 9,000 个字上，这么小的模型是在背训练句子，而不是在学中文；只有一个随机种子，也没有误差范围。"
    "Cui 等（2019）用在中文维基百科上预训练的 BERT-base 在下游任务上测出了全词掩码的提升；"
    "这个基准展示的是机制，而不是那个提升。"
)

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
