"""The text form of an explanation: a ranking, then per node the resource table and the
final score written out as the arithmetic the scheduler does."""

from __future__ import annotations

import math
from typing import Any

from linter.scoring.sampling import sampled_note

from .nonfinite import nonfinite_text
from .render_imagelocality import image_locality_column, image_locality_header, image_locality_lines

__all__ = ["format_amount", "render_text"]

Json = dict[str, Any]
_UNITS = (("Ei", 2**60), ("Pi", 2**50), ("Ti", 2**40), ("Gi", 2**30), ("Mi", 2**20),
          ("E", 10**18), ("P", 10**15), ("T", 10**12), ("G", 10**9), ("M", 10**6))
_BYTES = ("memory", "ephemeral-storage")


def format_amount(name: str, value: float | int | None, *, volcano: bool = False) -> str:
    """Scheduler integers in their unit: cpu millicores, bytes as Mi..Ei or M..E when exact."""
    if value is None:
        return "-"
    if isinstance(value, float) and not math.isfinite(value):
        return nonfinite_text(value)  # Volcano's, from an oversubscription annotation
    if name == "cpu":
        return f"{value:g}m" if isinstance(value, float) else f"{value}m"
    if volcano and name not in ("memory", "pods"):
        return f"{value / 1000:g}"  # Volcano keeps these in milli-units
    number = int(value)
    if (name in _BYTES or name.startswith("hugepages-")) and number:
        for suffix, size in _UNITS:
            if number % size == 0:
                return f"{number // size}{suffix}"
    return f"{value:g}" if isinstance(value, float) else str(value)


def _float(value: float, digits: int) -> str:
    """``value`` to ``digits`` significant digits; NaN and the infinities as Go prints them."""
    return f"{value:.{digits}g}" if math.isfinite(value) else nonfinite_text(value)


def _table(rows: list[list[str]]) -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    out = []
    for row in rows:
        cells = [c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths, strict=True))]
        out.append("    " + "  ".join(cells).rstrip())
    return out


def _fit_arithmetic(doc: Json, node: Json) -> str:
    counted = [r for r in node["resources"] if not r["skipped"] and r["counted"]]
    if not counted:
        return "no resource left to score -> 0"
    products = " + ".join(f"{r['resourceScore']}*{r['weight']}" for r in counted)
    weights = " + ".join(str(r["weight"]) for r in counted)
    num, den = node["weightedSum"], node["weightSum"]
    if doc["strategy"] == "RequestedToCapacityRatio" or doc["engine"] == "legacy-rtcr":
        return f"round(({products}) / ({weights})) = round({num} / {den}) = round({num / den:.2f}) = {node['score']}"
    return f"floor(({products}) / ({weights})) = floor({num} / {den}) = {node['score']}"


def _k8s_node(doc: Json, node: Json) -> list[str]:
    lines: list[str] = []
    if node.get("resources") is not None:
        rows = [["resource", "weight", "pod request", "requested / allocatable", "utilization", "score"]]
        for r in node["resources"]:
            if r["skipped"]:
                rows.append([r["name"], str(r["weight"]), format_amount(r["name"], r["podRequest"]),
                             "skipped", "-", "-"])
                continue
            note = "" if r["counted"] else " (left out)"
            rows.append([r["name"], str(r["weight"]), format_amount(r["name"], r["podRequest"]),
                         f"{format_amount(r['name'], r['requested'])} / {format_amount(r['name'], r['allocatable'])}",
                         f"{r['utilization']}%", f"{r['resourceScore']}{note}"])
        lines += _table(rows)
        label = "Policy priority" if doc["engine"] == "legacy-rtcr" else "NodeResourcesFit"
        lines.append(f"    {label} = {_fit_arithmetic(doc, node)}; * weight {doc['pluginWeight']} = "
                     f"{node['weightedScore']}")
    if node.get("balancedSkipped"):
        lines.append("    NodeResourcesBalancedAllocation: skipped (the pod requests none of its resources)")
    elif node.get("balancedScore") is not None:
        w, wo = node["balancedWithPod"], node["balancedWithoutPod"]
        lines.append(f"    NodeResourcesBalancedAllocation = 50 + floor((50 + {w} - {wo}) / 2) = "
                     f"{node['balancedScore']} (balance {w} with the pod, {wo} without); "
                     f"* weight {node['balancedWeight']}")
    return lines


def _most(doc: Json, prefix: str) -> int:
    """The largest raw score of a feasible node: what the plugin normalises by."""
    return max([0, *(int(n[prefix + "Raw"]) for n in doc["nodes"] if n["feasible"])])


def _preference_header(doc: Json) -> list[str]:
    """One line per modelled preference plugin of the profile: its weight and how it normalises."""
    lines: list[str] = []
    if not any(n["feasible"] for n in doc["nodes"]):
        weighted = [f"{name} (weight {doc[key]})" for name, key in (
            ("TaintToleration", "taintTolerationWeight"), ("NodeAffinity", "nodeAffinityWeight"),
            ("PodTopologySpread", "podTopologySpreadWeight")) if doc.get(key)
            and (key != "podTopologySpreadWeight" or doc.get("podTopologySpreadConstraints"))]
        if doc.get("interPodAffinityWeight") and not doc["interPodAffinitySkipped"]:
            weighted.append(f"InterPodAffinity (weight {doc['interPodAffinityWeight']})")
        return [f"  {' and '.join(weighted)} score feasible nodes only: none is feasible"] if weighted else []
    if doc.get("taintTolerationWeight"):
        head = f"  TaintToleration, weight {doc['taintTolerationWeight']}: "
        most = _most(doc, "taintToleration")
        lines.append(head + ("no feasible node has a PreferNoSchedule taint the pod does not tolerate -> 100 each"
                             if not most else f"100 - floor(100 * untolerated PreferNoSchedule taints / {most})"))
    if doc.get("interPodAffinityWeight") and not doc["interPodAffinitySkipped"]:  # skipped: the usual case
        lines.append(_pod_affinity_header(doc))
    if doc.get("nodeAffinityWeight"):
        head = f"  NodeAffinity, weight {doc['nodeAffinityWeight']}: "
        if doc["nodeAffinitySkipped"]:
            lines.append(head + "skipped (no preferred node affinity in the pod or the profile)")
        else:
            most = _most(doc, "nodeAffinity")
            lines.append(head + ("no preferred term matches a feasible node -> 0 each" if not most
                                 else f"floor(100 * weights of the matching preferred terms / {most})"))
    if doc.get("podTopologySpreadWeight") and not doc["podTopologySpreadSkipped"]:  # a skip is the usual case
        lines.append(f"  PodTopologySpread, weight {doc['podTopologySpreadWeight']}: "
                     "raw = round(sum of matching pods * ln(domains + 2) + maxSkew - 1); "
                     "floor(100 * (max + min - raw) / max), nodes without a required key 0")
    return lines


def _spread_header(doc: Json) -> list[str]:
    """The PodTopologySpread constraints that act on the pod, and why its default selector may fall short."""
    constraints = doc.get("podTopologySpreadConstraints") or []
    lines = []
    if constraints:
        source = "the profile's default constraints, with the pod's default selector" \
            if doc.get("podTopologySpreadDefaulted") else "the pod's own constraints"
        lines.append("  PodTopologySpread (" + source + "): " + "; ".join(
            f"{c['topologyKey']} maxSkew {c['maxSkew']} {c['whenUnsatisfiable']}"
            + (f" minDomains {c['minDomains']}" if c["minDomains"] != 1 else "") for c in constraints))
    if doc.get("podTopologySpreadNote"):
        lines.append(f"  note: {doc['podTopologySpreadNote']}")
    return lines


def _preemption_leaves_out(doc: Json) -> list[str]:
    """The computed filters the preemption section's dry runs do not re-run."""
    left_out = doc.get("preemptionLeavesOut") or []
    if not left_out:
        return []
    return ["  note: the preemption section's dry runs leave out " + " and ".join(f"{n}'s filter" for n in left_out)
            + " (not modelled there): its victims and message may differ from kube-scheduler's"]


def _affinity_range(doc: Json) -> tuple[int, int]:
    """InterPodAffinity's lowest and highest raw score over the feasible nodes (what it normalises by)."""
    raws = [int(n["interPodAffinityRaw"]) for n in doc["nodes"] if n["feasible"]]
    return min(raws), max(raws)


def _pod_affinity_header(doc: Json) -> str:
    head = f"  InterPodAffinity, weight {doc['interPodAffinityWeight']}: "
    low, high = _affinity_range(doc)
    if low == high:
        return head + "every feasible node has the same summed term weight -> 0 each"
    return head + f"int(100 * (summed term weights - {low}) / {high - low})"


def _preference_lines(doc: Json, node: Json) -> list[str]:
    """The arithmetic of a feasible node's TaintToleration and NodeAffinity scores, where they differ."""
    if not node["feasible"]:
        return []
    lines: list[str] = []
    if doc.get("taintTolerationWeight") and (most := _most(doc, "taintToleration")):
        lines.append(f"    TaintToleration = 100 - floor(100 * {node['taintTolerationRaw']} / {most}) = "
                     f"{node['taintTolerationScore']}; * weight {doc['taintTolerationWeight']}")
    if doc.get("nodeAffinityWeight") and not doc["nodeAffinitySkipped"] and (most := _most(doc, "nodeAffinity")):
        lines.append(f"    NodeAffinity = floor(100 * {node['nodeAffinityRaw']} / {most}) = "
                     f"{node['nodeAffinityScore']}; * weight {doc['nodeAffinityWeight']}")
    if doc.get("podTopologySpreadWeight") and node.get("podTopologySpreadScore") is not None:
        lines.append(f"    PodTopologySpread: raw {node['podTopologySpreadRaw']} -> "
                     f"{node['podTopologySpreadScore']}; * weight {doc['podTopologySpreadWeight']}")
    if doc.get("interPodAffinityWeight") and not doc["interPodAffinitySkipped"]:
        low, high = _affinity_range(doc)
        if high > low:
            lines.append(f"    InterPodAffinity = int(100 * ({node['interPodAffinityRaw']} - {low}) / {high - low}) = "
                         f"{node['interPodAffinityScore']}; * weight {doc['interPodAffinityWeight']}")
    return lines


def _volcano_node(doc: Json, node: Json) -> list[str]:
    if node.get("resources") is None:
        return []
    rows = [["resource", "weight", "request", "used", "request+used / allocatable", "term"]]
    for r in node["resources"]:
        n = r["name"]
        rows.append([n, str(r["weight"]), format_amount(n, r["podRequest"], volcano=True),
                     format_amount(n, r["used"], volcano=True),
                     f"{format_amount(n, r['requested'], volcano=True)} / "
                     f"{format_amount(n, r['allocatable'], volcano=True)}", _float(r["term"], 6)])
    lines = _table(rows)
    weight = doc["pluginWeight"]
    if not node["nodeOrderRegistered"]:
        lines.append("    binpack adds nothing: binpack.weight is 0 or enableNodeOrder is false")
        return lines
    if node["rejectedBy"]:
        lines.append(f"    binpack = 0: {node['rejectedBy']} request + used exceeds allocatable")
        return lines
    terms = " + ".join(_float(r["term"], 6) for r in node["resources"]) or "0"
    lines.append(f"    binpack = ({terms}) / {node['weightSum']} * (100 * {weight}) = "
                 f"{_float(node['binpackScore'], 10)}")
    if doc["binpackCalls"] > 1:
        lines.append(f"    called {doc['binpackCalls']} times (once per binpack entry with node ordering on) "
                     f"= {_float(node['score'], 10)}")
    return lines


def _volcano_filters(doc: Json) -> list[str]:
    """What Volcano's allocate action checks besides the resources, when it differs from the default."""
    lines = []
    switches = doc.get("predicates")
    if switches is None:
        lines.append("  filters: only the allocate action's resource check (no predicates entry with "
                     "enablePredicate on)")
    else:
        off = [name for key, name in (("nodeAffinity", "NodeAffinity"), ("taintToleration", "TaintToleration"),
                                      ("nodePorts", "NodePorts")) if not switches[key]]
        if off:
            lines.append("  filters: predicates with " + ", ".join(off) + " off")
    if doc.get("notModelledPredicatePlugins"):
        lines.append("  not modelled: the predicate functions Volcano also calls of "
                     + ", ".join(doc["notModelledPredicatePlugins"]))
    return lines


def _plugin_label(plugin: Json) -> str:
    weights = plugin["weights"]
    if not weights:
        return str(plugin["name"])
    return f"{plugin['name']} (" + ", ".join(f"{k} {v}" for k, v in weights.items()) + ")"


def _for_pod_line(parts: Json) -> str:
    """notModelledForPod as one line: each plugin at its point, with the pod's reason."""
    named = [f"{point[:-1]} {name} ({why})" for point in ("filters", "scores")
             for name, why in parts.get(point, {}).items()]
    return "  not modelled, and they act on this pod (feasibility and order may differ): " + "; ".join(named)


def render_text(doc: Json) -> str:
    engine = doc["engine"]
    title = {"k8s-fit": "kube-scheduler 1.36", "volcano-binpack": "Volcano binpack",
             "legacy-rtcr": "legacy Policy (1.16-1.17, 0..10 scale)"}[engine]
    label = "priority" if engine == "legacy-rtcr" else "profile"
    lines = [f"{doc['pod']} on {title}" + (f", {label} {doc['profile']}" if doc.get("profile") else "")]
    if doc["strategy"] is None:
        lines.append("  no bin-packing score is configured: only feasibility is shown")
    else:
        lines.append(f"  strategy {doc['strategy']}, plugin weight {doc['pluginWeight']}")
    if doc.get("shape"):
        scale = "" if engine == "legacy-rtcr" else " (scores x10 -> 0..100)"
        pts = " ".join(f"({p['utilization']},{p['score']})" for p in doc["shape"])
        lines.append(f"  shape {pts}{scale}")
    if doc.get("binpackEntries", 0) > 1:
        lines.append(f"  note: {doc['binpackEntries']} binpack entries; Volcano calls the last one with a "
                     f"binpack.weight other than 0 once per entry whose enableNodeOrder is not false "
                     f"({doc['binpackCalls']} times), and that entry is explained")
    if doc.get("notModelledScorePlugins"):
        names = ", ".join(f"{p['name']} (weight {p['weight']})" for p in doc["notModelledScorePlugins"])
        lines.append(f"  not modelled, left out of every total: the scores of {names}")
    if doc.get("notModelledNodeOrderPlugins"):
        lines.append("  not modelled, left out of every total: the node-order scores Volcano adds to binpack's "
                     "from " + ", ".join(map(_plugin_label, doc["notModelledNodeOrderPlugins"])))
    if doc.get("notModelledForPod"):
        lines.append(_for_pod_line(doc["notModelledForPod"]))
    if engine == "k8s-fit":
        lines += _spread_header(doc) + _preemption_leaves_out(doc)
    lines += _preference_header(doc) + image_locality_header(doc)
    if doc.get("interPodAffinityNeedsNamespaces"):
        # as kube-scheduler with no Namespaces: the pod's selectors list none, a bound pod's term reads the
        # pending pod's Namespace as unlabelled (GetNamespaceLabelsSnapshot's empty set), so NotIn matches
        lines.append("  InterPodAffinity: a namespaceSelector picks namespaces by their labels, and STATE holds no "
                     "Namespace objects: the pod's own selectors took no namespace, bound pods' selectors were "
                     "matched against a namespace without labels (add namespaces to the dump: "
                     "kubectl get namespaces,nodes,pods,... -A -o yaml)")
    if engine == "volcano-binpack":
        lines += _volcano_filters(doc)
    request = ", ".join(f"{n} {format_amount(n, v, volcano=engine == 'volcano-binpack')}"
                        for n, v in doc["podRequest"].items())
    lines.append(f"  pod request as the scorer sees it: {request}")
    feasible = sum(1 for node in doc["nodes"] if node["feasible"])
    to_find = doc.get("feasibleNodesToFind")
    if to_find is not None and feasible > to_find:
        lines.append("  note: " + sampled_note(engine == "volcano-binpack", to_find, feasible, "the first node below"))
    lines.append("")
    # TaintToleration's and NodeAffinity's columns only where the profile scores with them, ImageLocality's
    # where some node scores above 0
    anything = any(n["feasible"] for n in doc["nodes"])
    extra = [(title, key) for title, key, shown in (
        ("taints", "taintToleration", anything and doc.get("taintTolerationWeight")),
        ("affinity", "nodeAffinity", anything and doc.get("nodeAffinityWeight") and not doc["nodeAffinitySkipped"]),
        ("spread", "podTopologySpread", anything and doc.get("podTopologySpreadWeight")
         and not doc["podTopologySpreadSkipped"]),
        ("pod-aff", "interPodAffinity",
         anything and doc.get("interPodAffinityWeight") and not doc["interPodAffinitySkipped"]),
        ("images", "imageLocality", image_locality_column(doc)),
    ) if shown]
    rank = [["#", "node", "feasible", "score", "weighted", "balanced", *(t for t, _ in extra), "total"]]
    for i, node in enumerate(doc["nodes"], 1):
        score = node["score"]
        rank.append([str(i), node["name"], "yes" if node["feasible"] else "no",
                     "-" if score is None else _float(score, 10) if isinstance(score, float) else str(score),
                     "-" if node["weightedScore"] is None else _float(node["weightedScore"], 10),
                     "-" if node.get("balancedScore") is None else str(node["balancedScore"]),
                     *("-" if node[key + "Score"] is None else str(node[key + "Score"]) for _, key in extra),
                     str(node["total"]) if "total" in node else "-"])
    lines += [line[2:] for line in _table(rank)]
    for node in doc["nodes"]:
        lines.append("")
        verdict = "feasible" if node["feasible"] else "infeasible: " + ", ".join(node["reasons"])
        if node["feasible"] and node.get("fitsIdle") is False:
            verdict += " (only with the room of its Releasing pods: Volcano takes it only if no node fits without)"
        short = node.get("insufficientResources") or []
        if len(short) > 1 and short[0] not in ("cpu", "memory"):  # Volcano names a random one of these
            verdict += " (Volcano names any one of " + ", ".join(short) + ": Go map order)"
        if node.get("oversubscription"):  # Volcano's allocatable is status.allocatable plus these
            verdict += " (allocatable plus its oversubscription annotations: " + ", ".join(
                f"{name} {format_amount(name, amount, volcano=True)}"
                for name, amount in node["oversubscription"].items()) + ")"
        if node.get("nominatedPods"):  # the filters counted them; the scores below do not
            verdict += " (filters count the pods nominated here: " + ", ".join(node["nominatedPods"]) + ")"
        lines.append(f"  {node['name']}: {verdict}")
        lines += _volcano_node(doc, node) if engine == "volcano-binpack" else _k8s_node(doc, node)
        if engine == "k8s-fit":
            lines += _preference_lines(doc, node) + image_locality_lines(doc, node)
    if doc.get("message"):
        lines += ["", f"  Volcano: {doc['message']}"]
    return "\n".join(lines) + "\n"
