"""Rule codes of the PriorityClass wing: BPL070-079 schema, BPL500-549 API-server validation and
cross-file checks. Each code string is written here and nowhere else.
"""

SCHEMA = "BPL070"
UNKNOWN_FIELD = "BPL071"
DUPLICATE_KEY = "BPL072"
INVALID = "BPL500"
MULTIPLE_GLOBAL_DEFAULTS = "BPL501"
MISSING_VALUE = "BPL502"
CONFLICTING_DEFINITIONS = "BPL503"
