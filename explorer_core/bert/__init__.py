"""A readable BERT encoder, with transformers' names, so real checkpoints load unchanged.

Read in this order, each module building on the ones before it:

1. `config`      `BertConfig`: one frozen, validated description of the encoder.
2. `positional`  four ways to tell the model word order: sinusoidal, learned, relative, rotary.
3. `embeddings`  ids -> vectors: token + position + segment, then LayerNorm (what enters layer 1).
4. `attention`   self-attention with every intermediate (scores, mask, softmax, weights) returned.
5. `model`       `BertLayer`, `BertEncoder`, `BertModel`: the stack of layers.
6. `heads`       BERT's pre-training heads on top: masked language model and next sentence.
7. `pooling`     one vector per sentence from one vector per token (mean, [CLS], max).
8. `weights`     reading transformers checkpoints (safetensors only) into these modules.
9. `pretrained`  where the real all-MiniLM-L6-v2 lives on disk (offline).
10. `trace`      inside the encoder: every intermediate of every layer for one sentence
                 (heads, W_O, residuals, both LayerNorms, the feed-forward block).

Nothing here knows about tokenizers or training; `explorer_core.inputs` builds the rows this
package consumes and `explorer_core.training` teaches it.
"""
