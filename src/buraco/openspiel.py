"""Deprecated alias of :mod:`buraco.rl.openspiel`: it goes in the next release.

:mod:`buraco.rl.openspiel`: the OpenSpiel game.

``import buraco.openspiel`` gives the module :mod:`buraco.rl.openspiel` itself, with a
:class:`DeprecationWarning`.
"""

import sys
import warnings

from buraco.rl import openspiel as _moved

warnings.warn(
    "buraco.openspiel is now buraco.rl.openspiel; the old name goes in the next release",
    DeprecationWarning,
    stacklevel=2,
)
sys.modules[__name__] = _moved
