"""Tensors and traces -> tidy pandas DataFrames -> plotly figures. No widgets, no streamlit.

One module per domain; `common` holds the chart style every module shares, so all charts have axis
titles, a colour bar with its range and hover values. Read `common` first, then the domain you
need: `tokens` and `tokenizer` (spans, merges, tokens per character), `embedding`, `positional`,
`attention`, `training` (loss and Spearman curves), `lesson` (the guided lesson's screens),
`experiment` (the class experiment's Spearman by tokenizer), `decoder` (the language model's
loss and next-token bars, the objectives side by side, a causal mean's shares).
"""
