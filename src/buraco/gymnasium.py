"""Deprecated alias of :mod:`buraco.rl.gymnasium`: it goes in the next release.

:mod:`buraco.rl.gymnasium`: the Gymnasium environments.

``import buraco.gymnasium`` gives the module :mod:`buraco.rl.gymnasium` itself, with a
:class:`DeprecationWarning`.
"""

import sys
import warnings

from buraco.rl import gymnasium as _moved

warnings.warn(
    "buraco.gymnasium is now buraco.rl.gymnasium; the old name goes in the next release",
    DeprecationWarning,
    stacklevel=2,
)
sys.modules[__name__] = _moved
