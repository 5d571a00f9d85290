"""``python -m buraco``: the same as the ``buraco`` command."""

from buraco.cli import main

main()
