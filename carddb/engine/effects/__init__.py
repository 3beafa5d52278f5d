"""The verb handlers, by domain: each module declares its verbs, conditions and qualifiers in its SECTION."""
