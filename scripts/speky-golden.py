#!/usr/bin/env python3
"""Run speky's own command line with our code references: the golden pages of test/myst-pages.

usage: python3 scripts/speky-golden.py SPEKY_PYTHON_DIR EXPORT_JSON [SPEKY_ARGS...]

SPEKY_PYTHON_DIR is the python/ folder of a snapshot of github.com/agagniere/speky, outside this
repository (its code is imported from there, never copied here). Its generator and loader run
unchanged; only its scanner cannot: it needs the tree_sitter Python packages, which Debian does
not ship. So stub modules let scanner.py import (for its CodeReference class), and
Specification.scan_code_sources is replaced by one that takes the references from EXPORT_JSON
(`speky export`'s code_references), turned into what speky's scanner reports for them (the
rules below are written independently of src/myst/speky-view.ts, which the test then checks
against them) and linked by speky's own SourceLinkConfig. The exit status is speky's.
"""

import importlib.metadata
import json
import sys
import types
from pathlib import Path, PurePosixPath

speky_dir, export_file, *speky_args = sys.argv[1:]
sys.path.insert(0, speky_dir)

# speky asks for its installed version when it builds its parser.
_version = importlib.metadata.version
importlib.metadata.version = lambda name: 'golden' if name == 'speky' else _version(name)

# Stand-ins for the tree-sitter packages: scanner.py builds Language objects at import.
for name in ['tree_sitter', 'tree_sitter_bash', 'tree_sitter_go', 'tree_sitter_python', 'tree_sitter_rust']:
    module = types.ModuleType(name)
    module.language = lambda: None
    module.Language = module.Parser = module.Node = lambda *args, **kwargs: None
    sys.modules[name] = module

import speky.main  # noqa: E402
from speky.scanner import CodeReference  # noqa: E402
from speky.specification import Specification  # noqa: E402

SYMBOL_KINDS = {
    '.py': {'function', 'method', 'class'},
    '.go': {'function', 'method'},
    '.rs': {'function', 'method'},
    '.sh': {'function'},
}


def speky_sees(ref):
    """(symbol, line, is_test) as speky's scanner would report our reference."""
    suffix = PurePosixPath(ref['file']).suffix
    name = PurePosixPath(ref['file']).name
    if suffix not in SYMBOL_KINDS:
        return ref['symbol'], ref['line'], ref['is_test']
    symbol = ref['symbol'] if ref['kind'] in SYMBOL_KINDS[suffix] else None
    start = ref.get('start_line', ref['line'])
    if suffix == '.py':
        if symbol is None:
            return None, ref['tag_line'], False
        bare = symbol.split('.')[-1]
        # Above the decorators: the decorated_definition, from its first decorator.
        line = start if ref['tag_line'] < start else ref['line']
        return bare, line, bare.startswith(('test', 'Test'))
    if suffix == '.go':
        in_test_file = name.endswith('_test.go')
        if symbol is None:
            return None, ref['tag_line'], in_test_file
        bare = symbol.split('.')[-1]
        return bare, ref['line'], in_test_file or bare.startswith('Test')
    if suffix == '.rs':
        if symbol is None or ref['tag_line'] < start < ref['line']:
            return None, ref['tag_line'], False
        return symbol.split('::')[-1], ref['line'], ref['is_test']
    in_test_file = name.startswith('test')
    if symbol is None:
        return None, ref['tag_line'], in_test_file
    return symbol, ref['line'], in_test_file


def scan_from_export(self):
    if not any(m.code_sources for m in self.manifests):
        return
    manifest_by_name = {m.name.lower(): m for m in self.manifests}
    with open(export_file, encoding='utf8') as f:
        exported = json.load(f)
    for r in exported['code_references'] + exported['dangling_references']:
        manifest = manifest_by_name[r['project'].lower()]
        symbol, line, is_test = speky_sees(r)
        ref = CodeReference(
            project=r['project'].lower(),
            file=(manifest.root_dir / r['file']).resolve(),
            line=line,
            target_id=r['id'],
            language=r['language'],
            symbol=symbol,
            is_test=is_test,
        )
        ref.manifest = manifest
        base_url = manifest.link_config.url_for(ref.file)
        if base_url:
            ref.url = f'{base_url}#L{ref.line}'
        self.code_refs_by_id[ref.target_id].append(ref)


Specification.scan_code_sources = scan_from_export
sys.argv = ['speky', *speky_args]
speky.main.main()
