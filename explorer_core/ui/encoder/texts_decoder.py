"""Texts of Inside the encoder's view "Encoder against decoder" (`decoder_views`)."""

EN = {
    "enc.dec.train_one": "Train a decoder on the page “{page}”",
    "enc.dec.own": (
        "{label} is a decoder (GPT-2 family, causal mask): everything below runs its own trained "
        "weights. “BERT's mask” runs those weights without the causal mask, which it never saw "
        "in training."
    ),
    "enc.dec.borrowed": (
        "These weights were trained as an encoder: the causal runs below show what the mask "
        "does, not a trained decoder. Train a small decoder on the Decoder page; it is saved "
        "on this machine, and “A model on this machine” above then lists it (its folder name "
        "starts with decoder-), so this view shows its own weights."
    ),
    "enc.obj.head": "Three objectives on this sentence",
    "enc.obj.bad": "This sentence cannot show the objectives: {reason}",
    "enc.obj.mlm": "MLM (BERT)",
    "enc.obj.causal": "causal LM (GPT)",
    "enc.obj.electra": "ELECTRA (replaced?)",
    "enc.obj.replaced": "replaced",
    "enc.obj.original": "original",
    "enc.obj.title": "Which positions carry a loss (filled), and what they predict",
    "enc.obj.value": "loss here",
    "enc.obj.caption": (
        "Illustrative, for this sentence's tokens (seed 0). MLM: {mlm} of {n} positions carry a "
        "loss (about 15% of the ordinary tokens, chosen as BERT's data collator does; at least "
        "one), each predicting the hidden token. Causal LM: {causal} of {n}, each predicting the "
        "next token (the last has none here). ELECTRA: all {electra}, each saying whether its "
        "token was replaced; the MLM positions were filled by a generator's guess (a random "
        "token stands in for the small generator network: {swaps})."
    ),
    "enc.obj.sees": "What each token may look at while it is trained",
    "enc.obj.key": "key (looked at)",
    "enc.obj.query": "query (looking)",
    "enc.obj.sees.value": "visible",
    "enc.obj.sees.caption": (
        "Row i, column j: may token i attend to token j? MLM and ELECTRA train an encoder: "
        "every token sees the whole sentence. The causal LM trains a decoder: token i sees "
        "only tokens j ≤ i, or predicting the next token would be copying it."
    ),
    "enc.share.head": "Each token's share of a causal mean",
    "enc.share.title": "How much of a mean-pooled decoder vector each token can reach",
    "enc.share.y": "share of the mean",
    "enc.share.caption": (
        "Exact arithmetic for {n} tokens, no model involved. Under the causal mask token j "
        "reaches only the outputs at positions i ≥ j: L − j + 1 of the L vectors a mean averages. "
        "Normalised to sum to 1, the first token's share is {first:.3f} and the last token's "
        "{last:.3f} ({ratio:.0f}× less): a mean of a decoder's vectors is mostly the sentence's "
        "beginning. The last token is the only one that has read the whole sentence, which is "
        "why decoders' sentence vectors take the last token, or weight later positions more "
        "(SGPT's position-weighted mean)."
    ),
    "enc.vec.head": "Sentence vectors from a decoder",
    "enc.vec.none": (
        "No decoder has been trained in this session yet, so there is no decoder to pool. Train "
        "one on the Decoder page (a few seconds are enough), then come back."
    ),
    "enc.vec.a": "sentence A",
    "enc.vec.b": "sentence B",
    "enc.vec.gold": "gold (0–5)",
    "enc.vec.decoder.mean": "decoder: mean",
    "enc.vec.decoder.weighted_mean": "decoder: weighted mean (SGPT)",
    "enc.vec.decoder.last": "decoder: last token",
    "enc.vec.encoder.mean": "encoder: mean",
    "enc.vec.caption": (
        "Computed now on {n} built-in sentence pairs spread over the gold scores: the cosine of "
        "the two sentences' vectors under each pooling of the decoder {decoder}, and the "
        "encoder {encoder} with mean pooling. The second table is each column's Spearman "
        "correlation with the gold scores over these pairs (few pairs: a rough indication; "
        "bench/decoder_pooling.py computes the full table). A decoder trained for seconds on "
        "next-token prediction was never taught similarity."
    ),
    "enc.dl.vec": "The pair table (CSV)",
}

ZH = {
    "enc.dec.train_one": "在“{page}”页面训练一个解码器",
    "enc.dec.own": (
        "{label} 是一个解码器（GPT-2 家族，因果掩码）：下面的一切都运行它自己训练出的权重。"
        "“BERT 的掩码”是把这些权重去掉因果掩码来运行——它在训练中从没见过这种情况。"
    ),
    "enc.dec.borrowed": (
        "这些权重是作为编码器训练的：下面的因果运行展示的是掩码的作用，而不是一个训练好的解码器。"
        "在“解码器”页面训练一个小解码器，它会保存在本机，上面的“本机上的模型”就会列出它"
        "（文件夹名以 decoder- 开头），这个视图就会显示它自己的权重。"
    ),
    "enc.obj.head": "同一个句子上的三种训练目标",
    "enc.obj.bad": "这个句子无法展示训练目标：{reason}",
    "enc.obj.mlm": "MLM（BERT）",
    "enc.obj.causal": "因果语言模型（GPT）",
    "enc.obj.electra": "ELECTRA（被替换了吗？）",
    "enc.obj.replaced": "替换",
    "enc.obj.original": "原样",
    "enc.obj.title": "哪些位置有损失（实心），以及它们要预测什么",
    "enc.obj.value": "此处有损失",
    "enc.obj.caption": (
        "示意图，基于这个句子的词元（种子 0）。MLM：{n} 个位置中有 {mlm} 个有损失（普通词元的约 15%，"
        "按 BERT 的数据整理器那样挑选；至少一个），各自预测被遮住的词元。因果语言模型：{n} 个中有 "
        "{causal} 个，各自预测下一个词元（这里最后一个没有下一个）。ELECTRA：全部 {electra} 个，"
        "各自判断自己的词元是否被替换；MLM 的位置由生成器的猜测填入（这里用随机词元代替小生成器网络："
        "{swaps}）。"
    ),
    "enc.obj.sees": "训练时每个词元能看哪些词元",
    "enc.obj.key": "键（被看的）",
    "enc.obj.query": "查询（在看的）",
    "enc.obj.sees.value": "可见",
    "enc.obj.sees.caption": (
        "第 i 行第 j 列：词元 i 能否关注词元 j？MLM 和 ELECTRA 训练的是编码器：每个词元都看到整个句子。"
        "因果语言模型训练的是解码器：词元 i 只能看 j ≤ i 的词元，否则预测下一个词元就成了照抄。"
    ),
    "enc.share.head": "因果平均中每个词元所占的份额",
    "enc.share.title": "平均池化的解码器向量里，每个词元能占多少",
    "enc.share.y": "在平均中的份额",
    "enc.share.caption": (
        "{n} 个词元的精确算术，不涉及任何模型。在因果掩码下，词元 j 只能到达位置 i ≥ j 的输出："
        "平均所用的 L 个向量中的 L − j + 1 个。归一化使总和为 1 后，第一个词元的份额是 {first:.3f}，"
        "最后一个是 {last:.3f}（少 {ratio:.0f} 倍）：解码器向量的平均主要是句子的开头。"
        "最后一个词元是唯一读完整个句子的，所以解码器的句向量取最后一个词元，"
        "或者给后面的位置更大的权重（SGPT 的按位置加权平均）。"
    ),
    "enc.vec.head": "来自解码器的句向量",
    "enc.vec.none": "本次会话还没有训练过解码器，所以没有可以池化的解码器。请在“解码器”页面训练一个（几秒钟就够），再回来。",
    "enc.vec.a": "句子 A",
    "enc.vec.b": "句子 B",
    "enc.vec.gold": "标注分（0–5）",
    "enc.vec.decoder.mean": "解码器：平均",
    "enc.vec.decoder.weighted_mean": "解码器：加权平均（SGPT）",
    "enc.vec.decoder.last": "解码器：最后一个词元",
    "enc.vec.encoder.mean": "编码器：平均",
    "enc.vec.caption": (
        "此刻在 {n} 对内置句子上计算（覆盖从低到高的标注分）：解码器 {decoder} 在每种池化下两个句向量的"
        "余弦，以及编码器 {encoder} 用平均池化的余弦。第二个表是每一列与标注分在这些句对上的 Spearman "
        "相关（句对很少：只是粗略参考；bench/decoder_pooling.py 计算完整的表）。只用几秒钟做下一个词元"
        "预测训练出来的解码器，从没学过相似度。"
    ),
    "enc.dl.vec": "句对表（CSV）",
}
