"""The research adapters: the game as numbers, and as the environments learners use.

Below the environments, needing NumPy alone (bots that play learned models use them):

- :mod:`buraco.rl.encoding`: the fixed action space (``Discrete(19868)``) and the
  observation vector of one seat's view;
- :mod:`buraco.rl.index_encoding`: a seat's observation as its non-zero entries, read from
  the game;
- :mod:`buraco.rl.tokens`: actions as a few tokens of ``Discrete(243)``, and the compact
  observation beside them.

The environments (the ``rl`` extra: Gymnasium and PettingZoo; OpenSpiel for its game):

- :mod:`buraco.rl.gymnasium`: one seat against bots, ids ``buraco/<Preset>-v0``;
- :mod:`buraco.rl.factored`: the same with the token actions, ids
  ``buraco/<Preset>Factored-v0``;
- :mod:`buraco.rl.pettingzoo`: every seat a learner (AEC);
- :mod:`buraco.rl.vector`: N games stepped together, observations and masks in batch;
- :mod:`buraco.rl.openspiel`: the OpenSpiel game ``python_buraco``.

Nothing is imported here: ``import buraco.rl.tokens`` needs no learning library.
"""
