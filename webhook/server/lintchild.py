"""The child process of ``webhook.server.boundedlint``: lint a ConfigMap's data under resource limits.

Run as ``python -m webhook.server.lintchild MEMORY_MIB CPU_SECONDS SCHEDULER_BUILD``. It caps its own address space and
CPU time first, then reads a JSON object ``{data key: text}`` from stdin and writes a JSON list of
findings (``Finding.as_dict``) to stdout. Past the memory cap Python raises MemoryError (exit 1, the
parent reads "MemoryError" on stderr); past the CPU cap the kernel kills it. Imports only the linter.
"""

from __future__ import annotations

import json
import resource
import sys

MIB = 1024 * 1024


def child_main(argv: list[str]) -> int:
    memory_mib, cpu_seconds, build = int(argv[0]), int(argv[1]), argv[2]
    resource.setrlimit(resource.RLIMIT_AS, (memory_mib * MIB, memory_mib * MIB))
    resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 1))
    from linter.engine import lint_configmap_data  # after the limits, so the import counts against them too
    from linter.settings import LintSettings

    settings = LintSettings(scheduler=build)
    data = json.loads(sys.stdin.buffer.read())
    findings = [f.as_dict() for f in lint_configmap_data(data, settings)]
    sys.stdout.write(json.dumps(findings, ensure_ascii=True))
    return 0


if __name__ == "__main__":
    sys.exit(child_main(sys.argv[1:]))
