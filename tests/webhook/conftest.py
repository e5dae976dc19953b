"""Fixtures for the webhook tests: a ``create_app`` over a ``StaticClusterView``, and a replay apiserver."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from replay_server import ReplayServer
from webhook_helpers import InMemoryLeaseStore, builtin_priority_classes, fixture_nodes

from webhook.admission.scheduler_models import SchedulerModels
from webhook.cluster.lease import LeaseDefaultClassClaim
from webhook.cluster.static import StaticClusterView
from webhook.server.app import create_app
from webhook.settings import Settings

AppFactory = Callable[..., Flask]


@pytest.fixture
def lease_store() -> InMemoryLeaseStore:
    return InMemoryLeaseStore()


@pytest.fixture
def view() -> StaticClusterView:
    """The recorded cluster's nodes (node-a, node-b, node-c) and the two built-in classes."""
    return StaticClusterView(nodes=fixture_nodes(), priority_classes=builtin_priority_classes())


@pytest.fixture
def make_app(lease_store: InMemoryLeaseStore) -> AppFactory:
    def build(view: StaticClusterView, models: SchedulerModels | None = None, **settings: Any) -> Flask:
        return create_app(
            Settings(**settings),
            view,
            default_class_claim=LeaseDefaultClassClaim(lease_store),
            scheduler_models=models or SchedulerModels.static(),
        )

    return build


@pytest.fixture
def client(make_app: AppFactory, view: StaticClusterView) -> FlaskClient:
    return make_app(view).test_client()


@pytest.fixture
def replay() -> Iterator[ReplayServer]:
    """An apiserver on 127.0.0.1 answering from the recorded list/watch fixtures (one per test)."""
    server = ReplayServer().serve_fixtures().start()
    yield server
    server.stop()
