"""deviceshare switches that cannot be on together: Volcano exits when a session opens.

What it does:
    Follows deviceshare's ``enablePredicate`` over the conf's deviceshare entries, in order, for two
    sessions: ``deviceshare.GPUSharingEnable``, ``deviceshare.GPUNumberEnable`` and
    ``deviceshare.VGPUEnable`` are read with ``GetBool`` (a YAML boolean, or a string ``strconv.ParseBool``
    accepts such as ``"true"``; any other value is ignored and the switch keeps its value). It reports the
    first entry at which GPU sharing and GPU number are both on, or either of them with vGPU.

    The three switches are package-level variables, not per entry: a switch one entry turns on stays on
    for the entries after it and, in the next session, for the ones before it, until an entry sets it to
    false. Two deviceshare entries that each turn on one switch conflict as surely as one entry that turns
    on both.

Why it matters:
    Volcano calls ``klog.Fatal("can not define true in both gpu sharing and gpu number")`` or
    ``klog.Fatal("gpu-share and vgpu can't be used together")`` while it builds the plugin for a session,
    which ends the process; every restart exits again, so nothing is scheduled.

Example (fails):
    actions: "enqueue, allocate"
    tiers:
    - plugins:
      - name: deviceshare
        arguments:
          deviceshare.GPUSharingEnable: true
          deviceshare.GPUNumberEnable: true

Use instead (passes):
    actions: "enqueue, allocate"
    tiers:
    - plugins:
      - name: deviceshare
        arguments:
          deviceshare.GPUSharingEnable: true
"""

from linter.findings import Severity
from linter.formats.volcano import argchecks, codes

CODE = codes.DEVICESHARE_EXITS
NAME = "volcano-deviceshare-exits"
SUMMARY = "deviceshare GPU sharing, GPU number and vGPU switches that conflict: Volcano exits"
SEVERITY = Severity.ERROR
FORMATS = frozenset({"volcano"})

check = argchecks.deviceshare_exits
