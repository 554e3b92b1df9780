"""Texts of the app shell and the home page."""

EN = {
    "app.title": "Embedding Explorer",
    "app.language": "Language",
    "app.section.start": "Start",
    "app.section.tokenize": "Tokenize",
    "app.section.embed": "Embed",
    "app.section.attend": "Attend",
    "app.section.train": "Train",
    "tok.train.nav": "Train a tokenizer",
    "tok.encode.nav": "Text → tokens → ids",
    "emb.tokens.nav": "Token embeddings",
    "emb.pos.nav": "Position encodings",
    "emb.sum.nav": "Embedding sum",
    "attn.nav": "Attention",
    "inputs.nav": "BERT inputs",
    "train.nav": "Train the model",
    "sim.nav": "Similarity",
    "home.title": "Embedding Explorer",
    "home.nav": "Overview",
    "lesson.nav": "Guided lesson",
    "home.intro": (
        "How does a sentence become a vector? Follow one piece of text through every step of a "
        "BERT-style model. Every number in this app is computed live by code you can read."
    ),
    "home.pipeline": "The whole path",
    "home.stage.text": "Text",
    "home.stage.text.body": "Raw characters: Chinese, English, emoji, anything UTF-8.",
    "home.stage.tokens": "Tokens",
    "home.stage.tokens.body": "A trained tokenizer cuts the text into pieces from its vocabulary.",
    "home.stage.ids": "Ids",
    "home.stage.ids.body": "Each token (词元) is replaced by its row number in the vocabulary.",
    "home.stage.vectors": "Vectors",
    "home.stage.vectors.body": "Each id selects one row of the embedding (嵌入) matrix.",
    "home.stage.positions": "+ Positions",
    "home.stage.positions.body": "Positional encoding (位置编码) tells the model about word order.",
    "home.stage.attention": "Attention",
    "home.stage.attention.body": "Every token mixes in information from the tokens it attends to.",
    "home.stage.sentence": "Sentence vector",
    "home.stage.sentence.body": "Pooling (池化) the last layer gives one vector; cosine compares two.",
    "home.open": "Open",
    "home.lesson": "Start the guided lesson",
    "home.lesson.body": (
        "One sentence through the real MiniLM model, one step per screen, with Previous / Next: "
        "made for a lecture (turn on presentation mode in the sidebar for a projector)."
    ),
    "home.soon": "This lesson is being built.",
}

ZH = {
    "app.title": "嵌入探索器",
    "app.language": "语言",
    "app.section.start": "开始",
    "app.section.tokenize": "分词",
    "app.section.embed": "嵌入",
    "app.section.attend": "注意力",
    "app.section.train": "训练",
    "tok.train.nav": "训练分词器",
    "tok.encode.nav": "文本 → 词元 → 编号",
    "emb.tokens.nav": "词元嵌入",
    "emb.pos.nav": "位置编码",
    "emb.sum.nav": "嵌入求和",
    "attn.nav": "注意力",
    "inputs.nav": "BERT 输入",
    "train.nav": "训练模型",
    "sim.nav": "相似度",
    "home.title": "嵌入探索器 Embedding Explorer",
    "home.nav": "总览",
    "lesson.nav": "导学课程",
    "home.intro": (
        "一句话是怎样变成向量的？跟随一段文本走过 BERT 类模型的每一步。"
        "本应用中的每个数字都由你可以阅读的代码实时计算。"
    ),
    "home.pipeline": "完整流程",
    "home.stage.text": "文本",
    "home.stage.text.body": "原始字符：中文、英文、表情符号，任何 UTF-8 文本。",
    "home.stage.tokens": "词元",
    "home.stage.tokens.body": "训练好的分词器把文本切成词表中的片段（词元 token）。",
    "home.stage.ids": "编号",
    "home.stage.ids.body": "每个词元被替换为它在词表中的行号（id）。",
    "home.stage.vectors": "向量",
    "home.stage.vectors.body": "每个编号从嵌入（embedding）矩阵中取出一行。",
    "home.stage.positions": "+ 位置",
    "home.stage.positions.body": "位置编码（positional encoding）告诉模型词语的顺序。",
    "home.stage.attention": "注意力",
    "home.stage.attention.body": "每个词元从它关注的词元那里汇入信息（注意力 attention）。",
    "home.stage.sentence": "句向量",
    "home.stage.sentence.body": "对最后一层做池化（pooling）得到一个向量；用余弦相似度比较两句。",
    "home.open": "打开",
    "home.lesson": "开始导学课程",
    "home.lesson.body": (
        "用真实的 MiniLM 模型跟随一句话走完全程，每屏一步，可上一步 / 下一步："
        "专为课堂设计（投影时请在侧边栏打开演示模式）。"
    ),
    "home.soon": "这一课正在制作中。",
}
