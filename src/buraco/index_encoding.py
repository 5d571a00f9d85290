"""Deprecated alias of :mod:`buraco.rl.index_encoding`: it goes in the next release.

:mod:`buraco.rl.index_encoding`: a seat's observation as its non-zero entries.

``import buraco.index_encoding`` gives the module :mod:`buraco.rl.index_encoding` itself, with a
:class:`DeprecationWarning`.
"""

import sys
import warnings

from buraco.rl import index_encoding as _moved

warnings.warn(
    "buraco.index_encoding is now buraco.rl.index_encoding; the old name goes in the next release",
    DeprecationWarning,
    stacklevel=2,
)
sys.modules[__name__] = _moved
