"""The file-level rule codes (BPL001-BPL009): the engine, the source loader and the CLI report them
about a file as a whole (reading, parsing, recognising, limits, internal errors).

Each code string is written here and nowhere else; the rule modules in ``linter.rules.core``
document them.
"""

INVALID_YAML = "BPL001"
UNREADABLE_FILE = "BPL002"
EMPTY_FILE = "BPL003"
UNRECOGNIZED_DOCUMENT = "BPL004"
INPUT_LIMIT = "BPL005"
IGNORED_DOCUMENTS = "BPL006"
UNKNOWN_SUPPRESSION = "BPL007"
UNUSED_SUPPRESSION = "BPL008"
INTERNAL_ERROR = "BPL009"
