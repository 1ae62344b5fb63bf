; C definitions for the speky scanner (captures: see README.md).

; Check: START_TEST(name) { ... } END_TEST
((function_definition
   type: (type_identifier) @anchor
   declarator: (parenthesized_declarator (identifier) @name)) @definition.test
 (#eq? @anchor "START_TEST"))

; The same after an END_TEST, which the grammar takes for the next definition's type.
((function_definition
   declarator: (function_declarator
     declarator: (identifier) @anchor
     parameters: (parameter_list . (identifier) @name .))) @definition.test
 (#eq? @anchor "START_TEST"))

; Unity fixtures and CppUTest-style TEST(Group, Name): Group.Name. Without types in
; scope the grammar reads the macro either as a function definition or as a call.
((function_definition
   declarator: (function_declarator
     declarator: (identifier) @anchor
     parameters: (parameter_list
       . [(parameter_declaration type: (type_identifier) @qualifier) (identifier) @qualifier]
       . [(parameter_declaration type: (type_identifier) @name) (identifier) @name] .))) @definition.test
 (#match? @anchor "^(TEST|IGNORE_TEST)$")
 (#set! qualifier_separator "."))
((call_expression
   function: (identifier) @anchor
   arguments: (argument_list . (identifier) @qualifier . (identifier) @name .)) @definition.test
 (#match? @anchor "^(TEST|IGNORE_TEST)$")
 (#set! qualifier_separator "."))

; Functions and prototypes, through pointer return types (int *f(void), char **g(void)).
(function_definition
  declarator: [(function_declarator declarator: (identifier) @name)
               (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
               (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))]) @definition.function
(declaration
  declarator: [(function_declarator declarator: (identifier) @name)
               (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
               (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))]) @definition.function

(struct_specifier name: (type_identifier) @name body: (field_declaration_list)) @definition.struct
(union_specifier name: (type_identifier) @name body: (field_declaration_list)) @definition.struct
(enum_specifier name: (type_identifier) @name body: (enumerator_list)) @definition.enum
(type_definition declarator: (type_identifier) @name) @definition.type
(translation_unit
  (declaration declarator: (init_declarator declarator: (identifier) @name)) @definition.variable)
(preproc_function_def name: (identifier) @name) @definition.macro
(preproc_def name: (identifier) @name) @definition.macro

; A prototype followed by a macro the grammar can't know (`extern int f (void) __THROW;`,
; system headers) parses as an ERROR holding its declarator: still the function's
; definition when that declarator parsed cleanly (the engine checks; see README).
(ERROR
  [(function_declarator declarator: (identifier) @name)
   (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))]) @definition.function
