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
    "taught.build.progress": "Building MiniLM + 中文 on this server (once per install) · {percent:.0f}% · {text}",
    "taught.build.meanwhile": (
        "It runs in the background at the lowest priority: pages stay quick, and it pauses "
        "whenever a student's training run needs the slot. When it is done, every page that "
        "reads Chinese switches to it. (About 10 minutes on a 2-core laptop.)"
    ),
    "taught.build.soon": (
        "MiniLM + 中文 is not built on this install yet: the server will build it in the "
        "background as soon as it is quiet."
    ),
    "taught.build.other": "MiniLM + 中文 is being built by another server process on this install.",
    "taught.build.disk": (
        "MiniLM + 中文 could not be built: the disk is full (it needs about {need} MB free). "
        "Everything else works; free some space and start the server again."
    ),
    "taught.build.failed": (
        "The background build of MiniLM + 中文 failed ({error}); it is not tried again by itself. "
        "Everything else works; “Teach MiniLM Chinese” on the Train page tries again."
    ),
}

ZH = {
    "taught.name": "MiniLM + 中文（本机教会）",
    "taught.not_built": (
        "本机还没有构建 MiniLM + 中文。请在训练页面用“教 MiniLM 学中文”构建一次（双核笔记本约 "
        "10 分钟，会显示进度），或运行 `python -m explorer_core train multilingual`。"
    ),
    "taught.open_train": "打开“{page}”，教 MiniLM 学中文",
    "taught.build.progress": "本服务器正在构建 MiniLM + 中文（每次安装只需一次）· {percent:.0f}% · {text}",
    "taught.build.meanwhile": (
        "它在后台以最低优先级运行：页面照样流畅；学生的训练需要位置时，它会暂停让出。"
        "构建完成后，所有读中文的页面都会换用它。（双核笔记本约 10 分钟。）"
    ),
    "taught.build.soon": "本机还没有构建 MiniLM + 中文：服务器空闲时会在后台自动构建。",
    "taught.build.other": "本机的另一个服务器进程正在构建 MiniLM + 中文。",
    "taught.build.disk": (
        "无法构建 MiniLM + 中文：磁盘已满（需要约 {need} MB 空闲空间）。其他功能照常可用；"
        "腾出空间后重新启动服务器即可。"
    ),
    "taught.build.failed": (
        "后台构建 MiniLM + 中文失败（{error}），不会自动重试。其他功能照常可用；"
        "在训练页面用“教 MiniLM 学中文”可以再试一次。"
    ),
}
