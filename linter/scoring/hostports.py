"""kube-scheduler 1.36's NodePorts filter: the host ports a pod asks for against those in use on a node.

A pod's host ports (``GetHostPorts``) are the ``ports`` entries with ``hostPort`` > 0 of its
restartable (``restartPolicy: Always``, sidecar) init containers, then of its containers; plain init
containers and ephemeral containers hold none. An empty ``hostIP`` means ``0.0.0.0`` and an empty
``protocol`` means ``TCP`` (``HostPortInfo.sanitize``); IPs and protocols are compared as strings, so
``::`` is no wildcard. A wanted ``0.0.0.0`` port conflicts with that protocol and port on any IP;
another IP conflicts with the same IP's entry or the ``0.0.0.0`` one (``HostPortInfo.CheckConflict``).
The API server defaults a ``hostNetwork`` pod's unset ``hostPort`` to its ``containerPort``
(``SetDefaults_Pod``), so a manifest is read as it will be stored. A pod's own ports never conflict
with each other. A pod with no host port skips the filter (its
PreFilter returns Skip). A conflict is plain Unschedulable: evicting the holder can free the port.

A node's used ports (``NodeInfo.UsedPorts``) are a *set*: each bound pod adds its entries, and taking a
pod off the node (preemption's dry run) deletes its entries even when another pod there holds the same
one (``HostPortInfo.Remove``).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

__all__ = ["REASON_NODE_PORTS", "WILDCARD_IP", "HostPort", "host_ports", "ports_conflict", "used_ports"]

REASON_NODE_PORTS = "node(s) didn't have free ports for the requested pod ports"
WILDCARD_IP = "0.0.0.0"  # DefaultBindAllHostIP

# (hostIP, protocol, hostPort), with the defaults filled in
HostPort = tuple[str, str, int]


def _port_number(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _container_ports(container: object, host_network: bool) -> Iterable[HostPort]:
    ports = container.get("ports") if isinstance(container, Mapping) else None
    for port in ports if isinstance(ports, list) else ():
        if not isinstance(port, Mapping):
            continue
        number = _port_number(port.get("hostPort"))
        if number == 0 and host_network:
            number = _port_number(port.get("containerPort"))
        if number <= 0:
            continue  # 0 (unset) is no host port; a non-number is not one the API server would store
        ip, protocol = port.get("hostIP"), port.get("protocol")
        yield (ip if isinstance(ip, str) and ip else WILDCARD_IP,
               protocol if isinstance(protocol, str) and protocol else "TCP", number)


def host_ports(pod: Mapping[str, Any]) -> tuple[HostPort, ...]:
    """The pod's host ports in Go's order (sidecar init containers first), defaults filled in."""
    spec = pod.get("spec")
    if not isinstance(spec, Mapping):
        return ()
    out: list[HostPort] = []
    host_network = spec.get("hostNetwork") is True
    init = spec.get("initContainers")
    for container in init if isinstance(init, list) else ():
        if isinstance(container, Mapping) and container.get("restartPolicy") == "Always":
            out.extend(_container_ports(container, host_network))
    containers = spec.get("containers")
    for container in containers if isinstance(containers, list) else ():
        out.extend(_container_ports(container, host_network))
    return tuple(out)


def used_ports(ports_of_pods: Iterable[Sequence[HostPort]]) -> set[HostPort]:
    """A node's ``UsedPorts`` after adding pods with these host ports."""
    used: set[HostPort] = set()
    for ports in ports_of_pods:
        used.update(ports)
    return used


def ports_conflict(wanted: Sequence[HostPort], used: Collection[HostPort]) -> bool:
    """Whether any wanted port conflicts with ``used`` (the filter rejects the node)."""
    if not wanted or not used:
        return False
    for ip, protocol, port in wanted:
        if ip == WILDCARD_IP:
            if any(u[1] == protocol and u[2] == port for u in used):
                return True
        elif (WILDCARD_IP, protocol, port) in used or (ip, protocol, port) in used:
            return True
    return False
