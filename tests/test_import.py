"""MTGJSON import: streamed, bulk, idempotent, one transaction per file, newer data wins."""

from __future__ import annotations

import bz2
import gzip
import json
import lzma
from pathlib import Path
from typing import Any

from sqlalchemy import func, select

import carddb
from carddb.db.models import Card, Localization, Printing, PrintingLocalization, Ruling
from carddb.resources import sample_dir


def read_set(name: str) -> dict[str, Any]:
    with lzma.open(sample_dir() / name, "rt", encoding="utf-8") as handle:
        data: dict[str, Any] = json.load(handle)
    return data


def write_json(path: Path, data: dict[str, Any]) -> Path:
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def all_printings(*names: str) -> dict[str, Any]:
    sets = [read_set(name) for name in names]
    return {"meta": sets[0]["meta"], "data": {s["data"]["code"]: s["data"] for s in sets}}


def test_sample_import_counts_what_it_read(db: carddb.Database) -> None:
    summary = db.import_path(sample_dir())
    assert summary.sets == 5
    assert summary.printings == 36
    assert db.counts() == {
        "cards": 25,
        "printings": 36,
        "localizations": db.counts()["localizations"],
        "rulings": 99,
    }
    assert summary.localizations > 250


def test_importing_twice_leaves_the_same_rows(db: carddb.Database) -> None:
    db.import_path(sample_dir())
    first = db.counts()
    db.import_path(sample_dir())
    assert db.counts() == first


def test_rulings_are_stored_once_per_card_not_per_printing(sample_db: carddb.Database) -> None:
    with sample_db.session() as session:
        portent = session.scalars(select(Card).where(Card.name == "Diviner's Portent")).one()
        assert len(portent.printings) == 2
        assert len(portent.rulings) == 10
        assert portent.rulings[0].published.isoformat() == "2021-07-23"


def test_each_translation_is_stored_once_and_linked_to_every_printing(sample_db: carddb.Database) -> None:
    """Diviner's Portent's German text is the same on both AFC printings: one row, two links."""
    with sample_db.session() as session:
        rows = session.execute(
            select(Localization.id, func.count(PrintingLocalization.printing_id))
            .join(PrintingLocalization, PrintingLocalization.localization_id == Localization.id)
            .where(Localization.name == "Omen des Sehers", Localization.language == "de")
            .group_by(Localization.id)
        ).all()
    assert len(rows) == 1
    assert rows[0][1] == 2


def test_translations_that_differ_between_printings_are_kept_as_variants(sample_db: carddb.Database) -> None:
    """Return to Nature's French name differs between AFC and ELD (the ELD one doubles "la")."""
    with sample_db.session() as session:
        french = {
            (loc_name, set_code)
            for loc_name, set_code in session.execute(
                select(Localization.name, Printing.set_code)
                .join(PrintingLocalization, PrintingLocalization.localization_id == Localization.id)
                .join(Printing, Printing.id == PrintingLocalization.printing_id)
                .join(Card, Card.id == Printing.card_id)
                .where(Card.name == "Return to Nature", Localization.language == "fr")
            )
        }
    assert french == {("Regain de la nature", "AFC"), ("Regain de la la nature", "ELD")}


def test_compressed_and_plain_files_import_alike(db_url: str, tmp_path: Path) -> None:
    raw = lzma.decompress((sample_dir() / "AFC.json.xz").read_bytes())
    plain = tmp_path / "plain" / "AFC.json"
    plain.parent.mkdir()
    plain.write_bytes(raw)
    (tmp_path / "gz").mkdir()
    (tmp_path / "gz" / "AFC.json.gz").write_bytes(gzip.compress(raw))
    (tmp_path / "bz2").mkdir()
    (tmp_path / "bz2" / "AFC.json.bz2").write_bytes(bz2.compress(raw))
    counts = []
    for folder in ("plain", "gz", "bz2"):
        with carddb.open(db_url) as db:
            db.import_path(tmp_path / folder)
            counts.append(db.counts())
    assert counts[0] == counts[1] == counts[2]
    assert counts[0]["printings"] == 12


def test_an_allprintings_file_imports_like_its_set_files(db: carddb.Database, tmp_path: Path) -> None:
    path = write_json(
        tmp_path / "AllPrintings.json", all_printings("AFC.json.xz", "AFR.json.xz", "ELD.json.xz")
    )
    summary = db.import_path(path)
    assert summary.sets == 3
    assert db.counts()["printings"] == 33
    assert db.card("Unterreich-Spalte").english_name == "Underdark Rift"


def test_parallel_parsing_stores_the_same_rows(db: carddb.Database, tmp_path: Path) -> None:
    path = write_json(
        tmp_path / "AllPrintings.json",
        all_printings(*(path.name for path in sorted(sample_dir().glob("*.json.xz")))),
    )
    summary = db.import_path(path, parallel=True)
    assert summary.sets == 5
    counts = db.counts()
    db.import_path(*sorted(sample_dir().glob("*.json.xz")), parallel=False)
    assert db.counts() == counts


def test_a_newer_file_updates_what_changed(sample_db: carddb.Database, tmp_path: Path) -> None:
    data = read_set("AFC.json.xz")
    data["meta"]["date"] = "2023-01-01"
    rift = next(c for c in data["data"]["cards"] if c["name"] == "Underdark Rift")
    german = next(f for f in rift["foreignData"] if f["language"] == "German")
    german["name"] = "Unterreich-Kluft"
    rift["rulings"] = rift["rulings"][:1]
    before = sample_db.counts()
    sample_db.import_path(write_json(tmp_path / "AFC.json", data))
    card = sample_db.card("Unterreich-Kluft", lang="de")
    assert card.name == "Unterreich-Kluft"
    assert len(card.rulings) == 1
    after = sample_db.counts()
    assert after["localizations"] == before["localizations"]  # the old German variant was replaced
    assert after["rulings"] == before["rulings"] - 10


def test_an_older_file_does_not_undo_newer_data(sample_db: carddb.Database, tmp_path: Path) -> None:
    newer = read_set("AFC.json.xz")
    newer["meta"]["date"] = "2023-01-01"
    rift = next(c for c in newer["data"]["cards"] if c["name"] == "Underdark Rift")
    rift["text"] = rift["text"].replace("Roll a d10", "Roll a d12")
    sample_db.import_path(write_json(tmp_path / "new.json", newer))
    summary = sample_db.import_path(sample_dir() / "AFC.json.xz")
    assert summary.skipped_sets == ("AFC",)
    assert any("kept newer stored data" in w for w in summary.warnings)
    assert "Roll a d12" in (sample_db.card("Underdark Rift").faces[0].text or "")


def test_multi_face_cards_have_one_card_and_a_face_per_side(sample_db: carddb.Database) -> None:
    with sample_db.session() as session:
        giant = session.scalars(select(Card).where(Card.name == "Realm-Cloaked Giant // Cast Off")).one()
        assert giant.layout == "adventure"
        assert [(f.side, f.name) for f in giant.faces] == [("a", "Realm-Cloaked Giant"), ("b", "Cast Off")]
        assert len({p.set_code for p in giant.printings}) == 2


def test_ruling_rows_count_once_per_card(sample_db: carddb.Database) -> None:
    with sample_db.session() as session:
        per_card = session.execute(
            select(Ruling.card_id, Ruling.digest, func.count()).group_by(Ruling.card_id, Ruling.digest)
        ).all()
    assert all(count == 1 for _card, _digest, count in per_card)
