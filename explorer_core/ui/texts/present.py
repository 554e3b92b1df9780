"""Texts of presentation mode (the projector view)."""

EN = {
    "present.toggle": "Presentation mode",
    "present.toggle.help": (
        "For a projector: hides the sidebar and toolbar, enlarges text and charts, and moves the "
        "lessons to the top bar. The link (present=1) opens straight in this mode."
    ),
    "present.lesson": "Guided lesson",
}

ZH = {
    "present.toggle": "演示模式",
    "present.toggle.help": (
        "用于投影：隐藏侧边栏和工具栏，放大文字和图表，课程导航移到顶部。"
        "带 present=1 的链接会直接以此模式打开。"
    ),
    "present.lesson": "导学课程",
}
