"""Process-wide runtime settings that every entry point (app, CLI, tests, benchmarks) applies.

On a 2-core machine torch's default of one intra-op thread per core turns 10-30x slower as soon as
anything else holds a core (OpenMP workers spin-wait for each other). One thread stays steady, so it
is the default; set ``EXPLORER_TORCH_THREADS`` to choose another count deliberately.
"""

from __future__ import annotations

import os

DEFAULT_TORCH_THREADS = 1


def whole_number_setting(name: str, default: int, minimum: int = 1) -> int:
    """The environment variable `name` as a whole number of at least `minimum`; `default` when
    unset. A bad value raises ValueError with a sentence that names the variable."""
    raw = os.environ.get(name, "")
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError as err:
        raise ValueError(f"{name} must be a whole number, got {raw!r}") from err
    if value < minimum:
        raise ValueError(f"{name} must be at least {minimum}, got {value}")
    return value


def meminfo_bytes(field: str) -> int | None:
    """A field of Linux's /proc/meminfo ("MemTotal", "MemAvailable") in bytes; None where it
    cannot be read (another system)."""
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith(f"{field}:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def torch_threads() -> int:
    """The intra-op thread count to use: ``EXPLORER_TORCH_THREADS`` if set, else 1."""
    return whole_number_setting("EXPLORER_TORCH_THREADS", DEFAULT_TORCH_THREADS)


def configure_environment() -> None:
    """The settings that need no import: offline model hubs, quiet tokenizers.

    The app's shell applies only these (importing torch takes seconds; the home page needs none
    of it) and leaves `configure` to its background warm-up (explorer_core/ui/warmup.py).
    """
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


def configure() -> None:
    """Apply the settings: offline model hubs, quiet tokenizers, a steady torch thread count."""
    configure_environment()
    import torch

    threads = torch_threads()
    if torch.get_num_threads() != threads:
        torch.set_num_threads(threads)
    try:
        torch.set_num_interop_threads(1)
    except RuntimeError:
        pass  # subtle: only allowed before the first parallel op; later calls are harmless to skip
