"""``binpack-lint explain``: how the configured scheduler scores a pending pod on each node.

``main(argv)`` is the command (the lead's ``linter.cli`` dispatches ``explain`` to it);
``explain(model, nodes, pods, pod, profile)`` returns the same explanation as a JSON-ready
dict for programmatic use.
"""

from linter.explain.cli import main
from linter.explain.compute import explain

__all__ = ["explain", "main"]
