; Lua definitions for the speky scanner (captures: see README.md).
; When several patterns capture the same node, the first one in this file wins.

; busted: describe("title", function() ... end) nests, it/test/pending are tests.
((call
   function: (variable name: (identifier) @anchor)
   arguments: (argument_list (expression_list . (string) @name))) @definition.suite
 (#match? @anchor "^(describe|context|insulate|expose)$")
 (#set! separator " > "))
((call
   function: (variable name: (identifier) @anchor)
   arguments: (argument_list (expression_list . (string) @name))) @definition.test
 (#match? @anchor "^(it|test|spec|pending)$")
 (#set! separator " > "))

; function M:method() is written M:method; function M.f() and M.f = function() M.f.
((function_definition_statement
   name: (variable table: (_) @qualifier method: (identifier) @name)) @definition.method
 (#set! qualifier_separator ":"))
(function_definition_statement name: (variable table: (_) @qualifier field: (identifier) @name)) @definition.function
(function_definition_statement name: (identifier) @name) @definition.function
(function_definition_statement name: (variable name: (identifier) @name)) @definition.function
(local_function_definition_statement name: (identifier) @name) @definition.function
(variable_assignment
  (variable_list . (variable table: (_) @qualifier field: (identifier) @name))
  (expression_list . value: (function_definition))) @definition.function
(variable_assignment
  (variable_list . (variable name: (identifier) @name))
  (expression_list . value: (function_definition))) @definition.function
(local_variable_declaration
  (variable_list . (variable name: (identifier) @name))
  (expression_list . value: (function_definition))) @definition.function

; Chunk-level variables: local M = {}, VERSION = "1".
(chunk (local_variable_declaration (variable_list . (variable name: (identifier) @name))) @definition.variable)
(chunk (variable_assignment (variable_list . (variable name: (identifier) @name))) @definition.variable)
