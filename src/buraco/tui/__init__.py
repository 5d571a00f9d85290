"""The terminal game: ``buraco play`` and ``buraco replay --watch``, built with Textual."""
