"""Alembic migrations of the server's database, applied at start (see ``buraco.server.store``)."""
