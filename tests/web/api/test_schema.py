"""The OpenAPI schema describes the API (issue 31 item 12): schemathesis generates requests
for every operation and checks each answer's status code, content type, headers and body
against the schema, and that no answer is a 5xx; bounded in examples and time."""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
    unsupported_method,
)

from monsterball.web.api import services
from tests.helpers.web import CHEAP_HASHING, app_at

# schemathesis's pytest plugin, loaded only where it is used
# (pyproject.toml: no plugin is autoloaded).
pytest_plugins = ["schemathesis.pytest.plugin"]
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def api_schema(request, tmp_path_factory):
    """The app and its schema, built when the test runs (not while tests are collected)."""
    # schemathesis 4.32's lazy schema reads ``node._nodeid``, which pytest 9 no longer has
    # (it names each operation's subtest with it): give it the node's id.
    if not hasattr(request.node, "_nodeid"):
        request.node._nodeid = request.node.nodeid
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(services, "HASH_PARAMS", {**services.HASH_PARAMS, **CHEAP_HASHING})
        app = app_at(tmp_path_factory.mktemp("schema") / "games.db")
        yield schemathesis.openapi.from_asgi("/openapi.json", app)


schema = schemathesis.pytest.from_fixture("api_schema")
# Not positive_data_acceptance: the API refuses some schema-valid requests on rules a JSON
# schema cannot say (a guessable password, an unknown game or option), with a documented 400.
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    unsupported_method,
]


@pytest.mark.slow  # 55 operations, each with generated requests
@schema.parametrize()
@settings(
    max_examples=4,
    deadline=None,
    database=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
def test_every_operation_answers_as_its_schema_says(case):
    case.call_and_validate(checks=CHECKS)
