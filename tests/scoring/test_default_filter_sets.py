"""The default Filter set of kube-scheduler 1.36 is written down in three places: the plugin registry
(linter.formats.kubesched.registry: the default multiPoint plugins and each plugin's extension points),
the plugins the model leaves out (linter.scoring.unmodelled, which names only filters the profile runs,
and stands a profile without a resolved Filter list for the default set) and the modelled filters
(linter.scoring.feasibility.DEFAULT_FILTERS, in the order the framework runs them). A plugin added to or
dropped from the 1.36 defaults must change all three.
"""

from __future__ import annotations

from linter.engine import load_scheduler_model
from linter.formats.kubesched.registry import DEFAULT_MULTI_POINT, PLUGINS
from linter.model import KubeSchedulerModel
from linter.scoring import feasibility
from linter.scoring.unmodelled import _DEFAULT_FILTERS  # private: the hand-written set under test


def _registry_default_filters() -> list[str]:
    """The default multiPoint plugins that implement Filter, in multiPoint order."""
    return [name for name, _ in DEFAULT_MULTI_POINT if "filter" in (PLUGINS[name] or ())]


def test_the_registry_default_filters_are_what_an_empty_profile_resolves_to() -> None:
    text = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n- {}\n"
    model, findings = load_scheduler_model(text, "c.yaml")
    assert isinstance(model, KubeSchedulerModel), findings
    assert model.profiles[0].filter_plugins == tuple(_registry_default_filters())


def test_the_unmodelled_default_filter_set_is_the_registrys() -> None:
    assert frozenset(_registry_default_filters()) == _DEFAULT_FILTERS


def test_the_modelled_filters_are_default_filters_in_the_framework_order() -> None:
    modelled = [n for n in feasibility.DEFAULT_FILTERS if n != feasibility.NODE_AFFINITY_PREFILTER]
    registry = _registry_default_filters()
    assert set(modelled) <= set(registry)
    assert modelled == [n for n in registry if n in modelled]
