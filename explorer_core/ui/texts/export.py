"""Texts of the download controls (charts, tables, tensors, Projector vectors)."""

EN = {
    "export.plotly.png": "Download plot as a PNG",
    "export.plotly.svg": "Download plot as an SVG",
    "export.plotly.zoom": "Zoom",
    "export.plotly.pan": "Pan",
    "export.plotly.zoom_in": "Zoom in",
    "export.plotly.zoom_out": "Zoom out",
    "export.plotly.autoscale": "Autoscale",
    "export.plotly.reset": "Reset axes",
    "export.plotly.double_click": "Double-click to zoom back out",
    "export.format": "Chart downloads",
    "export.format.help": (
        "Every chart has a camera button at its top right: it saves the chart as a picture, drawn "
        "by your browser. Choose PNG (for slides) or SVG (sharp at any size, editable)."
    ),
    "export.csv": "Download CSV",
    "export.json": "Download JSON",
    "export.projector": "Download for the Embedding Projector",
    "export.projector.help": (
        "A zip with two files in the TensorFlow Embedding Projector's format: vectors.tsv (one "
        "vector per line, tab-separated) and metadata.tsv (the label of each line). Load them at "
        "projector.tensorflow.org with Load → Choose file."
    ),
}

ZH = {
    "export.plotly.png": "下载图表（PNG）",
    "export.plotly.svg": "下载图表（SVG）",
    "export.plotly.zoom": "框选放大",
    "export.plotly.pan": "平移",
    "export.plotly.zoom_in": "放大",
    "export.plotly.zoom_out": "缩小",
    "export.plotly.autoscale": "自动缩放",
    "export.plotly.reset": "重置坐标轴",
    "export.plotly.double_click": "双击还原",
    "export.format": "图表下载格式",
    "export.format.help": (
        "每个图表右上角都有一个相机按钮：点击后由浏览器把图表保存为图片。"
        "PNG 适合放进幻灯片，SVG 是矢量图，任意缩放都清晰，还可以编辑。"
    ),
    "export.csv": "下载 CSV",
    "export.json": "下载 JSON",
    "export.projector": "下载为 Embedding Projector 文件",
    "export.projector.help": (
        "一个 zip，内含 TensorFlow Embedding Projector 格式的两个文件：vectors.tsv（每行一个向量，"
        "用制表符分隔）和 metadata.tsv（每行的标签）。在 projector.tensorflow.org 用 Load → Choose file 载入。"
    ),
}
