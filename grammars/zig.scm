; Zig definitions for the speky scanner (captures: see README.md).
; When several patterns capture the same node, the first one in this file wins.

; test "title" { ... } and test decl_name { ... } blocks are tests.
(test_declaration [(string) (identifier)] @name) @definition.test

; Functions in a container (struct, enum, union, opaque) are methods: Type.method
(struct_declaration (function_declaration name: (identifier) @name) @definition.method)
(enum_declaration (function_declaration name: (identifier) @name) @definition.method)
(union_declaration (function_declaration name: (identifier) @name) @definition.method)
(opaque_declaration (function_declaration name: (identifier) @name) @definition.method)
(function_declaration name: (identifier) @name) @definition.function

; const Basket = struct { ... }: containers are named by their declaration.
(variable_declaration . (identifier) @name (struct_declaration)) @definition.struct
(variable_declaration . (identifier) @name (enum_declaration)) @definition.enum
(variable_declaration . (identifier) @name (union_declaration)) @definition.struct
(variable_declaration . (identifier) @name (opaque_declaration)) @definition.struct
(variable_declaration . (identifier) @name (error_set_declaration)) @definition.enum

; File-level and container-level constants and variables, container fields.
(source_file (variable_declaration . (identifier) @name) @definition.variable)
(struct_declaration (variable_declaration . (identifier) @name) @definition.constant)
(struct_declaration (container_field name: (identifier) @name) @definition.field)
