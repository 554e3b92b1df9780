"""The only streamlit-aware part of the package.

State keys, cached wrappers, the text catalogue and shared widgets.
"""
