"""A pytest plugin that points speky's own MCP test cases at speky-ts's server.

speky's tests/test_mcp_server.py builds a Specification from sample files, then calls
`handle_request(request, specs, initialized)` in process. With this plugin loaded
(`-p speky_ts_pytest`, this folder on PYTHONPATH), each such call is sent instead as a JSON-RPC
line to the built speky-ts server (`dist/commands/mcp.js`) started on the same files, and its
answer returned: speky's assertions then judge our answers. An initialized session is kept per
set of files; a call made as if not initialized goes to a fresh server that never was.
See run-pytest.sh.
"""

import atexit
import json
import os
import subprocess
from pathlib import Path

import pytest
import speky_mcp.server
from speky.specification import Specification

REPO = Path(__file__).resolve().parents[3]
MCP_MAIN = REPO / 'dist' / 'commands' / 'mcp.js'
NODE = os.environ.get('SPEKY_REPLAY_NODE', 'node')

_read_file = Specification.read_file
_read_comment_csv = Specification.read_comment_csv


def _record(specs, *args):
    specs.__dict__.setdefault('_speky_ts_args', []).extend(args)


def read_file(self, path, manifest=None):
    if manifest is None:  # a file named by the caller, not one a manifest lists
        _record(self, str(Path(path).resolve()))
    return _read_file(self, path, manifest)


def read_comment_csv(self, path, *rest, **named):
    _record(self, '-C', str(Path(path).resolve()))
    return _read_comment_csv(self, path, *rest, **named)


Specification.read_file = read_file
Specification.read_comment_csv = read_comment_csv


class _Server:
    def __init__(self, args):
        self.process = subprocess.Popen(
            [NODE, str(MCP_MAIN), '--quiet', '--no-watch', *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            cwd=REPO,
        )
        atexit.register(self.process.kill)

    def send(self, message):
        self.process.stdin.write((json.dumps(message) + '\n').encode())
        self.process.stdin.flush()
        if 'id' not in message:
            return None
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError('speky-ts server exited')
            answer = json.loads(line)
            if answer.get('id') == message['id']:
                return answer


_sessions = {}


def _session(args):
    key = tuple(args)
    if key not in _sessions:
        server = _Server(args)
        server.send({'jsonrpc': '2.0', 'id': 'init', 'method': 'initialize',
                     'params': {'protocolVersion': '2025-11-25', 'capabilities': {}}})
        server.send({'jsonrpc': '2.0', 'method': 'notifications/initialized'})
        _sessions[key] = server
    return _sessions[key]


def handle_request(request, specs, initialized):
    args = specs.__dict__.get('_speky_ts_args', [])
    server = _session(args) if initialized else _Server(args)
    return server.send(request)


speky_mcp.server.handle_request = handle_request


# The cases that fail against speky-ts because of a documented difference, with its row of
# docs/speky-differences.md: strict expected failures, so that one passing is reported too.
# speky's sample more_source.go has `func TestYetAnotherTest` outside a _test.go file, which
# go test never runs: speky counts T04 automated, speky-ts does not, and RF03's coverage follows.
FOLLOW_FROM_DIFFERENCES = {
    'tests/test_mcp_server.py::TestTestPlanCoverage::test_test_plan_coverage': 'Go',
    'tests/test_mcp_server.py::TestTestPlanCoverage::test_test_plan_coverage_by_category': 'Go',
    'tests/test_mcp_server.py::TestLeastTestedRequirements::test_sorted_by_coverage': 'Go',
}


def pytest_collection_modifyitems(items):
    for item in items:
        row = FOLLOW_FROM_DIFFERENCES.get(item.nodeid)
        if row:
            reason = f'follows from the row "{row}" of docs/speky-differences.md'
            item.add_marker(pytest.mark.xfail(strict=True, reason=reason))
