"""``column IN (values)`` for a list of any length, bound as one parameter (:func:`among`).

A module of its own, importing no dialect: the search's query path uses it too, and importing
SQLAlchemy's PostgreSQL dialect (which brings asyncio) costs every ``carddb search`` 40 ms.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from sqlalchemy import ARRAY, bindparam
from sqlalchemy.engine import Dialect
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.orm import QueryableAttribute
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.elements import BindParameter, ColumnElement
from sqlalchemy.sql.type_api import TypeDecorator
from sqlalchemy.sql.visitors import InternalTraversal
from sqlalchemy.types import Boolean, String, Text

__all__ = ["among"]


class _ValueList(TypeDecorator[Any]):
    """A list bound as one parameter: JSON text on SQLite (read back with ``json_each``), an array
    on PostgreSQL."""

    impl = Text
    cache_ok = True

    def process_bind_param(self, value: Any, dialect: Dialect) -> Any:
        return list(value) if dialect.name == "postgresql" else json.dumps(list(value))

    def load_dialect_impl(self, dialect: Dialect) -> Any:
        if dialect.name == "postgresql":
            return dialect.type_descriptor(ARRAY(Text))
        return dialect.type_descriptor(Text())


class Among(ColumnElement[bool]):
    """``column IN (values)`` with the values as one bound list (see :func:`among`)."""

    inherit_cache = True
    type = Boolean()
    _is_implicitly_boolean = True  # a predicate: WHERE renders it as it is, not as "… = 1"

    def __init__(self, column: ColumnElement[Any], values: BindParameter[Any]) -> None:
        self.column = column
        self.values = values

    # SQLAlchemy's declaration of the children, for statement caching (a list, as its own are).
    _traverse_internals = [  # noqa: RUF012
        ("column", InternalTraversal.dp_clauseelement),
        ("values", InternalTraversal.dp_clauseelement),
    ]


@compiles(Among, "sqlite")
def _among_sqlite(element: Among, compiler: SQLCompiler, **kw: Any) -> str:
    column = compiler.process(element.column, **kw)
    return f"{column} IN (SELECT value FROM json_each({compiler.process(element.values, **kw)}))"


@compiles(Among, "postgresql")
def _among_postgresql(element: Among, compiler: SQLCompiler, **kw: Any) -> str:
    column = compiler.process(element.column, **kw)
    return f"{column} = ANY(CAST({compiler.process(element.values, **kw)} AS {_array_of(element.column)}))"


def _array_of(column: ColumnElement[Any]) -> str:
    return "TEXT[]" if isinstance(column.type, String | Text) else "BIGINT[]"


def among(column: ColumnElement[Any] | QueryableAttribute[Any], values: Sequence[Any]) -> ColumnElement[bool]:
    """``column IN (values)`` for a list of any length, bound as one parameter: the statement is
    compiled once whatever the list (``IN`` with a parameter per value is rendered again for every
    list, which costs an import of the whole pool several seconds), and there is no limit on the
    number of values to chunk for."""
    element = column.__clause_element__() if isinstance(column, QueryableAttribute) else column
    return Among(element, bindparam(None, list(values), type_=_ValueList()))
