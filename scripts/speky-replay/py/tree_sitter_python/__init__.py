"""Stand-in for the python grammar package: its name, for tree_sitter.Language."""


def language():
    return 'python'
