"""Training in place: pre-train a small BERT (MLM + NSP), fine-tune it on scored sentence pairs.

Read in this order:

1. `loop`        the shared parts: step records, the learning-rate schedule, the loop itself.
2. `pretrain`    MLM + NSP pre-training on a text corpus.
3. `finetune`    siamese fine-tuning: cosine of two mean-pooled vectors ≈ score / 5.
4. `metrics`     Spearman and Pearson correlation (how STS is scored).
5. `baselines`   the lexical reference a trained model should beat (TF-IDF character n-grams).
6. `presets`     model sizes for a laptop CPU (Tiny, Small, the Chinese tutorial's model).
7. `checkpoint`  save, load, zip and unzip a trained model with its tokenizer (never unpickles).
8. `run`         `TrainingPlan` (what to train) and `run_plan` (train it here and now).
9. `worker`      `TrainingRun`: a plan in its own process, which a page polls, stops and collects.
10. `admission`  the server-wide limit on concurrent runs, the queue, the memory budget.
11. `choices`    from the Train page's choices to a plan, with the memory a run holds.
12. `jobs`       one training job from files, as the CLI and the benchmarks run it.
13. `base_models` where weights start: fresh, this session's model, MiniLM, a model folder of any
    family, or a cached Hub name.
14. `devices`    CPU / CUDA, and DistributedDataParallel under torchrun.
15. `st_export`  the checkpoint's hf/ folder for AutoTokenizer and sentence-transformers.
16. `experiment` the class experiment's runs: which tokenizer each one trains (round robin), and
                 the plan of a controlled run (`controlled_plan`).
    `controlled` what a class experiment fixes (preset, steps, seeds); torch-free.
17. `vocab_extension`  new characters for a WordPiece vocabulary (GB 2312 hanzi), old ids kept.
18. `batches`    mini-batches grouped by length (little padding).
19. `multilingual` MiniLM learns Chinese: distillation on parallel pairs, teacher = MiniLM.
    `multilingual_config` its settings (apart: `taught_folder` fingerprints the default).
20. `taught_folder` where the install keeps that model (MiniLM + 中文), a start of its own.
21. `engine`     `EngineRun`: a TrainingRun on a distributed engine's workers (EXPLORER_ENGINE).
22. `engine_tasks` what those workers run: a page's run, a CLI job's files.

Below: `explorer_core.bert` and `explorer_core.inputs`.
"""
