"""``buraco serve``: play online in the browser, with friends and bots.

Needs the ``server`` extra (``pip install 'buraco[server]'``). The pieces, one
concern each:

- :mod:`~buraco.server.app`: the ASGI app and its start-up;
- :mod:`~buraco.server.routes`: REST endpoints, the page, the WebSocket route;
- :mod:`~buraco.server.ws`: one client's connection, its limits and queue;
- :mod:`~buraco.server.protocol`: the client messages, as typed models;
- :mod:`~buraco.server.service`: the table service, the one path of every change;
- :mod:`~buraco.server.tables`: a live table and the frames each seat is sent;
- :mod:`~buraco.server.store` and :mod:`~buraco.server.models`: the database and its
  migrations;
- :mod:`~buraco.server.botpool`: bots in worker processes.
"""
