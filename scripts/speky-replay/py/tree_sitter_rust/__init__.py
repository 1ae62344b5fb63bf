"""Stand-in for the rust grammar package: its name, for tree_sitter.Language."""


def language():
    return 'rust'
