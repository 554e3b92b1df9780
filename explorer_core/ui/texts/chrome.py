"""Streamlit's own English words (button names, tooltips, the skip link) and their translations.

The English texts are exactly what Streamlit 1.6x writes, so they also serve to find those words
on the page (see `explorer_core.ui.chrome`). "{label}" stands for a widget's label.
"""

EN = {
    "chrome.fullscreen": "Fullscreen",
    "chrome.close_fullscreen": "Close fullscreen",
    "chrome.download_csv": "Download as CSV",
    "chrome.search": "Search",
    "chrome.columns": "Show/hide columns",
    "chrome.copy": "Copy to clipboard",
    "chrome.help": "Help",
    "chrome.help_for": "Help for {label}",
    "chrome.increment": "Increment",
    "chrome.decrement": "Decrement",
    "chrome.collapse_sidebar": "Collapse sidebar",
    "chrome.expand_sidebar": "Expand sidebar",
    "chrome.sidebar": "Sidebar",
    "chrome.pages": "App pages",
    "chrome.heading_link": "Link to heading",
    "chrome.open": "Open",
    "chrome.close": "Close",
    "chrome.choose": "Choose an option",
    "chrome.choose_options": "Choose options",
    "chrome.skip": "Skip to main content",
}

ZH = {
    "chrome.fullscreen": "全屏",
    "chrome.close_fullscreen": "退出全屏",
    "chrome.download_csv": "下载为 CSV",
    "chrome.search": "搜索",
    "chrome.columns": "显示/隐藏列",
    "chrome.copy": "复制到剪贴板",
    "chrome.help": "说明",
    "chrome.help_for": "“{label}”的说明",
    "chrome.increment": "增加",
    "chrome.decrement": "减少",
    "chrome.collapse_sidebar": "收起侧边栏",
    "chrome.expand_sidebar": "展开侧边栏",
    "chrome.sidebar": "侧边栏",
    "chrome.pages": "应用页面",
    "chrome.heading_link": "链接到此标题",
    "chrome.open": "展开",
    "chrome.close": "关闭",
    "chrome.choose": "请选择",
    "chrome.choose_options": "请选择（可多选）",
    "chrome.skip": "跳到主要内容",
}
