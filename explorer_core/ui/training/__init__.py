"""Training and comparison: page "Train the model" (`lessons/train_model.py`); Similarity reads
the session's models from here too.

Read in this order:

1. `calls`        the session's models (fresh, trained, uploaded, MiniLM) and cached data.
2. `form`         the Train page's settings (data, model size, objective, budget) -> a plan.
3. `run`          this session's run in a worker process: admission, queue, poll, stop;
                  `keep_alive` lets every page poll it.
   `engine`       where runs train: here, or on a distributed engine (EXPLORER_ENGINE).
4. `panels`       tokenizer choice, live progress (a polled fragment), the result.
5. `comparison`   "Start from" and the comparison: lexical baseline, before, trained, MiniLM.
6. `class_run`    in a class experiment: the tokenizer and seed it assigns, the settings it
                  fixes (and locks), the plan it trains, the result it is sent.
7. `texts`, `texts_comparison`  the page's English and Chinese texts.
"""
