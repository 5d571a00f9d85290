"""Deprecated alias of :mod:`buraco.rl.vector`: it goes in the next release.

:mod:`buraco.rl.vector`: the batched environment.

``import buraco.vector`` gives the module :mod:`buraco.rl.vector` itself, with a
:class:`DeprecationWarning`.
"""

import sys
import warnings

from buraco.rl import vector as _moved

warnings.warn(
    "buraco.vector is now buraco.rl.vector; the old name goes in the next release",
    DeprecationWarning,
    stacklevel=2,
)
sys.modules[__name__] = _moved
