; OCaml definitions for the speky scanner (captures: see README.md).
; When several patterns capture the same node, the first one in this file wins.

; ppx_inline_test / ppx_expect: let%test "title" = ..., let%test_unit, let%expect_test.
((value_definition (attribute_id) @_ext (let_binding pattern: (string) @name)) @definition.test
 (#any-of? @_ext "test" "test_unit" "expect_test" "test_module"))
; OUnit: "suite" >::: [...] nests, "title" >:: f is a test. Alcotest: test_case "title" ...
((infix_expression left: (string) @name operator: (_) @_op) @definition.suite @anchor
 (#eq? @_op ">:::")
 (#set! separator " > "))
((infix_expression left: (string) @name operator: (_) @_op) @definition.test @anchor
 (#eq? @_op ">::")
 (#set! separator " > "))
((application_expression function: (value_path (value_name) @_f .) . argument: (string) @name) @definition.test @anchor
 (#any-of? @_f "test_case" "test" "test_case_sync")
 (#set! separator " > "))

; let bindings of a file or module: functions (with parameters or a fun) and values.
; Local lets (let ... in) are neither.
(compilation_unit (value_definition (let_binding pattern: (value_name) @name (parameter))) @definition.function)
(compilation_unit (value_definition (let_binding pattern: (value_name) @name body: [(fun_expression) (function_expression)])) @definition.function)
(compilation_unit (value_definition (let_binding pattern: (value_name) @name)) @definition.variable)
(structure (value_definition (let_binding pattern: (value_name) @name (parameter))) @definition.function)
(structure (value_definition (let_binding pattern: (value_name) @name body: [(fun_expression) (function_expression)])) @definition.function)
(structure (value_definition (let_binding pattern: (value_name) @name)) @definition.variable)
(external (value_name) @name) @definition.function
(value_specification (value_name) @name) @definition.function

(module_definition (module_binding name: (module_name) @name)) @definition.module
(module_type_definition name: (module_type_name) @name) @definition.interface
(type_definition (type_binding name: (type_constructor) @name)) @definition.type
(exception_definition (constructor_declaration (constructor_name) @name)) @definition.type
(class_definition (class_binding name: (class_name) @name)) @definition.class
(method_definition name: (method_name) @name) @definition.method
