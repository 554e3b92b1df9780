"""One module per page (or shared area), each with `EN` and `ZH` dicts of the same keys."""
