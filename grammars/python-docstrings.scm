; Python docstrings for the speky scanner (captures: see README.md): the row's stringQueries,
; compiled and run only for a file with a tag inside a string (most tags are in comments).
; `body: (_ ...)`: a block whatever the source, written as a wildcard (see python.scm).

; The first statement of a module, class or function body.
(module . (comment)* . (expression_statement (string) @docstring))
(class_definition body: (_ . (comment)* . (expression_statement (string) @docstring)))
(function_definition body: (_ . (comment)* . (expression_statement (string) @docstring)))
