"""carddb: a multilingual Magic: The Gathering card database.

>>> import carddb
>>> db = carddb.open("sqlite://")          # in memory; carddb.open() uses the default file
>>> summary = db.import_path(carddb.resources.sample_dir())
>>> db.card("Unterreich-Spalte", lang="ja").name
'アンダーダークの裂け目'
"""

from __future__ import annotations

from carddb import resources
from carddb.database import Database, open_database
from carddb.errors import CarddbError

__all__ = ["CarddbError", "Database", "open", "resources"]
__version__ = "0.1.0"

open = open_database
