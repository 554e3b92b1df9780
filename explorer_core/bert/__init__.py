"""A readable BERT encoder, with transformers' names, that also runs six other families and GPT-2.

Read in this order, each module building on the ones before it:

1. `config`      `BertConfig`: one frozen, validated description of the encoder, with the family
                 switches (positions, projection, shared layers, biases, GeGLU, windows, pooler).
2. `positional`  four ways to tell the model word order: sinusoidal, learned, relative, rotary.
3. `embeddings`  ids -> vectors: token + position + segment, then LayerNorm (what enters layer 1;
                 ALBERT and ELECTRA project E -> H first).
4. `masks`       which keys a query may see: padding, causal, a local layer's window.
5. `attention`   self-attention with every intermediate (scores, mask, softmax, weights) returned.
6. `layer`       `BertLayer`: attention, then the feed-forward block (MLP or GeGLU).
7. `model`       `BertEncoder`, `BertModel`: the stack of layers, and loading any family.
8. `heads`       BERT's pre-training heads on top: masked language model and next sentence.
9. `pooling`     one vector per sentence from one vector per token (mean, [CLS], max).
10. `family_weights`  each family's weight names -> BERT's (DistilBERT's q_lin, ModernBERT's Wqkv).
11. `families`   each family's config.json -> the switches; `FAMILIES`, `UnsupportedModel`.
12. `weights`    reading transformers checkpoints (safetensors only) into these modules.
13. `pretrained` where the real all-MiniLM-L6-v2 lives on disk (offline).
14. `trace`      inside the encoder: every intermediate of every layer for one sentence
                 (heads, W_O, residuals, both LayerNorms, the feed-forward block, the window).
15. `causal_lm`  the decoder: the same encoder under the causal mask (`causal=True`, GPT-2's
                 switches) with a language-model head, `BertForCausalLM`; GPT-2 folders both ways.

Nothing here knows about tokenizers or training; `explorer_core.inputs` builds the rows this
package consumes and `explorer_core.training` teaches it.
"""
