"""Text -> tokens -> ids (page `lessons/tokenizer_encode.py`).

Read in this order:

1. `calls`        the tokenizers the page offers (the built-in ones, BERT's WordPiece), cached once
                  per server, and the encodings the page draws.
2. `views`        a tokenizer source's name, and the text through every tokenizer side by side.
3. `texts`        the page's English and Chinese texts.
"""
