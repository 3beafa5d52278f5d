"""The search language (issue 5): a Scryfall-style query parsed into a typed AST (``ast``), from
text by the LALR grammar ``grammars/search.lark`` (``parse``), and compiled to one SQLAlchemy
select (``compile``)."""
