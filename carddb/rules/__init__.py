"""The Comprehensive Rules: reading the published text file (:mod:`~carddb.rules.parse`), storing
one edition at a time (:mod:`~carddb.rules.importer`), finding the rule numbers a text mentions
(:mod:`~carddb.rules.mentions`) and showing a rule by number or glossary term
(:mod:`~carddb.rules.lookup`)."""
