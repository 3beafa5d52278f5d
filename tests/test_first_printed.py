"""The names first printed in a set, from the card database, for a game's ``first_printed``
(Golgothian Sylex: "a name originally printed in the Antiquities expansion")."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import carddb
from carddb.database import Database
from carddb.resources import sample_dir


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Database]:
    url = f"sqlite:///{Path(tmp_path_factory.mktemp('printed')) / 'sample.sqlite'}"
    with carddb.open(url) as opened:
        opened.import_path(sample_dir())
        yield opened


def test_a_card_counts_for_the_earliest_released_of_its_sets(db: Database) -> None:
    # Return to Nature is in Throne of Eldraine (2019) and Forgotten Realms Commander (2021)
    names = db.first_printed("Throne of Eldraine", "Forgotten Realms Commander")
    assert "Return to Nature" in names["Throne of Eldraine"]
    assert "Return to Nature" not in names["Forgotten Realms Commander"]
    assert "Underdark Rift" in names["Forgotten Realms Commander"]


def test_a_set_the_database_lacks_is_left_out_so_the_engine_refuses_it(db: Database) -> None:
    assert db.first_printed("Antiquities") == {}
