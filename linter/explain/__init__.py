"""``binpack-lint explain``: how the configured scheduler scores a pending pod on each node.

``command.run(args, out, err)`` is the command (``linter.cli.explain`` parses its arguments);
``explain(model, nodes, pods, pod, profile)`` returns the same explanation as a JSON-ready
dict for programmatic use.
"""

from linter.explain.compute import explain

__all__ = ["explain"]
