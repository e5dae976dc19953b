"""The preemption section in text, and its ``--plot`` picture: the nominated node's requested
amounts before and after the evictions against allocatable, one bar pair per resource."""

from __future__ import annotations

from typing import Any

from .render_text import format_amount

__all__ = ["render_preemption", "render_preemption_plot"]

Json = dict[str, Any]
BAR = 40  # characters for 100 % of allocatable


def _decision(sec: Json) -> list[str]:
    lines: list[str] = []
    node = sec["nominatedNode"]
    if node is not None:
        lines.append(f"  nominated node: {node} (status.nominatedNodeName); decided by: {sec['decidedBy']}")
    elif sec["possibleNodes"]:
        lines.append("  nominated node: not certain, one of " + ", ".join(sec["possibleNodes"]))
    for c in sec["candidates"]:
        mark = "*" if c["node"] == node else " "
        victims = ", ".join(f"{v['namespace']}/{v['name']} ({v['priority']})" for v in c["victims"]) or "-"
        lines.append(f"   {mark} {c['node']}: PDB violations {c['pdbViolations']}, highest victim priority "
                     f"{c['highestVictimPriority']}, priority sum {c['prioritySum']}, victims {len(c['victims'])}: "
                     f"{victims}")
    if sec["victimDetails"]:
        lines.append("  victims (most important first):")
        for v in sec["victimDetails"]:
            lines.append(f"    {v['namespace']}/{v['name']}  priority {v['priority']}  started {v['startTime'] or '-'}"
                         f": {v['why']}")
    chosen = next((c for c in sec["candidates"] if c["node"] == node), None)
    if chosen and chosen["reprieved"]:
        kept = ", ".join(f"{r['namespace']}/{r['name']} ({r['priority']})" for r in chosen["reprieved"])
        lines.append(f"  kept (put back in importance order, the pod still fits): {kept}")
    if sec["pdbsViolated"]:
        lines.append("  PodDisruptionBudgets violated: " + ", ".join(sec["pdbsViolated"]))
    if sec["clearedNominations"]:
        cleared = ", ".join(sec["clearedNominations"])
        lines.append(f"  lower-priority pods nominated there lose their nomination: {cleared}")
    return lines


def render_preemption(sec: Json | None) -> str:
    if sec is None:
        return "preemption: none (a node passes the filters; the pod is bound there)\n"
    lines = [f"preemption (priority {sec['preemptorPriority']}, preemptionPolicy {sec['preemptionPolicy']}):"]
    if not sec["eligible"]:
        lines.append(f"  not eligible: {sec['notEligibleReason']}")
        if sec["nominatedNodeBefore"]:
            lines.append(f"  the existing nomination to {sec['nominatedNodeBefore']} stays")
    elif not sec["candidates"]:
        lines.append("  no preemption can help; per-node reasons from the dry run:")
        for reason, count in sec["noPreemptionReasons"].items():
            lines.append(f"    {count} x {reason}")
        if sec["nominatedNodeBefore"]:
            lines.append(f"  the nomination to {sec['nominatedNodeBefore']} is cleared")
    else:
        lines += _decision(sec)
        if sec["potentialNodes"] > sec["candidatesTried"]:
            lines.append(f"  the scheduler dry-runs about {sec['candidatesTried']} of {sec['potentialNodes']} nodes "
                         "that could help, from a random offset")
    for note in sec["random"]:
        lines.append(f"  random: {note}")
    if sec["podsPriorityUnset"]:
        lines.append(f"  note: {sec['podsPriorityUnset']} pod(s) name a PriorityClass but carry no spec.priority; "
                     "the scheduler counts them as 0")
    lines.append(f"  FailedScheduling: {sec['message']}")
    return "\n".join(lines) + "\n"


def _bar(value: int, total: int, char: str) -> str:
    if total <= 0:
        return "(none allocatable)"
    filled = min(BAR, round(BAR * value / total))
    over = ">" if value > total else ""
    return char * filled + "." * (BAR - filled) + over


def render_preemption_plot(sec: Json | None) -> str:
    if sec is None or not sec.get("nominatedNodeResources"):
        return "no nominated node: nothing to plot for preemption\n"
    lines = [f"  {sec['nominatedNode']}: requested before (#) and after the evictions, with the pod (=), "
             f"against allocatable ({BAR} columns = 100 %)"]
    for r in sec["nominatedNodeResources"]:
        name, alloc = r["name"], r["allocatable"]
        lines.append(f"  {name}")
        lines.append(f"    before |{_bar(r['requestedBefore'], alloc, '#')}| "
                     f"{format_amount(name, r['requestedBefore'])} / {format_amount(name, alloc)}")
        lines.append(f"    after  |{_bar(r['requestedAfter'], alloc, '=')}| "
                     f"{format_amount(name, r['requestedAfter'])} / {format_amount(name, alloc)}"
                     f"  (-{format_amount(name, r['freedByVictims'])} victims, +{format_amount(name, r['podRequest'])}"
                     " pod)")
    return "\n".join(lines) + "\n"
