"""The shell's texts: one module per shared area, each with `EN` and `ZH` dicts of the same keys.

`app` (navigation, home page), `chrome` (Streamlit's own words), `export` (downloads and charts),
`links` (links to a view), `pack` (lesson packs), `present` (presentation mode), `quiz` ("Predict
first", shared by three pages). A lesson family keeps its own texts in its folder (`texts*.py`).
"""
