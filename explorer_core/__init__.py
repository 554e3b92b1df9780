"""Embedding Explorer's engine: tokenizers, embeddings, a readable BERT, training loops.

The encoder lives in `bert` (with GPT-2's switches it is also the decoder: `bert.causal_lm`);
`decoder` trains that GPT-style decoder in place, samples from it and saves it as a GPT-2 folder.

Nothing in this package imports streamlit except the `explorer_core.ui` subpackage.
"""

__version__ = "0.1.0"
