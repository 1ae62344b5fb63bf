; Python definitions for the speky scanner (captures: see README.md).
; When several patterns capture the same node, the first one in this file wins.
; `body: (_ ...)`, `superclasses: (_ ...)` and `(_ attribute: ...)` are a block, an argument_list
; and an attribute whatever the source (no other node has those fields): written as wildcards,
; tree-sitter skips its parse-table analysis of those parents
; (most of this query's compile time, paid by every `speky check`; see grammars/README.md).
; Docstrings are in python-docstrings.scm, compiled only for a tag written in a string.

; Methods: functions written directly in a class body, decorated or not.
(class_definition
  body: (_
    [(function_definition name: (identifier) @name) @definition.method
     (decorated_definition definition: (function_definition name: (identifier) @name) @definition.method)]))

(function_definition name: (identifier) @name) @definition.function

(class_definition name: (identifier) @name) @definition.class

; Module and class attributes: LIMIT = 3, name: str = "x"
(module (expression_statement (assignment left: (identifier) @name)) @definition.variable)
(class_definition body: (_ (expression_statement (assignment left: (identifier) @name)) @definition.variable))

; Base classes, for the test rule (unittest.TestCase and friends).
(class_definition
  superclasses: (_ [(identifier) @base (_ attribute: (identifier) @base)])) @definition.class
