; Dart definitions for the speky scanner (captures: see README.md). In this grammar a
; function's signature and body are siblings: the signature is the definition.
; When several patterns capture the same node, the first one in this file wins.

; package:test and flutter_test: group('title', ...) nests, test/testWidgets are tests.
((expression_statement
   (identifier) @anchor
   .
   (selector (argument_part (arguments . (argument (string_literal) @name))))) @definition.suite
 (#eq? @anchor "group")
 (#set! separator " > "))
((expression_statement
   (identifier) @anchor
   .
   (selector (argument_part (arguments . (argument (string_literal) @name))))) @definition.test
 (#match? @anchor "^(test|testWidgets|testGoldens|blocTest|patrolTest)$")
 (#set! separator " > "))

; Members: methods, getters, setters, operators, constructors. A named constructor is
; Basket.named (its pattern comes first: a later one would name it Basket.Basket).
(method_signature
  [(constructor_signature name: (identifier) name: (identifier) @name)
   (factory_constructor_signature (identifier) (identifier) @name)]) @definition.method
(declaration
  [(constructor_signature name: (identifier) name: (identifier) @name)
   (constant_constructor_signature (identifier) (identifier) @name)]) @definition.method
(method_signature
  [(function_signature name: (identifier) @name)
   (getter_signature name: (identifier) @name)
   (setter_signature name: (identifier) @name)
   (operator_signature (binary_operator) @name)
   (constructor_signature name: (identifier) @name)
   (factory_constructor_signature (identifier) @name)]) @definition.method
(declaration
  [(function_signature name: (identifier) @name)
   (getter_signature name: (identifier) @name)
   (setter_signature name: (identifier) @name)
   (constructor_signature name: (identifier) @name)
   (constant_constructor_signature (identifier) @name)]) @definition.method
(class_body (declaration (initialized_identifier_list (initialized_identifier (identifier) @name))) @definition.field)
(class_body (declaration (static_final_declaration_list (static_final_declaration (identifier) @name))) @definition.field)

; Top-level functions, getters and setters.
(program (function_signature name: (identifier) @name) @definition.function)
(program (getter_signature name: (identifier) @name) @definition.function)
(program (setter_signature name: (identifier) @name) @definition.function)

(class_definition name: (identifier) @name) @definition.class
(mixin_declaration (identifier) @name) @definition.class
(extension_declaration name: (identifier) @name) @definition.extension
(enum_declaration name: (identifier) @name) @definition.enum
(type_alias . (type_identifier) @name) @definition.type
