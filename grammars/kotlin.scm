; Kotlin definitions for the speky scanner (captures: see README.md). The grammar is
; @tree-sitter-grammars/tree-sitter-kotlin: names are `identifier`s, qualified ones a
; `user_type` or `qualified_identifier` of several. When several patterns capture the same
; node, the first one in this file wins.

; JUnit 4/5, kotlin.test, TestNG: @Test, @ParameterizedTest..., simple or qualified
; (@kotlin.test.Test), with or without arguments.
((annotation (user_type (identifier) @_ann .)) @test.attribute
 (#match? @_ann "^(Test|ParameterizedTest|RepeatedTest|TestFactory|TestTemplate|Theory)$"))
((annotation (constructor_invocation (user_type (identifier) @_ann .))) @test.attribute
 (#match? @_ann "^(Test|ParameterizedTest|RepeatedTest|TestFactory|TestTemplate|Theory)$"))

; Kotest specs written as calls with a trailing lambda: context("title") { ... } nests,
; test("title") { ... } / it / should is a test; StringSpec's "title" { ... } too.
((call_expression
   (call_expression
     (identifier) @anchor
     (value_arguments . (value_argument (string_literal) @name)))
   (annotated_lambda)) @definition.suite
 (#match? @anchor "^(context|describe|feature|given|when|xcontext|xdescribe|fcontext)$")
 (#set! separator " > "))
((call_expression
   (call_expression
     (identifier) @anchor
     (value_arguments . (value_argument (string_literal) @name)))
   (annotated_lambda)) @definition.test
 (#match? @anchor "^(test|it|should|scenario|then|expect|xtest|xit|ftest|fit)$")
 (#set! separator " > "))
((call_expression
   . (string_literal) @name @anchor
   . (annotated_lambda)) @definition.test
 (#set! separator " > "))

; Functions in a class, interface or object body are methods: Class.method
(class_body (function_declaration name: (identifier) @name) @definition.method)
(class_body (secondary_constructor "constructor" @name) @definition.method)
(function_declaration name: (identifier) @name) @definition.function

(class_declaration "interface" name: (identifier) @name) @definition.interface
((class_declaration (modifiers (class_modifier) @_enum) name: (identifier) @name) @definition.enum
 (#eq? @_enum "enum"))
(class_declaration name: (identifier) @name) @definition.class
(object_declaration name: (identifier) @name) @definition.object
(type_alias type: (identifier) @name) @definition.type

; Properties: top-level ones are variables, class members fields.
(source_file (property_declaration (variable_declaration (identifier) @name)) @definition.variable)
(class_body (property_declaration (variable_declaration (identifier) @name)) @definition.field)

; Superclass and interfaces, for JUnit 3 (methods test* of a junit.framework.TestCase subclass).
(class_declaration
  (delegation_specifiers
    (delegation_specifier
      [(user_type (identifier) @base .)
       (constructor_invocation (user_type (identifier) @base .))]))) @definition.class

; Enum entries: Kind.DISCOUNTED (functions of an entry's body are Kind.DISCOUNTED.apply).
(enum_class_body (enum_entry (identifier) @name) @definition.enum_member)
