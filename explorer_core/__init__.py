"""Embedding Explorer's engine: tokenizers, embeddings, a readable BERT, training loops.

Nothing in this package imports streamlit except the `explorer_core.ui` subpackage.
"""

__version__ = "0.1.0"
