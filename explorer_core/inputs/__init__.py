"""What a BERT reads: special tokens, input rows, sentence pairs, masks, and the data sets.

Read in this order:

1. `vocab`       `BertVocab`: [PAD] [CLS] [SEP] [MASK] for any tokenizer of the Lab, and the one
                 builder of BERT's input rows (`[CLS] A [SEP] B [SEP]`, token types, attention
                 mask, padding, truncation) that every page, the lesson and training use.
2. `pairs`       next-sentence-prediction pairs (50% real next sentence) and their layout.
3. `masking`     the masked-language-model draw: 15% selected, then 80 / 10 / 10.
4. `datasets`    the built-in bilingual corpus and scored sentence pairs (`resources/`).
5. `sts_format`  reading scored sentence pairs (STS) from ChineseSTS or headed TSV/CSV files.

Below: `explorer_core.tokenization`. Above: `explorer_core.training` and the pages.
"""
