"""A pod review never pauses mid-request in a gevent worker.

The server's workers are gevent workers: one greenlet per connection, switching only where a greenlet
waits. A decision that waits anywhere (a lock, a sleep, a socket) hands the worker to the connections
behind it, and its own answer comes only after theirs. Run in a fresh interpreter patched as gunicorn's
gevent worker patches it: a real ``ClusterCache`` synced from the replay server, then the pod CREATE
decision and the health checks, with greenlet's trace hook counting every switch away from the
deciding greenlet.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from paths import ROOT, SHARED
from replay_server import ReplayServer

PROBE = """
from gevent import monkey
monkey.patch_all()

import json, sys
import greenlet
from webhook.admission.decide import pods
from webhook.admission.decode import decode
from webhook.admission.scheduler_models import SchedulerModels
from webhook.cluster.cache import ClusterCache
from webhook.settings import Settings

cache = ClusterCache.from_kubeconfig(sys.argv[1])
cache.start()
assert cache.wait_synced(20), "cache did not sync"
settings = Settings.from_env({})
models = SchedulerModels(settings.scheduler_config, settings.volcano_config, settings.scheduler_build)
review = decode(open(sys.argv[2], "rb").read())

me = greenlet.getcurrent()
paused = []

def trace(event, args):
    if event in ("switch", "throw") and args[0] is me:
        paused.append(event)

greenlet.settrace(trace)
decisions = [pods.decide(review, cache, settings, models) for _ in range(20)]
healthy = [cache.is_healthy() for _ in range(20)]
greenlet.settrace(None)
print(json.dumps({"switches": len(paused), "patched": all(bool(d.patch) for d in decisions),
                  "allowed": all(d.allowed for d in decisions), "healthy": all(healthy)}))
cache.stop()
"""

REVIEW = SHARED / "fixtures/admission/priority-plugin-on/pod-create-known-class.json"


def test_a_pod_decision_never_yields_to_other_connections(replay: ReplayServer, tmp_path: Path) -> None:
    kubeconfig = replay.kubeconfig(tmp_path / "kubeconfig")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", PROBE, str(kubeconfig), str(REVIEW)], capture_output=True,
                         text=True, timeout=120, env=env, cwd=ROOT)
    assert out.returncode == 0, out.stderr[-2000:]
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["allowed"] and result["patched"] and result["healthy"]  # the real, scored path ran
    assert result["switches"] == 0
