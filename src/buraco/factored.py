"""Deprecated alias of :mod:`buraco.rl.factored`: it goes in the next release.

:mod:`buraco.rl.factored`: the factored action environment (its tokens: buraco.rl.tokens).

``import buraco.factored`` gives the module :mod:`buraco.rl.factored` itself, with a
:class:`DeprecationWarning`.
"""

import sys
import warnings

from buraco.rl import factored as _moved

warnings.warn(
    "buraco.factored is now buraco.rl.factored; the old name goes in the next release",
    DeprecationWarning,
    stacklevel=2,
)
sys.modules[__name__] = _moved
