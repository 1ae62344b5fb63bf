"""A stand-in for py-tree-sitter, enough for speky's scanner to run where the package is not
installable (no PyPI here): the parse is done by web-tree-sitter with speky-ts's own grammar
files, in one Node.js process (../parse-server.mjs) kept for the whole run.

Only what speky.scanner uses is provided: Language(<name>), Parser(language).parse(bytes),
Tree.root_node, and Node.type / is_named / children / parent / id / start_point /
start_byte / end_byte.
"""

import atexit
import base64
import json
import os
import subprocess

_SERVER = os.path.join(os.path.dirname(__file__), '..', '..', 'parse-server.mjs')
_process = None


def _parse(language, source):
    global _process
    if _process is None:
        _process = subprocess.Popen(
            [os.environ.get('SPEKY_REPLAY_NODE', 'node'), _SERVER],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )
        atexit.register(_process.kill)
    _process.stdin.write(f'{language}\t{base64.b64encode(source).decode()}\n'.encode())
    _process.stdin.flush()
    return json.loads(_process.stdout.readline())


class Language:
    def __init__(self, name):
        self.name = name


class Node:
    __slots__ = ('type', 'is_named', 'start_point', 'start_byte', 'end_byte', 'children', 'parent', 'id')

    def __init__(self, dumped, parent, ids):
        node_type, named, row, start, end, children = dumped
        self.type = node_type
        self.is_named = named
        self.start_point = (row, 0)
        self.start_byte = start
        self.end_byte = end
        self.parent = parent
        self.id = next(ids)
        self.children = [Node(child, self, ids) for child in children]


class Tree:
    def __init__(self, root_node):
        self.root_node = root_node


def _counter():
    n = 0
    while True:
        n += 1
        yield n


class Parser:
    def __init__(self, language):
        self.language = language

    def parse(self, source):
        return Tree(Node(_parse(self.language.name, bytes(source)), None, _counter()))
