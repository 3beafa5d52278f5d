"""``carddb download``: the official published files, fetched, checked and put in place whole.

:mod:`carddb.download.sources` knows where each source publishes its files (MTGJSON's
AllPrintings and its SHA-256, Scryfall's bulk-data index, the Comprehensive Rules page) and turns
that into :class:`~carddb.download.fetch.Remote` files; :mod:`carddb.download.fetch` fetches a
remote file with resumption, checks it, and only then moves it into place.
"""
