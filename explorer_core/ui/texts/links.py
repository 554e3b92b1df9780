"""Texts of the "link to this view" box every page shows in the sidebar."""

EN = {
    "link.title": "Link to this view",
    "link.caption": (
        "This link reopens the page with the settings you see (text, sizes, layer, head, view). "
        "Copy it with the button at the right of the box. Pasted corpora, uploaded files and "
        "trained models are not part of a link."
    ),
}

ZH = {
    "link.title": "本视图的链接",
    "link.caption": (
        "用这个链接可以重新打开本页，并恢复你现在看到的设置（文本、大小、层、头、视图）。"
        "点框右侧的按钮即可复制。粘贴的语料、上传的文件和训练好的模型不会放进链接。"
    ),
}
