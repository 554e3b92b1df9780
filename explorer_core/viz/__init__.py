"""Tensors and traces -> tidy pandas DataFrames -> plotly figures. No widgets, no streamlit.

One module per domain (tokenizer, embedding, attention, training); `common` holds the chart style
every module shares, so all charts have axis titles, a colour bar with its range and hover values.
"""
