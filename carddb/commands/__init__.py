"""The commands of the ``carddb`` command line, one module per command or group of commands.

:mod:`carddb.cli` lists them by name and imports a command's module only when that command runs,
so that each command loads only what it uses (``carddb card`` neither Alembic nor the grammars).
"""
