"""Texts of the model picker and of "How encoders differ"."""

EN = {
    "models.src": "A model on this machine",
    "models.box": "Model: a Hub name or a folder",
    "models.box.placeholder": "Pick one, or type e.g. google-bert/bert-base-chinese",
    "models.box.help": (
        "The models already on this machine: the Hugging Face cache and the folders this server "
        "allows ({dirs}). Type a Hub name (org/name) that is in the cache, or a folder under "
        "those folders. Only safetensors weights are read, and a model's own code is never run."
    ),
    "models.none_here": (
        "No model was found on this machine yet. Pre-download one on the server, e.g. "
        "`huggingface-cli download google-bert/bert-base-chinese`, or copy a model folder into "
        "one of these folders: {dirs}."
    ),
    "models.none": "Pick a model on this machine, or type a Hub name or a folder, above.",
    "models.refused": "This model cannot be opened here: {reason}",
    "models.caption": "the real model {label} ({family}), run by this app's own encoder",
    "models.tokenizer_said": "Tokenizer: {said}",
    "models.download": "Download {ref}",
    "models.downloading": "Downloading {ref} …",
}

ZH = {
    "models.src": "本机上的模型",
    "models.box": "模型：Hub 名称或文件夹",
    "models.box.placeholder": "选择一个，或输入如 google-bert/bert-base-chinese",
    "models.box.help": (
        "本机已有的模型：Hugging Face 缓存和本服务器允许的文件夹（{dirs}）。可以输入缓存中已有的 "
        "Hub 名称（组织/名称），或这些文件夹下的模型文件夹。只读取 safetensors 权重，从不运行模型自带的代码。"
    ),
    "models.none_here": (
        "本机上还没有找到模型。请在服务器上预先下载，例如 "
        "`huggingface-cli download google-bert/bert-base-chinese`，或把模型文件夹复制到以下文件夹之一：{dirs}。"
    ),
    "models.none": "请在上方选择本机上的模型，或输入 Hub 名称或文件夹。",
    "models.refused": "这个模型无法在这里打开：{reason}",
    "models.caption": "真实模型 {label}（{family}），由本应用自己的编码器计算",
    "models.tokenizer_said": "分词器：{said}",
    "models.download": "下载 {ref}",
    "models.downloading": "正在下载 {ref} …",
}
