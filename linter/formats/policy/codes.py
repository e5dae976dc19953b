"""Rule codes of the legacy Policy wing: BPL050-059 decoding, BPL300-349 removal, 1.22 validation and
migration. Each code string is written here and nowhere else.
"""

SCHEMA = "BPL050"
UNKNOWN_FIELD = "BPL051"
DUPLICATE_KEY = "BPL052"
REMOVED = "BPL300"
INVALID = "BPL301"
UNKNOWN_NAME = "BPL302"
RTCR_MIGRATION = "BPL303"
SHAPE_SPREADS = "BPL304"
SCHEDULER_POD_POLICY_FLAGS = "BPL305"
