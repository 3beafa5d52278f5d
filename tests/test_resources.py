"""Migrations, grammars and the sample are found whether carddb runs from a checkout or a wheel."""

from __future__ import annotations

import pytest

from carddb import resources


def test_migrations_are_found() -> None:
    assert (resources.migrations_dir() / "env.py").is_file()
    assert any(resources.migrations_dir().glob("versions/*.py"))


def test_the_shipped_sample_is_found() -> None:
    assert sorted(p.name for p in resources.sample_dir().glob("*.json.xz")) == [
        "AFC.json.xz",
        "AFR.json.xz",
        "ELD.json.xz",
        "M11.json.xz",
        "THB.json.xz",
    ]


def test_grammars_folder_is_found() -> None:
    assert resources.grammars_dir().is_dir()


def test_an_unknown_resource_is_a_clear_error() -> None:
    with pytest.raises(FileNotFoundError, match="spells"):
        resources.resource_dir("spells")
