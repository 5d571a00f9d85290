"""Deprecated alias of :mod:`buraco.rl.pettingzoo`: it goes in the next release.

:mod:`buraco.rl.pettingzoo`: the PettingZoo environment.

``import buraco.pettingzoo`` gives the module :mod:`buraco.rl.pettingzoo` itself, with a
:class:`DeprecationWarning`.
"""

import sys
import warnings

from buraco.rl import pettingzoo as _moved

warnings.warn(
    "buraco.pettingzoo is now buraco.rl.pettingzoo; the old name goes in the next release",
    DeprecationWarning,
    stacklevel=2,
)
sys.modules[__name__] = _moved
