"""Texts shared by the pages that offer MiniLM + 中文, taught here. The names of the Train page's
kind and its build time are the Train page's own (ui/training/texts_chinese.py)."""

EN = {
    "taught.name": "MiniLM + 中文, taught here",
    "taught.not_built": (
        "MiniLM + 中文 has not been built on this install yet. Build it once on the Train page "
        "with “Teach MiniLM Chinese” (about 10 minutes on a 2-core laptop, progress shown), or "
        "run `python -m explorer_core train multilingual`."
    ),
    "taught.open_train": "Open “{page}” to teach MiniLM Chinese",
}

ZH = {
    "taught.name": "MiniLM + 中文（本机教会）",
    "taught.not_built": (
        "本机还没有构建 MiniLM + 中文。请在训练页面用“教 MiniLM 学中文”构建一次（双核笔记本约 "
        "10 分钟，会显示进度），或运行 `python -m explorer_core train multilingual`。"
    ),
    "taught.open_train": "打开“{page}”，教 MiniLM 学中文",
}
