"""Texts of the Text → tokens → ids page."""

EN = {
    "tok.encode.title": "Text → tokens → ids",
    "tok.encode.intro": (
        "A model never reads letters. A tokenizer cuts your text into tokens (词元), pieces from "
        "its vocabulary, and replaces each token by its row number in that vocabulary: its id. "
        "Type anything below, Chinese, English or emoji, and watch where the cuts fall."
    ),
    "tok.encode.text": "Your text",
    "tok.encode.default_text": (
        "Tokenizers cut text into pieces. 分词器把文本切成词元。 Unbelievable! 👋🏽"
    ),
    "tok.encode.source": "Tokenizer",
    "tok.encode.src.lab": "Trained in the Tokenizer Lab ({name})",
    "tok.encode.src.bert": "BERT WordPiece (real MiniLM vocabulary)",
    "tok.encode.src.algo": "{algo}, trained here",
    "tok.encode.algo.byte-bpe": "Byte-level BPE",
    "tok.encode.algo.char-bpe": "Character BPE",
    "tok.encode.algo.wordpiece": "WordPiece",
    "tok.encode.algo.unigram": "Unigram LM",
    "tok.encode.algo.word": "Word level",
    "tok.encode.short.lab": "Lab: {name}",
    "tok.encode.short.bert": "BERT (MiniLM)",
    "tok.encode.specials": "Add the sequence markers ([CLS] … [SEP], <bos> … <eos>)",
    "tok.encode.specials.help": (
        "BERT wraps every input in [CLS] … [SEP]; character BPE can wrap it in <bos> … <eos>. "
        "The other tokenizers have no such markers."
    ),
    "tok.encode.empty": "The text is empty. Type or paste a few words to see their tokens.",
    "tok.encode.too_long": (
        "Your text has {n:,} characters; this page tokenizes at most {limit:,} at a time. "
        "Shorten it (your text is still in the box)."
    ),
    "tok.encode.training": "Training the tokenizers on the built-in corpus (once per server)…",
    "tok.encode.unavailable": "This tokenizer is not available here: {error}",
    "tok.encode.metric.tokens": "Tokens",
    "tok.encode.metric.chars": "Characters",
    "tok.encode.metric.ratio": "Tokens per character",
    "tok.encode.spans.head": "Your text, token by token",
    "tok.encode.spans.caption": (
        "Each coloured box is one token; hover it for its id and its UTF-8 bytes. "
        "· is a space, → a tab, ↵ a new line. Grey text was dropped by the tokenizer (BERT drops "
        "spaces). Dark boxes are special tokens. ⟨e4 bd⟩… marks the bytes of a character that "
        "is cut between two tokens. Boxes show tokens as the vocabulary holds them: ##ing "
        "continues a word (WordPiece), </w> ends one (character BPE), ▁ marks a space "
        "(Unigram). Tokenizer: {source}."
    ),
    "tok.encode.hover_id": "id",
    "tok.encode.table.head": "Token → id",
    "tok.encode.col.position": "Position",
    "tok.encode.col.token": "Token",
    "tok.encode.col.id": "Id",
    "tok.encode.col.bytes": "Bytes (hex)",
    "tok.encode.col.count": "Count in corpus",
    "tok.encode.dl.table": "Token table (CSV)",
    "tok.encode.dl.ids": "Tokens and ids (JSON)",
    "tok.encode.dl.compare": "Comparison (CSV)",
    "tok.encode.table.caption": (
        "Count in corpus: how often this id occurs when the built-in bilingual corpus "
        "({chars:,} characters, the project's own text) is encoded with the same tokenizer. "
        "Frequent tokens got their own id early; rare ones are built from smaller pieces."
    ),
    "tok.encode.compare.head": "The same text through every tokenizer",
    "tok.encode.compare": "Compare all tokenizers",
    "tok.encode.compare.tokens": "**{name}** · {n} tokens",
    "tok.encode.col.tokenizer": "Tokenizer",
    "tok.encode.col.tokens": "Tokens",
    "tok.encode.col.per_char": "Tokens per character",
    "tok.encode.col.per_cjk": "Tokens per Chinese character",
    "tok.encode.col.per_other": "Tokens per other character",
    "tok.encode.chart.title": "Tokens per character, Chinese and other text apart",
    "tok.encode.chart.x": "Tokenizer",
    "tok.encode.chart.y": "Tokens per character",
    "tok.encode.chart.caption": (
        "Tokens covering a Chinese character divided by the Chinese characters of your text, "
        "and the same for all other non-space characters (an empty bar: your text has none). "
        "Real measurements on your text. Our tokenizers were trained in this app on the built-in "
        "corpus with {vocab:,} vocabulary entries each; BERT is the real pretrained MiniLM "
        "vocabulary (30,522 entries, English-centred, so Chinese falls back to single characters "
        "or [UNK])."
    ),
}

ZH = {
    "tok.encode.title": "文本 → 词元 → 编号",
    "tok.encode.intro": (
        "模型从不直接读字母。分词器把文本切成词元（token），即词表中的片段，再把每个词元换成它在"
        "词表中的行号：编号（id）。在下面输入任何内容，中文、英文或表情符号都可以，看看切分落在哪里。"
    ),
    "tok.encode.text": "你的文本",
    "tok.encode.default_text": (
        "分词器把文本切成词元，难以置信！Tokenizers cut text into pieces. Unbelievable! 👋🏽"
    ),
    "tok.encode.source": "分词器",
    "tok.encode.src.lab": "在分词器实验室中训练（{name}）",
    "tok.encode.src.bert": "BERT WordPiece（真实的 MiniLM 词表）",
    "tok.encode.src.algo": "{algo}，在本应用中训练",
    "tok.encode.algo.byte-bpe": "字节级 BPE",
    "tok.encode.algo.char-bpe": "字符级 BPE",
    "tok.encode.algo.wordpiece": "WordPiece",
    "tok.encode.algo.unigram": "Unigram 语言模型",
    "tok.encode.algo.word": "词级",
    "tok.encode.short.lab": "实验室：{name}",
    "tok.encode.short.bert": "BERT（MiniLM）",
    "tok.encode.specials": "加上序列标记（[CLS] … [SEP]、<bos> … <eos>）",
    "tok.encode.specials.help": (
        "BERT 给每个输入加上 [CLS] … [SEP]；字符级 BPE 可以加上 <bos> … <eos>。"
        "其他分词器没有这类标记。"
    ),
    "tok.encode.empty": "文本是空的。输入或粘贴几个词，看看它们的词元。",
    "tok.encode.too_long": (
        "你的文本有 {n:,} 个字符；本页一次最多切分 {limit:,} 个字符。"
        "请缩短文本（文本仍保留在输入框中）。"
    ),
    "tok.encode.training": "正在用内置语料训练各个分词器（每个服务器只需一次）……",
    "tok.encode.unavailable": "此分词器在这里不可用：{error}",
    "tok.encode.metric.tokens": "词元数",
    "tok.encode.metric.chars": "字符数",
    "tok.encode.metric.ratio": "每字符词元数",
    "tok.encode.spans.head": "逐个词元看你的文本",
    "tok.encode.spans.caption": (
        "每个彩色方框是一个词元；把鼠标停在上面可以看到它的编号和 UTF-8 字节。"
        "· 表示空格，→ 表示制表符，↵ 表示换行。灰色文字是被分词器丢掉的部分（BERT 会丢掉空格）。"
        "深色方框是特殊词元。⟨e4 bd⟩… 表示一个字符被切在两个词元之间时的字节。"
        "方框按词表中的样子显示词元：##ing 接续一个词（WordPiece），</w> 结束一个词（字符级 BPE），"
        "▁ 表示空格（Unigram）。分词器：{source}。"
    ),
    "tok.encode.hover_id": "编号",
    "tok.encode.table.head": "词元 → 编号",
    "tok.encode.col.position": "位置",
    "tok.encode.col.token": "词元",
    "tok.encode.col.id": "编号",
    "tok.encode.col.bytes": "字节（十六进制）",
    "tok.encode.col.count": "语料中的次数",
    "tok.encode.dl.table": "词元表（CSV）",
    "tok.encode.dl.ids": "词元和编号（JSON）",
    "tok.encode.dl.compare": "比较结果（CSV）",
    "tok.encode.table.caption": (
        "语料中的次数：用同一个分词器编码内置的中英双语语料（{chars:,} 个字符，"
        "本项目自己的文本）时，这个编号出现的次数。常见的词元较早获得自己的编号；少见的由更小的片段拼成。"
    ),
    "tok.encode.compare.head": "同一段文本经过每个分词器",
    "tok.encode.compare": "比较所有分词器",
    "tok.encode.compare.tokens": "**{name}** · {n} 个词元",
    "tok.encode.col.tokenizer": "分词器",
    "tok.encode.col.tokens": "词元数",
    "tok.encode.col.per_char": "每字符词元数",
    "tok.encode.col.per_cjk": "每个汉字的词元数",
    "tok.encode.col.per_other": "每个其他字符的词元数",
    "tok.encode.chart.title": "每字符词元数，汉字与其他文字分开",
    "tok.encode.chart.x": "分词器",
    "tok.encode.chart.y": "每字符词元数",
    "tok.encode.chart.caption": (
        "覆盖汉字的词元数除以你文本中的汉字数，其他非空白字符同理"
        "（柱子为空：你的文本中没有这类字符）。这是在你的文本上的真实测量。"
        "我们的分词器都在本应用中用内置语料训练，词表各有 {vocab:,} 项；"
        "BERT 是真实的预训练 MiniLM 词表（30,522 项，以英文为主，"
        "所以中文只能退回到单个汉字或 [UNK]）。"
    ),
}
