"""Settings from BINPACK_GUARD_* variables and keyword overrides, with one-line errors naming the variable."""

from __future__ import annotations

import pytest

from webhook.settings import Settings, SettingsError


def test_defaults() -> None:
    settings = Settings.from_env({})
    assert settings == Settings()
    assert (settings.top, settings.max_body_bytes, settings.volcano_scheduler_name) == (10, 7 * 1024 * 1024, "volcano")


def test_environment_then_overrides() -> None:
    env = {"BINPACK_GUARD_TOP": "3", "BINPACK_GUARD_SCHEDULER_CONFIG": "/etc/s.yaml", "BINPACK_GUARD_KUBECONFIG": ""}
    settings = Settings.from_env(env, top=7, lease_namespace=None)
    assert (settings.top, settings.scheduler_config, settings.kubeconfig) == (7, "/etc/s.yaml", None)


@pytest.mark.parametrize(
    ("env", "overrides", "fragment"),
    [
        ({"BINPACK_GUARD_TOP": "ten"}, {}, "BINPACK_GUARD_TOP: not an integer"),
        ({"BINPACK_GUARD_TOP": "-1"}, {}, "BINPACK_GUARD_TOP: must be an integer >= 0"),
        ({}, {"workers": 0}, "BINPACK_GUARD_WORKERS"),
        ({"BINPACK_GUARD_SYNC_WAIT_SECONDS": "0"}, {}, "BINPACK_GUARD_SYNC_WAIT_SECONDS: must be an integer >= 1"),
        ({"BINPACK_GUARD_LOG_LEVEL": "loud"}, {}, "BINPACK_GUARD_LOG_LEVEL"),
        ({}, {"no_such": 1}, "unknown setting(s): no_such"),
    ],
)
def test_bad_values(env: dict[str, str], overrides: dict[str, object], fragment: str) -> None:
    with pytest.raises(SettingsError) as caught:
        Settings.from_env(env, **overrides)
    assert fragment in str(caught.value) and "\n" not in str(caught.value)
