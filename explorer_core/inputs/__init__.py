"""What a BERT reads: special tokens, input rows, sentence pairs, masks, and the data sets.

Read in this order:

1. `rows`        the one builder of BERT's input rows (`[CLS] A [SEP] B [SEP]`, token types,
                 attention mask, padding, "longest_first" truncation) that every page, the lesson
                 and training use; equal to transformers' tokenizer output.
2. `vocab`       `BertVocab`: [PAD] [CLS] [SEP] [MASK] for any tokenizer of the Lab;
                 `BertVocab.encode(tokenizer, texts, pairs)` gives `rows` for texts.
3. `pairs`       next-sentence-prediction pairs (50% real next sentence) and the NSP batch.
4. `masking`     the masked-language-model draw: 15% selected, then 80 / 10 / 10.
   `whole_word`  the same with whole words chosen (jieba's words for Chinese, ## pieces otherwise).
5. `datasets`    the built-in bilingual corpus and scored sentence pairs (`resources/`).
6. `sts_format`  reading scored sentence pairs (STS) from ChineseSTS or headed TSV/CSV files.
7. `parallel`    sentences and their translations (English<TAB>Chinese), for distillation.

Below: `explorer_core.tokenization`. Above: `explorer_core.training` and the pages.
"""
