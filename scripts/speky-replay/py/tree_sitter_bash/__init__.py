"""Stand-in for the bash grammar package: its name, for tree_sitter.Language."""


def language():
    return 'bash'
