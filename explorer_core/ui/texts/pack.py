"""Texts of the lesson pack box on the home page (download and restore the app's state)."""

EN = {
    "pack.title": "Lesson pack",
    "pack.intro": (
        "One file with this session's settings on every page, the tokenizer trained in the "
        "Tokenizer Lab and the model trained on the Train page. A teacher prepares a lesson at "
        "home and hands out the pack; every student who uploads it opens the same state."
    ),
    "pack.contents": "A pack downloaded now holds {parts}.",
    "pack.has.settings": "{n} settings",
    "pack.has.tokenizer": "the tokenizer “{name}”",
    "pack.has.model": "the model “{label}”",
    "pack.sep": ", ",
    "pack.download": "Download lesson pack",
    "pack.download.help": (
        "A zip file: settings as JSON, the tokenizer in its own format and as a Hugging Face "
        "tokenizer.json, the model's weights as safetensors. Uploaded files and training "
        "snapshots are not included; for a model that loads in transformers, use the Train "
        "page's download."
    ),
    "pack.upload": "Open a lesson pack",
    "pack.upload.help": (
        "Upload a pack downloaded from this app. Its settings, tokenizer and model replace "
        "the ones in this session; parts the pack does not hold stay as they are."
    ),
    "pack.ok": "Lesson pack opened: restored {parts}. Open any page to continue the lesson.",
    "pack.bad": "This file cannot be opened as a lesson pack, so nothing was changed: {reason}",
    "pack.err.too_big": "it is larger than {mb} MB (or unpacks to more).",
    "pack.err.not_zip": "it is not a zip file.",
    "pack.err.unsafe": "it holds a path or link a lesson pack never holds ({name}).",
    "pack.err.not_pack": "it is a zip file, but not a lesson pack from Embedding Explorer.",
    "pack.err.newer": (
        "it was made by a newer version of the app (pack format {version}; this app opens "
        "format {supported}). Update the app to open it."
    ),
    "pack.err.missing": "it lists {part} but does not contain it; the file is incomplete.",
    "pack.err.damaged": "it is damaged ({detail}).",
}

ZH = {
    "pack.title": "课程包",
    "pack.intro": (
        "一个文件，装着本次会话中各页面的设置、在分词器实验室训练的分词器（tokenizer），"
        "以及在训练页训练的模型。老师可以在家准备好一节课并把课程包发给学生；"
        "学生上传它，就能打开完全相同的状态。"
    ),
    "pack.contents": "现在下载的课程包包含：{parts}。",
    "pack.has.settings": "{n} 项设置",
    "pack.has.tokenizer": "分词器“{name}”",
    "pack.has.model": "模型“{label}”",
    "pack.sep": "、",
    "pack.download": "下载课程包",
    "pack.download.help": (
        "一个 zip 文件：设置为 JSON，分词器为本应用的格式外加 Hugging Face 的 tokenizer.json，"
        "模型权重为 safetensors。上传的文件和训练过程中的快照不包含在内；"
        "如需能在 transformers 中加载的模型，请使用训练页的下载。"
    ),
    "pack.upload": "打开课程包",
    "pack.upload.help": (
        "上传从本应用下载的课程包。包里的设置、分词器和模型会替换本次会话中的对应内容；"
        "包里没有的部分保持不变。"
    ),
    "pack.ok": "课程包已打开，已恢复：{parts}。打开任意页面即可继续上课。",
    "pack.bad": "无法把这个文件作为课程包打开，因此没有做任何改动：{reason}",
    "pack.err.too_big": "文件大于 {mb} MB（或解压后超过这个大小）。",
    "pack.err.not_zip": "它不是 zip 文件。",
    "pack.err.unsafe": "它包含课程包里绝不会出现的路径或链接（{name}）。",
    "pack.err.not_pack": "它是 zip 文件，但不是嵌入探索器（Embedding Explorer）的课程包。",
    "pack.err.newer": "它由更新版本的应用制作（课程包格式 {version}；本应用只能打开格式 {supported}）。请先更新应用。",
    "pack.err.missing": "清单里列出了 {part}，但文件里没有；文件不完整。",
    "pack.err.damaged": "文件已损坏（{detail}）。",
}
