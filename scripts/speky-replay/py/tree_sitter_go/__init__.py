"""Stand-in for the go grammar package: its name, for tree_sitter.Language."""


def language():
    return 'go'
