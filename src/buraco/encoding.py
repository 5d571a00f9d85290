"""Deprecated alias of :mod:`buraco.rl.encoding`: it goes in the next release.

:mod:`buraco.rl.encoding`: the fixed action space and observation vector.

``import buraco.encoding`` gives the module :mod:`buraco.rl.encoding` itself, with a
:class:`DeprecationWarning`.
"""

import sys
import warnings

from buraco.rl import encoding as _moved

warnings.warn(
    "buraco.encoding is now buraco.rl.encoding; the old name goes in the next release",
    DeprecationWarning,
    stacklevel=2,
)
sys.modules[__name__] = _moved
