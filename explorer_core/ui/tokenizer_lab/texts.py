"""Texts of the "Train a tokenizer" page (keys "tok.train.*")."""

EN = {
    "tok.train.title": "Train a tokenizer",
    "tok.train.intro": (
        "A tokenizer (词元 token) is learned from text. Byte-level BPE starts from the 256 bytes "
        "and repeatedly merges the most frequent neighbouring pair into a new token. "
        "Train one on your own Chinese or English text, then scrub through every merge."
    ),
    "tok.train.source": "Corpus",
    "tok.train.src.builtin": "Built-in",
    "tok.train.src.paste": "Paste",
    "tok.train.src.upload": "Upload .txt",
    "tok.train.lang": "Built-in corpus",
    "tok.train.lang.en": "English",
    "tok.train.lang.zh": "Chinese",
    "tok.train.lang.mixed": "Both",
    "tok.train.builtin.caption": "The project's own prose: {chars:,} characters.",
    "tok.train.builtin.label": "the built-in corpus ({lang})",
    "tok.train.paste.label": "your pasted text",
    "tok.train.paste": "Your text",
    "tok.train.paste.help": "Up to {limit:,} characters of UTF-8 text.",
    "tok.train.upload": "A UTF-8 .txt file",
    "tok.train.algo": "Algorithm",
    "tok.train.algo.byte-bpe": "Byte-level BPE (GPT-2)",
    "tok.train.algo.char-bpe": "Character BPE",
    "tok.train.algo.wordpiece": "WordPiece (BERT)",
    "tok.train.algo.unigram": "Unigram (SentencePiece)",
    "tok.train.algo.word": "Word level",
    "tok.train.vocab": "Vocabulary size",
    "tok.train.vocab.help": "Byte-level BPE needs at least 256: one token per byte.",
    "tok.train.go": "Train",
    "tok.train.training": "Training…",
    "tok.train.hint": "Choose a corpus, an algorithm and a vocabulary size, then press Train.",
    "tok.train.done": (
        "Trained {algo} on {source}: {vocab:,} tokens after {steps:,} steps. "
        "The other pages now use this tokenizer."
    ),
    "tok.train.shared": "{algo}, {vocab} tokens (trained here)",
    "tok.train.err.empty": "The corpus is empty: paste or upload some text first.",
    "tok.train.err.too_long": (
        "The text has {chars:,} characters; this page trains on at most {limit:,}. "
        "Use a shorter excerpt (or the command line for big corpora)."
    ),
    "tok.train.err.too_big": "The file has {mb} MB; upload at most {limit} MB.",
    "tok.train.err.binary": "This file looks binary (it contains NUL bytes). Upload plain text.",
    "tok.train.err.not_utf8": (
        "This file is not UTF-8 text (invalid byte at offset {offset}). Save it as UTF-8 and retry."
    ),
    "tok.train.err.no_file": "No file uploaded yet.",
    "tok.train.err.vocab_bytes": (
        "Byte-level BPE needs a vocabulary of at least {minimum}: its alphabet is the 256 bytes."
    ),
    "tok.train.err.vocab_range": "Choose a vocabulary size between 2 and {limit:,}.",
    "tok.train.err.vocab_min": (
        "{algo} needs a vocabulary of at least {minimum:,} for this corpus: its special tokens and "
        "starting symbols come before any learned token. You chose {requested:,}."
    ),
    "tok.train.err.train": "Training failed: {detail}",
    "tok.train.k": "Merges applied (k)",
    "tok.train.k.help": "Replay training: the state after the first k merges.",
    "tok.train.play": "Play",
    "tok.train.probe": "Probe sentence",
    "tok.train.probe.default": "Tokenizers learn from text. 分词器从文本中学习合并规则。",
    "tok.train.segmented": "The probe after k = {k:,} of {total:,} merges",
    "tok.train.segmented.caption": (
        "{tokens} tokens for {chars} characters. Each colour is one token; hover for its id and "
        "bytes. ⟨e4 bd⟩… marks bytes of a character that this token cuts."
    ),
    "tok.train.cands": "Why merge {rank:,} won",
    "tok.train.cands.caption": (
        "The best pairs counted in the training text just before merge {rank:,}: the pair with the "
        "highest count is merged; equal counts go to the smaller pair of ids, as in Hugging Face "
        "tokenizers."
    ),
    "tok.train.cands.end": "All {total:,} merges applied: training stopped here.",
    "tok.train.merges": "Merge list around k",
    "tok.train.merges.all": "Show every merge",
    "tok.train.merges.caption": (
        "Merges in the order they were learned; count = how often the pair occurred when it won."
    ),
    "tok.train.col.rank": "rank",
    "tok.train.col.place": "place",
    "tok.train.col.left": "left",
    "tok.train.col.right": "right",
    "tok.train.col.new": "new token",
    "tok.train.col.id": "id",
    "tok.train.col.count": "count",
    "tok.train.col.behind": "behind the winner",
    "tok.train.curve.title": "Tokens per character of the training text",
    "tok.train.curve.x": "merges applied (k)",
    "tok.train.curve.y": "tokens per character",
    "tok.train.curve.cjk": "Chinese",
    "tok.train.curve.other": "English and other",
    "tok.train.curve.caption": (
        "Computed from the corpus you trained on (real counts, not illustrative): tokens divided "
        "by characters after k merges, for chunks with Chinese characters and for the rest. "
        "Fewer tokens per character means the vocabulary compresses that script better."
    ),
    "tok.train.trace": "Training trace",
    "tok.train.trace.caption": (
        "{algo} does not merge pairs one by one, so there is no scrubber: this is its own record "
        "of training, one row per step ({steps:,} steps, at most 2,000 shown)."
    ),
    "tok.train.final": "The probe with the trained vocabulary",
}

ZH = {
    "tok.train.title": "训练分词器",
    "tok.train.intro": (
        "分词器（tokenizer）把文本切成词元（token），它本身是从文本中学出来的。"
        "字节级 BPE 从 256 个字节出发，反复把出现最多的相邻一对合并成一个新词元。"
        "用你自己的中文或英文文本训练一个，然后逐步回放每一次合并。"
    ),
    "tok.train.source": "语料",
    "tok.train.src.builtin": "内置",
    "tok.train.src.paste": "粘贴",
    "tok.train.src.upload": "上传 .txt",
    "tok.train.lang": "内置语料",
    "tok.train.lang.en": "英文",
    "tok.train.lang.zh": "中文",
    "tok.train.lang.mixed": "中英文",
    "tok.train.builtin.caption": "本项目自己的文字：{chars:,} 个字符。",
    "tok.train.builtin.label": "内置语料（{lang}）",
    "tok.train.paste.label": "你粘贴的文本",
    "tok.train.paste": "你的文本",
    "tok.train.paste.help": "最多 {limit:,} 个字符的 UTF-8 文本。",
    "tok.train.upload": "一个 UTF-8 编码的 .txt 文件",
    "tok.train.algo": "算法",
    "tok.train.algo.byte-bpe": "字节级 BPE（GPT-2）",
    "tok.train.algo.char-bpe": "字符级 BPE",
    "tok.train.algo.wordpiece": "WordPiece（BERT）",
    "tok.train.algo.unigram": "Unigram（SentencePiece）",
    "tok.train.algo.word": "词级",
    "tok.train.vocab": "词表大小",
    "tok.train.vocab.help": "字节级 BPE 至少需要 256：每个字节一个词元。",
    "tok.train.go": "训练",
    "tok.train.training": "正在训练……",
    "tok.train.hint": "选择语料、算法和词表大小，然后点击“训练”。",
    "tok.train.done": (
        "已在{source}上训练 {algo}：经过 {steps:,} 步，词表共 {vocab:,} 个词元。"
        "其他页面现在使用这个分词器。"
    ),
    "tok.train.shared": "{algo}，{vocab} 个词元（在本页训练）",
    "tok.train.err.empty": "语料是空的：请先粘贴或上传一些文本。",
    "tok.train.err.too_long": (
        "文本共有 {chars:,} 个字符，本页最多用 {limit:,} 个字符训练。"
        "请截取较短的一段（大语料请用命令行）。"
    ),
    "tok.train.err.too_big": "文件大小为 {mb} MB，最多只能上传 {limit} MB。",
    "tok.train.err.binary": "这个文件看起来是二进制文件（含有 NUL 字节）。请上传纯文本。",
    "tok.train.err.not_utf8": (
        "这个文件不是 UTF-8 文本（偏移 {offset} 处的字节无效）。请另存为 UTF-8 后重试。"
    ),
    "tok.train.err.no_file": "还没有上传文件。",
    "tok.train.err.vocab_bytes": (
        "字节级 BPE 的词表至少需要 {minimum} 个词元：它的字母表就是 256 个字节。"
    ),
    "tok.train.err.vocab_range": "请选择 2 到 {limit:,} 之间的词表大小。",
    "tok.train.err.vocab_min": (
        "{algo} 在这个语料上的词表至少需要 {minimum:,} 个词元：特殊词元和起始符号要先占位，"
        "之后才有学到的词元。你选择的是 {requested:,}。"
    ),
    "tok.train.err.train": "训练失败：{detail}",
    "tok.train.k": "已执行的合并次数（k）",
    "tok.train.k.help": "回放训练过程：执行前 k 次合并之后的状态。",
    "tok.train.play": "播放",
    "tok.train.probe": "探针句子",
    "tok.train.probe.default": "分词器从文本中学习合并规则。Tokenizers learn from text.",
    "tok.train.segmented": "执行 {total:,} 次合并中的前 k = {k:,} 次之后的探针句子",
    "tok.train.segmented.caption": (
        "{chars} 个字符切成 {tokens} 个词元。每种颜色是一个词元；鼠标悬停可看编号和字节。"
        "⟨e4 bd⟩… 表示这个词元切开了一个字符，只含它的部分字节。"
    ),
    "tok.train.cands": "第 {rank:,} 次合并为什么选中这一对",
    "tok.train.cands.caption": (
        "第 {rank:,} 次合并之前，训练文本中计数最高的几对：计数最高的一对被合并；"
        "计数相同时选编号较小的一对，与 Hugging Face tokenizers 一致。"
    ),
    "tok.train.cands.end": "全部 {total:,} 次合并都已执行：训练到此结束。",
    "tok.train.merges": "k 附近的合并列表",
    "tok.train.merges.all": "显示全部合并",
    "tok.train.merges.caption": "按学习顺序排列的合并；计数 = 这一对被选中时出现的次数。",
    "tok.train.col.rank": "序号",
    "tok.train.col.place": "名次",
    "tok.train.col.left": "左",
    "tok.train.col.right": "右",
    "tok.train.col.new": "新词元",
    "tok.train.col.id": "编号",
    "tok.train.col.count": "计数",
    "tok.train.col.behind": "落后于第一名",
    "tok.train.curve.title": "训练文本的每字符词元数",
    "tok.train.curve.x": "已执行的合并次数（k）",
    "tok.train.curve.y": "每字符词元数",
    "tok.train.curve.cjk": "中文",
    "tok.train.curve.other": "英文及其他",
    "tok.train.curve.caption": (
        "由你训练所用的语料实时计算（真实计数，不是示意）：执行 k 次合并后，词元数除以字符数，"
        "含汉字的片段和其余片段分开统计。每字符词元数越少，说明词表对这种文字压缩得越好。"
    ),
    "tok.train.trace": "训练记录",
    "tok.train.trace.caption": (
        "{algo} 不是一次合并一对，所以没有回放滑块：这是它自己的训练记录，"
        "每步一行（共 {steps:,} 步，最多显示 2,000 行）。"
    ),
    "tok.train.final": "用训练好的词表切分探针句子",
}

EN |= {
    "tok.train.dl.vocab": "Vocabulary (JSON)",
    "tok.train.dl.table": "Merge table (CSV)",
    "tok.train.dl.merges": "merges.txt",
    "tok.train.dl.curve": "Tokens per character (CSV)",
    "tok.train.dl.zip": "Tokenizer folder (zip)",
    "tok.train.dl.zip.help": (
        "What the project saves for a tokenizer: its own JSON and a Hugging Face tokenizer.json "
        "that the `tokenizers` library loads with Tokenizer.from_file."
    ),
}
ZH |= {
    "tok.train.dl.vocab": "词表（JSON）",
    "tok.train.dl.table": "合并表（CSV）",
    "tok.train.dl.merges": "merges.txt",
    "tok.train.dl.curve": "每字符词元数（CSV）",
    "tok.train.dl.zip": "分词器文件夹（zip）",
    "tok.train.dl.zip.help": (
        "本项目保存分词器时写出的文件：项目自己的 JSON，以及 Hugging Face 的 tokenizer.json，"
        "可用 `tokenizers` 库的 Tokenizer.from_file 加载。"
    ),
}
