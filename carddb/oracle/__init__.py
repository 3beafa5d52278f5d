"""The oracle-text grammar: rules text into typed abilities, and back.

>>> from carddb.oracle import parse_oracle
>>> face = parse_oracle("{T}: Add {C}.", name="Underdark Rift", type_line="Land")
>>> face.abilities[0].kind.value, face.complete
('mana', True)
"""

from carddb.oracle.model import ParsedFace
from carddb.oracle.parse import parse_oracle
from carddb.oracle.render import render

__all__ = ["ParsedFace", "parse_oracle", "render"]
