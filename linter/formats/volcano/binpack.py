"""What Volcano's binpack plugin reads from its ``arguments`` and how (docs/scoring.md, section 2).

The effective weights come from :func:`linter.scoring.volcano.parse_binpack_arguments`; this
module answers the questions the lint rules ask about the *written* arguments: which keys
Volcano reads with ``Arguments.GetInt``, whether a value is one it takes (a Go ``int``), and
the text Volcano logs when it is not.
"""

from __future__ import annotations

from collections.abc import Mapping

from linter.formats.volcano.govalue import go_v
from linter.scoring.volcano import go_trim_space

WEIGHT = "binpack.weight"
CPU = "binpack.cpu"
MEMORY = "binpack.memory"
RESOURCES = "binpack.resources"
RESOURCE_PREFIX = RESOURCES + "."
DEFAULT_WEIGHT = 1



def listed_resources(arguments: Mapping[str, object]) -> list[str]:
    """Names in ``binpack.resources`` as Volcano splits them (a non-string value counts as empty)."""
    listed = arguments.get(RESOURCES)
    if not isinstance(listed, str):
        return []
    out: list[str] = []
    for item in listed.split(","):
        name = go_trim_space(item)
        if name and name not in out:
            out.append(name)
    return out


def int_keys_read(arguments: Mapping[str, object]) -> list[str]:
    """Every key Volcano passes to ``GetInt``, in its order, that is present in the arguments."""
    keys = [WEIGHT, CPU, MEMORY] + [RESOURCE_PREFIX + n for n in listed_resources(arguments)]
    return [k for k in keys if k in arguments]


def could_not_parse_log(value: object, key: str) -> str:
    """Volcano's ``Arguments.GetInt`` warning for a value that is not an int."""
    return f"Could not parse argument: {go_v(value)} for key {key} to int"


def is_known_key(key: str) -> bool:
    return key in (WEIGHT, CPU, MEMORY, RESOURCES) or (key.startswith(RESOURCE_PREFIX) and len(key) > len(
        RESOURCE_PREFIX))
